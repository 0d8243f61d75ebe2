#include "compat/compat_pctiles.h"

#include <time.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <set>

#include "base/file_write.h"
#include "base/number_format.h"
#include "compat/argparse_syntax.h"
#include "compat/python_text.h"
#include "histogram/bucket_layout.h"
#include "log/log_line.h"
#include "log/log_reader.h"

namespace po = boost::program_options;

namespace fiohist {
namespace compat {
namespace {

Status IntOption(const po::variables_map& vm, const char* name, int64_t lo, int64_t hi,
                 int64_t* value) {
  if (!vm.count(name)) return Status();
  const std::string text = vm[name].as<std::string>();
  int64_t v = 0;
  if (!ParsePythonInt(text, &v)) {
    return Status::Error(std::string("argument --") + name + ": invalid int value: '" + text + "'");
  }
  if (v < lo || v > hi) {
    return Status::Error(std::string("argument --") + name + ": expected " + std::to_string(lo) +
                         " to " + std::to_string(hi) + ", got " + text);
  }
  *value = v;
  return Status();
}

// Adds value(v) for every (bucket, v) of `add` into `row` (both in bucket order): a new
// bucket gets value(v), an existing one its value + value(v), as a dense += would.
template <typename T, typename F>
void MergeInto(SparseRow* row, const std::vector<std::pair<uint32_t, T>>& add, F value,
               SparseRow* scratch) {
  scratch->clear();
  scratch->reserve(row->size() + add.size());
  size_t i = 0;
  for (const auto& [bucket, v] : add) {
    while (i < row->size() && (*row)[i].first < bucket) scratch->push_back((*row)[i++]);
    if (i < row->size() && (*row)[i].first == bucket) {
      scratch->emplace_back(bucket, (*row)[i++].second + value(v));
    } else {
      scratch->emplace_back(bucket, value(v));
    }
  }
  while (i < row->size()) scratch->push_back((*row)[i++]);
  row->swap(*scratch);
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// One log as the reference keeps it: every record that survives the duplicate filter.
struct LogScan {
  std::vector<int64_t> times;
  std::vector<uint8_t> directions;
  int64_t start_ms = 0;
  int64_t end_ms = 0;
};

// Reads the records of `path` the reference would keep, with its checks (in its order),
// calling `fn(const LogRecord&)` for each. `expected_columns` is the bucket count.
template <typename Fn>
Status ReadRecords(const std::string& path, int expected_columns, Fn fn) {
  std::unique_ptr<LogReader> reader;
  Status s = LogReader::Open(path, &reader);
  if (!s.ok()) return s;
  std::string_view line;
  LogRecord record;
  std::string what;
  int64_t previous[2] = {-1, -1};
  int64_t last_time = -1;
  int last_direction = -1;
  while (reader->NextLine(&line)) {
    const long long n = reader->line_number();
    if (line.find_first_not_of(" \t\r\f\v") == std::string_view::npos) continue;
    if (!ParseRecord(line, &record, &what)) return Status::InputError(path, n, what);
    const int direction = static_cast<int>(record.direction);
    if (record.direction == Direction::kTrim) {
      return Status::InputError(
          path, n,
          "trim line (direction 2): fio-histo-log-pctiles reads only read (0) and write (1) "
          "lines");
    }
    if (record.time_ms < previous[direction]) {
      return Status::InputError(
          path, n,
          std::string(DirectionName(record.direction)) + " timestamp in column 1 decreased (from " +
              std::to_string(previous[direction]) + " to " + std::to_string(record.time_ms) + ")");
    }
    previous[direction] = record.time_ms;
    if (record.block_size > (uint64_t{1} << 24)) {
      return Status::InputError(path, n,
                                "block size too large (" + std::to_string(record.block_size) +
                                    " > 16777216 in column 3)");
    }
    if (record.columns != expected_columns) {
      std::string msg = std::to_string(record.columns) + " bucket counts per line but " +
                        std::to_string(expected_columns) + " expected";
      if (record.columns < expected_columns && expected_columns % record.columns == 0) {
        const int ratio = expected_columns / record.columns;
        if ((ratio & (ratio - 1)) == 0) {
          int k = 0;
          while ((1 << k) < ratio) ++k;
          msg += ": a coarsened log (log_hist_coarseness=" + std::to_string(k) +
                 "?); fio-histo-log-pctiles cannot read coarsened logs";
        }
      }
      return Status::InputError(path, n, msg);
    }
    // The reference drops a line that repeats the previous line's time and direction.
    if (record.time_ms == last_time && direction == last_direction) continue;
    last_time = record.time_ms;
    last_direction = direction;
    fn(record);
  }
  return reader->status();
}

Status ScanLog(const std::string& path, const PctilesOptions& options, int columns, LogScan* scan) {
  Status s = ReadRecords(path, columns, [scan](const LogRecord& r) {
    scan->times.push_back(r.time_ms);
    scan->directions.push_back(static_cast<uint8_t>(r.direction));
  });
  if (!s.ok()) return s;
  if (scan->times.empty()) return Status::InputError(path, 0, "no records");
  const int64_t first = scan->times.front();
  if (first < 1000000) {
    scan->start_ms = 0;  // relative stamps: the job started at 0
  } else if (options.log_hist_msec >= 0) {
    scan->start_ms = first - options.log_hist_msec;
  } else if (scan->times.size() > 1) {
    scan->start_ms = first - (scan->times[1] - first);
  } else {
    return Status::InputError(path, 0,
                              "one epoch-stamped record only: no way to estimate the start "
                              "time (give --log-hist-msec)");
  }
  scan->end_ms = scan->times.back();
  return Status();
}

}  // namespace

namespace {

// Parses argv with the reference's options and syntax into `vm`.
Status StorePctilesArgs(int argc, const char* const* argv, po::variables_map* vm) {
  po::options_description desc;
  desc.add_options()("help,h", "")("fio-version", po::value<std::string>(), "")(
      "bucket-groups", po::value<std::string>(), "")("bucket-bits", po::value<std::string>(), "")(
      "percentiles", po::value<std::vector<std::string>>()->multitoken(), "")(
      "time-quantum", po::value<std::string>(), "")("log-hist-msec", po::value<std::string>(), "")(
      "output-unit", po::value<std::string>(), "")("file_list",
                                                   po::value<std::vector<std::string>>(), "");
  return ParseArgparseSyntax(argc, argv, desc, "file_list", vm);
}

// --fio-version, --bucket-groups, --bucket-bits: the layout of the logs' buckets.
Status ReadLayoutOptions(const po::variables_map& vm, PctilesOptions* options) {
  int64_t v = 0;
  if (vm.count("fio-version")) {
    const std::string text = vm["fio-version"].as<std::string>();
    if (!ParsePythonInt(text, &v) || (v != 2 && v != 3)) {
      return Status::Error("argument --fio-version: invalid choice: '" + text +
                           "' (choose from 2, 3)");
    }
    options->fio_version = static_cast<int>(v);
  }
  v = options->bucket_groups;
  Status s = IntOption(vm, "bucket-groups", 1, 40, &v);
  if (!s.ok()) return s;
  options->bucket_groups = static_cast<int>(v);
  // The reference forces 19 groups for fio 2, even over an explicit --bucket-groups.
  if (options->fio_version == 2) options->bucket_groups = 19;
  v = options->bucket_bits;
  s = IntOption(vm, "bucket-bits", 0, 12, &v);
  if (!s.ok()) return s;
  options->bucket_bits = static_cast<int>(v);
  return Status();
}

// --time-quantum and --log-hist-msec.
Status ReadTimeOptions(const po::variables_map& vm, PctilesOptions* options) {
  int64_t v = 0;
  if (vm.count("time-quantum")) {
    const std::string text = vm["time-quantum"].as<std::string>();
    if (!ParsePythonInt(text, &v)) {
      return Status::Error("argument --time-quantum: invalid int value: '" + text + "'");
    }
    if (v <= 0 || v > 1000000000) {
      return Status::Error("--time-quantum must be a positive number of seconds, got " + text);
    }
    options->time_quantum_s = v;
  }
  return IntOption(vm, "log-hist-msec", 0, int64_t{1} << 40, &options->log_hist_msec);
}

// --output-unit and --percentiles: what is printed.
Status ReadOutputOptions(const po::variables_map& vm, PctilesOptions* options) {
  if (vm.count("output-unit")) {
    options->output_unit = vm["output-unit"].as<std::string>();
    if (options->output_unit != "usec" && options->output_unit != "msec") {
      return Status::Error(
          "--output-unit: expected usec or msec (the only units "
          "fio-histo-log-pctiles prints), got '" +
          options->output_unit + "'");
    }
  }
  if (vm.count("percentiles")) {
    options->percentiles.clear();
    for (const std::string& text : vm["percentiles"].as<std::vector<std::string>>()) {
      double p = 0;
      if (!ParsePythonFloat(text, &p)) {
        return Status::Error("argument --percentiles: invalid float value: '" + text +
                             "' (put '--' between the percentiles and the log files)");
      }
      if (!(p >= 0.0 && p <= 100.0)) {
        return Status::Error("argument --percentiles: expected 0 to 100, got '" + text + "'");
      }
      options->percentiles.push_back(p);
    }
  }
  return Status();
}

// The log files, each once, in the order first given.
Status ReadFiles(const po::variables_map& vm, PctilesOptions* options) {
  if (!vm.count("file_list")) {
    return Status::Error("the following arguments are required: file_list (the log files)");
  }
  std::set<std::string> seen;
  for (const std::string& f : vm["file_list"].as<std::vector<std::string>>()) {
    if (seen.insert(f).second) options->files.push_back(f);
  }
  return Status();
}

}  // namespace

Status ParsePctilesArgs(int argc, const char* const* argv, PctilesOptions* options) {
  *options = PctilesOptions();
  po::variables_map vm;
  Status s = StorePctilesArgs(argc, argv, &vm);
  if (!s.ok()) return s;
  if (vm.count("help")) {
    options->help = true;
    return Status();
  }
  s = ReadLayoutOptions(vm, options);
  if (s.ok()) s = ReadTimeOptions(vm, options);
  if (s.ok()) s = ReadOutputOptions(vm, options);
  if (s.ok()) s = ReadFiles(vm, options);
  return s;
}

int64_t QuantumCount(int64_t quantum_s, int64_t start_ms, int64_t end_ms) {
  const int64_t start_s = FloorDiv(start_ms, 1000);
  const int64_t end_s = FloorDiv(end_ms, 1000);
  return FloorDiv((end_s - start_s) + quantum_s, quantum_s);
}

int64_t RecordEnd(const std::vector<int64_t>& times, const std::vector<uint8_t>& directions,
                  size_t k, int64_t grid_end_ms) {
  for (size_t j = k + 1; j < times.size() && j <= k + 3; ++j) {
    if (directions[j] == directions[k]) return times[j];
  }
  return grid_end_ms;
}

LogAligner::LogAligner(const GridSpec& grid, std::vector<SparseRow>* totals)
    : grid_(grid), totals_(totals) {}

bool LogAligner::Add(int64_t time_ms, int64_t end_ms,
                     const std::vector<std::pair<uint32_t, uint64_t>>& counts) {
  // The reference divides by the record length: a zero-length record (a duplicate stamp
  // its filter missed) would divide by zero. It holds no time, so it is dropped.
  if (end_ms == time_ms) return false;
  const int64_t qms = grid_.quantum_ms;
  int64_t index = FloorDiv(time_ms - grid_.start_ms, qms);
  int64_t qstart = grid_.start_ms + index * qms;
  if (index < 0) {
    // The reference's negative index wraps to the last quanta; the share before the
    // window is dropped instead and the rest counts.
    qstart = grid_.start_ms;
    index = 0;
  }
  const double length = static_cast<double>(end_ms - time_ms);
  for (; qstart < end_ms && index < grid_.count; qstart += qms, ++index) {
    const int64_t overlap_start = std::max(qstart, time_ms);
    const int64_t overlap_end = std::min(qstart + qms, end_ms);
    double weight = static_cast<double>(overlap_end - overlap_start);
    weight /= length;
    if (weight == 0.0) continue;  // adds nothing (a record stamped after the grid end)
    if (window_.empty()) window_first_ = index;
    while (index < window_first_) {
      // Cannot happen for time-ordered logs (flushes follow the smallest later stamp),
      // but a row already flushed would otherwise be lost.
      window_.emplace_front();
      --window_first_;
    }
    const size_t slot = static_cast<size_t>(index - window_first_);
    if (slot >= window_.size()) window_.resize(slot + 1);
    MergeInto(
        &window_[slot], counts, [weight](uint64_t c) { return weight * static_cast<double>(c); },
        &scratch_);
  }
  return true;
}

void LogAligner::FlushBefore(int64_t time_ms) {
  const int64_t stop = FloorDiv(time_ms - grid_.start_ms, grid_.quantum_ms);
  Flush(stop);
}

void LogAligner::FlushAll() { Flush(window_first_ + static_cast<int64_t>(window_.size())); }

void LogAligner::Flush(int64_t stop) {
  for (; window_first_ < stop && !window_.empty(); ++window_first_) {
    const SparseRow& row = window_.front();
    if (!row.empty()) {
      // Same order as the reference: the total so far plus this log's sum.
      MergeInto(
          &(*totals_)[static_cast<size_t>(window_first_)], row, [](double v) { return v; },
          &scratch_);
    }
    window_.pop_front();
  }
}

std::vector<std::pair<double, double>> BucketEdges(int fio_version, int groups, int bits) {
  BucketLayout layout;
  layout.groups = groups;
  layout.bits = bits;
  layout.unit_ns = 1;
  const double divisor = fio_version == 3 ? 1000.0 : 1.0;
  std::vector<std::pair<double, double>> edges(static_cast<size_t>(layout.columns()));
  for (int c = 0; c < layout.columns(); ++c) {
    // Exact integers divided once, as the reference does.
    edges[static_cast<size_t>(c)] = {layout.LowerNs(c) / divisor, layout.UpperNs(c) / divisor};
  }
  return edges;
}

std::vector<std::pair<double, double>> Percentiles(
    const SparseRow& row, const std::vector<double>& wanted,
    const std::vector<std::pair<double, double>>& edges) {
  std::vector<std::pair<double, double>> result;
  double total = 0.0;
  for (const auto& entry : row) total += entry.second;
  if (total == 0.0 || wanted.empty()) return result;
  // No one wants percentiles between this and 100: it lets p=100 finish despite rounding.
  const double almost_100 = 99.9999;
  size_t next = 0;
  double pct = 0.0;
  double so_far = 0.0;
  auto store = [&result](double p, double v) {
    for (auto& r : result) {
      if (r.first == p) {
        r.second = v;  // a repeated p keeps the last value, like the reference's dict
        return;
      }
    }
    result.emplace_back(p, v);
  };
  for (const auto& [bucket, count] : row) {
    if (count == 0.0) continue;
    so_far += count;
    const double last_pct = pct;
    pct = 100.0 * so_far / total;
    while ((wanted[next] == 100.0 && pct >= almost_100) ||
           (wanted[next] < 100.0 && pct > wanted[next])) {
      const double lo = edges[bucket].first;
      const double hi = edges[bucket].second;
      const double fraction = (wanted[next] - last_pct) / (pct - last_pct);
      store(wanted[next], lo + fraction * (hi - lo));
      if (++next == wanted.size()) break;
    }
    if (next == wanted.size()) break;
  }
  std::sort(result.begin(), result.end());
  return result;
}

std::string HeaderLine(const std::vector<double>& wanted) {
  std::string line = "msec-since-start, samples, ";
  for (double p : wanted) {
    if (p == 0.0) {
      line += "min";
    } else if (p == 100.0) {
      line += "max";
    } else if (p == 50.0) {
      line += "median";
    } else {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%3.1f", p);
      line += buf;
    }
    line += ", ";
  }
  return line;
}

std::string RowLine(int64_t msec_since_start, const SparseRow& row,
                    const std::vector<double>& wanted,
                    const std::vector<std::pair<double, double>>& edges, double divisor) {
  double samples = 0.0;
  for (const auto& entry : row) samples += entry.second;
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%8lld, ", static_cast<long long>(msec_since_start));
  std::string line = buf;
  const std::string count = PythonIntegerPart(samples);
  if (count.size() < 8) line.append(8 - count.size(), ' ');
  line += count;
  line += ", ";
  const std::vector<std::pair<double, double>> values = Percentiles(row, wanted, edges);
  if (values.empty()) {
    for (size_t i = 0; i < wanted.size(); ++i) line += ", ";
    return line;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) line += ", ";
    AppendPythonRepr(&line, values[i].second / divisor);
  }
  return line;
}

std::string CTime(int64_t seconds) {
  static const char* const kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  tzset();
  const time_t t = static_cast<time_t>(seconds);
  struct tm tm;
  if (localtime_r(&t, &tm) == nullptr) return "?";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%s %s%3d %.2d:%.2d:%.2d %d", kDays[tm.tm_wday],
                kMonths[tm.tm_mon], tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                tm.tm_year + 1900);
  return buf;
}

namespace {

// A damaged stamp can stretch the window over years; the reference would try to allocate
// it all. 2*10^6 quanta is 23 days of 1 s quanta.
constexpr int64_t kMaxQuanta = 2000000;

// Pass 1: checks every log (the reference's checks, so errors come before any output) and
// finds the window [*start, *end) where all of them have data.
Status ScanAll(const PctilesOptions& options, int buckets, std::vector<LogScan>* scans,
               int64_t* start, int64_t* end) {
  scans->assign(options.files.size(), LogScan());
  *start = 0;
  *end = std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < options.files.size(); ++i) {
    Status s = ScanLog(options.files[i], options, buckets, &(*scans)[i]);
    if (!s.ok()) return s;
    *start = std::max(*start, (*scans)[i].start_ms);
    *end = std::min(*end, (*scans)[i].end_ms);
  }
  if (*start >= *end) {
    return Status::Error("no time interval when all logs overlapped (latest start " +
                         std::to_string(*start) + " ms, earliest end " + std::to_string(*end) +
                         " ms)");
  }
  return Status();
}

// Lays the reference's quantum grid over the common window, refusing one too long to hold.
Status MakeGrid(const PctilesOptions& options, int buckets, int64_t start, int64_t end,
                GridSpec* grid) {
  grid->start_ms = start;
  grid->quantum_ms = options.time_quantum_s * 1000;
  grid->count = QuantumCount(options.time_quantum_s, start, end);
  grid->end_ms = (FloorDiv(start, 1000) + grid->count * options.time_quantum_s) * 1000;
  grid->buckets = buckets;
  if (grid->count > kMaxQuanta) {
    return Status::Error("the common window [" + std::to_string(start) + ", " +
                         std::to_string(end) + "] ms spans " + std::to_string(grid->count) +
                         " quanta (more than " + std::to_string(kMaxQuanta) +
                         "): a damaged time stamp? (else use a larger --time-quantum)");
  }
  return Status();
}

// Pass 2 for one log: reads it again and spreads each record over the grid up to the next
// record of its direction, as the reference does. The records' ends come from pass 1's
// scan, so one read suffices.
Status SpreadLog(const std::string& path, const LogScan& scan, int buckets, PctilesResult* result) {
  const GridSpec& grid = result->grid;
  // later_min[k]: the smallest stamp from record k on; quanta before it are complete.
  std::vector<int64_t> later_min(scan.times.size() + 1, std::numeric_limits<int64_t>::max());
  for (size_t k = scan.times.size(); k-- > 0;) {
    later_min[k] = std::min(later_min[k + 1], scan.times[k]);
  }
  LogAligner aligner(grid, &result->totals);
  size_t k = 0;
  Status s = ReadRecords(path, buckets, [&](const LogRecord& r) {
    if (k >= scan.times.size() || scan.times[k] != r.time_ms) {
      ++k;
      return;  // the file changed since pass 1; reported below
    }
    // Three other-direction records in a row: the reference asserts; the record runs
    // to the end of the last quantum instead.
    if (k + 3 < scan.times.size() && scan.directions[k + 1] != scan.directions[k] &&
        scan.directions[k + 2] != scan.directions[k] &&
        scan.directions[k + 3] != scan.directions[k]) {
      ++result->no_successor;
    }
    const int64_t end = RecordEnd(scan.times, scan.directions, k, grid.end_ms);
    if (!aligner.Add(r.time_ms, end, r.counts)) ++result->zero_length;
    ++k;
    aligner.FlushBefore(later_min[k]);
  });
  if (s.ok() && k != scan.times.size()) {
    s = Status::InputError(path, 0, "the file changed while it was read");
  }
  if (!s.ok()) return s;
  aligner.FlushAll();
  return Status();
}

// The reference's lines before its CSV: the parameters, the window's start and the header.
std::string ParameterLines(const PctilesOptions& options, int64_t window_start_ms) {
  const int buckets_per_group = 1 << options.bucket_bits;
  std::string out;
  out += "fio version = " + std::to_string(options.fio_version) + "\n";
  out += "bucket groups = " + std::to_string(options.bucket_groups) + "\n";
  out += "bucket bits = " + std::to_string(options.bucket_bits) + "\n";
  out += "time quantum = " + std::to_string(options.time_quantum_s) + " sec\n";
  out += "percentiles = ";
  for (size_t i = 0; i < options.percentiles.size(); ++i) {
    if (i > 0) out += ",";
    AppendPythonRepr(&out, options.percentiles[i]);
  }
  out += "\n";
  out += "buckets per group = " + std::to_string(buckets_per_group) + "\n";
  out +=
      "buckets per interval = " + std::to_string(buckets_per_group * options.bucket_groups) + " \n";
  if (options.log_hist_msec >= 0) {
    out += "log_hist_msec = " + std::to_string(options.log_hist_msec) + "\n";
  }
  out += "output unit = " + options.output_unit + "\n";
  if (window_start_ms > 0) {
    const double seconds = static_cast<double>(window_start_ms) / 1000.0;
    out += "all threads running as of unix epoch time " +
           std::to_string(static_cast<long long>(seconds)) + " = " +
           CTime(static_cast<int64_t>(std::floor(seconds))) + "\n";
  }
  out += "time (millisec), percentiles in increasing order with values in " + options.output_unit +
         "\n";
  out += HeaderLine(options.percentiles) + "\n";
  return out;
}

}  // namespace

Status ComputePctiles(const PctilesOptions& options, PctilesResult* result) {
  *result = PctilesResult();
  const int buckets = (1 << options.bucket_bits) * options.bucket_groups;
  std::vector<LogScan> scans;
  int64_t window_end = 0;
  Status s = ScanAll(options, buckets, &scans, &result->window_start_ms, &window_end);
  if (!s.ok()) return s;
  s = MakeGrid(options, buckets, result->window_start_ms, window_end, &result->grid);
  if (!s.ok()) return s;
  result->totals.resize(static_cast<size_t>(result->grid.count));
  for (size_t i = 0; i < options.files.size(); ++i) {
    s = SpreadLog(options.files[i], scans[i], buckets, result);
    if (!s.ok()) return s;
  }
  return Status();
}

Status WritePctiles(const PctilesOptions& options, const PctilesResult& result, std::FILE* out) {
  std::string text = ParameterLines(options, result.window_start_ms);
  const std::vector<std::pair<double, double>> edges =
      BucketEdges(options.fio_version, options.bucket_groups, options.bucket_bits);
  const double divisor = options.output_unit == "msec" ? 1000.0 : 1.0;
  for (int64_t q = 0; q < result.grid.count; ++q) {
    text += RowLine(q * result.grid.quantum_ms, result.totals[static_cast<size_t>(q)],
                    options.percentiles, edges, divisor);
    text += "\n";
    // Written out in chunks: a long run's text need not be held whole.
    if (text.size() > (1 << 16)) {
      Status s = WriteText(out, text);
      if (!s.ok()) return s;
      text.clear();
    }
  }
  Status s = WriteText(out, text);
  return s.ok() ? FlushText(out) : s;
}

}  // namespace compat
}  // namespace fiohist
