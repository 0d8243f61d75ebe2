#include "log/log_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/open_files.h"
#include "log/gzip_inflater.h"

namespace fiohist {
namespace {

// Two fio3 lines (about 6 KB each); grows for longer lines. Small, because thousands of
// logs are read at once.
constexpr size_t kInitialBuffer = 16 * 1024;
// Compressed bytes read at a time: a few records' worth (a gzipped fio3 record is under
// 1 KB), so thousands of open .gz logs stay affordable.
constexpr size_t kGzInput = 8 * 1024;

// Opens `path` for reading; the reason in `*why` on failure.
int OpenForReading(const std::string& path, std::string* why) {
  int fd;
  do {
    fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int e = errno;
    *why = "cannot open: " +
           (e == EMFILE || e == ENFILE ? TooManyOpenFiles(e) : std::string(std::strerror(e)));
  }
  return fd;
}

}  // namespace

// The inflater and its input; several members follow each other as gunzip reads them, and
// anything after a member that is not another gzip header is ignored (as zlib's gzread
// does).
struct LogReader::GzState {
  GzipInflater inflater;
  std::vector<unsigned char> in = std::vector<unsigned char>(kGzInput);
  bool raw_eof = false;     // the file has no more bytes
  bool member_end = false;  // the last member ended; another may follow
  bool done = false;        // no more output
};

LogReader::LogReader(std::string path) : path_(std::move(path)) {}

LogReader::~LogReader() {
  if (fd_ >= 0) close(fd_);
  if (holds_slot_) ReleaseOpenFile();
}

Status LogReader::Open(const std::string& path, std::unique_ptr<LogReader>* reader) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    return Status::InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) {
    return Status::InputError(path, 0, "is a directory, expected a fio histogram log file");
  }
  std::string why;
  const int fd = OpenForReading(path, &why);
  if (fd < 0) return Status::InputError(path, 0, why);
  std::unique_ptr<LogReader> r(new LogReader(path));
  if (fstat(fd, &st) == 0) {
    r->dev_ = static_cast<unsigned long long>(st.st_dev);
    r->ino_ = static_cast<unsigned long long>(st.st_ino);
  }
  unsigned char magic[2] = {0, 0};
  const ssize_t n = pread(fd, magic, 2, 0);
  if (TryHoldOpenFile()) {
    r->fd_ = fd;
    r->holds_slot_ = true;
  } else {
    close(fd);  // opened again for each read
  }
  if (n == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
    r->gz_ = std::make_unique<GzState>();
  }
  r->buffer_.resize(kInitialBuffer);
  *reader = std::move(r);
  return Status();
}

long LogReader::ReadRaw(char* dst, size_t n) {
  int fd = fd_;
  if (fd < 0) {
    std::string why;
    fd = OpenForReading(path_, &why);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || static_cast<unsigned long long>(st.st_dev) != dev_ ||
                    static_cast<unsigned long long>(st.st_ino) != ino_)) {
      close(fd);
      fd = -1;
      why = "was replaced by another file while being read";
    }
    if (fd < 0) {
      status_ = Status::InputError(path_, line_number_ + 1, why);
      return -1;
    }
  }
  ssize_t got;
  do {
    got = pread(fd, dst, n, static_cast<off_t>(raw_offset_));
  } while (got < 0 && errno == EINTR);
  const int e = errno;
  if (fd != fd_) close(fd);
  if (got < 0) {
    status_ = Status::InputError(path_, line_number_ + 1,
                                 std::string("read error: ") + std::strerror(e));
    return -1;
  }
  raw_offset_ += got;
  if (counted_ != nullptr) {
    counted_->fetch_add(static_cast<uint64_t>(got), std::memory_order_relaxed);
  }
  return static_cast<long>(got);
}

long LogReader::Inflate(size_t room) {
  GzState& g = *gz_;
  GzipInflater& z = g.inflater;
  size_t made = 0;
  std::string error;
  bool stuck = false;  // the last call took no input and made no output
  while (made == 0 && !g.done) {
    if ((z.avail_in() < 2 || stuck) && !g.raw_eof) {
      // Keep what is left (half of the next member's magic, or bytes the inflater wants
      // more after) in front of what is read, and the few before it it may hand back.
      const size_t at = z.next_in() ? static_cast<size_t>(z.next_in() - g.in.data()) : 0;
      const size_t behind = std::min(at, GzipInflater::kGiveBack);
      const size_t kept = behind + z.avail_in();
      if (kept == g.in.size()) g.in.resize(g.in.size() * 2);
      std::memmove(g.in.data(), g.in.data() + at - behind, kept);
      const long got =
          ReadRaw(reinterpret_cast<char*>(g.in.data()) + kept, g.in.size() - kept);
      if (got < 0) return -1;
      if (got == 0) g.raw_eof = true;
      z.SetInput(g.in.data() + behind, kept - behind + static_cast<size_t>(got));
    }
    if (g.member_end) {
      if (z.avail_in() == 0 && g.raw_eof) {
        g.done = true;
      } else if (z.avail_in() >= 2 && z.next_in()[0] == 0x1f && z.next_in()[1] == 0x8b) {
        z.Reset();
        g.member_end = false;
      } else if (z.avail_in() >= 2 || g.raw_eof) {
        g.done = true;  // trailing bytes that are not a gzip member: ignored, as gunzip warns
      }
      continue;
    }
    if ((z.avail_in() == 0 || stuck) && g.raw_eof) {
      error = "unexpected end of file";
      break;
    }
    const size_t before = z.avail_in();
    const GzipInflater::Result r = z.Inflate(buffer_.data() + end_, room, &made, &error);
    if (r == GzipInflater::Result::kMemberEnd) g.member_end = true;
    if (r == GzipInflater::Result::kError) break;
    stuck = made == 0 && z.avail_in() == before && r == GzipInflater::Result::kOk;
  }
  if (!error.empty()) {
    // What the call that met damaged data made is not used (a bad check value says the
    // member's last bytes are wrong; zlib's gzread drops them too).
    g.done = true;
    status_ = Status::InputError(path_, line_number_ + 1, "bad gzip data: " + error);
    return -1;
  }
  return static_cast<long>(made);
}

bool LogReader::Fill() {
  if (eof_) return false;
  // Keep the unread tail, make room after it.
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
  const size_t room = buffer_.size() - end_;
  const long got = gz_ ? Inflate(room) : ReadRaw(buffer_.data() + end_, room);
  if (got <= 0) {
    eof_ = true;
    return false;
  }
  end_ += static_cast<size_t>(got);
  return true;
}

bool LogReader::NextLine(std::string_view* line) {
  if (end_limit_ >= 0 && bytes_read_ >= end_limit_) return false;
  size_t scanned = begin_;
  for (;;) {
    const char* start = buffer_.data() + begin_;
    const void* nl = std::memchr(buffer_.data() + scanned, '\n', end_ - scanned);
    if (nl != nullptr) {
      const char* stop = static_cast<const char*>(nl);
      size_t len = static_cast<size_t>(stop - start);
      bytes_read_ += static_cast<long long>(len) + 1;
      begin_ += len + 1;
      if (len > 0 && start[len - 1] == '\r') --len;
      *line = std::string_view(start, len);
      ++line_number_;
      return true;
    }
    const size_t tail = end_ - begin_;
    if (!Fill()) {
      if (!status_.ok()) return false;
      if (end_ > begin_) {
        // A last line without '\n'.
        const char* s = buffer_.data() + begin_;
        size_t len = end_ - begin_;
        bytes_read_ += static_cast<long long>(len);
        begin_ = end_;
        if (len > 0 && s[len - 1] == '\r') --len;
        *line = std::string_view(s, len);
        unterminated_ = true;
        ++line_number_;
        return true;
      }
      return false;
    }
    scanned = begin_ + tail;  // Fill() moved the tail to the front
  }
}

bool LogReader::SkipTo(long long offset, long long lines) {
  if (gz_) return false;
  raw_offset_ = offset;
  begin_ = end_ = 0;
  eof_ = false;
  unterminated_ = false;
  line_number_ = lines;
  bytes_read_ = offset;
  return true;
}

}  // namespace fiohist
