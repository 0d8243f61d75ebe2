#include "output/comparison_report.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <sstream>

namespace fiohist {
namespace {

// A metric's value in the report's units: latencies in `unit`, the I/O rate as is.
double Shown(const MetricComparison& m, double v, const LatencyUnit& unit) {
  return m.metric.spec.iops ? v : v / unit.ns_per_unit;
}

std::string Signed(double share) {
  // Beyond +-1000% the digits say nothing (an interval that wide is no interval).
  if (!(share < 10)) return ">+1000%";
  char b[32];
  std::snprintf(b, sizeof b, "%+.1f%%", share * 100);
  return b;
}

std::string Number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

// "+12.3% [+4.1%, +21.0%]".
std::string ChangeText(const MetricComparison& m) {
  return Signed(m.change) + " [" + Signed(m.change_low) + ", " + Signed(m.change_high) + "]";
}

}  // namespace

void WriteComparisonTable(std::FILE* out, const ComparisonResult& r, const LatencyUnit& unit) {
  std::string base;
  for (const std::string& b : r.baselines) base += (base.empty() ? "" : ", ") + b;
  std::fprintf(out, "run %s against %s (%d full quanta)\n", r.run.c_str(), base.c_str(),
               r.quanta);
  std::fprintf(out, "%-6s %-7s %12s %12s  %-32s %7s  %-12s %s\n", "DIR", "METRIC", "RUN",
               "BASELINE", "CHANGE [INTERVAL]", "MIN", "VERDICT", "WHY");
  for (const MetricComparison& m : r.metrics) {
    const std::string name =
        m.metric.spec.name + (m.metric.spec.iops ? "" : " " + unit.name);
    std::fprintf(out, "%-6s %-10s %9s %12s  %-32s %7s  %-12s %s\n", DirectionName(m.direction),
                 name.c_str(), Number(Shown(m, m.run_value, unit)).c_str(),
                 Number(Shown(m, m.baseline_value, unit)).c_str(), ChangeText(m).c_str(),
                 Signed(m.metric.min_effect).c_str(), VerdictName(m.verdict), m.reason.c_str());
  }
  for (const std::string& n : r.notes) std::fprintf(out, "note: %s\n", n.c_str());
  if (!r.metrics.empty()) {
    std::fprintf(out, "intervals: %.4g%% per metric (%.4g%% over all %zu)\n",
                 r.metrics[0].level * 100,
                 100 - (100 - r.metrics[0].level * 100) * static_cast<double>(r.metrics.size()),
                 r.metrics.size());
  }
  std::fprintf(out, "verdict: %s\n", VerdictName(r.overall));
}

std::string ComparisonJson(const ComparisonResult& r, const LatencyUnit& unit) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  auto number = [&](double v) {
    if (std::isfinite(v)) {
      w.Double(v);
    } else {
      w.Null();  // JSON has no infinity: no interval
    }
  };
  w.StartObject();
  w.Key("run");
  w.String(r.run);
  w.Key("baselines");
  w.StartArray();
  for (const std::string& b : r.baselines) w.String(b);
  w.EndArray();
  w.Key("verdict");
  w.String(VerdictName(r.overall));
  w.Key("quanta");
  w.Int(r.quanta);
  w.Key("unit");
  w.String(unit.name);
  w.Key("notes");
  w.StartArray();
  for (const std::string& n : r.notes) w.String(n);
  w.EndArray();
  w.Key("metrics");
  w.StartArray();
  for (const MetricComparison& m : r.metrics) {
    w.StartObject();
    w.Key("direction");
    w.String(DirectionName(m.direction));
    w.Key("metric");
    w.String(m.metric.spec.name);
    w.Key("run_value");
    number(Shown(m, m.run_value, unit));
    w.Key("baseline_value");
    number(Shown(m, m.baseline_value, unit));
    w.Key("baseline_values");
    w.StartArray();
    for (double v : m.baseline_values) number(Shown(m, v, unit));
    w.EndArray();
    w.Key("change");
    number(m.change);
    w.Key("change_low");
    number(m.change_low);
    w.Key("change_high");
    number(m.change_high);
    w.Key("level");
    w.Double(m.level);
    w.Key("min_effect");
    w.Double(m.metric.min_effect);
    w.Key("run_spread");
    number(m.log_change.spread);
    w.Key("run_spread_assumed");
    w.Bool(m.log_change.spread_assumed);
    w.Key("lower_bound");
    w.Bool(m.lower_bound);
    w.Key("verdict");
    w.String(VerdictName(m.verdict));
    w.Key("reason");
    w.String(m.reason);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return buffer.GetString();
}

std::string XmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        // XML 1.0 cannot hold other control characters, even escaped.
        out += c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c);
    }
  }
  return out;
}

std::string ComparisonJunit(const ComparisonResult& r, const LatencyUnit& unit) {
  int failures = 0, skipped = 0;
  for (const MetricComparison& m : r.metrics) {
    failures += m.verdict == Verdict::kRegression;
    skipped += m.verdict == Verdict::kInconclusive;
  }
  std::string base;
  for (const std::string& b : r.baselines) base += (base.empty() ? "" : ",") + b;
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<testsuites name=\"fiohist compare\" tests=\"" << r.metrics.size() << "\" failures=\""
    << failures << "\" errors=\"0\" skipped=\"" << skipped << "\">\n"
    << "  <testsuite name=\"" << XmlEscape("compare " + r.run) << "\" tests=\""
    << r.metrics.size() << "\" failures=\"" << failures << "\" errors=\"0\" skipped=\""
    << skipped << "\">\n"
    << "    <properties>\n"
    << "      <property name=\"run\" value=\"" << XmlEscape(r.run) << "\"/>\n"
    << "      <property name=\"baselines\" value=\"" << XmlEscape(base) << "\"/>\n"
    << "      <property name=\"verdict\" value=\"" << VerdictName(r.overall) << "\"/>\n"
    << "    </properties>\n";
  for (const MetricComparison& m : r.metrics) {
    const std::string what =
        m.metric.spec.name + " " + Number(Shown(m, m.run_value, unit)) +
        (m.metric.spec.iops ? "" : " " + unit.name) + " against " +
        Number(Shown(m, m.baseline_value, unit)) +
        (m.metric.spec.iops ? "" : " " + unit.name) + ": " + ChangeText(m) + ", minimum effect " +
        Signed(m.metric.min_effect) + ": " + VerdictName(m.verdict) + " (" + m.reason + ")";
    x << "    <testcase classname=\"fiohist.compare." << DirectionName(m.direction)
      << "\" name=\"" << XmlEscape(m.metric.spec.name) << "\" time=\"0\">\n";
    if (m.verdict == Verdict::kRegression) {
      x << "      <failure type=\"regression\" message=\"" << XmlEscape(what) << "\"/>\n";
    } else if (m.verdict == Verdict::kInconclusive) {
      x << "      <skipped message=\"" << XmlEscape(what) << "\"/>\n";
    }
    x << "      <system-out>" << XmlEscape(what) << "</system-out>\n";
    x << "    </testcase>\n";
  }
  std::string notes;
  for (const std::string& n : r.notes) notes += n + "\n";
  x << "    <system-out>" << XmlEscape(notes) << "</system-out>\n"
    << "  </testsuite>\n"
    << "</testsuites>\n";
  return x.str();
}

}  // namespace fiohist
