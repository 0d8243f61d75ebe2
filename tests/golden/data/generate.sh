#!/bin/sh
# Regenerates the log sets in this folder with Debian's fio and the reference outputs with
# fio's tools/hist/fio-histo-log-pctiles.py (not part of this repository).
#
# Usage: generate.sh REFERENCE.py NOWRAP.py
#   REFERENCE.py: zcat /usr/share/doc/fio/fio-histo-log-pctiles.py.gz > /tmp/ref.py
#   NOWRAP.py:    the same script with the negative-quantum wrap removed (see README.md);
#                 made in a scratch folder, never committed.
# Logs are written uncompressed, the references computed from them (the reference cannot
# read gzip), then the logs are gzipped (fiohist reads .gz directly).
set -eu
ref=$(readlink -f "$1")
nowrap=$(readlink -f "$2")
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

common="--ioengine=psync --bs=4k --size=32m --time_based=1 --filename=$scratch/testfile"

# pctiles NAME OPTIONS...: reference output for folder NAME, all logs sorted by name.
pctiles() {
  dir=$1 name=$2 script=$3
  shift 3
  logs=$(ls "$here/$dir"/*_clat_hist.* | sort)
  mkdir -p "$here/$dir/reference"
  # shellcheck disable=SC2086
  TZ=UTC python3 "$script" "$@" -- $logs > "$here/$dir/reference/$name"
}

# pctiles_dir DIR NAME DIRECTION OPTIONS...: the same fed only lines of one direction.
pctiles_dir() {
  dir=$1 name=$2 direction=$3
  shift 3
  mkdir -p "$scratch/$dir"
  for f in "$here/$dir"/*_clat_hist.*; do
    awk -F', ' -v d="$direction" '$2 == d' "$f" > "$scratch/$dir/$(basename "$f")"
  done
  mkdir -p "$here/$dir/reference"
  # shellcheck disable=SC2046
  TZ=UTC python3 "$ref" "$@" -- $(ls "$scratch/$dir"/* | sort) > "$here/$dir/reference/$name"
}

# randread200: 2 jobs, random reads only, log_hist_msec=200, relative stamps.
rm -rf "$here/randread200" && mkdir -p "$here/randread200"
(cd "$here/randread200" && fio --name=randread200 $common --rw=randread --numjobs=2 \
  --runtime=4 --write_hist_log=randread200 --log_hist_msec=200 --output=/dev/null)
pctiles randread200 pctiles-default.csv "$ref"
pctiles randread200 pctiles-tq1-p50_90_99_99.9_100.csv "$ref" --time-quantum 1 \
  --percentiles 50 90 99 99.9 100
pctiles randread200 pctiles-tq2-p0_25_50_75_100-msec.csv "$ref" --time-quantum 2 \
  --percentiles 0 25 50 75 100 --output-unit msec

# randrw500: 3 jobs, 70/30 random read/write, log_hist_msec=500, relative stamps.
rm -rf "$here/randrw500" && mkdir -p "$here/randrw500"
(cd "$here/randrw500" && fio --name=randrw500 $common --rw=randrw --rwmixread=70 \
  --numjobs=3 --runtime=7 --write_hist_log=randrw500 --log_hist_msec=500 --output=/dev/null)
pctiles randrw500 pctiles-default.csv "$ref"
pctiles randrw500 pctiles-tq3-p50_95_99_99.99.csv "$ref" --time-quantum 3 \
  --percentiles 50 95 99 99.99
# Unsorted and repeated percentiles: the header follows the given order, the values come
# sorted by percentile, one per distinct value (and p=50 after p=99 extrapolates backwards).
pctiles randrw500 pctiles-tq2-p99_50_99_0.csv "$ref" --time-quantum 2 --percentiles 99 50 99 0
pctiles_dir randrw500 pctiles-tq1-p50_90_99-readonly.csv 0 --time-quantum 1 \
  --percentiles 50 90 99
pctiles_dir randrw500 pctiles-tq1-p50_90_99-writeonly.csv 1 --time-quantum 1 \
  --percentiles 50 90 99

# epochstag: 2 simulated hosts with Unix-epoch stamps, host B started ~1.3 s after A,
# 2 randrw jobs each, log_hist_msec=250. Host A started before the common window, so the
# reference wraps; the .nowrap files come from the patched copy.
rm -rf "$here/epochstag" && mkdir -p "$here/epochstag" "$scratch/hostA" "$scratch/hostB"
(cd "$scratch/hostA" && fio --name=epochstag $common --rw=randrw --numjobs=2 --runtime=5 \
  --write_hist_log=epochstag --log_hist_msec=250 --log_unix_epoch=1 --output=/dev/null) &
sleep 1.3
(cd "$scratch/hostB" && fio --name=epochstag $common --rw=randrw --numjobs=2 --runtime=5 \
  --write_hist_log=epochstag --log_hist_msec=250 --log_unix_epoch=1 --output=/dev/null)
wait
for h in A B; do
  for f in "$scratch/host$h"/epochstag_clat_hist.*.log; do
    cp "$f" "$here/epochstag/$(basename "$f").host$h"
  done
done
pctiles epochstag pctiles-default.csv "$ref"
pctiles epochstag pctiles-default.nowrap.csv "$nowrap"
pctiles epochstag pctiles-tq1-p50_90_99_99.9-lhm250.csv "$ref" --time-quantum 1 \
  --percentiles 50 90 99 99.9 --log-hist-msec 250
pctiles epochstag pctiles-tq1-p50_90_99_99.9-lhm250.nowrap.csv "$nowrap" --time-quantum 1 \
  --percentiles 50 90 99 99.9 --log-hist-msec 250
pctiles epochstag pctiles-tq2-p0_50_99_100.nowrap.csv "$nowrap" --time-quantum 2 \
  --percentiles 0 50 99 100

for d in randread200 randrw500 epochstag; do
  gzip -9 -n "$here/$d"/*_clat_hist.*
done
