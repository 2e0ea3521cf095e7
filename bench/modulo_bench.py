#!/usr/bin/env python3
"""Modulo scheduling on random problems: runs the scheduling crate's
benchmark (`cargo run --release -p silica-scheduling --example
modulo_bench N`: iterative modulo scheduling of N random modulo problems
of 50, 200 and 1000 operations, seeds 0 to N-1; see
scheduling/examples/modulo_bench.rs) and prints its lines.

The rows are appended to bench/results/modulo_bench.csv and the table of
docs/BENCHMARKS.md written from them (bench/tables.py), unless --no-record.

Usage: python3 bench/modulo_bench.py [INSTANCES] [--no-record]   (INSTANCES: 100 unless given)
"""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import tables  # noqa: E402

TABLE = tables.Table(
    "modulo_bench", "docs/BENCHMARKS.md",
    ("operations", "instances", "mean_ms", "max_ms", "at_mii", "res_mii", "rec_mii"),
    [tables.col("operations", "operations", "int"),
     tables.col("instances", "instances", "int"),
     tables.col("mean ms", "mean_ms"),
     tables.col("worst ms", "max_ms"),
     tables.Column("II = max(ResMII, RecMII)", lambda r: f"{r['at_mii']}%" if r.get("at_mii") else ""),
     tables.col("mean ResMII", "res_mii"),
     tables.col("mean RecMII", "rec_mii")],
    key=("operations",), command="python3 bench/modulo_bench.py 100")
TABLES = [TABLE]


def main():
    args = [a for a in sys.argv[1:] if a != "--no-record"]
    instances = args[0] if args else "100"
    started = time.time()
    out = subprocess.run(["cargo", "run", "--release", "-q", "-p", "silica-scheduling", "--example",
                          "modulo_bench", instances], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout
    print(out, end="")
    rows = []
    for line in out.splitlines()[1:]:
        size, n, mean, worst, at, res, rec = line.split()
        rows.append({"operations": size, "instances": n, "mean_ms": mean, "max_ms": worst,
                     "at_mii": at.rstrip("%"), "res_mii": res, "rec_mii": rec})
    if "--no-record" not in sys.argv[1:]:
        run = tables.meta(command=tables.command_line(), started=started)
        run["build"] = "release build"
        tables.record(TABLE, rows, run)
        tables.render(TABLES)


if __name__ == "__main__":
    main()
