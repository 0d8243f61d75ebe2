#include "output/bucket_decode.h"

#include <algorithm>
#include <cmath>

namespace fiohist {
namespace {

// Two equally long arrays under `a` and `b`, or neither.
Status Pair(const rapidjson::Value& v, const char* a, const char* b, bool* present) {
  *present = false;
  const auto ia = v.FindMember(a), ib = v.FindMember(b);
  if (ia == v.MemberEnd() && ib == v.MemberEnd()) return Status();
  if (ia == v.MemberEnd() || ib == v.MemberEnd() || !ia->value.IsArray() ||
      !ib->value.IsArray() || ia->value.Size() != ib->value.Size()) {
    return Status::Error(std::string("bucket document: expected arrays '") + a + "' and '" + b +
                         "' of equal length");
  }
  *present = true;
  return Status();
}

}  // namespace

BucketDecoder::BucketDecoder(const BucketLayout& layout) : layout_(layout) {
  const std::vector<double>& edges = EdgesNs(layout_);
  for (size_t c = 0; c + 1 < edges.size(); ++c) {
    mids_us_.push_back((edges[c] + edges[c + 1]) / 2000.0);  // as DocumentBuilder writes it
  }
}

int BucketDecoder::ColumnOfMidpoint(double mid_us) const {
  const auto it = std::lower_bound(mids_us_.begin(), mids_us_.end(), mid_us);
  // Written as the shortest exact text of the same double: equal, up to a stray ulp.
  for (auto c : {it, it == mids_us_.begin() ? it : it - 1}) {
    if (c != mids_us_.end() && std::fabs(*c - mid_us) <= 1e-9 * std::max(1.0, mid_us)) {
      return static_cast<int>(c - mids_us_.begin());
    }
  }
  return -1;
}

Status BucketDecoder::Decode(const rapidjson::Value& v, Histogram* out) const {
  if (!v.IsObject()) return Status::Error("bucket document: expected a JSON object");
  const int columns = static_cast<int>(mids_us_.size());
  bool present = false;
  Status s = Pair(v, "bucket_index", "bucket_count", &present);
  if (!s.ok()) return s;
  if (present) {
    const auto& idx = v["bucket_index"];
    const auto& cnt = v["bucket_count"];
    for (rapidjson::SizeType i = 0; i < idx.Size(); ++i) {
      if (!idx[i].IsInt() || idx[i].GetInt() < 0 || idx[i].GetInt() >= columns ||
          !cnt[i].IsNumber()) {
        return Status::Error("bucket document: bucket_index[" + std::to_string(i) +
                             "]: expected a bucket of the layout and a number");
      }
      out->Add(idx[i].GetInt(), cnt[i].GetDouble());
    }
    return Status();
  }
  double scale = 1;
  const auto sc = v.FindMember("latency_scale");
  if (sc != v.MemberEnd() && sc->value.IsNumber() && sc->value.GetDouble() > 0) {
    scale = sc->value.GetDouble();
  }
  const auto runs = v.FindMember("bucket_runs");
  const auto ios = v.FindMember("bucket_ios");
  if (runs != v.MemberEnd() || ios != v.MemberEnd()) {
    if (runs == v.MemberEnd() || ios == v.MemberEnd() || !runs->value.IsArray() ||
        !ios->value.IsArray() || runs->value.Size() % 2 != 0) {
      return Status::Error(
          "bucket document: expected bucket_runs (pairs of gap, length) with bucket_ios");
    }
    // [first, length, gap, length, ...]: the gap from the previous run's last bucket.
    const auto& r = runs->value;
    const auto& n = ios->value;
    int64_t column = 0;
    rapidjson::SizeType k = 0;
    for (rapidjson::SizeType i = 0; i < r.Size(); i += 2) {
      if (!r[i].IsInt64() || !r[i + 1].IsInt64() || r[i].GetInt64() < 0 ||
          r[i + 1].GetInt64() < 1) {
        return Status::Error("bucket document: bucket_runs[" + std::to_string(i) +
                             "]: expected a gap >= 0 and a length >= 1");
      }
      column += r[i].GetInt64();
      for (int64_t j = 0; j < r[i + 1].GetInt64(); ++j, ++column, ++k) {
        if (column >= columns || k >= n.Size() || !n[k].IsNumber()) {
          return Status::Error("bucket document: bucket_runs[" + std::to_string(i) +
                               "]: more buckets than the layout or bucket_ios holds");
        }
        out->Add(static_cast<int>(column), n[k].GetDouble() / scale);
      }
      --column;  // the next gap counts from this run's last bucket
    }
    if (k != n.Size()) {
      return Status::Error("bucket document: bucket_ios holds more counts than bucket_runs");
    }
    return Status();
  }
  const auto lat = v.FindMember("latency");
  if (lat == v.MemberEnd() || !lat->value.IsObject()) {
    return Status::Error(
        "bucket document: expected bucket_runs + bucket_ios, latency {values, counts} or "
        "bucket_index + bucket_count");
  }
  s = Pair(lat->value, "values", "counts", &present);
  if (!s.ok() || !present) return Status::Error("bucket document: latency: expected values and counts arrays");
  const auto& values = lat->value["values"];
  const auto& counts = lat->value["counts"];
  for (rapidjson::SizeType i = 0; i < values.Size(); ++i) {
    const int c = values[i].IsNumber() ? ColumnOfMidpoint(values[i].GetDouble()) : -1;
    if (c < 0 || !counts[i].IsNumber()) {
      return Status::Error("bucket document: latency.values[" + std::to_string(i) +
                           "]: expected a bucket midpoint of layout " + layout_.Name());
    }
    out->Add(c, counts[i].GetDouble() / scale);
  }
  return Status();
}

}  // namespace fiohist
