#include "row_json_sink.h"

#include <cerrno>
#include <cstring>

namespace fiohist {

RowJsonSink::RowJsonSink(std::FILE* out, LatencyUnit unit, RowSelection rows, bool array)
    : TableSink(rows), out_(out), unit_(std::move(unit)), array_(array) {}

Status RowJsonSink::Begin(const RunInfo& info) {
  info_ = info;
  builder_ = std::make_unique<DocumentBuilder>(info_, RunMeta(), unit_.ns_per_unit);
  return Status();
}

Status RowJsonSink::Row(const ScopeResult& r) {
  std::string doc = array_ ? (first_ ? "[" : ",") : "";
  first_ = false;
  doc += builder_->Percentiles(r);
  doc.pop_back();  // reopen the object to add the unit
  doc += ",\"unit\":\"" + unit_.name + "\"}\n";
  if (std::fwrite(doc.data(), 1, doc.size(), out_) != doc.size()) {
    return Status::Error(std::string("cannot write output: ") + std::strerror(errno));
  }
  return Status();
}

Status RowJsonSink::End(const RunSummary&) {
  if (array_ && std::fputs(first_ ? "[]\n" : "]\n", out_) < 0) {
    return Status::Error(std::string("cannot write output: ") + std::strerror(errno));
  }
  return std::fflush(out_) == 0 ? Status()
                                : Status::Error(std::string("cannot write output: ") +
                                                std::strerror(errno));
}

}  // namespace fiohist
