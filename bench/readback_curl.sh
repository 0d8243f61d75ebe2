#!/usr/bin/env bash
# readback_curl.sh URL PREFIX RUN [SCOPE]: the server's side of `fiohist pctiles --run RUN`:
# the same searches (the run's scopes and directions, then every bucket document of SCOPE,
# default job, of its real directions, in pages of 10000 sorted by time, each from the
# quantum the last one ended in) sent with curl, the answers thrown away but for the hits'
# sort values. Read-back is bound by the server when fiohist takes about as long as this.
# Prints the documents read to stderr.
set -euo pipefail
URL=${1%/}
PREFIX=$2
RUN=$3
SCOPE=${4:-job}
PAGE=10000
IDX="$PREFIX-buckets*"
OPTS="ignore_unavailable=true&allow_no_indices=true"

search() {
  curl -s -X POST -H 'Content-Type: application/json' "$URL/$IDX/_search?$OPTS" --data-binary "$1"
}
filter='{"bool":{"filter":[{"terms":{"run":["'"$RUN"'"]}}'
# What fiohist asks first: the stored scopes and directions, and the run's jobs.
search '{"size":0,"query":'"$filter"']}},"aggs":{"scope":{"terms":{"field":"scope","size":10}},"direction":{"terms":{"field":"direction","size":10}},"series":{"global":{},"aggs":{"run":{"filter":'"$filter"',{"terms":{"scope":["job"]}}]}},"aggs":{"host":{"terms":{"field":"host","size":10000},"aggs":{"job":{"terms":{"field":"job","size":10000}}}}}}}}}}' >/dev/null
query="$filter"',{"terms":{"scope":["'"$SCOPE"'"]}},{"terms":{"direction":["read","write","trim"]}}'
after=""
docs=0
while :; do
  range=""
  [ -n "$after" ] && range=',{"range":{"@timestamp":{"format":"epoch_millis","gte":'"$after"'}}}'
  body='{"size":'$PAGE',"track_total_hits":false,"query":'"$query$range"']}},"sort":[{"@timestamp":{"order":"asc"}}]}'
  # Only the hits' sort values are looked at: the page's last quantum is read again
  # with the next page, as fiohist does.
  sorts=$(search "$body" | grep -o '"sort":\[[^]]*\]' | sed 's/^"sort":\[//; s/\]$//' || true)
  n=$(printf '%s' "$sorts" | grep -c . || true)
  [ "$n" -lt "$PAGE" ] && { docs=$((docs + n)); break; }
  last=$(printf '%s\n' "$sorts" | tail -n 1)
  if [ "$(printf '%s\n' "$sorts" | head -n 1)" = "$last" ]; then
    docs=$((docs + n)); after=$((last + 1))  # (fiohist pages such a quantum by series)
  else
    docs=$((docs + $(printf '%s\n' "$sorts" | grep -vc "^$last\$"))); after=$last
  fi
done
echo "readback_curl: $docs documents" >&2
