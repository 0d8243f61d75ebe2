// libFuzzer target: the whole default-mode pipeline (reader, probe, streams, grid, merge,
// statistics) on one or two small log files made from the input.
//
// Input: one flag byte, then the first file; "#FILE#\n" starts the second file.
// Flags: bit 0 --skip-bad-lines, bit 1 --log-hist-msec 1000, bits 2-3 the quantum,
// bit 4 gzip the second file, bit 5 --start-time, bit 6 the second log on another host.
// Every scope and direction is on; results go to a sink that checks them and drops them.
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "log/log_line.h"
#include "stats/pipeline.h"
#include "stats/result_sink.h"

namespace {

using fiohist::ResultSink;
using fiohist::RunInfo;
using fiohist::RunSummary;
using fiohist::ScopeResult;
using fiohist::Status;

// Checks what the pipeline hands out: finite, non-negative, ordered percentiles.
class CheckingSink : public ResultSink {
 public:
  Status Begin(const RunInfo& info) override {
    if (info.quantum_ms <= 0 || info.logs.empty()) abort();
    return Status();
  }
  Status Quantum(const ScopeResult& r) override {
    Check(r);
    return Status();
  }
  Status WholeRun(const ScopeResult& r) override {
    Check(r);
    return Status();
  }
  Status End(const RunSummary&) override { return Status(); }

 private:
  static void Check(const ScopeResult& r) {
    const fiohist::LatencyStats& s = r.stats;
    if (r.histogram == nullptr || r.end_ms <= r.start_ms) abort();
    if (!std::isfinite(s.samples) || s.samples < -1e-6) abort();
    if (s.samples <= 0) return;
    const double tol = 1e-9 * (1 + s.max_ns);
    if (!(s.min_ns <= s.max_ns + tol)) abort();
    if (!(s.mean_ns >= s.min_ns - tol && s.mean_ns <= s.max_ns + tol)) abort();
    double previous = s.min_ns;
    for (double p : s.percentile_ns) {  // percentiles are given in increasing order
      if (!std::isfinite(p) || p < previous - tol || p > s.max_ns + tol) abort();
      previous = p;
    }
  }
};

// A scratch directory for this process, removed at exit.
struct TempDir {
  std::string path;
  TempDir() {
    char name[] = "/tmp/fiohist_fuzz_XXXXXX";
    if (mkdtemp(name) == nullptr) abort();
    path = name;
  }
  ~TempDir() {
    for (const char* f : {"/fz_clat_hist.1.log", "/fz_clat_hist.2.log", "/fz_clat_hist.2.log.gz",
                          "/fz_clat_hist.2.log.hostB"}) {
      unlink((path + f).c_str());
    }
    rmdir(path.c_str());
  }
};

void WriteFile(const std::string& path, std::string_view text, bool gzip) {
  if (gzip) {
    gzFile f = gzopen(path.c_str(), "wb");
    if (f == nullptr) abort();
    if (!text.empty() && gzwrite(f, text.data(), static_cast<unsigned>(text.size())) <= 0) abort();
    gzclose(f);
    return;
  }
  FILE* f = fopen(path.c_str(), "wb");
  if (f == nullptr) abort();
  if (!text.empty() && fwrite(text.data(), 1, text.size(), f) != text.size()) abort();
  fclose(f);
}

// The span of stamps in `text`, to pick a quantum that keeps the run short
// (a run over years in 1 ms quanta is legal but would only make the fuzzer slow).
// About 40 quanta per run: each quantum computes statistics for every scope and direction.
void StampRange(std::string_view text, double* lo, double* hi) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    int64_t t = 0;
    fiohist::Direction d;
    if (fiohist::ParseRecordHead(text.substr(pos, nl - pos), &t, &d)) {
      *lo = std::min(*lo, static_cast<double>(t));
      *hi = std::max(*hi, static_cast<double>(t));
    }
    pos = nl + 1;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static TempDir dir;
  if (size < 1) return 0;
  const uint8_t flags = data[0];
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::string_view marker = "#FILE#\n";
  const size_t split = input.find(marker);
  const std::string_view first = input.substr(0, split);
  const bool two = split != std::string_view::npos;
  const std::string_view second = two ? input.substr(split + marker.size()) : std::string_view();

  std::vector<std::string> paths = {dir.path + "/fz_clat_hist.1.log"};
  WriteFile(paths[0], first, false);
  if (two) {
    std::string name = dir.path + "/fz_clat_hist.2.log";
    if (flags & 0x40) name += ".hostB";
    if (flags & 0x10) name += ".gz";
    WriteFile(name, second, (flags & 0x10) != 0);
    paths.push_back(name);
  }

  fiohist::PipelineOptions options;
  options.scopes = {true, true, true};
  options.directions = {true, true, true, true};
  std::vector<double> pcts = {0, 50, 90, 99, 99.9, 100};
  if (!fiohist::MakePercentiles(pcts, &options.percentiles).ok()) abort();
  options.skip_bad_lines = (flags & 0x01) != 0;
  if (flags & 0x02) options.log_hist_msec = 1000;
  static const int64_t kQuanta[4] = {1000, 250, 5000, 1};
  options.quantum_ms = kQuanta[(flags >> 2) & 3];
  double lo = INFINITY, hi = -INFINITY;
  StampRange(first, &lo, &hi);
  StampRange(second, &lo, &hi);
  if (hi >= lo) {
    const double wanted = std::min(1e12, std::ceil((hi - lo) / 40.0));
    if (wanted > static_cast<double>(options.quantum_ms)) {
      options.quantum_ms = static_cast<int64_t>(wanted);
    }
  }
  if (flags & 0x20) {
    options.has_start_time = true;
    options.start_time_ms = 1795306120457;
  }
  options.threads = 1;

  CheckingSink sink;
  fiohist::RunSummary summary;
  const Status s = fiohist::RunPipeline(options, paths, &sink, &summary);
  if (!s.ok() && s.message().empty()) abort();  // every error says what went wrong
  for (const std::string& p : paths) unlink(p.c_str());
  return 0;
}
