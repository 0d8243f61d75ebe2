#!/usr/bin/env bash
# es-cluster.sh — a throw-away cluster of N integ-test Elasticsearch nodes on 127.0.0.1, for
# the failover test (tests/push/cluster_test.py), built on es-node.sh (read its header).
#
#   es-cluster.sh start  --name C --http P --transport T [--nodes N]   all nodes, then wait green
#   es-cluster.sh node   --name C --http P --transport T [--nodes N] I  (re)start node I (1..N)
#                                                                       on its data, no waiting
#   es-cluster.sh kill   --name C I        SIGKILL node I
#   es-cluster.sh stop   --name C [--nodes N]
#   es-cluster.sh wait   --name C --http P [--nodes N] STATUS   wait (180 s) for green/yellow
#
# Node I is named C-I, listens on http P+I-1 and transport T+I-1, finds the others through
# discovery.seed_hosts on the loopback transport ports, and the first start bootstraps with all
# N as initial master nodes. 512 MB heap each (es-node.sh). FIOHIST_ES_BASE as for es-node.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
die() { echo "es-cluster.sh: $*" >&2; exit 1; }

cmd="${1:-}"; [[ -n "$cmd" ]] || die "usage: see the header of $0"; shift
name=""; http=""; transport=""; nodes=3; args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --name) name="${2:?}"; shift 2 ;;
    --http) http="${2:?}"; shift 2 ;;
    --transport) transport="${2:?}"; shift 2 ;;
    --nodes) nodes="${2:?}"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[[ "$name" =~ ^[a-z0-9][a-z0-9_-]{0,30}$ ]] || die "bad or missing --name"
[[ "$nodes" =~ ^[1-9]$ ]] || die "bad --nodes '$nodes' (1..9)"

node_args() {  # $1 = node number
  local i seeds="" masters=""
  for ((i = 0; i < nodes; i++)); do
    seeds+="${seeds:+,}$((transport + i))"
    masters+="${masters:+,}$name-$((i + 1))"
  done
  echo --engine elasticsearch --name "$name-$1" --port "$((http + $1 - 1))" \
    --cluster "$name" --transport-port "$((transport + $1 - 1))" --seeds "$seeds" \
    --masters "$masters"
}

wait_status() {  # $1 = green|yellow
  local deadline=$((SECONDS + 180)) url
  while ((SECONDS < deadline)); do
    for ((i = 0; i < nodes; i++)); do
      url="http://127.0.0.1:$((http + i))"
      if curl -sf --max-time 10 \
          "$url/_cluster/health?wait_for_status=$1&wait_for_nodes=$nodes&timeout=5s" >/dev/null; then
        echo "es-cluster.sh: cluster $name is $1 with $nodes nodes" >&2
        return 0
      fi
    done
    sleep 1
  done
  die "cluster $name did not become $1 with $nodes nodes in 180 s"
}

case "$cmd" in
  start)
    [[ "$http" =~ ^[0-9]+$ && "$transport" =~ ^[0-9]+$ ]] || die "start needs --http and --transport"
    for ((i = 1; i <= nodes; i++)); do
      # shellcheck disable=SC2046
      "$here/es-node.sh" start $(node_args "$i") >/dev/null
    done
    wait_status green ;;
  node)
    [[ "${args[0]:-}" =~ ^[1-9]$ ]] || die "node needs a node number"
    # shellcheck disable=SC2046
    "$here/es-node.sh" start $(node_args "${args[0]}") --keep-data >/dev/null ;;
  kill)
    [[ "${args[0]:-}" =~ ^[1-9]$ ]] || die "kill needs a node number"
    "$here/es-node.sh" kill --name "$name-${args[0]}" ;;
  stop)
    for ((i = 1; i <= nodes; i++)); do "$here/es-node.sh" stop --name "$name-$i" || true; done ;;
  wait)
    [[ "${args[0]:-}" == green || "${args[0]:-}" == yellow ]] || die "wait needs green or yellow"
    wait_status "${args[0]}" ;;
  *) die "unknown command $cmd" ;;
esac
