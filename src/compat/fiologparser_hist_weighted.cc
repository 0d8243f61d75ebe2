#include "compat/fiologparser_hist_weighted.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <utility>
#include <vector>

namespace fiohist {
namespace compat {
namespace {

// One interval's sums in weighted mode, per printed direction.
struct WeightedInterval {
  std::vector<double> hist[kSlots];
  int64_t samples[kSlots] = {0, 0, 0, 0};
  bool has_extremes[kSlots] = {false, false, false, false};
  double mn[kSlots] = {0, 0, 0, 0};
  double mx[kSlots] = {0, 0, 0, 0};
};

// Weighted mode (output_weighted_interval_data): each record is added, when it is read, to
// every interval it will be part of (the script re-scans its window of records for each
// interval; the sums come out the same, in the same order), so only the intervals ahead
// are held, not the records.
class WeightedRun {
 public:
  WeightedRun(const FlhOptions& options, const FlhBins& bins, FlhPrinter* printer)
      : o_(options), bins_(bins), printer_(printer) {
    const double td = options.usbin ? 1000.0 : 1000000.0;
    scaled_.resize(bins.mid.size());
    for (size_t j = 0; j < scaled_.size(); ++j) scaled_[j] = bins.mid[j] / td;
  }

  Status Run(FlhMergedLogs* logs) {
    const int64_t interval = o_.interval_ms;
    std::deque<int64_t> window;  // stamps of the records the script holds, in read order
    bool more = true;
    bool first = true;
    LogRecord record;
    size_t file = 0;
    while (more || !window.empty()) {
      const double threshold = o_.max_latency_s * 1000.0 + static_cast<double>(End(cur_));
      while (window.empty() || static_cast<double>(window.back()) < threshold) {
        if (!logs->Next(&record, &file)) {
          if (!logs->status().ok()) return logs->status();
          more = false;
          break;
        }
        if (first) {
          // Logs that start late (epoch stamps) jump to the first stamp minus
          // --max_latency (seconds subtracted from ms, as the script does), rounded down.
          first = false;
          const double t0 = static_cast<double>(record.time_ms);
          if (t0 - o_.max_latency_s > static_cast<double>(interval)) {
            double start = t0 - o_.max_latency_s;
            start -= std::fmod(start, static_cast<double>(interval));
            start_ = static_cast<int64_t>(start);
          }
        }
        Add(record);
        window.push_back(record.time_ms);
      }
      if (!window.empty()) {
        Emit();
        const double end = static_cast<double>(End(cur_));
        window.erase(std::remove_if(window.begin(), window.end(),
                                    [end](int64_t t) { return static_cast<double>(t) <= end; }),
                     window.end());
      }
      Pop();
    }
    return Status();
  }

 private:
  int64_t End(int64_t k) const { return start_ + (k + 1) * o_.interval_ms; }

  WeightedInterval& At(int64_t k) {
    const size_t slot = static_cast<size_t>(k - cur_);
    while (ahead_.size() <= slot) ahead_.emplace_back();
    return ahead_[slot];
  }

  std::vector<double>& Hist(WeightedInterval& w, int slot) {
    if (w.hist[slot].empty()) {
      if (!pool_.empty()) {
        w.hist[slot].swap(pool_.back());
        pool_.pop_back();
      } else {
        w.hist[slot].assign(bins_.mid.size(), 0.0);
      }
    }
    return w.hist[slot];
  }

  void Add(const LogRecord& r) {
    const int dir_slot = SlotOf(r.direction);
    int slots[2];
    int nslots = 0;
    if (printer_->printed[kMixed]) slots[nslots++] = kMixed;
    if (printer_->printed[dir_slot]) slots[nslots++] = dir_slot;
    if (nslots == 0 || r.counts.empty()) return;
    const double t = static_cast<double>(r.time_ms);
    const double base = t - 0.5 * static_cast<double>(o_.interval_ms);
    const size_t n = scaled_.size();
    const uint32_t last = r.counts.back().first;
    // The record stays while its stamp is after the interval's end: intervals cur_ up to
    // the first whose end reaches the stamp.
    int64_t k_last = cur_;
    while (End(k_last) < r.time_ms) ++k_last;
    // The first interval the record's largest bucket starts in (bucket starts fall as the
    // bucket grows: the start of the last non-empty bucket is the earliest).
    const double s_last = base - scaled_[last];
    int64_t k = cur_;
    if (!(s_last < static_cast<double>(End(k)))) {
      k = std::max(cur_, static_cast<int64_t>(std::floor((s_last - static_cast<double>(start_)) /
                                                         static_cast<double>(o_.interval_ms))) -
                             1);
      while (!(s_last < static_cast<double>(End(k)))) ++k;
    }
    for (; k <= k_last; ++k) {
      const double e = static_cast<double>(End(k));
      const double s = e - static_cast<double>(o_.interval_ms);
      // j0: the first bucket (empty or not) that starts before the interval's end.
      size_t lo = 0, hi = n;
      while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (base - scaled_[mid] < e) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      const size_t j0 = lo;
      auto it = std::lower_bound(
          r.counts.begin(), r.counts.end(), j0,
          [](const std::pair<uint32_t, uint64_t>& c, size_t j) { return c.first < j; });
      if (it == r.counts.end()) continue;
      WeightedInterval& w = At(k);
      int64_t samples = 0;
      const size_t first = it->first;
      const double mn = bins_.lower[std::max(j0, first == 0 ? 0 : first - 1)];
      const double mx = bins_.upper[std::min(n - 1, static_cast<size_t>(last) + 1)];
      std::vector<double>* hists[2];
      for (int i = 0; i < nslots; ++i) hists[i] = &Hist(w, slots[i]);
      for (; it != r.counts.end(); ++it) {
        const double sj = base - scaled_[it->first];
        const double weight = (std::min(t, e) - std::max(sj, s)) / (t - sj);
        const double add = static_cast<double>(it->second) * weight;
        for (int i = 0; i < nslots; ++i) (*hists[i])[it->first] += add;
        samples += static_cast<int64_t>(it->second);
      }
      for (int i = 0; i < nslots; ++i) {
        const int sl = slots[i];
        w.samples[sl] += samples;
        if (!w.has_extremes[sl]) {
          w.has_extremes[sl] = true;
          w.mn[sl] = mn;
          w.mx[sl] = mx;
        } else {
          w.mn[sl] = std::min(w.mn[sl], mn);
          w.mx[sl] = std::max(w.mx[sl], mx);
        }
      }
    }
  }

  void Emit() {
    if (ahead_.empty()) return;
    WeightedInterval& w = ahead_.front();
    for (int sl = 0; sl < kSlots; ++sl) {
      if (!printer_->printed[sl] || w.samples[sl] <= 0) continue;
      printer_->Row(End(cur_), sl, w.samples[sl], w.mn[sl], w.mx[sl], w.hist[sl], false);
    }
  }

  void Pop() {
    if (!ahead_.empty()) {
      for (auto& h : ahead_.front().hist) {
        if (h.empty()) continue;
        std::fill(h.begin(), h.end(), 0.0);
        pool_.push_back(std::move(h));
      }
      ahead_.pop_front();
    }
    ++cur_;
  }

  const FlhOptions& o_;
  const FlhBins& bins_;
  FlhPrinter* printer_;
  std::vector<double> scaled_;  // bucket value / time divisor: how long before T it starts
  int64_t start_ = 0;
  int64_t cur_ = 0;
  std::deque<WeightedInterval> ahead_;
  std::vector<std::vector<double>> pool_;
};

}  // namespace

Status RunFlhWeighted(const FlhOptions& options, const FlhBins& bins, FlhMergedLogs* logs,
                      FlhPrinter* printer) {
  WeightedRun run(options, bins, printer);
  return run.Run(logs);
}

}  // namespace compat
}  // namespace fiohist
