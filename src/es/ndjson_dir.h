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
//
// Compressed directories (what `push --out` writes by default): the same bodies as gzip files,
// bulk-000001.ndjson.gz ..., one gzip stream each (so `curl -H 'Content-Encoding: gzip'
// --data-binary @bulk-000001.ndjson.gz` works as well). The reader takes both, in one
// directory even, by name order.
#pragma once

#include <cstdint>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

#include "es/bulk_indexer.h"
#include "base/status.h"

namespace fiohist {

/// Uncompressed bytes of one bulk file (a good `_bulk` size).
inline constexpr size_t kBulkFileBytes = 5 * 1024 * 1024;

/// Writes actions as `_bulk` NDJSON files into a directory (created if missing). Existing
/// bulk-*.ndjson files there are removed first so a re-run never mixes two outputs.
class NdjsonDirWriter {
 public:
  /// A writer into `dir`; call Open() before Add(). With `gzip_level` 1..9 the files are
  /// gzip-compressed at that zlib level (0: plain). `max_file_bytes` counts uncompressed bytes.
  explicit NdjsonDirWriter(std::string dir, size_t max_file_bytes = kBulkFileBytes,
                           int gzip_level = 0);

  /// Writes what is pending (as the stream would); Close() is where its errors are seen.
  ~NdjsonDirWriter();
  NdjsonDirWriter(const NdjsonDirWriter&) = delete;
  NdjsonDirWriter& operator=(const NdjsonDirWriter&) = delete;

  /// Creates the directory and clears old bulk files (plain and compressed).
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
  // Writes pending_ (and, when `last`, ends the file's gzip stream).
  Status WritePending(bool last = false);
  int gzip_level_;
  std::ofstream out_;
  class Deflater;
  std::unique_ptr<Deflater> deflater_;  // the current file's gzip stream, when compressed
  std::string pending_;  // written to out_ once kWriteBlock bytes are there, and by Close()
  std::string path_;
  BulkLines lines_;  // the action being written
  size_t file_bytes_ = 0;
  int file_number_ = 0;
  uint64_t actions_ = 0;
};

/// Reads every *.ndjson and *.ndjson.gz file of `dir` in name order and calls `sink` with
/// each action. Errors name the file and line.
Status ReadNdjsonDir(const std::string& dir, const std::function<Status(BulkAction)>& sink);

/// The name of the n-th (1-based) file: "bulk-000001.ndjson" (with `gzip`, ".ndjson.gz").
std::string NdjsonFileName(int n, bool gzip = false);

/// The gzip level of `push --out`'s files, 1 (fast) to 9: ISA-L's igzip level 1 where fiohist
/// is built with ISA-L (3.9x smaller than plain NDJSON at 0.3 CPU s per 100 MB, measured on
/// the 4096-log shape's files), else zlib's level 1 (3.7x at 1.7 s): bench/README.md,
/// "Pushing at scale".
inline constexpr int kBulkFileGzipLevel = 1;

}  // namespace fiohist
