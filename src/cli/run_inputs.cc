#include "cli/run_inputs.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cli/status_input.h"

namespace fiohist {

namespace {

// A fio histogram log's name: fio writes NAME_clat_hist.N.log (and _lat_hist, _slat_hist),
// client/server and CBT add .HOST, gzip .gz.
bool IsHistogramLogName(const std::string& name) {
  return name.find("_hist.") != std::string::npos && name.find(".json") == std::string::npos;
}

// fio's JSON outputs (results, status streams, client/server outputs) name "fio version" in
// their first object; other JSON in a run's folder (a tool's own) is not an input.
bool IsFioJsonFile(const std::string& path) {
  if (!LooksLikeFioJson(path)) return false;
  std::ifstream in(path, std::ios::binary);
  std::string head(1 << 20, '\0');
  in.read(&head[0], static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return head.find("\"fio version\"") != std::string::npos;
}

std::string Plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// What a directory without inputs holds, for the error: a few names and the count.
std::string WhatItHolds(size_t files, const std::vector<std::string>& examples) {
  if (files == 0) return "it holds no files";
  std::string text = "it holds " + Plural(files, "file", "files") + " (";
  for (size_t i = 0; i < examples.size(); ++i) text += (i ? ", " : "") + examples[i];
  return text + (files > examples.size() ? ", ...)" : ")");
}

Status SearchDirectory(const std::string& dir, std::vector<std::string>* files,
                       DirectoryInputs* found) {
  namespace fs = std::filesystem;
  std::vector<std::string> logs, json, examples;
  size_t others = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec)) continue;
    const std::string path = it->path().string();
    const std::string name = it->path().filename().string();
    if (IsHistogramLogName(name)) {
      logs.push_back(path);
    } else if (it->path().extension() == ".json" && IsFioJsonFile(path)) {
      json.push_back(path);
    } else {
      ++others;
      if (examples.size() < 3) examples.push_back(fs::relative(it->path(), dir).string());
    }
  }
  if (ec) return Status::Error(dir + ": " + ec.message());
  found->directory = dir;
  if (!logs.empty()) {
    found->histogram_logs = logs.size();
    found->fio_json_beside = json.size();
    std::sort(logs.begin(), logs.end());
    files->insert(files->end(), logs.begin(), logs.end());
    return Status();
  }
  if (!json.empty()) {
    found->fio_json = json.size();
    std::sort(json.begin(), json.end());
    files->insert(files->end(), json.begin(), json.end());
    return Status();
  }
  return Status::Error(dir + ": no input in this directory: expected fio histogram logs "
                             "(write_hist_log: *_hist.N.log, .gz too) or fio JSON outputs "
                             "(--output-format=json+, status streams, client/server outputs); " +
                       WhatItHolds(others, examples));
}

}  // namespace

std::string DescribeDirectoryInputs(const DirectoryInputs& d) {
  if (d.histogram_logs > 0) {
    std::string text =
        d.directory + ": " + Plural(d.histogram_logs, "histogram log", "histogram logs");
    if (d.fio_json_beside > 0) {
      text += " (and " + Plural(d.fio_json_beside, "fio JSON output", "fio JSON outputs") +
              " beside them: their fio output, not an input)";
    }
    return text;
  }
  return d.directory + ": no histogram logs; " +
         Plural(d.fio_json, "fio JSON output", "fio JSON outputs");
}

Status ExpandInputs(const std::vector<std::string>& args, std::vector<std::string>* files,
                    std::vector<DirectoryInputs>* directories) {
  namespace fs = std::filesystem;
  for (const std::string& arg : args) {
    std::error_code ec;
    if (arg == "-" || !fs::is_directory(arg, ec)) {
      files->push_back(arg);  // a file, a pipe or a missing path: the readers say which
      continue;
    }
    DirectoryInputs found;
    Status s = SearchDirectory(arg, files, &found);
    if (!s.ok()) return s;
    directories->push_back(found);
  }
  // One run is of one kind: a directory of logs and one of fio JSON outputs alone would make
  // the second the first's time anchors, silently.
  const DirectoryInputs* logs = nullptr;
  const DirectoryInputs* json = nullptr;
  for (const DirectoryInputs& d : *directories) {
    (d.histogram_logs > 0 ? logs : json) = &d;
  }
  if (logs != nullptr && json != nullptr) {
    return Status::Error(logs->directory + " holds histogram logs and " + json->directory +
                         " only fio JSON outputs: one run is read from one kind of input "
                         "(give the logs' directories, or the fio JSON outputs', not both)");
  }
  return Status();
}

bool ExpandCommandInputs(const char* command, bool quiet, std::vector<std::string>* paths) {
  std::vector<std::string> files;
  std::vector<DirectoryInputs> directories;
  const Status s = ExpandInputs(*paths, &files, &directories);
  if (!s.ok()) {
    std::fprintf(stderr, "fiohist %s: error: %s\n", command, s.message().c_str());
    return false;
  }
  if (!quiet) {
    for (const DirectoryInputs& d : directories) {
      std::fprintf(stderr, "fiohist %s: %s\n", command, DescribeDirectoryInputs(d).c_str());
    }
  }
  *paths = std::move(files);
  return true;
}

InputPlan PlanInputs(std::vector<std::string> paths, PipelineOptions* options) {
  InputPlan plan;
  plan.moved_to_fio_json = MoveFioJsonBesideLogs(&paths, &options->fio_json);
  plan.fio_json = !paths.empty() && LooksLikeFioJson(paths.front());
  plan.inputs = std::move(paths);
  return plan;
}

Status RunInputs(const PipelineOptions& options, const InputPlan& plan, ResultSink* sink,
                 RunSummary* summary) {
  if (options.place_issue && plan.fio_json && !plan.inputs.empty()) {
    // Checked before anything is read: a report holds counts since the last one, no
    // latency per I/O nor completion span per record to shift back by.
    return Status::Error(
        "--place issue: " + plan.inputs.front() +
        " is a fio JSON output (status stream, json+ result or client/server output): its "
        "reports hold cumulative latency bins, not each I/O's completion time nor a record's "
        "completion span, so where I/Os were issued cannot be told; give the run's histogram "
        "logs (write_hist_log) or per-I/O logs (write_lat_log, log_avg_msec=0), or "
        "--place completion");
  }
  return plan.fio_json ? RunStatusFiles(options, plan.inputs, sink, summary)
                       : RunPipeline(options, plan.inputs, sink, summary);
}

}  // namespace fiohist
