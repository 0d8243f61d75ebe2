#include "output/documents.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "base/number_format.h"
#include "log/time_anchor.h"
#include "output/document_id.h"
#include "output/fields.h"
#include "output/hist_code.h"
#include "output/json_text.h"

namespace fiohist {
namespace {

using namespace json_text;  // NOLINT: the pieces every document is written with

static_assert(MaxValueBytes(FieldType::kDouble) == kMaxDouble,
              "fields.cc budgets a double as json_text writes it");

// The row of ResultFields() named `name` (a percentile name matches the percentile row):
// a document can only carry what the table defines, so a name missing there stops the
// program at the first document, in every test.
const Field& ResultField(const char* name) {
  const bool percentile = name[0] == 'p' && name[1] >= '0' && name[1] <= '9';
  const bool bound = percentile && IsBoundName(name);
  for (const Field& f : ResultFields()) {
    if ((f.places & (kInPctiles | kInBuckets)) &&
        (bound        ? f.bounds
         : percentile ? f.percentiles
                      : !std::strcmp(f.name, name))) {
      return f;
    }
  }
  std::fprintf(stderr, "fiohist: internal error: document field '%s' is not in fields.cc\n", name);
  std::abort();
}
FieldType ResultFieldType(const char* name) { return ResultField(name).type; }
// `,"name":` for a field of ResultFields().
std::string ResultKey(const char* name) {
  ResultField(name);
  return "," + KeyText(name);
}

// zoom_le_ms of the coarsest resolution written: every larger interval draws it.
constexpr int64_t kNoEnd = int64_t{1} << 53;

// A date field's value (at most MaxValueBytes(FieldType::kDate) bytes): ISO 8601 when the
// run has absolute time; else milliseconds since
// the jobs started (relative logs without an anchor), which a date field reads as early
// 1970 but which stays ordered and comparable within the run.
char* PutTime(char* p, int64_t ms, bool absolute) {
  if (!absolute) return std::to_chars(p, p + 20, ms).ptr;
  if (WriteIsoTime(ms, p + 1)) {
    *p = '"';
    p[25] = '"';
    return p + 26;
  }
  return PutString(p, FormatIsoTime(ms));
}

// Writes `s` at `p`.
char* PutTextView(char* p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

// Bytes PutRecordList may write for `records`.
size_t RecordListRoom(const std::vector<const PlacedRecord*>& records) {
  size_t room = 2;
  for (const PlacedRecord* rec : records) {
    // ,{"span":[<int64>,<int64>],"hist":""} and the coded buckets.
    room += 80 + kHistCodeRoomHead + rec->counts.size() * kHistCodeRoomPerBucket;
  }
  return room;
}

// `records` as the record form's JSON array: each {"span":[offset, length],"hist":"..."},
// the offset from `start_ms` (the quantum's start).
char* PutRecordList(char* p, int64_t start_ms, const std::vector<const PlacedRecord*>& records,
                    int columns) {
  char* open = p;
  *p = ',';
  for (const PlacedRecord* rec : records) {
    // Columns beyond the layout (there are none: the log's layout is the run's) are left out.
    size_t n = 0;
    while (n < rec->counts.size() && rec->counts[n].first < static_cast<uint32_t>(columns)) ++n;
    p = Lit(p, ",{\"span\":[");
    p = std::to_chars(p, p + 20, rec->span.start_ms - start_ms).ptr;
    *p++ = ',';
    p = std::to_chars(p, p + 20, rec->span.length()).ptr;
    p = Lit(p, "],\"hist\":\"");
    p = PutHistCode(
        p, n, [&](size_t i) { return rec->counts[i].first; },
        [&](size_t i) { return rec->counts[i].second; });
    p = Lit(p, "\"}");
  }
  if (records.empty()) ++p;
  *open = '[';
  *p++ = ']';
  return p;
}

}  // namespace

/// Appends through a raw cursor: Room(n) makes n bytes writable at the returned position,
/// Done(p) says where writing stopped; what was written is appended to the string at the
/// end. Sections reserve an upper bound, so there is no check per byte and no append call
/// per piece; the bound is room in a scratch buffer, never cleared, and the string receives
/// only the bytes written.
class DocumentBuilder::Out {
 public:
  explicit Out(std::string* s) : s_(s), scratch_(std::move(spare_)) { spare_ = Scratch(); }
  ~Out() {
    s_->append(scratch_.data.get(), used_);
    if (!spare_.data) spare_ = std::move(scratch_);
  }
  Out(const Out&) = delete;
  Out& operator=(const Out&) = delete;

  /// Makes room for `n` more bytes without writing them (one allocation for a document).
  void Reserve(size_t n) {
    Grow(used_ + n);
    s_->reserve(s_->size() + used_ + n);
  }
  char* Room(size_t n) {
    Grow(used_ + n);
    room_end_ = used_ + n;
    return scratch_.data.get() + used_;
  }
  /// A writer that went past the room it asked for has a wrong budget: stop before the
  /// corrupted text goes anywhere (budgets come from MaxValueBytes; fields_test.cc checks
  /// them on extreme values).
  void Done(const char* p) {
    if (p > scratch_.data.get() + room_end_) {
      std::fprintf(stderr, "fiohist: internal error: document byte budget exceeded\n");
      std::abort();
    }
    used_ = static_cast<size_t>(p - scratch_.data.get());
  }

 private:
  /// Writable bytes that are not cleared first: a document's upper-bound room (several
  /// times what it writes: the bucket lists' budget is 39 bytes a count) zero-filled by
  /// std::string::resize was 3.6 % of `push --out`'s instructions (callgrind, 256 logs).
  struct Scratch {
    std::unique_ptr<char[]> data;
    size_t size = 0;
  };
  /// One per thread, lent to the Out being written (a nested one makes its own).
  static thread_local Scratch spare_;

  void Grow(size_t n) {
    if (n <= scratch_.size) return;
    const size_t size = std::max(n, 2 * scratch_.size);
    std::unique_ptr<char[]> bigger(new char[size]);
    if (used_ > 0) std::memcpy(bigger.get(), scratch_.data.get(), used_);
    scratch_.data = std::move(bigger);
    scratch_.size = size;
  }

  std::string* s_;
  Scratch scratch_;
  size_t used_ = 0;
  size_t room_end_ = 0;  // the end of the last Room(): Done() past it is a wrong budget
};

thread_local DocumentBuilder::Out::Scratch DocumentBuilder::Out::spare_;

DocumentBuilder::DocumentBuilder(const RunInfo& info, RunMeta meta, double ns_per_unit,
                                 BucketForm form)
    : info_(info), meta_(std::move(meta)), ns_per_unit_(ns_per_unit), form_(form) {
  meta_json_ = RunMetaJson(meta_);
  for (size_t i = 0; i < scope_json_.size(); ++i) {
    const char* name = ScopeName(static_cast<ScopeKind>(i));
    scope_json_[i] = ResultKey("scope") + StringText(name, std::strlen(name));
  }
  for (size_t i = 0; i < direction_json_.size(); ++i) {
    const std::string_view name = info.directions.Name(static_cast<Direction>(i));
    const std::string text = StringText(name.data(), name.size());
    // A smallfile op in a slot of its own is the direction, and named again as `op`.
    const std::string& op = info.directions.Op(static_cast<Direction>(i));
    const std::string op_json = op.empty() ? "" : ResultKey("op") + text;
    direction_json_[i] = ResultKey("direction") + text + op_json;
    // Bucket documents exist for real directions: a query on direction:all sums them.
    bucket_direction_json_[i] = static_cast<Direction>(i) == Direction::kAll
                                    ? direction_json_[i]
                                    : ResultKey("direction") + "[" + text + ",\"all\"]" + op_json;
    direction_room_ = std::max(direction_room_, bucket_direction_json_[i].size());
    if (i < direction_key_json_.size()) direction_key_json_[i] = text + ":";
    part_key_json_[i] = text + ":";
  }
  pctiles_version_json_ = ResultKey("pctiles_version") + std::to_string(kPctilesVersion);
  directions_key_ = ResultKey("directions");
  sla_directions_key_ = ResultKey("sla_breach_directions");
  sla_noise_directions_key_ = ResultKey("sla_breach_beyond_noise_directions");
  for (size_t mask = 1; mask < job_direction_json_.size(); ++mask) {
    std::string names, ops;
    int n_ops = 0;
    for (size_t i = 0; i < direction_key_json_.size(); ++i) {
      if (!(mask & (size_t{1} << i))) continue;
      const std::string_view name = info.directions.Name(static_cast<Direction>(i));
      names += StringText(name.data(), name.size()) + ",";
      const std::string& op = info.directions.Op(static_cast<Direction>(i));
      if (op.empty()) continue;
      ops += (ops.empty() ? "" : ",") + StringText(op.data(), op.size());
      ++n_ops;
    }
    // One op as per-direction documents have it (a string), several as an array.
    const std::string op_list =
        n_ops == 0 ? "" : ResultKey("op") + (n_ops == 1 ? ops : "[" + ops + "]");
    job_direction_json_[mask] = ResultKey("direction") + "[" + names + "\"all\"]" + op_list;
    merged_op_json_[mask] = op_list;
    direction_room_ = std::max(direction_room_, job_direction_json_[mask].size());
  }
  for (const char* name : {"@timestamp", "end", "elapsed_s", "quantum_s", "scope", "host", "job",
                           "direction", "logs", "samples"}) {
    common_keys_.push_back(ResultKey(name));
    common_room_ += common_keys_.back().size() + MaxValueBytes(ResultFieldType(name));
  }
  common_keys_[0][0] = '{';  // the document's first field
  quantum_ms_ = info.quantum_ms;
  {
    char buf[kMaxDouble];
    quantum_s_.assign(buf, PutNum(buf, static_cast<double>(quantum_ms_) / 1000.0));
  }
  const std::string layout = info.layout.Name();
  bucket_runs_key_ = ResultKey("bucket_runs");
  bucket_ios_key_ = ResultKey("bucket_ios");
  latency_key_ = ResultKey("latency");
  latency_scale_key_ = ResultKey("latency_scale");
  records_key_ = ResultKey("records");
  records_end_key_ = ResultKey("records_end");
  samples_by_direction_key_ = ResultKey("samples_by_direction");
  quanta_key_ = ResultKey("quanta");
  buckets_head_ = ResultKey("layout") + StringText(layout.data(), layout.size());
  for (Stat stat : {Stat::kIops, Stat::kMin, Stat::kMean, Stat::kMax, Stat::kTopBucket}) {
    stat_keys_[static_cast<size_t>(stat)] = ResultKey(StatName(stat));
  }
  clamped_key_ = ResultKey("clamped");
  // A dashboard draws the resolution whose (zoom_gt_ms, zoom_le_ms] holds its interval:
  // the finest not finer than the interval (the coarsest has no upper end: 2^53, nor has
  // the widest one a run writes: ScopeResult::widest).
  for (size_t i = 0; i < info.resolutions.size(); ++i) {
    const int64_t gt = i == 0 ? 0 : info.resolutions[i - 1] * info.quantum_ms;
    const int64_t le =
        i + 1 == info.resolutions.size() ? kNoEnd : info.resolutions[i] * info.quantum_ms;
    const std::string start =
        ResultKey("resolution") + std::to_string(info.resolutions[i]) + ResultKey("zoom_gt_ms");
    const std::string head = start + std::to_string(gt) + ResultKey("zoom_le_ms");
    resolution_json_.push_back(
        {info.resolutions[i], head + std::to_string(le), head + std::to_string(kNoEnd), start, le});
    // A result's own zoom_from: at most 20 digits in place of gt's.
    percentile_room_ = std::max(percentile_room_, resolution_json_.back().widest.size() + 20);
  }
  zoom_le_key_ = ResultKey("zoom_le_ms");
  lower_bound_key_ = ResultKey("lower_bound");
  coverage_key_ = ResultKey("coverage");
  partial_key_ = ResultKey("partial");
  straddled_key_ = ResultKey("straddled");
  issue_ = info.placement == "issue";
  if (issue_) {
    placement_json_ = ResultKey("placement") + StringText("issue", 5);
    complete_to_key_ = ResultKey("complete_to");
    percentile_room_ += placement_json_.size() + complete_to_key_.size() + kMaxDouble;
  }
  window_quanta_key_ = ResultKey("window_quanta");
  accurate_key_ = ResultKey("accurate");
  sla_ = SlaChecker(info.sla, info.percentiles);
  if (sla_.active()) {
    sla_breach_key_ = ResultKey("sla_breach");
    sla_breached_key_ = ResultKey("sla_breached");
    sla_noise_key_ = ResultKey("sla_breach_beyond_noise");
    sla_noise_list_key_ = ResultKey("sla_breached_beyond_noise");
    // The keys, the longer boolean twice, "[", "]" twice, and every text with its comma
    // twice.
    percentile_room_ += sla_breach_key_.size() + sla_noise_key_.size() +
                        2 * MaxValueBytes(FieldType::kBoolean) + sla_breached_key_.size() +
                        sla_noise_list_key_.size() + 4;
    for (const SlaThreshold& t : info.sla) {
      sla_texts_.push_back(StringText(t.text.data(), t.text.size()));
      percentile_room_ += 2 * (sla_texts_.back().size() + 1);
    }
  }

  // Everything after "samples": the statistics, clamped, the lower_bound list (every name
  // and "max", with commas), "}".
  percentile_room_ += clamped_key_.size() + MaxValueBytes(FieldType::kBoolean) +
                      lower_bound_key_.size() + 2 + 6 + 1 + coverage_key_.size() + kMaxDouble +
                      partial_key_.size() + MaxValueBytes(FieldType::kBoolean) +
                      straddled_key_.size() + kMaxDouble;
  for (Stat stat : {Stat::kIops, Stat::kMin, Stat::kMean, Stat::kMax, Stat::kTopBucket}) {
    percentile_room_ += stat_keys_[static_cast<size_t>(stat)].size() + kMaxDouble;
  }
  few_ios_key_ = ResultKey("few_ios");
  percentile_room_ += few_ios_key_.size() + 2;
  for (const std::string& name : info.percentiles.field_names) {
    percentile_keys_.push_back(ResultKey(name.c_str()));
    lower_bound_names_.push_back(StringText(name.c_str(), std::strlen(name.c_str())));
    low_keys_.push_back(ResultKey((name + kLowSuffix).c_str()));
    high_keys_.push_back(ResultKey((name + kHighSuffix).c_str()));
    // The value and its bounds, and the name in lower_bound and in few_ios.
    percentile_room_ += percentile_keys_.back().size() + low_keys_.back().size() +
                        high_keys_.back().size() + 3 * kMaxDouble +
                        2 * (lower_bound_names_.back().size() + 1);
  }

  const std::vector<double>& edges = EdgesNs(info.layout);
  const size_t columns = edges.empty() ? 0 : edges.size() - 1;
  mid_text_.resize(columns);
  for (size_t c = 0; c < columns; ++c) {
    std::array<char, kMaxDouble + 8>& mid = mid_text_[c];
    mid[0] = ',';
    mid.back() = static_cast<char>(PutDouble(mid.data() + 1, (edges[c] + edges[c + 1]) / 2000.0) -
                                   mid.data());
  }

  for (DocKind kind : {DocKind::kPercentiles, DocKind::kBuckets, DocKind::kRun}) {
    IdHash h;
    h.Feed(DocKindName(kind));
    h.Sep();
    h.Feed(meta_.run);
    h.Sep();
    id_seed_[static_cast<int>(kind)][0] = h.a;
    id_seed_[static_cast<int>(kind)][1] = h.b;
  }
}

std::string DocumentBuilder::Id(DocKind kind, const ScopeResult& r) const {
  std::string id;
  AppendId(kind, r, &id);
  return id;
}

void DocumentBuilder::AppendId(DocKind kind, const ScopeResult& r, std::string* out) const {
  AppendSeriesId(kind, r, true, out);
}

void DocumentBuilder::AppendMergedId(const ScopeResult& r, std::string* out) const {
  // kPctilesVersion 2: the entity's one document of the window holds every direction.
  AppendSeriesId(DocKind::kPercentiles, r, false, out);
}

void DocumentBuilder::AppendJobId(const ScopeResult& r, std::string* out) const {
  // kMergedBucketVersion: the job's one document of the quantum holds every direction.
  AppendSeriesId(DocKind::kBuckets, r, false, out);
}

void DocumentBuilder::AppendJobWindowId(const ScopeResult& r, const JobWindowRecords& w,
                                        std::string* out) const {
  // kWindowBucketVersion: the job's one document of the window; its start ends the id.
  ScopeResult at;
  at.kind = r.kind;
  at.host = r.host;
  at.job = r.job;
  at.start_ms = w.start_ms;
  AppendSeriesId(DocKind::kBuckets, at, false, out);
}

void DocumentBuilder::AppendSeriesId(DocKind kind, const ScopeResult& r, bool direction,
                                     std::string* out) const {
  // bucket_version 2: 16 hex digits of the series' hash, then 16 of the quantum's start, so
  // the ids of one series share their first half: the terms dictionary and the stored
  // fields keep them in a few bytes (bench/README.md, "Bucket documents"). A percentile
  // document's series also has its resolution.
  IdHash h;
  h.a = id_seed_[static_cast<int>(kind)][0];
  h.b = id_seed_[static_cast<int>(kind)][1];
  h.Feed(ScopeName(r.kind));
  h.Sep();
  h.Feed(r.host);
  h.Sep();
  h.Feed(r.job);
  h.Sep();
  if (kind == DocKind::kBuckets) {
    if (direction) h.Feed(DirectionName(r.direction));
  } else {
    if (direction) {
      const std::string_view name = info_.directions.Name(r.direction);
      h.Feed(name.data(), name.size());
    }
    h.Sep();
    char num[24];
    h.Feed(num, static_cast<size_t>(std::to_chars(num, num + sizeof(num), r.resolution).ptr - num));
  }
  static const char kHex[] = "0123456789abcdef";
  const uint64_t series = id_hash::Mix(h.a ^ id_hash::Mix(h.b));
  const uint64_t t = static_cast<uint64_t>(r.start_ms);
  const size_t at = out->size();
  out->resize(at + 32);
  char* p = out->data() + at;
  for (int i = 0; i < 16; ++i) {
    p[15 - i] = kHex[(series >> (4 * i)) & 15];
    p[31 - i] = kHex[(t >> (4 * i)) & 15];
  }
}

void DocumentBuilder::AppendWindow(const ScopeResult& w, bool accurate, std::string* out) const {
  ScopeResult q = w;
  // No resolution or zoom fields (no resolution is 0): they say which documents a panel
  // draws, and a window is none of them.
  q.resolution = 0;
  q.widest = false;
  AppendPercentiles(q, out);
  out->pop_back();  // the closing brace
  *out += window_quanta_key_;
  *out += std::to_string(w.resolution);
  *out += accurate_key_;
  *out += accurate ? "true}" : "false}";
}

std::string DocumentBuilder::WindowId(const ScopeResult& w) const {
  IdHash h;
  h.a = id_seed_[static_cast<int>(DocKind::kPercentiles)][0];
  h.b = id_seed_[static_cast<int>(DocKind::kPercentiles)][1];
  h.Feed("window");
  h.Sep();
  h.Feed(std::to_string(w.start_ms));
  h.Sep();
  h.Feed(ScopeName(w.kind));
  h.Sep();
  h.Feed(w.host);
  h.Sep();
  h.Feed(w.job);
  h.Sep();
  const std::string_view direction = info_.directions.Name(w.direction);
  h.Feed(direction.data(), direction.size());
  std::string id(32, '0');
  h.Hex(id.data());
  return id;
}

std::string DocumentBuilder::RunId() const {
  return HashHex128(std::string("runs\x1f") + meta_.run);
}

size_t DocumentBuilder::CommonRoom(const ScopeResult& r) const {
  // Fixed keys and values, the run's meta, the longest scope and direction texts, and the
  // two strings of this result.
  return common_room_ + meta_json_.size() + 2 * 64 + direction_room_ + StringRoom(r.host.size()) +
         StringRoom(r.job.size());
}

void DocumentBuilder::AppendCommon(const ScopeResult& r, double samples, bool bucket, Out& out,
                                   const std::string* direction_json, bool with_samples) const {
  char* p = out.Room(CommonRoom(r));
  p = Put(p, common_keys_[kTimestampKey]);
  p = PutTime(p, r.start_ms, info_.absolute);
  if (!bucket) {  // bucket documents: quantum_s gives the end; elapsed_s is for panels
    p = Put(p, common_keys_[kEndKey]);
    p = PutTime(p, r.end_ms, info_.absolute);
    p = Put(p, common_keys_[kElapsedKey]);
    p = PutNum(p, r.elapsed_s);
  }
  p = Put(p, common_keys_[kQuantumKey]);
  if (r.end_ms - r.start_ms == quantum_ms_) {
    p = Put(p, quantum_s_);
  } else {
    p = PutNum(p, static_cast<double>(r.end_ms - r.start_ms) / 1000.0);
  }
  p = Put(p, meta_json_);
  const size_t scope = static_cast<size_t>(r.kind);
  if (scope < scope_json_.size()) {
    p = Put(p, scope_json_[scope]);
  } else {
    p = Put(p, common_keys_[kScopeKey]);
    p = PutString(p, ScopeName(r.kind));
  }
  if (!r.host.empty()) {
    p = Put(p, common_keys_[kHostKey]);
    p = PutString(p, r.host);
  }
  if (!r.job.empty()) {
    p = Put(p, common_keys_[kJobKey]);
    p = PutString(p, r.job);
  }
  const size_t direction = static_cast<size_t>(r.direction);
  if (direction_json != nullptr) {
    p = Put(p, *direction_json);
  } else if (direction < direction_json_.size()) {
    p = Put(p, bucket ? bucket_direction_json_[direction] : direction_json_[direction]);
  } else {
    p = Put(p, common_keys_[kDirectionKey]);
    p = PutString(p, DirectionName(r.direction));
  }
  p = Put(p, common_keys_[kLogsKey]);
  p = std::to_chars(p, p + 12, r.logs).ptr;
  if (with_samples) {
    p = Put(p, common_keys_[kSamplesKey]);
    p = PutNum(p, samples);
  }
  out.Done(p);
}

std::string DocumentBuilder::Percentiles(const ScopeResult& r) const {
  std::string doc;
  AppendPercentiles(r, &doc);
  return doc;
}

void DocumentBuilder::AppendPercentiles(const ScopeResult& r, std::string* doc) const {
  Out out(doc);
  out.Reserve(CommonRoom(r) + percentile_room_);
  AppendCommon(r, StatValue(Stat::kSamples, r, ns_per_unit_), false, out);
  char* p = out.Room(percentile_room_);
  p = PutZoom(r, p);
  p = PutStats(r, p);
  p = PutPlace(r, p);
  if (r.straddled >= 0) {
    p = Put(p, straddled_key_);
    p = PutNum(p, r.straddled);
  }
  p = PutIssue(r, p);
  p = PutSla(r, p);
  *p++ = '}';
  out.Done(p);
}

void DocumentBuilder::AppendDirectionPart(const ScopeResult& r, std::string* doc) const {
  Out out(doc);
  const size_t room = kMaxDouble + common_keys_[kSamplesKey].size() + percentile_room_;
  out.Reserve(room);
  char* p = out.Room(room);
  // `,"samples":` without its comma: the object's first field.
  *p++ = '{';
  p = PutTextView(p, std::string_view(common_keys_[kSamplesKey]).substr(1));
  p = PutNum(p, StatValue(Stat::kSamples, r, ns_per_unit_));
  p = PutStats(r, p);
  if (r.straddled >= 0) {
    p = Put(p, straddled_key_);
    p = PutNum(p, r.straddled);
  }
  *p++ = '}';
  out.Done(p);
}

void DocumentBuilder::AppendMergedPercentiles(const ScopeResult& r, const DirectionParts& parts,
                                              std::string* doc) const {
  size_t room = percentile_room_ + pctiles_version_json_.size() + directions_key_.size() +
                sla_directions_key_.size() + sla_noise_directions_key_.size() + direction_room_ +
                12;
  for (size_t d = 0; d < parts.present.size(); ++d) {
    if (!parts.present[d]) continue;
    room += 4 * (part_key_json_[d].size() + 2) + parts.text[d].size();
  }
  Out out(doc);
  out.Reserve(CommonRoom(r) + room);
  static const std::string kNoDirection;
  AppendCommon(r, 0, false, out, &kNoDirection, false);
  char* p = out.Room(room);
  p = PutZoom(r, p);
  p = PutPlace(r, p);
  p = PutIssue(r, p);
  if (sla_.active() && r.kind == ScopeKind::kCluster) {
    // Every direction's breaches at the top (each threshold names its direction), and the
    // directions breaching beyond the noise: what the annotations and the alert rules (one
    // alert per run and direction) query.
    auto texts = [&](const std::vector<size_t>& which) {
      *p++ = '[';
      for (size_t i = 0; i < which.size(); ++i) {
        if (i > 0) *p++ = ',';
        p = Put(p, sla_texts_[which[i]]);
      }
      *p++ = ']';
    };
    p = Put(p, sla_breach_key_);
    p = parts.sla_breached.empty() ? Lit(p, "false") : Lit(p, "true");
    p = Put(p, sla_breached_key_);
    texts(parts.sla_breached);
    p = Put(p, sla_noise_key_);
    p = parts.sla_beyond.empty() ? Lit(p, "false") : Lit(p, "true");
    p = Put(p, sla_noise_list_key_);
    texts(parts.sla_beyond);
    auto names = [&](const std::array<bool, 4>& which) {
      char c = '[';
      for (size_t d = 0; d < parts.present.size(); ++d) {
        if (!parts.present[d] || !which[d]) continue;
        *p++ = c;
        c = ',';
        p = PutTextView(
            p, std::string_view(part_key_json_[d]).substr(0, part_key_json_[d].size() - 1));
      }
      if (c == '[') *p++ = '[';
      *p++ = ']';
    };
    p = Put(p, sla_directions_key_);
    names(parts.sla_breach);
    p = Put(p, sla_noise_directions_key_);
    names(parts.sla_noise);
  }
  p = Put(p, pctiles_version_json_);
  p = Put(p, directions_key_);
  char c = '[';
  for (size_t d = 0; d < parts.present.size(); ++d) {
    if (!parts.present[d]) continue;
    *p++ = c;
    c = ',';
    p = PutTextView(p, std::string_view(part_key_json_[d]).substr(0, part_key_json_[d].size() - 1));
  }
  if (c == '[') *p++ = '[';
  *p++ = ']';
  // A smallfile run's ops in slots of their own: `op` lists them (the overview's op variable).
  size_t mask = 0;
  for (size_t d = 0; d < kLogDirections; ++d) mask |= parts.present[d] ? size_t{1} << d : 0;
  p = Put(p, merged_op_json_[mask]);
  for (size_t d = 0; d < parts.present.size(); ++d) {
    if (!parts.present[d]) continue;
    *p++ = ',';
    p = Put(p, part_key_json_[d]);
    p = Put(p, parts.text[d]);
  }
  *p++ = '}';
  out.Done(p);
}

char* DocumentBuilder::PutZoom(const ScopeResult& r, char* p) const {
  for (const ResolutionJson& j : resolution_json_) {
    if (j.multiple != r.resolution) continue;
    if (r.zoom_from < 0) {
      p = Put(p, r.widest ? j.widest : j.json);
      continue;
    }
    // Drawn from the next finer resolution written for its scope (ResolutionSink): a level
    // left out between them, or the job scope's finest stored (0: from interval 0).
    p = Put(p, j.head);
    p = std::to_chars(p, p + 20, int64_t{r.zoom_from} * info_.quantum_ms).ptr;
    p = Put(p, zoom_le_key_);
    p = std::to_chars(p, p + 20, r.widest ? kNoEnd : j.le_ms).ptr;
  }
  return p;
}

char* DocumentBuilder::PutStats(const ScopeResult& r, char* p) const {
  const LatencyStats& s = r.stats;
  auto stat = [&](Stat which) {
    p = Put(p, stat_keys_[static_cast<size_t>(which)]);
    p = PutNum(p, StatValue(which, r, ns_per_unit_));
  };
  // Latencies in whole nanoseconds, fio's own unit: the digits an interpolated percentile
  // or a mean carries below 1 ns say nothing about the I/Os, and they were a third of the
  // percentile index's compressed `_source` (bench/README.md, "Percentile documents").
  auto latency = [&](const std::string& key, double ns) {
    p = Put(p, key);
    p = PutNum(p, std::nearbyint(ns) / ns_per_unit_);
  };
  stat(Stat::kIops);
  if (s.samples > 0) {
    latency(stat_keys_[static_cast<size_t>(Stat::kMin)], s.min_ns);
    latency(stat_keys_[static_cast<size_t>(Stat::kMean)], s.mean_ns);
    latency(stat_keys_[static_cast<size_t>(Stat::kMax)], s.max_ns);
    // The stats come from info.percentiles: one value per field name.
    const size_t n = std::min(s.percentile_ns.size(), percentile_keys_.size());
    for (size_t i = 0; i < n; ++i) latency(percentile_keys_[i], s.percentile_ns[i]);
    // The confidence bounds; no upper one where the percentile rests on too few I/Os.
    const size_t b = std::min(n, s.few_ios.size());
    for (size_t i = 0; i < b; ++i) {
      latency(low_keys_[i], s.percentile_low_ns[i]);
      if (s.few_ios[i]) continue;
      latency(high_keys_[i], s.percentile_high_ns[i]);
    }
  }
  stat(Stat::kTopBucket);
  p = Put(p, clamped_key_);
  p = s.top_bucket > 0 ? Lit(p, "true") : Lit(p, "false");
  p = Put(p, lower_bound_key_);
  *p++ = '[';
  bool first = true;
  const size_t n = std::min(s.lower_bound.size(), lower_bound_names_.size());
  for (size_t i = 0; i < n; ++i) {
    if (!s.lower_bound[i]) continue;
    if (!first) *p++ = ',';
    first = false;
    p = Put(p, lower_bound_names_[i]);
  }
  if (s.max_lower_bound) p = first ? Lit(p, "\"max\"") : Lit(p, ",\"max\"");
  *p++ = ']';
  p = Put(p, few_ios_key_);
  *p++ = '[';
  first = true;
  const size_t few = std::min(s.few_ios.size(), lower_bound_names_.size());
  for (size_t i = 0; i < few; ++i) {
    if (!s.few_ios[i]) continue;
    if (!first) *p++ = ',';
    first = false;
    p = Put(p, lower_bound_names_[i]);
  }
  *p++ = ']';
  return p;
}

char* DocumentBuilder::PutPlace(const ScopeResult& r, char* p) const {
  p = Put(p, coverage_key_);
  p = PutNum(p, r.coverage);
  p = Put(p, partial_key_);
  return r.partial ? Lit(p, "true") : Lit(p, "false");
}

char* DocumentBuilder::PutIssue(const ScopeResult& r, char* p) const {
  if (!issue_) return p;
  p = Put(p, placement_json_);
  if (r.complete_to_ms != INT64_MAX) {
    p = Put(p, complete_to_key_);
    p = PutNum(p, static_cast<double>(r.complete_to_ms) * 1e6 / ns_per_unit_);
  }
  return p;
}

void DocumentBuilder::AddSla(const ScopeResult& r, DirectionParts* parts) const {
  if (!sla_.active() || r.kind != ScopeKind::kCluster) return;
  thread_local std::vector<size_t> breached, beyond;
  breached.clear();
  beyond.clear();
  sla_.Breaches(r, &breached, &beyond);
  auto add = [](const std::vector<size_t>& from, std::vector<size_t>* to) {
    for (size_t i : from) {
      auto at = std::lower_bound(to->begin(), to->end(), i);
      if (at == to->end() || *at != i) to->insert(at, i);
    }
  };
  add(breached, &parts->sla_breached);
  add(beyond, &parts->sla_beyond);
  const size_t d = static_cast<size_t>(r.direction);
  if (d >= parts->sla_noise.size()) return;
  parts->sla_breach[d] = !breached.empty();
  parts->sla_noise[d] = !beyond.empty();
}

char* DocumentBuilder::PutSla(const ScopeResult& r, char* p) const {
  if (!sla_.active() || r.kind != ScopeKind::kCluster) return p;
  thread_local std::vector<size_t> breached, beyond;
  breached.clear();
  beyond.clear();
  const bool any = sla_.Breaches(r, &breached, &beyond);
  p = Put(p, sla_breach_key_);
  p = any ? Lit(p, "true") : Lit(p, "false");
  p = Put(p, sla_breached_key_);
  *p++ = '[';
  for (size_t i = 0; i < breached.size(); ++i) {
    if (i > 0) *p++ = ',';
    p = Put(p, sla_texts_[breached[i]]);
  }
  *p++ = ']';
  p = Put(p, sla_noise_key_);
  p = beyond.empty() ? Lit(p, "false") : Lit(p, "true");
  p = Put(p, sla_noise_list_key_);
  *p++ = '[';
  for (size_t i = 0; i < beyond.size(); ++i) {
    if (i > 0) *p++ = ',';
    p = Put(p, sla_texts_[beyond[i]]);
  }
  *p++ = ']';
  return p;
}

std::string DocumentBuilder::Buckets(const ScopeResult& r, const IntegerBuckets& b) const {
  std::string doc;
  AppendBuckets(r, b, &doc);
  return doc;
}

void DocumentBuilder::AppendBuckets(const ScopeResult& r, const IntegerBuckets& b,
                                    std::string* doc) const {
  // Columns beyond the layout (there are none) are left out of both lists alike.
  const size_t known = mid_text_.size();
  size_t n = 0;
  while (n < b.columns.size() && n < b.counts.size() && b.columns[n] >= 0 &&
         static_cast<size_t>(b.columns[n]) < known) {
    ++n;
  }
  constexpr size_t kSlack = kMaxDouble + 8;  // midpoints are copied at their fixed size
  constexpr size_t kInt = 21;                // ",<int64>"
  Out out(doc);
  out.Reserve(CommonRoom(r) + buckets_head_.size() + n * (kSlack + kInt) + 4 * kSlack + 128);
  AppendCommon(r, static_cast<double>(b.total) / static_cast<double>(b.scale), true, out);
  char* p = out.Room(buckets_head_.size() + latency_key_.size() + bucket_runs_key_.size() +
                     bucket_ios_key_.size() + latency_scale_key_.size() + coverage_key_.size() +
                     64 + n * (kSlack + 2 * kInt) + 2 * kSlack);
  p = Put(p, buckets_head_);
  if (form_ == BucketForm::kHistogram) {
    // The only copy: bucket midpoints in us and integer counts (scale 1); read-back maps
    // each midpoint back to its bucket through the layout.
    p = Put(p, latency_key_);
    p = Lit(p, "{\"values\":");
    p = PutListBody(p, n, [&](size_t i) {
      const auto& t = mid_text_[static_cast<size_t>(b.columns[i])];
      return ListPiece{t.data(), t.size(), static_cast<size_t>(t.back())};
    });
    p = Lit(p, "],\"counts\":");
  } else {
    p = Put(p, bucket_runs_key_);
    p = PutRuns(p, n, [&](size_t i) { return static_cast<int64_t>(b.columns[i]); });
    p = Put(p, bucket_ios_key_);
  }
  p = PutInts(p, n, [&](size_t i) { return b.counts[i]; });
  if (form_ == BucketForm::kHistogram) *p++ = '}';
  if (b.scale != 1) {  // counts are I/Os times this
    p = Put(p, latency_scale_key_);
    p = std::to_chars(p, p + 20, b.scale).ptr;
  }
  if (r.coverage != 1) {  // a span the logs cover in part (first and last quanta): read-back
    p = Put(p, coverage_key_);  // reports coverage and partial as the logs do
    p = PutNum(p, r.coverage);
  }
  *p++ = '}';
  out.Done(p);
}

void DocumentBuilder::AppendRecords(const ScopeResult& r,
                                    const std::vector<const PlacedRecord*>& records,
                                    std::string* doc, const IntegerBuckets* scaled) const {
  const int columns = static_cast<int>(mid_text_.size());
  size_t room = buckets_head_.size() + records_end_key_.size() + records_key_.size() +
                coverage_key_.size() + MaxValueBytes(FieldType::kDate) + kMaxDouble + 8;
  size_t n_scaled = 0;  // columns of `scaled` within the layout, as AppendBuckets counts them
  if (scaled != nullptr) {
    while (n_scaled < scaled->columns.size() && n_scaled < scaled->counts.size() &&
           scaled->columns[n_scaled] >= 0 && scaled->columns[n_scaled] < columns) {
      ++n_scaled;
    }
    room += bucket_runs_key_.size() + bucket_ios_key_.size() + latency_scale_key_.size() + 32 +
            n_scaled * (kRunRoom + kIntRoom);
  }
  int64_t end_ms = r.start_ms;
  for (const PlacedRecord* rec : records) {
    // ,{"span":[<int64>,<int64>],"hist":""} and the coded buckets.
    room += 80 + kHistCodeRoomHead + rec->counts.size() * kHistCodeRoomPerBucket;
    end_ms = std::max(end_ms, rec->span.end_ms);
  }
  Out out(doc);
  out.Reserve(CommonRoom(r) + room);
  AppendCommon(r, r.stats.samples, true, out);
  char* p = out.Room(room);
  p = Put(p, buckets_head_);
  p = Put(p, records_end_key_);  // read-back of a window reads the records reaching into it
  p = PutTime(p, end_ms, info_.absolute);
  p = Put(p, records_key_);
  p = PutRecordList(p, r.start_ms, records, columns);
  if (scaled != nullptr) {
    // The compact form's scaled counts, after the records: `load` keeps either part
    // (BucketFormChooser), and each part is then what a direct push writes.
    p = Put(p, bucket_runs_key_);
    p = PutRuns(p, n_scaled, [&](size_t i) { return static_cast<int64_t>(scaled->columns[i]); });
    p = Put(p, bucket_ios_key_);
    p = PutInts(p, n_scaled, [&](size_t i) { return scaled->counts[i]; });
    if (scaled->scale != 1) {
      p = Put(p, latency_scale_key_);
      p = std::to_chars(p, p + 20, scaled->scale).ptr;
    }
  }
  if (r.coverage != 1) {
    p = Put(p, coverage_key_);
    p = PutNum(p, r.coverage);
  }
  *p++ = '}';
  out.Done(p);
}

int64_t DocumentBuilder::AppendRecordList(const ScopeResult& r,
                                          const std::vector<const PlacedRecord*>& records,
                                          std::string* doc) const {
  int64_t end_ms = r.start_ms;
  for (const PlacedRecord* rec : records) end_ms = std::max(end_ms, rec->span.end_ms);
  Out out(doc);
  const size_t room = RecordListRoom(records);
  out.Reserve(room);
  char* p = out.Room(room);
  p = PutRecordList(p, r.start_ms, records, static_cast<int>(mid_text_.size()));
  out.Done(p);
  return end_ms;
}

void DocumentBuilder::AppendJobRecords(const ScopeResult& r, const JobQuantumRecords& parts,
                                       std::string* doc) const {
  DirectionTotals t;
  t.end_ms = r.start_ms;
  t.room = buckets_head_.size() + records_end_key_.size() + records_key_.size() +
           samples_by_direction_key_.size() + coverage_key_.size() +
           MaxValueBytes(FieldType::kDate) + kMaxDouble + 12;
  AddDirections(parts, &t);
  Out out(doc);
  out.Reserve(CommonRoom(r) + t.room);
  AppendCommon(r, t.samples, true, out, &job_direction_json_[t.mask]);
  char* p = out.Room(t.room);
  // Each direction's own share, as its per-direction document had it (a direction can have
  // I/Os in the quantum without a record starting there).
  p = PutByDirection(p, parts, true);
  p = Put(p, buckets_head_);
  p = Put(p, records_end_key_);  // read-back of a window reads the records reaching into it
  p = PutTime(p, t.end_ms, info_.absolute);
  p = PutByDirection(p, parts, false);
  if (r.coverage != 1) {  // the job's, whatever the direction
    p = Put(p, coverage_key_);
    p = PutNum(p, r.coverage);
  }
  *p++ = '}';
  out.Done(p);
}

char* DocumentBuilder::PutByDirection(char* p, const JobQuantumRecords& parts, bool samples) const {
  p = Put(p, samples ? samples_by_direction_key_ : records_key_);
  char c = '{';
  for (size_t d = 0; d < parts.present.size(); ++d) {
    if (!parts.present[d]) continue;
    *p++ = c;
    c = ',';
    p = Put(p, direction_key_json_[d]);
    p = samples ? PutNum(p, parts.samples[d]) : Put(p, parts.records[d]);
  }
  *p++ = '}';
  return p;
}

void DocumentBuilder::AddDirections(const JobQuantumRecords& parts, DirectionTotals* t) const {
  for (size_t d = 0; d < parts.present.size(); ++d) {
    if (!parts.present[d]) continue;
    t->mask |= size_t{1} << d;
    t->samples += parts.samples[d];
    t->end_ms = std::max(t->end_ms, parts.end_ms[d]);
    t->room += 2 * (direction_key_json_[d].size() + 1) + kMaxDouble + parts.records[d].size();
  }
}

JobWindowRecords::Quantum& JobWindowRecords::At(int64_t start_ms, int64_t end_ms, double coverage) {
  if (size > 0 && quanta[size - 1].start_ms == start_ms) return quanta[size - 1];
  if (size == quanta.size()) quanta.emplace_back();
  Quantum& q = quanta[size++];
  q.start_ms = start_ms;
  q.end_ms = end_ms;
  q.coverage = coverage;
  q.parts.Clear();
  return q;
}

void DocumentBuilder::AppendJobWindow(const ScopeResult& r, const JobWindowRecords& w,
                                      std::string* doc) const {
  DirectionTotals t;
  t.end_ms = w.start_ms;
  t.room = buckets_head_.size() + records_end_key_.size() + quanta_key_.size() +
           MaxValueBytes(FieldType::kDate) + 8;
  for (size_t i = 0; i < w.size; ++i) {
    // {"offset_ms":<int64>,"samples":<double>,"samples_by_direction":{},"records":{},
    // "coverage":<double>,"quantum_s":<double>}
    t.room += 24 + 20 + common_keys_[kSamplesKey].size() + samples_by_direction_key_.size() +
              records_key_.size() + coverage_key_.size() + common_keys_[kQuantumKey].size() +
              3 * kMaxDouble + 8;
    AddDirections(w.quanta[i].parts, &t);
  }
  Out out(doc);
  out.Reserve(CommonRoom(r) + t.room);
  ScopeResult at;  // the place of r, at the window's start
  at.kind = r.kind;
  at.host = r.host;
  at.job = r.job;
  at.logs = r.logs;
  at.start_ms = w.start_ms;
  at.end_ms = w.start_ms + quantum_ms_;
  AppendCommon(at, t.samples, true, out, &job_direction_json_[t.mask]);
  char* p = out.Room(t.room);
  p = Put(p, buckets_head_);
  p = Put(p, records_end_key_);  // read-back of a window reads the records reaching into it
  p = PutTime(p, t.end_ms, info_.absolute);
  p = Put(p, quanta_key_);
  *p++ = '[';
  for (size_t i = 0; i < w.size; ++i) {
    const JobWindowRecords::Quantum& q = w.quanta[i];
    const JobQuantumRecords& parts = q.parts;
    if (i > 0) *p++ = ',';
    p = Lit(p, "{\"offset_ms\":");
    p = std::to_chars(p, p + 20, q.start_ms - w.start_ms).ptr;
    double quantum_samples = 0;
    for (size_t d = 0; d < parts.present.size(); ++d) {
      if (parts.present[d]) quantum_samples += parts.samples[d];
    }
    p = Put(p, common_keys_[kSamplesKey]);
    p = PutNum(p, quantum_samples);
    // As AppendJobRecords writes them for one quantum.
    p = PutByDirection(p, parts, true);
    p = PutByDirection(p, parts, false);
    if (q.coverage != 1) {
      p = Put(p, coverage_key_);
      p = PutNum(p, q.coverage);
    }
    if (q.end_ms - q.start_ms != quantum_ms_) {  // as a per-quantum document's quantum_s
      p = Put(p, common_keys_[kQuantumKey]);
      p = PutNum(p, static_cast<double>(q.end_ms - q.start_ms) / 1000.0);
    }
    *p++ = '}';
  }
  *p++ = ']';
  *p++ = '}';
  out.Done(p);
}

std::string DocumentBuilder::Run(const RunSummary& summary,
                                 const std::vector<ScopeResult>& whole_run,
                                 int bucket_version) const {
  return RunDocument(info_, meta_, ns_per_unit_, summary, whole_run, bucket_version);
}

}  // namespace fiohist
