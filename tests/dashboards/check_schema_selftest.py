#!/usr/bin/env python3
"""Proves check_schema.py catches what Grafana's types forbid: copies the checked files to a
scratch tree, breaks them one way at a time (including a dashboard and a folder added later)
and expects check_schema.py to fail naming the problem."""

import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import check_schema  # noqa: E402
from check_static_selftest import ALERTS, CMP, OV, edit_json, edit_text, panel  # noqa: E402

RUNS_OS = "dashboards/grafana/dashboards-opensearch/fiohist-runs.json"
ALERTS_OS = "dashboards/grafana/provisioning-opensearch/alerting/fiohist.yaml"


def add_dashboard(rel, fn):
    """A new dashboard file (a copy of the comparison, changed by fn), as a later one would be."""
    def apply(root):
        d = json.load(open(os.path.join(root, CMP)))
        d["uid"] = "fiohist-later"
        fn(d)
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        json.dump(d, open(path, "w"), indent=1)
    return apply


def annotation(d, name):
    return next(a for a in d["annotations"]["list"] if a["name"] == name)


def legacy_annotation_query(d):
    a = annotation(d, "Clamped percentiles")
    a["query"] = a.pop("target")["query"]


MUTATIONS = [
    ("legacy top-level annotation query", edit_json(OV, legacy_annotation_query),
     "'query' was unexpected"),
    ("annotation without target", edit_json(OV, lambda d: annotation(d, "SLA breaches").pop(
        "target")), "has no target.query"),
    ("annotation field mapping misspelt",
     edit_json(OV, lambda d: annotation(d, "SLA breaches").update(
         textfield=annotation(d, "SLA breaches").pop("textField"))), "'textfield' was unexpected"),
    ("dashboard link without keepTime", edit_json(OV, lambda d: d["links"][0].pop("keepTime")),
     "$.links[0]: 'keepTime' is a required property"),
    ("dashboard link of an unknown type",
     edit_json(CMP, lambda d: d["links"][0].update(type="url")), "'url' is not one of"),
    ("panel key misspelt",
     edit_json(OV, lambda d: panel(d, 1).update(datasoruce=panel(d, 1)["datasource"])),
     "'datasoruce' was unexpected"),
    ("grid position as text",
     edit_json(OV, lambda d: panel(d, 2)["gridPos"].update(w="12")), "is not of type 'number'"),
    ("variable hide out of range",
     edit_json(OV, lambda d: d["templating"]["list"][0].update(hide=3)), "is not one of"),
    ("variable of an unknown type",
     edit_json(OV, lambda d: d["templating"]["list"][0].update(type="terms")), "is not one of"),
    ("dashboard without schemaVersion",
     edit_json(CMP, lambda d: d.pop("schemaVersion")), "'schemaVersion' is a required property"),
    ("timeseries option misspelt",
     edit_json(OV, lambda d: panel(d, 1)["options"]["legend"].update(showLegnd=True)),
     "$.panels[0].options.legend: Additional properties are not allowed ('showLegnd'"),
    ("timeseries draw style unknown",
     edit_json(OV, lambda d: panel(d, 2)["fieldConfig"]["defaults"]["custom"].update(
         drawStyle="lines")), "$.panels[1].fieldConfig.defaults.custom.drawStyle: 'lines'"),
    ("heatmap y axis as text",
     edit_json(OV, lambda d: next(p for p in d["panels"] if p["type"] == "heatmap")[
         "options"].update(yAxis="log")), "is not of type 'object'"),
    ("xychart option unknown",
     edit_json(CMP, lambda d: panel(d, 11)["options"].update(seriesMapping="auto")),
     "'seriesMapping' was unexpected"),
    ("Elasticsearch target metric of an unknown type",
     edit_json(OV, lambda d: panel(d, 1)["targets"][0]["metrics"][0].update(type="maximum")),
     "$.panels[0].targets[0].metrics[0]"),
    ("Elasticsearch target key misspelt",
     edit_json(OV, lambda d: panel(d, 1)["targets"][0].update(
         bucketAgg=panel(d, 1)["targets"][0].pop("bucketAggs"))), "'bucketAgg' was unexpected"),
    ("OpenSearch variant target broken",
     edit_json(RUNS_OS, lambda d: panel(d, 1)["targets"][0].update(alias=7)),
     "fiohist-runs.json: $.panels[0].targets[0].alias: 7 is not of type 'string'"),
    ("dashboard added later, broken",
     add_dashboard("dashboards/grafana/dashboards/fiohist-later.json",
                   lambda d: d.update(graphTooltip=5)),
     "fiohist-later.json: $.graphTooltip: 5 is not one of"),
    ("dashboard folder added later, broken",
     add_dashboard("dashboards/grafana/dashboards-later/fiohist-later.json",
                   lambda d: d["links"][0].pop("tags")), "dashboards-later/fiohist-later.json"),
    ("alert noDataState misspelt", edit_text(ALERTS, "noDataState: OK", "noDataState: Ok"),
     "'Ok' is not one of"),
    ("alert execErrState unknown", edit_text(ALERTS, "execErrState: Error",
                                             "execErrState: Failing"), "'Failing' is not one of"),
    ("alert rule key misspelt", edit_text(ALERTS, "noDataState: OK", "noDatastate: OK"),
     "'noDatastate' was unexpected"),
    ("alert rule without for", edit_text(ALERTS, "        for: 0s\n", ""),
     "'for' is a required property"),
    ("alert group interval not a duration", edit_text(ALERTS, "interval: 1m", "interval: 1 min"),
     "does not match"),
    ("alert query without model", edit_text(ALERTS, "            model:\n              refId: A\n",
                                            "            xmodel:\n              refId: A\n"),
     "'model' is a required property"),
    ("OpenSearch alert rules broken",
     edit_text(ALERTS_OS, "condition: C", "conditions: C"), "'conditions' was unexpected"),
    ("compose runs another Grafana minor",
     edit_text("docker-compose.yml", "grafana/grafana:12.1.0", "grafana/grafana:12.2.0"),
     "one pinned grafana/grafana image"),
    ("Grafana bumped without regenerating",
     lambda root: [edit_text("docker-compose.yml", "grafana/grafana:12.1.0",
                             "grafana/grafana:12.2.0")(root) for _ in range(2)],
     "is for Grafana 12.1.0, docker-compose.yml runs 12.2.0"),
    ("new Grafana major without a schema",
     lambda root: [edit_text("docker-compose.yml", "grafana/grafana:12.1.0",
                             "grafana/grafana:13.0.0")(root) for _ in range(2)],
     "grafana-dashboard-v13.schema.json: cannot load"),
]


def copy_tree(dst):
    for rel in ("dashboards",):
        shutil.copytree(os.path.join(REPO, rel), os.path.join(dst, rel),
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(os.path.join(REPO, "docker-compose.yml"), dst)


def run_check(root):
    """check_schema.py's verdict on the tree at root (in process: one interpreter start)."""
    checked, problems = check_schema.check(root)
    return (1 if problems else 0), "\n".join([checked] + problems)


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "clean")
        copy_tree(base)
        rc, out = run_check(base)
        if rc != 0:
            print(f"FAIL: the unmodified copy does not pass:\n{out}")
            return 1
        for i, (name, apply, expect) in enumerate(MUTATIONS):
            root = os.path.join(tmp, f"m{i}")
            copy_tree(root)
            apply(root)
            rc, out = run_check(root)
            if rc == 0:
                print(f"FAIL: {name}: check_schema.py passed")
                failures += 1
            elif expect not in out:
                print(f"FAIL: {name}: failed, but without {expect!r}:\n{out}")
                failures += 1
            else:
                print(f"ok: {name}")
    print(f"{len(MUTATIONS) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
