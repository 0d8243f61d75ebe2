// Reading a log file line by line, plain or gzip-compressed, with line numbers.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace fiohist {

/// A buffered line source over one file. gzip input (magic 1f 8b, one member or several) is
/// inflated on the fly, straight into the line buffer; anything else is read as plain text.
/// Lines come without '\n' and without a trailing '\r' (CRLF files work). Memory is one
/// buffer that grows to the longest line, plus the inflate state and a small input buffer
/// for gzip. The file stays open between reads while the process's open-file budget
/// (base/open_files.h) allows; beyond it, each read opens the file (checked to be the same
/// one), reads at its offset and closes it, so any number of readers can exist at once.
class LogReader {
 public:
  ~LogReader();
  LogReader(const LogReader&) = delete;
  LogReader& operator=(const LogReader&) = delete;

  /// Opens `path`. Fails for missing files, directories and unreadable files; a failure
  /// names the reason (and, at the open-file limit, the numbers).
  static Status Open(const std::string& path, std::unique_ptr<LogReader>* reader);

  /// Sets `*line` to the next line (valid until the next call) and returns true; returns
  /// false at the end of the input or on an error (see status()).
  bool NextLine(std::string_view* line);

  /// The text read ahead and not yet returned as lines (up to the end set by set_end()),
  /// for a parser that finds a line's end itself (per_io_scan.h); may be short or empty
  /// where NextLine() would read more. ConsumeLine() then takes a line of it.
  std::string_view Buffered() const {
    size_t n = end_ - begin_;
    if (end_limit_ >= 0) {
      const long long left = end_limit_ - bytes_read_;
      n = left <= 0 ? 0 : std::min(n, static_cast<size_t>(left));
    }
    return std::string_view(buffer_.data() + begin_, n);
  }
  /// Takes the first `length` bytes of Buffered() and the '\n' after them as the next line
  /// (as if NextLine() had returned it).
  void ConsumeLine(size_t length) { ConsumeLines(length + 1, 1); }
  /// Takes the first `bytes` bytes of Buffered(), `lines` whole lines with their '\n', as
  /// if NextLine() had returned them (a parser's run of lines, counted once).
  void ConsumeLines(size_t bytes, long long lines) {
    begin_ += bytes;
    bytes_read_ += static_cast<long long>(bytes);
    line_number_ += lines;
  }

  /// 1-based number of the line last returned.
  long long line_number() const { return line_number_; }
  /// True when the last line returned had no '\n' (fio was killed mid-write, or the
  /// file was truncated).
  bool last_line_unterminated() const { return unterminated_; }
  /// Ok, or the read/inflate error that ended the input early.
  const Status& status() const { return status_; }
  /// True when the file is gzip-compressed.
  bool compressed() const { return gz_ != nullptr; }
  const std::string& path() const { return path_; }
  /// Bytes of (uncompressed) text consumed so far.
  long long bytes_read() const { return bytes_read_; }
  /// Adds the bytes read from the file from now on (compressed ones for gzip) to `*counter`
  /// (progress: base/progress_meter.h). Not owned; may be null.
  void CountReadsInto(std::atomic<uint64_t>* counter) { counted_ = counter; }
  /// Continues a plain (not gzip) file at byte `offset` as if `lines` lines had been read:
  /// a second reader of the same file starts where another one is without re-reading.
  /// Returns false (and changes nothing) for gzip input, which cannot seek.
  bool SkipTo(long long offset, long long lines);
  /// Ends the input at byte `end` of the (uncompressed) text: NextLine() returns false once
  /// that many bytes were read (one job's segment of a per_job_logs=0 file). -1: no end.
  void set_end(long long end) { end_limit_ = end; }

 private:
  explicit LogReader(std::string path);
  // Reads more input after the unread tail; returns false at end or error.
  bool Fill();
  // Fill's gzip step: inflates into buffer_[end_, end_ + room); the bytes made, 0 at the
  // end of the input, -1 on an error (in status_).
  long Inflate(size_t room);
  // Reads up to `n` bytes of the file at raw_offset_ (opening it for this read when it is
  // not held open); -1 on an error (in status_).
  long ReadRaw(char* dst, size_t n);

  std::string path_;
  int fd_ = -1;              // the file held open, or -1 when it is opened for each read
  bool holds_slot_ = false;  // fd_ counts against the open-file budget
  unsigned long long dev_ = 0, ino_ = 0;  // the file's identity, checked when reopened
  long long raw_offset_ = 0;              // next byte of the file to read
  struct GzState;
  std::unique_ptr<GzState> gz_;
  std::vector<char> buffer_;
  size_t begin_ = 0;  // first unread byte
  size_t end_ = 0;    // one past the last valid byte
  bool eof_ = false;
  bool unterminated_ = false;
  long long line_number_ = 0;
  long long bytes_read_ = 0;
  long long end_limit_ = -1;
  Status status_;
  std::atomic<uint64_t>* counted_ = nullptr;
};

}  // namespace fiohist
