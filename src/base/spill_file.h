// A temporary file that one writer appends to and any thread reads back at offsets.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"

namespace fiohist {

/// An anonymous temporary file in $TMPDIR (else /tmp): removed from the directory as soon
/// as it is made, so its data goes when the file is closed or the process ends, however it
/// ends. Appends are buffered (Flush() writes them out); reads use pread, so once flushed
/// any number of threads may read at once.
class SpillFile {
 public:
  SpillFile() = default;
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  /// Makes the file; a failure names the directory and the reason.
  Status Create();
  /// The offset at which the next Append() lands.
  uint64_t size() const { return written_ + buffer_.size(); }
  /// Appends `data` (written out by Flush() or when the buffer is full).
  Status Append(const std::string& data);
  /// Writes out what is buffered and frees the buffer (a later Append() makes it again):
  /// once written, the file costs no memory while it is read.
  Status Flush();
  /// Sets `*out` to the `n` bytes at `offset` (flushed ones).
  Status ReadAt(uint64_t offset, size_t n, std::string* out) const {
    return ReadAhead(offset, n, 0, out);
  }
  /// Sets `*out` to the `n` bytes at `offset` and up to `ahead` more, as far as the file
  /// goes: one system call for what the next reads will want.
  Status ReadAhead(uint64_t offset, size_t n, size_t ahead, std::string* out) const;
  /// The directory temporary files go to ($TMPDIR, else /tmp).
  static std::string Directory();

 private:
  // Writes out what is buffered, keeping the buffer.
  Status WriteBuffer();

  int fd_ = -1;
  uint64_t written_ = 0;  // bytes in the file
  std::string buffer_;    // bytes appended after them
};

}  // namespace fiohist
