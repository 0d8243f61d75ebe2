// Scanning the decimal numbers of fio's text logs: shared by every log line parser.
#pragma once

#include <cstdint>
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

}  // namespace fiohist
