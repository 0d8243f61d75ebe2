#include "base/file_write.h"

#include <cerrno>
#include <cstring>
#include <string>

namespace fiohist {
namespace {

Status WriteError() {
  return Status::Error(std::string("cannot write output: ") + std::strerror(errno));
}

}  // namespace

Status WriteText(std::FILE* out, std::string_view text) {
  if (!text.empty() && std::fwrite(text.data(), 1, text.size(), out) != text.size()) {
    return WriteError();
  }
  return Status();
}

Status FlushText(std::FILE* out) {
  // ferror: a buffered write that failed earlier (its return value unchecked) shows here.
  if (std::fflush(out) != 0 || std::ferror(out)) return WriteError();
  return Status();
}

}  // namespace fiohist
