#!/usr/bin/env bash
# probe_modules.sh [--engine elasticsearch|opensearch] URL — checks, against a running
# integ-test node, what that build lacks (documented at the top of es-node.sh). Exits non-zero
# if the node does not behave as written there, so a newer build that gains a module is noticed.
set -uo pipefail
engine=elasticsearch
if [[ "${1:-}" == "--engine" ]]; then engine="${2:?}"; shift 2; fi
url="${1:?usage: probe_modules.sh [--engine elasticsearch|opensearch] URL}"
idx="fiohist-probe-$$"
fail=0
check() {  # description, expected substring, curl args...
  local what="$1" want="$2"; shift 2
  local out
  out="$(curl -s --max-time 30 "$@")"
  if [[ "$out" == *"$want"* ]]; then
    echo "ok   $what: ${out:0:150}"
  else
    echo "FAIL $what: expected '$want', got: ${out:0:300}"; fail=1
  fi
}
J=(-H 'Content-Type: application/json')
# Where the engines differ: the answer to GET /, the histogram error's wording, the PIT
# endpoint, how the absence of security shows.
if [[ "$engine" == opensearch ]]; then
  check "GET / names the distribution" '"distribution" : "opensearch"' "$url/"
  check "histogram field type is missing" "No handler for type [histogram]" -XPUT "$url/$idx-h" \
    "${J[@]}" -d '{"mappings":{"properties":{"latency":{"type":"histogram"}}}}'
  check "no plugins (no security plugin)" '"plugins":[]' \
    "$url/_nodes/_local/plugins?filter_path=nodes.*.plugins"
  check "security endpoints are missing" "no handler found for uri [/_plugins/_security/health]" \
    "$url/_plugins/_security/health"
else
  check "GET / is missing" "Incorrect HTTP method for uri [/]" "$url/"
  check "histogram field type is missing" "mapper type [histogram]" -XPUT "$url/$idx-h" \
    "${J[@]}" -d '{"mappings":{"properties":{"latency":{"type":"histogram"}}}}'
fi
check "_doc indexing works" '"result":"created"' -XPUT "$url/$idx/_doc/1?refresh=true" "${J[@]}" \
  -d '{"run":"a","v":1}'
check "painless is missing" "script_lang not supported [painless]" -XPOST "$url/$idx/_search" \
  "${J[@]}" -d '{"query":{"script":{"script":{"source":"true","lang":"painless"}}}}'
check "_delete_by_query is missing" "no handler found for uri [/$idx/_delete_by_query]" \
  -XPOST "$url/$idx/_delete_by_query" "${J[@]}" -d '{"query":{"match_all":{}}}'
check "_reindex is missing" "Incorrect HTTP method for uri [/_reindex]" -XPOST "$url/_reindex" \
  "${J[@]}" -d '{"source":{"index":"'$idx'"},"dest":{"index":"'$idx'-copy"}}'
check "scroll works" '"_scroll_id"' -XPOST "$url/$idx/_search?scroll=1m" "${J[@]}" \
  -d '{"size":1,"sort":["_doc"]}'
check "aggregations work" '"value":1.0' -XPOST "$url/$idx/_search" "${J[@]}" \
  -d '{"size":0,"aggs":{"m":{"min":{"field":"v"}}}}'
if [[ "$engine" == opensearch ]]; then
  check "PIT works" '"pit_id"' -XPOST "$url/$idx/_search/point_in_time?keep_alive=1m"
else
  check "PIT works" '"id"' -XPOST "$url/$idx/_pit?keep_alive=1m"
fi
curl -s -XDELETE "$url/$idx,$idx-h" >/dev/null
[[ $fail == 0 ]] && echo "probe: the node matches es-node.sh's notes" || echo "probe: MISMATCH"
exit $fail
