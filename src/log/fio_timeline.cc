#include "log/fio_timeline.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>

#include "log/time_anchor.h"

namespace fiohist {
namespace {

// fio 3.33's run_threads (backend.c): the main loop creates jobs, waits 100 ms for them to
// initialise (do_usleep before its first look), reaps, and sleeps 100 ms while jobs remain
// to be created; once all are, it reaps every 10 ms. A job's epoch is set after the
// initialisation wait; the JSON is written after the last job is reaped.
constexpr int64_t kLoopMs = 100;        // the main loop's sleep while jobs wait to be created
constexpr int64_t kInitWaitMs = 100;    // created jobs are released after this wait
constexpr int64_t kInitSlackMs = 10;    // forks and setup beyond it
constexpr int64_t kSecondLoopMs = 200;  // the earliest second pass (a startdelay job's creation)
constexpr int64_t kEndSlackMs = 50;     // last reap (10 ms loop) and the stats before the JSON
// Either way on every bound: fio truncates job_runtime, timestamp_ms and the stamps to ms,
// and each of them is read a moment apart.
constexpr int64_t kTruncationMs = 5;

// One uncertain quantity of the model: nominal value and bounds.
struct Range {
  double nominal = 0, lo = 0, hi = 0;
};

// The model's uncertain inputs.
struct Inputs {
  std::vector<Range> delay;  // per job: startdelay within its range
  std::vector<Range> queue;  // per job: wait for the main loop's pass after the delay
  std::vector<Range> write;  // per job: log writing at its end
  std::vector<Range> runtime;  // per job: beyond runtime_ms (a length taken from its log)
  std::vector<Range> reap;   // per group: from its end to the next group's creation
  Range init;                // creation to epoch (before ramp_time)
  Range end;                 // last reap to timestamp_ms
};

// One value of each input (a point of the model's space).
struct Point {
  std::vector<double> delay, queue, write, reap, runtime;
  double init = 0, end = 0;
};

// Each job's epoch, Unix ms, for the inputs of `p`.
std::vector<double> Simulate(const std::vector<FioTimelineJob>& jobs,
                             const std::vector<int>& group_index, int groups, int64_t timestamp_ms,
                             const Point& p) {
  std::vector<double> epoch(jobs.size());
  double start = 0, done = 0;  // the group's creation; its jobs' latest end after logging
  for (int g = 0; g < groups; ++g) {
    done = start;
    for (size_t j = 0; j < jobs.size(); ++j) {
      if (group_index[j] != g) continue;
      double create = start;
      if (jobs[j].delay_hi_ms > 0) {
        create =
            std::max(start, std::max(p.delay[j], static_cast<double>(kSecondLoopMs)) + p.queue[j]);
      }
      epoch[j] = create + p.init + static_cast<double>(jobs[j].ramp_ms);
      done = std::max(
          done, epoch[j] + static_cast<double>(jobs[j].runtime_ms) + p.runtime[j] + p.write[j]);
    }
    start = done + p.reap[static_cast<size_t>(g)];
  }
  const double shift = static_cast<double>(timestamp_ms) - (done + p.end);
  for (double& e : epoch) e += shift;
  return epoch;
}

Point Nominal(const Inputs& in) {
  Point p;
  auto pick = [](const std::vector<Range>& r, std::vector<double>* out) {
    for (const Range& x : r) out->push_back(x.nominal);
  };
  pick(in.delay, &p.delay);
  pick(in.queue, &p.queue);
  pick(in.write, &p.write);
  pick(in.reap, &p.reap);
  pick(in.runtime, &p.runtime);
  p.init = in.init.nominal;
  p.end = in.end.nominal;
  return p;
}

// Visits every input of `p` with its range (for the corners of the model's space).
template <typename F>
void ForEachInput(const Inputs& in, Point* p, F f) {
  for (size_t i = 0; i < in.delay.size(); ++i) f(in.delay[i], &p->delay[i]);
  for (size_t i = 0; i < in.queue.size(); ++i) f(in.queue[i], &p->queue[i]);
  for (size_t i = 0; i < in.write.size(); ++i) f(in.write[i], &p->write[i]);
  for (size_t i = 0; i < in.reap.size(); ++i) f(in.reap[i], &p->reap[i]);
  // Only where there is a range: jobs of known length leave the corners drawn as they were.
  for (size_t i = 0; i < in.runtime.size(); ++i) {
    if (in.runtime[i].hi > in.runtime[i].lo) f(in.runtime[i], &p->runtime[i]);
  }
  f(in.init, &p->init);
  f(in.end, &p->end);
}

std::string Seconds(int64_t ms) {
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
  return std::to_string(ms) + " ms";
}

}  // namespace

std::vector<FioJobAnchor> PlaceFioJobs(const std::vector<FioTimelineJob>& jobs,
                                       int64_t timestamp_ms) {
  std::map<int, int> index_of;  // groupid -> order
  for (const FioTimelineJob& j : jobs) index_of[j.group] = 0;
  int groups = 0;
  for (auto& kv : index_of) kv.second = groups++;
  std::vector<int> group_index;
  for (const FioTimelineJob& j : jobs) group_index.push_back(index_of[j.group]);

  Inputs in;
  for (const FioTimelineJob& j : jobs) {
    const double lo = static_cast<double>(j.delay_lo_ms), hi = static_cast<double>(j.delay_hi_ms);
    in.delay.push_back({(lo + hi) / 2, lo, hi});
    in.queue.push_back({kLoopMs / 2.0, 0, static_cast<double>(kLoopMs)});
    const double w = j.log_lines * kLogLineWriteMs;
    in.write.push_back({w, w / 4, w * 4});
    const double extra = static_cast<double>(j.runtime_unlogged_ms);
    in.runtime.push_back({extra / 2, 0, extra});
  }
  for (int g = 0; g < groups; ++g) {
    in.reap.push_back({kLoopMs * 1.5, static_cast<double>(kLoopMs), 2.0 * kLoopMs});
  }
  in.init = {static_cast<double>(kInitWaitMs), static_cast<double>(kInitWaitMs),
             static_cast<double>(kInitWaitMs + kInitSlackMs)};
  // Nominally none: with one group and no delays the estimate is then `timestamp_ms -
  // job_runtime`, as before; the bound says how early the truth may be.
  in.end = {0, 0, static_cast<double>(kEndSlackMs)};

  const Point nominal = Nominal(in);
  const std::vector<double> est = Simulate(jobs, group_index, groups, timestamp_ms, nominal);
  std::vector<double> lo = est, hi = est;
  auto widen = [&](const Point& p) {
    const std::vector<double> e = Simulate(jobs, group_index, groups, timestamp_ms, p);
    for (size_t j = 0; j < e.size(); ++j) {
      lo[j] = std::min(lo[j], e[j]);
      hi[j] = std::max(hi[j], e[j]);
    }
  };
  // The bounds: every input alone at either end, all at one end, and corners drawn with a
  // fixed generator (the epochs are piecewise linear in the inputs: their extremes are at
  // corners of the inputs' box).
  for (int side = 0; side < 2; ++side) {
    Point p = nominal;
    ForEachInput(in, &p, [&](const Range& r, double* v) { *v = side ? r.hi : r.lo; });
    widen(p);
  }
  {
    Point p = nominal;
    ForEachInput(in, &p, [&](const Range& r, double* v) {
      const double keep = *v;
      *v = r.lo;
      widen(p);
      *v = r.hi;
      widen(p);
      *v = keep;
    });
  }
  uint64_t state = 0x9e3779b97f4a7c15ULL;
  for (int k = 0; k < 256; ++k) {
    Point p = nominal;
    ForEachInput(in, &p, [&](const Range& r, double* v) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      *v = (state >> 63) ? r.hi : r.lo;
    });
    widen(p);
  }

  std::vector<FioJobAnchor> out(jobs.size());
  for (size_t j = 0; j < jobs.size(); ++j) {
    FioJobAnchor& a = out[j];
    a.start_ms = static_cast<int64_t>(est[j] + (est[j] < 0 ? -0.5 : 0.5));
    a.early_ms = static_cast<int64_t>(est[j] - lo[j] + 0.5) + kTruncationMs;
    a.late_ms = static_cast<int64_t>(hi[j] - est[j] + 0.5) + kTruncationMs;
    const FioTimelineJob& job = jobs[j];
    a.how = "group " + std::to_string(group_index[j] + 1) + " of " + std::to_string(groups);
    if (job.delay_hi_ms > job.delay_lo_ms) {
      a.how += ", startdelay " + Seconds(job.delay_lo_ms) + "-" + Seconds(job.delay_hi_ms) +
               " (fio's pick is not in its JSON)";
    } else if (job.delay_hi_ms > 0) {
      a.how += ", startdelay " + Seconds(job.delay_hi_ms);
    }
    if (job.ramp_ms > 0) a.how += ", ramp_time " + Seconds(job.ramp_ms);
    a.how += job.runtime_unlogged_ms > 0 ? ", its log's length " + Seconds(job.runtime_ms)
                                         : ", job_runtime " + Seconds(job.runtime_ms);
  }
  return out;
}

Status ParseFioTimeOption(const std::string& text, int64_t* lo_ms, int64_t* hi_ms) {
  auto one = [](std::string s, int64_t* ms) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    size_t i = 0;
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    char* rest = nullptr;
    const double v = std::strtod(s.c_str() + i, &rest);
    if (rest == s.c_str() + i || v < 0) return false;
    std::string unit(rest);
    for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static const std::map<std::string, double> kUnitMs = {
        {"", 1000},        {"s", 1000},     {"sec", 1000},    {"ms", 1},      {"msec", 1},
        {"us", 0.001},     {"usec", 0.001}, {"m", 60000},     {"min", 60000}, {"h", 3600000},
        {"hour", 3600000}, {"d", 86400000}, {"day", 86400000}};
    auto it = kUnitMs.find(unit);
    if (it == kUnitMs.end()) return false;
    *ms = static_cast<int64_t>(v * it->second + 0.5);
    return true;
  };
  const size_t sep = text.find_first_of("-:");
  const bool ok = sep == std::string::npos
                      ? one(text, lo_ms) && one(text, hi_ms)
                      : one(text.substr(0, sep), lo_ms) && one(text.substr(sep + 1), hi_ms);
  if (!ok || *hi_ms < *lo_ms) {
    return Status::Error("expected a fio time (2, 2s, 500ms or a range 1-3), got '" + text + "'");
  }
  return Status();
}

std::string FormatUncertainty(const FioJobAnchor& a) {
  if (a.early_ms == a.late_ms) return "+-" + std::to_string(a.late_ms) + " ms";
  return "-" + std::to_string(a.early_ms) + "/+" + std::to_string(a.late_ms) + " ms";
}

std::string FormatPlacedJob(const PlacedFioJob& p) {
  return p.host + "/" + p.job + " (job " + p.fio_job + "): " + FormatIsoTime(p.anchor.start_ms) +
         " " + FormatUncertainty(p.anchor) + " (" + p.anchor.how + ")";
}

}  // namespace fiohist
