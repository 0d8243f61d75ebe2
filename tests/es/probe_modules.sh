#!/usr/bin/env bash
# probe_modules.sh URL — checks, against a running integ-test node, what that build lacks
# (documented at the top of es-node.sh). Exits non-zero if the node does not behave as written
# there, so a newer build that gains a module is noticed.
set -uo pipefail
url="${1:?usage: probe_modules.sh URL}"
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
check "GET / is missing" "Incorrect HTTP method for uri [/]" "$url/"
check "histogram field type is missing" "mapper type [histogram]" -XPUT "$url/$idx-h" "${J[@]}" \
  -d '{"mappings":{"properties":{"latency":{"type":"histogram"}}}}'
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
check "PIT works" '"id"' -XPOST "$url/$idx/_pit?keep_alive=1m"
curl -s -XDELETE "$url/$idx,$idx-h" >/dev/null
[[ $fail == 0 ]] && echo "probe: the node matches es-node.sh's notes" || echo "probe: MISMATCH"
exit $fail
