#!/usr/bin/env python3
"""Where a build's time goes, from ninja's log and, when given, each compile's CPU time.

Usage: tools/build_profile.py BUILD_DIR [--cpu-log FILE] [--jobs N]

On a shared machine wall time is mostly waiting for a processor, so the figures to compare
are CPU seconds (user + sys, recorded per compile by tools/compile_timer.sh) and the wall
time N idle cores would need: the compiles replayed in ninja's own start order (the order of
a fresh build) on N workers with their CPU times, then the steps after them (archive, link,
man page) one after another. Without --cpu-log the replay uses ninja's recorded durations.
"""
import argparse
import heapq
import os
import sys


def read_ninja_log(path):
    """The last run of each output: (start_s, end_s, output), in start order."""
    last = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 4:
                continue
            start, end, out = int(parts[0]) / 1000.0, int(parts[1]) / 1000.0, parts[3]
            if out in last and start < last[out][0]:
                continue  # an earlier build's entry
            last[out] = (start, end, out)
    # One step can write several outputs (same start and end): keep one.
    seen, steps = set(), []
    for start, end, out in sorted(last.values()):
        key = (start, end)
        if key in seen:
            continue
        seen.add(key)
        steps.append((start, end, out))
    return steps


def read_cpu_log(path):
    """Output (as ninja names it, relative to the build dir) -> user + sys seconds."""
    cpu = {}
    with open(path) as f:
        for line in f:
            parts = line.split(None, 3)
            if len(parts) == 4:
                cpu[parts[3].strip()] = float(parts[0]) + float(parts[1])
    return cpu


def replay(durations, jobs):
    """Makespan of durations started in the given order on `jobs` workers."""
    free = [0.0] * jobs
    for d in durations:
        t = heapq.heappop(free)
        heapq.heappush(free, t + d)
    return max(free)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build_dir")
    ap.add_argument("--cpu-log", help="tools/compile_timer.sh's log")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    steps = read_ninja_log(os.path.join(args.build_dir, ".ninja_log"))
    cpu = read_cpu_log(args.cpu_log) if args.cpu_log else {}
    compiles = [s for s in steps if s[2].endswith(".o")]
    if not compiles:
        sys.exit("build_profile.py: no compile in the ninja log")
    first, last = compiles[0][0], max(s[1] for s in compiles)
    after = [s for s in steps if s[0] >= last and not s[2].endswith(".o")]

    def cost(step):
        return cpu.get(step[2], step[1] - step[0])

    rows = sorted(((cost(s), s[1] - s[0], s[2]) for s in compiles), reverse=True)
    label = "CPU s" if cpu else "ninja s"
    print(f"{label:>8} {'wall s':>8}  object")
    for c, w, out in rows:
        print(f"{c:8.1f} {w:8.1f}  {out}")
    total = sum(r[0] for r in rows)
    tail = sum(s[1] - s[0] for s in after)
    in_order = replay([cost(s) for s in compiles], args.jobs)
    best = replay(sorted((cost(s) for s in compiles), reverse=True), args.jobs)
    print(f"compiles: {len(compiles)}, {total:.1f} {label} in all; the longest {rows[0][0]:.1f}")
    print(f"{args.jobs} idle cores, ninja's order: {in_order:.1f} s of compiles + {tail:.1f} s "
          f"after them (archive, link, man page) = {in_order + tail:.1f} s")
    print(f"{args.jobs} idle cores, longest first (the best order): {best:.1f} s + {tail:.1f} s; "
          f"total/{args.jobs} = {total / args.jobs:.1f} s")
    print(f"recorded wall time of the compiles (this machine as it was): {last - first:.1f} s")


if __name__ == "__main__":
    main()
