#!/usr/bin/env python3
"""Proves check_static.py catches mistakes: copies the checked files to a scratch tree, breaks
them one way at a time, and expects check_static.py to fail naming the problem."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
OV = "dashboards/grafana/dashboards/fiohist-overview.json"
CMP = "dashboards/grafana/dashboards/fiohist-compare.json"
RUNS = "dashboards/grafana/dashboards/fiohist-runs.json"
ALERTS = "dashboards/grafana/provisioning/alerting/fiohist.yaml"


def edit_json(rel, fn):
    def apply(root):
        path = os.path.join(root, rel)
        d = json.load(open(path))
        fn(d)
        json.dump(d, open(path, "w"), indent=1)
    return apply


def edit_text(rel, old, new):
    def apply(root):
        path = os.path.join(root, rel)
        s = open(path).read()
        assert old in s, f"selftest: {old!r} not in {rel}"
        open(path, "w").write(s.replace(old, new, 1))
    return apply


def panel(d, pid):
    return next(p for p in d["panels"] if p["id"] == pid)


MUTATIONS = [
    ("duplicate panel id", edit_json(OV, lambda d: panel(d, 2).update(id=1)), "not unique"),
    ("unknown data source uid",
     edit_json(OV, lambda d: panel(d, 1)["targets"][0].update(datasource={"uid": "nope"})),
     "not provisioned"),
    ("max on a keyword",
     edit_json(OV, lambda d: panel(d, 1)["targets"][0]["metrics"][0].update(field="run")),
     "needs one of"),
    ("date_histogram on a double",
     edit_json(OV, lambda d: panel(d, 2)["targets"][0]["bucketAggs"][-1].update(
         field="elapsed_s")), "needs one of"),
    ("terms on a field not in the template",
     edit_json(OV, lambda d: panel(d, 3)["targets"][0]["bucketAggs"][1].update(field="hostname")),
     "not in the index template"),
    ("query on a misspelt field",
     edit_json(OV, lambda d: panel(d, 3)["targets"][0].update(query="run:$run AND hots:$host")),
     "not in the index template"),
    ("undefined variable",
     edit_json(OV, lambda d: panel(d, 3)["targets"][0].update(query="run:$runs")),
     "undefined variable"),
    ("hand-edited generated OpenSearch dashboard",
     edit_json("dashboards/grafana/dashboards-opensearch/fiohist-overview.json",
               lambda d: d.update(title="edited")), "out of date"),
    ("compose opensearch published on all interfaces",
     edit_text("docker-compose.yml", '"127.0.0.1:9201:9200"', '"9201:9200"'),
     "beyond 127.0.0.1"),
    ("compose grafana-opensearch without the plugin",
     edit_text("docker-compose.yml", "GF_INSTALL_PLUGINS=grafana-opensearch-datasource",
               "GF_INSTALL_PLUGINS="), "does not install grafana-opensearch-datasource"),
    ("compose opensearch-dashboards version differs",
     edit_text("docker-compose.yml", "opensearch-dashboards:2.19.1", "opensearch-dashboards:2.18.0"),
     "must match the OpenSearch version"),
    ("partial quanta not left out",
     edit_json(OV, lambda d: panel(d, 2)["targets"][0].update(
         query=panel(d, 2)["targets"][0]["query"].split(" AND (partial:")[0])),
     "does not leave out partial quanta"),
    ("partial variable shows them by default",
     edit_json(CMP, lambda d: next(v for v in d["templating"]["list"]
                                   if v["name"] == "partial")["current"].update(value="true")),
     "variable partial must offer"),
    ("runs table without the overview link",
     edit_json(RUNS, lambda d: panel(d, 1)["fieldConfig"]["overrides"][0]["properties"][0][
         "value"].pop(0)), "no data link /d/fiohist-overview"),
    ("runs table without the p99 column",
     edit_json(RUNS, lambda d: panel(d, 1)["transformations"][0]["options"]["include"][
         "names"].remove("p99")), "runs table lacks columns ['p99']"),
    ("percentiles on a stored-only field",
     edit_json(OV, lambda d: panel(d, 4)["targets"][0]["metrics"][0].update(field="bucket_ios")),
     "cannot be aggregated"),
    ("table column that no query returns",
     edit_json(OV, lambda d: panel(d, 5)["transformations"][0]["options"]["include"][
         "names"].append("durations")), "which no query returns"),
    ("numeric histogram interval",
     edit_json(CMP, lambda d: panel(d, 11)["targets"][0]["bucketAggs"][1]["settings"].update(
         interval=1)), "must be a JSON string"),
    ("percentiles on a linear axis",
     edit_json(OV, lambda d: panel(d, 1)["fieldConfig"]["defaults"]["custom"].update(
         scaleDistribution={"type": "linear"})), "log y axis"),
    ("heatmap removed", edit_json(OV, lambda d: d.update(
        panels=[p for p in d["panels"] if p["type"] != "heatmap"])), "no latency heatmap panel"),
    ("xychart without pluginVersion",
     edit_json(CMP, lambda d: panel(d, 11).pop("pluginVersion")), "no pluginVersion"),
    ("duplicate dashboard uid", edit_json(CMP, lambda d: d.update(uid="fiohist-overview")),
     "also used by"),
    ("variable on a non-keyword",
     edit_json(OV, lambda d: d["templating"]["list"][0].update(
         query=json.dumps({"find": "terms", "field": "duration_s"}))), "needs one of"),
    # The first object of a direction (`all`): what the panels read as ${direction}.p99.
    ("p99 mapped as keyword",
     edit_text("mappings/fiohist-pctiles.json", '"p99": {\n              "type": "double"',
               '"p99": {\n              "type": "keyword"'), "needs one of"),
    ("ISO date format first",
     edit_text("mappings/fiohist-runs.json", '"epoch_millis||strict_date_optional_time"',
               '"strict_date_optional_time||epoch_millis"'), "must list epoch_millis first"),
    ("broken JSON", edit_text(CMP, "{", "{,"), "cannot parse"),
    ("compose service without health check",
     edit_text("docker-compose.yml", 'test: ["CMD-SHELL", "wget', 'xtest: ["CMD-SHELL", "wget'),
     "grafana has no healthcheck"),
    ("compose mounts a missing file",
     edit_text("docker-compose.yml", "./dashboards/kibana:", "./dashboards/kibanaX:"),
     "does not exist"),
    ("compose publishes on all interfaces",
     edit_text("docker-compose.yml", '"127.0.0.1:5601:5601"', '"5601:5601"'), "beyond 127.0.0.1"),
    ("kibana version differs",
     edit_text("docker-compose.yml", "kibana/kibana:8.19.", "kibana/kibana:8.18."),
     "match the Elasticsearch version"),
    ("runs table with running runs",
     edit_json(RUNS, lambda d: panel(d, 1)["targets"][0].update(query="run:$run")),
     "must leave out running runs"),
    ("live runs table linked to a fixed span",
     edit_json(RUNS, lambda d: panel(d, 2)["fieldConfig"]["overrides"][0]["properties"][0][
         "value"][0].update(url="/d/fiohist-overview?var-run=${__data.fields.run}"
                                "&from=${__data.fields.start_ms.numeric}&to=now")),
     "the live runs' run column has no data link"),
    ("runs table without the state column",
     edit_json(RUNS, lambda d: panel(d, 1)["transformations"][0]["options"]["include"][
         "names"].remove("state")), "runs table lacks columns ['state']"),
    ("overview without the 5 s refresh",
     edit_json(OV, lambda d: d["timepicker"].update(refresh_intervals=["10s"])),
     "refresh interval 5s not offered"),
    ("alert query on a misspelt field",
     edit_text(ALERTS, "AND sla_breach_beyond_noise:true", "AND sla_breech_beyond_noise:true"), "not in the index template"),
    ("alert query without the SLA filter",
     edit_text(ALERTS, "AND sla_breach_beyond_noise:true", ""), "lacks 'sla_breach_beyond_noise:true'"),
    ("alert query on an unprovisioned data source",
     edit_text(ALERTS, "datasourceUid: fiohist-runs", "datasourceUid: fiohist-run"),
     "is not provisioned"),
    ("alert condition naming no refId",
     edit_text(ALERTS, "condition: C", "condition: D"), "names no refId"),
    ("date histogram on whole multiples of the interval, not the run's grid",
     edit_json(OV, lambda d: panel(d, 2)["targets"][0]["bucketAggs"][-1]["settings"].pop(
         "offset")), "without offset ${grid_origin_ms}ms"),
    ("grid origin variable without its fallback to 0",
     edit_json(OV, lambda d: next(v for v in d["templating"]["list"]
                                  if v["name"] == "grid_origin_ms").update(includeAll=False)),
     "must be a hidden terms query on grid_origin_ms"),
    ("p99 drawn where it rests on too few I/Os",
     edit_json(OV, lambda d: next(t for t in panel(d, 1)["targets"] if t["refId"] == "p99")
               .update(query=next(t for t in panel(d, 1)["targets"] if t["refId"] == "p99")
                       ["query"].replace(" AND NOT ${direction:raw}.few_ios:p99", ""))),
     "p99 drawn where it rests on too few I/Os"),
    ("first p99 query without its few_ios filter",
     edit_text(OV, " AND NOT ${direction:raw}.few_ios:p99\"", "\""), "rests on too few I/Os"),
    ("alert window shorter than the evaluation interval",
     edit_text(ALERTS, "from: 120", "from: 30"), "shorter than the group's interval"),
    ("alert max on a keyword",
     edit_text(ALERTS, "field: sla_breaches_beyond_noise", "field: state"), "needs one of"),
    ("alert reduce of a later refId",
     edit_text(ALERTS, "expression: A", "expression: C"), "names no earlier refId"),
    ("hand-edited generated OpenSearch alert rules",
     edit_text("dashboards/grafana/provisioning-opensearch/alerting/fiohist.yaml",
               "interval: 1m", "interval: 2m"), "out of date"),
    ("compose grafana without the alert rules",
     edit_text("docker-compose.yml",
               "      - ./dashboards/grafana/provisioning/alerting:/etc/grafana/provisioning/"
               "alerting:ro\n", ""), "does not mount ./dashboards/grafana/provisioning/alerting"),
    ("kibana data view on an unknown index",
     edit_text("dashboards/kibana/fiohist.ndjson", '"title": "fiohist-runs*"',
               '"title": "fiohist-run*"'), "no data view titled fiohist-runs*"),
]


def copy_tree(dst):
    for rel in ("mappings", "dashboards", "tests/dashboards"):
        shutil.copytree(os.path.join(REPO, rel), os.path.join(dst, rel),
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(os.path.join(REPO, "docker-compose.yml"), dst)


def run_check(root, no_yaml=False):
    env = dict(os.environ)
    if no_yaml:
        env["FIOHIST_NO_YAML"] = "1"
    r = subprocess.run([sys.executable, os.path.join(root, "tests/dashboards/check_static.py")],
                       capture_output=True, text=True, env=env)
    return r.returncode, r.stdout + r.stderr


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "clean")
        copy_tree(base)
        for no_yaml in (False, True):
            rc, out = run_check(base, no_yaml)
            if rc != 0:
                print(f"FAIL: the unmodified copy does not pass (no_yaml={no_yaml}):\n{out}")
                return 1
        for i, (name, apply, expect) in enumerate(MUTATIONS):
            root = os.path.join(tmp, f"m{i}")
            copy_tree(root)
            apply(root)
            for no_yaml in ((False, True) if "compose" in name else (False,)):
                rc, out = run_check(root, no_yaml)
                ok = rc == 1 and expect in out
                tag = " (no PyYAML)" if no_yaml else ""
                print(f"{'ok  ' if ok else 'FAIL'} {name}{tag}: expected {expect!r}")
                if not ok:
                    failures += 1
                    print(out)
    print(f"{len(MUTATIONS)} mutations, {failures} not caught")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
