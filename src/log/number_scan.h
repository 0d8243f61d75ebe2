// Scanning the decimal numbers of fio's text logs: shared by every log line parser.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <system_error>

namespace fiohist {

/// The largest time stamp a log line may carry: larger ones are no fio time (10^15 ms is the
/// year 33658) and would overflow the time grid once quanta and offsets are added.
constexpr uint64_t kMaxLogTimeMs = 1000000000000000ULL;

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

/// Parses an unsigned integer (`base` 10 or 16) at *p, advancing it past the digits;
/// returns 0 ok, 1 not a number, 2 overflow.
inline int ParseUnsigned(const char*& p, const char* end, uint64_t* value, int base = 10) {
  const std::from_chars_result r = std::from_chars(p, end, *value, base);
  if (r.ec == std::errc::invalid_argument) return 1;
  p = r.ptr;
  return r.ec == std::errc() ? 0 : 2;
}

/// What ParseUnsigned()'s failure `rc` at `at` means, for the field named `column`.
inline std::string NumberError(int rc, const char* at, const char* end, const std::string& column) {
  if (rc == 2) return column + " does not fit in 64 bits";
  if (at < end && *at == '-') {
    return "expected a non-negative integer for " + column + ", found a negative number " +
           Excerpt(at, end);
  }
  return "expected an integer for " + column + ", found " + Excerpt(at, end);
}

/// Steps from the end of field number `field` (1-based) of a ','-separated line to the next
/// field: blanks, one ',', blanks (fio writes ", "; any blanks are accepted). Returns 1 with
/// *p at the next field, 0 at the end of the line, -1 with `*what` set when no ',' follows
/// or the line ends after one (a cut line).
inline int NextField(const char*& p, const char* end, int field, std::string* what) {
  while (p < end && IsSpace(*p)) ++p;
  if (p == end) return 0;
  if (*p != ',') {
    *what = "expected ',' after column " + std::to_string(field) + ", found " + Excerpt(p, end);
    return -1;
  }
  ++p;
  while (p < end && IsSpace(*p)) ++p;
  if (p == end) {
    // fio does not end lines with a comma: a trailing comma means a cut line.
    *what = "line ends with ',' (expected another number: truncated line?)";
    return -1;
  }
  return 1;
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
