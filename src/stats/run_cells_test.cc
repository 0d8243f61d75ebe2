#include "stats/run_cells.h"

#include <gtest/gtest.h>

#include "stats/collecting_sink.h"
#include "stats/pipeline.h"

namespace fiohist {
namespace {

std::vector<std::string> Epoch2Logs() {
  const std::string dir = std::string(FIOHIST_TEST_DATA) + "/fio-logs/epoch2/";
  return {dir + "epoch2_clat_hist.1.log.hostX", dir + "epoch2_clat_hist.1.log.hostY",
          dir + "epoch2_clat_hist.2.log.hostX", dir + "epoch2_clat_hist.2.log.hostY"};
}

// The cells are the pipeline's host histograms of the full quanta: their sum per quantum is
// the cluster's, and partial quanta (host Y starts 2 s late, the logs end apart) are out.
TEST(RunCells, KeepsTheFullQuantaPerHost) {
  PipelineOptions options;
  options.scopes = {true, true, false};
  options.directions = {true, true, true, false};
  RunCellsSink cells("epoch2", QuantumWindow());
  CollectingSink all;
  struct Both : ResultSink {
    ResultSink* a;
    CollectingSink* b;
    Status Begin(const RunInfo& i) override { a->Begin(i); return b->Begin(i); }
    Status Quantum(const ScopeResult& r) override { a->Quantum(r); return b->Quantum(r); }
    Status WholeRun(const ScopeResult& r) override { return b->WholeRun(r); }
    Status End(const RunSummary& s) override { return b->End(s); }
  } both;
  both.a = &cells;
  both.b = &all;
  RunSummary summary;
  ASSERT_TRUE(RunPipeline(options, Epoch2Logs(), &both, &summary).ok());
  RunData data;
  ASSERT_TRUE(cells.TakeAll(&data).ok());
  ASSERT_EQ(data.directions.size(), 2u);  // read and write
  const RunCells& read = data.directions[0];
  EXPECT_EQ(read.direction, Direction::kRead);
  EXPECT_EQ(read.hosts, (std::vector<std::string>{"hostX", "hostY"}));
  EXPECT_GT(cells.quanta_partial(), 0);
  EXPECT_EQ(static_cast<long long>(read.quanta()), cells.quanta_seen() - cells.quanta_partial());
  size_t checked = 0;
  for (const ScopeResult& r : all.quanta) {
    if (r.kind != ScopeKind::kCluster || r.direction != Direction::kRead) continue;
    for (size_t q = 0; q < read.quanta(); ++q) {
      if (read.starts_ms[q] != r.start_ms) continue;
      EXPECT_FALSE(r.partial);
      double sum = 0;
      for (const Histogram& h : read.cells[q]) sum += h.total();
      EXPECT_NEAR(sum, r.stats.samples, 1e-6 * sum);
      ++checked;
    }
  }
  EXPECT_EQ(checked, read.quanta());

  // Ramps cut (counted from the first quantum, partial ones included).
  QuantumWindow window;
  window.skip_start_ms = 5000;
  window.skip_end_ms = 3000;
  RunCellsSink cut("epoch2", window);
  ASSERT_TRUE(RunPipeline(options, Epoch2Logs(), &cut, &summary).ok());
  RunCells trimmed;
  ASSERT_TRUE(cut.Take(Direction::kRead, &trimmed).ok());
  EXPECT_LT(trimmed.quanta(), read.quanta());
  EXPECT_GE(trimmed.starts_ms.front(), read.starts_ms.front());

  // Everything cut: a clear error.
  window.skip_start_ms = 1000000;
  RunCellsSink none("epoch2", window);
  ASSERT_TRUE(RunPipeline(options, Epoch2Logs(), &none, &summary).ok());
  Status s = none.Take(Direction::kRead, &trimmed);
  EXPECT_NE(s.message().find("no full quantum left"), std::string::npos) << s.message();

  // A window in the run's time; a baseline takes it at the same offsets from its own first
  // quantum (here the same logs, so the same quanta).
  QuantumWindow at;
  at.from_ms = read.first_quantum_ms + 4000;
  at.to_ms = read.first_quantum_ms + 9000;
  RunCellsSink windowed("epoch2", at);
  ASSERT_TRUE(RunPipeline(options, Epoch2Logs(), &windowed, &summary).ok());
  RunData in_window;
  ASSERT_TRUE(windowed.TakeAll(&in_window).ok());
  const RunCells& w = in_window.directions[0];
  ASSERT_GT(w.quanta(), 0u);
  EXPECT_GE(w.starts_ms.front(), at.from_ms);
  EXPECT_LT(w.starts_ms.back(), at.to_ms);
  const QuantumWindow base = BaselineWindow(at, data);
  EXPECT_TRUE(base.relative);
  EXPECT_EQ(base.from_ms, 4000);
  EXPECT_EQ(base.to_ms, 9000);
  EXPECT_FALSE(BaselineWindow(QuantumWindow(), data).relative);
  RunCellsSink relative("epoch2", base);
  ASSERT_TRUE(RunPipeline(options, Epoch2Logs(), &relative, &summary).ok());
  RunCells r;
  ASSERT_TRUE(relative.Take(Direction::kRead, &r).ok());
  EXPECT_EQ(r.starts_ms, w.starts_ms);
}

}  // namespace
}  // namespace fiohist
