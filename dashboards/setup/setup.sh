#!/usr/bin/env bash
# One-shot set-up of a fiohist stack: installs the index templates from mappings/ into
# Elasticsearch and imports the Kibana saved objects (data views). Run by the `setup` service
# of docker-compose.yml; also usable by hand against any node:
#   ES_URL=http://127.0.0.1:9200 KIBANA_URL=http://127.0.0.1:5601 \
#   MAPPINGS_DIR=mappings KIBANA_NDJSON=dashboards/kibana/fiohist.ndjson dashboards/setup/setup.sh
# KIBANA_URL empty = skip Kibana. With security on: ES_USER / ES_PASSWORD (a superuser), and
# optionally KIBANA_SYSTEM_PASSWORD to set the kibana_system user's password first.
# The buckets template maps `latency` as a `histogram` field; clusters without that type
# (OpenSearch, the Apache-2.0 integ-test build) reject it, and then the fallback template
# fiohist-buckets-nohistogram.json (same name, `latency` kept in _source only) is installed.
set -euo pipefail

ES_URL="${ES_URL:-http://elasticsearch:9200}"
KIBANA_URL="${KIBANA_URL-http://kibana:5601}"
MAPPINGS_DIR="${MAPPINGS_DIR:-/fiohist/mappings}"
KIBANA_NDJSON="${KIBANA_NDJSON:-/fiohist/kibana/fiohist.ndjson}"
WAIT_S="${WAIT_S:-300}"
DONE_MARKER="${DONE_MARKER:-/tmp/fiohist-setup-done}"

auth=()
if [[ -n "${ES_USER:-}" ]]; then auth=(-u "${ES_USER}:${ES_PASSWORD:?ES_PASSWORD is needed with ES_USER}"); fi
log() { echo "fiohist-setup: $*" >&2; }

wait_for() {  # $1 = what, then a command that succeeds when ready
  local what="$1" i; shift
  for ((i = 0; i < WAIT_S; i += 3)); do
    if "$@" >/dev/null 2>&1; then log "$what is up"; return 0; fi
    sleep 3
  done
  log "gave up waiting for $what after ${WAIT_S}s"; return 1
}

put_template() {  # $1 = template name, $2 = file; prints the response, fails on HTTP >= 400
  curl -sS "${auth[@]}" -o /tmp/fiohist-setup.out -w '%{http_code}' -X PUT \
    -H 'Content-Type: application/json' --data-binary "@$2" \
    "$ES_URL/_index_template/$1" >/tmp/fiohist-setup.code || true
  local code; code="$(cat /tmp/fiohist-setup.code)"
  if [[ "$code" == 200 ]]; then log "template $1 <- $(basename "$2")"; return 0; fi
  log "template $1 <- $(basename "$2") failed (HTTP $code): $(head -c 400 /tmp/fiohist-setup.out)"
  return 1
}

wait_for "Elasticsearch at $ES_URL" \
  curl -sf "${auth[@]}" "$ES_URL/_cluster/health?wait_for_status=yellow&timeout=5s"

put_template fiohist-pctiles "$MAPPINGS_DIR/fiohist-pctiles.json"
put_template fiohist-runs "$MAPPINGS_DIR/fiohist-runs.json"
put_template fiohist-stalls "$MAPPINGS_DIR/fiohist-stalls.json"
put_template fiohist-changes "$MAPPINGS_DIR/fiohist-changes.json"
if ! put_template fiohist-buckets "$MAPPINGS_DIR/fiohist-buckets.json"; then
  if grep -q 'histogram' /tmp/fiohist-setup.out; then
    log "this cluster has no 'histogram' field type: installing the fallback (no heatmap)"
    put_template fiohist-buckets "$MAPPINGS_DIR/fiohist-buckets-nohistogram.json"
  else
    exit 1
  fi
fi

if [[ -n "${KIBANA_SYSTEM_PASSWORD:-}" ]]; then
  curl -sf "${auth[@]}" -X POST -H 'Content-Type: application/json' \
    -d "{\"password\":\"${KIBANA_SYSTEM_PASSWORD}\"}" \
    "$ES_URL/_security/user/kibana_system/_password" >/dev/null
  log "kibana_system password set"
fi

# KIBANA_FLAVOR=opensearch-dashboards: OpenSearch Dashboards reports its status as
# overall.state "green" and wants an osd-xsrf header; the import API is the same.
if [[ "${KIBANA_FLAVOR:-kibana}" == opensearch-dashboards ]]; then
  ready_pattern='"state":"green"'; xsrf='osd-xsrf: fiohist-setup'
else
  ready_pattern='"level":"available"'; xsrf='kbn-xsrf: fiohist-setup'
fi
if [[ -n "$KIBANA_URL" ]]; then
  kibana_ready() { curl -sf "${auth[@]}" "$KIBANA_URL/api/status" | grep -q "$ready_pattern"; }
  wait_for "Kibana at $KIBANA_URL" kibana_ready
  curl -sS "${auth[@]}" -o /tmp/fiohist-setup.out -w '%{http_code}' -X POST \
    -H "$xsrf" --form "file=@$KIBANA_NDJSON" \
    "$KIBANA_URL/api/saved_objects/_import?overwrite=true" >/tmp/fiohist-setup.code || true
  if [[ "$(cat /tmp/fiohist-setup.code)" != 200 ]] || ! grep -q '"success":true' /tmp/fiohist-setup.out; then
    log "Kibana import failed: $(head -c 600 /tmp/fiohist-setup.out)"
    exit 1
  fi
  log "Kibana saved objects imported from $(basename "$KIBANA_NDJSON")"
fi

touch "$DONE_MARKER"
log "done"
