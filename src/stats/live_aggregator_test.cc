#include "stats/live_aggregator.h"

#include <gtest/gtest.h>

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

TEST(LiveAggregator, GridIsTheFirstStreamsWhicheverStreamIsReadFirst) {
  // Stream b (.200) is read before stream a (.500): the grid still follows a, the first
  // stream, so a second follow of the same files writes the same quanta.
  for (bool b_first : {true, false}) {
    CollectingSink sink;
    LiveOptions o;
    LiveAggregator agg(o, {{"a.json", "a"}, {"b.json", "b"}}, &sink);
    SnapshotDiffer da, db;
    if (b_first) Add(&agg, &db, 1, Snap(10200, 1000, 40));
    Add(&agg, &da, 0, Snap(10500, 1000, 100));
    if (!b_first) Add(&agg, &db, 1, Snap(10200, 1000, 40));
    int written = 0;
    ASSERT_TRUE(agg.EmitUntil(10500, &written).ok());
    EXPECT_EQ(agg.info().grid_origin_ms, 500) << b_first;
    // [9500, 10500): a's 100 and 70 % of b's (9200, 10200].
    EXPECT_DOUBLE_EQ(ClusterReads(sink, 9500), 100 + 0.7 * 40) << b_first;
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
