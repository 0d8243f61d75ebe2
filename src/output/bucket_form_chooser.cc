#include "output/bucket_form_chooser.h"

#include <charconv>
#include <cstdint>

#include "histogram/bucket_layout.h"
#include "output/json_text.h"

namespace fiohist {
namespace {

// The keys as DocumentBuilder writes them (`,"name":`).
constexpr char kLayoutKey[] = ",\"layout\":\"";
constexpr char kRecordsEndKey[] = ",\"records_end\":";
constexpr char kRunsKey[] = ",\"bucket_runs\":[";
constexpr char kIosKey[] = "],\"bucket_ios\":[";
constexpr char kScaleKey[] = ",\"latency_scale\":";
constexpr char kSamplesKey[] = ",\"samples\":";

// Reads the integers of a JSON list body "a,b,c" (between the brackets) into `out`.
bool ReadInts(const char* p, const char* end, std::vector<int64_t>* out) {
  out->clear();
  if (p == end) return true;
  while (true) {
    int64_t v = 0;
    const auto [next, ec] = std::from_chars(p, end, v);
    if (ec != std::errc() || next == p) return false;
    out->push_back(v);
    if (next == end) return true;
    if (*next != ',') return false;
    p = next + 1;
  }
}

}  // namespace

Status BucketFormChooser::Midpoints(const std::string& name,
                                    const std::vector<std::string>** mids) {
  auto it = mids_.find(name);
  if (it == mids_.end()) {
    BucketLayout layout;
    Status s = ParseLayoutName(name, &layout);
    if (!s.ok()) return s;
    // The midpoints as DocumentBuilder writes them into the histogram form.
    const std::vector<double>& edges = EdgesNs(layout);
    std::vector<std::string> texts(edges.empty() ? 0 : edges.size() - 1);
    char buf[64];
    for (size_t c = 0; c < texts.size(); ++c) {
      buf[0] = ',';
      char* end = FormatJsonDouble(buf + 1, (edges[c] + edges[c + 1]) / 2000.0);
      texts[c].assign(buf, end);
    }
    it = mids_.emplace(name, std::move(texts)).first;
  }
  *mids = &it->second;
  return Status();
}

Status BucketFormChooser::Choose(std::string* source) {
  std::string& doc = *source;
  const size_t runs_at = doc.rfind(kRunsKey);
  if (runs_at == std::string::npos) return Status();  // histogram or record form alone
  const size_t layout_at = doc.rfind(kLayoutKey, runs_at);
  const size_t ios_at = doc.find(kIosKey, runs_at);
  const size_t ios_close = ios_at == std::string::npos ? ios_at : doc.find(']', ios_at + 2);
  if (layout_at == std::string::npos || ios_close == std::string::npos) {
    return Status::Error("expected \"layout\" before \"bucket_runs\" and \"bucket_ios\" after it");
  }
  const size_t records_at = doc.find(kRecordsEndKey, layout_at);
  const bool records = records_at != std::string::npos && records_at < runs_at;
  // The scale (absent: 1) follows the counts directly.
  size_t scaled_end = ios_close + 1;
  int64_t scale = 1;
  if (doc.compare(scaled_end, sizeof kScaleKey - 1, kScaleKey) == 0) {
    const char* p = doc.data() + scaled_end + sizeof kScaleKey - 1;
    const auto [next, ec] = std::from_chars(p, doc.data() + doc.size(), scale);
    if (ec != std::errc() || scale < 1) return Status::Error("expected a latency_scale >= 1");
    scaled_end = static_cast<size_t>(next - doc.data());
  }
  if (!histogram_) {
    // The record form is the exact copy: the scaled counts beside it go. Documents without
    // records are the compact form already.
    if (records) {
      doc.erase(runs_at, scaled_end - runs_at);
      ++rewritten_;
    }
    return Status();
  }
  const size_t name_at = layout_at + sizeof kLayoutKey - 1;
  const size_t name_end = doc.find('"', name_at);
  const std::vector<std::string>* mids = nullptr;
  Status s = name_end == std::string::npos
                 ? Status::Error("expected the layout's name")
                 : Midpoints(doc.substr(name_at, name_end - name_at), &mids);
  if (!s.ok()) return s;
  std::vector<int64_t> runs, ios;
  const char* base = doc.data();
  if (!ReadInts(base + runs_at + sizeof kRunsKey - 1, base + ios_at, &runs) ||
      !ReadInts(base + ios_at + sizeof kIosKey - 1, base + ios_close, &ios) ||
      runs.size() % 2 != 0) {
    return Status::Error("expected bucket_runs [first, length, gap, length, ...] and "
                         "bucket_ios lists of integers");
  }
  // `latency` {values, counts}: each run's midpoints, and the counts as they are.
  std::string values;
  int64_t column = 0;
  size_t n = 0;
  for (size_t i = 0; i < runs.size(); i += 2) {
    column += runs[i];  // from 0, then from the last bucket of the run before
    for (int64_t k = 0; k < runs[i + 1]; ++k, ++column, ++n) {
      if (column < 0 || static_cast<size_t>(column) >= mids->size()) {
        return Status::Error("bucket_runs name bucket " + std::to_string(column) +
                             ", outside the layout's " + std::to_string(mids->size()));
      }
      values += (*mids)[static_cast<size_t>(column)];
    }
    --column;  // the run's last bucket, which the next gap counts from
  }
  if (n != ios.size()) {
    return Status::Error("bucket_runs name " + std::to_string(n) + " buckets, bucket_ios has " +
                         std::to_string(ios.size()) + " counts");
  }
  int64_t total = 0;
  for (int64_t v : ios) total += v;
  if (values.empty()) values = ",";
  values[0] = '[';
  std::string latency = ",\"latency\":{\"values\":" + values + "],\"counts\":[" +
                        doc.substr(ios_at + sizeof kIosKey - 1, ios_close - ios_at -
                                   (sizeof kIosKey - 1)) + "]}";
  doc.replace(runs_at, ios_close + 1 - runs_at, latency);
  if (records) {
    // The histogram form has no records, and its `samples` is its counts' sum.
    doc.erase(records_at, runs_at - records_at);
    const size_t samples_at = doc.rfind(kSamplesKey, records_at);
    const size_t value_at = samples_at == std::string::npos ? samples_at
                                                            : samples_at + sizeof kSamplesKey - 1;
    const size_t value_end = value_at == std::string::npos ? value_at : doc.find(',', value_at);
    if (value_end == std::string::npos || value_end > records_at) {
      return Status::Error("expected \"samples\" before \"layout\"");
    }
    char buf[64];
    char* end = FormatJsonDouble(buf, static_cast<double>(total) / static_cast<double>(scale));
    doc.replace(value_at, value_end - value_at, buf, static_cast<size_t>(end - buf));
  }
  ++rewritten_;
  return Status();
}

}  // namespace fiohist
