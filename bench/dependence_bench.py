#!/usr/bin/env python3
"""Dependence analysis benchmark: a generated 6-deep affine loop nest with
60 accesses (loads and stores to three 2-d memrefs, subscripts mixing
the induction variables, some with floordiv/mod) run through
`--test-memref-dependence-check` (every pair of accesses, at every
common depth) by silica and mlir-opt-22, alternately in the same
invocation. Both tools' remarks are compared first (they must agree).
Wall-clock and CPU (user + system) times are reported: on a loaded
machine the CPU ratio is the steadier one.

The run (the default nest, not --complex) is appended to
bench/results/dependence_bench.csv and the table of docs/BENCHMARKS.md
written from it (bench/tables.py), unless --no-record.

Usage: python3 bench/dependence_bench.py [--runs 5] [--silica PATH] [--accesses 60] [--no-record]
"""
import argparse
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tables  # noqa: E402

TIMING_FIELDS = ("silica_cpu", "mlir_cpu", "cpu_ratio", "silica_wall", "mlir_wall", "wall_ratio", "median_ratio")


def timing_table(name, first, command):
    """A table of CPU and wall times against mlir-opt-22 (this script's
    and tile_copy_bench.py's); `first`: (header, field) of the checked
    outputs."""
    return tables.Table(
        name, "docs/BENCHMARKS.md", (first[1],) + TIMING_FIELDS,
        [tables.col(first[0], first[1], right=False),
         tables.col("silica CPU s", "silica_cpu"),
         tables.col("mlir-opt-22 CPU s", "mlir_cpu"),
         tables.col("CPU ratio", "cpu_ratio"),
         tables.col("silica wall s", "silica_wall"),
         tables.col("mlir-opt-22 wall s", "mlir_wall"),
         tables.col("wall ratio", "wall_ratio"),
         tables.col("wall ratio, median of pairs", "median_ratio")],
        command=command)


def timing_row(ts, tm, cs, cm, ratios):
    return {"silica_cpu": f"{min(cs):.3f}", "mlir_cpu": f"{min(cm):.3f}", "cpu_ratio": f"{min(cs) / min(cm):.3f}",
            "silica_wall": f"{min(ts):.3f}", "mlir_wall": f"{min(tm):.3f}", "wall_ratio": f"{min(ts) / min(tm):.3f}",
            "median_ratio": f"{statistics.median(ratios):.3f}"}


TABLE = timing_table("dependence_bench", ("dependence checks", "checks"), "python3 bench/dependence_bench.py --runs 3")
TABLES = [TABLE]


def generate(accesses, complex_subscripts, seed=7):
    """The nest: loops %i0..%i5, accesses spread over the innermost three
    levels. Subscripts are `iv + c` unless `complex_subscripts` (sums of
    two induction variables, floordiv, mod), which mlir-opt-22 crashes on."""
    rnd = random.Random(seed)
    depth = 6
    lines = ["func.func @nest(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>, %v: f32) {"]
    per_level = {d: [] for d in range(3, depth + 1)}
    for n in range(accesses):
        level = rnd.choice([4, 5, 6, 6, 6])
        ivs = [f"%i{k}" for k in range(level)]
        subs = []
        for _ in range(2):
            a, b = rnd.sample(ivs, 2)
            if not complex_subscripts:
                subs.append(f"{a} + {rnd.randint(0, 3)}")
                continue
            e = f"{a} + {b} * {rnd.choice([1, 2, -1])} + {rnd.randint(0, 3)}"
            r = rnd.random()
            if r < 0.15:
                e = f"({e}) floordiv 2"
            elif r < 0.25:
                e = f"({e}) mod 8"
            subs.append(e)
        mem = rnd.choice(["%A", "%B", "%C"])
        if rnd.random() < 0.4:
            per_level[level].append(f"affine.store %v, {mem}[{subs[0]}, {subs[1]}] : memref<64x64xf32>")
        else:
            per_level[level].append(f"%x{n} = affine.load {mem}[{subs[0]}, {subs[1]}] : memref<64x64xf32>")
    for d in range(depth):
        # Accesses with d enclosing loops come before loop d opens.
        for a in per_level.get(d, []):
            lines.append("  " * (d + 1) + a)
        lines.append("  " * (d + 1) + f"affine.for %i{d} = 0 to {rnd.choice([4, 8, 16])} {{")
    for a in per_level[depth]:
        lines.append("  " * (depth + 1) + a)
    for d in reversed(range(depth)):
        lines.append("  " * (d + 1) + "}")
    lines.append("  return")
    lines.append("}")
    return "\n".join(lines) + "\n"


def run(cmd):
    """Wall-clock seconds, CPU seconds (user + system) and stderr of `cmd`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed:\n{p.stderr[-2000:]}")
    return elapsed, cpu, p.stderr


def remarks(stderr):
    return sorted(re.findall(r":(\d+):\d+: remark: (.*)", stderr))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--accesses", type=int, default=60)
    parser.add_argument("--silica", default=os.path.join(HERE, "..", "target", "release", "silica"))
    parser.add_argument("--mlir-opt", default="mlir-opt-22")
    parser.add_argument("--complex", action="store_true",
                        help="two-variable, floordiv and mod subscripts (mlir-opt-22 crashes on them)")
    parser.add_argument("--no-record", action="store_true",
                        help="do not append to bench/results/ nor write docs/BENCHMARKS.md's table")
    args = parser.parse_args()
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="silica-dependence-bench-") as d:
        path = os.path.join(d, "nest.mlir")
        with open(path, "w") as f:
            f.write(generate(args.accesses, args.complex))
        silica = [args.silica, "opt", "--test-memref-dependence-check", path, "-o", os.devnull]
        mlir = [args.mlir_opt, "--test-memref-dependence-check", path, "-o", os.devnull]
        _, _, s_err = run(silica)
        _, _, m_err = run(mlir)
        rs, rm = remarks(s_err), remarks(m_err)
        if rs != rm:
            diff = sorted(set(rs) ^ set(rm))[:10]
            raise SystemExit(f"remarks differ ({len(rs)} vs {len(rm)}): {diff}")
        ts, tm, cs, cm, ratios = [], [], [], [], []
        for _ in range(args.runs):
            a, ca, _ = run(silica)
            b, cb, _ = run(mlir)
            ts.append(a)
            tm.append(b)
            cs.append(ca)
            cm.append(cb)
            ratios.append(a / b)
    print(f"{args.accesses} accesses, {len(rs)} dependence checks (remarks agree)")
    print(f"wall: silica {min(ts):.3f} s  mlir-opt-22 {min(tm):.3f} s  "
          f"ratio {min(ts) / min(tm):.3f} (median of pairs {statistics.median(ratios):.3f})")
    print(f"cpu (user + system): silica {min(cs):.3f} s  mlir-opt-22 {min(cm):.3f} s  "
          f"ratio {min(cs) / min(cm):.3f}")
    if not args.no_record and not args.complex and args.accesses == 60:
        row = dict(timing_row(ts, tm, cs, cm, ratios), checks=f"{len(rs):,} (agree)")
        tables.record(TABLE, [row], tables.meta(args.silica, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    main()
