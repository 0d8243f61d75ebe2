#include "stats/record_regrid.h"

#include <algorithm>
#include <utility>

namespace fiohist {

void RecordRegrid::Add(const std::string& host, const std::string& job,
                       const PlacedRecord& record) {
  const TimeSpan& span = record.span;
  if (span.length() <= 0) return;  // LogStream never stores one; a damaged document might
  const size_t d = static_cast<size_t>(record.direction);
  if (d >= static_cast<size_t>(kLogDirections)) return;
  // The quanta the span overlaps ([start, end) in the weight's arithmetic) and the window
  // holds: a stalled record may span days of quanta.
  int64_t first = grid_.IndexOf(span.start_ms);
  int64_t last = grid_.IndexOf(span.end_ms - 1);
  if (from_ms_ != INT64_MIN) first = std::max(first, grid_.IndexOf(from_ms_));
  if (to_ms_ != INT64_MAX) last = std::min(last, grid_.IndexOf(to_ms_ - 1));
  // A record without counts covers its span (a paused record's); the I/O parts that follow
  // it within that span, from the same fio record, cover nothing more (LogStream::AddPart).
  const bool cover_only = record.counts.empty();
  const bool nested = !cover_only && d == cover_direction_ && host == cover_host_ &&
                      job == cover_job_ && span.start_ms >= cover_.start_ms &&
                      span.end_ms <= cover_.end_ms;
  if (cover_only) {
    cover_ = span;
    cover_direction_ = d;
    cover_host_ = host;
    cover_job_ = job;
  }
  for (int64_t q = first; q <= last; ++q) {
    const int64_t qs = grid_.Start(q), qe = grid_.End(q);
    if (qs < from_ms_ || qs >= to_ms_) continue;
    const double w = grid_.Weight(span, q);
    if (w <= 0) continue;
    Cell& c = cells_[Key{qs, host, job}];
    if (!cover_only) c.direction[d].AddWeighted(record.counts, w);
    c.touched[d] = true;
    if (!nested) c.covered_ms[d] += std::min(span.end_ms, qe) - std::max(span.start_ms, qs);
  }
}

Status RecordRegrid::FlushBefore(int64_t t_ms, const std::string& host, const std::string& job,
                                 const std::function<Status(const StoredQuantum&)>& each) {
  auto it = cells_.begin();
  for (; it != cells_.end(); ++it) {
    const int64_t qs = std::get<0>(it->first);
    if (t_ms != INT64_MAX && grid_.End(grid_.IndexOf(qs)) > t_ms &&
        !(qs == t_ms && std::tie(std::get<1>(it->first), std::get<2>(it->first)) <
                            std::tie(host, job))) {
      break;
    }
    Cell& c = it->second;  // erased below: its histograms are moved out
    // A log's coverage of a quantum is the most of any direction, as LogStream measures it.
    const int64_t covered = *std::max_element(c.covered_ms, c.covered_ms + kLogDirections);
    out_.start_ms = qs;
    out_.end_ms = grid_.End(grid_.IndexOf(qs));
    out_.host = std::get<1>(it->first);
    out_.job = std::get<2>(it->first);
    out_.logs = 1;
    // At most 1, as the pipeline's (a catch-up record's millisecond overlaps the span of
    // the record before it).
    out_.coverage = std::min(
        1.0, static_cast<double>(covered) / static_cast<double>(out_.end_ms - out_.start_ms));
    for (int d = 0; d < kLogDirections; ++d) {
      if (!c.touched[d]) continue;
      out_.direction = static_cast<Direction>(d);
      out_.histogram = std::move(c.direction[d]);
      Status s = each(out_);
      if (!s.ok()) return s;
    }
  }
  cells_.erase(cells_.begin(), it);
  return Status();
}

}  // namespace fiohist
