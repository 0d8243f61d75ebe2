#include "log/log_probe.h"

#include <algorithm>
#include <memory>
#include <string_view>
#include <vector>

#include "log/carried_lines.h"
#include "log/interval_model.h"
#include "log/line_diagnosis.h"
#include "log/log_line.h"
#include "log/log_reader.h"
#include "log/stats_reset.h"

namespace fiohist {

Status ProbeLog(const std::string& path, int max_lines, bool skip_bad_lines, LogProbe* probe) {
  LogSource source;
  source.path = path;
  return ProbeLog(source, max_lines, skip_bad_lines, probe);
}

Status ProbeLog(const LogSource& source, int max_lines, bool skip_bad_lines, LogProbe* probe,
                std::string* records) {
  const std::string& path = source.path;
  *probe = LogProbe();
  // Records are kept only while the log may still turn out to be read whole and clean.
  bool keep = records != nullptr && source.segment_end < 0;
  if (records) records->clear();
  long long kept_line = 0;  // line of the last record kept
  std::unique_ptr<LogReader> reader;
  Status s = OpenLogSource(source, &reader);
  if (!s.ok()) return s;
  LogRecord record;
  std::string what;
  int64_t last[kLogDirections] = {-1, -1, -1};
  std::vector<int64_t> gaps;
  std::string_view line;
  int seen = 0;
  CarriedLinesCheck carried;
  while (seen < max_lines && reader->NextLine(&line)) {
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    bool good = ParseRecord(line, &record, &what);
    if (keep) {
      // The stream reads a line's head first (LogStream::ReadPeek): a line whose head it
      // would judge otherwise, or one without its '\n', is read from the log.
      int64_t head_time;
      Direction head_direction;
      keep = good && !reader->last_line_unterminated() &&
             ParseRecordHead(line, &head_time, &head_direction) && head_time == record.time_ms &&
             head_direction == record.direction;
    }
    if (good && probe->empty && reader->last_line_unterminated()) {
      // A cut line can still parse (with fewer columns, which may even match a coarse
      // layout); with no complete line before it nothing tells, so it is not used.
      good = false;
      what = "a single line of " + std::to_string(record.columns) +
             " bucket counts cannot be told from a cut one";
    } else if (good && !probe->empty && record.columns != probe->columns) {
      good = false;
      what = "expected " + std::to_string(probe->columns) +
             " bucket counts (as on the first line), found " + std::to_string(record.columns);
    }
    int wrapped = 0;
    int64_t head_time = 0;
    Direction head_direction = Direction::kRead;
    const bool went_back = !good && ParseRecordHead(line, &head_time, &head_direction) &&
                           head_time < last[static_cast<int>(head_direction)];
    if (!good && IsStatsResetLine(line, went_back, &wrapped)) {
      // fio's latency_target reset: the lines after it are not intervals of the run.
      keep = false;
      if (skip_bad_lines) break;
      return Status::InputError(path, reader->line_number(), StatsResetMessage(wrapped));
    }
    if (!good) {
      keep = false;
      what = ExplainBadHistLine(line, what);
      if (reader->last_line_unterminated()) {
        what = "last line is incomplete (no newline at the end: fio killed mid-write?): " + what;
      }
      if (skip_bad_lines) continue;
      return Status::InputError(path, reader->line_number(), what);
    }
    if (probe->empty) {
      probe->empty = false;
      probe->columns = record.columns;
      probe->first_time_ms = record.time_ms;
      probe->epoch = record.time_ms >= kEpochThresholdMs;
    }
    int64_t& l = last[static_cast<int>(record.direction)];
    // A jump beyond kMaxSpanMs is a bad line for the stream; it says nothing of the interval.
    if (l >= 0 && record.time_ms > l && record.time_ms - l <= kMaxSpanMs) {
      gaps.push_back(record.time_ms - l);
    }
    l = record.time_ms;
    probe->stamps.push_back({record.time_ms, static_cast<double>(record.total), record.direction});
    carried.Add(record);
    if (keep) {
      PutRecord(record, reader->line_number() - kept_line, records);
      kept_line = reader->line_number();
    }
    ++seen;
  }
  // Kept only when the log ends here (blank lines aside).
  while (keep && reader->NextLine(&line)) {
    keep = line.find_first_not_of(" \t") == std::string_view::npos;
  }
  if (keep && reader->status().ok() && !probe->empty) {
    probe->probed.trailing_blank_lines = reader->line_number() - kept_line;
  } else if (records) {
    records->clear();
  }
  probe->carried_lines = carried.Carried();
  // With --skip-bad-lines the stream reports the damage (and uses what came before it).
  if (!reader->status().ok() && !skip_bad_lines) return reader->status();
  if (!gaps.empty()) {
    std::nth_element(gaps.begin(), gaps.begin() + static_cast<long>(gaps.size() / 2), gaps.end());
    probe->typical_gap_ms = gaps[gaps.size() / 2];
  }
  return Status();
}

}  // namespace fiohist
