// Choosing, at `fiohist load`, the form of the bucket documents that `push --out` wrote
// (BucketForm::kFile): the form a direct push to the same server would have written.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"

namespace fiohist {

/// Rewrites the bucket documents of `push --out` files into the form the receiving server
/// takes, byte for byte the document a direct push there writes (docs/documents.md):
/// - without the `histogram` type, a record-form document drops the scaled counts it
///   carries beside its records (the record form, exact); the rest stay compact as written;
/// - with it, every document carrying scaled counts becomes the histogram form: `latency`
///   {values: bucket midpoints in us, counts} from `bucket_runs` + `bucket_ios`, and a
///   record-form document drops its records and takes `samples` = counts / `latency_scale`.
/// Documents of any other form (an earlier fiohist's files) pass unchanged. The files are
/// fiohist's own output, so the fields are found by their text (push writes the bucket
/// fields last, in a fixed order), not by parsing every document.
class BucketFormChooser {
 public:
  /// For a server that has (`histogram`) or lacks the `histogram` field type.
  explicit BucketFormChooser(bool histogram) : histogram_(histogram) {}
  /// Rewrites the source of one bucket document in place. Errors say what was expected
  /// (the caller names the document).
  Status Choose(std::string* source);
  /// Documents rewritten so far.
  uint64_t rewritten() const { return rewritten_; }

 private:
  // ",<midpoint in us>" of each column of the layout `name`, made once per layout.
  Status Midpoints(const std::string& name, const std::vector<std::string>** mids);

  bool histogram_;
  uint64_t rewritten_ = 0;
  std::map<std::string, std::vector<std::string>> mids_;
};

}  // namespace fiohist
