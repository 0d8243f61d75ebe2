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

TEST(HistogramReplay, RefusesDocumentsOutOfOrder) {
  PipelineOptions o;
  CollectingSink sink;
  HistogramReplay replay(o, RunInfo(), &sink);
  ASSERT_TRUE(replay.Add(Stored(5000, "a", "j", Direction::kRead, 1, 1)).ok());
  EXPECT_FALSE(replay.Add(Stored(1000, "a", "j", Direction::kRead, 1, 1)).ok());
}

}  // namespace
}  // namespace fiohist
