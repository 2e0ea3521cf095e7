#!/usr/bin/env python3
"""Pretty-form benchmark: silica opt vs mlir-opt-22 on a large file of
func/arith/scf/memref ops in custom form (gen_pretty.py), for two jobs:

  parse+verify+print   TOOL IN -o /dev/null                  (bar: time <= 0.25x)
  canonicalize+cse     TOOL --canonicalize --cse IN -o /dev/null   (bar: time <= 0.5x)

Runs the two tools alternately `--runs` times each; prints the best wall
times, the peak resident memory, the silica/mlir-opt ratios of those and
the median ratio of the paired runs (the bar's measure), and whether the
two tools' outputs of each job are byte-identical.
The rows are appended to bench/results/pretty_bench.csv and the table of
docs/BENCHMARKS.md written from them (bench/tables.py), unless --no-record.
Usage: python3 bench/pretty_bench.py [--runs 5] [--funcs 1000] [--silica target/release/silica]
       [--no-record]
"""
import argparse
import filecmp
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tables  # noqa: E402
from ir_bench import HERE, compare, job_row, job_table  # noqa: E402

TABLE = job_table("pretty_bench", "python3 bench/pretty_bench.py --runs 5")
TABLES = [TABLE]

JOBS = [
    ("parse+verify+print", [], 0.25),
    ("canonicalize+cse", ["--canonicalize", "--cse"], 0.5),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--funcs", type=int, default=1000)
    parser.add_argument("--silica", default=os.path.join(HERE, "..", "target", "release", "silica"))
    parser.add_argument("--mlir-opt", default="mlir-opt-22")
    parser.add_argument("--no-record", action="store_true",
                        help="do not append to bench/results/ nor write docs/BENCHMARKS.md's table")
    args = parser.parse_args()
    started = time.time()
    rows = []
    with tempfile.TemporaryDirectory(prefix="silica-bench-") as tmp:
        src = os.path.join(tmp, "pretty.mlir")
        subprocess.run([sys.executable, os.path.join(HERE, "gen_pretty.py"), src, "--funcs", str(args.funcs)],
                       check=True)
        print(f"input: {os.path.getsize(src) / 1e6:.1f} MB, {args.funcs} functions")
        print(f"{'job':<20} {'tool':<10} {'time s':>8} {'peak MiB':>9}")
        for name, flags, bar in JOBS:
            ours, theirs = os.path.join(tmp, "ours.mlir"), os.path.join(tmp, "theirs.mlir")
            subprocess.run([args.silica, "opt", *flags, src, "-o", ours], check=True)
            subprocess.run([args.mlir_opt, *flags, src, "-o", theirs], check=True)
            same = filecmp.cmp(ours, theirs, shallow=False)
            t_s, m_s, t_m, m_m, median = compare([args.silica, "opt", *flags, src, "-o", os.devnull],
                                                 [args.mlir_opt, *flags, src, "-o", os.devnull], args.runs)
            print(f"{name:<20} {'silica':<10} {t_s:8.3f} {m_s:9.1f}")
            print(f"{name:<20} {'mlir-opt':<10} {t_m:8.3f} {m_m:9.1f}")
            print(f"{name:<20} {'ratio':<10} {t_s / t_m:8.3f} {m_s / m_m:9.3f}   "
                  f"(of the best times; median of paired runs: {median:.3f})")
            print(f"{name:<20} bar: median time ratio <= {bar}; outputs identical: {same}")
            rows.append(job_row(name, t_s, m_s, t_m, m_m, median, same))
    if not args.no_record and args.funcs == 1000:
        tables.record(TABLE, rows, tables.meta(args.silica, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    main()
