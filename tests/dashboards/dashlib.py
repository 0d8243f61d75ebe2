"""Shared helpers of the dashboard checks: reading the index templates, the Grafana provisioning
and dashboards, and resolving a field name to its mapped type the way Elasticsearch would
(explicit properties first, then the dynamic templates in order). Python 3 stdlib only."""

import fnmatch
import json
import os
import re

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MAPPINGS = os.path.join(REPO, "mappings")
GRAFANA = os.path.join(REPO, "dashboards", "grafana")
DASHBOARD_DIR = os.path.join(GRAFANA, "dashboards")
DATASOURCES_YAML = os.path.join(GRAFANA, "provisioning", "datasources", "fiohist.yaml")
KIBANA_NDJSON = os.path.join(REPO, "dashboards", "kibana", "fiohist.ndjson")
COMPOSE = os.path.join(REPO, "docker-compose.yml")

TEMPLATE_FILES = {
    "pctiles": "fiohist-pctiles.json",
    "buckets": "fiohist-buckets.json",
    "buckets-nohistogram": "fiohist-buckets-nohistogram.json",
    "runs": "fiohist-runs.json",
}

NUMERIC = {"double", "float", "half_float", "scaled_float", "long", "integer", "short", "byte",
           "unsigned_long"}


def import_yaml():
    """PyYAML (Debian: python3-yaml) or None; FIOHIST_NO_YAML=1 forces None (tests the
    fallback readers)."""
    if os.environ.get("FIOHIST_NO_YAML"):
        return None
    try:
        import yaml  # noqa: PLC0415
        return yaml
    except ImportError:
        return None


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def load_templates():
    """{kind: template body} for the four template files."""
    return {k: load_json(os.path.join(MAPPINGS, f)) for k, f in TEMPLATE_FILES.items()}


class Field:
    """A mapped field: its type and whether it can be searched and aggregated."""

    def __init__(self, name, mapping, via):
        self.name = name
        self.type = mapping.get("type", "object")
        self.enabled = mapping.get("enabled", True)
        self.searchable = mapping.get("index", True) and self.enabled
        self.aggregatable = mapping.get("doc_values", True) and self.enabled and \
            self.type not in ("text", "object")
        self.via = via  # "properties" or the dynamic template's name

    def __repr__(self):
        return f"{self.name}:{self.type}({self.via})"


class Mapping:
    """The mappings of one index template; resolves dotted field names."""

    def __init__(self, template):
        m = template["template"]["mappings"]
        self.root_dynamic = str(m.get("dynamic", True)).lower()
        self.dynamic_templates = [next(iter(d.items())) for d in m.get("dynamic_templates", [])]
        self.props = {}
        self._flatten(m.get("properties", {}), "", str(m.get("dynamic", True)).lower())

    def _flatten(self, props, prefix, dynamic):
        for name, sub in props.items():
            full = prefix + name
            self.props[full] = sub
            if "properties" in sub:
                self._flatten(sub["properties"], full + ".",
                              str(sub.get("dynamic", dynamic)).lower())

    def _object_dynamic(self, full):
        """The dynamic setting that applies to a new field at `full`."""
        parts = full.split(".")
        for i in range(len(parts) - 1, 0, -1):
            parent = ".".join(parts[:i])
            if parent in self.props:
                sub = self.props[parent]
                if not sub.get("enabled", True):
                    return "disabled"
                if "dynamic" in sub:
                    return str(sub["dynamic"]).lower()
        return self.root_dynamic

    def field(self, full, value_kind="string"):
        """Field for `full`, or None when a document with it would not map it. `value_kind` is
        the JSON kind a new field would arrive with (string, double, long, boolean)."""
        if full in self.props:
            return Field(full, self.props[full], "properties")
        dyn = self._object_dynamic(full)
        if dyn != "true":
            return None
        leaf = full.rsplit(".", 1)[-1]
        for name, t in self.dynamic_templates:
            if "match_mapping_type" in t and t["match_mapping_type"] not in ("*", value_kind):
                continue
            if "path_match" in t and not fnmatch.fnmatchcase(full, t["path_match"]):
                continue
            if "match" in t:
                if t.get("match_pattern") == "regex":
                    if not re.search(t["match"], leaf):
                        continue
                elif not fnmatch.fnmatchcase(leaf, t["match"]):
                    continue
            return Field(full, t["mapping"], name)
        return None

    def fields(self):
        return dict(self.props)


def index_patterns(template):
    return template.get("index_patterns", [])


def parse_datasources_yaml(path=DATASOURCES_YAML):
    """[{name, uid, type, url, index, timeField, timeInterval}] from the provisioning file.
    Uses PyYAML (Debian python3-yaml) when present, else a small parser for this file's shape."""
    text = open(path, encoding="utf-8").read()
    yaml = import_yaml()
    if yaml is not None:
        doc = yaml.safe_load(text)
        out = []
        for ds in doc.get("datasources", []):
            jd = ds.get("jsonData", {}) or {}
            out.append({"name": ds.get("name"), "uid": ds.get("uid"), "type": ds.get("type"),
                        "url": ds.get("url"), "index": jd.get("index", ds.get("database")),
                        "timeField": jd.get("timeField"),
                        "timeInterval": jd.get("timeInterval", "")})
        return out
    out, cur = [], None
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].rstrip()
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if s.startswith("- name:"):
            cur = {"name": _yval(s[len("- name:"):])}
            out.append(cur)
            continue
        if cur is None or ":" not in s:
            continue
        k, v = s.split(":", 1)
        k = k.strip()
        if k in ("uid", "type", "url", "index", "timeField", "timeInterval", "database"):
            cur["index" if k == "database" else k] = _yval(v)
    return out


def _yval(v):
    v = v.strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
        return v[1:-1]
    return v


def load_dashboards():
    """{file name: dashboard JSON} of every *.json in the dashboards folder."""
    out = {}
    for name in sorted(os.listdir(DASHBOARD_DIR)):
        if name.endswith(".json"):
            out[name] = load_json(os.path.join(DASHBOARD_DIR, name))
    return out


def iter_panels(dashboard):
    """Every panel, including those nested in collapsed rows."""
    for p in dashboard.get("panels", []):
        yield p
        for sub in p.get("panels", []) or []:
            yield sub


def ds_uid(ref):
    if isinstance(ref, dict):
        return ref.get("uid")
    return ref


LUCENE_FIELD = re.compile(r'(?<![\\\w.@])([@A-Za-z_][\w.@]*)\s*:(?!\\)')


def lucene_fields(query):
    """Field names a Lucene query string refers to (field:value and _exists_:field)."""
    q = re.sub(r'"(?:[^"\\]|\\.)*"', '""', query or "")  # drop quoted phrases
    out = []
    for m in LUCENE_FIELD.finditer(q):
        name = m.group(1)
        if name == "_exists_":
            rest = q[m.end():].lstrip()
            mm = re.match(r'[@A-Za-z_][\w.@]*', rest)
            if mm:
                out.append(mm.group(0))
        else:
            out.append(name)
    return out


VAR_REF = re.compile(r"\$(?:\{([A-Za-z0-9_]+)(?::[^}]*)?\}|([A-Za-z0-9_]+))")


def variable_refs(text):
    return [a or b for a, b in VAR_REF.findall(text or "")]
