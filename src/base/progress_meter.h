// One line of progress on a terminal for long work (reading logs, pushing documents).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace fiohist {

/// Bytes of input the pipeline's log readers have read so far, process-wide (compressed
/// bytes for gzip: what the files' sizes add up to). Each log is counted once, by the reader
/// that streams it; probes and look-ahead readers do not count.
std::atomic<uint64_t>& InputBytesRead();

/// "1.2 GB of 3.4 GB (35%), 410 MB/s, 5 s left": `done` of `total` (0: not known yet) at
/// the rate of `elapsed_s`, in bytes (`bytes`) or as a count of `unit` ("documents").
std::string ProgressText(uint64_t done, uint64_t total, double elapsed_s, bool bytes,
                         const std::string& unit);

/// Redraws one line on `out` (`\r`, the text of `line`, erase to the end of the line) every
/// quarter second from a thread of its own, once the work has lasted `after_ms` (default
/// 1 s: short work shows nothing; FIOHIST_PROGRESS_AFTER_MS overrides it, the tests use 0);
/// when stopped, draws it a last time and ends it with a newline (the totals and the rate
/// stay on screen; nothing when it never showed). Does nothing
/// when disabled: stderr is not a terminal, or --quiet.
class ProgressMeter {
 public:
  /// `line(elapsed_s)` makes the text; it is called on the meter's thread, so it may only
  /// read atomics and what does not change while the meter runs.
  ProgressMeter(std::FILE* out, bool enabled, std::function<std::string(double)> line);
  ~ProgressMeter();
  ProgressMeter(const ProgressMeter&) = delete;
  ProgressMeter& operator=(const ProgressMeter&) = delete;

  /// Draws the line a last time and ends it (when the work lasted long enough to show it).
  /// Idempotent.
  void Stop();

  /// True when progress should show on stderr: it is a terminal and `quiet` is false.
  static bool WantedOnStderr(bool quiet);

 private:
  void Run();
  void Draw(double elapsed_s);

  std::FILE* out_;
  std::function<std::string(double)> line_;
  int64_t after_ms_ = 1000;
  bool drawn_ = false;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace fiohist
