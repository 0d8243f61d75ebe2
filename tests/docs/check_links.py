#!/usr/bin/env python3
"""Checks every relative link of README.md and docs/*.md: the file or folder it names exists,
and an anchor (#section) names a heading of the page it points to (GitHub's rule: lower case,
punctuation dropped, spaces to hyphens). Links to the web are not fetched.

Usage: check_links.py [REPO_ROOT] (default: this file's repository); --selftest checks the
checker on made-up pages.
"""
import os
import re
import sys
import tempfile

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)  # GitHub keeps letters, digits, _, - and spaces
    return s.replace(" ", "-")


def anchors(path):
    seen, out = {}, set()
    fenced = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else "%s-%d" % (s, n))
    return out


def links(path):
    """(line number, target) of every link outside code blocks and inline code."""
    fenced = False
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        line = re.sub(r"`[^`]*`", "", line)
        for m in LINK.finditer(line):
            yield number, m.group(1)


def check(root):
    pages = [os.path.join(root, "README.md")]
    docs = os.path.join(root, "docs")
    pages += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    errors, count = [], 0
    for page in pages:
        for number, target in links(page):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            count += 1
            where = "%s:%d: %s" % (os.path.relpath(page, root), number, target)
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            if not os.path.exists(full):
                errors.append(where + ": no such file")
            elif anchor and full.endswith(".md") and anchor not in anchors(full):
                errors.append(where + ": no heading #%s in %s" % (anchor, os.path.relpath(full, root)))
    return errors, count


def selftest():
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "docs"))
        with open(os.path.join(tmp, "README.md"), "w") as f:
            f.write("[a](docs/a.md#the-grid-v2) [b](docs/missing.md) [c](docs/a.md#nope)\n"
                    "`[d](nowhere.md)` [e](https://example.com/x) ![p](docs/a.md)\n"
                    "```\n[f](inside-code.md)\n```\n")
        with open(os.path.join(tmp, "docs", "a.md"), "w") as f:
            f.write("# A\n\n## The grid (v2)\n\n[up](../README.md#a-missing)\n")
        errors, count = check(tmp)
    want = ["README.md:1: docs/missing.md: no such file",
            "README.md:1: docs/a.md#nope: no heading #nope in docs/a.md",
            "docs/a.md:5: ../README.md#a-missing: no heading #a-missing in README.md"]
    if errors != want or count != 5:
        sys.exit("selftest failed: %d links, errors %s" % (count, errors))
    print("selftest ok")


def main():
    if sys.argv[1:] == ["--selftest"]:
        return selftest()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    errors, count = check(root)
    for e in errors:
        print(e)
    if errors:
        sys.exit("%d of %d relative links are broken" % (len(errors), count))
    print("%d relative links resolve" % count)


if __name__ == "__main__":
    main()
