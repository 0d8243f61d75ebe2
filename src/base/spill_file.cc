#include "base/spill_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace fiohist {
namespace {

// Appends are written out in pieces of about this size.
constexpr size_t kWriteBuffer = 1 << 20;

}  // namespace

SpillFile::~SpillFile() {
  if (fd_ >= 0) close(fd_);
}

std::string SpillFile::Directory() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

Status SpillFile::Create() {
  const std::string dir = Directory();
  std::string name = dir + "/fiohist-spill-XXXXXX";
  std::vector<char> path(name.begin(), name.end());
  path.push_back('\0');
  fd_ = mkostemp(path.data(), O_CLOEXEC);
  if (fd_ < 0) {
    return Status::Error("cannot make a temporary file in " + dir + " (set TMPDIR): " +
                         std::strerror(errno));
  }
  unlink(path.data());
  return Status();
}

Status SpillFile::Append(const std::string& data) {
  buffer_ += data;
  return buffer_.size() >= kWriteBuffer ? WriteBuffer() : Status();
}

Status SpillFile::Flush() {
  Status s = WriteBuffer();
  std::string().swap(buffer_);
  return s;
}

Status SpillFile::WriteBuffer() {
  size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = pwrite(fd_, buffer_.data() + done, buffer_.size() - done,
                             static_cast<off_t>(written_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return Status::Error("cannot write a temporary file in " + Directory() +
                           " (set TMPDIR to a roomier one): " +
                           std::strerror(n < 0 ? errno : ENOSPC));
    }
    done += static_cast<size_t>(n);
  }
  written_ += done;
  buffer_.clear();
  return Status();
}

Status SpillFile::ReadAhead(uint64_t offset, size_t n, size_t ahead, std::string* out) const {
  if (offset + n < written_) {
    n += static_cast<size_t>(std::min<uint64_t>(ahead, written_ - offset - n));
  }
  out->resize(n);
  size_t done = 0;
  while (done < n) {
    const ssize_t got = pread(fd_, &(*out)[done], n - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      return Status::Error(std::string("cannot read back a temporary file in ") + Directory() +
                           ": " + (got < 0 ? std::strerror(errno) : "it is shorter than written"));
    }
    done += static_cast<size_t>(got);
  }
  return Status();
}

}  // namespace fiohist
