#!/usr/bin/env python3
"""Pass conformance: runs every chunk of MLIR test files through silica and
mlir-opt-22 with the passes of each of the file's mlir-opt RUN lines
(`--canonicalize`, `-pass-pipeline=...`, ...) and reports where the
outputs agree.

Each RUN line that runs a pass is one configuration; its flags are given
to both tools, except the ones that only steer the test harness
(`-split-input-file` is done here by splitting the file, `-o`, FileCheck
options) or that silica lacks and that do not change what is printed.
A chunk agrees when both tools succeed with the same text, or both
reject it (with `--verify-diagnostics`, both reject counts as agreement).
Only chunks in scope (see conformance.py) are counted.

MLIR's test passes (`-test-*`) are left out unless `--with-test-passes`
is given (for the ones silica implements, e.g.
`-test-memref-dependence-check`).

With --record SUITE the run's counts (per file, and the total) are
appended to bench/results/pass_conformance.csv as the suite SUITE's, and
the tables of docs/BENCHMARKS.md written from them (bench/tables.py).

Usage: python3 bench/pass_conformance.py DIR_OR_FILE... [--silica PATH] [--list]
       [--with-test-passes] [--record SUITE]
"""
import argparse
import concurrent.futures
import os
import shlex
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tables  # noqa: E402
from conformance import (  # noqa: E402
    HERE, SPLIT, compare, mlir_files, registered_dialects, run_both, scope_pattern, share_cell,
    without_comments,
)

FIELDS = ("suite", "file", "runs", "agree")
SUITES = tables.Table(
    "pass_conformance", "docs/BENCHMARKS.md", FIELDS,
    [tables.col("suite", "suite", right=False),
     tables.col("chunk runs in scope", "runs", "int"),
     tables.col("agree", "agree", "int"),
     tables.Column("share", share_cell("runs", "agree"))],
    key=("suite", "file"), select=lambda r: r["file"] == "total",
    command="python3 bench/pass_conformance.py DIR_OR_FILE... --record SUITE")
AFFINE = tables.Table(
    "affine_passes", "docs/BENCHMARKS.md", FIELDS,
    [tables.col("file", "file", right=False),
     tables.Column("chunk runs agreeing", lambda r: f"{r['agree']}/{r['runs']}")],
    key=("suite", "file"), csv="pass_conformance", select=lambda r: r["suite"] == "affine",
    order=lambda r: r["file"] == "total",
    command="python3 bench/pass_conformance.py $D/Dialect/Affine/{FILES}.mlir --with-test-passes --record affine")
TABLES = [SUITES, AFFINE]

# Flags dropped from both tools' command lines.
DROPPED = {"split-input-file", "o", "mlir-print-local-scope", "mlir-disable-threading", "dump-input"}


def run_lines(text):
    """The mlir-opt RUN lines (continuations joined)."""
    lines, cur = [], None
    for raw in text.splitlines():
        if "RUN:" not in raw:
            continue
        body = raw.split("RUN:", 1)[1].strip()
        cur = body if cur is None else cur + " " + body
        if cur.endswith("\\"):
            cur = cur[:-1]
            continue
        if "mlir-opt" in cur:
            lines.append(cur)
        cur = None
    return lines


def pass_flags(line):
    """The flags of an mlir-opt RUN line, or None if it runs no pass."""
    opt_part = line.split("|")[0]
    try:
        tokens = shlex.split(opt_part.split("mlir-opt", 1)[1])
    except ValueError:
        return None
    flags, has_pass = [], False
    skip_next = False
    for tok in tokens:
        if skip_next:
            skip_next = False
            continue
        if not tok.startswith("-") or tok in ("-",):
            continue
        name = tok.lstrip("-").split("=", 1)[0]
        if name in DROPPED:
            skip_next = name == "o" and "=" not in tok
            continue
        if name not in ("allow-unregistered-dialect", "verify-diagnostics", "mlir-print-op-generic",
                        "mlir-print-debuginfo"):
            has_pass = True
        flags.append("--" + tok.lstrip("-"))
    return flags if has_pass else None


def check(job):
    return compare(*run_both(*job), compare_messages=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--silica", default=os.path.join(HERE, "..", "target", "release", "silica"))
    parser.add_argument("--mlir-opt", default="mlir-opt-22")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--list", action="store_true", help="list every disagreement")
    parser.add_argument("--with-test-passes", action="store_true",
                        help="also run RUN lines of MLIR test passes (`-test-*`) that silica implements")
    parser.add_argument("--record", metavar="SUITE",
                        help="append the counts to bench/results/pass_conformance.csv as SUITE's")
    args = parser.parse_args()
    started = time.time()

    pattern = scope_pattern(registered_dialects(args.mlir_opt))
    files = mlir_files(args.paths)
    jobs, where, not_applicable = [], [], []
    with tempfile.TemporaryDirectory(prefix="silica-pass-conformance-") as scratch:
        for path in files:
            text = open(path, encoding="utf-8", errors="replace").read()
            configs = [f for f in (pass_flags(l) for l in run_lines(text)) if f]
            # MLIR's own test passes (`-test-*`) are not part of the product.
            skipped = [] if args.with_test_passes else [
                f for f in configs if any(x.startswith("--test-") for x in f)]
            not_applicable.extend((path, " ".join(f)) for f in skipped)
            configs = [f for f in configs if f not in skipped]
            pieces = SPLIT.split(text)
            for flags in configs:
                # A piece after the first starts at its separator line;
                # the line reported is the one after it.
                line = 1
                for i, piece in enumerate(pieces):
                    if not pattern.search(without_comments(piece)):
                        where.append((path, line + (i > 0), " ".join(flags)))
                        jobs.append((args.silica, args.mlir_opt, scratch, len(jobs), piece, flags))
                    line += piece.count("\n")
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(check, jobs))
    per_file = {}
    for (path, line, flags), (verdict, detail) in zip(where, results):
        n, ok = per_file.get(path, (0, 0))
        per_file[path] = (n + 1, ok + (verdict == "agree"))
    total = len(results)
    agree = sum(v == "agree" for v, _ in results)
    print(f"in scope: {total} chunk runs, {agree} agree ({100.0 * agree / max(total, 1):.1f}%)")
    for path, flags in not_applicable:
        print(f"  not applicable (MLIR test pass): {os.path.relpath(path)} [{flags}]")
    for path, (n, ok) in sorted(per_file.items()):
        print(f"  {os.path.relpath(path)}: {ok}/{n}")
    if args.list:
        print("disagreements:")
        for (path, line, flags), (verdict, detail) in zip(where, results):
            if verdict != "agree":
                print(f"  {os.path.relpath(path)}:{line} [{flags}]: {detail}")
    if args.record:
        root = os.path.commonpath([os.path.abspath(p) for p in per_file]) if per_file else ""
        if len(per_file) == 1:
            root = os.path.dirname(root)
        rows = [{"suite": args.record, "file": os.path.relpath(os.path.abspath(path), root), "runs": n,
                 "agree": ok} for path, (n, ok) in sorted(per_file.items())]
        rows.append({"suite": args.record, "file": "total", "runs": total, "agree": agree})
        tables.record(SUITES, rows, tables.meta(args.silica, started=started))
        tables.render(TABLES)
    sys.exit(1 if any("crashed" in d for _, d in results) else 0)


if __name__ == "__main__":
    main()
