#include "log/fio_snapshot.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace fiohist {
namespace {

const char* const kDirectionKeys[kLogDirections] = {"read", "write", "trim"};

bool GetInt64(const JsonValue& obj, const char* key, int64_t* out) {
  auto it = obj.FindMember(key);
  if (it == obj.MemberEnd() || !it->value.IsNumber()) return false;
  if (it->value.IsInt64()) {
    *out = it->value.GetInt64();
  } else if (it->value.IsUint64()) {
    return false;
  } else {
    *out = static_cast<int64_t>(it->value.GetDouble());
  }
  return true;
}

Status DecodeBins(const JsonValue& bins, const BucketLayout& layout, const std::string& where,
                  std::vector<std::pair<uint32_t, uint64_t>>* out) {
  if (!bins.IsObject()) return Status::Error(where + ": expected an object of bucket counts");
  for (auto m = bins.MemberBegin(); m != bins.MemberEnd(); ++m) {
    const char* key = m->name.GetString();
    errno = 0;
    char* end = nullptr;
    const unsigned long long value = std::strtoull(key, &end, 10);
    int column = 0;
    if (end == key || *end != '\0' || errno != 0 || key[0] == '-' ||
        !ColumnOfFioValue(layout, value, &column)) {
      return Status::Error(where + ": key '" + key +
                           "' is not one of fio's bucket values (expected fio " + layout.Name() +
                           " bucket values in ns, as json+ prints them)");
    }
    if (!m->value.IsUint64()) {
      return Status::Error(where + "." + key + ": expected a non-negative integer count");
    }
    out->emplace_back(static_cast<uint32_t>(column), m->value.GetUint64());
  }
  std::sort(out->begin(), out->end());
  return Status();
}

}  // namespace

bool FioSnapshot::all_done() const {
  for (const FioJobSnapshot& j : jobs) {
    if (j.eta_s != 0) return false;
  }
  return true;
}

Status DecodeFioJob(const JsonValue& job, const BucketLayout& layout, const std::string& where,
                    FioJobSnapshot* out) {
  *out = FioJobSnapshot();
  if (!job.IsObject()) return Status::Error(where + ": expected a job object");
  FioJobSnapshot& j = *out;
  auto name = job.FindMember("jobname");
  if (name != job.MemberEnd() && name->value.IsString()) j.name = name->value.GetString();
  if (!GetInt64(job, "job_runtime", &j.runtime_ms) || j.runtime_ms < 0) {
    return Status::Error(where + ": expected \"job_runtime\" (ms), as fio >= 3.x prints");
  }
  if (!GetInt64(job, "eta", &j.eta_s)) j.eta_s = 0;
  if (!GetInt64(job, "job_start", &j.start_ms) || j.start_ms < 0) j.start_ms = 0;
  for (int d = 0; d < kLogDirections; ++d) {
    auto dir = job.FindMember(kDirectionKeys[d]);
    if (dir == job.MemberEnd() || !dir->value.IsObject()) continue;
    int64_t total = 0;
    if (GetInt64(dir->value, "total_ios", &total) && total > 0) {
      j.total_ios[static_cast<size_t>(d)] = static_cast<uint64_t>(total);
    }
    auto clat = dir->value.FindMember("clat_ns");
    if (clat == dir->value.MemberEnd() || !clat->value.IsObject()) continue;
    auto bins = clat->value.FindMember("bins");
    if (bins == clat->value.MemberEnd()) {
      // fio leaves "bins" out while no latency was recorded (N 0), though total_ios may
      // already count I/Os issued (a status report before the first completion).
      int64_t samples = -1;
      if (total > 0 && !(GetInt64(clat->value, "N", &samples) && samples == 0)) {
        return Status::Error(where + "." + kDirectionKeys[d] +
                             ".clat_ns: no \"bins\" (run fio with --output-format=json+, "
                             "not json)");
      }
      continue;
    }
    Status s = DecodeBins(bins->value, layout, where + "." + kDirectionKeys[d] + ".clat_ns.bins",
                          &j.bins[static_cast<size_t>(d)]);
    if (!s.ok()) return s;
  }
  return Status();
}

Status DecodeFioSnapshot(const JsonValue& object, const BucketLayout& layout, FioSnapshot* out) {
  *out = FioSnapshot();
  if (!object.IsObject()) return Status::Error("expected a JSON object (fio's json+ output)");
  if (object.HasMember("client_stats")) {
    return Status::Error(
        "fio client/server output (client_stats): fio writes it only when the run ends, so it "
        "cannot be followed; `fiohist push` and `pctiles` read the finished file (to follow, run "
        "fio --output-format=json+ --status-interval=1 on each host)");
  }
  auto jobs = object.FindMember("jobs");
  if (jobs == object.MemberEnd() || !jobs->value.IsArray() ||
      !GetInt64(object, "timestamp_ms", &out->timestamp_ms)) {
    return Status::Error(
        "not fio's json+ output: expected an object with \"timestamp_ms\" and a \"jobs\" "
        "array (fio --output-format=json+)");
  }
  auto version = object.FindMember("fio version");
  if (version != object.MemberEnd() && version->value.IsString()) {
    out->fio_version = version->value.GetString();
  }
  int number = 0;
  for (const JsonValue& job : jobs->value.GetArray()) {
    ++number;
    FioJobSnapshot j;
    Status s = DecodeFioJob(job, layout, "jobs[" + std::to_string(number - 1) + "]", &j);
    if (!s.ok()) return s;
    j.number = number;
    out->jobs.push_back(std::move(j));
  }
  return Status();
}

}  // namespace fiohist
