#!/usr/bin/env python3
"""Installs fiohist into a fresh prefix and uses it from another directory.

Checks: `cmake --install BUILD --prefix P` puts the binary, the index templates, the
dashboards, the docs and the man page in place; the installed binary, run from elsewhere
with FIOHIST_MAPPINGS_DIR unset, writes `push --out`, prints `setup --help`, and finds its
templates under P (and only there: with P's copy hidden it names P's path, it does not fall
back to the source tree); the prefix still works after being moved; `man -l` renders the
page, which holds every command's --help.

Usage: install_test.py CMAKE BUILD_DIR SAMPLES HAVE_MAN(ON|OFF)
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402

CMAKE, HAVE_MAN = sys.argv[1], sys.argv[4]
BUILD, SAMPLES = os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
CHECKS = testlib.Checks()
failures = CHECKS.failures


check = CHECKS.check


def run(cmd, cwd, env=None):
    e = {k: v for k, v in os.environ.items()
         if k not in ("FIOHIST_MAPPINGS_DIR", "FIOHIST_ES_URL")}
    e.update(env or {})
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=e, timeout=120)
    return p.returncode, p.stdout, p.stderr


def main():
    tmp = tempfile.mkdtemp(prefix="fiohist-install-")
    try:
        prefix = os.path.join(tmp, "prefix")
        if HAVE_MAN == "ON":
            # A build of chosen targets (the sanitizer build's fiohist and fiohist_tests)
            # leaves out the man page, which `cmake --install` then cannot find.
            rc, out, err = run([CMAKE, "--build", BUILD, "--target", "fiohist_man"], tmp)
            check(rc == 0, "cmake --build --target fiohist_man (rc %d) %s" % (rc, err[-500:]))
        rc, out, err = run([CMAKE, "--install", BUILD, "--prefix", prefix], tmp)
        check(rc == 0, "cmake --install --prefix (rc %d) %s" % (rc, err[-500:]))
        want = ["bin/fiohist", "share/fiohist/mappings/fiohist-runs.json",
                "share/fiohist/mappings/fiohist-buckets-nohistogram.json",
                "share/fiohist/dashboards/grafana/dashboards/fiohist-overview.json",
                "share/fiohist/dashboards/kibana/fiohist.ndjson",
                "share/doc/fiohist/README.md", "share/doc/fiohist/docs/documents.md",
                "share/doc/fiohist/docs/numbers.md", "share/doc/fiohist/docs/report-sample.png",
                "share/doc/fiohist/echarts/LICENSE", "share/doc/fiohist/echarts/NOTICE"]
        if HAVE_MAN == "ON":
            want.append("share/man/man1/fiohist.1")
        for w in want:
            check(os.path.isfile(os.path.join(prefix, w)), "installed: " + w)

        work = os.path.join(tmp, "elsewhere")
        os.makedirs(work)
        for f in glob.glob(os.path.join(SAMPLES, "*")):
            shutil.copy(f, work)
        logs = sorted(os.path.basename(f) for f in glob.glob(os.path.join(work, "*.gz")))
        fiohist = os.path.join(prefix, "bin", "fiohist")
        rc, out, err = run([fiohist, "push", "--quiet", "--run", "inst", "--out", "o"] + logs,
                           work)
        check(rc == 0 and glob.glob(os.path.join(work, "o", "*.ndjson.gz")),
              "installed push --out writes bulk files (rc %d) %s" % (rc, err[-300:]))
        # The report page needs no file at run time: library and script are in the binary.
        rc, out, err = run([fiohist, "report", "--quiet", "-o", "r.html"] + logs, work)
        page = open(os.path.join(work, "r.html"), encoding="utf-8").read() if rc == 0 else ""
        check(rc == 0 and "Apache ECharts" in page and "fiohist-data" in page,
              "installed report writes a self-contained page (rc %d) %s" % (rc, err[-300:]))
        rc, out, err = run([fiohist, "setup", "--help"], work)
        check(rc == 0 and "--mappings" in out, "installed setup --help (rc %d)" % rc)

        # The templates are read before the (absent) server is contacted: a connection
        # error means they were found.
        setup = [fiohist, "setup", "--es-url", "http://127.0.0.1:9"]
        rc, out, err = run(setup, work)
        check(rc != 0 and "127.0.0.1:9" in err and "cannot read index template" not in err,
              "installed setup finds its templates (%s)" % err.strip()[-300:])
        mappings = os.path.join(prefix, "share", "fiohist", "mappings")
        os.rename(mappings, mappings + ".hidden")
        rc, out, err = run(setup, work)
        check(rc != 0 and "cannot read index template " + mappings in err,
              "with the prefix's templates hidden it names them, no source-tree fallback (%s)"
              % err.strip()[-300:])
        os.rename(mappings + ".hidden", mappings)
        moved = os.path.join(tmp, "moved")
        os.rename(prefix, moved)
        rc, out, err = run([os.path.join(moved, "bin", "fiohist")] + setup[1:], work)
        check(rc != 0 and "127.0.0.1:9" in err and "cannot read index template" not in err,
              "a moved prefix still finds its templates (%s)" % err.strip()[-300:])

        if HAVE_MAN == "ON":
            page = os.path.join(moved, "share", "man", "man1", "fiohist.1")
            rc, out, err = run(["man", "-l", page], work, {"MANPAGER": "cat", "PAGER": "cat",
                                                          "MANWIDTH": "100"})
            check(rc == 0 and "fiohist pctiles" in out and "--fio-json" in out
                  and "--unanchored" in out and "warning" not in err.lower(),
                  "man -l renders the page with every command's --help (rc %d) %s"
                  % (rc, err[-300:]))
        else:
            print("skip man page: help2man was not found at configure time")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("FAILED: %d check(s)" % len(failures))
        sys.exit(1)
    print("all install checks passed")


main()
