#include "stats/sla.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/number_format.h"

namespace fiohist {
namespace {

struct Unit {
  const char* name;
  double ns;
};
// Largest first: FormatSlaLatency takes the first that keeps the number at least 1.
constexpr Unit kUnits[] = {{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1}};

bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

// Reads a plain decimal (digits, at most one '.', a digit somewhere) at `pos`: no sign,
// exponent, hex, inf or nan, which strtod alone would accept.
bool ReadDecimal(const std::string& s, size_t* pos, double* value) {
  const size_t from = *pos;
  size_t i = from;
  bool digit = false, dot = false;
  for (; i < s.size(); ++i) {
    if (IsAsciiDigit(s[i])) {
      digit = true;
    } else if (s[i] == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!digit) return false;
  *value = std::strtod(s.substr(from, i - from).c_str(), nullptr);
  *pos = i;
  return true;
}

}  // namespace

std::string FormatSlaLatency(double ns, int significant, bool space) {
  const Unit* unit = &kUnits[3];
  for (const Unit& u : kUnits) {
    if (std::fabs(ns) >= u.ns) {
      unit = &u;
      break;
    }
  }
  const double v = ns / unit->ns;
  std::string text;
  if (significant > 0 && std::isfinite(v)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", significant, v);
    text = buf;
  } else {
    AppendShortest(&text, v);
  }
  if (space) text += ' ';
  return text + unit->name;
}

Status ParseSlaThreshold(const std::string& text, const std::string& option, SlaThreshold* out) {
  auto bad = [&](const std::string& what) {
    return Status::Error(option + ": expected [DIR.]pNN[.N]=VALUE[UNIT] such as p99=2ms, " +
                         "read.p99.9=5ms or write.p50=800us (DIR read, write, trim or all; UNIT " +
                         "ns, us, ms or s, default us), got '" + text + "': " + what);
  };
  SlaThreshold t;
  size_t pos = 0;
  const size_t dot = text.find('.');
  const size_t p = text.find('p');
  if (p == std::string::npos) return bad("no percentile (pNN)");
  if (p > 0) {
    // A direction prefix ends in the dot just before the 'p'.
    if (dot == std::string::npos || dot + 1 != p) return bad("expected DIR. before the 'p'");
    const std::string dir = text.substr(0, dot);
    if (dir == "read") {
      t.direction = Direction::kRead;
    } else if (dir == "write") {
      t.direction = Direction::kWrite;
    } else if (dir == "trim") {
      t.direction = Direction::kTrim;
    } else if (dir == "all") {
      t.direction = Direction::kAll;
    } else {
      return bad("direction '" + dir + "' is none of read, write, trim, all");
    }
  }
  pos = p + 1;
  // The percentile: digits, then maybe '.' or '_' and digits.
  const size_t pct_from = pos;
  while (pos < text.size() && IsAsciiDigit(text[pos])) ++pos;
  if (pos == pct_from) return bad("expected digits after 'p'");
  std::string pct = text.substr(pct_from, pos - pct_from);
  if (pos < text.size() && (text[pos] == '.' || text[pos] == '_')) {
    const size_t frac = ++pos;
    while (pos < text.size() && IsAsciiDigit(text[pos])) ++pos;
    if (pos == frac) return bad("expected digits after the percentile's '.' or '_'");
    pct += "." + text.substr(frac, pos - frac);
  }
  t.percentile = std::strtod(pct.c_str(), nullptr);
  if (!(t.percentile >= 0 && t.percentile <= 100)) {
    return bad("the percentile must lie in [0, 100]");
  }
  if (text.compare(pos, 2, "<=") == 0) {
    pos += 2;
  } else if (pos < text.size() && text[pos] == '=') {
    pos += 1;
  } else {
    return bad("expected '=' after the percentile");
  }
  double value = 0;
  if (!ReadDecimal(text, &pos, &value)) return bad("expected a number after '='");
  const std::string unit = text.substr(pos);
  double unit_ns = 0;
  if (unit.empty() || unit == "us" || unit == "\xc2\xb5s") {
    unit_ns = 1e3;
  } else if (unit == "ns") {
    unit_ns = 1;
  } else if (unit == "ms") {
    unit_ns = 1e6;
  } else if (unit == "s") {
    unit_ns = 1e9;
  } else {
    return bad("unit '" + unit + "' is none of ns, us, ms, s");
  }
  // fio measures whole nanoseconds: a limit is one too. Beyond 10^15 ns (11 days) no fio
  // latency reaches (its last bucket starts at ~17 s).
  t.limit_ns = std::round(value * unit_ns);
  if (!(t.limit_ns >= 1)) return bad("the limit must be at least 1 ns");
  if (t.limit_ns > 1e15) return bad("the limit must be at most 1e15 ns (11 days)");
  PercentileList named;
  Status s = MakePercentiles({t.percentile}, &named);
  if (!s.ok()) return bad(s.message());
  t.text = (t.direction == Direction::kAll ? "" : std::string(DirectionName(t.direction)) + ".") +
           named.field_names[0] + "<=" + FormatSlaLatency(t.limit_ns);
  *out = std::move(t);
  return Status();
}

Status ParseSlaThresholds(const std::vector<std::string>& texts, const std::string& option,
                          std::vector<SlaThreshold>* out) {
  std::vector<SlaThreshold> all;
  for (const std::string& text : texts) {
    SlaThreshold t;
    Status s = ParseSlaThreshold(text, option, &t);
    if (!s.ok()) return s;
    for (const SlaThreshold& before : all) {
      if (before.direction == t.direction && before.percentile == t.percentile) {
        return Status::Error(option + ": " + t.text + " and " + before.text +
                             " limit the same percentile of the same direction: give one");
      }
    }
    all.push_back(std::move(t));
  }
  *out = std::move(all);
  return Status();
}

void AddSlaPercentiles(const std::vector<SlaThreshold>& thresholds, PercentileList* list) {
  std::vector<double> values = list->values;
  for (const SlaThreshold& t : thresholds) {
    if (std::find(values.begin(), values.end(), t.percentile) == values.end()) {
      values.push_back(t.percentile);
    }
  }
  if (values.size() == list->values.size()) return;
  PercentileList named;
  // Values in [0, 100] and distinct, so naming cannot fail.
  if (MakePercentiles(values, &named).ok()) *list = std::move(named);
}

SlaChecker::SlaChecker(std::vector<SlaThreshold> thresholds, const PercentileList& percentiles)
    : thresholds_(std::move(thresholds)) {
  for (const SlaThreshold& t : thresholds_) {
    const auto it = std::find(percentiles.values.begin(), percentiles.values.end(), t.percentile);
    // A percentile missing from the list (the caller skipped AddSlaPercentiles) has no
    // value to check: SIZE_MAX makes Breaches() skip it rather than read another's.
    index_.push_back(it == percentiles.values.end()
                         ? SIZE_MAX
                         : static_cast<size_t>(it - percentiles.values.begin()));
  }
}

bool SlaChecker::Applies(const ScopeResult& r) const {
  if (r.kind != ScopeKind::kCluster) return false;
  for (const SlaThreshold& t : thresholds_) {
    if (t.direction == r.direction) return true;
  }
  return false;
}

double SlaChecker::Value(const ScopeResult& r, size_t i) const {
  const size_t k = index_[i];
  return k < r.stats.percentile_ns.size() ? r.stats.percentile_ns[k] : 0.0;
}

double SlaChecker::Low(const ScopeResult& r, size_t i) const {
  const size_t k = index_[i];
  return k < r.stats.percentile_low_ns.size() ? r.stats.percentile_low_ns[k] : 0.0;
}

double SlaChecker::High(const ScopeResult& r, size_t i) const {
  const size_t k = index_[i];
  if (k >= r.stats.percentile_high_ns.size() || k >= r.stats.few_ios.size() ||
      r.stats.few_ios[k]) {
    return -1;
  }
  return r.stats.percentile_high_ns[k];
}

bool SlaChecker::BreachesBeyondNoise(const ScopeResult& r) const {
  thread_local std::vector<size_t> breached, beyond;
  breached.clear();
  beyond.clear();
  Breaches(r, &breached, &beyond);
  return !beyond.empty();
}

bool SlaChecker::Breaches(const ScopeResult& r, std::vector<size_t>* breached,
                          std::vector<size_t>* beyond_noise) const {
  if (r.kind != ScopeKind::kCluster || !(r.stats.samples > 0)) return false;
  bool any = false;
  for (size_t i = 0; i < thresholds_.size(); ++i) {
    const SlaThreshold& t = thresholds_[i];
    if (t.direction != r.direction || index_[i] >= r.stats.percentile_ns.size()) continue;
    // For a value in the clamped bucket (stats.lower_bound) the same comparison holds:
    // the true value is at least this one, so above the limit means breached for sure.
    if (Value(r, i) > t.limit_ns) {
      if (breached) breached->push_back(i);
      any = true;
      // The interval's lower edge is a bucket edge at or below the value: above the limit,
      // the whole interval is (at the run's confidence level).
      if (beyond_noise && Low(r, i) > t.limit_ns) beyond_noise->push_back(i);
    }
  }
  return any;
}

}  // namespace fiohist
