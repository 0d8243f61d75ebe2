#include "base/path.h"

#include <filesystem>
#include <system_error>

namespace fiohist {

std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string ParentPath(const std::string& path, const std::string& if_none) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? if_none : path.substr(0, slash);
}

std::string DirName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string NormalDirOf(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p(path);
  if (p.is_relative()) {
    std::error_code ec;
    const fs::path cwd = fs::current_path(ec);
    if (!ec) p = cwd / p;
  }
  std::string dir = p.lexically_normal().parent_path().string();
  return dir.empty() ? "." : dir;
}

}  // namespace fiohist
