// Parts of the fiologparser_hist.py drop-in (fiologparser_hist.h) that both of its modes
// use: the script's print slots and CSV row (FlhPrinter), and the logs merged by stamp as
// the script reads them (FlhMergedLogs). Shared by fiologparser_hist.cc (--noweight) and
// fiologparser_hist_weighted.cc (the default mode).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "compat/fiologparser_hist.h"
#include "compat/numpy_math.h"
#include "compat/python_text.h"
#include "log/log_line.h"
#include "log/log_reader.h"

namespace fiohist {
namespace compat {

// The rows of one output line: the slot of each direction, in the script's print order
// (sorted names: m, r, t, w).
enum Slot { kMixed = 0, kReadSlot = 1, kTrimSlot = 2, kWriteSlot = 3, kSlots = 4 };
inline constexpr char kSlotName[kSlots] = {'m', 'r', 't', 'w'};

/// The print slot of a direction.
inline int SlotOf(Direction d) {
  switch (d) {
    case Direction::kRead:
      return kReadSlot;
    case Direction::kWrite:
      return kWriteSlot;
    default:
      return kTrimSlot;
  }
}

/// What the output needs from the options, worked out once, and the CSV row.
struct FlhPrinter {
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

/// The logs merged by stamp: the record with the smallest stamp next, ties to the file
/// given first (the script's get_min over its file list).
class FlhMergedLogs {
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

}  // namespace compat
}  // namespace fiohist
