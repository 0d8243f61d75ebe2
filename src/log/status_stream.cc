#include "log/status_stream.h"

#include <fcntl.h>
#include <poll.h>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cmath>
#include <cstring>

namespace fiohist {
namespace {

// Reads per call at most this much: a poll round never stalls on a huge backlog.
constexpr size_t kReadChunk = 1 << 20;

bool IsBlank(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

std::string JobLabel(const FioJobSnapshot& j) {
  return "job '" + j.name + "' (jobs[" + std::to_string(j.number - 1) + "])";
}

const char* const kStatusDirectionNames[kLogDirections] = {"read", "write", "trim"};

// after - before per column; fails naming the first column whose count went down.
Status Difference(const std::vector<std::pair<uint32_t, uint64_t>>& before,
                  const std::vector<std::pair<uint32_t, uint64_t>>& after,
                  const BucketLayout& layout, std::vector<std::pair<uint32_t, uint64_t>>* out) {
  auto went_down = [&layout](uint32_t column, uint64_t was, uint64_t now) {
    return Status::Error("the bucket of " +
                         std::to_string(FioBucketValue(layout, static_cast<int>(column))) +
                         " ns had " + std::to_string(was) + " I/Os and now has " +
                         (now == 0 ? std::string("none") : std::to_string(now)));
  };
  size_t i = 0;
  for (const auto& [column, count] : after) {
    if (i < before.size() && before[i].first < column) {
      return went_down(before[i].first, before[i].second, 0);
    }
    uint64_t prev = 0;
    if (i < before.size() && before[i].first == column) prev = before[i++].second;
    if (count < prev) return went_down(column, prev, count);
    if (count > prev) out->emplace_back(column, count - prev);
  }
  if (i < before.size()) return went_down(before[i].first, before[i].second, 0);
  return Status();
}

// Splits `counts` into `*first` (a `share` of them) and the rest, which it returns. By
// cumulative rounding: the first part holds round(share * total) I/Os exactly (rounding
// each column alone would lose up to one I/O per column).
std::vector<std::pair<uint32_t, uint64_t>> SplitShare(
    const std::vector<std::pair<uint32_t, uint64_t>>& counts, double share,
    std::vector<std::pair<uint32_t, uint64_t>>* first) {
  std::vector<std::pair<uint32_t, uint64_t>> rest;
  double cumulative = 0;
  uint64_t taken = 0;
  for (const auto& [column, count] : counts) {
    cumulative += static_cast<double>(count);
    const uint64_t upto = static_cast<uint64_t>(std::llround(cumulative * share));
    const uint64_t early = std::min(count, upto > taken ? upto - taken : 0);
    taken += early;
    if (early > 0) first->emplace_back(column, early);
    if (count > early) rest.emplace_back(column, count - early);
  }
  return rest;
}

}  // namespace

Status SnapshotDiffer::Add(const FioSnapshot& snap, uint64_t /*offset*/, StatusUpdate* update) {
  update->timestamp_ms = snap.timestamp_ms;
  update->jobs.clear();
  const bool first = reports_ == 0;
  if (state_.size() < snap.jobs.size()) state_.resize(snap.jobs.size());
  if (!first) {
    if (snap.timestamp_ms <= last_.timestamp_ms) {
      return Status::Error("timestamp_ms " + std::to_string(snap.timestamp_ms) +
                           " is not after the previous report's " +
                           std::to_string(last_.timestamp_ms) +
                           " (fio restarted into the same file, or two runs in one stream?)");
    }
    if (snap.jobs.size() != last_.jobs.size()) {
      return Status::Error("has " + std::to_string(snap.jobs.size()) +
                           " jobs but the previous report had " +
                           std::to_string(last_.jobs.size()) +
                           " (fio restarted into the same file, or two runs in one stream?)");
    }
    const int64_t gap = snap.timestamp_ms - last_.timestamp_ms;
    if (interval_ms_ == 0 || gap < interval_ms_) interval_ms_ = gap;
  }
  for (size_t k = 0; k < snap.jobs.size(); ++k) {
    const FioJobSnapshot& now = snap.jobs[k];
    static const FioJobSnapshot kNone;
    // fio restarts a job's clock early in the job (seen with fio 3.33 in fresh runs: 1,018
    // ms, then 897, its counts still growing): the job's start, from here on. A new fio run
    // into the same file has its counts go back too (refused below).
    const bool restarted = !first && now.runtime_ms < last_.jobs[k].runtime_ms;
    if (restarted) state_[k] = JobState();
    const FioJobSnapshot& before = first ? kNone : last_.jobs[k];
    JobIncrement inc;
    inc.job = static_cast<int>(k);
    bool any = false;
    for (int d = 0; d < kLogDirections; ++d) {
      const size_t di = static_cast<size_t>(d);
      Status s = Difference(before.bins[di], now.bins[di], layout_, &inc.counts[di]);
      if (!s.ok()) {
        return Status::Error(JobLabel(now) + ": " + kStatusDirectionNames[d] +
                             " counts go backwards: " + s.message() +
                             " (fio restarted into the same file?)");
      }
      any = any || !inc.counts[di].empty();
    }
    const bool ran = now.runtime_ms > before.runtime_ms;
    JobState& st = state_[k];
    if (now.runtime_ms > 0) {
      st.epoch_ms = std::min(st.epoch_ms, snap.timestamp_ms - now.runtime_ms);
    }
    if (!ran && !any) continue;  // not started yet, or over
    if (before.runtime_ms == 0 || restarted) {
      inc.span.start_ms = snap.timestamp_ms - now.runtime_ms;  // the job's first report
    } else {
      inc.span.start_ms = last_.timestamp_ms;
    }
    inc.span.end_ms = snap.timestamp_ms;
    inc.ios = inc.span;
    const int64_t slack = std::max(IntervalModel::kMinPauseMs, interval_ms_ / 10);
    const int64_t runtime_end = st.epoch_ms + now.runtime_ms;
    if (before.runtime_ms > 0 && any && snap.timestamp_ms - runtime_end > slack) {
      PlaceLate(st, runtime_end, now, &inc);
    } else if (any && st.quiet_since_ms != INT64_MIN &&
               inc.span.start_ms - st.quiet_since_ms > slack) {
      // Reports repeated the counts from quiet_since_ms to the previous report: a pause this
      // report ends. Its I/Os slower than the pause are the stuck ones.
      const double quiet_ns = static_cast<double>(inc.span.start_ms - st.quiet_since_ms) * 1e6;
      for (int d = 0; d < kLogDirections; ++d) {
        const size_t di = static_cast<size_t>(d);
        if (now.bins[di].empty()) continue;
        Pause p;
        p.direction = static_cast<Direction>(d);
        p.start_ms = st.quiet_since_ms;
        p.end_ms = inc.span.start_ms;
        for (const auto& [column, count] : inc.counts[di]) {
          if (static_cast<double>(FioBucketValue(layout_, static_cast<int>(column))) <
              quiet_ns / 2) {
            continue;
          }
          p.stuck_ios += static_cast<double>(count);
          p.slowest_column = column;
        }
        inc.pauses.push_back(p);
      }
    }
    if (any) {
      st.quiet_since_ms = INT64_MIN;
      double total = 0;
      for (const auto& counts : inc.counts) {
        for (const auto& c : counts) total += static_cast<double>(c.second);
      }
      const double expected = st.rate_per_ms * static_cast<double>(inc.span.length());
      const bool catching_up =
          inc.pauses.empty() && st.resumed && expected > 0 && total > 1.1 * expected;
      if (catching_up) {
        // Right after a pause, and until the job is back at its rate: what exceeds the
        // previous rate came first.
        const double share = (total - expected) / total;
        for (size_t d = 0; d < inc.counts.size(); ++d) {
          inc.counts[d] = SplitShare(inc.counts[d], share, &inc.start_counts[d]);
        }
      } else if (inc.pauses.empty() && inc.span.length() > 0) {
        st.rate_per_ms = total / static_cast<double>(inc.span.length());
      }
      st.resumed = !inc.pauses.empty() || catching_up;
    } else if (before.runtime_ms > 0 && st.quiet_since_ms == INT64_MIN) {
      st.quiet_since_ms = inc.span.start_ms;  // ran, completed nothing
    }
    update->jobs.push_back(std::move(inc));
  }
  last_ = snap;
  ++reports_;
  return Status();
}

void SnapshotDiffer::PlaceLate(const JobState& state, int64_t runtime_end_ms,
                               const FioJobSnapshot& now, JobIncrement* inc) const {
  const int64_t start = inc->span.start_ms, end = inc->span.end_ms;
  // Completions stopped by the runtime's end; the job resumed just before the report.
  const int64_t stopped_by = std::max(start, std::min(runtime_end_ms, end));
  const double wait_ns = static_cast<double>(end - stopped_by) * 1e6;
  auto slow = [&](uint32_t column) {
    return static_cast<double>(FioBucketValue(layout_, static_cast<int>(column))) >= wait_ns / 2;
  };
  double fast = 0, stuck = 0;
  for (const auto& counts : inc->counts) {
    for (const auto& [column, count] : counts) {
      (slow(column) ? stuck : fast) += static_cast<double>(count);
    }
  }
  // What the previous rate allows before the job stopped; the rest completed after it
  // resumed. Without a rate (a second report), all fast ones before.
  const double room =
      state.rate_per_ms > 0 ? state.rate_per_ms * static_cast<double>(stopped_by - start) : fast;
  // No I/O outlasted the wait and clearly more completed than the rate allows before the
  // runtime's end: this job was not blocked (fio waited for another job of the stream); its
  // I/Os completed all along. A job blocked before it issued (in io_submit, on a frozen
  // filesystem) has no stuck I/O, but no more I/Os than that either; nor has a job that
  // ended before fio's final report (a rate a little above the last one's: 776 I/Os where
  // it allowed 772).
  if (stuck == 0 && fast > 1.25 * room) return;
  const double share = fast > 0 ? std::min(1.0, room / fast) : 1.0;
  int64_t ios_end = stopped_by;
  if (state.rate_per_ms > 0 && fast <= room) {
    ios_end = std::min(
        stopped_by,
        start + std::max<int64_t>(1, static_cast<int64_t>(std::ceil(fast / state.rate_per_ms))));
  }
  inc->ios = TimeSpan{start, ios_end};
  for (int d = 0; d < kLogDirections; ++d) {
    const size_t di = static_cast<size_t>(d);
    std::vector<std::pair<uint32_t, uint64_t>> fast_counts, before, stuck_counts;
    for (const auto& c : inc->counts[di]) (slow(c.first) ? stuck_counts : fast_counts).push_back(c);
    std::vector<std::pair<uint32_t, uint64_t>> at_end = SplitShare(fast_counts, share, &before);
    // Stuck columns are above every fast one: the end's counts stay in column order.
    Pause p;
    p.direction = static_cast<Direction>(d);
    p.start_ms = before.empty() ? start : ios_end;
    p.end_ms = end;
    for (const auto& [column, count] : stuck_counts) {
      p.stuck_ios += static_cast<double>(count);
      p.slowest_column = column;
    }
    at_end.insert(at_end.end(), stuck_counts.begin(), stuck_counts.end());
    inc->counts[di] = std::move(before);
    inc->end_counts[di] = std::move(at_end);
    if (!now.bins[di].empty()) inc->pauses.push_back(p);
  }
}

FioStatusStream::FioStatusStream(std::string name, BucketLayout layout)
    : name_(std::move(name)), layout_(layout) {
  differ_.set_layout(layout_);
}

FioStatusStream::~FioStatusStream() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
}

std::string FioStatusStream::Where(uint64_t offset) const {
  const std::string shown = name_ == "-" ? std::string("stdin") : name_;
  return shown + ": byte " + std::to_string(offset) + ": ";
}

bool FioStatusStream::has_partial() const {
  for (char c : buffer_) {
    if (!IsBlank(c)) return true;
  }
  return false;
}

Status FioStatusStream::Open() {
  if (name_ == "-") {
    fd_ = 0;
    return Status();
  }
  // Non-blocking open: a named pipe without a writer yet must not stop the other streams.
  const int fd = ::open(name_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Status();  // not there yet: waited for
    return Status::Error(name_ + ": cannot open: " + std::strerror(errno));
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status::Error(name_ + ": is a directory, not a fio status stream");
  }
  fd_ = fd;
  owns_fd_ = true;
  regular_ = S_ISREG(st.st_mode);
  inode_ = st.st_ino;
  device_ = st.st_dev;
  return Status();
}

Status FioStatusStream::Poll(std::vector<StatusUpdate>* updates) {
  if (closed_) return Status();
  if (fd_ < 0) {
    Status s = Open();
    if (!s.ok() || fd_ < 0) return s;
  }
  if (regular_) {
    struct stat st;
    if (::fstat(fd_, &st) == 0 && static_cast<uint64_t>(st.st_size) < bytes_read()) {
      return Status::Error(Where(static_cast<uint64_t>(st.st_size)) + "the file shrank from " +
                           std::to_string(bytes_read()) + " to " + std::to_string(st.st_size) +
                           " bytes (fio restarted into the same file?)");
    }
    struct stat now;
    if (::stat(name_.c_str(), &now) == 0 &&
        (static_cast<uint64_t>(now.st_ino) != inode_ ||
         static_cast<uint64_t>(now.st_dev) != device_)) {
      return Status::Error(Where(bytes_read()) +
                           "the file was replaced by another one (fio restarted into a new file "
                           "of the same name?)");
    }
  } else {
    // Pipes and stdin: read only what is there, never block.
    struct pollfd p = {fd_, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) return Status();
  }
  char chunk[65536];
  size_t total = 0;
  while (total < kReadChunk) {
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      return Status::Error(Where(bytes_read()) + "read failed: " + std::strerror(errno));
    }
    if (n == 0) {
      // End of file: a regular file may grow again; a pipe whose writer has come and gone
      // is over (a named pipe without any writer yet also reads 0: still waited for).
      if (!regular_ && (had_data_ || fd_ == 0)) closed_ = true;
      break;
    }
    had_data_ = true;
    buffer_.append(chunk, static_cast<size_t>(n));
    total += static_cast<size_t>(n);
    if (!regular_) break;  // one read per poll round for pipes: poll() again first
  }
  return TakeObjects(updates);
}

Status FioStatusStream::Feed(const std::string& text, std::vector<StatusUpdate>* updates) {
  buffer_ += text;
  return TakeObjects(updates);
}

Status FioStatusStream::TakeObjects(std::vector<StatusUpdate>* updates) {
  size_t pos = 0;
  Status result;
  while (true) {
    while (pos < buffer_.size() && IsBlank(buffer_[pos])) ++pos;
    if (pos == buffer_.size()) break;
    const uint64_t offset = base_ + pos;
    if (buffer_[pos] != '{') {
      const size_t end = buffer_.find('\n', pos);
      const size_t line = (end == std::string::npos ? buffer_.size() : end) - pos;
      const std::string found = buffer_.substr(pos, std::min<size_t>(40, line));
      result = Status::Error(Where(offset) +
                             "expected '{' starting a JSON object of fio's json+ output, found '" +
                             found + "'");
      break;
    }
    // One object at a time: parsing stops after the first complete one, and the stream's
    // position says where it ended.
    rapidjson::MemoryStream in(buffer_.data() + pos, buffer_.size() - pos);
    rapidjson::Document doc;
    doc.ParseStream<rapidjson::kParseStopWhenDoneFlag, rapidjson::UTF8<>>(in);
    if (doc.HasParseError()) {
      // An error at the end of the bytes so far: the object is still being written.
      if (doc.GetErrorOffset() >= buffer_.size() - pos) break;
      result = Status::Error(Where(offset + doc.GetErrorOffset()) + "not valid JSON: " +
                             rapidjson::GetParseError_En(doc.GetParseError()) +
                             " (in the object starting at byte " + std::to_string(offset) + ")");
      break;
    }
    FioSnapshot snap;
    Status s = DecodeFioSnapshot(doc, layout_, &snap);
    if (s.ok()) {
      StatusUpdate u;
      u.offset = offset;
      s = differ_.Add(snap, offset, &u);
      if (s.ok()) updates->push_back(std::move(u));
    }
    if (!s.ok()) {
      result = Status::Error(Where(offset) + s.message());
      break;
    }
    pos += in.Tell();
  }
  buffer_.erase(0, pos);
  base_ += pos;
  return result;
}

}  // namespace fiohist
