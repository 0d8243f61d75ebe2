#include "output/json_text.h"

#include <cmath>

#include "base/number_format.h"

namespace fiohist {

// Shortest round-trip digits as std::to_chars writes them (WriteShortest: to_chars was
// most of the cost of a document). JSON numbers need no ".0", but Elasticsearch's dynamic
// mapping would read an integer as long: whole doubles stay recognisable as doubles.
char* FormatJsonDouble(char* p, double v) {
  char* end = WriteShortest(p, v);
  for (const char* q = p; q < end; ++q) {
    if (*q == '.' || *q == 'e') return end;
  }
  end[0] = '.';
  end[1] = '0';
  return end + 2;
}

namespace json_text {

char* PutNum(char* p, double v) {
  if (std::isfinite(v)) return PutDouble(p, v);
  std::memcpy(p, "null", 4);
  return p + 4;
}

char* PutString(char* p, const char* s, size_t n) {
  static const char kHex[] = "0123456789ABCDEF";
  *p++ = '"';
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') {
      *p++ = static_cast<char>(c);
      continue;
    }
    *p++ = '\\';
    switch (c) {
      case '"':
      case '\\':
        *p++ = static_cast<char>(c);
        break;
      case '\b':
        *p++ = 'b';
        break;
      case '\f':
        *p++ = 'f';
        break;
      case '\n':
        *p++ = 'n';
        break;
      case '\r':
        *p++ = 'r';
        break;
      case '\t':
        *p++ = 't';
        break;
      default:
        p = Lit(p, "u00");
        *p++ = kHex[c >> 4];
        *p++ = kHex[c & 15];
    }
  }
  *p++ = '"';
  return p;
}
char* PutString(char* p, const std::string& s) { return PutString(p, s.data(), s.size()); }
char* PutString(char* p, const char* s) { return PutString(p, s, std::strlen(s)); }

std::string StringText(const char* s, size_t n) {
  std::string t(StringRoom(n), '\0');
  t.resize(static_cast<size_t>(PutString(t.data(), s, n) - t.data()));
  return t;
}
std::string KeyText(const char* name) { return StringText(name, std::strlen(name)) + ":"; }

}  // namespace json_text
}  // namespace fiohist
