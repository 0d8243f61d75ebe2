// How the commands that send documents report on them: the summary line, the kept item
// errors, a progress line.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "es/bulk_indexer.h"

namespace fiohist {

/// "indexed N, retried R, failed F" (the summary line of load and push).
std::string FormatBulkSummary(const BulkStats& stats);

/// Prints the kept item errors ("  INDEX/ID: HTTP S: reason") and, if more failed, how many
/// more, to stderr.
void PrintBulkErrors(const BulkStats& stats);

/// A progress callback (QueuedIndexer, BulkIndexer::set_progress) that redraws one stderr
/// line, or an empty function when stderr is not a terminal.
std::function<void(const BulkStats&)> MakeBulkProgress();

/// A progress callback that only keeps the count of indexed documents in `*indexed`, for a
/// command that draws its own progress line (push: CommandProgress).
std::function<void(const BulkStats&)> CountIndexed(std::atomic<uint64_t>* indexed);

}  // namespace fiohist
