#include "base/number_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace fiohist {

namespace {

// The powers of ten that doubles hold exactly.
constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// std::to_chars(v) (shortest round trip) for v in [1e-7, 1e15) whose shortest form has at
// most 15 significant digits, in a fraction of to_chars' time; nullptr for any other v.
// Why it is exact: N = round(v * 10^k) with 10^14 <= v * 10^k < ~10^15 is the nearest
// 15-digit decimal to v (the product's error is below 0.12 there), and N / 10^k == v
// (one correctly rounded division of exact values) says that this decimal reads back as
// v. 15-digit decimals lie several ulps apart, so at most one is within half an ulp of v:
// if any decimal of at most 15 digits reads back as v, it is N (padded with zeros), and
// N without its trailing zeros is the shortest form. The text then follows to_chars:
// fixed or scientific, whichever is shorter, fixed on a tie.
char* ShortDouble(char* p, double v) {
  if (!(v >= 1e-7 && v < 1e15)) return nullptr;
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const int e2 = static_cast<int>((bits >> 52) & 0x7ff) - 1023;  // 2^e2 <= v < 2^(e2+1)
  const int e10 = (e2 * 78913) >> 18;  // floor(e2 * log10(2)): 10^e10 <= v, maybe 10^(e10+1)
  int k = 14 - e10;                    // 0..22 over the range above
  double x = v * kPow10[k];
  if (x >= 1e15) x = v * kPow10[--k];
  const uint64_t n = static_cast<uint64_t>(x + 0.5);
  if (static_cast<double>(n) / kPow10[k] != v) return nullptr;
  // Trailing zeros off first (n < 2 * 10^15 has at most 15): the digits left are the text.
  uint64_t d = n;
  int zeros = 0;
  if (d % 100000000 == 0) d /= 100000000, zeros += 8;
  if (d % 10000 == 0) d /= 10000, zeros += 4;
  if (d % 100 == 0) d /= 100, zeros += 2;
  if (d % 10 == 0) d /= 10, zeros += 1;
  char digits[20];
  const int m = static_cast<int>(std::to_chars(digits, digits + sizeof(digits), d).ptr - digits);
  const int e = m + zeros - 1 - k;  // v = d.ddd * 10^e, |e| < 100
  const int sci_size = m + (m > 1 ? 1 : 0) + 4;
  const int fixed_size = e >= 0 ? std::max(m, e + 1) + (m > e + 1 ? 1 : 0) : m + 1 - e;
  if (fixed_size <= sci_size) {
    if (e < 0) {
      p[0] = '0';
      p[1] = '.';
      std::memset(p + 2, '0', static_cast<size_t>(-e - 1));
      std::memcpy(p + 1 - e, digits, static_cast<size_t>(m));
      return p + m + 1 - e;
    }
    if (m <= e + 1) {  // a whole number
      std::memcpy(p, digits, static_cast<size_t>(m));
      std::memset(p + m, '0', static_cast<size_t>(e + 1 - m));
      return p + e + 1;
    }
    std::memcpy(p, digits, static_cast<size_t>(e + 1));
    p[e + 1] = '.';
    std::memcpy(p + e + 2, digits + e + 1, static_cast<size_t>(m - e - 1));
    return p + m + 1;
  }
  *p++ = digits[0];
  if (m > 1) {
    *p++ = '.';
    std::memcpy(p, digits + 1, static_cast<size_t>(m - 1));
    p += m - 1;
  }
  const int a = e < 0 ? -e : e;
  p[0] = 'e';
  p[1] = e < 0 ? '-' : '+';
  p[2] = static_cast<char>('0' + a / 10);
  p[3] = static_cast<char>('0' + a % 10);
  return p + 4;
}

}  // namespace

char* WriteShortest(char* out, double v) {
  if (char* end = ShortDouble(out, v)) return end;
  if (v < 0 && v > -1e15) {  // the same digits after a minus sign
    *out = '-';
    if (char* end = ShortDouble(out + 1, -v)) return end;
  }
  return std::to_chars(out, out + kShortestMaxBytes, v).ptr;
}

void AppendShortest(std::string* out, double v) {
  if (!std::isfinite(v)) return;
  char buf[kShortestMaxBytes];
  out->append(buf, WriteShortest(buf, v));
}

void AppendPythonRepr(std::string* out, double v) {
  if (std::isnan(v)) {
    out->append("nan");
    return;
  }
  if (std::isinf(v)) {
    out->append(v > 0 ? "inf" : "-inf");
    return;
  }
  // Shortest round-trip digits in scientific form: "d.ddddde[+-]xx".
  char sci[64];
  const auto r = std::to_chars(sci, sci + sizeof(sci), v, std::chars_format::scientific);
  std::string s(sci, r.ptr);
  std::string sign;
  if (s[0] == '-') {
    sign = "-";
    s.erase(0, 1);
  }
  const size_t e = s.find('e');
  const int exp10 = std::atoi(s.c_str() + e + 1);
  std::string digits;
  for (size_t i = 0; i < e; ++i) {
    if (s[i] != '.') digits.push_back(s[i]);
  }
  out->append(sign);
  const int n = static_cast<int>(digits.size());
  // Python switches to exponent form for exp < -4 or exp >= 16.
  if (exp10 < -4 || exp10 >= 16) {
    out->push_back(digits[0]);
    if (n > 1) {
      out->push_back('.');
      out->append(digits, 1, std::string::npos);
    }
    char eb[16];
    std::snprintf(eb, sizeof(eb), "e%c%02d", exp10 < 0 ? '-' : '+', std::abs(exp10));
    out->append(eb);
    return;
  }
  if (exp10 < 0) {
    out->append("0.");
    out->append(static_cast<size_t>(-exp10 - 1), '0');
    out->append(digits);
  } else if (exp10 + 1 >= n) {
    out->append(digits);
    out->append(static_cast<size_t>(exp10 + 1 - n), '0');
    out->append(".0");
  } else {
    out->append(digits, 0, static_cast<size_t>(exp10 + 1));
    out->push_back('.');
    out->append(digits, static_cast<size_t>(exp10 + 1), std::string::npos);
  }
}

}  // namespace fiohist
