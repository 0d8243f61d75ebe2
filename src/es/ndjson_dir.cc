#include "es/ndjson_dir.h"

#include <rapidjson/document.h>
#include <zlib.h>
#ifdef FIOHIST_GZIP_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <string_view>
#include <vector>

namespace fiohist {

namespace fs = std::filesystem;

std::string NdjsonFileName(int n, bool gzip) {
  char name[32];
  std::snprintf(name, sizeof(name), "bulk-%06d.ndjson%s", n, gzip ? ".gz" : "");
  return name;
}

namespace {

// A bulk file by its name: "*.ndjson" or "*.ndjson.gz".
bool IsBulkFile(const std::string& name, bool* gzip) {
  auto ends = [&name](const char* tail) {
    const size_t n = std::char_traits<char>::length(tail);
    return name.size() > n && name.compare(name.size() - n, n, tail) == 0;
  };
  *gzip = ends(".ndjson.gz");
  return *gzip || ends(".ndjson");
}

}  // namespace

// One gzip stream into the open file `out`: ISA-L's deflate where fiohist has ISA-L (5x less
// CPU than zlib's level 1 at a slightly better ratio, bench/README.md), else zlib's.
class NdjsonDirWriter::Deflater {
 public:
  Deflater(std::ofstream* out, int level) : out_(out) {
#ifdef FIOHIST_GZIP_ISAL
    isal_deflate_init(&s_);
    // igzip has levels 0..3: 1 for fiohist's 1..5, 3 above.
    s_.level = level <= 5 ? 1 : 3;
    level_buf_.resize(level <= 5 ? ISAL_DEF_LVL1_DEFAULT : ISAL_DEF_LVL3_DEFAULT);
    s_.level_buf = level_buf_.data();
    s_.level_buf_size = static_cast<uint32_t>(level_buf_.size());
    s_.gzip_flag = IGZIP_GZIP;
    s_.flush = NO_FLUSH;
#else
    ok_ = deflateInit2(&s_, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
#endif
  }
  ~Deflater() {
#ifndef FIOHIST_GZIP_ISAL
    if (ok_) deflateEnd(&s_);
#endif
  }
  // Compresses `data` (the end of the stream when `last`) into the file.
  bool Write(const std::string& data, bool last) {
    if (!ok_) return false;
    unsigned char buf[1 << 16];
#ifdef FIOHIST_GZIP_ISAL
    s_.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(data.data()));
    s_.avail_in = static_cast<uint32_t>(data.size());
    s_.end_of_stream = last ? 1 : 0;
    do {
      s_.next_out = buf;
      s_.avail_out = sizeof buf;
      if (isal_deflate(&s_) != COMP_OK) return ok_ = false;
      out_->write(reinterpret_cast<char*>(buf),
                  static_cast<std::streamsize>(sizeof buf - s_.avail_out));
    } while (s_.avail_in > 0 || (last && s_.internal_state.state != ZSTATE_END));
#else
    s_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    s_.avail_in = static_cast<uInt>(data.size());
    int rc;
    do {
      s_.next_out = buf;
      s_.avail_out = sizeof buf;
      rc = deflate(&s_, last ? Z_FINISH : Z_NO_FLUSH);
      if (rc == Z_STREAM_ERROR) return ok_ = false;
      out_->write(reinterpret_cast<char*>(buf),
                  static_cast<std::streamsize>(sizeof buf - s_.avail_out));
    } while (s_.avail_in > 0 || (last && rc != Z_STREAM_END));
#endif
    return static_cast<bool>(*out_);
  }

 private:
  std::ofstream* out_;
  bool ok_ = true;
#ifdef FIOHIST_GZIP_ISAL
  isal_zstream s_;
  std::vector<uint8_t> level_buf_;
#else
  z_stream s_{};
#endif
};

NdjsonDirWriter::NdjsonDirWriter(std::string dir, size_t max_file_bytes, int gzip_level)
    : dir_(std::move(dir)), max_file_bytes_(max_file_bytes), gzip_level_(gzip_level) {}

NdjsonDirWriter::~NdjsonDirWriter() { Close(); }

Status NdjsonDirWriter::Open() {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return Status::Error("cannot create directory " + dir_ + ": " + ec.message());
  for (const fs::directory_entry& entry : fs::directory_iterator(dir_, ec)) {
    std::string name = entry.path().filename().string();
    bool gzip = false;
    if (name.rfind("bulk-", 0) == 0 && IsBulkFile(name, &gzip)) {
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
  path_ = dir_ + "/" + NdjsonFileName(file_number_, gzip_level_ > 0);
  out_.open(path_, std::ios::binary | std::ios::trunc);
  if (!out_) return Status::Error("cannot write " + path_);
  if (gzip_level_ > 0) deflater_ = std::make_unique<Deflater>(&out_, gzip_level_);
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

Status NdjsonDirWriter::WritePending(bool last) {
  if (deflater_) {
    const bool ok = deflater_->Write(pending_, last);
    pending_.clear();
    return ok ? Status() : Status::Error("write error on " + path_);
  }
  out_.write(pending_.data(), static_cast<std::streamsize>(pending_.size()));
  pending_.clear();
  if (!out_) return Status::Error("write error on " + path_);
  return Status();
}

Status NdjsonDirWriter::Close() {
  if (!out_.is_open()) return Status();
  Status st = WritePending(true);
  deflater_.reset();
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

namespace {

// The whole content of `file` (a bulk file is one `_bulk` body: megabytes), inflated when
// `gzip`.
Status ReadBulkFile(const std::string& file, bool gzip, std::string* text) {
  text->clear();
  if (!gzip) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return Status::Error("cannot read " + file);
    text->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) return Status::Error("read error on " + file);
    return Status();
  }
  gzFile gz = gzopen(file.c_str(), "rb");
  if (gz == nullptr) return Status::Error("cannot read " + file);
  gzbuffer(gz, 256 * 1024);
  char block[1 << 16];
  int n;
  while ((n = gzread(gz, block, sizeof block)) > 0) text->append(block, static_cast<size_t>(n));
  // A file cut short ends reads with Z_BUF_ERROR ("unexpected end of file"), not n < 0.
  int err = Z_OK;
  const char* message = gzerror(gz, &err);
  const std::string why = message != nullptr ? message : "";
  gzclose(gz);
  if (n < 0 || err != Z_OK) return Status::Error("cannot inflate " + file + ": " + why);
  return Status();
}

}  // namespace

Status ReadNdjsonDir(const std::string& dir, const std::function<Status(BulkAction)>& sink) {
  std::error_code ec;
  std::vector<std::string> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    bool gzip = false;
    if (entry.is_regular_file() && IsBulkFile(entry.path().filename().string(), &gzip)) {
      files.push_back(entry.path().string());
    }
  }
  if (ec) return Status::Error("cannot list directory " + dir + ": " + ec.message());
  if (files.empty()) return Status::Error("no .ndjson or .ndjson.gz files in " + dir);
  std::sort(files.begin(), files.end());
  std::string text;
  for (const std::string& file : files) {
    bool gzip = false;
    IsBulkFile(file, &gzip);
    Status st = ReadBulkFile(file, gzip, &text);
    if (!st.ok()) return st;
    std::string_view rest(text);
    // The next line of `rest` (without its newline); false at the end.
    auto next_line = [&rest](std::string_view* line) {
      if (rest.empty()) return false;
      const size_t nl = rest.find('\n');
      *line = rest.substr(0, nl);
      rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
      return true;
    };
    std::string_view line;
    long long line_no = 0;
    while (next_line(&line)) {
      ++line_no;
      if (line.empty()) continue;
      BulkAction action;
      bool has_source = false;
      st = ParseActionLine(file, line_no, std::string(line), &action, &has_source);
      if (!st.ok()) return st;
      if (has_source) {
        std::string_view source;
        if (!next_line(&source)) {
          return Status::InputError(file, line_no, "action line without a document line");
        }
        ++line_no;
        if (source.empty() || source[0] != '{') {
          return Status::InputError(file, line_no, "document line is not a JSON object");
        }
        action.source.assign(source);
      }
      st = sink(std::move(action));
      if (!st.ok()) return st;
    }
  }
  return Status();
}

}  // namespace fiohist
