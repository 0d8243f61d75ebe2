// Splitting file paths into directory and name, as text (no file system access).
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

}  // namespace fiohist
