// Following one fio json+ status stream (a file fio is still writing, a named pipe or stdin)
// and turning its reports into the time spans and histogram increments they add.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "histogram/bucket_layout.h"
#include "log/fio_snapshot.h"
#include "log/interval_model.h"
#include "log/log_report.h"

namespace fiohist {

/// What one job did between two reports: the span (start, end] and the I/Os completed in it.
struct JobIncrement {
  using Counts = std::array<std::vector<std::pair<uint32_t, uint64_t>>, kLogDirections>;
  /// Index into the stream's jobs (FioStatusStream::jobs()).
  int job = 0;
  /// The time the report accounts for: covered (the job ran), even where nothing completed.
  TimeSpan span;
  /// Where `counts` completed, spread uniformly: `span`, except for a late report.
  TimeSpan ios;
  /// Per direction (read, write, trim): (column, count) completed over `ios`.
  Counts counts;
  /// Per direction: I/Os that completed at the span's end (its last millisecond): those of
  /// a late report that completed after its job resumed, the stuck ones among them.
  Counts end_counts;
  /// Per direction: I/Os that completed at the span's start (its first millisecond): in the
  /// report after a pause, those beyond the job's previous rate (fio's `rate` catching up
  /// right after the job resumed).
  Counts start_counts;
  /// Spans of the job's directions with no completion that this report ended (a late
  /// report; the first report with new counts after reports repeating the previous ones).
  std::vector<Pause> pauses;
};

/// One report of the stream, as the increments it adds.
struct StatusUpdate {
  /// Absolute byte offset of the report's '{' in the stream.
  uint64_t offset = 0;
  /// fio's timestamp_ms: everything up to here is known for this stream.
  int64_t timestamp_ms = 0;
  std::vector<JobIncrement> jobs;
};

/// Turns a stream's successive snapshots into increments. fio's bins are cumulative, so the
/// difference of two reports is exactly the histogram of the I/Os completed between them.
/// A job's first report with a runtime covers (timestamp_ms - job_runtime, timestamp_ms];
/// each later one (previous timestamp_ms, timestamp_ms]. A report in which a job neither ran
/// nor completed an I/O (not started yet, or ended) adds no span for it.
///
/// Late reports (fio 3.33 stat.c, __show_running_run_stats): fio takes `job_runtime` when
/// a report is due, then waits for each running job to pass its I/O loop, and takes the
/// bins and `timestamp_ms` when it prints. A job blocked in the kernel (a frozen
/// filesystem) delays the report until it resumes: its runtime then ends more than
/// IntervalModel::kMinPauseMs before `timestamp_ms`, and it completed nothing in between
/// (its I/Os are reaped by the blocked thread). Its I/Os are placed where they can have
/// completed: those slower than half the wait (stuck) and those beyond what the job's
/// previous rate allows before it stopped, at the report's end; the others at that rate
/// from the previous report on. A report whose counts repeat the previous ones while the
/// job ran is a span with no completion: the next report with counts ends that pause. In the
/// report after a pause, I/Os beyond the job's previous rate completed at its start (a
/// `rate`-limited job catches up as soon as it resumes).
class SnapshotDiffer {
 public:
  /// Adds `snap` (the report at byte `offset`): fills `*update`, or fails when it cannot
  /// follow the previous report (time or counts going backwards, jobs changing: fio restarted
  /// into the same file, or two runs in one stream). Messages have no location.
  Status Add(const FioSnapshot& snap, uint64_t offset, StatusUpdate* update);
  /// The last report added (cumulative counts: the whole run so far).
  const FioSnapshot& last() const { return last_; }
  /// Reports added so far.
  int reports() const { return reports_; }
  /// The smallest gap between reports so far (fio's --status-interval), 0 before two.
  int64_t interval_ms() const { return interval_ms_; }
  /// The layout of the bins (for messages naming a bucket by fio's value).
  void set_layout(const BucketLayout& layout) { layout_ = layout; }

 private:
  // Per job: what placing its next increment needs.
  struct JobState {
    int64_t epoch_ms = INT64_MAX;        // the earliest timestamp_ms - job_runtime: its start
    double rate_per_ms = 0;              // I/Os per ms of its last increment on time
    int64_t quiet_since_ms = INT64_MIN;  // reports repeat the counts since then
    bool resumed = false;                // its last report with counts ended a pause
  };
  // Splits a late report's increment (runtime up to `runtime_end_ms`) into `ios` and
  // `end_counts`, and names its pause.
  void PlaceLate(const JobState& state, int64_t runtime_end_ms, const FioJobSnapshot& now,
                 JobIncrement* inc) const;

  BucketLayout layout_;
  FioSnapshot last_;
  int reports_ = 0;
  int64_t interval_ms_ = 0;
  std::vector<JobState> state_;
};

/// Reads one stream without blocking: `-` is standard input, anything else a path that may
/// not exist yet (waited for), a regular file fio is appending to (its growth is followed;
/// shrinking or replacement is an error) or a named pipe. Complete JSON objects are taken one
/// at a time from the bytes read (an object cut at the end of what is there so far is waited
/// for); every message names the stream and the absolute byte offset.
class FioStatusStream {
 public:
  /// `name`: the path or `-`; `layout`: the buckets of fio's bins (fio3's).
  FioStatusStream(std::string name, BucketLayout layout);
  ~FioStatusStream();
  FioStatusStream(const FioStatusStream&) = delete;
  FioStatusStream& operator=(const FioStatusStream&) = delete;

  /// Reads what is available now and appends the updates of every complete report to
  /// `*updates`. Fails (the stream is then unusable) on bad input, naming stream and offset.
  Status Poll(std::vector<StatusUpdate>* updates);
  /// Takes complete reports from `text` as if read from the stream (tests, whole files).
  Status Feed(const std::string& text, std::vector<StatusUpdate>* updates);
  /// The stream is over: a pipe or stdin reached end of file. A regular file never closes
  /// (fio's final report or silence ends it; the caller decides).
  bool closed() const { return closed_; }
  /// The path exists (or is stdin) and was opened.
  bool opened() const { return fd_ >= 0; }
  /// Bytes read so far, and bytes taken as complete reports.
  uint64_t bytes_read() const { return base_ + buffer_.size(); }
  uint64_t bytes_used() const { return base_; }
  /// Non-blank bytes after the last complete report (an object still being written, or cut).
  bool has_partial() const;
  /// "NAME: byte N: " for messages about the stream at absolute offset `offset`.
  std::string Where(uint64_t offset) const;
  const std::string& name() const { return name_; }
  const SnapshotDiffer& differ() const { return differ_; }

 private:
  Status Open();
  Status TakeObjects(std::vector<StatusUpdate>* updates);

  std::string name_;
  BucketLayout layout_;
  int fd_ = -1;
  bool owns_fd_ = false;
  bool regular_ = false;
  bool had_data_ = false;
  bool closed_ = false;
  uint64_t inode_ = 0, device_ = 0;
  uint64_t base_ = 0;   // absolute offset of buffer_[0]
  std::string buffer_;  // bytes read, not yet taken as a report
  SnapshotDiffer differ_;
};

}  // namespace fiohist
