#!/usr/bin/env python3
"""Validates every Grafana file of the repository against Grafana's own types.

* Every dashboard (dashboards/grafana/dashboards*/*.json: both variants, and any dashboard
  added later) against dashboards/schema/grafana-dashboard-vMAJOR.schema.json, the JSON Schema
  generated from @grafana/schema of the Grafana version docker-compose.yml runs
  (tools/grafana-schema/). Unknown keys are errors, required keys must be there.
* Every panel's options and fieldConfig.defaults.custom against the types of its panel plugin
  (those @grafana/schema has: timeseries, heatmap, table, stat, xychart, ...).
* Every panel and annotation target on an Elasticsearch or OpenSearch data source against the
  Elasticsearch query model of that schema (the OpenSearch plugin's query model is the same
  plus `queryType`, which every query model has); annotations on them keep their query in
  `target.query`, where Grafana's editors write it.
* Every alert rule file (dashboards/grafana/provisioning*/alerting/*.yaml) against
  dashboards/schema/grafana-alerting-provisioning-vMAJOR.schema.json: required fields, states,
  durations, no unknown keys (Grafana would ignore a misspelt one silently).

Needs python3-jsonschema and python3-yaml (tools/install-deps.sh --test). Exit 1 on any
problem, each named with its file and JSON path.
"""

import copy
import glob
import json
import os
import re
import sys

try:
    import jsonschema
    import yaml
except ImportError as e:  # a missing package must fail the test, not skip it
    print(f"FAIL: {e}: install python3-jsonschema and python3-yaml (tools/install-deps.sh --test)")
    sys.exit(1)

# The tree checked: this repository, or the scratch copies of check_schema_selftest.py.
REPO = SCHEMA_DIR = GRAFANA = None
# Data source plugins whose targets follow the Elasticsearch query model.
ES_TYPES = {"elasticsearch", "grafana-opensearch-datasource"}

problems = []


def problem(where, msg):
    problems.append(f"{where}: {msg}")


def rel(path):
    return os.path.relpath(path, REPO)


def compose_grafana_version():
    """The Grafana image version docker-compose.yml pins (all grafana services alike)."""
    text = open(os.path.join(REPO, "docker-compose.yml"), encoding="utf-8").read()
    versions = sorted(set(re.findall(r"image:\s*grafana/grafana:(\S+)", text)))
    if len(versions) != 1:
        problem("docker-compose.yml", f"expected one pinned grafana/grafana image, found {versions}")
        return None
    return versions[0]


def load_schema(kind, version):
    """The schema file of `kind` for the Grafana major of `version`, checked to be for exactly
    that version (a Grafana bump must regenerate it)."""
    path = os.path.join(SCHEMA_DIR, f"grafana-{kind}-v{version.split('.')[0]}.schema.json")
    try:
        schema = json.load(open(path, encoding="utf-8"))
    except (OSError, ValueError) as e:
        problem(rel(path), f"cannot load: {e} (Grafana {version} in docker-compose.yml)")
        return None
    if schema.get("x-grafana-version") != version:
        problem(rel(path), f"is for Grafana {schema.get('x-grafana-version')}, docker-compose.yml "
                           f"runs {version}: regenerate it (dashboards/README.md)")
    jsonschema.Draft7Validator.check_schema(schema)
    return schema


def json_path(parts):
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def leaf_errors(error):
    """(path, message) to show for one validation error. For anyOf/oneOf (a panel or a row; a
    metric of one type or another; a data source reference or null): the alternatives whose
    discriminator (a const or enum such as `type`) did not match are other variants and are
    left out; of the rest, the one that came closest. When no variant matches, the
    discriminator's allowed values."""
    if not error.context:
        return [(list(error.absolute_path), error.message)]
    branches = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    variant = {b: errs for b, errs in branches.items()
               if not any(e.validator in ("const", "enum") for e in errs)}
    if not variant:
        allowed, at = set(), None
        for e in error.context:
            if e.validator in ("const", "enum"):
                allowed.update(e.validator_value if e.validator == "enum" else [e.validator_value])
                at = e
        return [(list(at.absolute_path), f"{at.instance!r} is not one of "
                                         f"{sorted(allowed, key=str)}")]
    best = min(variant.values(), key=len)
    return [leaf for sub in best for leaf in leaf_errors(sub)]


def validate(where, validator, doc, prefix=()):
    for error in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path))):
        for path, message in leaf_errors(error):
            problem(where, f"{json_path(list(prefix) + path)}: {message}")


def sub_validator(schema, pointer):
    """A validator of the part of `schema` at JSON pointer `pointer`, refs resolved within
    `schema`."""
    s = copy.copy(schema)
    s["$ref"] = "#" + pointer
    return jsonschema.Draft7Validator(s)


def panel_validators(schema):
    """{panel plugin id: {"options"|"custom": validator}} of the panel types whose options and
    custom field config @grafana/schema has."""
    out = {}
    for pid, entry in schema["definitions"]["PanelConfigs"]["properties"].items():
        out[pid] = {part: sub_validator(schema, f"/definitions/PanelConfigs/properties/{pid}/"
                                                f"properties/{part}")
                    for part in entry["properties"]}
    return out


def ds_type(ref):
    return ref.get("type") if isinstance(ref, dict) else None


def check_dashboard(path, dash_validator, query_validator, panel_validator):
    where = rel(path)
    try:
        d = json.load(open(path, encoding="utf-8"))
    except ValueError as e:
        problem(where, f"cannot parse: {e}")
        return
    validate(where, dash_validator, d)
    for i, p in enumerate(d.get("panels", []) or []):
        nested = [(("panels", i), p)] + [(("panels", i, "panels", j), s)
                                         for j, s in enumerate(p.get("panels", []) or [])]
        for ppath, panel in nested:
            # Panel options and custom field config: by the types of the panel's plugin.
            pv = panel_validator.get(panel.get("type"), {})
            if "options" in pv and isinstance(panel.get("options"), dict):
                validate(where, pv["options"], panel["options"], ppath + ("options",))
            custom = ((panel.get("fieldConfig") or {}).get("defaults") or {}).get("custom")
            if "custom" in pv and isinstance(custom, dict):
                validate(where, pv["custom"], custom,
                         ppath + ("fieldConfig", "defaults", "custom"))
            for k, t in enumerate(panel.get("targets", []) or []):
                if not isinstance(t, dict):
                    continue
                if (ds_type(t.get("datasource")) or ds_type(panel.get("datasource"))) in ES_TYPES:
                    validate(where, query_validator, t, ppath + ("targets", k))
    for i, a in enumerate((d.get("annotations") or {}).get("list", []) or []):
        if a.get("builtIn") or ds_type(a.get("datasource")) not in ES_TYPES:
            continue
        if not isinstance(a.get("target"), dict) or not a["target"].get("query"):
            problem(where, f"{json_path(('annotations', 'list', i))}: annotation {a.get('name')!r} "
                           "has no target.query (where Grafana's Elasticsearch and OpenSearch "
                           "annotation editors keep the query)")
            continue
        validate(where, query_validator, a["target"], ("annotations", "list", i, "target"))


def use_tree(repo):
    global REPO, SCHEMA_DIR, GRAFANA
    REPO = repo
    SCHEMA_DIR = os.path.join(repo, "dashboards", "schema")
    GRAFANA = os.path.join(repo, "dashboards", "grafana")
    problems.clear()


def check(repo):
    """(what was checked, problems) of the tree at `repo`."""
    use_tree(repo)
    version = compose_grafana_version()
    if version is None:
        return "nothing checked", list(problems)
    dash_schema = load_schema("dashboard", version)
    alert_schema = load_schema("alerting-provisioning", version)
    dashboards = sorted(glob.glob(os.path.join(GRAFANA, "dashboards*", "*.json")))
    alerts = sorted(glob.glob(os.path.join(GRAFANA, "provisioning*", "alerting", "*.y*ml")))
    if not dashboards:
        problem(rel(GRAFANA), "no dashboards found")
    if not alerts:
        problem(rel(GRAFANA), "no alert rule files found")
    if dash_schema:
        dash_validator = jsonschema.Draft7Validator(dash_schema)
        query_validator = sub_validator(dash_schema, "/definitions/ElasticsearchDataQuery")
        panel_validator = panel_validators(dash_schema)
        for path in dashboards:
            check_dashboard(path, dash_validator, query_validator, panel_validator)
    if alert_schema:
        alert_validator = jsonschema.Draft7Validator(alert_schema)
        for path in alerts:
            try:
                doc = yaml.safe_load(open(path, encoding="utf-8"))
            except yaml.YAMLError as e:
                problem(rel(path), f"cannot parse: {e}")
                continue
            validate(rel(path), alert_validator, doc)
    return (f"checked {len(dashboards)} dashboards and {len(alerts)} alert rule files against "
            f"Grafana {version}"), list(problems)


def main():
    checked, problems = check(os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
    print(checked)
    if problems:
        print(f"FAIL: {len(problems)} problem(s)")
        for p in problems:
            print("  " + p)
        return 1
    print("OK: every dashboard and alert rule file matches Grafana's types")
    return 0


if __name__ == "__main__":
    sys.exit(main())
