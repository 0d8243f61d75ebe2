#!/usr/bin/env bash
# Pushing at scale: the many-logs shape (1024 hosts x 4 jobs x 30 s, gzip: 4096 logs, as
# bench/run.sh's) pushed by `fiohist push` into one throw-away node (tests/es/es-node.sh) and a
# 3-node cluster (tests/es/es-cluster.sh, replicas 1), one after the other. Prints per target:
# documents, index store after a force-merge (primaries, and with replicas), the run
# document's size, the push's wall time and fiohist's own CPU (user + system), the nodes' CPU
# during the push (each JVM's utime + stime from /proc/PID/stat, before and after, and until the
# nodes are idle again) and per document, the idle-machine bound of the push's wall time, and
# the size of `push --out`'s files against the gzipped logs. Results: bench/README.md, "Pushing
# at scale".
#
# The bound: on a machine of P cores that the push has to itself (fiohist and the nodes),
#   wall >= max(fiohist CPU / min(P, fiohist's threads), (fiohist CPU + nodes' CPU) / P)
# since fiohist cannot use more cores than it has threads, and the two together cannot use
# more than P. It is what a loaded machine still lets one measure (CPU seconds do not depend
# on the load, wall times do); the wall time on a quiet machine is at least this.
#
# Usage: bench/es_scale.sh [--fiohist BIN] [--compare BIN] [--reps N] [--gen BIN] [--dir DIR]
#                          [--hosts N] [--targets LIST] [--warm N] [--warm-rounds K]
#                          [--port P] [--cluster-http P] [--cluster-transport P] [-- PUSH_ARGS...]
#   --compare BIN    also push with BIN (e.g. a build of main), in turn with --fiohist into the
#                    same warm nodes: rows "main:" (BIN) and "new:" side by side
#   --reps N         measured pushes per binary (default 1); rows give medians and each figure
#   --hosts N        hosts of the corpus (default 1024; 4 jobs each, 30 s)
#   --targets LIST   comma list of node, cluster, out (default all three)
#   --port P         the single node's HTTP port (default 9270)
#   --cluster-http P / --cluster-transport P   first of the cluster's 3 ports (9271 / 9281)
#   --warm N         push the corpus's first N logs once before the measured push, then
#                    delete them (default 1024; 0: measure a fresh node). A fresh JVM's first
#                    push also pays for compiling the indexing code: 3x the node's CPU of a
#                    warm node's push (bench/README.md); a cluster that runs is warm.
#   --warm-rounds K  that many warm-up pushes (default 1): a node's CPU per document keeps
#                    falling over several pushes as its JIT compiles more
#   PUSH_ARGS        extra arguments of every push (e.g. --keep-refresh --concurrency 2, to
#                    measure a lever alone)
# Env: FIOHIST_BENCH_DIR (corpus cache, default /tmp/fiohist-bench), FIOHIST_ES_BASE (node
# directories, as for es-node.sh), FIOHIST_BENCH_CORES (P above, default nproc). Needs
# `/usr/bin/time`-free bash only: CPU comes from getrusage of the push (python3). The machine's
# other load skews wall times, not CPU seconds.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$HERE")"
FIOHIST="${FIOHIST:-}"
GEN=""
DIR="${FIOHIST_BENCH_DIR:-/tmp/fiohist-bench}"
HOSTS=1024
TARGETS="node,cluster,out"
PORT=9270
CHTTP=9271
CTRANSPORT=9281
WARM=1024
WARM_ROUNDS=1
COMPARE=""
REPS=1
PUSH_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --fiohist) FIOHIST=$2; shift 2 ;;
    --gen) GEN=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    --hosts) HOSTS=$2; shift 2 ;;
    --targets) TARGETS=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --cluster-http) CHTTP=$2; shift 2 ;;
    --cluster-transport) CTRANSPORT=$2; shift 2 ;;
    --warm) WARM=$2; shift 2 ;;
    --warm-rounds) WARM_ROUNDS=$2; shift 2 ;;
    --compare) COMPARE=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --) shift; PUSH_ARGS=("$@"); break ;;
    -h|--help) sed -n '2,39p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "es_scale.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
log() { echo "es_scale.sh: $*" >&2; }
die() { log "$*"; exit 1; }
for b in "$ROOT"/build/fiohist "$ROOT"/build*/fiohist; do  # never a sanitizer build (8x slower)
  [ -z "$FIOHIST" ] && [ -x "$b" ] && ! grep -qa __asan_init "$b" && FIOHIST=$b
done
for b in "$ROOT"/build/bench/gen_corpus "$ROOT"/build*/bench/gen_corpus; do
  [ -z "$GEN" ] && [ -x "$b" ] && GEN=$b
done
[ -x "$FIOHIST" ] || die "no fiohist binary (--fiohist BIN)"
[ -x "$GEN" ] || die "no gen_corpus binary (--gen BIN; cmake --build build --target gen_corpus)"

# The corpus: the same command and cache as bench/run.sh's many-logs shape.
GEN_VERSION=$(sed -n 's/^constexpr int kVersion = \([0-9]*\);.*/\1/p' "$HERE/gen_corpus.cc")
CORPUS="$DIR/many-v${GEN_VERSION:-0}-h$HOSTS"
if [ ! -f "$CORPUS.done" ]; then
  log "generating $CORPUS ($HOSTS hosts x 4 jobs x 30 s)"
  rm -rf "$CORPUS"
  mkdir -p "$DIR"
  "$GEN" --hosts "$HOSTS" --jobs 4 --seconds 30 --gz-out "$CORPUS" >&2 && touch "$CORPUS.done" ||
    die "gen_corpus failed"
fi
mapfile -t LOGS < <(find "$CORPUS" -type f -name '*_clat_hist.*' | sort)
N=${#LOGS[@]}
GZ_BYTES=$(cat "${LOGS[@]}" | wc -c)
START=2026-11-27T10:00:00Z
RUN=scale
PREFIX=fiohistscale
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fiohist-es-scale.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
CORES=${FIOHIST_BENCH_CORES:-$(nproc)}
# fiohist's threads: the pipeline's workers are one per core (std::thread::hardware_concurrency).
THREADS=$(nproc)
NODE_BASE="${FIOHIST_ES_BASE:-/var/tmp/fiohist-es}"
[ "$(id -u)" = 0 ] || NODE_BASE="${FIOHIST_ES_BASE:-${FIOHIST_CACHE:-$HOME/.cache/fiohist}/es}"

# jvm_cpu PID...: the processes' CPU seconds so far (utime + stime of /proc/PID/stat).
jvm_cpu() {
  python3 - "$@" <<'EOF'
import os, sys
tick = os.sysconf("SC_CLK_TCK")
total = 0
for pid in sys.argv[1:]:
    fields = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()
    total += int(fields[11]) + int(fields[12])
print("%.2f" % (total / tick))
EOF
}
# settle PID...: waits (at most 60 s) until the nodes use under 5 % of a core over 2 s: the
# merges and the refresh a push leaves behind are its cost too.
settle() {
  local a b i
  for i in $(seq 30); do
    a=$(jvm_cpu "$@"); sleep 2; b=$(jvm_cpu "$@")
    awk -v a="$a" -v b="$b" 'BEGIN{exit !(b - a < 0.1)}' && return 0
  done
}
# bound FIOHIST_CPU NODES_CPU: the idle-machine lower bound of the wall time (header).
bound() {
  awk -v f="$1" -v n="$2" -v p="$CORES" -v t="$THREADS" 'BEGIN{
    u = t < p ? t : p; a = f / u; b = (f + n) / p
    printf "%.1f s (fiohist alone %.1f s on %d cores; fiohist + nodes %.1f s on %d cores)", (a > b ? a : b), a, u, b, p}'
}

# timed OUT ERR cmd...: runs cmd under `ulimit -n 1024`, prints "wall_s cpu_s user_s rc
# peak_rss_mb".
timed() {
  python3 - "$@" <<'EOF'
import resource, subprocess, sys, time
out, err, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
t = time.time()
with open(out, "w") as o, open(err, "w") as e:
    rc = subprocess.call(["bash", "-c", 'ulimit -n 1024 && exec "$@"', "x"] + cmd,
                         stdout=o, stderr=e)
wall = time.time() - t
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.1f %.1f %.1f %d %.0f" % (wall, ru.ru_utime + ru.ru_stime, ru.ru_utime, rc,
                                 ru.ru_maxrss / 1024))
EOF
}

ROWS=()
row() { ROWS+=("$(printf '%-34s %s' "$1" "$2")"); }
mb() { awk -v b="$1" 'BEGIN{printf "%.1f MB", b/1e6}'; }

# push_once LABEL BIN URL PIDS...: one measured push of the whole corpus by BIN into a clean
# prefix; prints "wall fiohist_cpu fiohist_user node_cpu_until_idle docs fiohist_peak_rss_mb".
push_once() {
  local label=$1 bin=$2 url=$3 first=${3%%,*}
  shift 3
  local pids=("$@") jvm0 jvm1 wall cpu user rc rss docs
  curl -s -o /dev/null -X DELETE "$first/$PREFIX-*?ignore_unavailable=true" || true
  settle "${pids[@]}"
  jvm0=$(jvm_cpu "${pids[@]}")
  log "$label: pushing $N logs ($bin; load average $(cut -d' ' -f1 /proc/loadavg))"
  read -r wall cpu user rc rss < <(timed "$WORK/push.out" "$WORK/push.err" "$bin" push \
    --es-url "$url" --index-prefix "$PREFIX" --run "$RUN" --start-time "$START" --quiet \
    "${PUSH_ARGS[@]}" "${LOGS[@]}")
  [ "$rc" = 0 ] || { tail -5 "$WORK/push.err" >&2; die "$label: push exited $rc"; }
  settle "${pids[@]}"
  jvm1=$(jvm_cpu "${pids[@]}")
  curl -s -o /dev/null -X POST "$first/$PREFIX-*/_refresh"
  docs=$(curl -s "$first/$PREFIX-*/_count" | python3 -c 'import json,sys; print(json.load(sys.stdin)["count"])')
  log "$label: wall $wall s, fiohist $cpu CPU s, nodes $(awk -v a="$jvm0" -v b="$jvm1" 'BEGIN{printf "%.1f", b - a}') CPU s, $docs documents"
  echo "$wall $cpu $user $(awk -v a="$jvm0" -v b="$jvm1" 'BEGIN{printf "%.2f", b - a}') $docs $rss"
}
# median of the arguments
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

measure() {  # $1 = label, $2 = URL (comma list), $3.. = node pids: warm, push, force-merge, store
  local label=$1 url=$2 first=${2%%,*}
  shift 2
  local pids=("$@") round
  curl -s -o /dev/null -X DELETE "$first/$PREFIX-*?ignore_unavailable=true" || true
  for round in $(seq "$WARM_ROUNDS"); do
    [ "$WARM" -gt 0 ] || break
    log "$label: warming the nodes with the first $WARM logs ($round of $WARM_ROUNDS)"
    local w0 w1
    w0=$(jvm_cpu "${pids[@]}")
    bash -c 'ulimit -n 1024 && exec "$@"' x "$FIOHIST" push --es-url "$url" --index-prefix \
      "$PREFIX" --run warmup --start-time "$START" --quiet "${PUSH_ARGS[@]}" \
      "${LOGS[@]:0:$WARM}" >"$WORK/warm.out" 2>"$WORK/warm.err" ||
      { tail -5 "$WORK/warm.err" >&2; die "$label: warm-up push failed"; }
    curl -s -o /dev/null -X DELETE "$first/$PREFIX-*?ignore_unavailable=true" || true
    settle "${pids[@]}"
    w1=$(jvm_cpu "${pids[@]}")
    row "$label: warm-up push $round ($WARM logs)" "$(awk -v a="$w0" -v b="$w1" 'BEGIN{printf "%.1f", b - a}') s of the nodes' CPU"
  done
  # The binaries in turn, REPS times (ABAB: the node's JIT keeps warming, so neither goes
  # always first); the store is measured after each binary's last push.
  local names=("") bins=("$FIOHIST") i rep
  if [ -n "$COMPARE" ]; then names=("main: " "new: "); bins=("$COMPARE" "$FIOHIST"); fi
  local -A walls cpus users nodes docs_of rsss
  for rep in $(seq "$REPS"); do
    for i in "${!bins[@]}"; do
      local r
      r=($(push_once "$label ${names[$i]}(push $rep of $REPS)" "${bins[$i]}" "$url" "${pids[@]}"))
      [ "${#r[@]}" = 6 ] || die "$label: a measured push failed"
      rsss[$i]+="${r[5]} "
      walls[$i]+="${r[0]} "; cpus[$i]+="${r[1]} "; users[$i]+="${r[2]} "; nodes[$i]+="${r[3]} "
      docs_of[$i]=${r[4]}
      [ "$rep" = "$REPS" ] && store_rows "$label${names[$i]:+ ${names[$i]%: }}" "$first" "${docs_of[$i]}"
    done
  done
  for i in "${!bins[@]}"; do
    local n="$label${names[$i]:+ ${names[$i]%: }}" wall cpu user node docs=${docs_of[$i]}
    # shellcheck disable=SC2086
    { wall=$(median ${walls[$i]}); cpu=$(median ${cpus[$i]}); user=$(median ${users[$i]}); node=$(median ${nodes[$i]}); }
    row "$n: binary" "${bins[$i]}"
    row "$n: push wall (median of $REPS)" "$wall s (each: ${walls[$i]% })"
    row "$n: fiohist CPU (user+sys)" "$cpu s ($user user; each: ${cpus[$i]% })"
    row "$n: nodes' CPU (${#pids[@]} JVMs)" "$node s until idle ($(awk -v c="$node" -v d="$docs" 'BEGIN{printf "%.0f", c / d * 1e6}') us per document; each: ${nodes[$i]% })"
    row "$n: idle-machine wall bound" "$(bound "$cpu" "$node")"
    row "$n: fiohist peak RSS" "$(median ${rsss[$i]}) MB (each: ${rsss[$i]% })"
  done
}

# store_rows LABEL URL DOCS: documents, store after a force-merge, shards, run document size.
store_rows() {
  local label=$1 first=$2 docs=$3
  log "$label: force-merging"
  curl -s -o /dev/null --max-time 3600 -X POST "$first/$PREFIX-*/_forcemerge?max_num_segments=1"
  curl -s -o /dev/null -X POST "$first/$PREFIX-*/_refresh"
  local stores
  stores=$(curl -s "$first/_cat/indices/$PREFIX-*?bytes=b&h=index,pri,rep,pri.store.size,store.size&format=json")
  local pri total shards
  read -r pri total shards < <(python3 -c '
import json, sys
rows = json.loads(sys.argv[1])
print(sum(int(r["pri.store.size"]) for r in rows), sum(int(r["store.size"]) for r in rows),
      " ".join("%s:%sx%s" % (r["index"].split("-")[1], r["pri"], int(r["rep"]) + 1)
               for r in sorted(rows, key=lambda r: r["index"])).replace(" ", ","))' "$stores")
  local rundoc
  rundoc=$(curl -s "$first/$PREFIX-runs-*/_search?size=1" | python3 -c '
import json, sys
h = json.load(sys.stdin)["hits"]["hits"]
print(len(json.dumps(h[0]["_source"], separators=(",", ":"))) if h else 0)')
  local interval
  interval=$(curl -s "$first/$PREFIX-pctiles-*/_settings/index.refresh_interval?flat_settings=true" |
    python3 -c 'import json,sys; print(",".join(sorted({v["settings"].get("index.refresh_interval","default") for v in json.load(sys.stdin).values()})))')
  row "$label: documents" "$docs"
  row "$label: store after force-merge" "$(mb "$pri") primaries ($(awk -v a="$pri" -v b="$GZ_BYTES" 'BEGIN{printf "%.2fx", a/b}') the gzipped logs), $(mb "$total") with replicas"
  row "$label: shards (primaries x copies)" "$shards"
  row "$label: run document" "$rundoc bytes of _source"
  row "$label: refresh_interval after" "$interval"
  curl -s -o /dev/null -X DELETE "$first/$PREFIX-*?ignore_unavailable=true" || true
}

IFS=, read -ra WANT <<<"$TARGETS"
for t in "${WANT[@]}"; do
  case "$t" in
    out)
      load=$(cut -d' ' -f1 /proc/loadavg)
      read -r wall cpu user rc rss < <(timed "$WORK/out.out" "$WORK/out.err" "$FIOHIST" push \
        --out "$WORK/out" --run "$RUN" --start-time "$START" --quiet "${PUSH_ARGS[@]}" \
        "${LOGS[@]}")
      [ "$rc" = 0 ] || die "push --out exited $rc"
      OUT_BYTES=$(cat "$WORK"/out/* | wc -c)
      row "push --out: files" "$(mb "$OUT_BYTES") ($(awk -v a="$OUT_BYTES" -v b="$GZ_BYTES" 'BEGIN{printf "%.2fx", a/b}') the gzipped logs), $(ls "$WORK/out" | wc -l) files"
      row "push --out: wall" "$wall s (load average $load before it)"
      row "push --out: fiohist CPU (user+sys)" "$cpu s ($user user)"
      row "push --out: fiohist peak RSS" "$rss MB"
      row "push --out: idle-machine wall bound" "$(bound "$cpu" 0)"
      rm -rf "$WORK/out" ;;
    node)
      url=$("$ROOT/tests/es/es-node.sh" start --name bench-scale --port "$PORT")
      measure "1 node" "$url" "$(cat "$NODE_BASE/nodes/bench-scale/es.pid")" || { "$ROOT/tests/es/es-node.sh" stop --name bench-scale; exit 1; }
      "$ROOT/tests/es/es-node.sh" stop --name bench-scale ;;
    cluster)
      C=(--name bench-scale-c --http "$CHTTP" --transport "$CTRANSPORT" --nodes 3)
      "$ROOT/tests/es/es-cluster.sh" start "${C[@]}" >&2
      urls="http://127.0.0.1:$CHTTP,http://127.0.0.1:$((CHTTP + 1)),http://127.0.0.1:$((CHTTP + 2))"
      # replicas 1 (the cluster's point); the primaries spread by push itself.
      # shellcheck disable=SC2046
      measure "3 nodes" "$urls" $(awk 1 "$NODE_BASE"/nodes/bench-scale-c-[123]/es.pid) || { "$ROOT/tests/es/es-cluster.sh" stop "${C[@]}"; exit 1; }
      "$ROOT/tests/es/es-cluster.sh" stop "${C[@]}" ;;
    *) die "unknown target $t (node, cluster, out)" ;;
  esac
done

echo
echo "fiohist push at scale  $(date -u +%Y-%m-%dT%H:%M:%SZ)  $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "corpus: $N logs ($HOSTS hosts x 4 jobs x 30 s), $(mb "$GZ_BYTES") gzip; push args: ${PUSH_ARGS[*]:-(none)}"
printf '%s\n' "${ROWS[@]}"
