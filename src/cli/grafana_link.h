// The Grafana link `push` prints after a run went into Elasticsearch.
#pragma once

#include <cstdint>
#include <string>

namespace fiohist {

/// Where the provisioned Grafana answers when neither --grafana-url nor
/// FIOHIST_GRAFANA_URL says: the docker-compose stack's.
constexpr const char kDefaultGrafanaUrl[] = "http://127.0.0.1:3000";

/// `given` if not empty, else FIOHIST_GRAFANA_URL if set and not empty, else the default.
std::string ResolveGrafanaUrl(const std::string& given);

/// `text` percent-encoded for a URL query value: everything but RFC 3986's unreserved
/// characters (letters, digits, - . _ ~) becomes %XX, so any run name survives.
std::string UrlEncode(const std::string& text);

/// The run overview of `run` on its own time range:
/// BASE/d/fiohist-overview?var-run=RUN&from=FROM_MS&to=TO_MS (a trailing / of `base` is
/// dropped).
std::string GrafanaRunUrl(const std::string& base, const std::string& run, int64_t from_ms,
                          int64_t to_ms);

}  // namespace fiohist
