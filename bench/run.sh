#!/usr/bin/env bash
# fiohist benchmarks: generates a deterministic corpus once (cached), then times raw reads
# (cat, zcat), fiohist pctiles (default and compat mode, plain and gzip, long run),
# the reference script on a subset (when FIO_HISTO_LOG_PCTILES is set), document building
# (fiohist push --out; doc_bench on one core and on all) and, when FIOHIST_ES_URL is set,
# indexing against curl + _bulk and read-back (pctiles --run) against curl of its searches.
# Missing fiohist subcommands show as "n/a (not available)" instead of failing the run.
#
# Usage: bench/run.sh [--quick] [--scale F] [--no-long] [--no-many] [--reps N] [--gen BIN]
#                     [--fiohist BIN] [--dir DIR] [--es]
# --es adds "pushing at scale" (bench/es_scale.sh): the many-logs shape pushed into a
# throw-away node and a 3-node cluster it starts itself (minutes; ports 9270..9283).
# --no-many skips the many-logs shape: 1024 hosts x 4 jobs x 30 s, gzip, under ulimit -n
# 1024 (--quick: 64 hosts under ulimit -n 64), for memory per log and the fd limit.
# Env:   FIOHIST_BENCH_DIR (cache, default /tmp/fiohist-bench), FIOHIST (binary),
#        FIO_HISTO_LOG_PCTILES (reference script, .py or .py.gz), FIOHIST_BENCH_REF_MB
#        (reference subset size, default 100), FIOHIST_ES_URL (indexing benchmark, into
#        indices of prefix FIOHIST_BENCH_ES_PREFIX, default fiohistbench, deleted afterwards),
#        DOC_BENCH (doc_bench binary; default: next to fiohist's build, or build*/bench).
set -u -o pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
DIR=${FIOHIST_BENCH_DIR:-/tmp/fiohist-bench}
SCALE=1
QUICK=0
LONG=1
MANY=1
ES_SCALE=0
REPS=1
GEN=${GEN_CORPUS:-}
FIOHIST=${FIOHIST:-}

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1; SCALE=0.01 ;;
    --scale) SCALE=$2; shift ;;
    --no-long) LONG=0 ;;
    --no-many) MANY=0 ;;
    --reps) REPS=$2; shift ;;
    --gen) GEN=$2; shift ;;
    --fiohist) FIOHIST=$2; shift ;;
    --dir) DIR=$2; shift ;;
    --es) ES_SCALE=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

log() { echo "[bench] $*" >&2; }
die() { echo "run.sh: $*" >&2; exit 1; }
mkdir -p "$DIR" || die "cannot create $DIR"
WORK=$(mktemp -d "$DIR/run.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$WORK"' EXIT

# --- binaries -----------------------------------------------------------------------------
# The first executable of the candidates that is not a sanitizer build (ASan runs about 8x
# slower: a build-asan/ binary found by a build*/ glob must not be timed). Explicit
# --fiohist/--gen/DOC_BENCH are taken as given.
first_exe() {
  for c in "$@"; do
    [ -n "$c" ] && [ -x "$c" ] && ! grep -qa __asan_init "$c" && { echo "$c"; return 0; }
  done
  return 1
}
if [ -z "$GEN" ]; then
  GEN=$(first_exe "$ROOT"/build-bench/bench/gen_corpus "$ROOT"/build/bench/gen_corpus \
    "$ROOT"/build*/bench/gen_corpus) || {
    log "no gen_corpus binary given; compiling one into $DIR"
    # FIOHIST_SOURCE_DIR: where gen_corpus finds the real logs it is built from (CMake sets it).
    g++ -std=c++17 -O2 -DFIOHIST_SOURCE_DIR="\"$ROOT\"" "$HERE/gen_corpus.cc" -o "$DIR/gen_corpus" \
      -lboost_program_options -lz -pthread || die "cannot build gen_corpus"
    GEN="$DIR/gen_corpus"
  }
fi
[ -x "$GEN" ] || die "gen_corpus not executable: $GEN"
if [ -z "$FIOHIST" ]; then
  FIOHIST=$(first_exe "$ROOT"/build-bench/fiohist "$ROOT"/build/fiohist "$(command -v fiohist)") ||
    FIOHIST=""
fi
log "fiohist binary: ${FIOHIST:-none}"

# --- peak RSS: GNU time when present, else getrusage(RUSAGE_CHILDREN) via python3 ----------
if [ -x /usr/bin/time ] && /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then
  RSS_SRC="GNU time %M"
else
  RSS_SRC="python3 getrusage(RUSAGE_CHILDREN).ru_maxrss"
fi
# run_timed OUTFILE ERRFILE cmd...: runs cmd (stdout to OUTFILE), prints
# "wall_s rss_kb rc cpu_s" (cpu = user + system of the command and its children).
run_timed() {
  local out=$1 err=$2; shift 2
  local t0 t1 rc rss ut st
  if [ "$RSS_SRC" = "GNU time %M" ]; then
    t0=$(date +%s%N)
    /usr/bin/time -f "%M %U %S" -o "$WORK/rss" "$@" >"$out" 2>"$err"; rc=$?
    t1=$(date +%s%N)
    read -r rss ut st < <(tail -n1 "$WORK/rss")
  else
    t0=$(date +%s%N)
    python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:])
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%d %.2f %.2f" % (ru.ru_maxrss, ru.ru_utime, ru.ru_stime))
sys.exit(rc)' "$WORK/rss" "$@" >"$out" 2>"$err"; rc=$?
    t1=$(date +%s%N)
    read -r rss ut st < <(cat "$WORK/rss" 2>/dev/null || echo 0 0 0)
  fi
  case "$rss" in ''|*[!0-9]*) rss=0 ;; esac
  echo "$(( (t1 - t0) / 1000000 ))e-3 $rss $rc ${ut:-0} ${st:-0}" |
    awk '{printf "%.3f %s %s %.2f\n", $1, $2, $3, $4 + $5}'
}

# --- corpus (cached by the generator's kVersion + scale) -----------------------------------
GEN_VERSION=$(sed -n 's/^constexpr int kVersion = \([0-9]*\);.*/\1/p' "$HERE/gen_corpus.cc")
KEY=v${GEN_VERSION:-0}-s$SCALE
CORPUS="$DIR/corpus-$KEY"
manifest() { awk -v k="$2" '$1==k{print $2}' "$1/MANIFEST"; }
gen_if_missing() {  # name, generator args...
  local name=$1; shift
  if [ -f "$CORPUS/$name.done" ]; then return 0; fi
  log "generating $name corpus into $CORPUS ($*)"
  rm -rf "${CORPUS:?}/$name" "$CORPUS/$name-gz"
  local t0
  t0=$(date +%s%N)
  "$GEN" --scale "$SCALE" "$@" >&2 || die "gen_corpus failed"
  log "  took $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  touch "$CORPUS/$name.done"
}
mkdir -p "$CORPUS"
gen_if_missing normal --out "$CORPUS/plain" --gz-out "$CORPUS/gz"
[ "$LONG" = 1 ] && gen_if_missing long --long --gz-out "$CORPUS/long-gz"

mapfile -t PLAIN < <(find "$CORPUS/plain" -type f -name '*_clat_hist.*' | sort)
mapfile -t GZ < <(find "$CORPUS/gz" -type f -name '*_clat_hist.*' | sort)
LONGGZ=()
[ "$LONG" = 1 ] && mapfile -t LONGGZ < <(find "$CORPUS/long-gz" -type f -name '*_clat_hist.*' | sort)
TEXT_BYTES=$(manifest "$CORPUS/plain" text_bytes)
GZ_BYTES=$(manifest "$CORPUS/gz" stored_bytes)
RECORDS=$(manifest "$CORPUS/plain" records)
HOSTS=$(manifest "$CORPUS/plain" hosts)
JOBS=$(manifest "$CORPUS/plain" jobs)
SECONDS_RUN=$(manifest "$CORPUS/plain" seconds)
if [ "$LONG" = 1 ]; then
  LONG_TEXT=$(manifest "$CORPUS/long-gz" text_bytes)
  LONG_GZ=$(manifest "$CORPUS/long-gz" stored_bytes)
  LONG_RECORDS=$(manifest "$CORPUS/long-gz" records)
fi

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
# Warm the page cache: every input is read once before anything is timed (nothing dropped).
log "warming the page cache"
cat "${PLAIN[@]}" "${GZ[@]}" "${LONGGZ[@]}" >/dev/null

# --- result table --------------------------------------------------------------------------
declare -A WALL RSS MBS CPUMB
ROWS=()
# row KEY LABEL BYTES RECORDS WALL RSS_KB NOTE [CPU_S]  (WALL "n/a" for unavailable)
FMT='%-46s %9s %8s %8s %8s %12s %9s  %s'
row() {
  local key=$1 label=$2 bytes=$3 recs=$4 wall=$5 rss=$6 note=$7 cpu=${8:--}
  if [ "$wall" = n/a ]; then
    ROWS+=("$(printf "$FMT" "$label" "$(awk -v b="$bytes" 'BEGIN{printf "%.0f", b/1e6}')" n/a - \
      - - - "n/a (not available)${note:+: $note}")")
    return
  fi
  local mbs rps
  mbs=$(awk -v b="$bytes" -v w="$wall" 'BEGIN{printf "%.1f", (w>0)?b/1e6/w:0}')
  rps=$(awk -v r="$recs" -v w="$wall" 'BEGIN{printf "%.0f", (w>0)?r/w:0}')
  WALL[$key]=$wall; RSS[$key]=$rss; MBS[$key]=$mbs
  CPUMB[$key]=$(awk -v b="$bytes" -v c="$cpu" 'BEGIN{if (c+0 > 0) printf "%.2f", b/1e6/c}')
  ROWS+=("$(printf "$FMT" "$label" \
    "$(awk -v b="$bytes" 'BEGIN{printf "%.0f", b/1e6}')" "$(printf %.2f "$wall")" "$cpu" "$mbs" "$rps" \
    "$(awk -v k="$rss" 'BEGIN{printf "%.1f", k/1024}')" "$note")")
}
# bench KEY LABEL BYTES RECORDS OUTFILE cmd...: best wall of REPS runs, max RSS. When
# BEFORE_EACH names a function, it runs (untimed) before every repetition.
bench() {
  local key=$1 label=$2 bytes=$3 recs=$4 out=$5; shift 5
  local best="" rss=0 i res w r rc c cpu=""
  for ((i = 0; i < REPS; i++)); do
    [ -n "${BEFORE_EACH:-}" ] && "$BEFORE_EACH"
    log "timing: $label"
    res=$(run_timed "$out" "$WORK/$key.err" "$@")
    read -r w r rc c <<<"$res"
    # fiohist exits 3 when it finished but skipped bad input: timed, but flagged.
    if [ "$rc" = 3 ] && [ "${1:-}" = "$FIOHIST" ]; then
      NOTE="${NOTE:+$NOTE; }exit 3: $(grep -m1 . "$WORK/$key.err" | cut -c1-50)"
    elif [ "$rc" != 0 ]; then
      log "  failed (rc=$rc): $(head -c 300 "$WORK/$key.err")"
      row "$key" "$label" "$bytes" "$recs" n/a 0 "failed rc=$rc: $(head -n1 "$WORK/$key.err" | cut -c1-60)"
      return 1
    fi
    if [ -z "$best" ] || awk -v a="$w" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$w; cpu=$c; fi
    [ "$r" -gt "$rss" ] && rss=$r
  done
  row "$key" "$label" "$bytes" "$recs" "$best" "$rss" "${NOTE:-}" "$cpu"
}

# probe LABEL cmd...: does this fiohist command work on one small log? (sets PROBE_ERR)
probe() {
  shift  # the label only documents the call site
  PROBE_ERR=""
  if [ -z "$FIOHIST" ]; then PROBE_ERR="no fiohist binary"; return 1; fi
  local rc=0
  "$@" >"$WORK/probe.out" 2>"$WORK/probe.err" || rc=$?
  if [ "$rc" != 0 ]; then
    PROBE_ERR=$(grep -m1 . "$WORK/probe.err" | cut -c1-70)
    [ -n "$PROBE_ERR" ] || PROBE_ERR="exit status $rc"
    return 1
  fi
}

NOTE=""
bench cat "cat plain > /dev/null" "$TEXT_BYTES" "$RECORDS" /dev/null cat "${PLAIN[@]}"
NOTE="MB = uncompressed; $(awk -v b="$GZ_BYTES" 'BEGIN{printf "%.0f", b/1e6}') MB on disk"
bench zcat "zcat gzip > /dev/null" "$TEXT_BYTES" "$RECORDS" /dev/null zcat "${GZ[@]}"
NOTE=""

ONE_PLAIN=${PLAIN[0]}
ONE_GZ=${GZ[0]}
SCOPES=cluster,host,job
if probe x "$FIOHIST" pctiles --scope "$SCOPES" -o "$WORK/probe.csv" "$ONE_PLAIN"; then
  bench pct_plain "fiohist pctiles $SCOPES (plain)" "$TEXT_BYTES" "$RECORDS" /dev/null \
    "$FIOHIST" pctiles --scope "$SCOPES" -o "$WORK/pctiles.csv" "${PLAIN[@]}"
  PCT_ROWS=$( [ -f "$WORK/pctiles.csv" ] && wc -l <"$WORK/pctiles.csv" || echo 0)
  bench pct_cluster "fiohist pctiles cluster (plain)" "$TEXT_BYTES" "$RECORDS" /dev/null \
    "$FIOHIST" pctiles --scope cluster -o "$WORK/pctiles-cluster.csv" "${PLAIN[@]}"
else
  row pct_plain "fiohist pctiles $SCOPES (plain)" "$TEXT_BYTES" "$RECORDS" n/a 0 "$PROBE_ERR"
  row pct_cluster "fiohist pctiles cluster (plain)" "$TEXT_BYTES" "$RECORDS" n/a 0 "$PROBE_ERR"
fi
if probe x "$FIOHIST" pctiles --scope "$SCOPES" -o "$WORK/probe.csv" "$ONE_GZ"; then
  bench pct_gz "fiohist pctiles $SCOPES (gzip)" "$TEXT_BYTES" "$RECORDS" /dev/null \
    "$FIOHIST" pctiles --scope "$SCOPES" -o "$WORK/pctiles-gz.csv" "${GZ[@]}"
else
  row pct_gz "fiohist pctiles $SCOPES (gzip)" "$TEXT_BYTES" "$RECORDS" n/a 0 "$PROBE_ERR"
fi
COMPAT=(pctiles --compat fio-histo-log-pctiles)
if probe x "$FIOHIST" "${COMPAT[@]}" -- "$ONE_PLAIN"; then
  bench compat "fiohist pctiles --compat (plain)" "$TEXT_BYTES" "$RECORDS" "$WORK/compat.csv" \
    "$FIOHIST" "${COMPAT[@]}" -- "${PLAIN[@]}"
  HAVE_COMPAT=1
else
  row compat "fiohist pctiles --compat (plain)" "$TEXT_BYTES" "$RECORDS" n/a 0 "$PROBE_ERR"
  HAVE_COMPAT=0
fi
if [ "$LONG" = 1 ]; then
  if probe x "$FIOHIST" pctiles --scope "$SCOPES" -o "$WORK/probe.csv" "$ONE_GZ"; then
    NOTE="10x duration; MB = uncompressed"
    bench long "fiohist pctiles $SCOPES (long, gzip)" "$LONG_TEXT" "$LONG_RECORDS" /dev/null \
      "$FIOHIST" pctiles --scope "$SCOPES" -o "$WORK/pctiles-long.csv" "${LONGGZ[@]}"
    NOTE=""
  else
    row long "fiohist pctiles $SCOPES (long, gzip)" "$LONG_TEXT" "$LONG_RECORDS" n/a 0 "$PROBE_ERR"
  fi
fi

# host_of FILE: the host of a corpus log (".hostNN" suffix, else the parent directory).
host_of() {
  case "${1##*/}" in
    *.log) basename "$(dirname "$1")" ;;
    *) echo "${1##*.}" ;;
  esac
}

# --- the reference script, on a subset of whole hosts, scaled by bytes ---------------------
REF=${FIO_HISTO_LOG_PCTILES:-}
REF_NOTE=""
if [ -n "$REF" ]; then
  if [ "${REF%.gz}" != "$REF" ]; then
    mkdir -p /tmp/fiohist-bench-ref && zcat "$REF" >/tmp/fiohist-bench-ref/fio-histo-log-pctiles.py \
      && REF=/tmp/fiohist-bench-ref/fio-histo-log-pctiles.py
  fi
  REF_MB=${FIOHIST_BENCH_REF_MB:-100}
  # Whole hosts (all their jobs), as many as fit in about REF_MB (at least one).
  NSUB=$(awk -v m="$REF_MB" -v t="$TEXT_BYTES" -v h="$HOSTS" \
    'BEGIN{n=int(m*1e6/(t/h)+0.5); if(n<1)n=1; if(n>h)n=h; print n}')
  mapfile -t SUBHOSTS < <(for f in "${PLAIN[@]}"; do host_of "$f"; done | sort -u | head -n "$NSUB")
  SUB=()
  for f in "${PLAIN[@]}"; do
    h=$(host_of "$f")
    for k in "${SUBHOSTS[@]}"; do [ "$h" = "$k" ] && SUB+=("$f"); done
  done
  SUB_BYTES=$(cat "${SUB[@]}" | wc -c)
  SUB_RECS=$(cat "${SUB[@]}" | wc -l)
  SUB_MB=$(awk -v b="$SUB_BYTES" 'BEGIN{printf "%.0f", b/1e6}')
  NOTE="subset ${#SUB[@]} logs, $SUB_MB MB"
  if bench ref "reference script (subset)" "$SUB_BYTES" "$SUB_RECS" "$WORK/ref.csv" \
      python3 "$REF" -- "${SUB[@]}"; then
    if [ "$HAVE_COMPAT" = 1 ]; then
      bench compat_sub "fiohist --compat (same subset)" "$SUB_BYTES" "$SUB_RECS" \
        "$WORK/compat-sub.csv" "$FIOHIST" "${COMPAT[@]}" -- "${SUB[@]}"
      if cmp -s "$WORK/ref.csv" "$WORK/compat-sub.csv"; then
        REF_NOTE="compat output on the subset: byte-identical to the reference"
      else
        REF_NOTE="compat output on the subset: differs from the reference in $(diff "$WORK/ref.csv" "$WORK/compat-sub.csv" | grep -c '^<') lines"
      fi
    fi
    EST=$(awk -v w="${WALL[ref]}" -v s="$SUB_BYTES" -v t="$TEXT_BYTES" 'BEGIN{printf "%.1f", w*t/s}')
    ROWS+=("$(printf "$FMT" "reference script (full, estimated)" \
      "$(awk -v b="$TEXT_BYTES" 'BEGIN{printf "%.0f", b/1e6}')" "$EST" - "${MBS[ref]}" - - \
      "scaled from the subset by bytes")")
    WALL[ref_full]=$EST
  fi
  NOTE=""
else
  ROWS+=("$(printf "$FMT" "reference script" - n/a - - - - \
    "n/a (set FIO_HISTO_LOG_PCTILES to fio-histo-log-pctiles.py[.gz])")")
fi

# --- many logs: thousands of short gzip logs under the usual open-file limit ---------------
# Peak memory per log, and whether fiohist stays within `ulimit -n` (soft and hard, so it
# cannot raise it): every command runs through `bash -c 'ulimit -n N && exec ...'`.
MANY_ROWS=()
if [ "$MANY" = 1 ]; then
  MANY_HOSTS=1024 MANY_NOFILE=1024
  [ "$QUICK" = 1 ] && MANY_HOSTS=64 MANY_NOFILE=64
  MANY_DIR="$DIR/many-v${GEN_VERSION:-0}-h$MANY_HOSTS"
  if [ ! -f "$MANY_DIR.done" ]; then
    log "generating the many-logs corpus into $MANY_DIR ($MANY_HOSTS hosts x 4 jobs x 30 s)"
    rm -rf "$MANY_DIR"
    "$GEN" --hosts "$MANY_HOSTS" --jobs 4 --seconds 30 --gz-out "$MANY_DIR" >&2 &&
      touch "$MANY_DIR.done" || die "gen_corpus failed (many logs)"
  fi
  mapfile -t MANYGZ < <(find "$MANY_DIR" -type f -name '*_clat_hist.*' | sort)
  MANY_TEXT=$(manifest "$MANY_DIR" text_bytes)
  MANY_RECORDS=$(manifest "$MANY_DIR" records)
  cat "${MANYGZ[@]}" >/dev/null
  LIMIT=(bash -c 'ulimit -n "$0" && exec "$@"' "$MANY_NOFILE")
  N=${#MANYGZ[@]}
  NOTE="$N logs; MB = uncompressed"
  bench many_zcat "zcat, $N gzip logs" "$MANY_TEXT" "$MANY_RECORDS" /dev/null zcat "${MANYGZ[@]}"
  NOTE="$N logs, ulimit -n $MANY_NOFILE"
  bench many_all "fiohist pctiles $SCOPES ($N logs)" "$MANY_TEXT" "$MANY_RECORDS" /dev/null \
    "${LIMIT[@]}" "$FIOHIST" pctiles --scope "$SCOPES" -o "$WORK/many.csv" "${MANYGZ[@]}"
  bench many_cluster "fiohist pctiles cluster ($N logs)" "$MANY_TEXT" "$MANY_RECORDS" /dev/null \
    "${LIMIT[@]}" "$FIOHIST" pctiles --scope cluster -o "$WORK/many-cluster.csv" "${MANYGZ[@]}"
  rm -rf "$WORK/many-push"
  bench many_push "fiohist push --out ($N logs)" "$MANY_TEXT" "$MANY_RECORDS" /dev/null \
    "${LIMIT[@]}" "$FIOHIST" push --out "$WORK/many-push" --run many "${MANYGZ[@]}"
  rm -rf "$WORK/many-push"
  NOTE=""
  for k in many_all many_cluster many_push; do
    [ -n "${RSS[$k]:-}" ] && MANY_ROWS+=("$(printf '  %-44s %s' "peak RSS / logs, $k" \
      "$(awk -v r="${RSS[$k]}" -v n="$N" 'BEGIN{printf "%.1f KB", r/n}')")")
  done
  [ -n "${WALL[many_all]:-}" ] && MANY_ROWS+=("$(printf '  %-44s %s' \
    "pctiles $SCOPES / zcat, $N logs [wall]" "$(awk -v a="${WALL[many_all]}" \
    -v b="${WALL[many_zcat]:-0}" 'BEGIN{if (b>0) printf "%.2f", a/b; else print "n/a"}')")")
fi

# --- document building: fiohist push --out -------------------------------------------------
DOCS=0
if probe x "$FIOHIST" push --out "$WORK/probe-push" --run probe "$ONE_PLAIN"; then
  rm -rf "$WORK/push"
  if bench push "fiohist push --out (plain)" "$TEXT_BYTES" "$RECORDS" /dev/null \
      "$FIOHIST" push --out "$WORK/push" --plain-out --run bench "${PLAIN[@]}"; then
    # documents = lines / 2; one-line delete actions (if any) are not documents.
    LINES=$(find "$WORK/push" -type f -name '*.ndjson' -exec cat {} + | wc -l)
    DELETES=$(find "$WORK/push" -type f -name '*.ndjson' -exec cat {} + | grep -c '^{"delete"' || true)
    DOCS=$(( (LINES - DELETES) / 2 ))
  fi
else
  row push "fiohist push --out (plain)" "$TEXT_BYTES" "$RECORDS" n/a 0 "$PROBE_ERR"
fi

# --- document building alone (doc_bench: no parsing, no I/O), one core and all cores -------
DOC_BENCH=${DOC_BENCH:-}
if [ -z "$DOC_BENCH" ]; then
  DOC_BENCH=$(first_exe "$(dirname "${FIOHIST:-/nonexistent}")"/bench/doc_bench \
    "$ROOT"/build-bench/bench/doc_bench "$ROOT"/build/bench/doc_bench \
    "$ROOT"/build*/bench/doc_bench) || DOC_BENCH=""
fi
DOC_LINES=()
if [ -n "$DOC_BENCH" ]; then
  log "timing: doc_bench (one process, then $(nproc) at once)"
  "$DOC_BENCH" "$ONE_PLAIN" 3 >"$WORK/doc1.txt" 2>&1 || true
  for ((i = 0; i < $(nproc); i++)); do "$DOC_BENCH" "$ONE_PLAIN" 3 >"$WORK/docn.$i.txt" 2>&1 & done
  wait
  # "<kind> documents (append): N docs/s" per process: one core, and the sum over processes.
  for kind in percentile bucket; do
    one=$(awk -v k="$kind" '$1==k && /append/{print $4}' "$WORK/doc1.txt")
    all=$(cat "$WORK"/docn.*.txt | awk -v k="$kind" '$1==k && /append/{s+=$4} END{print s+0}')
    size=$(awk -v k="$kind" '$1==k && /append/ && match($0, /[0-9]+ bytes each/) {
      print substr($0, RSTART, RLENGTH - 11)}' "$WORK/doc1.txt")
    DOC_LINES+=("$(printf '  %-44s %s' "$kind documents/s, one core / $(nproc) cores" \
      "${one:-?} / ${all:-?}  (${size:-?} bytes each)")")
  done
fi

# --- indexing: fiohist push --es-url / load versus curl posting the same NDJSON to _bulk ----
# Every run indexes into freshly created indices of a bench-only prefix (monthly or single:
# the wildcards cover both; deleted and set up
# again before each run), so all of them create documents rather than overwrite them.
# curl sends each bulk file of `push --out` as one request: those files are complete `_bulk`
# bodies of at most 5 MiB, fiohist's own default batch bound, and fiohist is told to batch by
# bytes only (--batch-docs huge) when it has that option, so both use the same batch size.
ES=${FIOHIST_ES_URL:-}
PREFIX=${FIOHIST_BENCH_ES_PREFIX:-fiohistbench}
if [ -n "$ES" ]; then
  ES=${ES%/}
  HAVE_SETUP=0
  probe x "$FIOHIST" setup --es-url "$ES" --index-prefix "$PREFIX" && HAVE_SETUP=1
  es_reset() {
    curl -s -o /dev/null -X DELETE "$ES/$PREFIX-pctiles*,$PREFIX-buckets*,$PREFIX-runs*?ignore_unavailable=true"
    if [ "$HAVE_SETUP" = 1 ]; then
      "$FIOHIST" setup --es-url "$ES" --index-prefix "$PREFIX" >/dev/null 2>&1
    fi
  }
  es_count() {
    curl -s -X POST "$ES/$PREFIX-pctiles*,$PREFIX-buckets*,$PREFIX-runs*/_refresh" -o /dev/null
    curl -s "$ES/$PREFIX-pctiles*,$PREFIX-buckets*,$PREFIX-runs*/_count" |
      sed -n 's/.*"count":\([0-9]*\).*/\1/p'
  }
  BEFORE_EACH=es_reset  # every indexing run starts from empty, freshly set up indices
  # The help text is read whole first: `| grep -q` stops reading at the first match, and
  # under pipefail the writer's broken pipe then made the test false.
  PUSH_HELP=$("$FIOHIST" push --help 2>&1 || true)
  BATCH_OPTS=()
  if [[ $PUSH_HELP == *--batch-docs* ]]; then
    BATCH_OPTS=(--batch-docs 100000000 --batch-bytes 5242880)
  fi
  # The corpus has relative stamps and no fio JSON: push to a cluster needs the opt-in.
  ANCHOR_OPTS=()
  if [[ $PUSH_HELP == *--unanchored* ]]; then
    ANCHOR_OPTS=(--unanchored)
  fi
  if [ "$DOCS" -gt 0 ] && probe x "$FIOHIST" push --es-url "$ES" --index-prefix "$PREFIX" \
      "${ANCHOR_OPTS[@]}" --run bench-probe "$ONE_PLAIN"; then
    NOTE="$DOCS docs"
    bench es_push "fiohist push --es-url" "$TEXT_BYTES" "$RECORDS" /dev/null \
      "$FIOHIST" push --es-url "$ES" --index-prefix "$PREFIX" "${BATCH_OPTS[@]}" \
      "${ANCHOR_OPTS[@]}" --run bench \
      "${PLAIN[@]}" && ES_COUNT_PUSH=$(es_count)
    # Read-back of that run, every scope, against curl sending the same searches: fiohist
    # is bound by the server when the two take about as long.
    if probe x "$FIOHIST" pctiles --es-url "$ES" --index-prefix "$PREFIX" --run bench \
        --scope cluster -o /dev/null; then
      BEFORE_EACH=""
      NOTE="$DOCS docs pushed, the bucket documents read"
      bench es_readback "fiohist pctiles --run (read-back)" "$TEXT_BYTES" "$RECORDS" /dev/null \
        "$FIOHIST" pctiles --es-url "$ES" --index-prefix "$PREFIX" --run bench \
        --scope "$SCOPES" -o /dev/null
      NOTE="the same searches and pages, answers to /dev/null"
      bench es_readback_curl "curl of read-back's searches" "$TEXT_BYTES" "$RECORDS" /dev/null \
        bash "$HERE/readback_curl.sh" "$ES" "$PREFIX" bench
      BEFORE_EACH=es_reset
      NOTE=""
    else
      row es_readback "fiohist pctiles --run (read-back)" "$TEXT_BYTES" "$RECORDS" n/a 0 "$PROBE_ERR"
    fi
  else
    row es_push "fiohist push --es-url" "$TEXT_BYTES" "$RECORDS" n/a 0 \
      "${PROBE_ERR:-no NDJSON from push --out}"
  fi
  if [ "$DOCS" -gt 0 ]; then
    if probe x "$FIOHIST" load --es-url "$ES" --index-prefix "$PREFIX" "$WORK/probe-push"; then
      NOTE="$DOCS docs, the push --out files"
      bench es_load "fiohist load (push --out files)" "$TEXT_BYTES" "$RECORDS" /dev/null \
        "$FIOHIST" load --es-url "$ES" --index-prefix "$PREFIX" "${BATCH_OPTS[@]}" "$WORK/push"
    else
      row es_load "fiohist load (push --out files)" "$TEXT_BYTES" "$RECORDS" n/a 0 "$PROBE_ERR"
    fi
    # The server-side limit: the same bodies (index names moved to the bench prefix) by curl.
    mkdir -p "$WORK/curl-bulk"
    for f in "$WORK"/push/*.ndjson; do
      sed -E 's/^(\{"[a-z]+":\{"_index":")[^"]*-(pctiles|buckets|runs)"/\1'"$PREFIX"'-\2"/' \
        "$f" >"$WORK/curl-bulk/${f##*/}"
    done
    CURL_ARGS=()
    NREQ=0
    for c in "$WORK"/curl-bulk/*.ndjson; do
      [ ${#CURL_ARGS[@]} -gt 0 ] && CURL_ARGS+=(--next)
      CURL_ARGS+=(-s -o /dev/null -w '%{http_code}\n' -H 'Content-Type: application/x-ndjson'
        --data-binary "@$c" "$ES/_bulk")
      NREQ=$((NREQ + 1))
    done
    # fiohist ends with a refresh (the documents are searchable when it returns): so does curl.
    CURL_ARGS+=(--next -s -o /dev/null -w '%{http_code}\n' -X POST
      "$ES/$PREFIX-pctiles*,$PREFIX-buckets*,$PREFIX-runs*/_refresh")
    NOTE="$DOCS docs in $NREQ requests (~$(( DOCS / (NREQ > 0 ? NREQ : 1) )) docs each) + refresh"
    bench es_curl "curl _bulk (same NDJSON files)" "$TEXT_BYTES" "$RECORDS" "$WORK/curl.codes" \
      curl "${CURL_ARGS[@]}"
    BAD=$(grep -vc '^200$' "$WORK/curl.codes" || true)
    [ "$BAD" != 0 ] && log "curl: $BAD requests without HTTP 200"
    ES_COUNT_CURL=$(es_count)
    # fiohist keeps --concurrency requests in flight (default 2): curl the same way, the
    # refresh after all of them.
    CONC=$("$FIOHIST" push --help 2>&1 | sed -n 's/.*--concurrency arg (=\([0-9]*\)).*/\1/p')
    if [ -n "$CONC" ] && [ "$CONC" -gt 1 ] && [[ $(curl --help all 2>/dev/null || true) == *--parallel-max* ]]; then
      PAR_ARGS=(--parallel --parallel-max "$CONC")
      for c in "$WORK"/curl-bulk/*.ndjson; do
        [ ${#PAR_ARGS[@]} -gt 3 ] && PAR_ARGS+=(--next)
        PAR_ARGS+=(-s -o /dev/null -w '%{http_code}\n' -H 'Content-Type: application/x-ndjson'
          --data-binary "@$c" "$ES/_bulk")
      done
      # A script, so that the timing wraps both curl calls.
      {
        printf 'curl'
        printf ' %q' "${PAR_ARGS[@]}"
        printf ' && curl -s -o /dev/null -w %q -X POST %q\n' '%{http_code}\n' \
          "$ES/$PREFIX-pctiles*,$PREFIX-buckets*,$PREFIX-runs*/_refresh"
      } >"$WORK/curl-parallel.sh"
      NOTE="$DOCS docs in $NREQ requests, $CONC at a time + refresh"
      bench es_curl_par "curl _bulk, $CONC in flight (as push)" "$TEXT_BYTES" "$RECORDS" \
        "$WORK/curl-par.codes" bash "$WORK/curl-parallel.sh"
      BAD=$(grep -vc '^200$' "$WORK/curl-par.codes" || true)
      [ "$BAD" != 0 ] && log "curl --parallel: $BAD requests without HTTP 200"
    fi
    NOTE=""
  fi
  # The many-logs shape pushed straight to the node: peak memory with the sending lanes'
  # batches on top of push --out's (issue 23: within 256 MB at 4096 logs).
  if [ "$MANY" = 1 ] && [ "${N:-0}" -gt 0 ]; then
    NOTE="$N logs, ulimit -n $MANY_NOFILE"
    bench many_push_es "fiohist push --es-url ($N logs)" "$MANY_TEXT" "$MANY_RECORDS" /dev/null \
      "${LIMIT[@]}" "$FIOHIST" push --es-url "$ES" --index-prefix "$PREFIX" \
      "${ANCHOR_OPTS[@]}" --run many "${MANYGZ[@]}"
    [ -n "${RSS[many_push_es]:-}" ] && MANY_ROWS+=("$(printf '  %-44s %s' \
      "peak RSS / logs, many_push_es" \
      "$(awk -v r="${RSS[many_push_es]}" -v n="$N" 'BEGIN{printf "%.1f KB", r/n}')")")
    NOTE=""
  fi
  BEFORE_EACH=""
  curl -s -o /dev/null -X DELETE "$ES/$PREFIX-pctiles*,$PREFIX-buckets*,$PREFIX-runs*?ignore_unavailable=true"
fi

# --- report --------------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{if (a==""||b==""||b==0) print "n/a"; else printf "%.2f", a/b}'; }
echo
echo "fiohist benchmarks  $(date -u +%Y-%m-%dT%H:%M:%SZ)  $(uname -n), $(nproc) CPUs, $(awk '/MemTotal/{printf "%.0f GB", $2/1048576}' /proc/meminfo)"
echo "fiohist: ${FIOHIST:-none}"
echo "corpus:  $CORPUS"
echo "         $HOSTS hosts x $JOBS jobs x $SECONDS_RUN s, $RECORDS records, $(awk -v b="$TEXT_BYTES" 'BEGIN{printf "%.1f", b/1e6}') MB text, $(awk -v b="$GZ_BYTES" 'BEGIN{printf "%.1f", b/1e6}') MB gzip"
[ "$LONG" = 1 ] && echo "         long: $LONG_RECORDS records, $(awk -v b="$LONG_TEXT" 'BEGIN{printf "%.1f", b/1e6}') MB text, $(awk -v b="$LONG_GZ" 'BEGIN{printf "%.1f", b/1e6}') MB gzip"
echo "load average at start: $LOAD0 (other work on this machine skews wall times; CPU s = user+sys)"
echo "page cache warm (all inputs read once first); best of $REPS; MB = 10^6 bytes of log text; peak RSS via $RSS_SRC"
echo
printf "$FMT\n" "command" "input MB" "wall s" "CPU s" "MB/s" "records/s" "RSS MB" "notes"
printf '%s\n' "$(printf '%.0s-' {1..100})"
printf '%s\n' "${ROWS[@]}"
echo
echo "ratios (cluster = the reference's own work; default = cluster, host and job scopes)"
printf '  %-44s %s\n' "fiohist (plain) / cat  [throughput]" "$(ratio "${MBS[pct_plain]:-}" "${MBS[cat]:-}")"
printf '  %-44s %s\n' "fiohist (gzip) / zcat  [throughput]" "$(ratio "${MBS[pct_gz]:-}" "${MBS[zcat]:-}")"
printf '  %-44s %s\n' "fiohist compat / reference  [throughput]" "$(ratio "${MBS[compat]:-}" "${MBS[ref]:-}")"
printf '  %-44s %s\n' "fiohist cluster / reference  [throughput]" "$(ratio "${MBS[pct_cluster]:-}" "${MBS[ref]:-}")"
printf '  %-44s %s\n' "fiohist default / reference  [throughput]" "$(ratio "${MBS[pct_plain]:-}" "${MBS[ref]:-}")"
printf '  %-44s %s\n' "fiohist compat / reference  [MB per CPU s]" "$(ratio "${CPUMB[compat]:-}" "${CPUMB[ref]:-}")"
printf '  %-44s %s\n' "fiohist default / reference  [MB per CPU s]" "$(ratio "${CPUMB[pct_plain]:-}" "${CPUMB[ref]:-}")"
printf '  %-44s %s\n' "long-run RSS / normal RSS (both gzip)" "$(ratio "${RSS[long]:-}" "${RSS[pct_gz]:-}")"
printf '  %-44s %s\n' "RSS cluster,host,job / cluster only" "$(ratio "${RSS[pct_plain]:-}" "${RSS[pct_cluster]:-}")"
if [ -n "${RSS[pct_plain]:-}" ] && [ -n "${RSS[pct_cluster]:-}" ]; then
  printf '  %-44s %s\n' "extra RSS per job log for host+job scopes" \
    "$(awk -v a="${RSS[pct_plain]}" -v b="${RSS[pct_cluster]}" -v n="${#PLAIN[@]}" 'BEGIN{printf "%.1f KB", (a-b)/n}')"
fi
[ ${#MANY_ROWS[@]} -gt 0 ] && printf '%s\n' "${MANY_ROWS[@]}"
[ -n "${PCT_ROWS:-}" ] && printf '  %-44s %s\n' "pctiles output rows ($SCOPES)" "$PCT_ROWS"
if [ "$DOCS" -gt 0 ] && [ -n "${WALL[push]:-}" ]; then
  printf '  %-44s %s\n' "documents built (NDJSON lines / 2)" "$DOCS"
  printf '  %-44s %s\n' "documents/s (push --out)" "$(ratio "$DOCS" "${WALL[push]}")"
fi
[ ${#DOC_LINES[@]} -gt 0 ] && printf '%s\n' "  doc_bench (building only, no I/O):" "${DOC_LINES[@]}"
if [ -n "${WALL[es_push]:-}" ]; then
  printf '  %-44s %s\n' "documents/s (push --es-url)" "$(ratio "$DOCS" "${WALL[es_push]}")"
  printf '  %-44s %s\n' "documents/s (curl _bulk, server limit)" "$(ratio "$DOCS" "${WALL[es_curl]:-}")"
  printf '  %-44s %s\n' "push --es-url / curl _bulk  [docs/s]" "$(ratio "${WALL[es_curl]:-}" "${WALL[es_push]}")"
  printf '  %-44s %s\n' "load / curl _bulk  [docs/s]" "$(ratio "${WALL[es_curl]:-}" "${WALL[es_load]:-}")"
  if [ -n "${WALL[es_curl_par]:-}" ]; then
    printf '  %-44s %s\n' "push / curl, same requests in flight" "$(ratio "${WALL[es_curl_par]}" "${WALL[es_push]}")"
    printf '  %-44s %s\n' "load / curl, same requests in flight" "$(ratio "${WALL[es_curl_par]}" "${WALL[es_load]:-}")"
  fi
  printf '  %-44s %s\n' "read-back / curl of its searches  [wall]" "$(ratio "${WALL[es_readback]:-}" "${WALL[es_readback_curl]:-}")"
  printf '  %-44s %s\n' "docs in ES after push / after curl" "${ES_COUNT_PUSH:-?} / ${ES_COUNT_CURL:-?}"
fi
[ -n "$REF_NOTE" ] && echo "  $REF_NOTE"
[ "$QUICK" = 1 ] && echo "(--quick: scale $SCALE, figures are for smoke testing only)"
# Per-I/O latency logs beside cat, zcat and awk (their own corpus, bench/per_io_bench.sh).
[ "$QUICK" = 1 ] || "$HERE/per_io_bench.sh" --fiohist "$FIOHIST" --dir "$DIR/per-io" --reps "$REPS"
# Pushing at scale (--es): one node and a 3-node cluster, started and stopped by the script.
if [ "$ES_SCALE" = 1 ]; then
  ES_HOSTS=1024
  [ "$QUICK" = 1 ] && ES_HOSTS=64
  "$HERE/es_scale.sh" --fiohist "$FIOHIST" --gen "$GEN" --dir "$DIR" --hosts "$ES_HOSTS"
fi
exit 0
