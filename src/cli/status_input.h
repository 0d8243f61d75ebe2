// fio json+ status streams and results as input: naming their hosts, the live options from
// the pipeline's, and whole files for `push`.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "log/log_source.h"
#include "output/documents.h"
#include "stats/live_aggregator.h"
#include "stats/pipeline.h"

namespace fiohist {

/// The host of a stream: --host / --host-map by path or file name, else the file name
/// without its extension (`host1.json` -> host1), "stdin" for `-`.
std::string StreamHost(const std::string& path, const HostMapping& mapping);

/// Adds --label K=V texts to `meta`; fails naming a text that is not K=V.
Status ParseRunLabels(const std::vector<std::string>& labels, RunMeta* meta);

/// The live aggregator's options from the pipeline's (quantum, grid, percentiles, scopes,
/// directions).
LiveOptions LiveOptionsFrom(const PipelineOptions& options);

/// True when `path` holds fio JSON (json+ output or a client/server output, as
/// DetectInputKind decides) rather than a histogram log.
bool LooksLikeFioJson(const std::string& path);

/// Where histogram logs and fio JSON files are given together (a run's folder, `dir/*`),
/// the JSON files are the logs' fio outputs, not the run: moves them from `paths` to
/// `fio_json` (as --fio-json) and returns how many moved. JSON files alone stay: they are
/// the run (status files or plain results).
size_t MoveFioJsonBesideLogs(std::vector<std::string>* paths, std::vector<std::string>* fio_json);

/// Finished fio JSON outputs (a status file, a plain --output-format=json+ result, or a
/// client/server output): every file is read whole and goes through the live aggregator
/// into `sink`, one host per file (per server for client/server outputs). Reports give
/// quanta and the whole run; a host with a single report (a plain result says nothing about
/// when its I/Os completed) gives the whole run only. Errors name the file and byte offset
/// (or client/server entry).
Status RunStatusFiles(const PipelineOptions& options, const std::vector<std::string>& paths,
                      ResultSink* sink, RunSummary* summary);

}  // namespace fiohist
