// smallfile's response-time files (--response-times Y): rsptimes_NN_HOST_OP_EPOCH.csv.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "log/log_line.h"
#include "log/per_io_line.h"

namespace fiohist {

/// What a response-time file's name says: thread NN on HOST ran OP, its times counted from
/// EPOCH (Unix seconds).
struct SmallfileName {
  std::string thread, host, op;
  /// EPOCH in ms.
  int64_t epoch_ms = 0;
  /// The direction slot the op's records go to: the direction it maps to
  /// (SmallfileOpDirection), unless the run gave it a slot of its own (DirectionNames).
  Direction slot = Direction::kWrite;
};

/// Parses `path`'s name (`rsptimes_NN_HOST_OP_EPOCH.csv`, `.gz` allowed); false otherwise.
bool ParseSmallfileName(const std::string& path, SmallfileName* name);

/// The direction an op is counted in: ops that read (read, ls-l, stat, readdir, getattr,
/// listxattr, swift-get) as read, ops that remove (delete, rmdir, cleanup) as trim, every
/// other (create, append, overwrite, mkdir, rename, chmod, setxattr, symlink, swift-put,
/// truncate) as write; the op itself names the job.
Direction SmallfileOpDirection(std::string_view op);

/// Parses `op, start_s, response_s` (seconds with up to 9 decimals; the op must be
/// `name.op`) into `record`: completion = epoch + start + response, latency in ns,
/// direction `name.slot`.
bool ParseSmallfileLine(std::string_view line, const SmallfileName& name, PerIoRecord* record,
                        std::string* what);

}  // namespace fiohist
