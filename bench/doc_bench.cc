// Document-building benchmark: percentile and bucket documents per second from realistic
// results (histograms taken from the real randrw4 logs), without any I/O.
// `doc_bench LOG [SECONDS] [pctiles|buckets|both]`: one kind alone is for profiling it.
// Each kind is measured as the sinks call it (Id() and the document as new strings) and
// through the append API into reused strings.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "output/documents.h"
#include "log/log_line.h"
#include "log/log_reader.h"
#include "stats/percentiles.h"

using fiohist::Histogram;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: doc_bench LOG [seconds] [pctiles|buckets|both]\n");
    return 2;
  }
  const double seconds = argc > 2 ? std::atof(argv[2]) : 2.0;
  const std::string which = argc > 3 ? argv[3] : "both";
  if (which != "pctiles" && which != "buckets" && which != "both") {
    std::fprintf(stderr, "doc_bench: kind must be pctiles, buckets or both\n");
    return 2;
  }
  // Real histograms: each record of the log becomes one quantum's histogram.
  std::unique_ptr<fiohist::LogReader> reader;
  if (!fiohist::LogReader::Open(argv[1], &reader).ok()) return 1;
  std::vector<Histogram> hists;
  std::string_view line;
  fiohist::LogRecord rec;
  std::string what;
  while (reader->NextLine(&line)) {
    if (!fiohist::ParseRecord(line, &rec, &what)) return 1;
    hists.emplace_back();
    hists.back().AddWeighted(rec.counts, 0.731);  // fractional, like overlap-weighted counts
  }
  fiohist::RunInfo info;
  info.absolute = true;
  info.percentiles = fiohist::DefaultPercentiles();
  fiohist::RunMeta meta;
  meta.run = "bench-run";
  meta.tags = {"nightly"};
  fiohist::DocumentBuilder builder(info, meta);
  std::vector<fiohist::ScopeResult> results;
  for (size_t i = 0; i < hists.size(); ++i) {
    fiohist::ScopeResult r;
    r.start_ms = 1795306120000 + static_cast<int64_t>(i) * 1000;
    r.end_ms = r.start_ms + 1000;
    r.kind = fiohist::ScopeKind::kJob;
    r.host = "host07";
    r.job = "randrw4_clat_hist.3";
    r.direction = fiohist::Direction::kRead;
    r.logs = 1;
    r.histogram = &hists[i];
    r.stats = fiohist::ComputeStats(hists[i], info.layout, info.percentiles.values);
    results.push_back(r);
  }
  // Integer counts as push makes them (the carry runs once, in order, as in push).
  std::vector<fiohist::IntegerBuckets> ints(results.size());
  fiohist::BucketCarry carry;
  for (size_t i = 0; i < results.size(); ++i) carry.Round(results[i], &ints[i]);
  for (int kind = 0; kind < 2; ++kind) {
    if (which != "both" && (kind == 0) != (which == "pctiles")) continue;
    const fiohist::DocKind doc_kind =
        kind == 0 ? fiohist::DocKind::kPercentiles : fiohist::DocKind::kBuckets;
    for (int append = 0; append < 2; ++append) {
      size_t docs = 0, bytes = 0;
      std::string id, doc;  // reused by the append API
      const auto start = std::chrono::steady_clock::now();
      double elapsed = 0;
      while (elapsed < seconds) {
        for (const fiohist::ScopeResult& r : results) {
          if (append) {
            id.clear();
            doc.clear();
            builder.AppendId(doc_kind, r, &id);
            if (kind == 0) {
              builder.AppendPercentiles(r, &doc);
            } else {
              builder.AppendBuckets(r, ints[&r - results.data()], &doc);
            }
            bytes += doc.size() + id.size();
          } else {
            const std::string new_id = builder.Id(doc_kind, r);
            const std::string new_doc = kind == 0 ? builder.Percentiles(r)
                                                  : builder.Buckets(r, ints[&r - results.data()]);
            bytes += new_doc.size() + new_id.size();
          }
          ++docs;
        }
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      }
      std::printf("%-10s documents%s %10.0f docs/s  %7.1f MB/s  (%zu bytes each, one core)\n",
                  kind == 0 ? "percentile" : "bucket", append ? " (append):" : ":         ",
                  docs / elapsed, bytes / elapsed / 1e6, bytes / docs);
    }
  }
  return 0;
}
