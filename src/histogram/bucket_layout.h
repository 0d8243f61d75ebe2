// fio's latency histogram bucket layout: which latency range each log column covers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace fiohist {

/// The layout of one histogram log line's count columns. fio groups buckets in
/// `groups` groups of 2^bits; groups 0 and 1 have width 1 unit, group g>=1 width 2^(g-1).
/// `coarseness` k merges 2^k neighbouring buckets into one column (log_hist_coarseness).
/// fio >= 3 counts nanoseconds with 29 groups; fio 2 counted microseconds with 19.
struct BucketLayout {
  int groups = 29;
  int bits = 6;
  int coarseness = 0;
  /// Nanoseconds per histogram unit: 1 for fio3 (ns), 1000 for fio2 (us).
  int64_t unit_ns = 1;

  /// Columns per log line (64*groups / 2^coarseness).
  int columns() const { return (groups << bits) >> coarseness; }
  /// Lower edge of column `c`, in nanoseconds.
  double LowerNs(int c) const;
  /// Upper edge (exclusive) of column `c`, in nanoseconds.
  double UpperNs(int c) const;
  /// Middle of column `c`, in nanoseconds (the value used for means).
  double MidNs(int c) const { return (LowerNs(c) + UpperNs(c)) / 2; }
  /// Index of the last column: fio clamps every larger latency into it.
  int top_column() const { return columns() - 1; }
  /// A short name such as "fio3-g29-c0".
  std::string Name() const;

  bool operator==(const BucketLayout& o) const {
    return groups == o.groups && bits == o.bits && coarseness == o.coarseness &&
           unit_ns == o.unit_ns;
  }
  bool operator!=(const BucketLayout& o) const { return !(*this == o); }
};

/// Parses a name that BucketLayout::Name() wrote ("fio3-g29-c0"); bits stay 6.
Status ParseLayoutName(const std::string& name, BucketLayout* layout);

/// fio's own value of fine bucket `column` (plat_idx_to_val: the bucket's lower edge plus
/// half its width, truncated to an integer), in histogram units: the keys of the `bins`
/// of fio's json+ output. Only for an uncoarsened layout.
uint64_t FioBucketValue(const BucketLayout& layout, int column);

/// The column whose fio value (FioBucketValue) is `value`; false when `value` is not the
/// value of any column of `layout` (not fio's bucket value, or another layout's).
bool ColumnOfFioValue(const BucketLayout& layout, uint64_t value, int* column);

/// Edges of every column of a layout, in nanoseconds: column c is [edges[c], edges[c+1]).
/// Built once per layout and shared (statistics read them for every bucket of every
/// quantum and scope, so they are looked up, not recomputed).
const std::vector<double>& EdgesNs(const BucketLayout& layout);

/// What the user said about the layout (`--layout`), for column counts that are ambiguous.
struct LayoutHint {
  /// 0: unknown; 2 or 3: fio major version (unit and default group count).
  int fio_version = 0;
  /// 0: unknown; else the group count fio was compiled with.
  int groups = 0;
};

/// Parses a `--layout` value: "fio3", "fio2", "fio3:groups=26", "groups=20".
Status ParseLayoutHint(const std::string& text, LayoutHint* hint);

/// Chooses the layout of a log with `columns` count columns. fio3 (29 groups, any
/// coarseness) wins unless the hint says otherwise; 1216 columns means fio2 only when hinted
/// or when 1216 is not a fio3 coarsening. Fails when no layout gives that many columns.
Status LayoutFromColumns(int columns, const LayoutHint& hint, BucketLayout* layout);

}  // namespace fiohist
