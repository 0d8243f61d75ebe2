// A histogram log with each I/O placed where it was issued (--place issue).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "log/issue_spread.h"
#include "log/log_stream.h"
#include "log/record_stream.h"

namespace fiohist {

/// The latency range of every column of `layout` in ms; fio's last bucket (open-ended, it
/// holds every longer latency) is taken at its lower edge.
std::vector<LatencyRange> ColumnLatencies(const BucketLayout& layout);

/// A histogram log whose I/Os are placed where they were issued. A LogStream places each
/// record's I/Os where they completed (fio's deadline rule, interval_model.h); each bucket's
/// share of a record is then spread over the issue times its latency allows: completion
/// uniform over the part's completion span, latency uniform within the bucket, independent
/// (issue_spread.h). So a record that ended a freeze puts its stuck I/O's issue where the
/// freeze began, and its fast I/Os where they were.
///
/// An I/O is issued at most the slowest bucket's latency before it completes, so before
/// quantum q is handed out the stream reads ahead until every record still to come
/// completes more than that past q's end (the horizon: fio's last bucket, about 17 s for
/// fio 3). Memory: the records of that window, one entry per (bucket, quantum) of each.
/// Bucket documents' records are not kept (a trapezoid is no span: PlacedRecord).
class IssueLogStream : public RecordStream {
 public:
  IssueLogStream(const LogSource& source, const StreamSetup& setup);

  Status Prime() override;
  int64_t next_start_ms() const override;
  Status Feed(const QuantumGrid& grid, int64_t q, DirectionSums* out, DirectionFlags* touched,
              std::vector<PlacedRecord>* placed = nullptr) override;
  int64_t covered_ms(int64_t q) const override { return covered_q_ == q ? covered_ : 0; }
  std::array<double, kLogDirections> straddled_ios(int64_t q) const override {
    return covered_q_ == q ? straddled_ : std::array<double, kLogDirections>{};
  }
  int64_t complete_to_ms(int64_t q) const override {
    return covered_q_ == q ? complete_to_ : kCompleteToAll;
  }
  void set_addition_observer(AdditionObserver observer) override {
    observer_ = std::move(observer);
  }
  const LogSource& source() const override { return inner_.source(); }
  const LogReport& report() const override { return report_; }

 private:
  // One bucket's share of a record issued in one quantum.
  struct Entry {
    Direction direction;
    uint32_t column;
    uint64_t count;
    double weight;
  };
  // What the completion stream said of a quantum: its coverage and touched directions.
  struct Cover {
    int64_t covered_ms = 0;
    DirectionFlags touched{};
  };
  // Feeds the completion stream quanta until every record still to come may only add to
  // quanta starting at or after `until_ms` (or the file is done).
  Status ReadAhead(int64_t until_ms);
  // Spreads the parts the completion stream placed over their issue quanta.
  void Spread(const std::vector<PlacedRecord>& parts);

  LogStream inner_;
  QuantumGrid grid_;
  std::vector<LatencyRange> latency_;
  int64_t horizon_ms_ = 0;
  int64_t inner_q_ = INT64_MIN;  // the next quantum the completion stream is fed
  DirectionSums scratch_;
  DirectionFlags scratch_touched_{};
  std::vector<PlacedRecord> parts_;
  std::map<int64_t, std::vector<Entry>> pending_;
  std::map<int64_t, Cover> covers_;
  // Per direction: the stamp of its last record, and the slowest latency read (ms).
  std::array<int64_t, kLogDirections> last_end_{INT64_MIN, INT64_MIN, INT64_MIN};
  double slowest_ms_ = 0;
  int64_t covered_q_ = INT64_MIN;
  int64_t covered_ = 0;
  std::array<double, kLogDirections> straddled_{};
  int64_t complete_to_ = kCompleteToAll;
  double late_ios_ = 0;
  LogReport report_;
  AdditionObserver observer_;
  std::vector<std::pair<uint32_t, uint64_t>> one_;
};

/// complete_to_ms() of quantum [qs, qe) of a file whose last completion is `last_ms` and
/// slowest I/O `slowest_ms`: kCompleteToAll when an I/O that slow issued at qe would have
/// completed by `last_ms`, else the latency up to which the quantum is complete (>= 0).
int64_t CompleteTo(int64_t qe, int64_t last_ms, double slowest_ms);

}  // namespace fiohist
