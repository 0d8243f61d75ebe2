#include "cli/command_progress.h"

#include <sys/stat.h>

#include <algorithm>

namespace fiohist {

uint64_t InputBytes(const std::vector<std::string>& paths) {
  uint64_t total = 0;
  for (const std::string& p : paths) {
    struct stat st {};
    if (stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      total += static_cast<uint64_t>(st.st_size);
    }
  }
  return total;
}

void CommandProgress::StartReading(const std::vector<std::string>& inputs, bool fio_json,
                                   const std::atomic<uint64_t>* indexed) {
  Stop();
  if (!enabled_ || fio_json) return;
  const uint64_t total = InputBytes(inputs);
  const uint64_t start = InputBytesRead().load();
  meter_ = std::make_unique<ProgressMeter>(stderr, true, [=](double elapsed) {
    std::string line =
        "reading: " + ProgressText(InputBytesRead().load() - start, total, elapsed, true, "");
    if (indexed != nullptr) line += "; " + std::to_string(indexed->load()) + " documents indexed";
    return line;
  });
}

void CommandProgress::StartIndexing(uint64_t total, const std::atomic<uint64_t>* indexed) {
  Stop();
  if (!enabled_) return;
  const uint64_t start = indexed->load();
  meter_ = std::make_unique<ProgressMeter>(stderr, true, [=](double elapsed) {
    // The count includes what went in while reading; the rate and time left are this
    // phase's.
    const uint64_t now = std::min(indexed->load(), total);
    std::string line = "indexing: " + ProgressText(now, total, 0, false, "documents");
    const double rate = elapsed > 0 ? static_cast<double>(now - std::min(now, start)) / elapsed : 0;
    if (rate > 0) {
      line += ", " + std::to_string(static_cast<unsigned long long>(rate)) + " documents/s";
      if (now < total) {
        line += ", " + std::to_string(static_cast<unsigned long long>(
                           static_cast<double>(total - now) / rate + 0.999)) + " s left";
      }
    }
    return line;
  });
}

void CommandProgress::StartReadBack(const BucketReadProgress* progress, const std::string& what) {
  Stop();
  if (!enabled_) return;
  const std::string lead = what.empty() ? "reading back: " : "reading back " + what + ": ";
  meter_ = std::make_unique<ProgressMeter>(stderr, true, [=](double elapsed) {
    return lead + ProgressText(progress->documents.load(), progress->total.load(), elapsed, false,
                               "bucket documents");
  });
}

void CommandProgress::Stop() {
  if (meter_) meter_->Stop();
  meter_.reset();
}

}  // namespace fiohist
