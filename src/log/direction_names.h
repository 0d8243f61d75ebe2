// What a run's direction slots are called: fio's read, write and trim, or the ops of a
// smallfile run, each in a slot of its own.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "log/log_line.h"
#include "log/log_source.h"

namespace fiohist {

/// The names of a run's three real direction slots (and `all`, their sum). A fio run's are
/// read, write and trim. A run made only of smallfile response-time files holding at most
/// kLogDirections ops gives each op a slot of its own, named after it (the op as the
/// direction: `create`, `read`, `append`), so each op keeps its own histogram; with more
/// ops, or fio logs beside them, every op is counted in the direction it maps to
/// (SmallfileOpDirection) and the slots keep fio's names.
class DirectionNames {
 public:
  /// The slot each op of `ops` (any order, repeats allowed) is counted in: each op takes
  /// the slot of the direction it maps to where that is free (ops in name order), the
  /// others the free slots in slot order. False (names unchanged) for more than
  /// kLogDirections distinct ops.
  bool AssignOps(std::vector<std::string> ops);
  /// The name of slot `d`: its op, or fio's direction name ("all" for Direction::kAll).
  std::string_view Name(Direction d) const;
  /// The op in slot `d`; empty for fio's directions and for `all`.
  const std::string& Op(Direction d) const;
  /// The op's class: the fio direction an op of slot `d` maps to; `d` itself without op.
  Direction Class(Direction d) const;
  /// True when some slot holds an op.
  bool has_ops() const;
  /// The slot named `name` (a direction name or an op); false when none is.
  bool Find(std::string_view name, Direction* d) const;

 private:
  std::array<std::string, kLogDirections> ops_;
};

/// Gives a run's smallfile files their slots: when every source is a smallfile file and
/// they hold at most kLogDirections ops, each op its own slot (`names` says which; the
/// sources' `slot`); otherwise each its op's direction, with a line for `notes` saying so
/// (none for a run without smallfile files).
void AssignSmallfileSlots(std::vector<LogSource>* sources, DirectionNames* names,
                          std::vector<std::string>* notes);

}  // namespace fiohist
