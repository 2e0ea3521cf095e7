#!/usr/bin/env python3
"""CIRCT's own test files run against silica: each file's `RUN:` lines
with `circt-opt` replaced by `silica opt` and FileCheck by FileCheck-22,
as lit runs them (bash, pipefail). A file passes when every RUN line
does. RUN lines that need tools silica does not stand in for (firtool,
the test suite's Python generators) make the file *skipped*, not failed.

With --record the totals are appended to bench/results/circt_lit.csv and
the table of docs/BENCHMARKS.md written from them (bench/tables.py).

Usage: python3 bench/circt_lit.py DIR_OR_FILE... [--silica PATH] [--list] [--record]
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tables  # noqa: E402

TABLE = tables.Table(
    "circt_lit", "docs/BENCHMARKS.md", ("ran", "passed", "failed", "skipped"),
    [tables.col("files run", "ran", "int"),
     tables.col("pass their RUN/CHECK lines", "passed", "int"),
     tables.col("fail", "failed", "int"),
     tables.col("skipped", "skipped", "int")],
    command="python3 bench/circt_lit.py $CIRCT/test/Dialect/{HW,Comb,Seq} --record")
TABLES = [TABLE]
UNSUPPORTED = ("firtool", "%PYTHON%", "circt-translate", "arcilator", "circt-lec")


def run_lines(text):
    """The file's RUN commands, continuation lines joined."""
    cmds, cur = [], ""
    for line in text.splitlines():
        m = re.match(r"\s*//\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        part = m.group(1).rstrip()
        if part.endswith("\\"):
            cur += part[:-1] + " "
            continue
        cmds.append(cur + part)
        cur = ""
    return cmds


def substitute(cmd, path, tmp, silica):
    cmd = re.sub(r"\bcirct-opt\b", f"{silica} opt", cmd)
    cmd = re.sub(r"\bFileCheck\b", "FileCheck-22", cmd)
    cmd = cmd.replace("%s", path).replace("%S", os.path.dirname(path))
    return cmd.replace("%t", tmp)


def run_file(path, silica):
    cmds = run_lines(open(path).read())
    if not cmds:
        return "skipped", "no RUN lines"
    if any(u in c for c in cmds for u in UNSUPPORTED):
        return "skipped", "needs a tool silica does not replace"
    with tempfile.TemporaryDirectory() as d:
        tmp = os.path.join(d, "t")
        for c in cmds:
            full = substitute(c, path, tmp, silica)
            r = subprocess.run(
                ["bash", "-o", "pipefail", "-c", full],
                capture_output=True,
                timeout=120,
            )
            if r.returncode != 0:
                tail = (r.stderr or r.stdout).decode(errors="replace").strip().splitlines()
                return "failed", (tail[0] if tail else f"exit {r.returncode}")
    return "passed", ""


def files_of(paths):
    for p in paths:
        if os.path.isdir(p):
            for n in sorted(os.listdir(p)):
                if n.endswith(".mlir"):
                    yield os.path.join(p, n)
        else:
            yield p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--silica", default=os.path.join(HERE, "..", "target", "release", "silica"))
    ap.add_argument("--list", action="store_true", help="print each file's outcome")
    ap.add_argument("--record", action="store_true",
                    help="append the totals to bench/results/ and write docs/BENCHMARKS.md's table")
    args = ap.parse_args()
    started = time.time()
    silica = os.path.abspath(args.silica)
    files = list(files_of(args.paths))
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda f: run_file(f, silica), files))
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for f, (outcome, why) in zip(files, results):
        counts[outcome] += 1
        if args.list:
            print(f"{outcome:8} {os.path.relpath(f)}" + (f": {why[:150]}" if why else ""))
    ran = counts["passed"] + counts["failed"]
    print(f"TOTAL: {counts['passed']}/{ran} files pass their own RUN/CHECK lines; {counts['skipped']} skipped")
    if args.record:
        tables.record(TABLE, [{"ran": ran, "passed": counts["passed"], "failed": counts["failed"],
                               "skipped": counts["skipped"]}], tables.meta(args.silica, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    sys.exit(main())
