#include "log/job_segments.h"

#include <memory>
#include <string_view>

#include "log/log_line.h"
#include "log/log_name.h"
#include "log/number_scan.h"
#include "log/per_io_stream.h"
#include "log/stats_reset.h"

namespace fiohist {

bool MayHoldSeveralJobs(const LogSource& source) {
  const LogName n = ParseLogName(source.path);
  return n.job_number == 0 && (n.type == LogFileType::kHist || n.type == LogFileType::kPerIo);
}

Status SplitJobSegments(const LogSource& source, std::vector<LogSource>* out) {
  out->clear();
  std::unique_ptr<LogReader> reader;
  Status s = LogReader::Open(source.path, &reader);
  if (!s.ok()) return s;
  std::vector<std::pair<long long, long long>> starts = {{0, 0}};  // byte, lines before
  int64_t last[kLogDirections] = {-1, -1, -1};
  int64_t previous = -1;
  std::string_view line;
  long long before = 0;
  while (reader->NextLine(&line)) {
    const long long at = before;
    before = reader->bytes_read();
    int64_t t = 0;
    bool restart = false;
    if (source.per_io) {
      const char* p = line.data();
      const char* end = p + line.size();
      while (p < end && IsSpace(*p)) ++p;
      uint64_t v = 0;
      if (ParseUnsigned(p, end, &v) != 0) continue;  // the stream judges it
      t = static_cast<int64_t>(v);
      restart = previous >= 0 && t < previous - kPerIoBackwardsSlackMs;
      previous = t;
    } else {
      Direction d;
      if (!ParseRecordHead(line, &t, &d)) continue;
      int64_t& l = last[static_cast<int>(d)];
      int wrapped = 0;
      restart = l >= 0 && t < l && !IsStatsResetLine(line, true, &wrapped);
      if (restart) {
        for (int64_t& x : last) x = -1;
      }
      l = t;
    }
    if (restart) starts.emplace_back(at, reader->line_number() - 1);
  }
  if (!reader->status().ok()) return reader->status();
  if (starts.size() == 1) {
    out->push_back(source);
    return Status();
  }
  for (size_t k = 0; k < starts.size(); ++k) {
    LogSource seg = source;
    seg.job = source.job + "@" + std::to_string(k + 1);
    seg.segment_begin = starts[k].first;
    seg.segment_lines = starts[k].second;
    seg.segment_end = k + 1 < starts.size() ? starts[k + 1].first : reader->bytes_read();
    out->push_back(seg);
  }
  return Status();
}

}  // namespace fiohist
