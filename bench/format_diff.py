#!/usr/bin/env python3
"""Differential test of the textual format: random files of builtin types,
attributes, nested locations and unregistered ops (`gen_builtin.py`) are
printed by silica and by mlir-opt-22 in the custom and the generic form,
with and without `--mlir-print-debuginfo`; prints how many files are
identical in all four, and the first differences.

The run is appended to bench/results/format_diff.csv and the table of
docs/BENCHMARKS.md written from it (bench/tables.py), unless --no-record.

Usage: python3 bench/format_diff.py [--files N] [--seed S] [--silica PATH] [--show K] [--no-record]
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gen_builtin import Gen  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
import tables  # noqa: E402

TABLE = tables.Table(
    "format_diff", "docs/BENCHMARKS.md", ("files", "seed", "identical", "rejected"),
    [tables.col("files", "files", "int"),
     tables.col("seed", "seed"),
     tables.col("identical in all four forms", "identical", "int"),
     tables.col("rejected by mlir-opt-22 in every form", "rejected", "int")],
    key=("files", "seed"), command="python3 bench/format_diff.py --files 500 --seed 3")
TABLES = [TABLE]

MODES = [[], ["--mlir-print-debuginfo"], ["--mlir-print-op-generic"],
         ["--mlir-print-op-generic", "--mlir-print-debuginfo"]]


def run(cmd, path):
    p = subprocess.run(cmd + [path], capture_output=True, text=True)
    out = p.stdout if p.returncode == 0 else "error\n"
    return out.replace(path, "FILE")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--silica", default=os.path.join(HERE, "..", "target", "release", "silica"))
    ap.add_argument("--show", type=int, default=3)
    ap.add_argument("--no-record", action="store_true",
                    help="do not append to bench/results/ nor write docs/BENCHMARKS.md's table")
    a = ap.parse_args()
    started = time.time()
    same, shown, both_err = 0, 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(a.files):
            seed = a.seed * 100003 + i
            text = Gen(random.Random(seed)).module(6)
            path = os.path.join(tmp, "g%d.mlir" % i)
            with open(path, "w") as f:
                f.write(text)
            differ = None
            errors = 0
            for mode in MODES:
                ours = run([a.silica, "opt", "--allow-unregistered-dialect"] + mode, path)
                theirs = run(["mlir-opt-22", "--allow-unregistered-dialect"] + mode, path)
                errors += theirs == "error\n"
                if ours != theirs and differ is None:
                    differ = (mode, ours, theirs)
            both_err += errors == len(MODES)
            if differ is None:
                same += 1
            elif shown < a.show:
                shown += 1
                mode, ours, theirs = differ
                print("--- seed %d %s" % (seed, " ".join(mode)))
                with open(os.path.join(tmp, "o"), "w") as f:
                    f.write(ours)
                with open(os.path.join(tmp, "t"), "w") as f:
                    f.write(theirs)
                d = subprocess.run(["diff", os.path.join(tmp, "t"), os.path.join(tmp, "o")],
                                   capture_output=True, text=True).stdout
                print("\n".join(d.splitlines()[:12]))
    print("identical: %d/%d files (%d rejected by mlir-opt-22 in every mode)" % (same, a.files, both_err))
    if not a.no_record:
        tables.record(TABLE, [{"files": a.files, "seed": a.seed, "identical": same, "rejected": both_err}],
                      tables.meta(a.silica, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    main()
