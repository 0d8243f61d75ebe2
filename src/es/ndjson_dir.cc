#include "es/ndjson_dir.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

namespace fiohist {

namespace fs = std::filesystem;

std::string NdjsonFileName(int n) {
  char name[32];
  std::snprintf(name, sizeof(name), "bulk-%06d.ndjson", n);
  return name;
}

Status NdjsonDirWriter::Open() {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return Status::Error("cannot create directory " + dir_ + ": " + ec.message());
  for (const fs::directory_entry& entry : fs::directory_iterator(dir_, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("bulk-", 0) == 0 && entry.path().extension() == ".ndjson") {
      fs::remove(entry.path(), ec);
      if (ec) return Status::Error("cannot remove old " + entry.path().string());
    }
  }
  if (ec) return Status::Error("cannot list directory " + dir_ + ": " + ec.message());
  return Status();
}

Status NdjsonDirWriter::StartFile() {
  Status st = Close();
  if (!st.ok()) return st;
  ++file_number_;
  path_ = dir_ + "/" + NdjsonFileName(file_number_);
  out_.open(path_, std::ios::binary | std::ios::trunc);
  if (!out_) return Status::Error("cannot write " + path_);
  file_bytes_ = 0;
  return Status();
}

Status NdjsonDirWriter::Add(const BulkAction& action) {
  Status st = lines_.Set(action);
  if (!st.ok()) return st;
  const size_t size = lines_.size();
  if (!out_.is_open() || (file_bytes_ > 0 && file_bytes_ + size > max_file_bytes_)) {
    st = StartFile();
    if (!st.ok()) return st;
  }
  // Written in blocks of kWriteBlock: the stream writes anything of 1 KiB or more at once,
  // and most documents are larger, so it would be a system call per document.
  lines_.AppendTo(&pending_);
  file_bytes_ += size;
  ++actions_;
  return pending_.size() >= kWriteBlock ? WritePending() : Status();
}

Status NdjsonDirWriter::WritePending() {
  out_.write(pending_.data(), static_cast<std::streamsize>(pending_.size()));
  pending_.clear();
  if (!out_) return Status::Error("write error on " + path_);
  return Status();
}

Status NdjsonDirWriter::Close() {
  if (!out_.is_open()) return Status();
  Status st = WritePending();
  out_.close();
  if (!st.ok()) return st;
  if (out_.fail()) return Status::Error("write error on " + path_);
  return Status();
}

namespace {

// Parses one action line into `action` (without source); `*has_source` for index/create.
Status ParseActionLine(const std::string& file, long long line_no, const std::string& line,
                       BulkAction* action, bool* has_source) {
  rapidjson::Document doc;
  doc.Parse(line.data(), line.size());
  if (doc.HasParseError() || !doc.IsObject() || doc.MemberCount() != 1) {
    return Status::InputError(file, line_no, "expected a bulk action line like {\"index\":{...}}");
  }
  std::string op = doc.MemberBegin()->name.GetString();
  const rapidjson::Value& meta = doc.MemberBegin()->value;
  if (op == "index" || op == "create") {
    action->op = BulkAction::Op::kIndex;
    *has_source = true;
  } else if (op == "delete") {
    action->op = BulkAction::Op::kDelete;
    *has_source = false;
  } else {
    return Status::InputError(file, line_no, "unsupported bulk action '" + op + "'");
  }
  if (!meta.IsObject() || !meta.HasMember("_index") || !meta["_index"].IsString()) {
    return Status::InputError(file, line_no, "bulk action without \"_index\"");
  }
  action->index = meta["_index"].GetString();
  action->id.clear();
  if (meta.HasMember("_id")) {
    if (!meta["_id"].IsString()) return Status::InputError(file, line_no, "_id is not a string");
    action->id = meta["_id"].GetString();
  }
  return Status();
}

}  // namespace

Status ReadNdjsonDir(const std::string& dir, const std::function<Status(BulkAction)>& sink) {
  std::error_code ec;
  std::vector<std::string> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".ndjson") {
      files.push_back(entry.path().string());
    }
  }
  if (ec) return Status::Error("cannot list directory " + dir + ": " + ec.message());
  if (files.empty()) return Status::Error("no .ndjson files in " + dir);
  std::sort(files.begin(), files.end());
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return Status::Error("cannot read " + file);
    std::string line;
    long long line_no = 0;
    while (std::getline(in, line)) {
      ++line_no;
      if (line.empty()) continue;
      BulkAction action;
      bool has_source = false;
      Status st = ParseActionLine(file, line_no, line, &action, &has_source);
      if (!st.ok()) return st;
      if (has_source) {
        if (!std::getline(in, action.source)) {
          return Status::InputError(file, line_no, "action line without a document line");
        }
        ++line_no;
        if (action.source.empty() || action.source[0] != '{') {
          return Status::InputError(file, line_no, "document line is not a JSON object");
        }
      }
      st = sink(std::move(action));
      if (!st.ok()) return st;
    }
    if (in.bad()) return Status::Error("read error on " + file);
  }
  return Status();
}

}  // namespace fiohist
