#include "compat/python_text.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace fiohist {
namespace compat {

bool ParsePythonInt(const std::string& text, int64_t* value) {
  size_t b = text.find_first_not_of(" \t");
  size_t e = text.find_last_not_of(" \t");
  if (b == std::string::npos) return false;
  const std::string s = text.substr(b, e - b + 1);
  size_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0;
  if (i == s.size()) return false;
  for (size_t j = i; j < s.size(); ++j) {
    if (s[j] < '0' || s[j] > '9') return false;
  }
  errno = 0;
  const long long v = std::strtoll(s.c_str(), nullptr, 10);
  if (errno == ERANGE) return false;
  *value = v;
  return true;
}

bool ParsePythonFloat(const std::string& text, double* value) {
  if (text.empty() || text.find_first_of("xXpP") != std::string::npos) return false;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  while (*end == ' ' || *end == '\t') ++end;
  if (end == text.c_str() || *end != '\0') return false;
  *value = v;
  return true;
}

std::string PythonIntegerPart(double v) {
  char buf[400];
  if (std::fabs(v) < 9.0e18) {
    std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(v));
  } else {
    std::snprintf(buf, sizeof(buf), "%.0f", std::trunc(v));
  }
  return buf;
}

std::string PythonFixed(double v, int decimals) {
  // Large values and many decimals: the buffer holds any double's full expansion.
  char buf[1200];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals > 700 ? 700 : decimals, v);
  return buf;
}

}  // namespace compat
}  // namespace fiohist
