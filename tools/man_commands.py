#!/usr/bin/env python3
"""Writes a help2man include file holding every command's `fiohist COMMAND --help`.

help2man turns `fiohist --help` into the man page; this adds a COMMANDS section with each
command's own --help text, verbatim, so the man page says exactly what --help says.

Usage: man_commands.py FIOHIST OUTPUT
"""
import re
import subprocess
import sys


def roff_verbatim(text):
    """`text` as roff no-fill lines: backslashes doubled, control characters at the start
    of a line neutralised."""
    out = []
    for line in text.rstrip("\n").split("\n"):
        line = line.replace("\\", "\\e")
        if line.startswith((".", "'")):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    fiohist, output = sys.argv[1], sys.argv[2]
    usage = subprocess.run([fiohist, "--help"], capture_output=True, text=True,
                           check=True).stdout
    commands = re.findall(r"^  ([a-z][a-z-]*) ", usage.split("Commands:", 1)[1], re.M)
    if not commands:
        sys.exit("no commands found in `fiohist --help`")
    parts = ["[COMMANDS]"]
    for c in commands:
        h = subprocess.run([fiohist, c, "--help"], capture_output=True, text=True, check=True)
        parts += [".SS \"fiohist %s\"" % c, ".nf", roff_verbatim(h.stdout), ".fi"]
    parts += ["[SEE ALSO]", "fio(1). README.md and the manual docs/*.md (docs/documents.md: every document "
              "field) in share/doc/fiohist of the installation prefix; index templates in "
              "share/fiohist/mappings, Grafana and Kibana dashboards in share/fiohist/dashboards."]
    with open(output, "w") as f:
        f.write("\n".join(parts) + "\n")


main()
