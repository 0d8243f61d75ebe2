// The record form's text coding of a sparse histogram (`hist` of a bucket document's
// records): one JSON-safe string, dense over the record's occupied buckets, which the
// server's stored-field compression (LZ4, DEFLATE, zstd) packs well.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace fiohist {

/// The run document's `bucket_version` of per-direction bucket documents: 2 since records
/// carry `hist` (absent: 1, `runs`/`ios`).
constexpr int kBucketVersion = 2;
/// The run document's `bucket_version` of a run whose record-form job documents hold every
/// direction of a job's quantum in one document (`records` an object by direction): the
/// server's CPU per document sets a push's pace (docs/documents.md, "Bucket documents").
constexpr int kMergedBucketVersion = 3;
/// The run document's `bucket_version` of a run whose record-form job documents hold a
/// window of consecutive quanta of a job (`quanta`, each what a kMergedBucketVersion
/// document held): a tenth of the documents, and the server's CPU with them
/// (docs/documents.md, "Bucket documents").
constexpr int kWindowBucketVersion = 4;
/// Quanta in a kWindowBucketVersion job document: windows on the 10-quantum grid of the
/// push's first coarser resolution, clipped to the run.
constexpr int kBucketWindowQuanta = 10;

/// Coding (docs/documents.md, "Bucket documents"): the first occupied bucket's index, then
/// bucket by bucket up to the last occupied one: a count (>= 1) as a number, one empty
/// bucket as '.', a run of k >= 3 empty buckets as '~' and the number k. A number is
/// big-endian base 32: its leading digits from "ABCDEFGHIJKLMNOPQRSTUVWXYZwxyz-_", its last
/// one from "0123456789abcdefghijklmnopqrstuv" (so 7 is "7", 40 is "B8", 1000 is "wx" ...).
/// An empty string is a record without I/Os.
///
/// The most characters one bucket of the coding can take (a count up to 2^64, or a run).
constexpr size_t kHistCodeRoomPerBucket = 14;
/// The most characters the leading bucket index can take.
constexpr size_t kHistCodeRoomHead = 14;

/// Writes the coding of `n` occupied buckets, column(i) ascending and count(i) >= 1, at `p`;
/// returns the end. `p` needs kHistCodeRoomHead + n * kHistCodeRoomPerBucket characters.
template <typename Column, typename Count>
char* PutHistCode(char* p, size_t n, Column column, Count count);

/// Calls add(column, count) for each occupied bucket of `text`, columns ascending and below
/// `columns`, counts >= 1. Errors say what was expected.
template <typename Add>
Status DecodeHistCode(std::string_view text, int columns, Add add);

// Implementation.
namespace hist_code {
inline constexpr char kLast[] = "0123456789abcdefghijklmnopqrstuv";
inline constexpr char kLead[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZwxyz-_";

inline char* PutNumber(char* p, uint64_t v) {
  char tmp[14];
  char* t = tmp + sizeof tmp;
  *--t = kLast[v & 31];
  for (v >>= 5; v != 0; v >>= 5) *--t = kLead[v & 31];
  const size_t len = static_cast<size_t>(tmp + sizeof tmp - t);
  for (size_t i = 0; i < len; ++i) p[i] = t[i];
  return p + len;
}

/// The digit of `c` (0..31) and whether it ends a number; -1 when `c` is no digit.
inline int Digit(char c, bool* last) {
  *last = true;
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'v') return c - 'a' + 10;
  *last = false;
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'w' && c <= 'z') return c - 'w' + 26;
  if (c == '-') return 30;
  if (c == '_') return 31;
  return -1;
}

/// Reads a number at text[*i]; false when there is none or it does not fit 63 bits.
inline bool GetNumber(std::string_view text, size_t* i, uint64_t* v) {
  *v = 0;
  while (*i < text.size()) {
    bool last = false;
    const int d = Digit(text[*i], &last);
    if (d < 0 || *v > (UINT64_C(1) << 58)) return false;
    *v = *v * 32 + static_cast<uint64_t>(d);
    ++*i;
    if (last) return true;
  }
  return false;
}
}  // namespace hist_code

template <typename Column, typename Count>
char* PutHistCode(char* p, size_t n, Column column, Count count) {
  if (n == 0) return p;
  int64_t next = static_cast<int64_t>(column(0));
  p = hist_code::PutNumber(p, static_cast<uint64_t>(next));
  for (size_t i = 0; i < n; ++i) {
    const int64_t c = static_cast<int64_t>(column(i));
    const int64_t gap = c - next;
    if (gap >= 3) {
      *p++ = '~';
      p = hist_code::PutNumber(p, static_cast<uint64_t>(gap));
    } else {
      for (int64_t g = 0; g < gap; ++g) *p++ = '.';
    }
    p = hist_code::PutNumber(p, static_cast<uint64_t>(count(i)));
    next = c + 1;
  }
  return p;
}

template <typename Add>
Status DecodeHistCode(std::string_view text, int columns, Add add) {
  if (text.empty()) return Status();
  size_t i = 0;
  uint64_t column = 0;
  if (!hist_code::GetNumber(text, &i, &column)) {
    return Status::Error("hist: expected the first bucket's index (base-32 digits)");
  }
  while (i < text.size()) {
    if (text[i] == '.') {
      ++column;
      ++i;
      continue;
    }
    uint64_t v = 0;
    if (text[i] == '~') {
      ++i;
      if (!hist_code::GetNumber(text, &i, &v) || v < 3) {
        return Status::Error("hist: at " + std::to_string(i) +
                             ": expected a run of >= 3 empty buckets after '~'");
      }
      column += v;
      if (i == text.size()) return Status::Error("hist: expected a count after a run");
      continue;
    }
    if (!hist_code::GetNumber(text, &i, &v) || v == 0) {
      return Status::Error("hist: at " + std::to_string(i) + ": expected a count >= 1");
    }
    if (column >= static_cast<uint64_t>(columns)) {
      return Status::Error("hist: bucket " + std::to_string(column) + " is beyond the layout's " +
                           std::to_string(columns));
    }
    add(static_cast<int>(column), v);
    ++column;
  }
  if (text.back() == '.') return Status::Error("hist: expected a count after '.'");
  return Status();
}

}  // namespace fiohist
