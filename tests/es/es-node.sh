#!/usr/bin/env bash
# es-node.sh — run a throw-away single-node Elasticsearch for fiohist's integration tests.
#
#   es-node.sh start [--name N] [--port P] [--write-queue K] [--user U --password-file F]
#   es-node.sh stop  [--name N]
#   es-node.sh url   [--name N]
#
# The node is the Apache-2.0 "integ-test" build of Elasticsearch
# (org.elasticsearch.distribution.integ-test-zip:elasticsearch:$FIOHIST_ES_VERSION:zip from Maven
# Central, fetched with `mvn dependency:get`), cached in ${FIOHIST_CACHE:-$HOME/.cache/fiohist}
# and unzipped once. It binds to 127.0.0.1 only, single-node discovery, security off, disk
# watermarks off, 512 MB heap, a fresh data dir on every start. With --write-queue K the write
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
# Defaults: --name fiohist, --port 9250 + (cksum of the name mod 40) (9257 for "fiohist");
# `url` prints http://127.0.0.1:PORT of a started node. Environment knobs:
#   FIOHIST_CACHE (download cache), FIOHIST_ES_BASE (unzipped build + node dirs; default
#   $FIOHIST_CACHE/es, or /var/tmp/fiohist-es as root since /root is not readable by the node
#   user), FIOHIST_ES_VERSION (8.19.21), FIOHIST_ES_START_TIMEOUT (300 s to become healthy),
#   FIOHIST_ES_JAVA_OPTS (extra JVM options), FIOHIST_ES_USER (fiohist-es).
#
# The JDK comes from ES_JAVA_HOME, else the first /usr/lib/jvm/* with a `java` of version 17..24
# (Elasticsearch 8.19 needs Java 17 or newer; tested with OpenJDK 17).
# When run as root, the node runs as the unprivileged system user `fiohist-es` (Elasticsearch
# refuses to run as root); it is created on first use.
set -euo pipefail

ES_VERSION="${FIOHIST_ES_VERSION:-8.19.21}"
CACHE="${FIOHIST_CACHE:-$HOME/.cache/fiohist}"
ES_USER="${FIOHIST_ES_USER:-fiohist-es}"
ARTIFACT="org.elasticsearch.distribution.integ-test-zip:elasticsearch:${ES_VERSION}:zip"

die() { echo "es-node.sh: $*" >&2; exit 1; }

usage() {
  sed -n '3,6p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

cmd="${1:-}"; [[ -n "$cmd" ]] || usage; shift
name="fiohist"; port=""; write_queue=""; sec_user=""; sec_pwfile=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --name) name="${2:?}"; shift 2 ;;
    --port) port="${2:?}"; shift 2 ;;
    --write-queue) write_queue="${2:?}"; shift 2 ;;
    --user) sec_user="${2:?}"; shift 2 ;;
    --password-file) sec_pwfile="${2:?}"; shift 2 ;;
    -h|--help) usage ;;
    *) die "unknown argument: $1" ;;
  esac
done
[[ "$name" =~ ^[a-z0-9][a-z0-9_-]{0,40}$ ]] || die "bad --name '$name' (a-z 0-9 _ -)"
[[ -z "$port" || "$port" =~ ^[0-9]+$ ]] || die "bad --port '$port'"
[[ -z "$write_queue" || "$write_queue" =~ ^-?[0-9]+$ ]] || die "bad --write-queue '$write_queue'"
if [[ -n "$sec_user$sec_pwfile" ]]; then
  [[ -n "$sec_user" && -n "$sec_pwfile" ]] || die "--user and --password-file go together"
  [[ -r "$sec_pwfile" ]] || die "cannot read password file $sec_pwfile"
fi

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

find_java_home() {
  if [[ -n "${ES_JAVA_HOME:-}" ]]; then echo "$ES_JAVA_HOME"; return; fi
  local d v
  for d in /usr/lib/jvm/*; do
    [[ -x "$d/bin/java" && ! -L "$d" ]] || continue
    v=$("$d/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
    if [[ -n "$v" && "$v" -ge 17 && "$v" -le 24 ]]; then echo "$d"; return; fi
  done
  die "no JDK 17..24 under /usr/lib/jvm; set ES_JAVA_HOME (apt-get install openjdk-17-jdk-headless)"
}

fetch_distribution() {  # sets ES_HOME
  local zip="$CACHE/elasticsearch-${ES_VERSION}.zip"
  ES_HOME="$BASE/elasticsearch-${ES_VERSION}"
  if [[ ! -s "$zip" ]]; then
    command -v mvn >/dev/null || die "mvn not found (apt-get install maven) — needed to fetch $ARTIFACT"
    echo "es-node.sh: fetching $ARTIFACT from Maven Central" >&2
    mvn -q -B -Dstyle.color=never dependency:get -Dartifact="$ARTIFACT" -Dtransitive=false >&2 \
      || die "mvn could not fetch $ARTIFACT"
    local m2="${HOME}/.m2/repository/org/elasticsearch/distribution/integ-test-zip/elasticsearch"
    cp "$m2/${ES_VERSION}/elasticsearch-${ES_VERSION}.zip" "$zip.tmp" && mv "$zip.tmp" "$zip"
  fi
  if [[ ! -f "$ES_HOME/.unzipped" ]]; then
    rm -rf "$ES_HOME" "$ES_HOME.tmp"
    mkdir -p "$ES_HOME.tmp"
    unzip -q "$zip" -d "$ES_HOME.tmp" || die "cannot unzip $zip"
    mv "$ES_HOME.tmp/elasticsearch-${ES_VERSION}" "$ES_HOME"
    rmdir "$ES_HOME.tmp"
    touch "$ES_HOME/.unzipped"
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
  for f in "$NODE_DIR/logs/$name.log" "$NODE_DIR/console.log"; do
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
  [[ -n "$port" ]] || port=$((9250 + $(printf '%s' "$name" | cksum | cut -d' ' -f1) % 40))
  port_in_use "$port" && die "port $port on 127.0.0.1 is already in use (choose --port)"

  fetch_distribution
  ensure_user
  local java_home
  java_home="$(find_java_home)"

  # A fresh node directory: config copied from the distribution, empty data and logs.
  rm -rf "$NODE_DIR"
  mkdir -p "$NODE_DIR/data" "$NODE_DIR/logs" "$NODE_DIR/tmp"
  cp -r "$ES_HOME/config" "$NODE_DIR/config"
  echo "$port" >"$PORT_FILE"
  am_root && chmod 755 "$BASE" "$BASE/nodes" && chmod -R a+rX "$ES_HOME"
  local settings=(
    -Ecluster.name="fiohist-$name" -Enode.name="$name"
    -Enetwork.host=127.0.0.1 -Ehttp.port="$port"
    -Ediscovery.type=single-node
    -Epath.data="$NODE_DIR/data" -Epath.logs="$NODE_DIR/logs"
    -Ecluster.routing.allocation.disk.threshold_enabled=false
    -Eaction.destructive_requires_name=false
  )
  if [[ -d "$ES_HOME/modules/x-pack-security" ]]; then
    if [[ -n "$sec_user" ]]; then
      settings+=(-Expack.security.enabled=true -Expack.security.http.ssl.enabled=false
                 -Expack.security.transport.ssl.enabled=false)
    else
      settings+=(-Expack.security.enabled=false)
    fi
  elif [[ -n "$sec_user" ]]; then
    die "this Elasticsearch build has no security module; --user is not possible"
  fi
  # A tiny queue alone is not enough on a many-core machine: one write thread makes the
  # rejections (429) certain as soon as two shard-level writes overlap.
  [[ -n "$write_queue" ]] && settings+=(-Ethread_pool.write.queue_size="$write_queue"
                                        -Ethread_pool.write.size=1)

  if am_root; then chown -R "$ES_USER:" "$NODE_DIR"; fi
  export ES_JAVA_HOME="$java_home" ES_PATH_CONF="$NODE_DIR/config"
  export ES_JAVA_OPTS="-Xms512m -Xmx512m -Djava.io.tmpdir=$NODE_DIR/tmp ${FIOHIST_ES_JAVA_OPTS:-}"
  export ES_TMPDIR="$NODE_DIR/tmp"
  if [[ -n "$sec_user" ]]; then
    # File-realm superuser (a throw-away test password, so argv of a local tool is acceptable).
    local pw
    pw="$(head -n1 "$sec_pwfile")"
    as_node_user env ES_JAVA_HOME="$java_home" ES_PATH_CONF="$NODE_DIR/config" \
      "$ES_HOME/bin/elasticsearch-users" useradd "$sec_user" -p "$pw" -r superuser \
      >"$NODE_DIR/users.log" 2>&1 || { cat "$NODE_DIR/users.log" >&2; die "useradd failed"; }
    umask 077
    printf 'machine 127.0.0.1 login %s password %s\n' "$sec_user" "$pw" >"$NODE_DIR/auth"
    chown root: "$NODE_DIR/auth" 2>/dev/null || true
  fi

  echo "es-node.sh: starting Elasticsearch $ES_VERSION '$name' on 127.0.0.1:$port" \
       "(java: $java_home${write_queue:+, write queue $write_queue})" >&2
  # -d daemonizes once the node is started; -p writes the server's pid.
  if ! as_node_user env ES_JAVA_HOME="$java_home" ES_PATH_CONF="$NODE_DIR/config" \
      ES_JAVA_OPTS="$ES_JAVA_OPTS" ES_TMPDIR="$ES_TMPDIR" \
      "$ES_HOME/bin/elasticsearch" -d -p "$PID_FILE" "${settings[@]}" \
      >"$NODE_DIR/console.log" 2>&1 </dev/null; then
    echo "es-node.sh: Elasticsearch '$name' failed to start" >&2
    log_tail
    exit 1
  fi
  local url="http://127.0.0.1:$port" deadline=$((SECONDS + ${FIOHIST_ES_START_TIMEOUT:-300}))
  while ((SECONDS < deadline)); do
    if curl_health "$url" 5; then
      echo "es-node.sh: '$name' is up at $url (pid $(cat "$PID_FILE"))" >&2
      echo "$url"
      return 0
    fi
    pid_alive || break
    sleep 1
  done
  echo "es-node.sh: Elasticsearch '$name' did not become healthy at $url" >&2
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

case "$cmd" in
  start) do_start ;;
  stop) do_stop ;;
  url) node_url ;;
  *) usage ;;
esac
