#!/usr/bin/env python3
"""CIRCT's scheduling tests through `silica schedule` and `silica opt`.

For each file under the given directories (CIRCT's `test/Scheduling` and
`test/Dialect/SSP`), every `circt-opt` RUN line is mapped to silica:

  -ssp-roundtrip=verify           -> silica schedule --verify
  -ssp-schedule=scheduler=asap    -> silica schedule --scheduler asap
  -ssp-schedule=scheduler=simplex -> silica schedule (default scheduler)
  options=cycle-time=T            -> --cycle-time T
  -verify-diagnostics, -split-input-file: the same flags
  plain round trips (circt-opt %s | circt-opt | FileCheck) -> silica opt

and judged:

  * error files (-verify-diagnostics): the expected diagnostics appear;
  * asap and round trips: FileCheck-22 with the RUN line's prefixes passes
    (ASAP is deterministic, so start times must be identical);
  * simplex: every instance's II and the start time of its `@last`
    operation are no worse (<=) than CIRCT's expected values in the
    SIMPLEX CHECK lines (schedules may differ where several are optimal).

Lines needing or-tools (`%if or-tools`), CIRCT-simplex-specific options
(`last-op-name`) and CIRCT's infrastructure round trip (`-ssp-roundtrip`
without `=verify`, which rebuilds instances from its C++ Problem objects)
are reported as not applicable.

With --record the counts are appended to bench/results/ssp_conformance.csv
and the table of docs/BENCHMARKS.md written from them (bench/tables.py).

Usage: python3 bench/ssp_conformance.py DIR... [--silica PATH] [--record]
"""
import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tables  # noqa: E402

TABLE = tables.Table(
    "ssp_conformance", "docs/BENCHMARKS.md", ("applicable", "passed", "failed", "not_applicable"),
    [tables.col("applicable RUN lines", "applicable", "int"),
     tables.col("pass", "passed", "int"),
     tables.col("fail", "failed", "int"),
     tables.col("not applicable", "not_applicable", "int")],
    command="python3 bench/ssp_conformance.py ../shared/reference/circt/test/Scheduling "
            "../shared/reference/circt/test/Dialect/SSP --record")
TABLES = [TABLE]


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def instances(text):
    """Instance name -> (II or None, start time of @last or None)."""
    out = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"\s*ssp\.instance (@\S+|@\"[^\"]*\")? ?of \"\w+\"( \[(.*?)\])? \{", line)
        if m:
            current = (m.group(1) or "").lstrip("@")
            ii = re.search(r"II<(\d+)>", m.group(3) or "")
            out[current] = [int(ii.group(1)) if ii else None, None]
            continue
        if current is not None and "@last(" in line:
            t = re.search(r"\bt<(\d+)>", line)
            out[current][1] = int(t.group(1)) if t else None
    return out


def expected_simplex(path, prefix):
    """Instance -> (II, last start time) from CIRCT's CHECK lines."""
    out = {}
    current = None
    for line in open(path):
        m = re.search(r"CHECK-LABEL: (\S+)", line)
        if m:
            current = m.group(1)
            out[current] = [None, None]
            continue
        if current is None:
            continue
        m = re.search(prefix + r"(?:-SAME|-NEXT)?: .*\[II<(\d+)>\]", line)
        if m:
            out[current][0] = int(m.group(1))
        m = re.search(prefix + r"(?:-NEXT)?: .*@last\(.*\[t<(\d+)>", line)
        if m:
            out[current][1] = int(m.group(1))
    return out


def check_run(silica, path, run_line):
    """Returns (status, detail); status is 'pass', 'fail' or 'n/a'."""
    if "%if" in run_line:
        return "n/a", "needs or-tools"
    if "last-op-name" in run_line:
        return "n/a", "CIRCT-simplex-specific option last-op-name"
    first = run_line.split("|")[0]
    if "-ssp-roundtrip" in first and "=verify" not in first:
        return "n/a", "CIRCT's infrastructure round trip (rebuilds the instance from its Problem object)"

    flags = []
    if "-split-input-file" in first:
        flags.append("--split-input-file")
    if "-verify-diagnostics" in first:
        flags.append("--verify-diagnostics")
    m = re.search(r"cycle-time=([0-9.]+)", first)
    if m:
        flags += ["--cycle-time", m.group(1)]
    if "-ssp-roundtrip" in first:
        cmd = [silica, "schedule", "--verify", path] + flags
        kind = "verify"
    elif "scheduler=asap" in first:
        cmd = [silica, "schedule", "--scheduler", "asap", path] + flags
        kind = "asap"
    elif "scheduler=simplex" in first:
        cmd = [silica, "schedule", path] + flags
        kind = "simplex"
    elif "-ssp-" not in first:
        cmd = [silica, "opt", path] + flags
        kind = "roundtrip"
    else:
        return "n/a", "unknown pass: " + first.strip()
    rc, out, err = run(cmd)
    if rc != 0:
        return "fail", err.strip().splitlines()[0] if err.strip() else f"exit {rc}"
    m = re.search(r"-check-prefix(?:es)?[= ](\S+)", run_line)
    prefixes = m.group(1) if m else "CHECK"
    if kind == "simplex":
        prefix = [p for p in prefixes.split(",") if p != "CHECK"]
        if not prefix:
            return "pass", "no expectations"
        want = expected_simplex(path, prefix[0])
        got = instances(out)
        worse = []
        for name, (ii, last) in want.items():
            g = got.get(name)
            if g is None:
                worse.append(f"{name}: missing")
                continue
            if ii is not None and (g[0] is None or g[0] > ii):
                worse.append(f"{name}: II {g[0]} > {ii}")
            if last is not None and (g[1] is None or g[1] > last):
                worse.append(f"{name}: last t {g[1]} > {last}")
        better = sum(
            1
            for name, (ii, last) in want.items()
            if name in got
            and ((ii is not None and got[name][0] < ii) or (last is not None and got[name][1] < last))
        )
        if worse:
            return "fail", "; ".join(worse)
        return "pass", f"{len(want)} instances no worse, {better} better"
    if "FileCheck" in run_line:
        if kind == "roundtrip" and "circt-opt | FileCheck" in run_line.replace("  ", " "):
            rc2, out, err = run([silica, "opt", "-"], stdin=out)
            if rc2 != 0:
                return "fail", "second round trip failed"
        rc, _, err = run(["FileCheck-22", path, "--check-prefixes=" + prefixes], stdin=out)
        if rc != 0:
            return "fail", err.strip().splitlines()[0] if err.strip() else "FileCheck failed"
    return "pass", ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--silica", default=os.path.join(HERE, "..", "target", "release", "silica"))
    ap.add_argument("--record", action="store_true",
                    help="append the counts to bench/results/ and write docs/BENCHMARKS.md's table")
    args = ap.parse_args()
    started = time.time()
    files = []
    for p in args.paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".mlir"))
        else:
            files.append(p)
    counts = {"pass": 0, "fail": 0, "n/a": 0}
    for path in files:
        for line in open(path):
            m = re.match(r"//\s*RUN:\s*(.*)", line)
            if not m:
                continue
            status, detail = check_run(args.silica, path, m.group(1))
            counts[status] += 1
            short = os.path.relpath(path)
            print(f"{status:4}  {short}: {m.group(1).strip()}" + (f"\n        {detail}" if detail else ""))
    total = counts["pass"] + counts["fail"]
    print(f"\nRUN lines: {total} applicable, {counts['pass']} pass, {counts['fail']} fail; {counts['n/a']} not applicable")
    if args.record:
        tables.record(TABLE, [{"applicable": total, "passed": counts["pass"], "failed": counts["fail"],
                               "not_applicable": counts["n/a"]}], tables.meta(args.silica, started=started))
        tables.render(TABLES)
    return 0 if counts["fail"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
