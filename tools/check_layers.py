#!/usr/bin/env python3
"""Checks that includes only point down the data flow.

src/ has one folder per stage, in this order; a file may include its own folder and the
folders before it, never one after it (a higher layer). Every quoted include names its
folder ("log/log_stream.h"), so the rule can be read off the text.

Usage: check_layers.py [SRC_DIR]   (default: the src/ beside this script's folder)
"""
import os
import re
import sys

# The data flow: log input -> statistics -> output -> report pages -> Elasticsearch client -> commands.
LAYERS = ["base", "histogram", "log", "stats", "compat", "output", "report", "es", "cli"]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def check(src):
    problems = []
    for folder in sorted(os.listdir(src)):
        path = os.path.join(src, folder)
        if not os.path.isdir(path):
            problems.append("%s: a file outside the stage folders" % folder)
            continue
        if folder not in LAYERS:
            problems.append("%s/: not a stage folder (add it to LAYERS in %s)" %
                            (folder, os.path.basename(__file__)))
            continue
        level = LAYERS.index(folder)
        for name in sorted(os.listdir(path)):
            if not name.endswith((".h", ".cc")):
                continue
            text = open(os.path.join(path, name), encoding="utf-8").read()
            for line_no, line in enumerate(text.splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                where = "%s/%s:%d" % (folder, name, line_no)
                if "/" not in target:
                    problems.append('%s: #include "%s" does not name its folder' % (where, target))
                    continue
                top = target.split("/")[0]
                if top not in LAYERS:
                    problems.append('%s: #include "%s": unknown folder' % (where, target))
                elif LAYERS.index(top) > level:
                    problems.append('%s: #include "%s": %s/ may include only %s' %
                                    (where, target, folder, ", ".join(LAYERS[:level + 1])))
    return problems


def selftest():
    """The check must catch an upward include and a folder-less one."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        for folder, text in [("log", '#include "stats/pipeline.h"\n'),
                             ("stats", '#include "log/log_stream.h"\n#include "x.h"\n')]:
            os.makedirs(os.path.join(tmp, folder))
            with open(os.path.join(tmp, folder, "a.cc"), "w") as f:
                f.write(text)
        problems = check(tmp)
    ok = len(problems) == 2 and "log/a.cc:1" in problems[0] and "stats/a.cc:2" in problems[1]
    print("selftest: %s" % ("ok" if ok else "FAILED: %s" % problems))
    return 0 if ok else 1


def main():
    if sys.argv[1:] == ["--selftest"]:
        return selftest()
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "src")
    problems = check(src)
    for p in problems:
        print("layering: " + p)
    print("layers %s: %s" % (" < ".join(LAYERS), "ok" if not problems else
                             "%d problem(s)" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
