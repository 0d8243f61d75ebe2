// Scanning the decimal numbers of fio's text logs: shared by every log line parser.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace fiohist {

/// A blank inside a log line (fio separates columns with ", ").
inline bool IsSpace(char c) { return c == ' ' || c == '\t'; }
/// An ASCII digit.
inline bool IsDigit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

/// Short excerpt of the text at `p` (up to the next ',' or 20 bytes) for error messages.
inline std::string Excerpt(const char* p, const char* end) {
  const char* stop = p;
  while (stop < end && *stop != ',' && stop - p < 20) ++stop;
  std::string s(p, stop);
  for (char& c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  return s.empty() ? std::string("end of line") : "'" + s + "'";
}

/// Parses an unsigned integer at *p (advancing it); returns 0 ok, 1 not a number, 2
/// overflow.
inline int ParseUnsigned(const char*& p, const char* end, uint64_t* value) {
  const char* start = p;
  // Up to 19 digits cannot overflow: no check per digit on the hot path.
  const char* fast_end = end - p > 19 ? p + 19 : end;
  uint64_t v = 0;
  while (p < fast_end && IsDigit(*p)) {
    v = v * 10 + static_cast<uint64_t>(*p - '0');
    ++p;
  }
  while (p < end && IsDigit(*p)) {
    const uint64_t d = static_cast<uint64_t>(*p - '0');
    if (v > (UINT64_MAX - d) / 10) return 2;
    v = v * 10 + d;
    ++p;
  }
  if (p == start) return 1;
  *value = v;
  return 0;
}

/// Reads the run of up to 8 digits at `p` (8 bytes must be readable) without a branch per
/// digit: columns have irregular lengths, and mispredicted loop exits cost more than the
/// digits. Sets *digits to 0 when there is no digit or more than 8 of them.
inline uint64_t ParseShortUnsigned(const char* p, int* digits) {
  uint64_t word;
  std::memcpy(&word, p, 8);
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
  word = __builtin_bswap64(word);
#endif
  const uint64_t values = word ^ 0x3030303030303030ULL;  // '0'..'9' -> 0..9
  // High bit of each byte that is not 0..9 (a carry only reaches later bytes).
  const uint64_t non_digit = ((values + 0x7676767676767676ULL) | values) & 0x8080808080808080ULL;
  if (non_digit == 0) {
    *digits = 0;
    return 0;
  }
  const int n = __builtin_ctzll(non_digit) / 8;
  *digits = n;
  if (n == 0) return 0;
  // Digits to the top bytes (leading zeros below), then combine pairs, quads, octets.
  uint64_t v = values << (8 * (8 - n));
  v = ((v & 0x0F0F0F0F0F0F0F0FULL) * 2561) >> 8;
  v = ((v & 0x00FF00FF00FF00FFULL) * 6553601) >> 16;
  v = ((v & 0x0000FFFF0000FFFFULL) * 42949672960001ULL) >> 32;
  return v;
}

/// The 8 digits at `p` (all of them digits) as a number, without a branch per digit.
inline uint64_t EightDigits(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  v ^= 0x3030303030303030ULL;
  v = ((v & 0x0F0F0F0F0F0F0F0FULL) * 2561) >> 8;
  v = ((v & 0x00FF00FF00FF00FFULL) * 6553601) >> 16;
  return ((v & 0x0000FFFF0000FFFFULL) * 42949672960001ULL) >> 32;
}

}  // namespace fiohist
