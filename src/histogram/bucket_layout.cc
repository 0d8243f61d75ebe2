#include "histogram/bucket_layout.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

namespace fiohist {
namespace {

// Lower edge of fine (uncoarsened) bucket i, in histogram units. Integer arithmetic: this
// runs for every non-empty bucket of every statistic.
double FineLower(int i, int bits) {
  const int per_group = 1 << bits;
  if (i < 2 * per_group) return i;
  const int error_bits = (i >> bits) - 1;
  const uint64_t lower = (uint64_t{1} << (error_bits + bits)) +
                         (static_cast<uint64_t>(i % per_group) << error_bits);
  return static_cast<double>(lower);
}

double FineUpper(int i, int bits) {
  const int per_group = 1 << bits;
  if (i < 2 * per_group) return i + 1;
  const int error_bits = (i >> bits) - 1;
  return FineLower(i, bits) + static_cast<double>(uint64_t{1} << error_bits);
}

}  // namespace

double BucketLayout::LowerNs(int c) const {
  return FineLower(c << coarseness, bits) * static_cast<double>(unit_ns);
}

double BucketLayout::UpperNs(int c) const {
  const int last_fine = ((c + 1) << coarseness) - 1;
  return FineUpper(last_fine, bits) * static_cast<double>(unit_ns);
}

uint64_t FioBucketValue(const BucketLayout& layout, int column) {
  const int per_group = 1 << layout.bits;
  if (column < 2 * per_group) return static_cast<uint64_t>(column);
  const int error_bits = (column >> layout.bits) - 1;
  const uint64_t base = uint64_t{1} << (error_bits + layout.bits);
  const uint64_t k = static_cast<uint64_t>(column % per_group);
  // fio computes base + (k + 0.5) * 2^error_bits in double and truncates.
  return base + (k << error_bits) + (error_bits > 0 ? uint64_t{1} << (error_bits - 1) : 0);
}

bool ColumnOfFioValue(const BucketLayout& layout, uint64_t value, int* column) {
  if (layout.coarseness != 0) return false;
  const int per_group = 1 << layout.bits;
  int c = 0;
  if (value < static_cast<uint64_t>(2 * per_group)) {
    c = static_cast<int>(value);
  } else {
    // fio's plat_val_to_idx: the group from the top bit, the bucket from the next `bits`.
    const int msb = 63 - __builtin_clzll(value);
    const int error_bits = msb - layout.bits;
    c = ((error_bits + 1) << layout.bits) +
        static_cast<int>((value >> error_bits) & static_cast<uint64_t>(per_group - 1));
  }
  if (c < 0 || c >= layout.columns()) return false;
  if (FioBucketValue(layout, c) != value) return false;
  *column = c;
  return true;
}

const std::vector<double>& EdgesNs(const BucketLayout& layout) {
  // One run uses one layout: a per-thread one-entry cache avoids the lock.
  thread_local BucketLayout last_layout;
  thread_local const std::vector<double>* last = nullptr;
  if (last != nullptr && last_layout == layout) return *last;
  static std::mutex mutex;
  static std::map<std::tuple<int, int, int, int64_t>, std::unique_ptr<std::vector<double>>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& entry = cache[{layout.groups, layout.bits, layout.coarseness, layout.unit_ns}];
  if (!entry) {
    entry = std::make_unique<std::vector<double>>();
    for (int c = 0; c < layout.columns(); ++c) entry->push_back(layout.LowerNs(c));
    entry->push_back(layout.UpperNs(layout.columns() - 1));
  }
  last_layout = layout;
  last = entry.get();
  return *last;
}

std::string BucketLayout::Name() const {
  return std::string(unit_ns == 1 ? "fio3" : "fio2") + "-g" + std::to_string(groups) + "-c" +
         std::to_string(coarseness);
}

Status ParseLayoutName(const std::string& name, BucketLayout* layout) {
  int version = 0, groups = 0, coarseness = 0;
  char tail = 0;
  if (std::sscanf(name.c_str(), "fio%d-g%d-c%d%c", &version, &groups, &coarseness, &tail) != 3 ||
      (version != 2 && version != 3) || groups < 1 || groups > 40 || coarseness < 0 ||
      coarseness > 6) {
    return Status::Error("layout: expected a name like fio3-g29-c0, got '" + name + "'");
  }
  *layout = BucketLayout();
  layout->groups = groups;
  layout->coarseness = coarseness;
  layout->unit_ns = version == 3 ? 1 : 1000;
  return Status();
}

Status ParseLayoutHint(const std::string& text, LayoutHint* hint) {
  *hint = LayoutHint();
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find_first_of(":,", pos);
    if (end == std::string::npos) end = text.size();
    const std::string part = text.substr(pos, end - pos);
    if (part == "fio3") {
      hint->fio_version = 3;
    } else if (part == "fio2") {
      hint->fio_version = 2;
    } else if (part.rfind("groups=", 0) == 0) {
      char* rest = nullptr;
      const long g = std::strtol(part.c_str() + 7, &rest, 10);
      if (*rest != '\0' || g < 2 || g > 40) {
        return Status::Error("--layout: groups must be a number from 2 to 40, got '" +
                             part.substr(7) + "'");
      }
      hint->groups = static_cast<int>(g);
    } else {
      return Status::Error("--layout: expected fio3, fio2 or groups=N (e.g. fio3:groups=26), got '" +
                           part + "'");
    }
    pos = end + 1;
  }
  return Status();
}

Status LayoutFromColumns(int columns, const LayoutHint& hint, BucketLayout* layout) {
  // Candidates (version, groups) in order of preference: the stock fio3 and fio2 builds
  // first, then recompiled fio3 builds with other group counts.
  std::vector<std::pair<int, int>> candidates;
  if (hint.groups != 0) {
    candidates.push_back({hint.fio_version == 0 ? 3 : hint.fio_version, hint.groups});
  } else {
    if (hint.fio_version != 2) candidates.push_back({3, 29});
    if (hint.fio_version != 3) candidates.push_back({2, 19});
    for (int g = 2; g <= 40; ++g) {
      if (hint.fio_version != 2 && g != 29) candidates.push_back({3, g});
      if (hint.fio_version == 2 && g != 19) candidates.push_back({2, g});
    }
  }
  for (const auto& [version, groups] : candidates) {
    const int fine = groups << 6;
    for (int k = 0; k <= 6; ++k) {
      if (fine % (1 << k) == 0 && (fine >> k) == columns) {
        layout->groups = groups;
        layout->bits = 6;
        layout->coarseness = k;
        layout->unit_ns = version == 3 ? 1 : 1000;
        return Status();
      }
    }
  }
  return Status::Error("no fio histogram layout has " + std::to_string(columns) +
                       " buckets per line (expected 64*groups/2^coarseness, e.g. 1856 for fio3, "
                       "1216 for fio2; see --layout)");
}

}  // namespace fiohist
