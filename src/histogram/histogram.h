// The latency histogram that fiohist adds up: weighted (fractional) counts per fio bucket.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace fiohist {

/// Weighted counts indexed by log column. Storage is dense but covers only the range of
/// columns that were ever touched, so a histogram of a typical workload (a few hundred
/// occupied buckets out of 1856) stays small; a bitmap of occupied columns lets readers
/// visit only those (a rare tail event makes the range wide, not the walk long). Counts
/// are doubles because a log record that straddles quanta is split between them in
/// proportion to the overlap.
class Histogram {
 public:
  /// Adds `count` to `column`.
  void Add(int column, double count);
  /// Adds `weight` times each (column, count) of a sparse log record (columns ascending;
  /// their sum must fit in 64 bits, as ParseRecord guarantees).
  void AddWeighted(const std::vector<std::pair<uint32_t, uint64_t>>& counts, double weight);
  /// Adds every count of `other`.
  void Merge(const Histogram& other);
  /// Sets every count to zero, keeping the storage.
  void Clear();

  /// Sum of all counts.
  double total() const { return total_; }
  /// True when no count was ever added since the last Clear().
  bool empty() const { return size_ == 0; }
  /// Count of `column` (0 outside the stored range).
  double at(int column) const {
    const int i = column - offset_;
    return (i >= 0 && i < size_) ? counts_[static_cast<size_t>(i)] : 0.0;
  }
  /// First and one-past-last column of the stored range.
  int begin_column() const { return offset_; }
  int end_column() const { return offset_ + size_; }

  /// Calls f(column, count) for every column with a non-zero count, in column order.
  template <typename F>
  void ForEachNonZero(F&& f) const {
    if (size_ == 0) return;
    const int first_word = offset_ >> 6, last_word = (offset_ + size_ - 1) >> 6;
    for (int w = first_word; w <= last_word; ++w) {
      uint64_t bits = occupied_[static_cast<size_t>(w)];
      while (bits != 0) {
        const int column = (w << 6) + __builtin_ctzll(bits);
        bits &= bits - 1;
        const double c = counts_[static_cast<size_t>(column - offset_)];
        if (c != 0.0) f(column, c);
      }
    }
  }

  /// Columns beyond this are not supported (fio builds have at most 40 groups of 64).
  static constexpr int kMaxColumns = 40 * 64;

 private:
  // Occupied columns in a bitmap word from which Merge() adds the word as a dense run.
  static constexpr int kDenseWordColumns = 8;

  // Makes [lo, hi) part of the stored range.
  void Cover(int lo, int hi);

  void Mark(int column) {
    occupied_[static_cast<size_t>(column >> 6)] |= uint64_t{1} << (column & 63);
  }

  std::vector<double> counts_;
  std::array<uint64_t, kMaxColumns / 64> occupied_{};  // bit per column ever added to
  int offset_ = 0;  // column of counts_[0]
  int size_ = 0;    // columns in use (counts_ may be larger)
  double total_ = 0;
};

}  // namespace fiohist
