"""A model of what Grafana's built-in Elasticsearch data source sends for a dashboard target,
variable or annotation, and how it reads the answer. It follows Grafana 11/12
(pkg/tsdb/elasticsearch: time range filter + query_string, nested bucket aggregations in
order, metrics in the innermost one, `auto` date_histogram intervals from the panel's min
interval and max data points; the Lucene variable format of the data source plugin). Only the
parts fiohist's dashboards use are modelled; anything else raises ValueError so a new panel
kind cannot slip through untranslated."""

import datetime
import json
import re
import time

from dashlib import annotation_query

LUCENE_SPECIAL = re.compile(r'([!*+\-=<>\s&|()\[\]{}^~?:\\/"])')


def lucene_escape(value):
    return LUCENE_SPECIAL.sub(r"\\\1", str(value))


class Variables:
    """Current values of a dashboard's template variables: name -> list of values, or the
    string "$__all" for All (replaced by the variable's allValue)."""

    def __init__(self, dashboard, values):
        self.defs = {v["name"]: v for v in dashboard.get("templating", {}).get("list", [])}
        self.values = values

    def _resolve(self, name):
        if name not in self.defs:
            raise ValueError(f"undefined variable ${name}")
        v = self.values.get(name)
        if v is None:
            cur = self.defs[name].get("current", {}).get("value")
            v = cur
        return v

    def lucene(self, text):
        """Grafana's `lucene` format, used for Elasticsearch query strings (`${name:raw}`:
        the value as it is, unescaped)."""
        def repl(m):
            name = m.group("braced") or m.group("bare")
            if name.startswith("__"):
                return m.group(0)
            if m.group("fmt") == "raw":
                return self.plain("${" + name + "}")
            if m.group("fmt"):
                raise ValueError(f"{m.group(0)}: format not modelled")
            v = self._resolve(name)
            d = self.defs[name]
            if v == "$__all" or v == ["$__all"]:
                if d.get("allValue") is not None:
                    return d["allValue"]  # custom all values are not formatted
                raise ValueError(f"${name}: All without allValue is not modelled")
            if isinstance(v, list):
                if not v:
                    return "__empty__"
                return "(" + " OR ".join('"' + lucene_escape(x) + '"' for x in v) + ")"
            return lucene_escape(v)
        return re.sub(r"\$(?:\{(?P<braced>[A-Za-z0-9_]+)(?::(?P<fmt>[a-z]+))?\}|"
                      r"(?P<bare>[A-Za-z0-9_]+))", repl, text)

    def plain(self, text):
        """The default format, for everything outside query strings (settings)."""
        def repl(m):
            name = m.group(1) or m.group(2)
            if name.startswith("__"):
                return m.group(0)
            v = self._resolve(name)
            if v == "$__all" or v == ["$__all"]:
                if self.defs[name].get("allValue") is None:
                    raise ValueError(f"${name}: All without allValue is not modelled")
                v = self.defs[name]["allValue"]
            if isinstance(v, list):
                if len(v) != 1:
                    raise ValueError(f"${name}: multi-value outside a query is not modelled")
                v = v[0]
            return str(v)
        return re.sub(r"\$(?:\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))", repl, text)


def query_variable_value(vdef, keys, current=None):
    """The value Grafana (its scenes variables) gives a single-value query variable once its
    query answered `keys`: none -> All (its allValue, when it has All), else the current value
    if offered, else the first key."""
    keys = [str(k) for k in keys]
    if not keys:
        return "$__all" if vdef.get("includeAll") else ""
    cur = current if current is not None else vdef.get("current", {}).get("value")
    return cur if cur in keys else keys[0]


def bucket_start(t_ms, interval_ms, offset_ms=0):
    """The key of the date_histogram bucket holding t: Elasticsearch rounds t - offset down
    to a multiple of the interval and adds the offset back."""
    return offset_ms + (int(t_ms) - offset_ms) // int(interval_ms) * int(interval_ms)


def date_histogram_offset_ms(target, variables):
    """The offset in ms of a target's date_histogram (0 without one)."""
    for b in target.get("bucketAggs", []):
        if b.get("type") == "date_histogram":
            off = variables.plain(b.get("settings", {}).get("offset") or "0ms")
            return parse_duration_ms(off)
    return 0


UNITS_MS = {"ms": 1, "s": 1000, "m": 60000, "h": 3600000, "d": 86400000, "w": 604800000,
            "y": 31536000000}


def parse_duration_ms(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|m|h|d|w|y)", text.strip())
    if not m:
        raise ValueError(f"cannot parse duration {text!r}")
    return int(float(m.group(1)) * UNITS_MS[m.group(2)])


# Grafana's gtime.RoundInterval (upper bound of the calculated interval -> rounded interval).
ROUND = [(10, 1), (15, 10), (35, 20), (75, 50), (150, 100), (350, 200), (750, 500),
         (1500, 1000), (3500, 2000), (7500, 5000), (12500, 10000), (17500, 15000),
         (25000, 20000), (45000, 30000), (90000, 60000), (210000, 120000), (450000, 300000),
         (750000, 600000), (1050000, 900000), (1500000, 1200000), (2700000, 1800000),
         (5400000, 3600000), (9000000, 7200000), (16200000, 10800000), (24300000, 21600000),
         (54000000, 43200000), (129600000, 86400000), (388800000, 86400000 * 7)]


def round_interval(ms):
    for limit, value in ROUND:
        if ms <= limit:
            return value
    return 86400000 * 30


def auto_interval_ms(frm, to, min_interval_ms, max_data_points):
    calc = (to - frm) / (max_data_points or 1500)
    if calc < min_interval_ms:
        return min_interval_ms
    return round_interval(calc)


def panel_time_range(panel, dash_from, dash_to, now_ms=None):
    """A panel's relative time override (timeFrom "10y" = the last 10 years up to now)."""
    tf = panel.get("timeFrom")
    if not tf:
        return dash_from, dash_to
    now_ms = now_ms or int(time.time() * 1000)
    return now_ms - parse_duration_ms(tf.replace("now-", "")), now_ms


def _bucket_agg(b, frm, to, interval_ms, time_field):
    s = b.get("settings", {})
    t = b["type"]
    if t == "date_histogram":
        iv = s.get("interval", "auto")
        agg = {"field": b.get("field") or time_field,
               "min_doc_count": int(s.get("min_doc_count", 0)),
               "extended_bounds": {"min": frm, "max": to}, "format": "epoch_millis"}
        if iv in ("1m", "1h", "1d", "1w", "1M", "1q", "1y"):
            agg["calendar_interval"] = iv
        else:
            agg["fixed_interval"] = f"{interval_ms}ms" if iv == "auto" else iv
        if s.get("offset"):
            agg["offset"] = s["offset"]
        return {"date_histogram": agg}
    if t == "histogram":
        # Grafana 11/12: stringToFloatWithDefaultValue(settings.interval.MustString(), 1000),
        # so a JSON number (or anything unparsable) silently becomes 1000.
        iv = s.get("interval")
        try:
            interval = float(iv) if isinstance(iv, str) else 1000.0
        except ValueError:
            interval = 1000.0
        agg = {"field": b["field"], "interval": interval,
               "min_doc_count": int(s.get("min_doc_count", 0))}
        return {"histogram": agg}
    if t == "terms":
        agg = {"field": b["field"], "size": int(s.get("size", 10) or 500)}
        if int(s.get("size", 10) or 0) == 0:
            agg["size"] = 500
        if s.get("min_doc_count") not in (None, ""):
            agg["min_doc_count"] = int(s["min_doc_count"])
        order_by = s.get("orderBy", "_term")
        order_by = "_key" if order_by == "_term" else order_by
        agg["order"] = {order_by: s.get("order", "desc")}
        return {"terms": agg}
    raise ValueError(f"bucket aggregation {t} is not modelled")


def interval_text(ms):
    """Grafana's $__interval text of an interval in ms (kbn.secondsToHms)."""
    for unit, size in (("y", 31536000000), ("w", 604800000), ("d", 86400000), ("h", 3600000),
                       ("m", 60000), ("s", 1000)):
        if ms >= size and ms % size == 0:
            return f"{ms // size}{unit}"
    return f"{ms}ms"


def builtin_interval(text, interval_ms):
    """Grafana's scoped variables of a panel query: $__interval_ms and $__interval."""
    text = re.sub(r"\$(?:\{__interval_ms\}|__interval_ms)", str(int(interval_ms)), text)
    return re.sub(r"\$(?:\{__interval\}|__interval)(?![_A-Za-z0-9])",
                  interval_text(int(interval_ms)), text)


def build_target_request(target, time_field, frm, to, interval_ms, variables):
    """(the _msearch body of one target, the interpolated target)."""
    query = builtin_interval(variables.lucene(target.get("query") or "*") or "*", interval_ms)
    rest = dict(target)
    rest.pop("query", None)
    t = json.loads(variables.plain(json.dumps(rest)))
    t["query"] = query
    body = {"size": 0, "query": {"bool": {"filter": [
        {"range": {time_field: {"gte": frm, "lte": to, "format": "epoch_millis"}}},
        {"query_string": {"analyze_wildcard": True, "query": query}}]}}}
    metrics = t.get("metrics", [])
    if metrics and metrics[0]["type"] in ("raw_data", "raw_document"):
        body["size"] = int(metrics[0].get("settings", {}).get("size", 500))
        body["sort"] = [{time_field: {"order": "desc", "unmapped_type": "boolean"}},
                        {"_doc": {"order": "desc"}}]
        body["docvalue_fields"] = [{"field": time_field,
                                    "format": "strict_date_optional_time_nanos"}]
        return body, t
    if not t.get("bucketAggs"):
        raise ValueError("metric targets without bucket aggregations are not modelled")
    node = body
    for b in t["bucketAggs"]:
        agg = _bucket_agg(b, frm, to, interval_ms, time_field)
        node.setdefault("aggs", {})[b["id"]] = agg
        node = agg
    for m in metrics:
        if m["type"] == "count":
            continue
        if m["type"] not in ("avg", "sum", "min", "max", "percentiles", "cardinality",
                             "extended_stats"):
            raise ValueError(f"metric {m['type']} is not modelled")
        node.setdefault("aggs", {})[m["id"]] = {m["type"]: dict(field=m["field"],
                                                                **m.get("settings", {}))}
    return body, t


def metric_values(bucket, m):
    """[(series suffix, value)] of one metric in one bucket."""
    if m["type"] == "count":
        return [("count", bucket["doc_count"])]
    v = bucket.get(m["id"], {})
    if m["type"] == "percentiles":
        vals = {float(k): x for k, x in (v.get("values") or {}).items()}
        return [(f"p{p} {m['field']}", vals.get(float(p)))
                for p in m.get("settings", {}).get("percents", [])]
    return [(f"{m['type']} {m['field']}", v.get("value"))]


def parse_response(resp, t):
    """{"series": {(labels, metric): [(time_ms, value)]}, "rows": [dict], "hits": [dict]}."""
    out = {"series": {}, "rows": [], "hits": []}
    if "error" in resp:
        raise RuntimeError(json.dumps(resp["error"])[:800])
    metrics = t.get("metrics", [])
    if metrics and metrics[0]["type"] in ("raw_data", "raw_document"):
        out["hits"] = [h["_source"] for h in resp["hits"]["hits"]]
        return out
    aggs = t["bucketAggs"]

    def walk(node, depth, labels):
        b = aggs[depth]
        for bk in node[b["id"]]["buckets"]:
            key = bk["key"]
            lab = labels + ((b.get("field") or "@timestamp", key),)
            if depth + 1 < len(aggs):
                walk(bk, depth + 1, lab)
            elif b["type"] == "date_histogram":
                for m in metrics:
                    for name, val in metric_values(bk, m):
                        out["series"].setdefault((labels, name), []).append((key, val))
            else:
                row = dict(lab)
                for m in metrics:
                    for name, val in metric_values(bk, m):
                        row[name] = val
                out["rows"].append(row)
    walk(resp.get("aggregations", {}), 0, ())
    return out


def variable_request(vdef, time_field, frm, to, variables):
    q = json.loads(vdef["query"]) if isinstance(vdef["query"], str) else vdef["query"]
    if q.get("find") != "terms":
        raise ValueError(f"variable query {q} is not modelled")
    flt = [{"range": {time_field: {"gte": frm, "lte": to, "format": "epoch_millis"}}}]
    if q.get("query"):
        flt.append({"query_string": {"analyze_wildcard": True,
                                     "query": variables.lucene(q["query"])}})
    return {"size": 0, "query": {"bool": {"filter": flt}},
            "aggs": {"1": {"terms": {"field": q["field"], "size": int(q.get("size", 500)),
                                     "order": {"_key": "asc"}}}}}


def annotation_request(a, frm, to, variables):
    """The search of an Elasticsearch annotation (Grafana's prepareAnnotationRequest): hits whose
    timeField, or (where the annotation has one) whose timeEndField, lies in the range, so a
    span that began before the range still shows."""
    def in_range(field):
        return {"range": {field: {"gte": frm, "lte": to, "format": "epoch_millis"}}}
    when = in_range(a["timeField"])
    if a.get("timeEndField"):
        when = {"bool": {"should": [when, in_range(a["timeEndField"])],
                         "minimum_should_match": 1}}
    return {"size": 10000, "query": {"bool": {"filter": [
        when,
        {"query_string": {"analyze_wildcard": True,
                          "query": variables.lucene(annotation_query(a) or "*")}}]}}}


def source_field(src, name):
    """A field of _source as Grafana's annotation processing reads it
    (processHitsToAnnotationEvents, getFieldFromSource: the name split at dots, each part a
    key of the object before: `all.lower_bound`); None where a part is missing."""
    if not name:
        return None
    v = src
    for part in name.split("."):
        if not isinstance(v, dict) or part not in v:
            return None
        v = v[part]
    return v


def annotation_events(a, hits):
    """The annotation events Grafana makes of the hits (its legacy Elasticsearch annotation
    processing): time and timeEnd from timeField and timeEndField of _source (epoch ms or ISO
    text), text from textField, tags from tagsField (an array, or a text split at commas)."""
    def ms(v):
        if isinstance(v, (int, float)):
            return int(v)
        t = datetime.datetime.strptime(v[:23].rstrip("Z"), "%Y-%m-%dT%H:%M:%S.%f")
        return int(t.replace(tzinfo=datetime.timezone.utc).timestamp() * 1000 + 0.5)

    out = []
    for h in hits:
        src = h["_source"]
        e = {"time": ms(src[a["timeField"]]),
             "text": source_field(src, a.get("textField")) or ""}
        if a.get("timeEndField") and src.get(a["timeEndField"]):
            e["timeEnd"] = ms(src[a["timeEndField"]])
        tags = source_field(src, a.get("tagsField")) if a.get("tagsField") else None
        e["tags"] = tags.split(",") if isinstance(tags, str) else (tags or [])
        out.append(e)
    return out


# ------------------------------------------------------------------------------ alert rules
# Grafana-managed alert rules (provisioning/alerting/*.yaml): each data query runs like a
# panel target over the rule's relative time range, with the interval from the model's
# intervalMs / maxDataPoints (Grafana's defaults 1000 / 43200); then the server-side
# expressions: reduce turns every series (one per label set: the terms keys) into one number,
# threshold compares it. Only the expression kinds fiohist's rules use are modelled.

ALERT_EMPTY_DASHBOARD = {"templating": {"list": []}}


def alert_query_request(q, time_field, frm, to):
    """(the _msearch body of one data query of a rule over [frm, to], the interpolated
    model, the interval in ms)."""
    model = dict(q["model"])
    iv = auto_interval_ms(frm, to, int(model.get("intervalMs", 1000)),
                          int(model.get("maxDataPoints", 43200)))
    body, t = build_target_request(model, time_field, frm, to, iv,
                                   Variables(ALERT_EMPTY_DASHBOARD, {}))
    return body, t, iv


def alert_relative_range(q, now_ms):
    """The [from, to] in epoch ms a data query covers when evaluated at `now_ms`."""
    r = q["relativeTimeRange"]
    return now_ms - int(r["from"]) * 1000, now_ms - int(r["to"]) * 1000


def _reduce(values, reducer, mode):
    vals = [v for v in values if v is not None and not (isinstance(v, float) and v != v)]
    if mode != "dropNN" and len(vals) != len(values):
        return None
    if not vals:
        return None
    if reducer == "sum":
        return float(sum(vals))
    if reducer == "max":
        return float(max(vals))
    if reducer == "min":
        return float(min(vals))
    if reducer == "mean":
        return float(sum(vals)) / len(vals)
    if reducer == "last":
        return float(vals[-1])
    if reducer == "count":
        return float(len(vals))
    raise ValueError(f"reducer {reducer} is not modelled")


def evaluate_rule(rule, series_by_ref):
    """{labels: value of every expression} and the firing label sets of `rule`, given the
    parsed series (parse_response()["series"]) of each data query by refId. Labels are the
    terms keys of a series ((field, key), ...)."""
    results = {}  # refId -> {labels: number}
    for q in rule["data"]:
        m = q["model"]
        ref = q["refId"]
        if q.get("datasourceUid") != "__expr__":
            continue
        if m["type"] == "reduce":
            src = series_by_ref[m["expression"]]
            out = {}
            for (labels, _metric), points in src.items():
                v = _reduce([p for _, p in points], m["reducer"],
                            m.get("settings", {}).get("mode", ""))
                if v is not None:
                    out[labels] = v
            results[ref] = out
        elif m["type"] == "threshold":
            ev = m["conditions"][0]["evaluator"]
            src = results[m["expression"]]
            p = [float(x) for x in ev["params"]]
            test = {"gt": lambda v: v > p[0], "lt": lambda v: v < p[0],
                    "within_range": lambda v: p[0] < v < p[1],
                    "outside_range": lambda v: v < p[0] or v > p[1]}[ev["type"]]
            results[ref] = {labels: 1.0 if test(v) else 0.0 for labels, v in src.items()}
        else:
            raise ValueError(f"expression {m['type']} is not modelled")
    cond = results.get(rule["condition"], {})
    firing = {labels for labels, v in cond.items() if v}
    return results, firing
