// The fast path of per-I/O log parsing: one line as fio writes it, found and read in one
// pass over the bytes (no memchr for the line's end, then a second pass for the fields).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "log/number_scan.h"
#include "log/per_io_line.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fiohist {

/// The longest line ScanPerIoLine() reads (a longer one goes to ParsePerIoLine()).
constexpr size_t kPerIoScanMaxLine = 63;
/// Bytes that must be readable from the start of the text given to ScanPerIoLine(): its
/// window and the 8-byte loads of a field that starts near the window's end.
constexpr size_t kPerIoScanReadable = 80;

namespace per_io_scan_detail {

/// One bit per byte of a 64-byte window: which bytes are '\n', ',', ' ' and digits.
struct ByteClasses {
  uint64_t newline = 0, comma = 0, space = 0, digit = 0;
};

/// Classifies the 16 bytes at `p` into bits `shift` to `shift + 15` of `*c`.
inline void Classify16(const char* p, int shift, ByteClasses* c) {
#if defined(__SSE2__)
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const auto bits = [&](__m128i m) {
    return static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(m))) << shift;
  };
  c->newline |= bits(_mm_cmpeq_epi8(x, _mm_set1_epi8('\n')));
  c->comma |= bits(_mm_cmpeq_epi8(x, _mm_set1_epi8(',')));
  c->space |= bits(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')));
  // '0'..'9': x - '0' as an unsigned byte is at most 9.
  const __m128i t = _mm_sub_epi8(x, _mm_set1_epi8('0'));
  c->digit |= bits(_mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(9)), t));
#else
  for (int i = 0; i < 16; ++i) {
    const uint64_t bit = uint64_t{1} << (shift + i);
    if (p[i] == '\n') c->newline |= bit;
    if (p[i] == ',') c->comma |= bit;
    if (p[i] == ' ') c->space |= bit;
    if (IsDigit(p[i])) c->digit |= bit;
  }
#endif
}

/// Bits `shift` to `shift + 15` of `*x` and `*letters`: which of the 16 bytes at `p` are
/// 'x' and which are hex letters (a-f, A-F), for log_prio's `0x%04x` priority.
inline void ClassifyHex16(const char* p, int shift, uint64_t* x, uint64_t* letters) {
#if defined(__SSE2__)
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const auto bits = [&](__m128i m) {
    return static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(m))) << shift;
  };
  *x |= bits(_mm_cmpeq_epi8(v, _mm_set1_epi8('x')));
  // Lower case by setting bit 5 (digits and ',' ' ' keep out of 'a'..'f' either way).
  const __m128i t = _mm_sub_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
  *letters |= bits(_mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(5)), t));
#else
  for (int i = 0; i < 16; ++i) {
    const uint64_t bit = uint64_t{1} << (shift + i);
    const char lower = static_cast<char>(p[i] | 0x20);
    if (p[i] == 'x') *x |= bit;
    if (lower >= 'a' && lower <= 'f') *letters |= bit;
  }
#endif
}

/// The `n` (1 to 8) digits at `p` as a number (8 bytes readable), no branch per digit.
inline uint64_t Digits(const char* p, int n) {
  uint64_t word;
  std::memcpy(&word, p, 8);
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
  word = __builtin_bswap64(word);
#endif
  // The digits to the top bytes (the bytes after them shift out), then pairs, quads, octets.
  uint64_t v = (word ^ 0x3030303030303030ULL) << (8 * (8 - n));
  v = ((v & 0x0F0F0F0F0F0F0F0FULL) * 2561) >> 8;
  v = ((v & 0x00FF00FF00FF00FFULL) * 6553601) >> 16;
  return ((v & 0x0000FFFF0000FFFFULL) * 42949672960001ULL) >> 32;
}

}  // namespace per_io_scan_detail

/// Reads the line at the start of `text` (kPerIoScanReadable bytes readable) when it is as
/// fio writes it: `layout.columns` decimal fields of 1 to 16 digits (`0x` and hex in
/// `layout.hex_column`, log_prio's priority) joined by ", ", a
/// direction of 0 to 2, a time of at most 10^15 ms, and '\n' within kPerIoScanMaxLine bytes.
/// Returns the line's length (without its '\n') and sets `*record` as ParsePerIoLine()
/// would; returns 0 for any other line (not read: ParsePerIoLine() reads it or says what is
/// wrong). The line's bytes are classified at once (16 at a time), so finding its end,
/// checking its shape and splitting it into fields take no loop per byte and no branch per
/// field boundary, and the fields' digits are then read independently of each other.
/// `kBlockSize` false leaves `record->block_size` unread (0): the per-I/O stream bins
/// latencies only, and one column fewer to convert is a few percent of a line's cost.
template <bool kBlockSize = true>
__attribute__((always_inline)) inline size_t ScanPerIoLine(const char* text,
                                                           const PerIoLayout& layout,
                                                           PerIoRecord* record) {
  using namespace per_io_scan_detail;
  ByteClasses c;
  Classify16(text, 0, &c);
  Classify16(text + 16, 16, &c);
  if (c.newline == 0) {
    Classify16(text + 32, 32, &c);
    Classify16(text + 48, 48, &c);
    if (c.newline == 0) return 0;
  }
  const int length = __builtin_ctzll(c.newline);
  if (length == 0) return 0;
  const uint64_t line = (uint64_t{1} << length) - 1;
  const uint64_t comma = c.comma & line;
  // log_prio's column may hold 'x' and hex letters (checked to be `0x` and hex below).
  uint64_t x = 0, letters = 0;
  if (layout.hex_column >= 0) {
    for (int chunk = 0; chunk < 4; ++chunk)
      ClassifyHex16(text + 16 * chunk, 16 * chunk, &x, &letters);
    x &= line;
    letters &= line;
  }
  // Only digits, ',' and ' '; one ' ' after every ',' and none elsewhere; every field
  // (the line's start and two bytes after each ',') starts with a digit.
  if (((c.digit | comma | c.space | x | letters) & line) != line) return 0;
  if ((c.space & line) != comma << 1) return 0;
  if ((((comma << 2) | 1) & ~(c.digit & line)) != 0) return 0;
  // Where each column ends: one ',' per column but the last, which ends with the line.
  int stops[kPerIoMaxColumns];
  uint64_t rest = comma;
  const int last = layout.columns - 1;
  for (int i = 0; i < last; ++i) {
    if (rest == 0) return 0;
    stops[i] = __builtin_ctzll(rest);
    rest &= rest - 1;
  }
  if (rest != 0) return 0;
  stops[last] = length;
  if (layout.hex_column >= 0) {
    // `0x` and at least one hex digit, and no 'x' or letter anywhere else.
    const int hc = layout.hex_column;
    const int from = hc == 0 ? 0 : stops[hc - 1] + 2;
    const uint64_t digits = ((uint64_t{1} << stops[hc]) - 1) & ~((uint64_t{1} << (from + 2)) - 1);
    if (x != uint64_t{1} << (from + 1) || text[from] != '0' || stops[hc] - from < 3 ||
        (letters & ~digits) != 0) {
      return 0;
    }
  }
  // Only the columns the record keeps are read (not the offset nor the priority).
  bool good = true;
  const auto column = [&](int i) __attribute__((always_inline))->uint64_t {
    const int start = i == 0 ? 0 : stops[i - 1] + 2;
    const int n = stops[i] - start;
    if (__builtin_expect(n <= 8, 1)) return Digits(text + start, n);
    if (n <= 16)
      return Digits(text + start, n - 8) * 100000000ULL + EightDigits(text + stops[i] - 8);
    good = false;
    return 0;
  };
  const uint64_t time = column(0);
  const uint64_t value = column(1);
  const int dc = layout.direction_column;
  const int direction = text[stops[dc] - 1] - '0';
  uint64_t block_size = 0;
  if (kBlockSize) {
    block_size = column(dc + 1);
  } else if (stops[dc + 1] - stops[dc] - 2 > 16) {
    good = false;  // unread, but refused as column() would (the general parser says why)
  }
  const uint64_t issue = layout.issue_column >= 0 ? column(layout.issue_column) : 0;
  // One digit (the ',' or the line's start two bytes before it), 0 to 2.
  if (!good || time > kMaxLogTimeMs || direction > 2 ||
      stops[dc] - (dc == 0 ? 0 : stops[dc - 1] + 2) != 1) {
    return 0;
  }
  record->time_ms = static_cast<int64_t>(time);
  record->value = value;
  record->direction = static_cast<Direction>(direction);
  record->block_size = block_size;
  record->issue_time_ns = layout.issue_column >= 0 ? static_cast<int64_t>(issue) : -1;
  return static_cast<size_t>(length);
}

}  // namespace fiohist
