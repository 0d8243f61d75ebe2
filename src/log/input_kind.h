// What an input file holds: a histogram log, fio json+ output, or a client/server output.
#pragma once

#include <string>

namespace fiohist {

/// The kinds of input every command that reads logs takes.
enum class InputKind {
  /// fio's write_hist_log file (plain or gzip): read by the log pipeline.
  kHistLog,
  /// fio --output-format=json+ of one host: a status stream (--status-interval) or a plain
  /// result.
  kFioJson,
  /// fio's client/server output: text lines, then one document with `client_stats`.
  kClientServer,
};

/// "histogram log", "fio json+ output", "fio client/server output".
const char* InputKindName(InputKind kind);

/// Decides from the start of the file at `path` (at most 1 MiB): JSON whose document (after
/// any text lines) has `client_stats`, or a file starting with fio's `<host> ` text lines
/// (cut before its document), is a client/server output, other JSON starting the
/// file is fio json+ output, anything else (stamps, gzip, unreadable) a histogram log whose
/// reader reports what is wrong with it. `-` (stdin) is a histogram log.
InputKind DetectInputKind(const std::string& path);

}  // namespace fiohist
