#include "log/log_tail.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <string_view>

#include "log/log_line.h"
#include "log/log_reader.h"

namespace fiohist {
namespace {

// A gzip stream has no index to seek by: its last record is found by inflating it all (with
// the readers' own inflater; a few ms per MB of log).
bool ReadLastStampInflating(const std::string& path, int64_t* time_ms) {
  std::unique_ptr<LogReader> reader;
  if (!LogReader::Open(path, &reader).ok()) return false;
  bool found = false;
  std::string_view line;
  Direction direction;
  int64_t t = 0;
  while (reader->NextLine(&line)) {
    // A cut last line (fio killed mid-write) is not a record.
    if (reader->last_line_unterminated()) break;
    if (ParseRecordHead(line, &t, &direction)) {
      *time_ms = t;
      found = true;
    }
  }
  return found && reader->status().ok();
}

}  // namespace

bool ReadLastStamp(const std::string& path, int64_t* time_ms) {
  constexpr off_t kTail = 64 * 1024;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  std::string buf;
  bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  unsigned char magic[2] = {0, 0};
  const bool gzip = ok && ::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  ok = ok && !gzip;
  if (ok) {
    const off_t from = st.st_size > kTail ? st.st_size - kTail : 0;
    buf.resize(static_cast<size_t>(st.st_size - from));
    ok = ::pread(fd, &buf[0], buf.size(), from) == static_cast<ssize_t>(buf.size());
  }
  ::close(fd);
  // gzip's magic bytes (checked above): the tail of a compressed log says nothing.
  if (!ok) return gzip && ReadLastStampInflating(path, time_ms);
  size_t end = buf.rfind('\n');  // the last complete line ends here
  while (end != std::string::npos && end > 0) {
    const size_t start = buf.rfind('\n', end - 1);
    const size_t first = start == std::string::npos ? 0 : start + 1;
    // The tail's first line may be cut: only lines after a newline are whole.
    if (start == std::string::npos && buf.size() == static_cast<size_t>(kTail)) return false;
    Direction direction;
    if (ParseRecordHead(std::string_view(buf).substr(first, end - first), time_ms, &direction)) {
      return true;
    }
    if (start == std::string::npos) return false;
    end = start;
  }
  return false;
}

}  // namespace fiohist
