#!/usr/bin/env bash
# index_size.sh: what one push of a corpus costs in an Elasticsearch/OpenSearch node.
#
#   bench/index_size.sh FIOHIST URL LOG_DIR [push options...]
#
# Pushes every log under LOG_DIR into URL with a throw-away index prefix (`isz`), refreshes,
# force-merges each index to one segment and prints per index the documents and the store
# size, the percentile documents per scope and resolution, the push's CPU seconds (user +
# system of fiohist alone: wall time on a shared machine says little), and per field the
# on-disk bytes of `_disk_usage?run_expensive_tasks=true` (Elasticsearch only) for the
# percentile and bucket indices. The indices are deleted at the start, not at the end, so
# they can be looked at afterwards. Used for bench/README.md, "Index size".
set -euo pipefail
FIOHIST=${1:?fiohist binary}
URL=${2:?node url}
LOGS=${3:?log directory}
shift 3
PREFIX=${FIOHIST_ISZ_PREFIX:-isz}

curl -s -XDELETE "$URL/$PREFIX-*" >/dev/null || true
curl -s -XDELETE "$URL/_index_template/$PREFIX-*" >/dev/null || true
mapfile -t FILES < <(find "$LOGS" -type f -name '*_clat_hist.*' | sort)
GZ_BYTES=$(cat "${FILES[@]}" | wc -c)
TIMES=$(mktemp)
/usr/bin/time -f '%U %S %e %M' -o "$TIMES" "$FIOHIST" push --es-url "$URL" --index-prefix "$PREFIX" \
  --run isz "$@" "${FILES[@]}" >/dev/null 2>"$TIMES.err" || {
  cat "$TIMES.err" >&2
  exit 1
}
read -r USER_S SYS_S WALL_S RSS_KB <"$TIMES"
curl -s -XPOST "$URL/$PREFIX-*/_refresh" >/dev/null
curl -s -XPOST "$URL/$PREFIX-*/_forcemerge?max_num_segments=1" >/dev/null
curl -s -XPOST "$URL/$PREFIX-*/_refresh" >/dev/null
echo "logs: ${#FILES[@]} files, $GZ_BYTES bytes; push: user ${USER_S}s sys ${SYS_S}s (wall ${WALL_S}s, RSS ${RSS_KB} kB)"
curl -s "$URL/_cat/indices/$PREFIX-*?bytes=b&h=index,docs.count,store.size,pri.store.size&s=index&v"
echo "percentile documents by scope x resolution:"
curl -s -H 'Content-Type: application/json' "$URL/$PREFIX-pctiles-*/_search" -d '{"size":0,
  "aggs":{"s":{"terms":{"field":"scope"},"aggs":{"r":{"terms":{"field":"resolution","size":20}}}}}}' |
  python3 -c '
import json, sys
d = json.load(sys.stdin)
for s in d["aggregations"]["s"]["buckets"]:
    print("  %-8s %8d  " % (s["key"], s["doc_count"]) +
          " ".join("%s:%d" % (r["key"], r["doc_count"]) for r in sorted(s["r"]["buckets"], key=lambda r: r["key"])))
'
for kind in pctiles buckets; do
  OUT=$(curl -s -XPOST "$URL/$PREFIX-$kind-*/_disk_usage?run_expensive_tasks=true" || true)
  echo "$OUT" | python3 -c '
import json, sys
kind = sys.argv[1]
try:
    d = json.load(sys.stdin)
except ValueError:
    sys.exit(0)
for index, v in d.items():
    if not isinstance(v, dict) or "fields" not in v:
        continue
    total = v.get("store_size_in_bytes", 0)
    print("%s: store %d bytes; fields over 1%% (total, inverted index, stored, doc values, points, norms):" % (index, total))
    rows = sorted(v["fields"].items(), key=lambda kv: -kv[1]["total_in_bytes"])
    for name, f in rows:
        if f["total_in_bytes"] * 100 < total:
            continue
        print("  %-22s %10d %9d %10d %9d %8d %6d" % (name, f["total_in_bytes"],
              f.get("inverted_index", {}).get("total_in_bytes", 0), f.get("stored_fields_in_bytes", 0),
              f.get("doc_values_in_bytes", 0), f.get("points_in_bytes", 0), f.get("norms_in_bytes", 0)))
' "$kind"
done
rm -f "$TIMES" "$TIMES.err"
