// Explicit error results, in the leveldb style: no exceptions cross module boundaries.
#pragma once

#include <string>
#include <utility>

namespace fiohist {

/// The outcome of an operation: ok, or an error message meant for a human. Messages about
/// input name the file and line ("FILE:LINE: what was expected, what was found").
class Status {
 public:
  /// A successful result.
  Status() = default;
  /// A failed result with `message`.
  static Status Error(std::string message) { return Status(std::move(message)); }
  /// An error about `file` at 1-based `line` (0: the file as a whole).
  static Status InputError(const std::string& file, long long line, const std::string& what);

  bool ok() const { return !failed_; }
  const std::string& message() const { return message_; }

 private:
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}
  bool failed_ = false;
  std::string message_;
};

}  // namespace fiohist
