#include "compat/fiologparser_hist.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <queue>

#include "compat/numpy_math.h"
#include "compat/python_text.h"
#include "log/log_line.h"
#include "log/log_reader.h"

namespace fiohist {
namespace compat {
namespace {

// fio's stat.h layout the script hard-codes: 64 buckets per group (FIO_IO_U_PLAT_BITS 6).
constexpr int kPlatBits = 6;
constexpr int64_t kPlatVal = int64_t{1} << kPlatBits;

// The value at `edge` (0: lower, 1: upper) of fine bucket `idx` (fio's plat_idx_to_val).
double PlatIdxToVal(int64_t idx, double edge) {
  if (idx < (kPlatVal << 1)) return static_cast<double>(idx);
  const int64_t error_bits = (idx >> kPlatBits) - 1;
  const int64_t base = int64_t{1} << (error_bits + kPlatBits);
  const int64_t k = idx % kPlatVal;
  return static_cast<double>(base) +
         (static_cast<double>(k) + edge) * static_cast<double>(int64_t{1} << error_bits);
}

// The rows of one output line: the slot of each direction, in the script's print order
// (sorted names: m, r, t, w).
enum Slot { kMixed = 0, kReadSlot = 1, kTrimSlot = 2, kWriteSlot = 3, kSlots = 4 };
const char kSlotName[kSlots] = {'m', 'r', 't', 'w'};

int SlotOf(Direction d) {
  switch (d) {
    case Direction::kRead:
      return kReadSlot;
    case Direction::kWrite:
      return kWriteSlot;
    default:
      return kTrimSlot;
  }
}

// What the output needs from the options, worked out once.
struct Printer {
  const FlhOptions* options;
  const FlhBins* bins;
  bool printed[kSlots] = {false, false, false, false};
  bool dir_column = false;
  std::string* out;
  std::vector<double> cdf;
  std::vector<double> products;

  // One CSV row (print_all_stats): `ws` the weights per bucket (counts in --noweight).
  void Row(int64_t end, int slot, int64_t samples, double mn, double mx,
           const std::vector<double>& ws, bool integer_weights) {
    const size_t n = ws.size();
    const double* vs = bins->mid.data();
    // cdf = 100 * (ws.cumsum() - ws / 2.0) / ws.sum(); avg = sum(vs * ws) / sum(ws).
    cdf.resize(n);
    products.resize(n);
    double total;
    if (integer_weights) {
      int64_t c = 0;
      for (size_t j = 0; j < n; ++j) c += static_cast<int64_t>(ws[j]);
      total = static_cast<double>(c);
      c = 0;
      for (size_t j = 0; j < n; ++j) {
        c += static_cast<int64_t>(ws[j]);
        cdf[j] = (100.0 * (static_cast<double>(c) - ws[j] / 2.0)) / total;
      }
    } else {
      total = NumpyPairwiseSum(ws.data(), n);
      double c = 0.0;
      for (size_t j = 0; j < n; ++j) {
        c += ws[j];
        cdf[j] = (100.0 * (c - ws[j] / 2.0)) / total;
      }
    }
    for (size_t j = 0; j < n; ++j) products[j] = vs[j] * ws[j];
    const double avg = NumpyPairwiseSum(products.data(), n) / total;
    const double divisor = static_cast<double>(options->divisor);
    const int dec = options->decimals;
    *out += std::to_string(end);
    *out += ", ";
    if (dir_column) {
      *out += kSlotName[slot];
      *out += ", ";
    }
    *out += std::to_string(samples);
    *out += ", ";
    auto fixed = [&](double v) { *out += PythonFixed(v / divisor, dec); };
    if (options->divisor > 1) {
      fixed(mn);
    } else {
      *out += PythonIntegerPart(mn / divisor);
    }
    *out += ", ";
    fixed(avg);
    for (double p : options->percentiles) {
      *out += ", ";
      fixed(NumpyInterp(p, cdf.data(), vs, n));
    }
    *out += ", ";
    if (options->divisor > 1) {
      fixed(mx);
    } else {
      *out += PythonIntegerPart(mx / divisor);
    }
    *out += "\n";
  }
};

// The logs merged by stamp: the record with the smallest stamp next, ties to the file
// given first (the script's get_min over its file list).
class MergedLogs {
 public:
  Status Open(const std::vector<std::string>& files) {
    sources_.resize(files.size());
    for (size_t i = 0; i < files.size(); ++i) {
      Status s = LogReader::Open(files[i], &sources_[i].reader);
      if (!s.ok()) return s;
      s = Advance(i);
      if (!s.ok()) return s;
      // Every record must have the bucket count of the first log's first line.
      if (i == 0) columns_ = first_columns_;
    }
    return Status();
  }
  // Bucket count of the first record of the first file (the script reads it from there); 0
  // when that file has no record.
  int FirstColumns() const { return first_columns_; }

  // Sets `*record` to the next record in merged order; false at the end (or on error:
  // see status()).
  bool Next(LogRecord* record, size_t* file) {
    if (heap_.empty()) return false;
    const auto [time, index] = heap_.top();
    (void)time;
    heap_.pop();
    std::swap(*record, sources_[index].record);
    *file = index;
    status_ = Advance(index);
    return status_.ok();
  }
  const Status& status() const { return status_; }

 private:
  struct Source {
    std::unique_ptr<LogReader> reader;
    LogRecord record;
  };
  Status Advance(size_t i) {
    Source& src = sources_[i];
    std::string_view line;
    std::string what;
    while (src.reader->NextLine(&line)) {
      if (line.find_first_not_of(" \t\r\f\v") == std::string_view::npos) continue;
      const long long n = src.reader->line_number();
      if (!ParseRecord(line, &src.record, &what)) {
        return Status::InputError(src.reader->path(), n, what);
      }
      if (first_columns_ == 0 && i == 0) first_columns_ = src.record.columns;
      if (columns_ != 0 && src.record.columns != columns_) {
        return Status::InputError(src.reader->path(), n,
                                  std::to_string(src.record.columns) +
                                      " bucket counts, but the first line of the first log has " +
                                      std::to_string(columns_) +
                                      " (fiologparser_hist.py reads every log with that count)");
      }
      heap_.push({src.record.time_ms, i});
      return Status();
    }
    return src.reader->status();
  }
  std::vector<Source> sources_;
  using Key = std::pair<int64_t, size_t>;
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> heap_;
  int first_columns_ = 0;
  int columns_ = 0;
  Status status_;
};

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
  WeightedRun(const FlhOptions& options, const FlhBins& bins, Printer* printer)
      : o_(options), bins_(bins), printer_(printer) {
    const double td = options.usbin ? 1000.0 : 1000000.0;
    scaled_.resize(bins.mid.size());
    for (size_t j = 0; j < scaled_.size(); ++j) scaled_[j] = bins.mid[j] / td;
  }

  Status Run(MergedLogs* logs) {
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
  Printer* printer_;
  std::vector<double> scaled_;  // bucket value / time divisor: how long before T it starts
  int64_t start_ = 0;
  int64_t cur_ = 0;
  std::deque<WeightedInterval> ahead_;
  std::vector<std::vector<double>> pool_;
};

// --noweight (output_interval_data): a record goes whole to the first multiple E of the
// interval with T + 10 < E, and not before the record before it in its file; a record
// stamped 0 stops its file (the script's `if ts` treats 0 as no record).
Status RunUnweighted(const FlhOptions& options, MergedLogs* logs, size_t files, Printer* printer) {
  const int64_t interval = options.interval_ms;
  const size_t n = printer->bins->mid.size();
  struct Sums {
    std::vector<double> hist[kSlots];
  };
  std::map<int64_t, Sums> pending;
  std::vector<int64_t> last_end(files, 0);
  std::vector<bool> stopped(files, false);
  auto flush_before = [&](int64_t limit) {
    while (!pending.empty() && pending.begin()->first < limit) {
      const int64_t end = pending.begin()->first;
      Sums& sums = pending.begin()->second;
      for (int sl = 0; sl < kSlots; ++sl) {
        const std::vector<double>& h = sums.hist[sl];
        if (!printer->printed[sl] || h.empty()) continue;
        int64_t total = 0;
        size_t lo = n, hi = 0;
        for (size_t j = 0; j < n; ++j) {
          if (h[j] == 0) continue;
          total += static_cast<int64_t>(h[j]);
          lo = std::min(lo, j);
          hi = j;
        }
        if (total <= 0) continue;
        printer->Row(end, sl, total, printer->bins->mid[lo], printer->bins->mid[hi], h, true);
      }
      pending.erase(pending.begin());
    }
  };
  LogRecord record;
  size_t file = 0;
  while (logs->Next(&record, &file)) {
    if (stopped[file]) continue;
    if (record.time_ms == 0) {
      stopped[file] = true;
      continue;
    }
    const int64_t own = ((record.time_ms + 10) / interval + 1) * interval;
    const int64_t end = std::max(own, last_end[file]);
    last_end[file] = end;
    Sums& sums = pending[end];
    for (int sl : {static_cast<int>(kMixed), SlotOf(record.direction)}) {
      if (!printer->printed[sl]) continue;
      std::vector<double>& h = sums.hist[sl];
      if (h.empty()) h.assign(n, 0.0);
      // Counts stay exact as doubles below 2^53.
      for (const auto& [bucket, count] : record.counts) h[bucket] += static_cast<double>(count);
    }
    // No later record of any file can go before the interval of this stamp.
    flush_before(((record.time_ms + 10) / interval + 1) * interval);
  }
  if (!logs->status().ok()) return logs->status();
  flush_before(std::numeric_limits<int64_t>::max());
  return Status();
}

}  // namespace

Status MakeFlhBins(int64_t group_nr, int columns, FlhBins* bins) {
  std::vector<int64_t> counts;
  if (group_nr < 19 || group_nr > 26) {
    counts.push_back(group_nr * kPlatVal);
  } else {
    for (int64_t c = 1216; c <= 1664; c += 64) counts.push_back(c);
  }
  // The first fit by coarseness 0..8, then by count (the script's np.where order).
  int64_t max_cols = 0;
  for (int x = 0; x <= 8 && max_cols == 0; ++x) {
    for (int64_t c : counts) {
      if (c % (int64_t{1} << x) == 0 && columns > 0 && c / (int64_t{1} << x) == columns) {
        max_cols = c;
        break;
      }
    }
  }
  if (max_cols == 0) {
    std::string known;
    for (int64_t c : counts) known += (known.empty() ? "" : ", ") + std::to_string(c);
    return Status::Error(std::to_string(columns) +
                         " bucket counts per line fit no histogram of --group_nr " +
                         std::to_string(group_nr) + " (" + known +
                         " buckets, or those halved up to 8 times by log_hist_coarseness)");
  }
  int coarseness = 0;
  while ((int64_t{columns} << (coarseness + 1)) <= max_cols) ++coarseness;
  const int64_t stride = int64_t{1} << coarseness;
  bins->mid.resize(static_cast<size_t>(columns));
  bins->lower.resize(static_cast<size_t>(columns));
  bins->upper.resize(static_cast<size_t>(columns));
  for (int64_t j = 0; j < columns; ++j) {
    // plat_idx_to_val_coarse: the lower edge of the coarse bucket's first fine bucket and
    // the upper edge of the fine bucket right after it (half a bucket high, kept).
    const double lower = PlatIdxToVal(j * stride, 0.0);
    const double upper = PlatIdxToVal(j * stride + stride, 1.0);
    bins->lower[static_cast<size_t>(j)] = lower;
    bins->upper[static_cast<size_t>(j)] = upper;
    bins->mid[static_cast<size_t>(j)] = lower + (upper - lower) * 0.5;
  }
  return Status();
}

Status RunFiologparserHist(const FlhOptions& options, std::FILE* out) {
  MergedLogs logs;
  Status s = logs.Open(options.files);
  if (!s.ok()) return s;
  if (logs.FirstColumns() == 0) {
    return Status::InputError(options.files.front(), 0,
                              "no records (fiologparser_hist.py reads the bucket count from "
                              "the first line of the first log)");
  }
  FlhBins bins;
  s = MakeFlhBins(options.group_nr, logs.FirstColumns(), &bins);
  if (!s.ok()) return Status::InputError(options.files.front(), 1, s.message());
  std::string text;
  Printer printer;
  printer.options = &options;
  printer.bins = &bins;
  printer.out = &text;
  const std::string& d = options.directions;
  printer.dir_column = !d.empty();
  printer.printed[kMixed] = d.empty() || d.find('m') != std::string::npos;
  printer.printed[kReadSlot] = d.find('r') != std::string::npos;
  printer.printed[kWriteSlot] = d.find('w') != std::string::npos;
  printer.printed[kTrimSlot] = d.find('t') != std::string::npos;
  text = printer.dir_column ? "end-time, dir, samples, min, avg, median"
                            : "end-time, samples, min, avg, median";
  for (const std::string& p : options.percentile_texts) text += ", " + p + "%";
  text += ", max\n";
  if (options.noweight) {
    s = RunUnweighted(options, &logs, options.files.size(), &printer);
  } else {
    WeightedRun run(options, bins, &printer);
    s = run.Run(&logs);
  }
  if (!s.ok()) return s;
  std::fwrite(text.data(), 1, text.size(), out);
  if (std::fflush(out) != 0 || std::ferror(out)) {
    return Status::Error(std::string("cannot write output: ") + std::strerror(errno));
  }
  return Status();
}

}  // namespace compat
}  // namespace fiohist
