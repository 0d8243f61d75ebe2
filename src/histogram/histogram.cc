#include "histogram/histogram.h"

#include <algorithm>

namespace fiohist {

// Grows `counts` to hold `n` columns. A vector would double its capacity; here the range
// grows a few times at most, while thousands of histograms are kept at once (coarse windows,
// host sums): capacity is rounded up to a whole bitmap word of columns instead.
static void GrowTo(std::vector<double>* counts, size_t n) {
  if (counts->size() >= n) return;
  if (counts->capacity() < n) counts->reserve((n + 63) & ~size_t{63});
  counts->resize(n);
}

void Histogram::Cover(int lo, int hi) {
  if (size_ == 0) {
    offset_ = lo;
    size_ = hi - lo;
    GrowTo(&counts_, static_cast<size_t>(size_));
    std::fill(counts_.begin(), counts_.begin() + size_, 0.0);
    return;
  }
  if (lo >= offset_ && hi <= offset_ + size_) return;
  const int new_lo = std::min(lo, offset_);
  const int new_hi = std::max(hi, offset_ + size_);
  const int shift = offset_ - new_lo;
  const size_t new_size = static_cast<size_t>(new_hi - new_lo);
  GrowTo(&counts_, new_size);
  if (shift > 0) {
    std::copy_backward(counts_.begin(), counts_.begin() + size_, counts_.begin() + shift + size_);
    std::fill(counts_.begin(), counts_.begin() + shift, 0.0);
  }
  std::fill(counts_.begin() + shift + size_, counts_.begin() + static_cast<long>(new_size), 0.0);
  offset_ = new_lo;
  size_ = static_cast<int>(new_size);
}

void Histogram::Add(int column, double count) {
  Cover(column, column + 1);
  Mark(column);
  counts_[static_cast<size_t>(column - offset_)] += count;
  total_ += count;
}

void Histogram::AddWeighted(const std::vector<std::pair<uint32_t, uint64_t>>& counts,
                            double weight) {
  if (counts.empty()) return;
  Cover(static_cast<int>(counts.front().first), static_cast<int>(counts.back().first) + 1);
  double* dst = counts_.data();
  // The total and the occupied bits are gathered in registers: adding them up in memory
  // (or in a floating-point chain) per column would serialise the loop.
  uint64_t sum = 0;
  int word = static_cast<int>(counts.front().first) >> 6;
  uint64_t bits = 0;
  for (const auto& [column, count] : counts) {
    const int c = static_cast<int>(column);
    dst[c - offset_] += static_cast<double>(count) * weight;
    sum += count;
    if ((c >> 6) != word) {
      occupied_[static_cast<size_t>(word)] |= bits;
      word = c >> 6;
      bits = 0;
    }
    bits |= uint64_t{1} << (c & 63);
  }
  occupied_[static_cast<size_t>(word)] |= bits;
  total_ += static_cast<double>(sum) * weight;
}

void Histogram::Merge(const Histogram& other) {
  if (other.size_ == 0) return;
  if (size_ == 0) {
    // Into an empty histogram (the first term of every sum): a copy, no zero-fill first.
    offset_ = other.offset_;
    size_ = other.size_;
    if (counts_.size() < static_cast<size_t>(size_)) counts_.resize(static_cast<size_t>(size_));
    std::copy(other.counts_.begin(), other.counts_.begin() + size_, counts_.begin());
    const int first_word = offset_ >> 6, last_word = (offset_ + size_ - 1) >> 6;
    for (int w = first_word; w <= last_word; ++w) {
      occupied_[static_cast<size_t>(w)] |= other.occupied_[static_cast<size_t>(w)];
    }
    total_ += other.total_;
    return;
  }
  Cover(other.offset_, other.offset_ + other.size_);
  // Word by word of the occupied bitmap: a word with many occupied columns is added as a
  // dense run (the compiler vectorises it; unoccupied columns hold 0.0, and x + 0.0 == x
  // for the non-negative counts kept here, so results are the same either way); a sparse
  // one column by column, so a far tail event costs nothing.
  double* dst = counts_.data();
  const double* src = other.counts_.data();
  const int lo = other.offset_, hi = other.offset_ + other.size_;
  const int first_word = lo >> 6, last_word = (hi - 1) >> 6;
  for (int w = first_word; w <= last_word; ++w) {
    uint64_t bits = other.occupied_[static_cast<size_t>(w)];
    if (bits == 0) continue;
    occupied_[static_cast<size_t>(w)] |= bits;
    if (__builtin_popcountll(bits) >= kDenseWordColumns) {
      const int from = std::max(lo, w << 6), to = std::min(hi, (w + 1) << 6);
      double* d = dst + (from - offset_);
      const double* s = src + (from - lo);
      for (int i = 0; i < to - from; ++i) d[i] += s[i];
      continue;
    }
    while (bits != 0) {
      const int column = (w << 6) + __builtin_ctzll(bits);
      bits &= bits - 1;
      dst[column - offset_] += src[column - lo];
    }
  }
  total_ += other.total_;
}

void Histogram::Clear() {
  if (size_ > 0) {
    const int first_word = offset_ >> 6, last_word = (offset_ + size_ - 1) >> 6;
    for (int w = first_word; w <= last_word; ++w) occupied_[static_cast<size_t>(w)] = 0;
  }
  size_ = 0;
  offset_ = 0;
  total_ = 0;
}

}  // namespace fiohist
