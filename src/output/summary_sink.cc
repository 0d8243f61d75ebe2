#include "output/summary_sink.h"

#include <algorithm>

#include "log/time_anchor.h"

namespace fiohist {
namespace {

// Partial quanta the summary names (the rest are counted).
constexpr size_t kNamedPartialQuanta = 4;

}  // namespace

Status SummarySink::Begin(const RunInfo& info) {
  info_ = info;
  return Status();
}

Status SummarySink::Quantum(const ScopeResult& r) {
  // Directions of one quantum share its coverage: count the quantum once.
  if (r.kind != ScopeKind::kCluster || r.resolution != 1 || !r.partial ||
      r.start_ms == last_partial_ms_) {
    return Status();
  }
  last_partial_ms_ = r.start_ms;
  ++partial_count_;
  if (r.complete_to_ms != INT64_MAX && incomplete_count_++ == 0) {
    incomplete_from_s_ = r.elapsed_s;
    incomplete_from_ms_ = r.complete_to_ms;
  }
  if (partial_.size() < kNamedPartialQuanta) partial_.emplace_back(r.elapsed_s, r.coverage);
  return Status();
}

Status SummarySink::WholeRun(const ScopeResult& r) {
  if (r.kind == ScopeKind::kCluster) {
    cluster_.push_back(r);
    cluster_.back().histogram = nullptr;
  }
  return Status();
}

void SummarySink::PrintIoShares(const RunSummary& summary) const {
  if (summary.io_shares.empty()) return;
  // Thousands of jobs would bury the table: past kListed, the lowest shares only (every
  // one below 95 % is also a warning).
  constexpr size_t kListed = 32;
  std::vector<const IoShare*> shown;
  for (const IoShare& sh : summary.io_shares) shown.push_back(&sh);
  if (shown.size() > kListed) {
    std::stable_sort(shown.begin(), shown.end(),
                     [](const IoShare* a, const IoShare* b) { return a->share() < b->share(); });
  }
  std::fprintf(out_, "fiohist: share of fio's I/Os (JSON total_ios) the logs hold, per job%s:\n",
               shown.size() > kListed ? ", lowest first" : "");
  for (size_t i = 0; i < shown.size() && i < kListed; ++i) {
    const IoShare& sh = *shown[i];
    const std::string name = sh.host + "/" + (sh.job.empty() ? "(all jobs)" : sh.job);
    std::fprintf(out_, "fiohist:   %-40s %6.1f%%  (%.0f of %.0f)%s\n", name.c_str(),
                 100.0 * sh.share(), sh.logged, sh.fio,
                 sh.share() < kLowIoShare ? "  below 95%" : "");
  }
  if (shown.size() > kListed) {
    std::fprintf(out_, "fiohist:   ... and %zu more, each at %.1f%% or more\n",
                 shown.size() - kListed, 100.0 * shown[kListed]->share());
  }
}

void SummarySink::PrintStalls(const RunSummary& summary) const {
  auto when = [this](int64_t ms) {
    return info_.absolute ? FormatIsoTime(ms) : std::to_string(ms) + " ms";
  };
  for (const Stall& st : summary.stalls) {
    const std::string scope = st.host.empty() ? "cluster" : "host " + st.host;
    std::fprintf(out_,
                 "fiohist: %s (%s): no I/O completed from %s to %s (%.1f s); %.0f I/O(s) "
                 "stuck in it, the slowest %.0f ms\n",
                 st.idle ? "idle" : "stall", scope.c_str(), when(st.start_ms).c_str(),
                 when(st.end_ms).c_str(), st.seconds(), st.stuck_ios, st.slowest_ns / 1e6);
  }
}

Status SummarySink::End(const RunSummary& summary) {
  long long records = 0, duplicates = 0;
  for (const LogReport& r : summary.reports) {
    records += r.records;
    duplicates += r.duplicates;
  }
  const RunSummary::JsonInputs& json = summary.json_inputs;
  size_t per_io = 0;
  for (const LogSource& l : info_.logs) per_io += l.per_io ? 1 : 0;
  if (json.status_files + json.client_files == 0) {
    // What a quantum is made of: histogram logs' intervals (log_hist_msec) spread over it,
    // or per-I/O records, each counted whole in the quantum it completed in (no interval).
    const std::string hist = "log_hist_msec " + std::to_string(info_.log_hist_msec) + " (" +
                             (info_.log_hist_msec_inferred ? "inferred" : "given") + ")";
    const std::string exact = "each I/O counted in the quantum it completed in";
    std::string made_of;
    if (per_io == 0) {
      made_of = hist;
    } else if (per_io == info_.logs.size()) {
      made_of = "per-I/O records, " + exact;
    } else {
      made_of = hist + " for " + std::to_string(info_.logs.size() - per_io) +
                " histogram log(s); " + std::to_string(per_io) + " per-I/O log(s), " + exact;
    }
    std::fprintf(out_,
                 "fiohist: %zu log(s) on %zu host(s), %lld record(s), %lld quanta of %g s, "
                 "layout %s, %s\n",
                 info_.logs.size(), info_.hosts.size(), records, summary.quanta,
                 static_cast<double>(info_.quantum_ms) / 1000.0, info_.layout.Name().c_str(),
                 made_of.c_str());
  } else {
    // fio JSON outputs hold fio's reports, not log records, and have no log_hist_msec.
    std::string held;
    if (json.status_files > 0) {
      held += std::to_string(json.status_files) + " status file(s) with " +
              std::to_string(json.status_reports) + " status report(s)";
    }
    if (json.client_files > 0) {
      held += std::string(held.empty() ? "" : ", ") + std::to_string(json.client_files) +
              " client/server output(s) with " + std::to_string(json.client_entries) +
              " client entries of " + std::to_string(json.servers) + " server(s)";
    }
    std::fprintf(out_,
                 "fiohist: fio JSON outputs: %s; %zu job(s) on %zu host(s), %lld quanta of %g s, "
                 "layout %s\n",
                 held.c_str(), info_.logs.size(), info_.hosts.size(), summary.quanta,
                 static_cast<double>(info_.quantum_ms) / 1000.0, info_.layout.Name().c_str());
  }
  if (info_.absolute) {
    std::fprintf(out_, "fiohist: time from %s (%s) to %s\n",
                 FormatIsoTime(info_.first_quantum_ms).c_str(), info_.anchor.c_str(),
                 FormatIsoTime(summary.end_ms).c_str());
  } else {
    std::fprintf(out_,
                 "fiohist: times are ms since the jobs started (no --start-time, no --fio-json "
                 "and no fio JSON output found next to the logs)\n");
  }
  std::fprintf(out_, "fiohist: quanta start %lld ms after each multiple of %g s (grid %s)\n",
               static_cast<long long>(info_.grid_origin_ms),
               static_cast<double>(info_.quantum_ms) / 1000.0, info_.grid.c_str());
  // One line per host, up to a screenful.
  constexpr size_t kNotes = 32;
  for (const std::string& n : info_.input_notes)
    std::fprintf(out_, "fiohist: input: %s\n", n.c_str());
  for (size_t i = 0; i < info_.fio_json_notes.size() && i < kNotes; ++i) {
    std::fprintf(out_, "fiohist: fio JSON of %s\n", info_.fio_json_notes[i].c_str());
  }
  if (info_.fio_json_notes.size() > kNotes) {
    std::fprintf(out_, "fiohist: ... and %zu more hosts with their fio JSON\n",
                 info_.fio_json_notes.size() - kNotes);
  }
  for (size_t i = 0; i < info_.job_anchors.size() && i < kNotes; ++i) {
    std::fprintf(out_, "fiohist: anchor of %s\n", FormatPlacedJob(info_.job_anchors[i]).c_str());
  }
  if (info_.job_anchors.size() > kNotes) {
    std::fprintf(out_, "fiohist: ... and %zu more jobs placed on their fio's timeline\n",
                 info_.job_anchors.size() - kNotes);
  }
  PrintIoShares(summary);
  if (partial_count_ > 0) {
    std::string which;
    for (const auto& [elapsed, coverage] : partial_) {
      char part[64];
      std::snprintf(part, sizeof part, "%s%g s (%.1f%% covered)", which.empty() ? "" : ", ",
                    elapsed, 100 * coverage);
      which += part;
    }
    if (partial_count_ > static_cast<long long>(partial_.size())) which += ", ...";
    std::fprintf(out_,
                 "fiohist: %lld of %lld quanta partial (the logs cover only part of them: "
                 "logs starting or ending, or fio's last interval, which it does not log; "
                 "`partial` in the output): %s\n",
                 partial_count_, summary.quanta, which.c_str());
  }
  if (incomplete_count_ > 0) {
    std::fprintf(out_,
                 "fiohist: --place issue: %lld quanta from %g s on lack the I/Os issued there "
                 "that completed after the logs end (complete up to a latency of %lld ms at "
                 "%g s, less after; `complete_to` in the output)\n",
                 incomplete_count_, incomplete_from_s_, static_cast<long long>(incomplete_from_ms_),
                 incomplete_from_s_);
  }
  PrintStalls(summary);
  if (cluster_.empty()) return Status();
  std::fprintf(out_, "%-6s %12s %10s %10s %10s", "dir", "ios", "iops", "min", "mean");
  for (const std::string& n : info_.percentiles.names) std::fprintf(out_, " %10s", n.c_str());
  std::fprintf(out_, " %10s  (%s)\n", "max", unit_.name.c_str());
  // Four significant digits, and whole numbers from 10000 on (21234, not 2.123e+04).
  auto latency = [this](double ns) {
    const double v = ns / unit_.ns_per_unit;
    char text[32];
    std::snprintf(text, sizeof text, v >= 1e4 ? "%.0f" : "%.4g", v);
    return std::string(text);
  };
  bool few_ios = false;
  for (const ScopeResult& r : cluster_) {
    const double secs = static_cast<double>(r.end_ms - r.start_ms) / 1000.0;
    std::fprintf(out_, "%-6s %12.0f %10.0f %10s %10s",
                 std::string(info_.directions.Name(r.direction)).c_str(), r.stats.samples,
                 secs > 0 ? r.stats.samples / secs : 0.0, latency(r.stats.min_ns).c_str(),
                 latency(r.stats.mean_ns).c_str());
    for (size_t i = 0; i < r.stats.percentile_ns.size(); ++i) {
      std::fprintf(out_, " %9s%s", latency(r.stats.percentile_ns[i]).c_str(),
                   r.stats.lower_bound[i] ? "+" : " ");
    }
    std::fprintf(out_, " %9s%s\n", latency(r.stats.max_ns).c_str(),
                 r.stats.max_lower_bound ? "+" : " ");
    // The percentiles' confidence bounds under them; '!' where there is no upper one.
    const size_t n = std::min(r.stats.few_ios.size(), r.stats.percentile_ns.size());
    if (n == 0 || !(r.stats.samples > 0)) continue;
    char label[32];
    std::snprintf(label, sizeof label, "%g%% low", 100 * r.stats.confidence);
    std::fprintf(out_, "  %-50s", label);
    for (size_t i = 0; i < n; ++i) {
      std::fprintf(out_, " %9s ", latency(r.stats.percentile_low_ns[i]).c_str());
    }
    std::snprintf(label, sizeof label, "%g%% high", 100 * r.stats.confidence);
    std::fprintf(out_, "\n  %-50s", label);
    for (size_t i = 0; i < n; ++i) {
      if (r.stats.few_ios[i]) {
        few_ios = true;
        std::fprintf(out_, " %9s ", "!");
      } else {
        std::fprintf(out_, " %9s ", latency(r.stats.percentile_high_ns[i]).c_str());
      }
    }
    std::fprintf(out_, "\n");
  }
  if (few_ios) {
    std::fprintf(out_,
                 "fiohist: '!': too few I/Os for an upper confidence bound of that "
                 "percentile (`few_ios` in the output)\n");
  }
  bool clamped = false;
  for (const ScopeResult& r : cluster_) clamped = clamped || r.stats.top_bucket > 0;
  if (clamped) {
    std::fprintf(out_,
                 "fiohist: '+' marks values in fio's last bucket (latencies beyond it "
                 "are clamped): only lower bounds\n");
  }
  return Status();
}

void PrintWarnings(std::FILE* out, const RunSummary& summary) {
  for (const std::string& w : summary.warnings)
    std::fprintf(out, "fiohist: warning: %s\n", w.c_str());
}

}  // namespace fiohist
