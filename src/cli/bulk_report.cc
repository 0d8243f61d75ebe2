#include "cli/bulk_report.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace fiohist {

std::string FormatBulkSummary(const BulkStats& stats) {
  return "indexed " + std::to_string(stats.indexed) + ", retried " + std::to_string(stats.retried) +
         ", failed " + std::to_string(stats.failed);
}

void PrintBulkErrors(const BulkStats& stats) {
  for (const BulkItemError& e : stats.errors) {
    std::cerr << "  " << e.index << "/" << e.id << ": ";
    if (e.status != 0) std::cerr << "HTTP " << e.status << ": ";
    std::cerr << e.reason << "\n";
  }
  if (stats.failed > stats.errors.size()) {
    std::cerr << "  ... and " << (stats.failed - stats.errors.size()) << " more failures\n";
  }
}

std::function<void(const BulkStats&)> MakeBulkProgress() {
  if (!isatty(STDERR_FILENO)) return {};
  return [](const BulkStats& s) {
    std::fprintf(
        stderr, "\r  indexed %llu, deleted %llu, retried %llu, failed %llu ",
        static_cast<unsigned long long>(s.indexed), static_cast<unsigned long long>(s.deleted),
        static_cast<unsigned long long>(s.retried), static_cast<unsigned long long>(s.failed));
    std::fflush(stderr);
  };
}

std::function<void(const BulkStats&)> CountIndexed(std::atomic<uint64_t>* indexed) {
  return [indexed](const BulkStats& s) { indexed->store(s.indexed); };
}

}  // namespace fiohist
