#include "log/latency_choice.h"

#include <map>

namespace fiohist {
namespace {

// The kinds of log one job can have, in the order they are preferred after the chosen one.
enum Kind { kPerIoLat, kPerIoClat, kPerIoSlat, kHist, kKinds };

const char* KindText(int k) {
  switch (k) {
    case kPerIoLat:
      return "per-I/O lat";
    case kPerIoClat:
      return "per-I/O clat";
    case kPerIoSlat:
      return "per-I/O slat";
    default:
      return "histogram (clat)";
  }
}

int PerIoKind(Latency l) {
  return l == Latency::kLat ? kPerIoLat : l == Latency::kClat ? kPerIoClat : kPerIoSlat;
}

std::string Plural(int n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? " log" : " logs");
}

}  // namespace

Status SelectLatencyLogs(const std::vector<std::string>& paths, const LatencyChoice& choice,
                         LatencySelection* out) {
  out->paths.clear();
  out->notes.clear();
  struct Job {
    std::vector<std::string> files[kKinds];
    size_t first = 0;  // position of its first file among the paths (keeps their order)
  };
  std::map<std::string, Job> jobs;
  // Each path's job (empty: passes through) and kind, to emit the kept ones in order.
  std::vector<std::pair<std::string, int>> of(paths.size());
  int bandwidth = 0;
  for (size_t i = 0; i < paths.size(); ++i) {
    const LogName n = ParseLogName(paths[i]);
    switch (n.type) {
      case LogFileType::kStoredCompressed:
        return Status::InputError(
            paths[i], 0,
            "a log fio stored compressed (log_store_compressed=1): its text comes only from "
            "`fio --inflate-log=" +
                paths[i] + " > FILE`; give FILE instead");
      case LogFileType::kBandwidth:
        ++bandwidth;
        of[i] = {"-", -1};
        continue;
      case LogFileType::kUnknown:
        of[i] = {"", -1};
        continue;
      case LogFileType::kHist:
      case LogFileType::kPerIo:
        break;
    }
    const int kind = n.type == LogFileType::kHist ? kHist : PerIoKind(n.latency);
    auto it = jobs.find(n.job_key);
    if (it == jobs.end()) {
      it = jobs.emplace(n.job_key, Job()).first;
      it->second.first = i;
    }
    it->second.files[kind].push_back(paths[i]);
    of[i] = {n.job_key, kind};
  }
  // The kind each job is read with (-1: none).
  std::map<std::string, int> use;
  int used[kKinds] = {}, left[kKinds] = {}, jobs_without = 0;
  const int wanted = PerIoKind(choice.latency);
  for (const auto& [key, job] : jobs) {
    int k = -1;
    if (!job.files[wanted].empty()) {
      k = wanted;
    } else if (choice.latency == Latency::kClat && !job.files[kHist].empty()) {
      k = kHist;
    } else if (!choice.given) {
      for (int c : {kPerIoLat, kPerIoSlat, kHist}) {
        if (!job.files[c].empty()) {
          k = c;
          break;
        }
      }
    }
    if (k < 0) ++jobs_without;
    use[key] = k;
    for (int c = 0; c < kKinds; ++c) {
      (c == k ? used : left)[c] += static_cast<int>(job.files[c].size());
    }
  }
  for (size_t i = 0; i < paths.size(); ++i) {
    if (of[i].first.empty()) {
      out->paths.push_back(paths[i]);
    } else if (of[i].first != "-" && use[of[i].first] == of[i].second) {
      out->paths.push_back(paths[i]);
    }
  }
  // Say what was read, and what was not, only where a choice was made.
  bool chose = bandwidth > 0 || jobs_without > 0;
  int kinds_used = 0;
  for (int c = 0; c < kKinds; ++c) {
    chose = chose || left[c] > 0;
    kinds_used += used[c] > 0;
  }
  if (!chose && used[kPerIoLat] + used[kPerIoClat] + used[kPerIoSlat] == 0) {
    return Status();  // histogram logs only: nothing to say
  }
  std::string read = "read ";
  bool first = true;
  for (int c : {kPerIoClat, kPerIoLat, kPerIoSlat, kHist}) {
    if (used[c] == 0) continue;
    read += (first ? "" : ", ") + Plural(used[c], KindText(c));
    first = false;
  }
  if (first) read += "no latency log";
  if (kinds_used > 1) read += " (jobs with no log of the chosen latency read with another)";
  out->notes.push_back(read);
  std::string skipped;
  for (int c : {kPerIoLat, kPerIoClat, kPerIoSlat, kHist}) {
    if (left[c] == 0) continue;
    skipped += (skipped.empty() ? "" : ", ") + Plural(left[c], KindText(c));
  }
  if (!skipped.empty()) {
    out->notes.push_back(
        "left out " + skipped +
        " of the same jobs (each job counted once: " + LatencyName(choice.latency) +
        (choice.given ? " as --latency says" : " unless --latency says otherwise") +
        ", per-I/O logs before histogram logs)");
  }
  if (jobs_without > 0) {
    out->notes.push_back("left out " + std::to_string(jobs_without) + " job" +
                         (jobs_without == 1 ? "" : "s") + " with no " +
                         LatencyName(choice.latency) + " log");
  }
  if (bandwidth > 0) {
    out->notes.push_back("left out " + Plural(bandwidth, "bandwidth/IOPS") +
                         " (write_bw_log, write_iops_log: no latencies)");
  }
  return Status();
}

}  // namespace fiohist
