#!/usr/bin/env bash
# es-node.sh — run a throw-away single-node Elasticsearch or OpenSearch for fiohist's tests.
#
#   es-node.sh start [--engine E] [--name N] [--port P] [--write-queue K] [--user U --password-file F]
#                    [--cluster C --transport-port T --seeds P1,P2.. --masters N1,N2.. [--keep-data]]
#   es-node.sh stop  [--name N]
#   es-node.sh kill  [--name N]   (SIGKILL: a crashed node, for the fault tests)
#   es-node.sh url   [--name N]
#   es-node.sh java  [--engine E] [--version V]   the JDK a node would run on (exit 3: none)
#
# --version V picks the engine's version (default: FIOHIST_ES_VERSION / FIOHIST_OS_VERSION, else
# 8.19.21 / 2.19.1); Elasticsearch 9.x (9.1.0 pinned below) runs beside 8.19 in CI.
# --engine elasticsearch (default; or env FIOHIST_ENGINE) or opensearch. Both engines are
# handled by the same code; only the table in set_engine() differs.
# The node is the Apache-2.0 "integ-test" build of the engine
# (org.elasticsearch.distribution.integ-test-zip:elasticsearch:$FIOHIST_ES_VERSION:zip, or
# org.opensearch.distribution.integ-test-zip:opensearch:$FIOHIST_OS_VERSION:zip, from Maven
# Central, fetched with `mvn dependency:get`), checked against the SHA-256 pinned in
# zip_sha256() (a version without a pinned sum is refused; FIOHIST_NODE_SHA256 overrides),
# cached in ${FIOHIST_CACHE:-$HOME/.cache/fiohist} and unzipped once. It binds to 127.0.0.1
# only, single-node discovery, security off, disk watermarks off, 512 MB heap, a fresh data dir
# on every start. With --write-queue K the write
# thread pool gets one thread and a queue of K (1 = bulk requests get 429 under any
# concurrency, e.g. one _bulk touching several shards). With --user
# and --password-file, security is ON (HTTP without TLS) and that user is a superuser of the
# file realm, so tests can check authentication failures.
#
# What the integ-test build (8.19.21) lacks — verified on 2026-11-22 against a node started by
# this script (modules shipped: apm, transport-netty4, x-pack-core, x-pack-security only):
#   - GET /              -> 405 "Incorrect HTTP method for uri [/] and method [GET], allowed:
#                           [DELETE]" (no main/info handler): probe with GET /_cluster/health
#   - `histogram` type   -> 400 mapper_parsing_exception "The mapper type [histogram] declared
#                           on field [latency] does not exist" (x-pack-analytics is absent);
#                           also when PUT in an _index_template (nested in caused_by)
#   - painless           -> 400 "script_lang not supported [painless]" (lang-painless absent)
#   - _delete_by_query   -> 400 "no handler found for uri [/IDX/_delete_by_query]"; POST
#     and _reindex          /_reindex -> 405 (reindex module absent): fiohist deletes a run by
#                           scrolling its ids and bulk-deleting them
#   - API keys           -> POST /_security/api_key on a --user node: 400 "Unknown filter type
#                           [pattern_capture] for [email]" (the .security index needs the
#                           analysis-common module); basic auth with file-realm users works
#   Present: _bulk, _search with aggregations (terms/min/max), scroll, PIT, _count, _refresh,
#   _index_template, security (file realm users, basic auth, no TLS needed on loopback).
#   `tests/es/probe_modules.sh URL` re-checks all of this (ctest: es.probe_modules).
#
# What the OpenSearch integ-test build (2.19.1) lacks — verified on 2026-11-23 against a node
# started by this script (modules shipped: transport-netty4 only; no plugins):
#   - `histogram` type   -> 400 mapper_parsing_exception "No handler for type [histogram]
#                           declared on field [latency]" (OpenSearch has no such type at all)
#   - painless           -> 400 "script_lang not supported [painless]" (lang-painless absent)
#   - _delete_by_query   -> 400 "no handler found for uri [/IDX/_delete_by_query]"; POST
#     and _reindex          /_reindex -> 405 (reindex module absent): delete scrolls + bulk
#   - security           -> no opensearch-security plugin: --user is refused, the Security
#                           tests run against Elasticsearch only
#   Present: GET / (with version.distribution "opensearch"), _bulk, _search with aggregations,
#   scroll, PIT (POST /IDX/_search/point_in_time), _count, _refresh, _index_template.
#   `tests/es/probe_modules.sh --engine opensearch URL` re-checks it (opensearch.probe_modules).
#   Newer builds on Maven Central (checked 2026-11-23): see the table in zip_sha256().
#
# With --cluster C the node is one of several forming cluster C (es-cluster.sh starts them): it
# binds transport to 127.0.0.1:T, finds the others at the loopback transport ports of --seeds,
# bootstraps with --masters (node names) and `start` returns once its HTTP port answers (the
# cluster forms when enough nodes are up: es-cluster.sh waits for that). --keep-data restarts a
# node on the data it had (a node coming back), instead of a fresh directory.
#
# Defaults: --name fiohist, --port 9250 + (cksum of the name mod 40) (9257 for "fiohist"),
# 9350 + the same for OpenSearch;
# `url` prints http://127.0.0.1:PORT of a started node. Environment knobs:
#   FIOHIST_CACHE (download cache), FIOHIST_ES_BASE (unzipped builds + node dirs of both
#   engines; default $FIOHIST_CACHE/es, or /var/tmp/fiohist-es as root since /root is not
#   readable by the node user), FIOHIST_ES_VERSION (8.19.21), FIOHIST_OS_VERSION (2.19.1),
#   FIOHIST_ES_START_TIMEOUT (300 s to become healthy), FIOHIST_ES_JAVA_OPTS (extra JVM
#   options), FIOHIST_ES_USER (fiohist-es), FIOHIST_NODE_SHA256 (the zip's expected SHA-256).
#
# The JDK is the first candidate whose `java -version` is in the engine's range: 17..24 for
# Elasticsearch 8.19 and OpenSearch 2.x (tested with OpenJDK 17), 21..25 for Elasticsearch 9.x
# and OpenSearch 3.x (tested with Temurin 25). Candidates, in order: ES_JAVA_HOME
# (Elasticsearch) or OPENSEARCH_JAVA_HOME (OpenSearch), JAVA_HOME, then the JDKs installed where
# Debian/Ubuntu, RHEL, Temurin's packages, SDKMAN and CI images put them (/usr/lib/jvm/*,
# /usr/java/*, /opt/java/*, /opt/jdk*, ~/.sdkman/candidates/java/*, /usr/local/*jdk*). A set
# *_JAVA_HOME of the wrong version is passed over with a note (CI may set one for 9.x).
# When run as root, the node runs as the unprivileged system user `fiohist-es` (both engines
# refuse to run as root); it is created on first use.
set -euo pipefail

CACHE="${FIOHIST_CACHE:-$HOME/.cache/fiohist}"
ES_USER="${FIOHIST_ES_USER:-fiohist-es}"

die() { echo "es-node.sh: $*" >&2; exit 1; }

# Everything that differs between the engines. ENV_PREFIX names the launcher's environment
# (ES_JAVA_HOME, ES_PATH_CONF... or OPENSEARCH_JAVA_HOME, OPENSEARCH_PATH_CONF...).
set_engine() {
  ENGINE="$1"
  case "$ENGINE" in
    elasticsearch)
      PRODUCT="Elasticsearch"; VERSION="${FIOHIST_ES_VERSION:-8.19.21}"
      GROUP="org.elasticsearch.distribution.integ-test-zip"; ENV_PREFIX="ES"
      PORT_BASE=9250
      # 9.x is built for Java 21 (its launcher refuses 17).
      if [[ "$VERSION" == 8.* ]]; then JAVA_MIN=17; JAVA_MAX=24; else JAVA_MIN=21; JAVA_MAX=25; fi ;;
    opensearch)
      PRODUCT="OpenSearch"; VERSION="${FIOHIST_OS_VERSION:-2.19.1}"
      GROUP="org.opensearch.distribution.integ-test-zip"; ENV_PREFIX="OPENSEARCH"
      PORT_BASE=9350
      # 3.x is built for Java 21 (class files refuse to load on 17).
      if [[ "$VERSION" == 2.* ]]; then JAVA_MIN=17; JAVA_MAX=24; else JAVA_MIN=21; JAVA_MAX=25; fi ;;
    *) die "unknown --engine '$ENGINE' (elasticsearch or opensearch)" ;;
  esac
  ARTIFACT="$GROUP:$ENGINE:$VERSION:zip"
}

# SHA-256 of the Maven Central zips, computed once from a download and pinned here, so a
# changed or corrupted artifact is refused rather than tested against.
zip_sha256() {
  case "$ENGINE-$VERSION" in
    elasticsearch-8.19.21) echo "215d5f3dbf0609a149f6218a9e47b6ae2df34ebbff3c5754e35f15a5e5393c8a" ;;
    # 9.1.0: needs Java 21+ (runs on Temurin 25); CI runs push, read-back and zoom on it.
    elasticsearch-9.1.0) echo "be5c5440bb6344cee4070f8f77a6c3cd72363db494944047cdd93748c4e19111" ;;
    opensearch-2.19.1) echo "af7152d8b7f6f1cee09d47276b32b70479fe6dd8cdbb61213f84eb7f8098b261" ;;
    # Newer builds, checked on 2026-11-23 (probe_modules.sh, push, runs, delete by hand):
    # 2.19.6 behaves as 2.19.1 (transport-netty4 only, probe matches); 3.6.0 needs Java 21+
    # (ran on Temurin 25), is 161 MB and ships all modules (painless, reindex: fiohist then
    # deletes with _delete_by_query, its probe notes do not apply), push/runs/delete work.
    opensearch-2.19.6) echo "71d6d8b1c637f3faecda0752b184b1cc526fc6eaad59ec1408c6327bb00b9293" ;;
    opensearch-3.6.0) echo "a91faa1dc1cadc78cb278b4f63847e19e1627a4e9de698e14e7efc14ee37b286" ;;
    *) echo "${FIOHIST_NODE_SHA256:-}" ;;
  esac
}

usage() {
  sed -n '3,7p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

cmd="${1:-}"; [[ -n "$cmd" ]] || usage; shift
name="fiohist"; port=""; write_queue=""; sec_user=""; sec_pwfile=""
cluster=""; transport_port=""; seeds=""; masters=""; keep_data=""
engine="${FIOHIST_ENGINE:-elasticsearch}"; version=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --engine) engine="${2:?}"; shift 2 ;;
    --version) version="${2:?}"; shift 2 ;;
    --name) name="${2:?}"; shift 2 ;;
    --port) port="${2:?}"; shift 2 ;;
    --write-queue) write_queue="${2:?}"; shift 2 ;;
    --user) sec_user="${2:?}"; shift 2 ;;
    --password-file) sec_pwfile="${2:?}"; shift 2 ;;
    --cluster) cluster="${2:?}"; shift 2 ;;
    --transport-port) transport_port="${2:?}"; shift 2 ;;
    --seeds) seeds="${2:?}"; shift 2 ;;
    --masters) masters="${2:?}"; shift 2 ;;
    --keep-data) keep_data=1; shift ;;
    -h|--help) usage ;;
    *) die "unknown argument: $1" ;;
  esac
done
[[ "$name" =~ ^[a-z0-9][a-z0-9_-]{0,40}$ ]] || die "bad --name '$name' (a-z 0-9 _ -)"
[[ -z "$port" || "$port" =~ ^[0-9]+$ ]] || die "bad --port '$port'"
[[ -z "$write_queue" || "$write_queue" =~ ^-?[0-9]+$ ]] || die "bad --write-queue '$write_queue'"
if [[ -n "$cluster" ]]; then
  [[ "$cluster" =~ ^[a-z0-9][a-z0-9_-]{0,40}$ ]] || die "bad --cluster '$cluster' (a-z 0-9 _ -)"
  [[ "$transport_port" =~ ^[0-9]+$ ]] || die "--cluster needs --transport-port PORT"
  [[ "$seeds" =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--cluster needs --seeds PORT,PORT,... (transport)"
  [[ "$masters" =~ ^[a-z0-9_,-]+$ ]] || die "--cluster needs --masters NAME,NAME,..."
fi
if [[ -n "$sec_user$sec_pwfile" ]]; then
  [[ -n "$sec_user" && -n "$sec_pwfile" ]] || die "--user and --password-file go together"
  [[ -r "$sec_pwfile" ]] || die "cannot read password file $sec_pwfile"
fi

[[ -z "$version" || "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "bad --version '$version'"
if [[ -n "$version" ]]; then
  export FIOHIST_ES_VERSION="$version" FIOHIST_OS_VERSION="$version"
fi
set_engine "$engine"

am_root() { [[ "$(id -u)" == 0 ]]; }

# Where unzipped distributions and node directories live. The node user must be able to reach
# it; root's $HOME usually is mode 700, so as root it defaults to /var/tmp/fiohist-es.
if [[ -n "${FIOHIST_ES_BASE:-}" ]]; then
  BASE="$FIOHIST_ES_BASE"
elif am_root; then
  BASE="/var/tmp/fiohist-es"
else
  BASE="$CACHE/es"
fi
NODE_DIR="$BASE/nodes/$name"
PID_FILE="$NODE_DIR/es.pid"
PORT_FILE="$NODE_DIR/port"

pid_alive() { [[ -f "$PID_FILE" ]] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null; }

node_url() {
  [[ -f "$PORT_FILE" ]] || die "node '$name' was never started (no $PORT_FILE)"
  echo "http://127.0.0.1:$(cat "$PORT_FILE")"
}

curl_health() {  # $1 = url, $2 = timeout seconds
  local auth=()
  if [[ -f "$NODE_DIR/auth" ]]; then auth=(--netrc-file "$NODE_DIR/auth"); fi
  curl -sf "${auth[@]}" --max-time "$2" "$1/_cluster/health?wait_for_status=yellow&timeout=${2}s" \
    >/dev/null 2>&1
}

java_version() {  # $1 = a JDK home: its major version, or nothing
  [[ -x "$1/bin/java" ]] || return 0
  "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1
}

find_java_home() {
  local var="${ENV_PREFIX}_JAVA_HOME" d v
  local candidates=("${!var:-}" "${JAVA_HOME:-}" /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk*
                    "${HOME:-/nonexistent}"/.sdkman/candidates/java/* /usr/local/*jdk*)
  for d in "${candidates[@]}"; do
    [[ -n "$d" && -x "$d/bin/java" ]] || continue
    # Debian's /usr/lib/jvm has symlinks to the same JDKs (default-java...): once is enough.
    [[ "$d" == /usr/lib/jvm/* && -L "$d" ]] && continue
    v=$(java_version "$d")
    if [[ -n "$v" && "$v" -ge $JAVA_MIN && "$v" -le $JAVA_MAX ]]; then echo "$d"; return; fi
    if [[ "$d" == "${!var:-}" ]]; then
      echo "es-node.sh: $var=$d is Java ${v:-?}, not $JAVA_MIN..$JAVA_MAX as $PRODUCT $VERSION" \
        "needs: looking further" >&2
    fi
  done
  echo "es-node.sh: no Java $JAVA_MIN..$JAVA_MAX for $PRODUCT $VERSION (looked at $var, JAVA_HOME," \
    "/usr/lib/jvm, /usr/java, /opt/java, /opt/jdk*, ~/.sdkman, /usr/local/*jdk*): install one" \
    "(e.g. Temurin 25) or set $var" >&2
  return 3
}

check_sha256() {  # $1 = zip
  local want got
  want="$(zip_sha256)"
  got="$(sha256sum "$1" | cut -d' ' -f1)"
  [[ -n "$want" ]] || die "no SHA-256 pinned for $ENGINE $VERSION (its zip has $got): add it to" \
    "zip_sha256() in $0 after checking the artifact, or set FIOHIST_NODE_SHA256"
  [[ "$got" == "$want" ]] || die "$1 has SHA-256 $got, expected $want: refusing it" \
    "(delete it to download again)"
}

fetch_distribution() {  # sets HOME_DIR (the unzipped distribution)
  local zip="$CACHE/$ENGINE-${VERSION}.zip"
  HOME_DIR="$BASE/$ENGINE-${VERSION}"
  if [[ ! -s "$zip" ]]; then
    command -v mvn >/dev/null || die "mvn not found (apt-get install maven) — needed to fetch $ARTIFACT"
    echo "es-node.sh: fetching $ARTIFACT from Maven Central" >&2
    mvn -q -B -Dstyle.color=never dependency:get -Dartifact="$ARTIFACT" -Dtransitive=false >&2 \
      || die "mvn could not fetch $ARTIFACT"
    local m2="${HOME}/.m2/repository/${GROUP//.//}/$ENGINE"
    cp "$m2/${VERSION}/$ENGINE-${VERSION}.zip" "$zip.tmp"
    check_sha256 "$zip.tmp"
    mv "$zip.tmp" "$zip"
  fi
  if [[ ! -f "$HOME_DIR/.unzipped" ]]; then
    check_sha256 "$zip"
    rm -rf "$HOME_DIR" "$HOME_DIR.tmp"
    mkdir -p "$HOME_DIR.tmp"
    unzip -q "$zip" -d "$HOME_DIR.tmp" || die "cannot unzip $zip"
    mv "$HOME_DIR.tmp/$ENGINE-${VERSION}" "$HOME_DIR"
    rmdir "$HOME_DIR.tmp"
    touch "$HOME_DIR/.unzipped"
  fi
}

ensure_user() {
  am_root || return 0
  if ! id "$ES_USER" >/dev/null 2>&1; then
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
      "$ES_USER" 2>/dev/null || id "$ES_USER" >/dev/null 2>&1 \
      || die "cannot create system user $ES_USER"
  fi
}

as_node_user() {
  if am_root; then runuser -u "$ES_USER" -- "$@"; else "$@"; fi
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

log_tail() {
  local f
  # The server log is named after the cluster.
  for f in "$NODE_DIR/logs/${cluster:-fiohist-$name}.log" "$NODE_DIR/console.log"; do
    if [[ -s "$f" ]]; then echo "---- last lines of $f ----" >&2; tail -n 40 "$f" >&2; fi
  done
}

do_start() {
  mkdir -p "$CACHE" "$BASE/nodes"
  # One start at a time per machine: fixtures may start in parallel under ctest -j, and would
  # otherwise download and unzip into the same place; on 2 cores, JVMs started one after the
  # other are also ready sooner than three started at once (measured: 144 s vs 177 s).
  exec 9>"$BASE/.lock"
  flock -w 600 9 || die "timed out waiting for $BASE/.lock"

  if pid_alive; then
    if curl_health "$(node_url)" 30; then
      node_url
      return 0
    fi
    die "node '$name' (pid $(cat "$PID_FILE")) runs but is not healthy; run: $0 stop --name $name"
  fi
  [[ -n "$port" ]] || port=$((PORT_BASE + $(printf '%s' "$name" | cksum | cut -d' ' -f1) % 40))
  port_in_use "$port" && die "port $port on 127.0.0.1 is already in use (choose --port)"

  fetch_distribution
  ensure_user
  local java_home
  java_home="$(find_java_home)" || exit 3

  # A fresh node directory: config copied from the distribution, empty data and logs (with
  # --keep-data on a node started before: its data as it was).
  if [[ -z "$keep_data" || ! -d "$NODE_DIR/data" ]]; then
    rm -rf "$NODE_DIR"
    mkdir -p "$NODE_DIR/data" "$NODE_DIR/logs" "$NODE_DIR/tmp"
    cp -r "$HOME_DIR/config" "$NODE_DIR/config"
  fi
  # OpenSearch's jvm.options name logs/gc.log, data/ (heap dumps) relative to the launcher's
  # working directory, which the node user may not be able to write: make them the node's.
  sed -i -e "s#=logs/#=$NODE_DIR/logs/#g; s#file=logs/#file=$NODE_DIR/logs/#g" \
    -e "s#HeapDumpPath=data#HeapDumpPath=$NODE_DIR/data#" "$NODE_DIR/config/jvm.options"
  echo "$port" >"$PORT_FILE"
  am_root && chmod 755 "$BASE" "$BASE/nodes" && chmod -R a+rX "$HOME_DIR"
  local settings=(
    -Ecluster.name="${cluster:-fiohist-$name}" -Enode.name="$name"
    -Enetwork.host=127.0.0.1 -Ehttp.port="$port"
    -Epath.data="$NODE_DIR/data" -Epath.logs="$NODE_DIR/logs"
    -Ecluster.routing.allocation.disk.threshold_enabled=false
    -Eaction.destructive_requires_name=false
  )
  if [[ -n "$cluster" ]]; then
    local hosts="127.0.0.1:${seeds//,/,127.0.0.1:}"
    settings+=(-Etransport.port="$transport_port" -Ediscovery.seed_hosts="$hosts"
               -Ecluster.initial_master_nodes="$masters"
               # start returns without waiting for the others (es-cluster.sh waits for green).
               -Ediscovery.initial_state_timeout=0s)
  else
    settings+=(-Ediscovery.type=single-node)
  fi
  if [[ -d "$HOME_DIR/modules/x-pack-security" ]]; then
    if [[ -n "$sec_user" ]]; then
      settings+=(-Expack.security.enabled=true -Expack.security.http.ssl.enabled=false
                 -Expack.security.transport.ssl.enabled=false)
    else
      settings+=(-Expack.security.enabled=false)
    fi
  elif [[ -n "$sec_user" ]]; then
    die "this $PRODUCT build has no security module; --user is not possible"
  fi
  # A tiny queue alone is not enough on a many-core machine: one write thread makes the
  # rejections (429) certain as soon as two shard-level writes overlap.
  [[ -n "$write_queue" ]] && settings+=(-Ethread_pool.write.queue_size="$write_queue"
                                        -Ethread_pool.write.size=1)

  if am_root; then chown -R "$ES_USER:" "$NODE_DIR"; fi
  # The launcher's environment: ES_* or OPENSEARCH_* (JAVA_HOME, PATH_CONF, JAVA_OPTS, TMPDIR).
  local node_env=(
    "${ENV_PREFIX}_JAVA_HOME=$java_home" "${ENV_PREFIX}_PATH_CONF=$NODE_DIR/config"
    "${ENV_PREFIX}_JAVA_OPTS=-Xms512m -Xmx512m -Djava.io.tmpdir=$NODE_DIR/tmp ${FIOHIST_ES_JAVA_OPTS:-}"
    "${ENV_PREFIX}_TMPDIR=$NODE_DIR/tmp"
  )
  if [[ -n "$sec_user" ]]; then
    # File-realm superuser (a throw-away test password, so argv of a local tool is acceptable).
    local pw
    pw="$(head -n1 "$sec_pwfile")"
    as_node_user env "${node_env[@]}" \
      "$HOME_DIR/bin/elasticsearch-users" useradd "$sec_user" -p "$pw" -r superuser \
      >"$NODE_DIR/users.log" 2>&1 || { cat "$NODE_DIR/users.log" >&2; die "useradd failed"; }
    umask 077
    printf 'machine 127.0.0.1 login %s password %s\n' "$sec_user" "$pw" >"$NODE_DIR/auth"
    chown root: "$NODE_DIR/auth" 2>/dev/null || true
  fi

  echo "es-node.sh: starting $PRODUCT $VERSION '$name' on 127.0.0.1:$port" \
       "(java: $java_home${write_queue:+, write queue $write_queue})" >&2
  echo "$ENGINE $VERSION" >"$NODE_DIR/engine"
  # -d daemonizes once the node is started; -p writes the server's pid. 9>&-: OpenSearch's
  # daemon keeps inherited descriptors, and would hold the start lock for its lifetime.
  if ! as_node_user env "${node_env[@]}" \
      "$HOME_DIR/bin/$ENGINE" -d -p "$PID_FILE" "${settings[@]}" \
      >"$NODE_DIR/console.log" 2>&1 </dev/null 9>&-; then
    echo "es-node.sh: $PRODUCT '$name' failed to start" >&2
    log_tail
    exit 1
  fi
  local url="http://127.0.0.1:$port" started=$SECONDS deadline=$((SECONDS + ${FIOHIST_ES_START_TIMEOUT:-300}))
  while ((SECONDS < deadline)); do
    if [[ -n "$cluster" ]] && curl -s -o /dev/null --max-time 5 "$url/_cluster/health?local=true"; then
      echo "es-node.sh: '$name' answers at $url (pid $(cat "$PID_FILE"), cluster $cluster)" >&2
      echo "$url"
      return 0
    fi
    if [[ -z "$cluster" ]] && curl_health "$url" 5; then
      echo "es-node.sh: '$name' is up at $url (pid $(cat "$PID_FILE"))" >&2
      echo "$url"
      return 0
    fi
    # OpenSearch's -d returns before the pid file is written; a node without one after 60 s
    # has died starting.
    if [[ -f "$PID_FILE" ]]; then pid_alive || break
    elif ((SECONDS > started + 60)); then break; fi
    sleep 1
  done
  echo "es-node.sh: $PRODUCT '$name' did not become healthy at $url" >&2
  log_tail
  do_stop || true
  exit 1
}

do_stop() {
  if ! pid_alive; then
    rm -f "$PID_FILE"
    echo "es-node.sh: node '$name' is not running" >&2
    return 0
  fi
  local pid i
  pid="$(cat "$PID_FILE")"
  kill "$pid"
  for ((i = 0; i < 60; i++)); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$PID_FILE"; echo "es-node.sh: stopped '$name'" >&2; return 0; }
    sleep 0.5
  done
  echo "es-node.sh: '$name' (pid $pid) ignored SIGTERM for 30 s; sending SIGKILL" >&2
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$PID_FILE"
}

do_kill() {
  if pid_alive; then
    kill -9 "$(cat "$PID_FILE")"
    echo "es-node.sh: killed '$name' (SIGKILL)" >&2
  fi
  rm -f "$PID_FILE"
}

case "$cmd" in
  start) do_start ;;
  stop) do_stop ;;
  kill) do_kill ;;
  url) node_url ;;
  java) find_java_home ;;
  *) usage ;;
esac
