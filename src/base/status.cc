#include "base/status.h"

namespace fiohist {

Status Status::InputError(const std::string& file, long long line, const std::string& what) {
  std::string where = file;
  if (line > 0) where += ":" + std::to_string(line);
  return Status(where + ": " + what);
}

}  // namespace fiohist
