#include "output/row_json_sink.h"

#include "base/file_write.h"

namespace fiohist {

RowJsonSink::RowJsonSink(std::FILE* out, LatencyUnit unit, RowSelection rows, bool array)
    : TableSink(rows), out_(out), unit_(std::move(unit)), array_(array) {}

Status RowJsonSink::Begin(const RunInfo& info) {
  info_ = info;
  builder_ = std::make_unique<DocumentBuilder>(info_, RunMeta(), unit_.ns_per_unit);
  return Status();
}

void RowJsonSink::Format(const ScopeResult& r, std::string* out) const {
  builder_->AppendPercentiles(r, out);
  out->pop_back();  // reopen the object to add the unit
  *out += ",\"unit\":\"";
  *out += unit_.name;
  *out += "\"}\n";
}

Status RowJsonSink::Write(std::string_view row) {
  // In a JSON array, rows are separated by commas (one row per line still).
  const char* lead = array_ ? (first_ ? "[" : ",") : "";
  first_ = false;
  Status s = WriteText(out_, lead);
  return s.ok() ? WriteText(out_, row) : s;
}

Status RowJsonSink::End(const RunSummary&) {
  if (array_) {
    Status s = WriteText(out_, first_ ? "[]\n" : "]\n");
    if (!s.ok()) return s;
  }
  return FlushText(out_);
}

}  // namespace fiohist
