#!/usr/bin/env python3
"""Static check of fiohist's dashboards, index templates, Kibana objects and compose file (no
server needed). Exit 0 when everything is consistent, 1 with one line per problem otherwise.

Checks: every JSON parses; dashboard uids and panel ids are unique; every data source uid used
is provisioned; every field a target, variable, annotation or transformation uses exists in the
index template behind the data source, with a type the aggregation accepts; the Kibana data
views match the templates; docker-compose.yml names the four services with health checks, pins
matching versions, binds ports to 127.0.0.1 and mounts only files that exist. The same checks
cover the OpenSearch variant (Grafana dashboards for the grafana-opensearch-datasource plugin,
OpenSearch Dashboards saved objects, the compose profile `opensearch`), and that the generated
files are what dashboards/generate.py makes from the Elasticsearch ones today."""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dashlib as dl  # noqa: E402

problems = []
checked = {"templates": 0, "dashboards": 0, "panels": 0, "targets": 0, "fields": 0,
           "variables": 0, "kibana objects": 0, "compose services": 0, "alert rules": 0}


def problem(where, msg):
    problems.append(f"{where}: {msg}")


# Which field types each aggregation accepts (Elasticsearch 8.x).
METRIC_TYPES = {
    "avg": dl.NUMERIC | {"histogram"}, "sum": dl.NUMERIC | {"histogram"},
    "min": dl.NUMERIC | {"histogram", "date"}, "max": dl.NUMERIC | {"histogram", "date"},
    "percentiles": dl.NUMERIC | {"histogram"}, "extended_stats": dl.NUMERIC,
    "cardinality": dl.NUMERIC | {"keyword", "date", "boolean"},
}
NO_FIELD_METRICS = {"count", "raw_data", "raw_document", "logs"}
BUCKET_TYPES = {
    "date_histogram": {"date", "date_nanos"},
    "histogram": dl.NUMERIC | {"histogram"},
    "terms": dl.NUMERIC | {"keyword", "boolean", "ip"},
}


# ------------------------------------------------------------------------------ templates
def check_templates():
    try:
        tmpl = dl.load_templates()
    except (OSError, json.JSONDecodeError) as e:
        problem("mappings", f"cannot read a template: {e}")
        return {}
    checked["templates"] = len(tmpl)
    for kind, t in tmpl.items():
        where = f"mappings/{dl.TEMPLATE_FILES[kind]}"
        base = kind.split("-")[0]
        if t.get("index_patterns") != [f"fiohist-{base}*"]:
            problem(where, f"index_patterns should be ['fiohist-{base}*']: {t.get('index_patterns')}")
        idx = t.get("template", {}).get("settings", {}).get("index", {})
        # One shard per monthly index; auto_expand_replicas 0-1: green on one node, a replica
        # on a cluster (fiohist setup/push --shards/--replicas override it at install time).
        if str(idx.get("number_of_shards")) != "1" or idx.get("auto_expand_replicas") != "0-1" \
                or "number_of_replicas" in idx:
            problem(where, "expected 1 shard and auto_expand_replicas 0-1 (no number_of_replicas)")
        if not idx.get("refresh_interval"):
            problem(where, "no refresh_interval")
        m = dl.Mapping(t)
        for name, sub in m.props.items():
            if sub.get("type") == "date" and not sub.get("format", "").startswith("epoch_millis"):
                problem(where, f"date field {name} must list epoch_millis first (else a 4-digit "
                               f"epoch value such as 1000 ms is read as the year 1000): "
                               f"{sub.get('format')!r}")
        for f, typ in [("@timestamp", "date"), ("run", "keyword")]:
            fld = m.field(f)
            if not fld or fld.type != typ:
                problem(where, f"{f} must be {typ}, is {fld}")
        if kind == "changes":
            # Change points (history --annotate): every field mapped, nothing dynamic.
            if t.get("template", {}).get("mappings", {}).get("dynamic") is not False:
                problem(where, "the change points' mapping must be dynamic: false")
            continue
        if kind == "stalls":
            # Stalls (annotations): every field mapped, nothing dynamic but the run's labels.
            if t.get("template", {}).get("mappings", {}).get("dynamic") is not False:
                problem(where, "the stalls' mapping must be dynamic: false")
            lab = m.field("labels.rack")
            if not lab or lab.type != "keyword" or not lab.aggregatable:
                problem(where, f"labels.* must map to keyword ({lab})")
            continue
        for f in ("p99_999", "p0", "p100"):
            fld = m.field(f, "double")
            if not fld or fld.type != "double" or not fld.aggregatable:
                problem(where, f"dynamic percentile field {f} would not map to an aggregatable "
                               f"double ({fld})")
        lab = m.field("labels.rack")
        if not lab or lab.type != "keyword" or not lab.aggregatable:
            problem(where, f"labels.* must map to keyword ({lab})")
        junk = m.field("some_new_field")
        if junk is not None and (junk.searchable or junk.aggregatable):
            problem(where, f"unknown fields must not be indexed ({junk})")
    b, nb = tmpl.get("buckets"), tmpl.get("buckets-nohistogram")
    if b and nb:
        lat = b["template"]["mappings"]["properties"].get("latency")
        if lat != {"type": "histogram"}:
            problem("mappings/fiohist-buckets.json", f"latency must be a histogram: {lat}")
        nlat = nb["template"]["mappings"]["properties"].get("latency")
        if nlat != {"type": "object", "enabled": False}:
            problem("mappings/fiohist-buckets-nohistogram.json",
                    f"latency must be an object with enabled:false: {nlat}")
        bp = dict(b["template"]["mappings"]["properties"]); bp.pop("latency", None)
        np_ = dict(nb["template"]["mappings"]["properties"]); np_.pop("latency", None)
        if bp != np_ or b["template"]["settings"] != nb["template"]["settings"]:
            problem("mappings", "the two buckets templates differ in more than `latency`")
        for f in ("bucket_runs", "bucket_ios", "latency_scale"):
            p = b["template"]["mappings"]["properties"].get(f, {})
            if p.get("index", True) or p.get("doc_values", True):
                problem("mappings/fiohist-buckets.json",
                        f"{f} must have index: false and doc_values: false (read back only)")
        props = b["template"]["mappings"]["properties"]
        if props.get("records") != {"type": "object", "enabled": False}:
            problem("mappings/fiohist-buckets.json",
                    "records must be an object with enabled: false (read back only)")
        re_ = props.get("records_end", {})
        if re_.get("type") != "date" or not re_.get("index", True):
            problem("mappings/fiohist-buckets.json",
                    "records_end must be an indexed date (read-back searches a window on it)")
    if "runs" in tmpl:
        m = dl.Mapping(tmpl["runs"])
        for f in ("read_p99", "write_p99_9", "all_iops"):
            fld = m.field(f, "double")
            if not fld or fld.type != "double":
                problem("mappings/fiohist-runs.json", f"{f} must map to double ({fld})")
    return tmpl


# ------------------------------------------------------------------------------ grafana
def template_for_index(tmpl, index):
    """The template whose pattern equals the data source's index (pattern)."""
    for kind, t in tmpl.items():
        if kind == "buckets-nohistogram":
            continue
        for p in dl.index_patterns(t):
            if p == index or p.rstrip("*") == index.rstrip("*"):
                return kind, t
    return None, None


def check_field(where, mapping, field, accepted, what, want_search=False):
    checked["fields"] += 1
    if mapping is None:
        problem(where, f"no template behind the data source to check field {field!r}")
        return None
    fld = mapping.field(field, "double") or mapping.field(field)
    if fld is None or fld.via.startswith("unknown_"):
        how = f" (the catch-all {fld.via} would keep it in _source only)" if fld else ""
        problem(where, f"{what}: field {field!r} is not in the index template{how}")
        return None
    if accepted is not None and fld.type not in accepted:
        problem(where, f"{what}: field {field!r} is {fld.type}, needs one of {sorted(accepted)}")
    if want_search and not fld.searchable and fld.type != "histogram":
        problem(where, f"{what}: field {field!r} is not indexed (cannot be queried)")
    if accepted is not None and not want_search and not fld.aggregatable:
        problem(where, f"{what}: field {field!r} has no doc values (cannot be aggregated)")
    return fld


def expand_variables(text, variables):
    """`text` with each custom variable it names replaced by each of its options' values
    (a metric field such as ${band}_low stands for p50_low, p90_low, ...)."""
    texts = [text]
    for name in set(dl.variable_refs(text)):
        v = variables.get(name)
        if name == "direction" and v:
            # A query variable over the documents' `directions`: fio's, each an object.
            values = ["read", "write", "trim", "all"]
        elif not v or v.get("type") != "custom":
            continue
        else:
            values = [o["value"] for o in v.get("options", [])]
        texts = [t.replace("${" + name + "}", x).replace("$" + name, x)
                 for t in texts for x in values]
    return texts


def check_query(where, mapping, query, variables):
    for f in dl.lucene_fields(query):
        check_field(where, mapping, f, None, f"query {query!r}", want_search=True)
    for v in dl.variable_refs(query):
        if v not in variables and not v.startswith("__"):
            problem(where, f"query uses undefined variable ${v}")


def check_target(where, t, ds_map, tmpl, variables):
    checked["targets"] += 1
    uid = dl.ds_uid(t.get("datasource"))
    ds = ds_map.get(uid)
    if ds is None:
        problem(where, f"target datasource uid {uid!r} is not provisioned")
        return None
    _, template = template_for_index(tmpl, ds["index"] or "")
    mapping = dl.Mapping(template) if template else None
    if t.get("timeField") and t["timeField"] != ds["timeField"]:
        problem(where, f"timeField {t['timeField']} differs from the data source's")
    check_field(where, mapping, ds["timeField"], {"date"}, "time field")
    check_query(where, mapping, t.get("query", ""), variables)
    metrics = t.get("metrics", [])
    if not metrics:
        problem(where, "target has no metrics")
    ids = [m.get("id") for m in metrics] + [b.get("id") for b in t.get("bucketAggs", [])]
    if len(ids) != len(set(ids)):
        problem(where, f"metric/bucket ids repeat: {ids}")
    for m in metrics:
        typ = m.get("type")
        if typ in NO_FIELD_METRICS:
            continue
        if typ not in METRIC_TYPES:
            problem(where, f"metric type {typ!r} is not checked by this script")
            continue
        for field in expand_variables(m.get("field", ""), variables):
            check_field(where, mapping, field, METRIC_TYPES[typ], f"metric {typ}")
    aggs = t.get("bucketAggs", [])
    for i, b in enumerate(aggs):
        typ = b.get("type")
        if typ not in BUCKET_TYPES:
            problem(where, f"bucket aggregation {typ!r} is not checked by this script")
            continue
        iv = b.get("settings", {}).get("interval")
        if typ in ("histogram", "date_histogram") and iv is not None and not isinstance(iv, str):
            problem(where, f"{typ} interval must be a JSON string (Grafana reads it with "
                           f"MustString; a number becomes the default 1000): {iv!r}")
        field = b.get("field") or ds["timeField"]
        fld = check_field(where, mapping, field, BUCKET_TYPES[typ], f"bucket {typ}")
        if fld is not None and fld.type == "histogram" and i != len(aggs) - 1:
            problem(where, "a histogram aggregation on a histogram field cannot have "
                           "sub-aggregations: it must be the last bucket aggregation")
    if any(m.get("type") == "raw_data" for m in metrics) and aggs:
        problem(where, "raw_data targets take no bucket aggregations")
    if aggs and aggs[-1].get("type") != "date_histogram" and any(
            m.get("field") and mapping and (mapping.field(m["field"], "double") or
                                            mapping.field(m["field"])).type == "histogram"
            for m in metrics if m.get("type") not in NO_FIELD_METRICS):
        problem(where, "metrics on a histogram field need a date_histogram last")
    return mapping


def output_fields(t, mapping):
    """Names a target's frames carry (for transformations)."""
    names = set()
    if any(m.get("type") == "raw_data" for m in t.get("metrics", [])):
        names.update(mapping.fields() if mapping else {})
    for b in t.get("bucketAggs", []):
        if b.get("field"):
            names.add(b["field"])
    return names


def check_transformations(where, panel, outputs, mapping):
    for tr in panel.get("transformations", []):
        opts = tr.get("options", {})
        names = []
        if tr["id"] == "filterFieldsByName":
            names = opts.get("include", {}).get("names", [])
        elif tr["id"] == "organize":
            names = list(opts.get("indexByName", {})) + list(opts.get("renameByName", {})) + \
                list(opts.get("excludeByName", {}))
        elif tr["id"] == "partitionByValues":
            names = opts.get("fields", [])
        for n in names:
            checked["fields"] += 1
            if n in outputs:
                continue
            fld = mapping.field(n, "double") if mapping else None
            if fld is None or fld.via != "properties" and not fld.aggregatable:
                problem(where, f"transformation {tr['id']} uses {n!r}, which no query returns")


def check_grafana(tmpl):
    try:
        dss = dl.parse_datasources_yaml()
    except OSError as e:
        problem("datasources", str(e))
        return
    ds_map = {}
    for ds in dss:
        if not ds.get("uid"):
            problem("datasources", f"{ds.get('name')} has no fixed uid")
            continue
        if ds["uid"] in ds_map:
            problem("datasources", f"uid {ds['uid']} repeats")
        ds_map[ds["uid"]] = ds
        if ds.get("type") != dl.VARIANT["type"]:
            problem("datasources", f"{ds['uid']} is not a {dl.VARIANT['type']} data source")
        kind, t = template_for_index(tmpl, ds.get("index") or "")
        if t is None:
            problem("datasources", f"{ds['uid']}: index {ds.get('index')!r} matches no template")
        if ds.get("timeField") != "@timestamp":
            problem("datasources", f"{ds['uid']}: timeField should be @timestamp")
    for kind in ("pctiles", "buckets", "runs", "stalls"):
        need = dl.VARIANT["uid_prefix"] + kind
        if need not in ds_map:
            problem("datasources", f"no data source with uid {need}")

    prov = os.path.join(dl.GRAFANA, dl.VARIANT["provisioning"], "dashboards", "fiohist.yaml")
    if not os.path.exists(prov):
        problem("provisioning", f"missing {prov}")

    try:
        dashboards = dl.load_dashboards()
    except (OSError, json.JSONDecodeError) as e:
        problem("dashboards", f"cannot parse: {e}")
        return
    if not dashboards:
        problem("dashboards", "no dashboard JSON found")
    uids = {}
    for fname, d in dashboards.items():
        checked["dashboards"] += 1
        uid = d.get("uid")
        if not uid:
            problem(fname, "dashboard has no fixed uid")
        elif uid in uids:
            problem(fname, f"dashboard uid {uid} also used by {uids[uid]}")
        uids[uid] = fname
        if d.get("id") not in (None,):
            problem(fname, "dashboard JSON must not carry a database id")
        variables = {}
        for v in d.get("templating", {}).get("list", []):
            checked["variables"] += 1
            variables[v["name"]] = v
        for v in variables.values():
            where = f"{fname} variable {v['name']}"
            if v.get("type") != "query":
                continue
            uid_ = dl.ds_uid(v.get("datasource"))
            ds = ds_map.get(uid_)
            if ds is None:
                problem(where, f"datasource uid {uid_!r} is not provisioned")
                continue
            _, t = template_for_index(tmpl, ds["index"])
            mapping = dl.Mapping(t) if t else None
            q = json.loads(v["query"]) if isinstance(v["query"], str) else v["query"]
            if q.get("find") == "terms":
                # Numbers too: grid_origin_ms (a run's grid) feeds the date histograms' offset.
                check_field(where, mapping, q.get("field", ""), {"keyword", "long"},
                            "terms variable")
            else:
                problem(where, f"variable query kind {q.get('find')!r} is not checked")
            check_query(where, mapping, q.get("query", ""), variables)
            if v.get("multi") and v.get("includeAll") and v.get("allValue") != "*":
                problem(where, "multi-value variables with All need allValue '*' for Lucene")
        for a in d.get("annotations", {}).get("list", []):
            if a.get("builtIn"):
                continue
            where = f"{fname} annotation {a.get('name')}"
            ds = ds_map.get(dl.ds_uid(a.get("datasource")))
            if ds is None:
                problem(where, "datasource is not provisioned")
                continue
            _, t = template_for_index(tmpl, ds["index"])
            mapping = dl.Mapping(t) if t else None
            check_query(where, mapping, dl.annotation_query(a), variables)
            for key, types in (("timeField", {"date"}), ("timeEndField", {"date"}),
                               ("textField", None), ("tagsField", None)):
                if a.get(key):
                    check_field(where, mapping, a[key], types, key, want_search=types is None)
        ids = set()
        for p in dl.iter_panels(d):
            checked["panels"] += 1
            where = f"{fname} panel {p.get('id')} {p.get('title')!r}"
            if p.get("id") in ids or not isinstance(p.get("id"), int):
                problem(where, "panel id missing or not unique")
            ids.add(p.get("id"))
            if p.get("type") == "row":
                continue
            puid = dl.ds_uid(p.get("datasource"))
            # Grafana's built-in "Mixed" data source: each target names its own (checked below).
            if puid == "-- Mixed --":
                if any(not t.get("datasource") for t in p.get("targets", [])):
                    problem(where, "a target of a panel on the Mixed data source names none")
            elif puid not in ds_map:
                problem(where, f"panel datasource uid {puid!r} is not provisioned")
            outputs, mapping = set(), None
            for t in p.get("targets", []):
                mapping = check_target(f"{where} target {t.get('refId')}", t, ds_map, tmpl,
                                       variables)
                outputs |= output_fields(t, mapping)
            if not p.get("targets"):
                problem(where, "panel has no targets")
            check_transformations(where, p, outputs, mapping)
            for v in dl.variable_refs(json.dumps(p)):
                if v not in variables and not v.startswith("__"):
                    problem(where, f"uses undefined variable ${v}")
            if not p.get("pluginVersion"):
                problem(where, "no pluginVersion: Grafana would run its option migrations (the "
                               "XY chart's keeps only the first frame, i.e. one run)")
            if p.get("type") == "xychart":
                if p.get("options", {}).get("mapping") != "auto" or "dims" in p.get("options", {}):
                    problem(where, "xychart needs v2 options: mapping auto, no dims")
                parts = [tr["id"] for tr in p.get("transformations", [])]
                aggs = [b["type"] for t in p["targets"] for b in t.get("bucketAggs", [])]
                if "histogram" not in aggs or "partitionByValues" not in parts:
                    problem(where, "xychart must get a histogram on elapsed_s split per run")
    suffix = "" if dl.VARIANT["type"] == "elasticsearch" else "-os"
    for need in ("fiohist-overview" + suffix, "fiohist-compare" + suffix,
                 "fiohist-runs" + suffix):
        if need not in uids:
            problem("dashboards", f"no dashboard with uid {need}")
    check_required_panels(dashboards)
    by_uid = {d.get("uid"): (f, d) for f, d in dashboards.items()}
    for uid in ("fiohist-overview", "fiohist-compare"):
        if uid in by_uid:
            check_partial_filter(*by_uid[uid])
    for fname, d in dashboards.items():
        check_grid_offset(fname, d)
        check_few_ios(fname, d)
    if "fiohist-runs" in by_uid:
        check_runs_dashboard(*by_uid["fiohist-runs"])
    if "fiohist-overview" in by_uid:
        ov = by_uid["fiohist-overview"][1]
        if "5s" not in ov.get("timepicker", {}).get("refresh_intervals", []):
            problem(by_uid["fiohist-overview"][0], "refresh interval 5s not offered: the live "
                                                   "link's refresh=5s would not be taken")
    check_alerting(tmpl, ds_map, uids)


# ------------------------------------------------------------------------------ alerting
EXPRESSION_TYPES = {"reduce", "threshold", "math"}
REDUCERS = {"last", "mean", "min", "max", "sum", "count"}
EVALUATORS = {"gt", "lt", "within_range", "outside_range"}
NO_DATA_STATES = {"OK", "NoData", "Alerting", "KeepLast"}
EXEC_ERR_STATES = {"OK", "Error", "Alerting", "KeepLast"}
# What the SLA rules must filter on: the cluster quanta fiohist marked, at resolution 1, and
# the run documents of running runs with breaches.
ALERT_QUERY_PARTS = {
    # The rules fire on breaches beyond sampling noise (the percentile's confidence interval
    # above the limit), not on every breach.
    "fiohist-sla-breach": ("scope:cluster", "resolution:1", "sla_breach_beyond_noise:true"),
    "fiohist-sla-breached-running": ("state:running", "sla_breaches_beyond_noise:>0"),
}


def check_alerting(tmpl, ds_map, dash_uids):
    """The alert rules (provisioning/alerting/*.yaml, Grafana's file provisioning format):
    groups and rules complete, uids unique, every data query on a provisioned data source
    with its fields in the template (checked like a panel target), expressions referring to
    earlier refIds, the condition existing, the dashboards they link to existing."""
    folder = os.path.join(dl.GRAFANA, dl.VARIANT["provisioning"], "alerting")
    files = sorted(f for f in os.listdir(folder) if f.endswith((".yaml", ".yml"))) \
        if os.path.isdir(folder) else []
    if not files:
        problem("alerting", f"no alert rule file in {folder}")
        return
    yaml = dl.import_yaml()
    if yaml is None:
        print(f"SKIP alert rules in {folder}: PyYAML absent (python3-yaml), not checked")
        return
    suffix = "" if dl.VARIANT["type"] == "elasticsearch" else "-os"
    seen = {}
    for f in files:
        where_f = f"{dl.VARIANT['provisioning']}/alerting/{f}"
        try:
            doc = yaml.safe_load(open(os.path.join(folder, f), encoding="utf-8"))
        except yaml.YAMLError as e:
            problem(where_f, f"cannot parse: {e}")
            continue
        if doc.get("apiVersion") != 1:
            problem(where_f, "apiVersion must be 1")
        for g in doc.get("groups") or []:
            for key in ("orgId", "name", "folder", "interval"):
                if not g.get(key):
                    problem(where_f, f"group {g.get('name')} has no {key}")
            try:
                interval_s = dl.duration_s(g.get("interval", ""))
            except ValueError as e:
                problem(where_f, f"group {g.get('name')}: {e}")
                interval_s = 60
            for r in g.get("rules") or []:
                checked["alert rules"] += 1
                check_rule(f"{where_f} rule {r.get('uid')}", r, tmpl, ds_map, dash_uids,
                           interval_s, seen)
    for uid in ALERT_QUERY_PARTS:
        if uid + suffix not in seen:
            problem("alerting", f"no alert rule {uid + suffix}")


def check_rule(where, r, tmpl, ds_map, dash_uids, interval_s, seen):
    for key in ("uid", "title", "condition", "data", "noDataState", "execErrState", "for"):
        if key not in r:
            problem(where, f"rule has no {key}")
    uid = r.get("uid", "")
    if uid in seen:
        problem(where, f"rule uid {uid} repeats")
    seen[uid] = r
    if r.get("noDataState") not in NO_DATA_STATES:
        problem(where, f"noDataState {r.get('noDataState')!r} is none of {sorted(NO_DATA_STATES)}")
    if r.get("execErrState") not in EXEC_ERR_STATES:
        problem(where, f"execErrState {r.get('execErrState')!r} is none of "
                       f"{sorted(EXEC_ERR_STATES)}")
    try:
        dl.duration_s(str(r.get("for", "")))
    except ValueError as e:
        problem(where, f"for: {e}")
    refs = []
    for q in r.get("data") or []:
        ref = q.get("refId")
        wq = f"{where} {ref}"
        model = q.get("model") or {}
        if not ref or ref in refs:
            problem(wq, "refId missing or repeated")
        if model.get("refId") != ref:
            problem(wq, f"model.refId {model.get('refId')!r} differs from refId")
        if q.get("datasourceUid") == "__expr__":
            if model.get("type") not in EXPRESSION_TYPES:
                problem(wq, f"expression type {model.get('type')!r} is not checked")
            elif model["type"] in ("reduce", "threshold") and model.get("expression") not in refs:
                problem(wq, f"expression {model.get('expression')!r} names no earlier refId")
            if model.get("type") == "reduce" and model.get("reducer") not in REDUCERS:
                problem(wq, f"reducer {model.get('reducer')!r} is none of {sorted(REDUCERS)}")
            if model.get("type") == "threshold":
                for c in model.get("conditions") or [{}]:
                    ev = c.get("evaluator", {})
                    if ev.get("type") not in EVALUATORS or not ev.get("params"):
                        problem(wq, f"threshold evaluator {ev} is incomplete")
        else:
            if dl.ds_uid(model.get("datasource")) != q.get("datasourceUid"):
                problem(wq, "model.datasource differs from datasourceUid")
            if q.get("datasourceUid") not in ds_map:
                problem(wq, f"datasourceUid {q.get('datasourceUid')!r} is not provisioned")
                continue
            rtr = q.get("relativeTimeRange") or {}
            if not (isinstance(rtr.get("from"), int) and isinstance(rtr.get("to"), int)
                    and rtr["from"] > rtr["to"] >= 0):
                problem(wq, f"relativeTimeRange {rtr} must be seconds back, from > to >= 0")
            elif rtr["from"] < interval_s:
                problem(wq, f"relativeTimeRange from {rtr['from']} s is shorter than the "
                            f"group's interval {interval_s} s: documents between two "
                            "evaluations would never be seen")
            mapping = check_target(wq, dict(model, datasource={"uid": q["datasourceUid"]}),
                                   ds_map, tmpl, {})
            aggs = model.get("bucketAggs") or []
            if not aggs or aggs[-1].get("type") != "date_histogram":
                problem(wq, "an alert query needs a date_histogram last (time series per "
                            "label set for the reduce expression)")
            if mapping is not None and not any(b.get("type") == "terms" and b.get("field") ==
                                               "run" for b in aggs):
                problem(wq, "an SLA alert must be per run: terms on run")
            base = uid[:-3] if uid.endswith("-os") else uid
            for part in ALERT_QUERY_PARTS.get(base, ()):
                if part not in model.get("query", ""):
                    problem(wq, f"query {model.get('query')!r} lacks {part!r}")
        refs.append(ref)
    if r.get("condition") not in refs:
        problem(where, f"condition {r.get('condition')!r} names no refId of data")
    ann = r.get("annotations") or {}
    if ann.get("__dashboardUid__") and ann["__dashboardUid__"] not in dash_uids:
        problem(where, f"__dashboardUid__ {ann['__dashboardUid__']} is no provisioned dashboard")
    for k, v in ann.items():
        for m in re.finditer(r"/d/([A-Za-z0-9_-]+)", str(v)):
            if m.group(1) not in dash_uids:
                problem(where, f"annotation {k} links dashboard {m.group(1)}, which does not exist")
        for m in re.finditer(r"\$values\.([A-Za-z0-9_]+)", str(v)):
            if m.group(1) not in refs:
                problem(where, f"annotation {k} uses $values.{m.group(1)}, no such refId")
    if not r.get("labels"):
        problem(where, "rule has no labels")


# Lets partial quanta through only when the `partial` variable says "show" (true). Coarser
# resolutions always pass: a window holding a run's first or last quantum is partial, and a run
# shorter than the window would vanish when zoomed out. Documents from before the field
# existed have no `partial` and always pass.
PARTIAL_FILTER = "(partial:false OR partial:$partial OR resolution:>1 OR (*:* AND NOT _exists_:partial))"


def check_partial_filter(fname, d):
    """Every percentile query of the overview and comparison leaves out partial quanta
    unless the `partial` variable (default hide = false) says otherwise."""
    var = next((v for v in d.get("templating", {}).get("list", []) if v["name"] == "partial"),
               None)
    if var is None:
        problem(fname, "no `partial` variable (hide/show partial quanta)")
    else:
        values = {o.get("text"): o.get("value") for o in var.get("options", [])}
        if values != {"hide": "false", "show": "true"} or \
                var.get("current", {}).get("value") != "false":
            problem(fname, "variable partial must offer hide=false (the default) and show=true, "
                           f"has {values} (current {var.get('current')})")
    for p in dl.iter_panels(d):
        for t in p.get("targets", []):
            uid = dl.ds_uid(t.get("datasource") or p.get("datasource"))
            if uid == "fiohist-pctiles" and PARTIAL_FILTER not in t.get("query", ""):
                problem(f"{fname} panel {p.get('id')}",
                        f"percentile query does not leave out partial quanta: add "
                        f"{PARTIAL_FILTER!r}")


# Every date histogram starts its buckets on the selected run's grid (docs/documents.md:
# quanta and coarser windows start at grid_origin_ms + k x their length), not at whole
# multiples of the interval: the offset comes from the run document.
GRID_VARIABLE = "grid_origin_ms"
GRID_OFFSET = "${grid_origin_ms}ms"


def check_grid_offset(fname, d):
    """Date histograms bucket on the run's grid: offset ${grid_origin_ms}ms, that variable a
    hidden terms query on the selected runs' grid_origin_ms that falls back to 0 (its All
    value) where the run documents have none, and never taken from a URL."""
    hists = [(p, t, b) for p in dl.iter_panels(d) for t in p.get("targets", [])
             for b in t.get("bucketAggs", []) if b.get("type") == "date_histogram"]
    if not hists:
        return
    var = next((v for v in d.get("templating", {}).get("list", [])
                if v["name"] == GRID_VARIABLE), None)
    if var is None:
        problem(fname, f"date histograms but no variable {GRID_VARIABLE} (the run's grid)")
    else:
        q = json.loads(var["query"]) if isinstance(var.get("query"), str) else var.get("query")
        want = {"type": "query", "includeAll": True, "allValue": "0", "multi": False,
                "hide": 2, "skipUrlSync": True, "refresh": 1}
        bad = {k: var.get(k) for k, v in want.items() if var.get(k) != v}
        if dl.ds_uid(var.get("datasource")) != dl.VARIANT["uid_prefix"] + "runs" or \
                (q or {}).get("field") != "grid_origin_ms" or "run:$run" not in \
                (q or {}).get("query", "") or bad:
            problem(f"{fname} variable {GRID_VARIABLE}", "must be a hidden terms query on "
                    f"grid_origin_ms of the runs of $run, {want} (differs: {bad})")
    for p, t, b in hists:
        if b.get("settings", {}).get("offset") != GRID_OFFSET:
            problem(f"{fname} panel {p.get('id')} {t.get('refId')}",
                    f"date_histogram without offset {GRID_OFFSET}: its buckets would start "
                    "at whole multiples of the interval, not on the run's quanta")


PERCENTILE_FIELD = re.compile(r"p\d+(?:_\d+)?")
FEW_IOS_ALIAS = ": too few I/Os"


# pctiles_version 2: a direction's statistics are under its object (`${direction}.p99`,
# `all.iops`; queries `${direction:raw}.few_ios:p99`). The checks of what a panel draws read
# them without it.
DIRECTION_PREFIX = re.compile(r"(?:\$\{direction(?::raw)?\}|\b(?:read|write|trim|all))\.")


def bare(text):
    return DIRECTION_PREFIX.sub("", text or "")


def check_few_ios(fname, d):
    """A percentile resting on too few I/Os for an upper bound (few_ios) is hidden from its
    line; shown (variable few_ios) only as grey points; the band of the chosen percentile
    leaves those out too. One percentile per target, since the filter is per percentile."""
    for p in dl.iter_panels(d):
        if p.get("type") not in ("timeseries", "xychart"):
            continue
        grey = [o for o in p.get("fieldConfig", {}).get("overrides", [])
                if o["matcher"].get("id") == "byRegexp" and
                FEW_IOS_ALIAS in o["matcher"].get("options", "") and
                any(x["id"] == "color" and x["value"].get("fixedColor") for x in o["properties"])]
        band = False
        for t in p.get("targets", []):
            where = f"{fname} panel {p.get('id')} {t.get('refId')}"
            q = bare(t.get("query", ""))
            for m in t.get("metrics", []):
                f = bare(m.get("field"))
                if "$band" in f or "${band}" in f:
                    band = True
                    if "NOT few_ios:$band" not in q:
                        problem(where, "the band must leave out few_ios (NOT few_ios:$band)")
                    continue
                if not PERCENTILE_FIELD.fullmatch(f):
                    continue
                if len(t["metrics"]) != 1:
                    problem(where, f"{f} shares its target with other metrics: few_ios "
                                   "filters documents, so each percentile needs its own")
                elif f"NOT few_ios:{f}" in q:
                    pass
                # :raw, since Grafana's Lucene format escapes the show value `*` (a literal
                # star would match nothing).
                elif f"few_ios:{f} AND few_ios:${{few_ios:raw}}" in q and \
                        t.get("alias", "").endswith(FEW_IOS_ALIAS) and grey:
                    pass
                else:
                    problem(where, f"{f} drawn where it rests on too few I/Os: add NOT "
                                   f"few_ios:{f} (or grey points: few_ios:{f} AND "
                                   f"few_ios:${{few_ios:raw}}, alias ...{FEW_IOS_ALIAS}, "
                                   "grey override)")
        if band and not any(x["id"] == "custom.fillBelowTo" for o in
                            p.get("fieldConfig", {}).get("overrides", [])
                            for x in o["properties"]):
            problem(f"{fname} panel {p.get('id')}", "band targets but no fillBelowTo override")
    var = next((v for v in d.get("templating", {}).get("list", []) if v["name"] == "few_ios"),
               None)
    if var is not None and var.get("current", {}).get("text") != "hide":
        problem(f"{fname} variable few_ios", "flagged percentiles must be hidden by default")


RUNS_COLUMNS = ("run", "start", "end", "duration_s", "hosts", "tags", "labels", "p50", "p99",
                "logged_io_share", "state", "sla", "sla_breaches",
                "start_ms", "end_ms")
LIVE_RUNS_COLUMNS = ("run", "start", "state", "sla", "sla_breaches", "start_ms")
LIVE_LINK = ("/d/fiohist-overview?var-run=${__data.fields.run",
             "&from=${__data.fields.start_ms.numeric}", "&to=now", "&refresh=5s")


def check_runs_dashboard(fname, d):
    """A table of the run documents whose run names link to the overview at the run's time
    range and to the comparison."""
    tables = [p for p in dl.iter_panels(d) if p.get("type") == "table" and
              dl.ds_uid(p.get("datasource")) == "fiohist-runs"]
    if not tables:
        problem(fname, "no table on fiohist-runs")
        return
    p = tables[0]
    where = f"{fname} panel {p.get('id')}"
    if not any(m.get("type") == "raw_data" for t in p["targets"] for m in t["metrics"]):
        problem(where, "the runs table needs raw documents (raw_data)")
    names = next((tr["options"]["include"]["names"] for tr in p.get("transformations", [])
                  if tr["id"] == "filterFieldsByName"), [])
    missing = [c for c in RUNS_COLUMNS if c not in names]
    if missing:
        problem(where, f"runs table lacks columns {missing}")
    urls = [link.get("url", "") for o in p["fieldConfig"].get("overrides", [])
            if o["matcher"].get("options") == "run"
            for prop in o["properties"] if prop["id"] == "links" for link in prop["value"]]
    # Epoch ms as numbers: a date field or a formatted number would reach the URL as text.
    want = [("/d/fiohist-overview?var-run=${__data.fields.run",
             "&from=${__data.fields.start_ms.numeric}", "&to=${__data.fields.end_ms.numeric}"),
            ("/d/fiohist-compare?var-run=${__data.fields.run",)]
    for parts in want:
        if not any(u.startswith(parts[0]) and all(x in u for x in parts[1:]) for u in urls):
            problem(where, f"the run column has no data link {''.join(parts)}...: {urls}")
    # Running runs: their own table, linked live (from the start to now, refreshing); the
    # table above holds the others (fixed spans).
    if "NOT state:running" not in p["targets"][0].get("query", ""):
        problem(where, "the runs table must leave out running runs (NOT state:running): "
                       "their fixed-span link would freeze a live run")
    live = [t for t in tables if any("state:running" in x.get("query", "") and
                                     "NOT state:running" not in x.get("query", "")
                                     for x in t["targets"])]
    if not live:
        problem(fname, "no table of live runs (state:running)")
        return
    p = live[0]
    where = f"{fname} panel {p.get('id')}"
    names = next((tr["options"]["include"]["names"] for tr in p.get("transformations", [])
                  if tr["id"] == "filterFieldsByName"), [])
    missing = [c for c in LIVE_RUNS_COLUMNS if c not in names]
    if missing:
        problem(where, f"live runs table lacks columns {missing}")
    urls = [link.get("url", "") for o in p["fieldConfig"].get("overrides", [])
            if o["matcher"].get("options") == "run"
            for prop in o["properties"] if prop["id"] == "links" for link in prop["value"]]
    if not any(u.startswith(LIVE_LINK[0]) and all(x in u for x in LIVE_LINK[1:]) for u in urls):
        problem(where, f"the live runs' run column has no data link {''.join(LIVE_LINK)}: {urls}")


def check_required_panels(dashboards):
    """The panels a storage engineer needs after a fio test are all there."""
    panels = [(f, p) for f, d in dashboards.items() for p in dl.iter_panels(d)]

    def fields(p):
        return {(m["type"], bare(m.get("field")) if m.get("field") else None)
                for t in p.get("targets", []) for m in t["metrics"]}

    want_pct = {("max", f) for f in ("p50", "p90", "p95", "p99", "p99_9", "p99_99", "max")}
    pct = [p for _, p in panels if p["type"] == "timeseries" and want_pct <= fields(p)]
    if not pct:
        problem("dashboards", "no time series of p50 p90 p95 p99 p99.9 p99.99 max")
    for p in pct:
        d = p["fieldConfig"]["defaults"]
        if d.get("unit") != "µs" or d["custom"].get("scaleDistribution", {}).get("type") != "log":
            problem("dashboards", f"panel {p['id']}: percentiles need unit µs and a log y axis")
        if not any("clamped:true" in bare(t["query"]) for t in p["targets"]):
            problem("dashboards", f"panel {p['id']}: no mark for clamped (top bucket) quanta")
    checks = [
        ("IOPS over time", lambda p: ("avg", "iops") in fields(p) and p["type"] == "timeseries"),
        ("per-host p99", lambda p: p["type"] == "timeseries" and ("max", "p99") in fields(p) and
         any(b.get("field") == "host" for t in p["targets"] for b in t["bucketAggs"])),
        ("latency heatmap", lambda p: p["type"] == "heatmap" and any(
            f == "latency" for _, f in fields(p))),
        ("run summary table", lambda p: p["type"] == "table" and
         dl.ds_uid(p["datasource"]) == dl.VARIANT["uid_prefix"] + "runs"),
        ("runs overlaid on elapsed_s", lambda p: p["type"] == "xychart" and any(
            b.get("field") == "elapsed_s" for t in p["targets"] for b in t["bucketAggs"])),
    ]
    for name, pred in checks:
        if not any(pred(p) for _, p in panels):
            problem("dashboards", f"no {name} panel")
    ann = [a for d in dashboards.values() for a in d.get("annotations", {}).get("list", [])
           if "clamped:true" in bare(dl.annotation_query(a))]
    if not ann:
        problem("dashboards", "no annotation of clamped quanta")


# ------------------------------------------------------------------------------ kibana
def check_kibana(tmpl, path=None):
    """Kibana's saved objects, or (path = dl.OSD_NDJSON) OpenSearch Dashboards'."""
    path = path or dl.KIBANA_NDJSON
    try:
        lines = [ln for ln in open(path, encoding="utf-8").read().splitlines() if ln]
        objs = [json.loads(ln) for ln in lines]
    except (OSError, json.JSONDecodeError) as e:
        problem("kibana", f"cannot parse {path}: {e}")
        return
    if path == dl.OSD_NDJSON:
        # OpenSearch Dashboards 2.x refuses migration versions newer than its own (Kibana 8's).
        for o in objs:
            for k in ("coreMigrationVersion", "typeMigrationVersion"):
                if k in o:
                    problem("opensearch-dashboards", f"{o.get('id')} carries Kibana's {k}")
    ids = {}
    for o in objs:
        checked["kibana objects"] += 1
        key = (o.get("type"), o.get("id"))
        if key in ids:
            problem("kibana", f"object {key} repeats")
        ids[key] = o
    views = {o["id"]: o for o in objs if o.get("type") == "index-pattern"}
    for kind in ("pctiles", "buckets", "runs", "stalls"):
        title = f"fiohist-{kind}*"
        found = [v for v in views.values() if v["attributes"].get("title") == title]
        if not found:
            problem("kibana", f"no data view titled {title}")
    for vid, v in views.items():
        a = v["attributes"]
        _, t = template_for_index(tmpl, a.get("title", ""))
        if t is None:
            problem("kibana", f"data view {vid}: title {a.get('title')} matches no template")
            continue
        check_field(f"kibana data view {vid}", dl.Mapping(t), a.get("timeFieldName", ""),
                    {"date"}, "timeFieldName")
        for f in json.loads(a.get("fieldFormatMap", "{}")):
            check_field(f"kibana data view {vid}", dl.Mapping(t), f, None, "field format")
    for o in objs:
        for r in o.get("references", []):
            if (r["type"], r["id"]) not in ids:
                problem("kibana", f"{o['id']} references missing {r['type']} {r['id']}")
        if o.get("type") == "search":
            ref = o["references"][0]["id"]
            t = template_for_index(tmpl, views[ref]["attributes"]["title"])[1] \
                if ref in views else None
            for c in o["attributes"].get("columns", []):
                check_field(f"kibana search {o['id']}", dl.Mapping(t) if t else None, c, None,
                            "column")
            json.loads(o["attributes"]["kibanaSavedObjectMeta"]["searchSourceJSON"])


# ------------------------------------------------------------------------------ compose
def mini_compose(text):
    """A minimal reader of docker-compose.yml when PyYAML is absent: services, their
    healthcheck presence, images, ports and volume strings (block style only)."""
    services, cur, section = {}, None, None
    top = None
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        ind = len(raw) - len(raw.lstrip())
        s = raw.strip().split(" #", 1)[0].rstrip()
        if ind == 0:
            top = s.rstrip(":")
            continue
        if top != "services":
            continue
        if ind == 2 and s.endswith(":"):
            cur = services.setdefault(s[:-1], {"volumes": [], "ports": [], "environment": []})
            section = None
        elif ind == 4 and cur is not None:
            key = s.split(":", 1)[0]
            section = key
            val = s.split(":", 1)[1].strip() if ":" in s else ""
            if val:
                cur[key] = dl._yval(val)
            else:
                cur.setdefault(key, {} if key in ("healthcheck", "depends_on") else [])
        elif ind >= 6 and cur is not None and s.startswith("- ") and section in (
                "volumes", "ports", "environment"):
            cur[section].append(dl._yval(s[2:]))
        elif ind >= 6 and cur is not None and section == "healthcheck" and s.startswith("test:"):
            cur["healthcheck"] = {"test": s[5:].strip()}
    return {"services": services}


def check_compose():
    try:
        text = open(dl.COMPOSE, encoding="utf-8").read()
    except OSError as e:
        problem("compose", str(e))
        return
    yaml = dl.import_yaml()
    if yaml is not None:
        doc = yaml.safe_load(text)
        how = "PyYAML"
    else:
        doc = mini_compose(text)
        how = "minimal reader (PyYAML absent)"
    print(f"docker-compose.yml read with {how}")
    services = doc.get("services", {})
    for name in ("elasticsearch", "kibana", "grafana", "setup"):
        checked["compose services"] += 1
        if name not in services:
            problem("compose", f"no service {name}")
        elif not services[name].get("healthcheck", {}).get("test"):
            problem("compose", f"service {name} has no healthcheck test")
    check_compose_opensearch(services)
    for name, svc in services.items():
        for vol in svc.get("volumes", []):
            src = vol.split(":", 1)[0] if isinstance(vol, str) else vol.get("source", "")
            if src.startswith("./") or src.startswith("../"):
                path = os.path.normpath(os.path.join(dl.REPO, src))
                if not os.path.exists(path):
                    problem("compose", f"{name} mounts {src}, which does not exist")
        for port in svc.get("ports", []):
            if not str(port).startswith("127.0.0.1:"):
                problem("compose", f"{name} publishes {port} beyond 127.0.0.1")
    img = {n: str(s.get("image", "")) for n, s in services.items()}
    es_v = re.fullmatch(r"docker\.elastic\.co/elasticsearch/elasticsearch:(8\.19\.\d+)",
                        img.get("elasticsearch", ""))
    kb_v = re.fullmatch(r"docker\.elastic\.co/kibana/kibana:(8\.19\.\d+)", img.get("kibana", ""))
    gf_v = re.fullmatch(r"grafana/grafana(?:-oss)?:(1[12]\.\d+\.\d+)", img.get("grafana", ""))
    if not es_v:
        problem("compose", f"elasticsearch image must be a pinned 8.19.x: {img.get('elasticsearch')}")
    if not kb_v or (es_v and kb_v.group(1) != es_v.group(1)):
        problem("compose", f"kibana image must match the Elasticsearch version: {img.get('kibana')}")
    if not gf_v:
        problem("compose", f"grafana image must be a pinned 11.x/12.x: {img.get('grafana')}")
    # The Grafana provisioning path must be the folder the dashboards are mounted at.
    prov = open(os.path.join(dl.GRAFANA, "provisioning", "dashboards", "fiohist.yaml")).read()
    m = re.search(r"path:\s*(\S+)", prov)
    targets = [v.split(":")[1] for v in services.get("grafana", {}).get("volumes", [])
               if isinstance(v, str) and v.startswith("./dashboards/grafana/dashboards")]
    if not m or m.group(1) not in targets:
        problem("compose", "grafana dashboard provider path is not where the dashboards are "
                           f"mounted ({m.group(1) if m else None} vs {targets})")
    vols = [v for v in services.get("grafana", {}).get("volumes", []) if isinstance(v, str)]
    if "./dashboards/grafana/provisioning/alerting:/etc/grafana/provisioning/alerting:ro" \
            not in vols:
        problem("compose", "grafana does not mount ./dashboards/grafana/provisioning/alerting at "
                           "/etc/grafana/provisioning/alerting (the SLA alert rules)")
    setup = os.path.join(dl.REPO, "dashboards", "setup", "setup.sh")
    if not os.access(setup, os.X_OK):
        problem("compose", "dashboards/setup/setup.sh is missing or not executable")


def check_generated():
    """The OpenSearch variant is exactly what dashboards/generate.py makes from the Elasticsearch
    files now (edit those and regenerate; never the generated ones)."""
    r = subprocess.run([sys.executable, dl.GENERATOR, "--check"], capture_output=True, text=True)
    print((r.stdout + r.stderr).strip())
    if r.returncode != 0:
        problem("generated", (r.stdout + r.stderr).strip()[-600:])


def check_compose_opensearch(services):
    """Profile `opensearch`: OpenSearch, OpenSearch Dashboards, Grafana with the plugin and the
    generated dashboards, a setup; same OpenSearch version everywhere."""
    names = ("opensearch", "opensearch-dashboards", "grafana-opensearch", "opensearch-setup")
    for name in names:
        checked["compose services"] += 1
        svc = services.get(name)
        if svc is None:
            problem("compose", f"no service {name}")
            continue
        if "opensearch" not in (svc.get("profiles") or []):
            problem("compose", f"service {name} is not in the profile opensearch")
        if not svc.get("healthcheck", {}).get("test"):
            problem("compose", f"service {name} has no healthcheck test")
    for name, svc in services.items():
        if name not in names and "opensearch" in (svc.get("profiles") or []):
            problem("compose", f"unexpected service {name} in the profile opensearch")
    img = {n: str(s.get("image", "")) for n, s in services.items()}
    os_v = re.fullmatch(r"opensearchproject/opensearch:(\d+\.\d+\.\d+)", img.get("opensearch", ""))
    osd_v = re.fullmatch(r"opensearchproject/opensearch-dashboards:(\d+\.\d+\.\d+)",
                         img.get("opensearch-dashboards", ""))
    if not os_v:
        problem("compose", f"opensearch image must be pinned: {img.get('opensearch')}")
    elif not osd_v or osd_v.group(1) != os_v.group(1):
        problem("compose", "opensearch-dashboards image must match the OpenSearch version: "
                           f"{img.get('opensearch-dashboards')}")
    if os_v:
        gen = open(dl.GENERATOR, encoding="utf-8").read()
        m = re.search(r'OPENSEARCH_VERSION = "([^"]+)"', gen)
        if not m or m.group(1) != os_v.group(1):
            problem("compose", f"the Grafana data sources say OpenSearch "
                               f"{m.group(1) if m else None}, compose runs {os_v.group(1)}")
    env = services.get("grafana-opensearch", {}).get("environment", [])
    env = env if isinstance(env, list) else [f"{k}={v}" for k, v in env.items()]
    if not any(e.startswith("GF_INSTALL_PLUGINS=") and "grafana-opensearch-datasource" in e
               for e in env):
        problem("compose", "grafana-opensearch does not install grafana-opensearch-datasource")
    vols = [v for v in services.get("grafana-opensearch", {}).get("volumes", [])
            if isinstance(v, str)]
    for src in ("./dashboards/grafana/dashboards-opensearch",
                "./dashboards/grafana/provisioning-opensearch/datasources",
                "./dashboards/grafana/provisioning-opensearch/dashboards",
                "./dashboards/grafana/provisioning-opensearch/alerting"):
        if not any(v.split(":", 1)[0] == src for v in vols):
            problem("compose", f"grafana-opensearch does not mount {src}")
    setup_vols = services.get("opensearch-setup", {}).get("volumes", [])
    if not any(str(v).startswith("./dashboards/opensearch-dashboards:") for v in setup_vols):
        problem("compose", "opensearch-setup does not mount dashboards/opensearch-dashboards")


def main():
    tmpl = check_templates()
    if tmpl:
        for variant in ("elasticsearch", "opensearch"):
            dl.use_variant(variant)
            print(f"Grafana dashboards, {variant} variant")
            check_grafana(tmpl)
        dl.use_variant("elasticsearch")
        check_kibana(tmpl)
        check_kibana(tmpl, dl.OSD_NDJSON)
    check_generated()
    check_compose()
    print("checked: " + ", ".join(f"{v} {k}" for k, v in checked.items()))
    if problems:
        print(f"FAIL: {len(problems)} problem(s)")
        for p in problems:
            print("  " + p)
        return 1
    print("OK: dashboards, templates, Kibana objects and compose file are consistent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
