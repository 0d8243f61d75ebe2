#include "histogram.h"

#include <algorithm>

namespace fiohist {

void Histogram::Cover(int lo, int hi) {
  if (size_ == 0) {
    offset_ = lo;
    size_ = hi - lo;
    if (counts_.size() < static_cast<size_t>(size_)) counts_.resize(static_cast<size_t>(size_));
    std::fill(counts_.begin(), counts_.begin() + size_, 0.0);
    return;
  }
  if (lo >= offset_ && hi <= offset_ + size_) return;
  const int new_lo = std::min(lo, offset_);
  const int new_hi = std::max(hi, offset_ + size_);
  const int shift = offset_ - new_lo;
  const size_t new_size = static_cast<size_t>(new_hi - new_lo);
  if (counts_.size() < new_size) counts_.resize(new_size);
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
  double added = 0;
  for (const auto& [column, count] : counts) {
    const double c = static_cast<double>(count) * weight;
    dst[static_cast<int>(column) - offset_] += c;
    Mark(static_cast<int>(column));
    added += c;
  }
  total_ += added;
}

void Histogram::Merge(const Histogram& other) {
  if (other.size_ == 0) return;
  Cover(other.offset_, other.offset_ + other.size_);
  // Visit only the occupied columns: far fewer than the range when the tail is sparse.
  double* dst = counts_.data();
  const double* src = other.counts_.data();
  const int first_word = other.offset_ >> 6, last_word = (other.offset_ + other.size_ - 1) >> 6;
  for (int w = first_word; w <= last_word; ++w) {
    uint64_t bits = other.occupied_[static_cast<size_t>(w)];
    occupied_[static_cast<size_t>(w)] |= bits;
    while (bits != 0) {
      const int column = (w << 6) + __builtin_ctzll(bits);
      bits &= bits - 1;
      dst[column - offset_] += src[column - other.offset_];
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
