// Which server a cluster runs, as the server itself says (never guessed from the URL), and the
// line that tells the user what fiohist decided from it.
#pragma once

#include <string>

#include "es/http_client.h"
#include "es/index_setup.h"

namespace fiohist {

/// Which server answers, as the server itself says.
struct ServerInfo {
  std::string product;  ///< "Elasticsearch", "OpenSearch", or "" when the server did not say
  std::string version;  ///< "2.19.1", or ""
  std::string source;   ///< the request that told: "GET /" or "GET /_nodes/_local"
};

/// Asks the server behind `client` what it is: GET / (both engines; version.distribution is
/// "opensearch" on OpenSearch), else GET /_nodes/_local (the Elasticsearch integ-test build
/// has no GET /). Never fails: an unknown server leaves `info` empty.
void ProbeServer(HttpClient* client, ServerInfo* info);

/// Reads the answer of GET / into `info`; false if it names no version.
bool ParseServerRoot(const std::string& body, ServerInfo* info);

/// Reads the answer of GET /_nodes/_local (filtered to version and build_flavor) into `info`:
/// Elasticsearch reports a build_flavor, OpenSearch dropped it. False if no node has a version.
bool ParseNodesInfo(const std::string& body, ServerInfo* info);

/// One line on what the server is and what fiohist decided from it, e.g. "server: OpenSearch
/// 2.19.1 (GET /), no `histogram` field type: bucket documents mapped without it
/// (fiohist-buckets-nohistogram.json)".
std::string DescribeServerDecisions(const ServerInfo& info, const TemplateReport& report);

}  // namespace fiohist
