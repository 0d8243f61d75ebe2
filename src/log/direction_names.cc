#include "log/direction_names.h"

#include <algorithm>

#include "log/smallfile_line.h"

namespace fiohist {

bool DirectionNames::AssignOps(std::vector<std::string> ops) {
  std::sort(ops.begin(), ops.end());
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  if (ops.size() > static_cast<size_t>(kLogDirections)) return false;
  std::array<std::string, kLogDirections> slots;
  std::vector<std::string> rest;
  for (const std::string& op : ops) {
    std::string& own = slots[static_cast<size_t>(SmallfileOpDirection(op))];
    if (own.empty()) {
      own = op;
    } else {
      rest.push_back(op);
    }
  }
  size_t next = 0;
  for (const std::string& op : rest) {
    while (!slots[next].empty()) ++next;
    slots[next] = op;
  }
  ops_ = slots;
  return true;
}

std::string_view DirectionNames::Name(Direction d) const {
  const std::string& op = Op(d);
  return op.empty() ? std::string_view(DirectionName(d)) : std::string_view(op);
}

const std::string& DirectionNames::Op(Direction d) const {
  static const std::string kNone;
  const size_t i = static_cast<size_t>(d);
  return i < ops_.size() ? ops_[i] : kNone;
}

Direction DirectionNames::Class(Direction d) const {
  const std::string& op = Op(d);
  return op.empty() ? d : SmallfileOpDirection(op);
}

bool DirectionNames::has_ops() const {
  for (const std::string& op : ops_) {
    if (!op.empty()) return true;
  }
  return false;
}

bool DirectionNames::Find(std::string_view name, Direction* d) const {
  for (Direction x : kAllDirections) {
    if (Name(x) == name) {
      *d = x;
      return true;
    }
  }
  return false;
}

void AssignSmallfileSlots(std::vector<LogSource>* sources, DirectionNames* names,
                          std::vector<std::string>* notes) {
  *names = DirectionNames();
  std::vector<std::string> ops;
  bool fio = false;
  for (const LogSource& s : *sources) {
    if (s.smallfile) {
      ops.push_back(s.op);
    } else {
      fio = true;
    }
  }
  if (ops.empty()) return;
  if (!fio && names->AssignOps(ops)) {
    for (LogSource& s : *sources) names->Find(s.op, &s.slot);
    return;
  }
  std::sort(ops.begin(), ops.end());
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  std::string list;
  for (const std::string& op : ops) list += (list.empty() ? "" : ", ") + op;
  for (LogSource& s : *sources) {
    if (s.smallfile) s.slot = SmallfileOpDirection(s.op);
  }
  notes->push_back("smallfile ops " + list +
                   " counted in the directions they map to (read, write, trim): " +
                   (fio ? std::string("fio logs are in the same run")
                        : std::to_string(ops.size()) + " ops, more than the " +
                              std::to_string(kLogDirections) + " a run gives a slot of their own") +
                   "; for each op's own percentiles give the files of at most " +
                   std::to_string(kLogDirections) + " ops, without fio logs, per run");
}

}  // namespace fiohist
