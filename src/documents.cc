#include "documents.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <cmath>
#include <cstdio>

#include "time_anchor.h"

namespace fiohist {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

uint64_t Fnv1a(const std::string& s, uint64_t seed) {
  uint64_t h = seed;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

uint64_t Mix(uint64_t z) {  // splitmix64 finaliser: spreads every input bit
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void Key(Writer& w, const char* k) { w.Key(k); }

// Shortest round-trip digits through std::to_chars, several times faster than the writer's
// own double formatting, which dominated the cost of bucket documents.
void FastDouble(Writer& w, double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  size_t n = static_cast<size_t>(r.ptr - buf);
  // JSON numbers need no ".0", but Elasticsearch's dynamic mapping would read an integer
  // as long: keep whole doubles recognisable as doubles.
  bool plain_integer = true;
  for (size_t i = 0; i < n; ++i) plain_integer = plain_integer && buf[i] != '.' && buf[i] != 'e';
  if (plain_integer) {
    buf[n++] = '.';
    buf[n++] = '0';
  }
  w.RawValue(buf, n, rapidjson::kNumberType);
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

}  // namespace

const char* DocKindName(DocKind kind) {
  switch (kind) {
    case DocKind::kPercentiles:
      return "pctiles";
    case DocKind::kBuckets:
      return "buckets";
    case DocKind::kRun:
      return "runs";
  }
  return "?";
}

std::string HashHex128(const std::string& key) {
  const uint64_t a = Mix(Fnv1a(key, 0xcbf29ce484222325ULL));
  const uint64_t b = Mix(Fnv1a(key, 0x84222325cbf29ce4ULL) ^ a);
  static const char kHex[] = "0123456789abcdef";
  std::string out(32, '0');
  for (int i = 0; i < 16; ++i) {
    out[static_cast<size_t>(15 - i)] = kHex[(a >> (4 * i)) & 15];
    out[static_cast<size_t>(31 - i)] = kHex[(b >> (4 * i)) & 15];
  }
  return out;
}

DocumentBuilder::DocumentBuilder(const RunInfo& info, RunMeta meta, double ns_per_unit)
    : info_(info), meta_(std::move(meta)), ns_per_unit_(ns_per_unit) {}

std::string DocumentBuilder::Id(DocKind kind, const ScopeResult& r) const {
  const char sep = '\x1f';
  std::string key = DocKindName(kind);
  key += sep + meta_.run + sep + std::to_string(r.start_ms) + sep + ScopeName(r.kind) + sep +
         r.host + sep + r.job + sep + DirectionName(r.direction);
  return HashHex128(key);
}

std::string DocumentBuilder::RunId() const { return HashHex128(std::string("runs\x1f") + meta_.run); }

// min, mean, max and the percentiles of `s` (when it has samples), each field name
// prefixed with `prefix` ("" or "read_").
static void LatencyFields(Writer& w, const std::string& prefix, const LatencyStats& s,
                          const PercentileList& percentiles, double ns_per_unit) {
  if (s.samples <= 0) return;
  Num(w, (prefix + "min").c_str(), s.min_ns / ns_per_unit);
  Num(w, (prefix + "mean").c_str(), s.mean_ns / ns_per_unit);
  Num(w, (prefix + "max").c_str(), s.max_ns / ns_per_unit);
  for (size_t i = 0; i < s.percentile_ns.size(); ++i) {
    Num(w, (prefix + percentiles.field_names[i]).c_str(), s.percentile_ns[i] / ns_per_unit);
  }
}

// A date field: ISO 8601 when the run has absolute time; else milliseconds since the jobs
// started (relative logs without an anchor), which a date field reads as early 1970 but
// which stays ordered and comparable within the run.
static void TimeField(Writer& w, const char* key, int64_t ms, bool absolute) {
  if (absolute) {
    Str(w, key, FormatIsoTime(ms));
  } else {
    Key(w, key);
    w.Int64(ms);
  }
}

static void CommonFields(Writer& w, const RunInfo& info, const RunMeta& meta,
                         const ScopeResult& r) {
  TimeField(w, "@timestamp", r.start_ms, info.absolute);
  TimeField(w, "end", r.end_ms, info.absolute);
  Num(w, "elapsed_s", r.elapsed_s);
  Num(w, "quantum_s", static_cast<double>(r.end_ms - r.start_ms) / 1000.0);
  Meta(w, meta);
  Str(w, "scope", ScopeName(r.kind));
  if (!r.host.empty()) Str(w, "host", r.host);
  if (!r.job.empty()) Str(w, "job", r.job);
  Str(w, "direction", DirectionName(r.direction));
  Key(w, "logs");
  w.Int(r.logs);
  Num(w, "samples", r.stats.samples);
}

std::string DocumentBuilder::Percentiles(const ScopeResult& r) const {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  CommonFields(w, info_, meta_, r);
  const LatencyStats& s = r.stats;
  const double secs = static_cast<double>(r.end_ms - r.start_ms) / 1000.0;
  Num(w, "iops", secs > 0 ? s.samples / secs : 0.0);
  LatencyFields(w, "", s, info_.percentiles, ns_per_unit_);
  Num(w, "top_bucket", s.top_bucket);
  Key(w, "clamped");
  w.Bool(s.top_bucket > 0);
  Key(w, "lower_bound");
  w.StartArray();
  for (size_t i = 0; i < s.lower_bound.size(); ++i) {
    if (s.lower_bound[i]) w.String(info_.percentiles.field_names[i].c_str());
  }
  if (s.max_lower_bound) w.String("max");
  w.EndArray();
  w.EndObject();
  return std::string(buf.GetString(), buf.GetSize());
}

std::string DocumentBuilder::Buckets(const ScopeResult& r) const {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  CommonFields(w, info_, meta_, r);
  Str(w, "layout", info_.layout.Name());
  Key(w, "bucket_index");
  w.StartArray();
  if (r.histogram) r.histogram->ForEachNonZero([&](int c, double) { w.Int(c); });
  w.EndArray();
  Key(w, "bucket_count");
  w.StartArray();
  if (r.histogram) r.histogram->ForEachNonZero([&](int, double n) { FastDouble(w, n); });
  w.EndArray();
  Key(w, "latency");
  w.StartObject();
  Key(w, "values");
  w.StartArray();
  if (r.histogram) {
    const std::vector<double>& edges = EdgesNs(info_.layout);
    r.histogram->ForEachNonZero([&](int c, double) {
      const size_t i = static_cast<size_t>(c);
      FastDouble(w, (edges[i] + edges[i + 1]) / 2000.0);
    });
  }
  w.EndArray();
  Key(w, "counts");
  w.StartArray();
  if (r.histogram) {
    r.histogram->ForEachNonZero([&](int, double n) {
      w.Int64(std::max<int64_t>(1, std::llround(n * kLatencyCountScale)));
    });
  }
  w.EndArray();
  w.EndObject();
  Key(w, "latency_scale");
  w.Int(static_cast<int>(kLatencyCountScale));
  w.EndObject();
  return std::string(buf.GetString(), buf.GetSize());
}

std::string DocumentBuilder::Run(const RunSummary& summary,
                                 const std::vector<ScopeResult>& whole_run) const {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  Meta(w, meta_);
  TimeField(w, "@timestamp", info_.first_quantum_ms, info_.absolute);
  TimeField(w, "start", info_.first_quantum_ms, info_.absolute);
  TimeField(w, "end", summary.end_ms, info_.absolute);
  Num(w, "duration_s", static_cast<double>(summary.end_ms - info_.first_quantum_ms) / 1000.0);
  Key(w, "hosts");
  w.StartArray();
  for (const std::string& h : info_.hosts) w.String(h.c_str());
  w.EndArray();
  Key(w, "jobs");
  w.StartArray();
  for (const LogSource& l : info_.logs) w.String((l.host + "/" + l.job).c_str());
  w.EndArray();
  Key(w, "files");
  w.Int(static_cast<int>(info_.logs.size()));
  Num(w, "quantum_s", static_cast<double>(info_.quantum_ms) / 1000.0);
  Str(w, "layout", info_.layout.Name());
  Key(w, "fio_versions");
  w.StartArray();
  for (const std::string& v : info_.fio_versions) w.String(v.c_str());
  w.EndArray();
  Str(w, "anchor", info_.anchor);
  Key(w, "log_hist_msec");
  w.Int64(info_.log_hist_msec);
  for (const ScopeResult& r : whole_run) {
    if (r.kind != ScopeKind::kCluster) continue;
    const std::string prefix =
        r.direction == Direction::kAll ? "" : std::string(DirectionName(r.direction)) + "_";
    const LatencyStats& s = r.stats;
    const double secs = static_cast<double>(r.end_ms - r.start_ms) / 1000.0;
    Num(w, (prefix + "samples").c_str(), s.samples);
    Num(w, (prefix + "iops").c_str(), secs > 0 ? s.samples / secs : 0.0);
    LatencyFields(w, prefix, s, info_.percentiles, ns_per_unit_);
  }
  Key(w, "summary");
  w.StartArray();
  for (const ScopeResult& r : whole_run) {
    w.StartObject();
    Str(w, "scope", ScopeName(r.kind));
    if (!r.host.empty()) Str(w, "host", r.host);
    if (!r.job.empty()) Str(w, "job", r.job);
    Str(w, "direction", DirectionName(r.direction));
    Num(w, "samples", r.stats.samples);
    LatencyFields(w, "", r.stats, info_.percentiles, ns_per_unit_);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buf.GetString(), buf.GetSize());
}

}  // namespace fiohist
