// Splitting file paths into directory and name, as text (no file system access; only
// NormalDirOf reads the working directory).
#pragma once

#include <string>

namespace fiohist {

/// The last component of `path`: what follows its last '/' (all of it when there is none).
/// Names a log's job and looks up --host mappings given by file name.
std::string BaseName(const std::string& path);

/// What precedes the last '/' of `path`, exactly as written (not normalised: "a//b" gives
/// "a/", "/b" gives ""), or `if_none` when `path` has no '/'. For comparing the directories
/// of paths spelled alike, such as a log's and its fio JSON output's.
std::string ParentPath(const std::string& path, const std::string& if_none = "");

/// The directory holding `path` as dirname(1) names it for a path without a trailing '/':
/// "." when there is no '/', "/" for an entry of the root. For building paths from it.
std::string DirName(const std::string& path);

/// The directory holding `path`, absolute (relative paths count from the working
/// directory) and lexically normalised: "./run/x", "run//x" and "$PWD/run/x" all give
/// "$PWD/run". Symbolic links are not resolved. For telling whether two paths share a
/// directory however they were spelt.
std::string NormalDirOf(const std::string& path);

}  // namespace fiohist
