#include "stats/live_aggregator.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "stats/collecting_sink.h"

namespace fiohist {
namespace {

// One report of one job: `reads` cumulative I/Os at 24704 ns (column 608).
FioSnapshot Snap(int64_t ts, int64_t runtime, uint64_t reads) {
  FioSnapshot s;
  s.timestamp_ms = ts;
  FioJobSnapshot j;
  j.name = "j";
  j.number = 1;
  j.runtime_ms = runtime;
  if (reads > 0) j.bins[0].emplace_back(608, reads);
  s.jobs.push_back(j);
  return s;
}

void Add(LiveAggregator* agg, SnapshotDiffer* d, int stream, const FioSnapshot& s) {
  StatusUpdate u;
  ASSERT_TRUE(d->Add(s, 0, &u).ok());
  agg->Add(stream, u, d->last());
}

double ClusterReads(const CollectingSink& sink, int64_t start_ms) {
  double n = -1;
  for (const ScopeResult& r : sink.quanta) {
    if (r.kind == ScopeKind::kCluster && r.direction == Direction::kRead && r.start_ms == start_ms)
      n = r.stats.samples;
  }
  return n;
}

TEST(LiveAggregator, GridTakesThePhaseOfTheFirstReport) {
  CollectingSink sink;
  LiveOptions o;  // grid from the reports
  LiveAggregator agg(o, {{"a.json", "a"}}, &sink);
  SnapshotDiffer da;
  // Reports at .500 of a second: (9500, 10500] with 100 reads, (10500, 11500] with 200.
  Add(&agg, &da, 0, Snap(10500, 1000, 100));
  Add(&agg, &da, 0, Snap(11500, 2000, 300));
  int written = 0;
  ASSERT_TRUE(agg.EmitUntil(11500, &written).ok());
  EXPECT_EQ(written, 2);
  EXPECT_EQ(agg.info().grid, "logs");
  EXPECT_EQ(agg.info().grid_origin_ms, 500);
  // Each report fills one quantum: nothing spread over an edge.
  EXPECT_DOUBLE_EQ(ClusterReads(sink, 9500), 100);
  EXPECT_DOUBLE_EQ(ClusterReads(sink, 10500), 200);
  for (const ScopeResult& r : sink.quanta) EXPECT_DOUBLE_EQ(r.straddled, 0);
}

// The grid of two streams whose reports end at .500 (100 reads) and .200 (40 reads):
// given in `order` (streams 0, 1 are a, b or b, a) and read in `b_first` order.
int64_t TwoStreamOrigin(bool swap_streams, bool b_first, CollectingSink* sink) {
  LiveOptions o;  // grid from the reports
  std::vector<LiveStream> streams = {{"a.json", "a"}, {"b.json", "b"}};
  if (swap_streams) std::swap(streams[0], streams[1]);
  const int a = swap_streams ? 1 : 0, b = 1 - a;
  LiveAggregator agg(o, streams, sink);
  SnapshotDiffer da, db;
  int written = 0;
  if (b_first) Add(&agg, &db, b, Snap(10200, 1000, 40));
  if (!b_first) Add(&agg, &da, a, Snap(10500, 1000, 100));
  // One stream's report alone does not decide: nothing can go out before the other's.
  EXPECT_TRUE(agg.EmitUntil(INT64_MIN, &written).ok());
  EXPECT_EQ(written, 0);
  if (b_first) Add(&agg, &da, a, Snap(10500, 1000, 100));
  if (!b_first) Add(&agg, &db, b, Snap(10200, 1000, 40));
  Add(&agg, &db, b, Snap(11200, 2000, 80));
  Add(&agg, &da, a, Snap(11500, 2000, 300));
  EXPECT_TRUE(agg.EmitUntil(11200, &written).ok());
  EXPECT_TRUE(agg.grid_note().empty()) << agg.grid_note();
  EXPECT_EQ(agg.info().grid, "logs");
  return agg.info().grid_origin_ms;
}

TEST(LiveAggregator, GridPhaseFromEveryStreamsFirstReportWhateverTheOrder) {
  // The I/O-weighted circular median of the first reports' end phases (.500 with 100
  // I/Os, .200 with 40): .500, whichever stream is given or read first, so a follow and a
  // later push of the same files write the same quanta.
  for (bool swap_streams : {false, true}) {
    for (bool b_first : {false, true}) {
      CollectingSink sink;
      EXPECT_EQ(TwoStreamOrigin(swap_streams, b_first, &sink), 500)
          << swap_streams << b_first;
      // [9500, 10500): a's 100, 70 % of b's (9200, 10200] and 30 % of its (10200, 11200].
      EXPECT_DOUBLE_EQ(ClusterReads(sink, 9500), 100 + 0.7 * 40 + 0.3 * 40)
          << swap_streams << b_first;
    }
  }
}

TEST(LiveAggregator, GridPhaseIsTheHeavierFirstReports) {
  // b's first report holds more I/Os than a's: its phase (.200) wins, in every order.
  for (bool swap_streams : {false, true}) {
    CollectingSink sink;
    LiveOptions o;
    std::vector<LiveStream> streams = {{"a.json", "a"}, {"b.json", "b"}};
    if (swap_streams) std::swap(streams[0], streams[1]);
    const int a = swap_streams ? 1 : 0, b = 1 - a;
    LiveAggregator agg(o, streams, &sink);
    SnapshotDiffer da, db;
    Add(&agg, &da, a, Snap(10500, 1000, 100));
    Add(&agg, &db, b, Snap(10200, 1000, 400));
    int written = 0;
    ASSERT_TRUE(agg.EmitUntil(10200, &written).ok());
    EXPECT_EQ(agg.info().grid_origin_ms, 200) << swap_streams;
  }
}

TEST(LiveAggregator, GridIgnoresAStreamStartingAQuantumLater) {
  // b reports past a quantum after a's first report without a job running (a later
  // start): a's phase decides as soon as that is known, and b's later first report does
  // not count (a push of the same files decides the same).
  CollectingSink sink;
  LiveOptions o;
  LiveAggregator agg(o, {{"a.json", "a"}, {"b.json", "b"}}, &sink);
  SnapshotDiffer da, db;
  Add(&agg, &da, 0, Snap(10500, 1000, 100));
  Add(&agg, &db, 1, Snap(10300, 0, 0));  // b's job not started: no increment
  int written = 0;
  ASSERT_TRUE(agg.EmitUntil(10300, &written).ok());
  EXPECT_EQ(written, 0);  // not decided yet: b may still report a first I/O before 11500
  Add(&agg, &db, 1, Snap(11600, 0, 0));
  Add(&agg, &db, 1, Snap(12600, 1000, 4000));  // b's first I/O, heavy but late
  ASSERT_TRUE(agg.EmitUntil(11500, &written).ok());
  EXPECT_EQ(agg.info().grid_origin_ms, 500);
  EXPECT_TRUE(agg.grid_note().empty()) << agg.grid_note();
}

TEST(LiveAggregator, GridDecidedWithoutALaggingStreamSaysSo) {
  // b has not reported when quanta must go out (it lags): a's phase decides, and the note
  // names b and the --grid that makes a push write the same documents.
  CollectingSink sink;
  LiveOptions o;
  LiveAggregator agg(o, {{"a.json", "a"}, {"b.json", "b"}}, &sink);
  SnapshotDiffer da;
  Add(&agg, &da, 0, Snap(10400, 1000, 100));
  Add(&agg, &da, 0, Snap(11400, 2000, 300));
  int written = 0;
  ASSERT_TRUE(agg.EmitUntil(11400, &written).ok());
  EXPECT_EQ(written, 2);
  EXPECT_EQ(agg.info().grid_origin_ms, 400);
  EXPECT_NE(agg.grid_note().find("without b.json"), std::string::npos) << agg.grid_note();
  EXPECT_NE(agg.grid_note().find("--grid 0.400"), std::string::npos) << agg.grid_note();
}

TEST(LiveAggregator, GridEpochAndOriginKeepTheirPhase) {
  for (bool epoch : {true, false}) {
    CollectingSink sink;
    LiveOptions o;
    o.grid.mode = epoch ? GridChoice::Mode::kEpoch : GridChoice::Mode::kOrigin;
    o.grid.origin_ms = 1795391079250;
    LiveAggregator agg(o, {{"a.json", "a"}}, &sink);
    SnapshotDiffer da;
    Add(&agg, &da, 0, Snap(10500, 1000, 100));
    int written = 0;
    ASSERT_TRUE(agg.EmitUntil(10500, &written).ok());
    EXPECT_EQ(agg.info().grid_origin_ms, epoch ? 0 : 250);
    EXPECT_EQ(agg.info().grid, epoch ? "epoch" : "origin");
  }
}

TEST(LiveAggregator, SpreadsReportsOverQuantaByOverlapAndWaits) {
  CollectingSink sink;
  LiveOptions o;
  o.grid.mode = GridChoice::Mode::kEpoch;  // quanta on whole seconds
  LiveAggregator agg(o, {{"a.json", "a"}, {"b.json", "b"}}, &sink);
  SnapshotDiffer da, db;
  // Job a: (9500, 10500] with 100 reads, then (10500, 11500] with 200.
  Add(&agg, &da, 0, Snap(10500, 1000, 100));
  Add(&agg, &da, 0, Snap(11500, 2000, 300));
  Add(&agg, &db, 1, Snap(10000, 1000, 40));  // b: (9000, 10000]
  int written = 0;
  // Until 10000 (b's end): quanta 9000 and ending at 10000 only.
  ASSERT_TRUE(agg.EmitUntil(10000, &written).ok());
  EXPECT_EQ(written, 1);
  EXPECT_DOUBLE_EQ(ClusterReads(sink, 9000), 50 + 40);
  ASSERT_TRUE(agg.EmitUntil(11500, &written).ok());
  EXPECT_EQ(written, 1);  // 10000-11000; 11000-12000 is not over
  EXPECT_DOUBLE_EQ(ClusterReads(sink, 10000), 50 + 100);
  // b's late report reaches back into the written quantum 10000: it is rewritten.
  Add(&agg, &db, 1, Snap(11000, 2000, 60));
  ASSERT_TRUE(agg.EmitUntil(11500, &written).ok());
  EXPECT_EQ(written, 1);
  EXPECT_EQ(agg.quanta_rewritten(), 1);
  EXPECT_DOUBLE_EQ(ClusterReads(sink, 10000), 50 + 100 + 20);  // the rewrite comes last
  RunSummary summary;
  ASSERT_TRUE(agg.Finish(&summary).ok());
  // Whole run: fio's cumulative counts, exactly.
  double cluster_reads = -1;
  for (const ScopeResult& r : sink.whole) {
    if (r.kind == ScopeKind::kCluster && r.direction == Direction::kRead) {
      cluster_reads = r.stats.samples;
    }
  }
  EXPECT_DOUBLE_EQ(cluster_reads, 300 + 60);
  EXPECT_EQ(sink.info.hosts, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(agg.info().logs.size(), 2u);
  EXPECT_EQ(agg.info().logs[0].job, "j.1");
}

TEST(LiveAggregator, SlaBreachesCountAsLastWritten) {
  CollectingSink sink;
  LiveOptions o;
  o.grid.mode = GridChoice::Mode::kEpoch;  // quanta on whole seconds
  SlaThreshold t;
  ASSERT_TRUE(ParseSlaThreshold("read.p50=20us", "--sla", &t).ok());
  o.sla = {t};
  AddSlaPercentiles(o.sla, &o.percentiles);
  LiveAggregator agg(o, {{"a.json", "a"}, {"b.json", "b"}}, &sink);
  SnapshotDiffer da, db;
  Add(&agg, &da, 0, Snap(11000, 1000, 100));  // 24.7 us reads: above 20 us
  int written = 0;
  ASSERT_TRUE(agg.EmitUntil(11000, &written).ok());
  EXPECT_EQ(written, 1);
  EXPECT_EQ(agg.sla_breaches(), 1);  // quantum 10000, read
  // b's late report adds many fast reads to that quantum: its p50 drops below 20 us.
  FioSnapshot fast = Snap(11000, 1000, 0);
  fast.jobs[0].bins[0].emplace_back(100, 1000);  // 100 ns
  Add(&agg, &db, 1, fast);
  ASSERT_TRUE(agg.EmitUntil(11000, &written).ok());
  EXPECT_EQ(written, 1);
  EXPECT_EQ(agg.sla_breaches(), 0);
  EXPECT_EQ(sink.info.sla.size(), 1u);
}

}  // namespace
}  // namespace fiohist
