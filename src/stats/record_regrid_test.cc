#include "stats/record_regrid.h"

#include <gtest/gtest.h>

#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "base/test_util.h"
#include "stats/collecting_sink.h"
#include "stats/pipeline.h"

namespace fiohist {
namespace {

using Cells = std::map<std::tuple<int64_t, std::string, std::string, int>,
                       std::pair<std::vector<std::pair<int, double>>, double>>;

std::vector<std::pair<int, double>> Counts(const Histogram& h) {
  std::vector<std::pair<int, double>> out;
  h.ForEachNonZero([&](int c, double v) { out.emplace_back(c, v); });
  return out;
}

// Keeps the pipeline's job histograms and coverage per quantum, and the records of each job
// result's direction, in the order bucket documents would hold them.
class RecordSink : public CollectingSink {
 public:
  Status Quantum(const ScopeResult& r) override {
    if (r.kind != ScopeKind::kJob || r.direction == Direction::kAll) return Status();
    cells[{r.start_ms, r.host, r.job, static_cast<int>(r.direction)}] = {Counts(*r.histogram),
                                                                         r.coverage};
    if (r.records == nullptr) return Status::Error("no records");
    for (const PlacedRecord& rec : *r.records) {
      if (rec.direction == r.direction) records.push_back({r.start_ms, r.host, r.job, rec});
    }
    return Status();
  }
  struct Stored {
    int64_t document_start;  // the quantum of the result (document) holding the record
    std::string host, job;
    PlacedRecord record;
  };
  Cells cells;
  std::vector<Stored> records;
};

// Runs the pipeline over `logs` at `quantum_ms`, places its records again and expects every
// job histogram bit for bit, and its coverage: also the quanta a stall covers with no I/O
// (records without counts carry that coverage).
void ExpectRebuilt(const std::vector<std::string>& logs, int64_t quantum_ms) {
  PipelineOptions o;
  o.quantum_ms = quantum_ms;
  o.scopes = {true, false, true};
  o.keep_records = true;
  RecordSink sink;
  RunSummary summary;
  const Status run = RunPipeline(o, logs, &sink, &summary);
  ASSERT_TRUE(run.ok()) << run.message();
  ASSERT_FALSE(sink.records.empty());
  // Documents come in time, host, job and direction order: the records of a result
  // were emitted in that order already. Flushed by quantum, or also by series (what
  // BucketReader does): the same cells in the same order.
  std::vector<std::tuple<int64_t, std::string, std::string, int>> order[2];
  for (int by_series = 0; by_series < 2; ++by_series) {
    RecordRegrid regrid(QuantumGrid(sink.info.first_quantum_ms, quantum_ms), INT64_MIN,
                        INT64_MAX);
    Cells rebuilt;
    auto each = [&](const StoredQuantum& q) {
      rebuilt[{q.start_ms, q.host, q.job, static_cast<int>(q.direction)}] = {
          Counts(q.histogram), q.coverage};
      order[by_series].emplace_back(q.start_ms, q.host, q.job, static_cast<int>(q.direction));
      return Status();
    };
    for (const auto& s : sink.records) {
      // BucketReader flushes at each document's quantum: a record of a paused fio record
      // (its I/Os at the stamp) may start quanta after the document's.
      const int64_t start = s.document_start;
      ASSERT_TRUE((by_series ? regrid.FlushBefore(start, s.host, s.job, each)
                             : regrid.FlushBefore(start, each))
                      .ok());
      regrid.Add(s.host, s.job, s.record);
    }
    ASSERT_TRUE(regrid.Finish(each).ok());
    const Cells& want_cells = sink.cells;
    ASSERT_EQ(rebuilt.size(), want_cells.size());
    size_t i = 0;
    for (const auto& [key, want] : want_cells) {
      auto it = rebuilt.find(key);
      ASSERT_NE(it, rebuilt.end()) << std::get<0>(key) << " " << std::get<2>(key);
      EXPECT_EQ(it->second.first, want.first) << std::get<0>(key) << " " << std::get<2>(key);
      EXPECT_NEAR(it->second.second, want.second, 1e-12) << std::get<0>(key);
      ++i;
    }
    EXPECT_EQ(i, want_cells.size());
  }
  EXPECT_EQ(order[0], order[1]);
}

// The real fio logs: both directions, records straddling every quantum edge.
TEST(RecordRegrid, RebuildsTheLogsHistogramsBitForBit) {
  const std::string dir = std::string(FIOHIST_TEST_DATA) + "/fio-logs/";
  ExpectRebuilt({dir + "randrw4/randrw4_clat_hist.1.log", dir + "randrw4/randrw4_clat_hist.2.log"},
                1000);
  ExpectRebuilt({dir + "epoch2/epoch2_clat_hist.1.log.hostX",
                 dir + "epoch2/epoch2_clat_hist.2.log.hostY"},
                1000);
  ExpectRebuilt({dir + "randrw4/randrw4_clat_hist.3.log"}, 300);
  ExpectRebuilt({dir + "coarse/coarse_clat_hist.1.log"}, 1000);
}

// A stalled direction: its record placed by fio's rule (interval_model.h), stored once.
TEST(RecordRegrid, RebuildsAStallSpreadOverManyQuanta) {
  std::string text;
  auto line = [](int64_t t, int dir, int count) {  // `count` I/Os in bucket 300, fio3 layout
    std::string s = std::to_string(t) + ", " + std::to_string(dir) + ", 4096";
    for (int c = 0; c < 1856; ++c) s += c == 300 ? ", " + std::to_string(count) : ", 0";
    return s + "\n";
  };
  text += line(1001, 0, 10) + line(1001, 1, 10);
  for (int k = 2; k <= 10; ++k) {
    text += line(k * 1000 + 1, 0, 10);
    if (k == 9) text += line(9001, 1, 800);
  }
  ExpectRebuilt({WriteTempFile("regrid_stall.log", text)}, 1000);
}

// The recorded fsfreeze run (tests/data/stalls): a hiccup, a 3 s stall with catch-up
// records, every quantum and its coverage rebuilt.
TEST(RecordRegrid, RebuildsARecordedStall) {
  const std::string dir = std::string(FIOHIST_TEST_DATA) + "/stalls/stall/";
  ExpectRebuilt({dir + "stall_clat_hist.1.log.gz", dir + "stall_clat_hist.2.log.gz"}, 1000);
  ExpectRebuilt({dir + "stall_clat_hist.1.log.gz"}, 300);
}

// Only quanta of the window are handed out; a record starting before it still counts.
TEST(RecordRegrid, HandsOutTheWindowOnly) {
  RecordRegrid regrid(QuantumGrid(0, 1000), 1000, 3000);
  PlacedRecord r;
  r.direction = Direction::kWrite;
  r.span = {500, 2500};  // 500 ms in quantum 0, 1000 in 1, 1000 in 2
  r.counts = {{7, 20}};
  regrid.Add("h", "j", r);
  std::vector<StoredQuantum> out;
  ASSERT_TRUE(regrid.Finish([&](const StoredQuantum& q) {
                out.push_back(q);
                return Status();
              })
                  .ok());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].start_ms, 1000);
  EXPECT_EQ(out[1].start_ms, 2000);
  EXPECT_EQ(out[0].direction, Direction::kWrite);
  EXPECT_DOUBLE_EQ(out[0].histogram.total(), 10.0);
  EXPECT_DOUBLE_EQ(out[0].coverage, 1.0);
}


// Flushing by series hands out the quantum of the series sorted before the next document's
// at once; the next quantum's share of each series stays until its own documents passed.
TEST(RecordRegrid, FlushesEarlierSeriesOfTheSameQuantum) {
  RecordRegrid regrid(QuantumGrid(0, 1000), INT64_MIN, INT64_MAX);
  PlacedRecord r;
  r.direction = Direction::kRead;
  r.span = {500, 1500};  // half in quantum 0, half in 1
  r.counts = {{7, 20}};
  regrid.Add("h1", "j", r);
  regrid.Add("h2", "j", r);
  std::vector<StoredQuantum> out;
  auto each = [&](const StoredQuantum& q) {
    out.push_back(q);
    return Status();
  };
  ASSERT_TRUE(regrid.FlushBefore(0, "h2", "j", each).ok());
  ASSERT_EQ(out.size(), 1u);  // quantum 0 of h1; h2's may still get records
  EXPECT_EQ(out[0].host, "h1");
  EXPECT_EQ(out[0].start_ms, 0);
  ASSERT_TRUE(regrid.FlushBefore(1000, "h1", "j", each).ok());
  ASSERT_EQ(out.size(), 2u);  // quantum 0 of h2, not quantum 1 of h1
  EXPECT_EQ(out[1].host, "h2");
  EXPECT_EQ(out[1].start_ms, 0);
  ASSERT_TRUE(regrid.Finish(each).ok());
  ASSERT_EQ(out.size(), 4u);
  EXPECT_DOUBLE_EQ(out[2].histogram.total(), 10.0);
}

}  // namespace
}  // namespace fiohist
