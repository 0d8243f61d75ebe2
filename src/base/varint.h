// LEB128 varints and raw doubles in byte strings: the compact form of spilled histograms.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace fiohist {

/// Room a varint may take.
constexpr size_t kMaxVarintBytes = 10;

/// Writes `v` as PutVarint does at `p` (kMaxVarintBytes must be writable); returns the end.
inline char* EncodeVarint(uint64_t v, char* p) {
  while (v >= 0x80) {
    *p++ = static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

/// Appends `v` as a little-endian base-128 varint (1 byte below 128, at most 10).
inline void PutVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

/// Appends a signed value zigzag-encoded (small magnitudes of either sign stay short).
inline void PutSignedVarint(int64_t v, std::string* out) {
  PutVarint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63), out);
}

/// Reads a varint from [*p, end) into `*v`, advancing `*p`; false when it is cut or too long.
inline bool GetVarint(const char** p, const char* end, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64 && *p < end; shift += 7) {
    const uint64_t byte = static_cast<unsigned char>(*(*p)++);
    result |= (byte & 0x7f) << shift;
    if (byte < 0x80) {
      *v = result;
      return true;
    }
  }
  return false;
}

/// Reads a zigzag varint written by PutSignedVarint.
inline bool GetSignedVarint(const char** p, const char* end, int64_t* v) {
  uint64_t u;
  if (!GetVarint(p, end, &u)) return false;
  *v = static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
  return true;
}

/// Appends `v` so that GetDouble restores it bit for bit: a non-negative whole number
/// below 2^52 (most counts) as an even varint, anything else as a 1 byte and its 8 bytes.
inline void PutDouble(double v, std::string* out) {
  if (v >= 0 && v < 4503599627370496.0 && !std::signbit(v) &&
      static_cast<double>(static_cast<uint64_t>(v)) == v) {
    PutVarint(static_cast<uint64_t>(v) << 1, out);
    return;
  }
  out->push_back(1);
  char raw[sizeof v];
  std::memcpy(raw, &v, sizeof v);
  out->append(raw, sizeof v);
}

/// Reads a double written by PutDouble.
inline bool GetDouble(const char** p, const char* end, double* v) {
  uint64_t u;
  if (!GetVarint(p, end, &u)) return false;
  if ((u & 1) == 0) {
    *v = static_cast<double>(u >> 1);
    return true;
  }
  if (u != 1 || end - *p < static_cast<long>(sizeof *v)) return false;
  std::memcpy(v, *p, sizeof *v);
  *p += sizeof *v;
  return true;
}

}  // namespace fiohist
