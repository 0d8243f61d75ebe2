#include "output/run_document.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "log/time_anchor.h"
#include "output/fields.h"
#include "output/hist_code.h"
#include "output/json_text.h"

namespace fiohist {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

// `name`, checked against RunFields() (CheckedFieldName).
const char* RunKey(const char* name) { return CheckedFieldName(RunFields(), name, "run"); }

void Key(Writer& w, const char* k) { w.Key(k); }

void FastDouble(Writer& w, double v) {
  char buf[json_text::kMaxDouble];
  const char* end = json_text::PutDouble(buf, v);
  w.RawValue(buf, static_cast<size_t>(end - buf), rapidjson::kNumberType);
}
void Str(Writer& w, const char* k, const std::string& v) {
  w.Key(k);
  w.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
}
void Num(Writer& w, const char* k, double v) {
  w.Key(k);
  if (std::isfinite(v)) {
    FastDouble(w, v);
  } else {
    w.Null();
  }
}

void StringArray(Writer& w, const char* k, const std::vector<std::string>& v) {
  w.Key(k);
  w.StartArray();
  for (const std::string& x : v) w.String(x.c_str());
  w.EndArray();
}

void Meta(Writer& w, const RunMeta& meta) {
  if (!meta.run.empty()) Str(w, "run", meta.run);
  if (!meta.tags.empty()) {
    Key(w, "tags");
    w.StartArray();
    for (const std::string& t : meta.tags) w.String(t.c_str(), static_cast<unsigned>(t.size()));
    w.EndArray();
  }
  if (!meta.labels.empty()) {
    Key(w, "labels");
    w.StartObject();
    for (const auto& [k, v] : meta.labels) Str(w, k.c_str(), v);
    w.EndObject();
  }
}

// min, mean, max and the percentiles of `s` (when it has samples), each field name
// prefixed with `prefix` ("" or "read_").
void LatencyFields(Writer& w, const std::string& prefix, const ScopeResult& r,
                   const PercentileList& percentiles, double ns_per_unit) {
  const LatencyStats& s = r.stats;
  if (s.samples <= 0) return;
  for (Stat stat : {Stat::kMin, Stat::kMean, Stat::kMax}) {
    Num(w, (prefix + StatName(stat)).c_str(), StatValue(stat, r, ns_per_unit));
  }
  for (size_t i = 0; i < s.percentile_ns.size(); ++i) {
    Num(w, (prefix + percentiles.field_names[i]).c_str(), s.percentile_ns[i] / ns_per_unit);
  }
  // The confidence bounds; no upper one where the percentile rests on too few I/Os.
  for (size_t i = 0; i < s.few_ios.size() && i < s.percentile_ns.size(); ++i) {
    Num(w, (prefix + percentiles.field_names[i] + kLowSuffix).c_str(),
        s.percentile_low_ns[i] / ns_per_unit);
    if (s.few_ios[i]) continue;
    Num(w, (prefix + percentiles.field_names[i] + kHighSuffix).c_str(),
        s.percentile_high_ns[i] / ns_per_unit);
  }
}

void TimeField(Writer& w, const char* key, int64_t ms, bool absolute) {
  if (absolute) {
    Str(w, key, FormatIsoTime(ms));
  } else {
    Key(w, key);
    w.Int64(ms);
  }
}

}  // namespace

std::string RunMetaJson(const RunMeta& meta) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  Meta(w, meta);
  w.EndObject();
  const std::string inner(buf.GetString() + 1, buf.GetSize() - 2);  // without { }
  return inner.empty() ? "" : "," + inner;
}

std::string RunDocument(const RunInfo& info, const RunMeta& meta, double ns_per_unit,
                        const RunSummary& summary, const std::vector<ScopeResult>& whole_run,
                        int bucket_version) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  Meta(w, meta);
  TimeField(w, RunKey("@timestamp"), info.first_quantum_ms, info.absolute);
  TimeField(w, RunKey("start"), info.first_quantum_ms, info.absolute);
  TimeField(w, RunKey("end"), summary.end_ms, info.absolute);
  Num(w, RunKey("duration_s"),
      static_cast<double>(summary.end_ms - info.first_quantum_ms) / 1000.0);
  Key(w, RunKey("start_ms"));
  w.Int64(info.first_quantum_ms);
  Key(w, RunKey("end_ms"));
  w.Int64(summary.end_ms);
  StringArray(w, RunKey("hosts"), info.hosts);
  Key(w, RunKey("jobs"));
  w.StartArray();
  for (const LogSource& l : info.logs) w.String((l.host + "/" + l.job).c_str());
  w.EndArray();
  Key(w, RunKey("files"));
  w.Int(static_cast<int>(info.logs.size()));
  Num(w, RunKey("quantum_s"), static_cast<double>(info.quantum_ms) / 1000.0);
  Str(w, RunKey("layout"), info.layout.Name());
  StringArray(w, RunKey("fio_versions"), info.fio_versions);
  Str(w, RunKey("anchor"), info.anchor);
  if (!info.job_anchors.empty()) {
    // Numbers and names only, no text per log: a run of thousands of logs stays small.
    Key(w, RunKey("job_anchors"));
    w.StartArray();
    for (const PlacedFioJob& p : info.job_anchors) {
      w.StartObject();
      Str(w, "job", p.host + "/" + p.job);
      Str(w, "fio_job", p.fio_job);
      Str(w, "start", FormatIsoTime(p.anchor.start_ms));
      Key(w, "early_ms");
      w.Int64(p.anchor.early_ms);
      Key(w, "late_ms");
      w.Int64(p.anchor.late_ms);
      w.EndObject();
    }
    w.EndArray();
  }
  Str(w, RunKey("grid"), info.grid);
  Key(w, RunKey("grid_origin_ms"));
  w.Int64(info.grid_origin_ms);
  Key(w, RunKey("log_hist_msec"));
  w.Int64(info.log_hist_msec);
  // Absent for the default (I/Os at completion), so runs pushed before keep their bytes.
  if (info.placement != "completion") Str(w, RunKey("placement"), info.placement);
  Key(w, RunKey("resolutions"));
  w.StartArray();
  for (int m : summary.resolutions.empty() ? info.resolutions : summary.resolutions) w.Int(m);
  w.EndArray();
  Key(w, RunKey("job_resolution"));
  w.Int(info.job_resolution);
  // How the bucket documents are coded (hist_code.h); absent in runs pushed before: 1.
  Key(w, RunKey("bucket_version"));
  w.Int(bucket_version);
  // How the percentile documents are laid out; absent in runs pushed before: 1.
  Key(w, RunKey("pctiles_version"));
  w.Int(kPctilesVersion);
  if (!summary.io_shares.empty()) {
    double lowest = summary.io_shares.front().share();
    for (const IoShare& sh : summary.io_shares) lowest = std::min(lowest, sh.share());
    Num(w, RunKey("logged_io_share"), lowest);
  }
  Str(w, RunKey("state"), summary.state);
  if (!info.sla.empty()) {
    Key(w, RunKey("sla"));
    w.StartArray();
    for (const SlaThreshold& t : info.sla) w.String(t.text.c_str());
    w.EndArray();
    Key(w, RunKey("sla_breaches"));
    w.Int64(summary.sla_breaches);
    Key(w, RunKey("sla_breaches_beyond_noise"));
    w.Int64(summary.sla_breaches_beyond_noise);
  }
  for (const ScopeResult& r : whole_run) {
    if (r.kind != ScopeKind::kCluster) continue;
    const std::string prefix =
        r.direction == Direction::kAll ? "" : std::string(info.directions.Name(r.direction)) + "_";
    Num(w, (prefix + StatName(Stat::kSamples)).c_str(), StatValue(Stat::kSamples, r, ns_per_unit));
    Num(w, (prefix + StatName(Stat::kIops)).c_str(), StatValue(Stat::kIops, r, ns_per_unit));
    LatencyFields(w, prefix, r, info.percentiles, ns_per_unit);
    if (r.direction != Direction::kAll) continue;
    Key(w, RunKey("few_ios"));
    w.StartArray();
    for (size_t i = 0; i < r.stats.few_ios.size(); ++i) {
      if (r.stats.few_ios[i]) w.String(info.percentiles.field_names[i].c_str());
    }
    w.EndArray();
  }
  if (!summary.stalls.empty()) {
    Key(w, RunKey("stalls"));
    w.StartArray();
    for (const Stall& st : summary.stalls) {
      w.StartObject();
      // Kept in _source only (`stalls` is not indexed), like `summary`.
      Str(w, "kind", st.idle ? "idle" : "stall");
      Str(w, "scope", st.host.empty() ? "cluster" : "host");
      if (!st.host.empty()) Str(w, "host", st.host);
      TimeField(w, "start", st.start_ms, info.absolute);
      TimeField(w, "end", st.end_ms, info.absolute);
      Key(w, "start_ms");
      w.Int64(st.start_ms);
      Key(w, "end_ms");
      w.Int64(st.end_ms);
      Num(w, "duration_s", st.seconds());
      Num(w, "stuck_ios", st.stuck_ios);
      Num(w, "stuck_max", st.slowest_ns / ns_per_unit);
      w.EndObject();
    }
    w.EndArray();
  }
  Num(w, RunKey("confidence"), info.confidence);
  // The cluster's entries always; the hosts' and the jobs' each while they fit in
  // kRunSummaryMaxEntries (a scope whole or not at all), the rest counted in
  // summary_omitted: 4096 logs made an 8.3 MB document, which every listing of runs read.
  std::array<size_t, 3> entries = {0, 0, 0};
  for (const ScopeResult& r : whole_run) ++entries[static_cast<size_t>(r.kind)];
  std::array<bool, 3> listed = {true, false, false};
  size_t budget = kRunSummaryMaxEntries;
  for (ScopeKind k : {ScopeKind::kHost, ScopeKind::kJob}) {
    const size_t n = entries[static_cast<size_t>(k)];
    listed[static_cast<size_t>(k)] = n <= budget;
    if (n <= budget) budget -= n;
  }
  if (!listed[1] || !listed[2]) {
    Key(w, RunKey("summary_omitted"));
    w.StartObject();
    for (ScopeKind k : {ScopeKind::kHost, ScopeKind::kJob}) {
      Key(w, ScopeName(k));
      w.Int64(listed[static_cast<size_t>(k)]
                  ? 0
                  : static_cast<int64_t>(entries[static_cast<size_t>(k)]));
    }
    w.EndObject();
  }
  Key(w, RunKey("summary"));
  w.StartArray();
  for (const ScopeResult& r : whole_run) {
    if (!listed[static_cast<size_t>(r.kind)]) continue;
    w.StartObject();
    // Kept in _source only (`summary` is not indexed): no field of the mapping.
    Str(w, "scope", ScopeName(r.kind));
    if (!r.host.empty()) Str(w, "host", r.host);
    if (!r.job.empty()) Str(w, "job", r.job);
    Str(w, "direction", std::string(info.directions.Name(r.direction)));
    Num(w, "samples", r.stats.samples);
    // The share of fio's I/Os on the job's entries (the host's, for grouped fio JSON).
    for (const IoShare& sh : summary.io_shares) {
      const bool mine = r.kind == ScopeKind::kJob    ? sh.host == r.host && sh.job == r.job
                        : r.kind == ScopeKind::kHost ? sh.host == r.host && sh.job.empty()
                                                     : false;
      if (mine) Num(w, "logged_io_share", sh.share());
    }
    LatencyFields(w, "", r, info.percentiles, ns_per_unit);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buf.GetString(), buf.GetSize());
}

}  // namespace fiohist
