// The JSON text that documents are written with, fast: numbers and strings written through
// a raw cursor (the caller reserves the room each piece may take), exactly as rapidjson's
// Writer would write them, so documents built either way are byte-identical.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace fiohist {

/// Writes `v` as documents write doubles: std::to_chars' shortest round-trip text (exact),
/// with ".0" after a whole number so that Elasticsearch maps it as a double (inf and NaN
/// are the caller's business). At most json_text::kMaxDouble bytes; returns the end.
char* FormatJsonDouble(char* out, double v);

/// Pieces of JSON text written at a raw cursor `p`; each returns the end of what it wrote.
namespace json_text {

/// Bytes FormatJsonDouble (PutDouble) may write: the shortest exact text of any double,
/// ".0" and sign included.
constexpr size_t kMaxDouble = 32;

/// FormatJsonDouble.
inline char* PutDouble(char* p, double v) { return FormatJsonDouble(p, v); }

/// A number field's value: null when not finite (JSON has no inf or NaN).
char* PutNum(char* p, double v);

/// The literal `s` (without its terminating NUL).
template <size_t N>
char* Lit(char* p, const char (&s)[N]) {
  std::memcpy(p, s, N - 1);
  return p + N - 1;
}

/// `s` as it is (a fragment formatted earlier).
inline char* Put(char* p, const std::string& s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

/// Bytes PutString may write for `n` bytes of text.
constexpr size_t StringRoom(size_t n) { return 2 + 6 * n; }

/// A JSON string exactly as rapidjson's Writer writes it: \" \\ \b \f \n \r \t, other
/// control characters as \u00XX (upper-case hex), every other byte (UTF-8 too) as it is.
char* PutString(char* p, const char* s, size_t n);
char* PutString(char* p, const std::string& s);
char* PutString(char* p, const char* s);

/// PutString's text as a std::string, for the fragments built once.
std::string StringText(const char* s, size_t n);
/// `"name":`.
std::string KeyText(const char* name);

/// One piece of PutListBody: `copy` bytes of `text` are copied (a fixed size, the caller
/// leaves that slack), and the cursor advances by `used`.
struct ListPiece {
  const char* text;
  size_t copy;
  size_t used;
};
/// Writes a JSON list body "[a,b,c" of n pieces: piece(i) gives its ListPiece, each text
/// starting with its ','. The list's first comma then becomes the "[": no branch per
/// element.
template <typename Piece>
char* PutListBody(char* p, size_t n, Piece piece) {
  char* open = p;
  *p = ',';
  for (size_t i = 0; i < n; ++i) {
    const ListPiece t = piece(i);
    std::memcpy(p, t.text, t.copy);
    p += t.used;
  }
  if (n == 0) ++p;
  *open = '[';
  return p;
}

/// Bytes PutRuns and PutInts may write per element.
constexpr size_t kRunRoom = 2 * 9;  // ",gap,length" of up to 8 digits each
constexpr size_t kIntRoom = 21;     // ",<int64>"

/// The `n` ascending columns col(i) as runs of consecutive buckets: [first, length, gap,
/// length, gap, length...], the gap from a run's last bucket to the next run's first. A
/// quantum's body is mostly one run, so this is a few numbers where indices would be
/// hundreds.
template <typename Col>
char* PutRuns(char* p, size_t n, Col col) {
  char* open = p;
  *p = ',';
  size_t i = 0;
  int64_t prev = 0;
  while (i < n) {
    size_t j = i + 1;
    while (j < n && col(j) == col(j - 1) + 1) ++j;
    *p++ = ',';
    p = std::to_chars(p, p + 8, col(i) - prev).ptr;
    *p++ = ',';
    p = std::to_chars(p, p + 8, j - i).ptr;
    prev = col(j - 1);
    i = j;
  }
  if (n == 0) ++p;
  *open = '[';
  *p++ = ']';
  return p;
}

/// [v(0),...,v(n-1)] of integers.
template <typename Val>
char* PutInts(char* p, size_t n, Val val) {
  char* open = p;
  *p = ',';
  for (size_t i = 0; i < n; ++i) {
    *p++ = ',';
    p = std::to_chars(p, p + 20, val(i)).ptr;
  }
  if (n == 0) ++p;
  *open = '[';
  *p++ = ']';
  return p;
}

}  // namespace json_text
}  // namespace fiohist
