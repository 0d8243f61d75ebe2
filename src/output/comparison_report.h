// A run comparison for people (a table), for programs (JSON) and for CI systems (JUnit XML).
#pragma once

#include <cstdio>
#include <string>

#include "output/latency_unit.h"
#include "stats/run_comparison.h"

namespace fiohist {

/// Prints one line per direction and metric (run value, baseline value, change with its
/// interval, minimum effect, verdict and why), then the notes and the overall verdict.
void WriteComparisonTable(std::FILE* out, const ComparisonResult& result, const LatencyUnit& unit);

/// The comparison as one JSON object: run, baselines, overall verdict, notes, and per
/// direction and metric the values (latencies in `unit`), change, interval, level,
/// minimum effect, run-to-run spread (and whether it was assumed) and verdict.
std::string ComparisonJson(const ComparisonResult& result, const LatencyUnit& unit);

/// The comparison as JUnit XML: one testsuite, one testcase per direction and metric
/// (classname fiohist.compare.DIRECTION, name the metric); a regression is a <failure>, an
/// inconclusive metric <skipped> (the data cannot decide: not a failure, not a pass), with
/// the numbers in the message. Text is escaped, and characters XML 1.0 cannot hold are
/// replaced by '?'.
std::string ComparisonJunit(const ComparisonResult& result, const LatencyUnit& unit);

/// `text` escaped for XML attribute values and character data.
std::string XmlEscape(const std::string& text);

}  // namespace fiohist
