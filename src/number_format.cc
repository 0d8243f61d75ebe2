#include "number_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace fiohist {

void AppendShortest(std::string* out, double v) {
  if (!std::isfinite(v)) return;
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, r.ptr);
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
