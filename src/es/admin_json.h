// The JSON pieces the index administration requests share (index_setup, retention,
// run_catalog, server_probe): request options, the query of the push quantum's documents, and
// lenient readers of the cluster's answers (a field missing or of another type gives the
// fallback, since older servers and partial pushes leave fields out).
#pragma once

#include <rapidjson/document.h>

#include <string>

#include "base/status.h"
#include "es/http_client.h"

namespace fiohist {

/// Query-string options of a request over several index patterns: a pattern matching no
/// index (a month or kind never written) is not an error.
inline constexpr char kMultiIndexOptions[] = "ignore_unavailable=true&allow_no_indices=true";

/// A query for the documents of the push quantum only. Retention judges a run by when its
/// data ends and the run list spans it by its quanta: the percentile documents of coarser
/// resolutions span whole windows (up to 10 h by default) past the last quantum, so they are
/// left out of its max(end).
inline constexpr char kNotCoarse[] = R"({"bool":{"must_not":{"range":{"resolution":{"gt":1}}}}})";

/// Parses `result`'s body into `doc`; an error naming `what` unless it is a JSON object.
Status ParseJson(const HttpResult& result, const char* what, rapidjson::Document* doc);

/// `obj[key]` as a number, `fallback` when `obj` is no object or the member no number.
double NumberOr(const rapidjson::Value& obj, const char* key, double fallback);

/// `obj[key]` as a string, "" when `obj` is no object or the member no string.
std::string StringOr(const rapidjson::Value& obj, const char* key);

/// ISO 8601 (UTC) of a min/max date aggregation's numeric value, "" when it has none.
std::string AggTime(const rapidjson::Value& agg);

}  // namespace fiohist
