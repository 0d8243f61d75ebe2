#include "output/sla_report.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

namespace fiohist {
namespace {

// Everything `sink` printed for a run of `results` (cluster, resolution 1 unless set).
std::string Report(const std::vector<std::string>& sla, const std::vector<ScopeResult>& results,
                   const RunSummary& summary = RunSummary()) {
  RunInfo info;
  info.absolute = true;
  EXPECT_TRUE(MakePercentiles({50, 99}, &info.percentiles).ok());
  EXPECT_TRUE(ParseSlaThresholds(sla, "--sla", &info.sla).ok());
  AddSlaPercentiles(info.sla, &info.percentiles);
  char* text = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&text, &size);
  {
    SlaReportSink sink(out, "nightly");
    EXPECT_TRUE(sink.Begin(info).ok());
    for (const ScopeResult& r : results) EXPECT_TRUE(sink.Quantum(r).ok());
    EXPECT_TRUE(sink.End(summary).ok());
  }
  std::fclose(out);
  std::string s(text, size);
  std::free(text);
  return s;
}

// Intervals of +-5 %; p99 without an upper bound when `few`.
ScopeResult Quantum(int64_t start_ms, Direction d, double p50_ns, double p99_ns,
                    bool few = false) {
  ScopeResult r;
  r.start_ms = start_ms;
  r.end_ms = start_ms + 1000;
  r.direction = d;
  r.stats.samples = 10;
  r.stats.percentile_ns = {p50_ns, p99_ns};
  r.stats.lower_bound = {false, false};
  r.stats.percentile_low_ns = {0.95 * p50_ns, 0.95 * p99_ns};
  r.stats.percentile_high_ns = {1.05 * p50_ns, 1.05 * p99_ns};
  r.stats.few_ios = {false, few};
  return r;
}

TEST(SlaReport, OneLinePerBreachingQuantumAndASummary) {
  const int64_t t = 1795442405000;  // 2026-11-23T14:00:05Z
  ScopeResult host = Quantum(t, Direction::kRead, 9e9, 9e9);
  host.kind = ScopeKind::kHost;
  host.host = "a";
  ScopeResult coarse = Quantum(t, Direction::kRead, 9e9, 9e9);
  coarse.resolution = 10;
  const std::string report = Report(
      {"read.p99=2ms", "read.p50=1ms", "p99=5ms"},
      {Quantum(t, Direction::kRead, 5e5, 2312345.6), Quantum(t, Direction::kAll, 5e5, 4e6),
       Quantum(t, Direction::kWrite, 9e9, 9e9), host, coarse,
       Quantum(t + 1000, Direction::kRead, 1.5e6, 2000000.4, true),
       Quantum(t + 2000, Direction::kRead, 5e5, 2.05e6)});
  EXPECT_EQ(report,
            "fiohist: SLA breach: run 'nightly' 2026-11-23T14:00:05.000Z..2026-11-23T14:00:06.000Z "
            "read: p99 2.312 ms > 2 ms (95% interval 2.197 ms..2.428 ms: beyond sampling noise)\n"
            "fiohist: SLA breach: run 'nightly' 2026-11-23T14:00:06.000Z..2026-11-23T14:00:07.000Z "
            "read: p99 2.0000004 ms > 2 ms (95% interval 1.9 ms..none: too few I/Os: within "
            "sampling noise); p50 1.5 ms > 1 ms (95% interval 1.425 ms..1.575 ms: beyond "
            "sampling noise)\n"
            "fiohist: SLA breach: run 'nightly' 2026-11-23T14:00:07.000Z..2026-11-23T14:00:08.000Z "
            "read: p99 2.05 ms > 2 ms (95% interval 1.948 ms..2.152 ms: within sampling noise)\n"
            "fiohist: SLA breached: run 'nightly': 3 of 4 cluster quanta x directions breached "
            "(per threshold: read.p99<=2ms 3, read.p50<=1ms 1, p99<=5ms 0); 2 of them beyond "
            "sampling noise (the percentile's 95% interval above the limit)\n");
}

// Breaches in quanta a cluster stall touches are named as the stall's; a host's stall and an
// idle gap are not, nor is a stall without breaches.
TEST(SlaReport, BreachesInsideAStallSaySo) {
  const int64_t t = 1795442405000;  // 2026-11-23T14:00:05Z
  RunSummary summary;
  Stall stall;
  stall.start_ms = t + 1500;
  stall.end_ms = t + 4600;
  stall.stuck_ios = 2;
  stall.slowest_ns = 3087008000;
  Stall host = stall, idle = stall, clean = stall;
  host.host = "a";
  idle.idle = true;
  clean.start_ms = t + 10000;
  clean.end_ms = t + 13000;
  summary.stalls = {host, stall, idle, clean};
  const std::string report =
      Report({"p99=5ms"},
             {Quantum(t, Direction::kAll, 1e6, 9e6), Quantum(t + 1000, Direction::kAll, 1e6, 4e6),
              Quantum(t + 4000, Direction::kAll, 1e6, 3e9)},
             summary);
  EXPECT_NE(report.find("fiohist: SLA breach inside a stall: run 'nightly': 1 breaching cluster "
                        "quanta x directions lie in the stall from 2026-11-23T14:00:06.500Z to "
                        "2026-11-23T14:00:09.600Z (3.1 s with no I/O completed; 2 I/O(s) stuck "
                        "in it, the slowest 3087 ms)\n"),
            std::string::npos)
      << report;
  EXPECT_EQ(report.find("inside a stall", report.find("inside a stall") + 1), std::string::npos);
}

TEST(SlaReport, SaysWhenTheSlaHeldAndIsSilentWithoutOne) {
  EXPECT_EQ(Report({"p99=5ms"}, {Quantum(0, Direction::kAll, 1e6, 4e6)}),
            "fiohist: SLA held: run 'nightly': no cluster quantum breached p99<=5ms (1 quanta x "
            "directions checked)\n");
  EXPECT_EQ(Report({}, {Quantum(0, Direction::kAll, 1e6, 4e6)}), "");
}

}  // namespace
}  // namespace fiohist
