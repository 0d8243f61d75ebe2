#!/usr/bin/env bash
# Per-I/O latency logs (write_lat_log, log_avg_msec=0): fiohist pctiles beside cat, zcat and
# awk on the same text. The corpus is the shipped fio 3.42 per-I/O log
# (tests/data/fio-3.42-client-server/csa_clat.1.log.127.0.0.1.gz, 72391 I/Os in 12 s) laid
# end to end 68 times into each of 8 job logs (39.4 M lines, 1.0 GB of text, 0.2 GB gzip:
# about 1.2 GB of disk under --dir), made once and cached: at about 1 s a row, /usr/bin/time's
# 10 ms steps no longer matter. Each row is the best of --reps whole-process runs (wall from
# the clock in ns, CPU = user + sys and peak RSS of the largest process from /usr/bin/time).
# On a shared machine read MB per CPU second (and paired runs) rather than wall.
#
# The binary: --fiohist, else $FIOHIST, else build/fiohist (the release build), else
# build-bench/fiohist; never a sanitizer build unless named (ASan runs about 8x slower).
# The one used is printed first.
#
# Usage: bench/per_io_bench.sh [--fiohist BIN] [--dir DIR] [--reps N]
set -u -o pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
DIR=${FIOHIST_BENCH_DIR:-/tmp/fiohist-bench}/per-io
FIOHIST=${FIOHIST:-}
REPS=3
while [ $# -gt 0 ]; do
  case "$1" in
    --fiohist) FIOHIST=$2; shift ;;
    --dir) DIR=$2; shift ;;
    --reps) REPS=$2; shift ;;
    *) echo "per_io_bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$FIOHIST" ]; then
  for b in "$ROOT"/build/fiohist "$ROOT"/build-bench/fiohist; do
    [ -x "$b" ] && { FIOHIST=$b; break; }
  done
fi
[ -x "$FIOHIST" ] || { echo "per_io_bench.sh: no release build/fiohist (--fiohist BIN)" >&2; exit 1; }
KIND=release
grep -qa __asan_init "$FIOHIST" && KIND="SANITIZER build: not a speed measure"
echo "fiohist binary: $FIOHIST ($KIND)"
SRC=$ROOT/tests/data/fio-3.42-client-server/csa_clat.1.log.127.0.0.1.gz
LOGS=8
COPIES=68
DIR=$DIR/v2-${LOGS}x$COPIES  # the corpus's shape in its folder's name: a new shape, a new cache
mkdir -p "$DIR/gz"
if [ ! -s "$DIR/gz/b_clat.$LOGS.log.gz" ]; then
  echo "[bench] making the per-I/O corpus in $DIR (about 1.2 GB)" >&2
  for j in $(seq "$LOGS"); do
    # COPIES copies of the 12 s log, each shifted by the log's span: times keep going forward.
    zcat "$SRC" | awk -F', ' -v OFS=', ' -v copies="$COPIES" '
      NR == 1 { t0 = $1 } { t[NR] = $1 - t0; rest[NR] = substr($0, index($0, ", ") + 2) }
      END { span = t[NR] + 1; for (r = 0; r < copies; r++) for (i = 1; i <= NR; i++)
              print t[i] + r * span, rest[i] }' > "$DIR/b_clat.$j.log"
    gzip -c "$DIR/b_clat.$j.log" > "$DIR/gz/b_clat.$j.log.gz"
  done
fi
PLAIN=()
GZ=()
for j in $(seq "$LOGS"); do
  PLAIN+=("$DIR/b_clat.$j.log")
  GZ+=("$DIR/gz/b_clat.$j.log.gz")
done
BYTES=$(cat "${PLAIN[@]}" | wc -c)
LINES=$(cat "${PLAIN[@]}" | wc -l)

declare -A WALL CPU
best() {  # best() LABEL COMMAND...: the fastest of REPS runs (WALL/CPU[LABEL] keep it)
  local label=$1; shift
  local bw="" bc="" br=""
  for _ in $(seq "$REPS"); do
    local t t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -o "$DIR/time.txt" -f "%e %U %S %M" "$@" > /dev/null 2>&1
    t1=$(date +%s%N)
    t=$(tail -1 "$DIR/time.txt")
    read -r w u s r <<< "$t"
    w=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b - a) / 1e9}')
    if [ -z "$bw" ] || awk -v a="$w" -v b="$bw" 'BEGIN{exit !(a<b)}'; then
      bw=$w; bc=$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u+s}'); br=$r
    fi
  done
  WALL[$label]=$bw; CPU[$label]=$bc
  printf '  %-44s %7.3f %7s %9.0f %9.0f %9.1f %8.1f\n' "$label" "$bw" "$bc" \
    "$(awk -v b="$BYTES" -v w="$bw" 'BEGIN{print (w>0)?b/1e6/w:0}')" \
    "$(awk -v b="$BYTES" -v c="$bc" 'BEGIN{print (c>0)?b/1e6/c:0}')" \
    "$(awk -v l="$LINES" -v w="$bw" 'BEGIN{print (w>0)?l/1e6/w:0}')" \
    "$(awk -v k="$br" 'BEGIN{print k/1024}')"
}

echo "per-I/O logs: ${#PLAIN[@]} logs, $LINES I/Os, $((BYTES / 1000000)) MB of text (best of $REPS)"
printf '  %-44s %7s %7s %9s %9s %9s %8s\n' "" "wall s" "cpu s" "MB/s" "MB/cpu s" "M I/Os/s" \
  "RSS MB"
best "cat plain" cat "${PLAIN[@]}"
best "zcat gzip" zcat "${GZ[@]}"
best "awk summing the latency column" awk -F', ' '{s += $2} END {print s}' "${PLAIN[@]}"
best "fiohist pctiles plain (cluster)" "$FIOHIST" pctiles --quiet "${PLAIN[@]}"
best "fiohist pctiles plain, --threads 1" "$FIOHIST" pctiles --quiet --threads 1 "${PLAIN[@]}"
best "fiohist pctiles plain, cluster,host,job" "$FIOHIST" pctiles --quiet \
  --scope cluster,host,job "${PLAIN[@]}"
best "fiohist pctiles gzip (cluster)" "$FIOHIST" pctiles --quiet "${GZ[@]}"
best "fiohist pctiles gzip, cluster,host,job" "$FIOHIST" pctiles --quiet \
  --scope cluster,host,job "${GZ[@]}"
best "fiohist push --out plain" "$FIOHIST" push --run perio --out "$DIR/out" "${PLAIN[@]}"
rm -rf "$DIR/out"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "n/a" }'; }
echo "  ratios of times (fiohist / other; below 1: fiohist is faster)   wall    cpu"
for pair in "fiohist pctiles plain (cluster)|cat plain" \
            "fiohist pctiles plain, cluster,host,job|cat plain" \
            "fiohist pctiles gzip (cluster)|zcat gzip" \
            "fiohist pctiles gzip, cluster,host,job|zcat gzip" \
            "fiohist pctiles plain (cluster)|awk summing the latency column"; do
  a=${pair%%|*}; b=${pair##*|}
  printf '  %-62s %6s %6s\n' "$a / $b" "$(ratio "${WALL[$a]}" "${WALL[$b]}")" \
    "$(ratio "${CPU[$a]}" "${CPU[$b]}")"
done
