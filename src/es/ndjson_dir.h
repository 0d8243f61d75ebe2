// A directory of `_bulk` request bodies: what `fiohist push` writes without --es-url, and what
// `fiohist load DIR` sends.
//
// Format: files named bulk-000001.ndjson, bulk-000002.ndjson, ... (read back in name order).
// Each file is a complete `_bulk` body that Elasticsearch accepts as is:
//   {"index":{"_index":"fiohist-pctiles","_id":"<id>"}}\n<document JSON on one line>\n
//   {"delete":{"_index":"fiohist-runs","_id":"<id>"}}\n
// so `curl -H 'Content-Type: application/x-ndjson' --data-binary @bulk-000001.ndjson
// URL/_bulk` works too (push's files then keep both forms of the bucket counts, which
// `fiohist load` reduces to what its server takes: BucketFormChooser). A file holds at most `max_file_bytes` (default 5 MiB, a good `_bulk`
// size) unless one document alone is larger; a document never spans two files.
#pragma once

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>

#include "es/bulk_indexer.h"
#include "base/status.h"

namespace fiohist {

/// Writes actions as `_bulk` NDJSON files into a directory (created if missing). Existing
/// bulk-*.ndjson files there are removed first so a re-run never mixes two outputs.
class NdjsonDirWriter {
 public:
  /// A writer into `dir`; call Open() before Add().
  explicit NdjsonDirWriter(std::string dir, size_t max_file_bytes = 5 * 1024 * 1024)
      : dir_(std::move(dir)), max_file_bytes_(max_file_bytes) {}

  /// Writes what is pending (as the stream would); Close() is where its errors are seen.
  ~NdjsonDirWriter() { Close(); }
  NdjsonDirWriter(const NdjsonDirWriter&) = delete;
  NdjsonDirWriter& operator=(const NdjsonDirWriter&) = delete;

  /// Creates the directory and clears old bulk files.
  Status Open();
  /// Appends one action.
  Status Add(const BulkAction& action);
  /// Flushes and closes the current file.
  Status Close();

  uint64_t actions() const { return actions_; }  ///< actions written so far
  int files() const { return file_number_; }     ///< files started so far

 private:
  Status StartFile();
  std::string dir_;
  size_t max_file_bytes_;
  static constexpr size_t kWriteBlock = 1 << 20;
  Status WritePending();
  std::ofstream out_;
  std::string pending_;  // written to out_ once kWriteBlock bytes are there, and by Close()
  std::string path_;
  BulkLines lines_;  // the action being written
  size_t file_bytes_ = 0;
  int file_number_ = 0;
  uint64_t actions_ = 0;
};

/// Reads every bulk-*.ndjson (or *.ndjson) file of `dir` in name order and calls `sink` with
/// each action. Errors name the file and line.
Status ReadNdjsonDir(const std::string& dir, const std::function<Status(BulkAction)>& sink);

/// The name of the n-th (1-based) file: "bulk-000001.ndjson".
std::string NdjsonFileName(int n);

}  // namespace fiohist
