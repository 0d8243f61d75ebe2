#include "log/carried_lines.h"

namespace fiohist {

const char kCarriedLinesBug[] =
    "fio's client/server bug (fio 3.33 and 3.42): the histogram logs the servers send back "
    "hold in line k of each direction its own interval's counts plus those of line k-2, so "
    "they count several times the I/Os fio ran";

namespace {

using Counts = std::vector<std::pair<uint32_t, uint64_t>>;

// True when `a` >= `b` in every bucket (both sparse, columns ascending).
bool Dominates(const Counts& a, const Counts& b) {
  size_t i = 0;
  for (const auto& [column, count] : b) {
    while (i < a.size() && a[i].first < column) ++i;
    if (i == a.size() || a[i].first != column || a[i].second < count) return false;
  }
  return true;
}

uint64_t Total(const Counts& c) {
  uint64_t t = 0;
  for (const auto& x : c) t += x.second;
  return t;
}

}  // namespace

void CarriedLinesCheck::Add(const LogRecord& record) {
  const size_t d = static_cast<size_t>(record.direction);
  if (lines_[d] >= 2) {
    if (Dominates(record.counts, prev2_[d]) && record.total > Total(prev2_[d])) {
      ++carried_[d];
    } else {
      broken_ = true;
    }
  }
  ++lines_[d];
  prev2_[d].swap(prev1_[d]);
  prev1_[d].assign(record.counts.begin(), record.counts.end());
}

bool CarriedLinesCheck::Carried() const {
  if (broken_) return false;
  for (int c : carried_) {
    if (c >= kMinComparisons) return true;
  }
  return false;
}

void CarriedLinesRepair::Repair(LogRecord* record) {
  const size_t d = static_cast<size_t>(record->direction);
  const Counts& sub = raw2_[d];
  diff_.clear();
  uint64_t total = 0;
  size_t j = 0;
  for (const auto& [column, count] : record->counts) {
    while (j < sub.size() && sub[j].first < column) clamped_ += sub[j++].second;
    uint64_t minus = 0;
    if (j < sub.size() && sub[j].first == column) minus = sub[j++].second;
    if (count > minus) {
      diff_.emplace_back(column, count - minus);
      total += count - minus;
    } else {
      clamped_ += minus - count;
    }
  }
  // Buckets of line k-2 that line k lacks entirely also went negative.
  while (j < sub.size()) clamped_ += sub[j++].second;
  raw2_[d].swap(raw1_[d]);
  raw1_[d].swap(record->counts);  // the raw line, for line k+2
  record->counts.assign(diff_.begin(), diff_.end());
  record->total = total;
}

}  // namespace fiohist
