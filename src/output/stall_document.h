// A stall or idle gap of a run as an Elasticsearch document: one per stall of a host or of
// the cluster (stats/stalls.h), in <prefix>-stalls-YYYY.MM beside the run's other documents,
// so that Grafana can draw each as an annotation (a time, an end, a text and tags per hit).
// The run document keeps its `stalls` summary; these are the same stalls, indexed.
#pragma once

#include <string>

#include "output/run_document.h"
#include "stats/stalls.h"

namespace fiohist {

/// The annotation's text, as the report names the stall: "stall 3.1 s: 12 I/Os stuck,
/// slowest 3.09 s", or "idle 2.5 s" for an idle gap the jobs asked for.
std::string StallText(const Stall& stall);

/// The document id: a hash of the run, the scope, the host and the stall's end (the stamp
/// of the completion that ended it: exact, unlike its start), so a re-push of the same run
/// overwrites its stall documents.
std::string StallId(const std::string& run, const Stall& stall);

/// The document (fields of StallFields(), in its order): `meta`'s run, tags and labels,
/// `kind`, `scope`, `host` (absent for the cluster), `@timestamp` (the start) and `end` as
/// ISO text where the run is `absolute` (else epoch ms), `start_ms`, `end_ms`,
/// `duration_s`, `stuck_ios`, `stuck_max` (in units of `ns_per_unit` ns), `text`
/// (StallText()) and `annotation_tags` (kind, scope and the host).
std::string StallDocument(const Stall& stall, const RunMeta& meta, bool absolute,
                          double ns_per_unit);

}  // namespace fiohist
