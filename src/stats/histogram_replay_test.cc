#include "stats/histogram_replay.h"

#include <gtest/gtest.h>

#include <vector>

#include "stats/collecting_sink.h"

namespace fiohist {
namespace {

StoredQuantum Stored(int64_t start, const char* host, const char* job, Direction d, int column,
                     double n) {
  StoredQuantum q;
  q.start_ms = start;
  q.end_ms = start + 1000;
  q.host = host;
  q.job = job;
  q.direction = d;
  q.histogram.Add(column, n);
  return q;
}

// Jobs' read and write histograms summed into hosts, the cluster, `all` and 2 s quanta.
TEST(HistogramReplay, SumsScopesDirectionsAndCoarserQuanta) {
  PipelineOptions o;
  o.quantum_ms = 2000;
  o.scopes = {true, true, false};
  CollectingSink sink;
  HistogramReplay replay(o, RunInfo(), &sink);
  for (int64_t t : {0, 1000, 2000}) {
    ASSERT_TRUE(replay.Add(Stored(t, "a", "j1", Direction::kRead, 10, 1)).ok());
    ASSERT_TRUE(replay.Add(Stored(t, "a", "j2", Direction::kWrite, 20, 2)).ok());
    ASSERT_TRUE(replay.Add(Stored(t, "b", "j1", Direction::kRead, 30, 4)).ok());
  }
  ASSERT_TRUE(replay.Finish().ok());
  // Window 0: cluster read, write, all; host a read, write, all; host b read, all.
  std::vector<const ScopeResult*> first;
  for (const ScopeResult& r : sink.quanta) {
    if (r.start_ms == 0) first.push_back(&r);
  }
  ASSERT_EQ(first.size(), 8u);
  EXPECT_EQ(first[0]->kind, ScopeKind::kCluster);
  EXPECT_EQ(first[0]->direction, Direction::kRead);
  EXPECT_EQ(first[0]->stats.samples, 10.0);  // (1 + 4) x 2 quanta
  EXPECT_EQ(first[2]->direction, Direction::kAll);
  EXPECT_EQ(first[2]->stats.samples, 14.0);
  EXPECT_EQ(first[2]->logs, 3);
  EXPECT_EQ(first[3]->host, "a");
  EXPECT_EQ(first[7]->host, "b");
  EXPECT_EQ(first[7]->stats.samples, 8.0);
  ASSERT_FALSE(sink.whole.empty());
  EXPECT_EQ(sink.whole[2].stats.samples, 21.0);  // cluster all
  EXPECT_EQ(sink.whole[2].end_ms, 4000);
}

// Coverage as the logs would give it: a job whose log ends inside a quantum (its documents
// say 0.25, read and write alike: counted once), a job of the run with no documents in the
// quantum (counted against), and whole spans where nothing is said.
TEST(HistogramReplay, CoverageAgainstEveryLogOfTheScope) {
  PipelineOptions o;
  o.scopes = {true, true, true};
  o.directions = {true, true, false, false};
  CollectingSink sink;
  HistogramReplay replay(o, RunInfo(), &sink);
  replay.SetSeriesLogs({{{"a", "j1"}, 1}, {{"a", "j2"}, 1}, {{"b", "j1"}, 1}});
  for (const char* job : {"j1", "j2"}) {  // the reader's order: time, host, job, direction
    for (Direction d : {Direction::kRead, Direction::kWrite}) {
      ASSERT_TRUE(replay.Add(Stored(0, "a", job, d, 10, 1)).ok());
    }
  }
  for (Direction d : {Direction::kRead, Direction::kWrite}) {
    StoredQuantum q = Stored(1000, "a", "j1", d, 10, 1);
    q.coverage = 0.25;
    ASSERT_TRUE(replay.Add(q).ok());
  }
  ASSERT_TRUE(replay.Finish().ok());
  auto find = [&](int64_t start, ScopeKind kind, const char* host, const char* job) {
    for (const ScopeResult& r : sink.quanta) {
      if (r.start_ms == start && r.kind == kind && r.host == host && r.job == job) return &r;
    }
    return static_cast<const ScopeResult*>(nullptr);
  };
  const ScopeResult* cluster0 = find(0, ScopeKind::kCluster, "", "");
  ASSERT_NE(cluster0, nullptr);
  EXPECT_DOUBLE_EQ(cluster0->coverage, 2.0 / 3);  // b/j1 has nothing in quantum 0
  EXPECT_TRUE(cluster0->partial);
  const ScopeResult* host_a0 = find(0, ScopeKind::kHost, "a", "");
  ASSERT_NE(host_a0, nullptr);
  EXPECT_DOUBLE_EQ(host_a0->coverage, 1.0);
  EXPECT_FALSE(host_a0->partial);
  const ScopeResult* job1 = find(1000, ScopeKind::kJob, "a", "j1");
  ASSERT_NE(job1, nullptr);
  EXPECT_DOUBLE_EQ(job1->coverage, 0.25);
  EXPECT_TRUE(job1->partial);
  const ScopeResult* host_a1 = find(1000, ScopeKind::kHost, "a", "");
  ASSERT_NE(host_a1, nullptr);
  EXPECT_DOUBLE_EQ(host_a1->coverage, 0.125);  // 250 ms of 2 logs x 1000 ms
}

TEST(HistogramReplay, RefusesDocumentsOutOfOrder) {
  PipelineOptions o;
  CollectingSink sink;
  HistogramReplay replay(o, RunInfo(), &sink);
  ASSERT_TRUE(replay.Add(Stored(5000, "a", "j", Direction::kRead, 1, 1)).ok());
  EXPECT_FALSE(replay.Add(Stored(1000, "a", "j", Direction::kRead, 1, 1)).ok());
}

}  // namespace
}  // namespace fiohist
