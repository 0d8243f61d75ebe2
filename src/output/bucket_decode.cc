#include "output/bucket_decode.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "output/hist_code.h"

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

// Walks run-length coded columns `r` ([first, length, gap, length, ...], each gap from the
// previous run's last bucket) with their numbers `n`, calling add(column, number). Errors
// name the arrays by `runs_name` and `ios_name`.
template <typename Add>
Status DecodeRuns(const rapidjson::Value& r, const rapidjson::Value& n, int columns,
                  const char* runs_name, const char* ios_name, Add add) {
  int64_t column = 0;
  rapidjson::SizeType k = 0;
  for (rapidjson::SizeType i = 0; i + 1 < r.Size(); i += 2) {
    if (!r[i].IsInt64() || !r[i + 1].IsInt64() || r[i].GetInt64() < 0 ||
        r[i + 1].GetInt64() < 1) {
      return Status::Error(std::string(runs_name) + "[" + std::to_string(i) +
                           "]: expected a gap >= 0 and a length >= 1");
    }
    column += r[i].GetInt64();
    for (int64_t j = 0; j < r[i + 1].GetInt64(); ++j, ++column, ++k) {
      if (column >= columns || k >= n.Size() || !n[k].IsNumber()) {
        return Status::Error(std::string(runs_name) + "[" + std::to_string(i) +
                             "]: expected buckets of the layout, each with a count in " +
                             ios_name);
      }
      add(static_cast<int>(column), n[k]);
    }
    --column;  // the next gap counts from this run's last bucket
  }
  if (k != n.Size()) {
    return Status::Error(std::string(ios_name) + ": expected as many counts as " + runs_name +
                         " covers, found more");
  }
  return Status();
}

}  // namespace

bool BucketDecoder::HasRecords(const rapidjson::Value& v) {
  return v.IsObject() && v.HasMember("records");
}

Status BucketDecoder::DecodeRecords(const rapidjson::Value& v, int64_t start_ms, Direction d,
                                    std::vector<PlacedRecord>* out) const {
  const auto recs = v.FindMember("records");
  if (recs == v.MemberEnd() || !recs->value.IsArray()) {
    return Status::Error("bucket document: expected an array 'records'");
  }
  return DecodeRecordArray(recs->value, "records", start_ms, d, out);
}

bool BucketDecoder::HasRecordsByDirection(const rapidjson::Value& v) {
  if (!v.IsObject()) return false;
  const auto recs = v.FindMember("records");
  return recs != v.MemberEnd() && recs->value.IsObject();
}

bool BucketDecoder::HasQuanta(const rapidjson::Value& v) {
  return v.IsObject() && v.HasMember("quanta");
}

Status BucketDecoder::WindowQuanta(const rapidjson::Value& v, int64_t window_ms,
                                   std::vector<std::pair<int64_t, const rapidjson::Value*>>* out) {
  const auto quanta = v.FindMember("quanta");
  if (quanta == v.MemberEnd() || !quanta->value.IsArray()) {
    return Status::Error("bucket document: expected an array 'quanta'");
  }
  int64_t after = -1;  // quanta come by start
  for (rapidjson::SizeType i = 0; i < quanta->value.Size(); ++i) {
    const rapidjson::Value& q = quanta->value[i];
    const auto offset = q.IsObject() ? q.FindMember("offset_ms") : q.MemberEnd();
    if (!q.IsObject() || offset == q.MemberEnd() || !offset->value.IsInt64() ||
        offset->value.GetInt64() <= after || !HasRecordsByDirection(q)) {
      return Status::Error("bucket document: quanta[" + std::to_string(i) +
                           "]: expected offset_ms (ascending, >= 0) and an object 'records'");
    }
    after = offset->value.GetInt64();
    out->emplace_back(window_ms + after, &q);
  }
  return Status();
}

Status BucketDecoder::DecodeRecordsByDirection(const rapidjson::Value& v, int64_t start_ms,
                                               const DirectionNames& names,
                                               std::vector<PlacedRecord>* out) const {
  const auto recs = v.FindMember("records");
  if (recs == v.MemberEnd() || !recs->value.IsObject()) {
    return Status::Error("bucket document: expected an object 'records'");
  }
  // Slot order, whatever the order of the members: the regrid hands out each series'
  // directions in that order, and records of one direction must come by span start.
  const rapidjson::Value* by_slot[kLogDirections] = {};
  for (auto m = recs->value.MemberBegin(); m != recs->value.MemberEnd(); ++m) {
    const std::string_view name(m->name.GetString(), m->name.GetStringLength());
    Direction d = Direction::kAll;
    if (!names.Find(name, &d) || d == Direction::kAll || !m->value.IsArray()) {
      return Status::Error("bucket document: records." + std::string(name) +
                           ": expected an array of records of one of the run's directions");
    }
    by_slot[static_cast<size_t>(d)] = &m->value;
  }
  for (int d = 0; d < kLogDirections; ++d) {
    if (by_slot[d] == nullptr) continue;
    const Direction dir = static_cast<Direction>(d);
    Status s = DecodeRecordArray(*by_slot[d], "records." + std::string(names.Name(dir)), start_ms,
                                 dir, out);
    if (!s.ok()) return s;
  }
  return Status();
}

Status BucketDecoder::DecodeRecordArray(const rapidjson::Value& recs, const std::string& what,
                                        int64_t start_ms, Direction d,
                                        std::vector<PlacedRecord>* out) const {
  const int columns = static_cast<int>(mids_us_.size());
  for (rapidjson::SizeType i = 0; i < recs.Size(); ++i) {
    const rapidjson::Value& rec = recs[i];
    const std::string where = "bucket document: " + what + "[" + std::to_string(i) + "]";
    if (!rec.IsObject() || !rec.HasMember("span") || !rec["span"].IsArray() ||
        rec["span"].Size() != 2 || !rec["span"][0].IsInt64() || !rec["span"][1].IsInt64() ||
        rec["span"][1].GetInt64() < 1) {
      return Status::Error(where + ": expected span [offset, length >= 1]");
    }
    PlacedRecord p;
    p.direction = d;
    p.span.start_ms = start_ms + rec["span"][0].GetInt64();
    p.span.end_ms = p.span.start_ms + rec["span"][1].GetInt64();
    const auto hist = rec.FindMember("hist");
    if (hist != rec.MemberEnd()) {  // bucket_version 2: the text coding
      if (!hist->value.IsString()) return Status::Error(where + ": expected a string hist");
      Status s = DecodeHistCode(
          std::string_view(hist->value.GetString(), hist->value.GetStringLength()), columns,
          [&](int column, uint64_t n) { p.counts.emplace_back(static_cast<uint32_t>(column), n); });
      if (!s.ok()) return Status::Error(where + "." + s.message());
      out->push_back(std::move(p));
      continue;
    }
    // Runs pushed before bucket_version 2: runs (gap, length pairs) and ios.
    if (!rec.HasMember("runs") || !rec["runs"].IsArray() || rec["runs"].Size() % 2 != 0 ||
        !rec.HasMember("ios") || !rec["ios"].IsArray()) {
      return Status::Error(where + ": expected hist, or runs (gap, length pairs) and ios");
    }
    Status s = DecodeRuns(rec["runs"], rec["ios"], columns, "runs", "ios",
                          [&](int column, const rapidjson::Value& n) {
                            p.counts.emplace_back(static_cast<uint32_t>(column),
                                                  n.IsUint64() ? n.GetUint64() : 0);
                          });
    if (!s.ok()) return Status::Error(where + "." + s.message());
    for (const auto& [column, count] : p.counts) {
      if (count == 0) return Status::Error(where + ": expected whole counts >= 1 in ios");
    }
    out->push_back(std::move(p));
  }
  return Status();
}

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
    s = DecodeRuns(runs->value, ios->value, columns, "bucket_runs", "bucket_ios",
                   [&](int column, const rapidjson::Value& n) {
                     out->Add(column, n.GetDouble() / scale);
                   });
    return s.ok() ? s : Status::Error("bucket document: " + s.message());
  }
  const auto lat = v.FindMember("latency");
  if (lat == v.MemberEnd() || !lat->value.IsObject()) {
    return Status::Error(
        "bucket document: expected bucket_runs + bucket_ios, latency {values, counts} or "
        "bucket_index + bucket_count");
  }
  s = Pair(lat->value, "values", "counts", &present);
  if (!s.ok() || !present) {
    return Status::Error("bucket document: latency: expected values and counts arrays");
  }
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
