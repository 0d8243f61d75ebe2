#include "log/job_pacing.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

namespace fiohist {
namespace {

// The value of option `name` in `options` (the last one where fio lists it twice), or "".
std::string PacingOption(const rapidjson::Value* options, const char* name) {
  std::string out;
  if (options == nullptr || !options->IsObject()) return out;
  for (const auto& m : options->GetObject()) {
    if (std::string(m.name.GetString()) == name && m.value.IsString()) out = m.value.GetString();
  }
  return out;
}

// A job's option, else the global one.
std::string JobOption(const rapidjson::Value* global, const rapidjson::Value* job,
                      const char* name) {
  const std::string own = PacingOption(job, name);
  return own.empty() ? PacingOption(global, name) : own;
}

// The comma-separated parts of a per-direction option ("600,600" or "1m,,2m").
std::vector<std::string> DirectionParts(const std::string& text) {
  std::vector<std::string> out;
  size_t from = 0;
  while (from <= text.size()) {
    const size_t comma = text.find(',', from);
    out.push_back(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return out;
}

// The number at the start of `text` and the unit after it (lower case, blanks dropped).
bool SplitNumber(const std::string& text, double* value, std::string* unit) {
  const char* begin = text.c_str();
  char* end = nullptr;
  *value = std::strtod(begin, &end);
  if (end == begin || !(*value >= 0)) return false;
  unit->clear();
  for (const char* p = end; *p != '\0'; ++p) {
    if (!std::isspace(static_cast<unsigned char>(*p))) {
      unit->push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(*p))));
    }
  }
  return true;
}

}  // namespace

double ParseFioBytes(const std::string& text) {
  double v = 0;
  std::string unit;
  if (!SplitNumber(DirectionParts(text).front(), &v, &unit)) return 0;
  if (unit.empty() || unit == "b") return v;
  static const char kPrefixes[] = "kmgtp";
  double scale = 1;
  for (const char* p = kPrefixes; *p != '\0'; ++p) {
    scale *= 1024;
    if (unit[0] == *p) return v * scale;
  }
  return 0;
}

double ParseFioTimeMs(const std::string& text) {
  double v = 0;
  std::string unit;
  if (!SplitNumber(text, &v, &unit)) return 0;
  if (unit.empty() || unit == "us" || unit == "usec") return v / 1000;
  if (unit == "ms" || unit == "msec") return v;
  if (unit == "s" || unit == "sec") return v * 1000;
  if (unit == "m" || unit == "min") return v * 60000;
  if (unit == "h") return v * 3600000;
  if (unit == "ns" || unit == "nsec") return v / 1e6;
  return 0;
}

double JobPacing::RateGapMs() const {
  return rate_iops > 0 ? 1000.0 * std::max(1, iodepth) / rate_iops : 0;
}

double JobPacing::LongestIdleMs() const {
  const double rate = 2 * RateGapMs();
  const double think = thinktime_ms > 0 ? 1.1 * thinktime_ms + 100 + RateGapMs() : 0;
  return std::max(rate, think);
}

JobPacing JobPacingOf(const rapidjson::Value* global, const rapidjson::Value* job) {
  JobPacing p;
  p.thinktime_ms = ParseFioTimeMs(JobOption(global, job, "thinktime"));
  const int depth = std::atoi(JobOption(global, job, "iodepth").c_str());
  p.iodepth = depth > 0 ? depth : 1;
  // The lowest positive limit of any direction: the longest gap between its I/Os.
  auto lowest = [&p](double iops) {
    if (iops > 0 && (p.rate_iops == 0 || iops < p.rate_iops)) p.rate_iops = iops;
  };
  for (const std::string& part : DirectionParts(JobOption(global, job, "rate_iops"))) {
    lowest(std::atof(part.c_str()));
  }
  const std::string bs = JobOption(global, job, "bs");
  const double block = bs.empty() ? 4096 : ParseFioBytes(bs);
  for (const std::string& part : DirectionParts(JobOption(global, job, "rate"))) {
    const double bytes = ParseFioBytes(part);
    if (bytes > 0 && block > 0) lowest(bytes / block);
  }
  return p;
}

}  // namespace fiohist
