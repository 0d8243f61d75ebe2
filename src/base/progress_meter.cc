#include "base/progress_meter.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>

namespace fiohist {

std::atomic<uint64_t>& InputBytesRead() {
  static std::atomic<uint64_t> bytes{0};
  return bytes;
}

namespace {

std::string Amount(double v, bool bytes) {
  if (!bytes) return std::to_string(static_cast<unsigned long long>(v));
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (v >= 1000 && u < 4) {
    v /= 1000;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return text;
}

std::string Duration(double s) {
  char text[32];
  if (s < 90) {
    std::snprintf(text, sizeof text, "%.0f s", std::ceil(s));
  } else if (s < 5400) {
    std::snprintf(text, sizeof text, "%.0f min", std::ceil(s / 60));
  } else {
    std::snprintf(text, sizeof text, "%.1f h", s / 3600);
  }
  return text;
}

}  // namespace

std::string ProgressText(uint64_t done, uint64_t total, double elapsed_s, bool bytes,
                         const std::string& unit) {
  const std::string suffix = unit.empty() ? "" : " " + unit;
  if (total > 0 && done > total) done = total;  // a file that grew while read
  std::string text = Amount(static_cast<double>(done), bytes);
  if (total > 0) {
    text += " of " + Amount(static_cast<double>(total), bytes) + suffix + " (" +
            std::to_string(100 * done / total) + "%)";
  } else {
    text += suffix;
  }
  if (elapsed_s > 0 && done > 0) {
    const double rate = static_cast<double>(done) / elapsed_s;
    text += ", " + Amount(rate, bytes) + (bytes ? "/s" : suffix + "/s");
    if (total > 0 && done < total) {
      text += ", " + Duration(static_cast<double>(total - done) / rate) + " left";
    }
  }
  return text;
}

bool ProgressMeter::WantedOnStderr(bool quiet) { return !quiet && isatty(STDERR_FILENO) == 1; }

ProgressMeter::ProgressMeter(std::FILE* out, bool enabled,
                             std::function<std::string(double)> line)
    : out_(out), line_(std::move(line)), start_(std::chrono::steady_clock::now()) {
  if (!enabled) {
    stop_ = true;
    return;
  }
  if (const char* after = std::getenv("FIOHIST_PROGRESS_AFTER_MS")) after_ms_ = std::atoll(after);
  thread_ = std::thread([this] { Run(); });
}

ProgressMeter::~ProgressMeter() { Stop(); }

void ProgressMeter::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    cv_.wait_for(lock, std::chrono::milliseconds(250));
    if (stop_) break;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (elapsed * 1000 >= static_cast<double>(after_ms_)) Draw(elapsed);
  }
}

void ProgressMeter::Draw(double elapsed_s) {
  std::fprintf(out_, "\r%s\033[K", line_(elapsed_s).c_str());
  std::fflush(out_);
  drawn_ = true;
}

void ProgressMeter::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_ && !thread_.joinable()) return;
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (!line_) return;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (elapsed * 1000 >= static_cast<double>(after_ms_)) Draw(elapsed);
  if (drawn_) {
    std::fprintf(out_, "\n");
    std::fflush(out_);
  }
  line_ = nullptr;
}

}  // namespace fiohist
