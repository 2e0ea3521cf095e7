#!/usr/bin/env python3
"""Benchmark: a random comb design with registers (default 200,000 ops),
silica's parse + Verilog emission (`silica translate --to-verilog`)
against the circt 1.62 wheel's parse + `lower-seq-to-sv` +
`export_verilog`, in one run. Prints both times and their ratio.

The run (of the default design) is appended to bench/results/verilog_bench.csv
and the table of docs/BENCHMARKS.md written from it (bench/tables.py),
unless --no-record.

Usage: python3 bench/verilog_bench.py [--ops N] [--runs R] [--silica PATH] [--no-record]
(needs `pip install circt==1.62.0`)
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tables  # noqa: E402

TABLE = tables.Table(
    "verilog_bench", "docs/BENCHMARKS.md", ("ops", "megabytes", "silica_s", "circt_s", "ratio"),
    [tables.col("design ops", "ops", "int"),
     tables.col("MB", "megabytes"),
     tables.col("silica parse + emit s", "silica_s"),
     tables.col("circt wheel parse + lower + export s", "circt_s"),
     tables.col("ratio (bar <= 0.33x)", "ratio")],
    command="python3 bench/verilog_bench.py --runs 3")
TABLES = [TABLE]

CIRCT_RUN = """
import io, sys, time, circt
from circt.ir import Context, Module
from circt.passmanager import PassManager
text = open(sys.argv[1]).read()
start = time.perf_counter()
with Context() as ctx:
    circt.register_dialects(ctx)
    m = Module.parse(text)
    PassManager.parse("builtin.module(lower-seq-to-sv)").run(m.operation)
    out = io.StringIO()
    circt.export_verilog(m, out)
print(time.perf_counter() - start)
"""


def generate(ops, seed=1):
    rng = random.Random(seed)
    lines = []
    values = ["%a", "%b", "%c", "%d"]
    conds = []
    n = 0
    while n < ops:
        v = f"%v{n}"
        kind = rng.random()
        x, y = rng.choice(values[-64:]), rng.choice(values[-64:])
        if kind < 0.08:
            lines.append(f"  {v} = seq.compreg {x}, %clk : i32")
        elif kind < 0.14:
            lines.append(f"  {v} = hw.constant {rng.randrange(1 << 31)} : i32")
        elif kind < 0.22:
            lines.append(f"  {v} = comb.icmp {rng.choice(['eq', 'ult', 'slt', 'ne'])} {x}, {y} : i32")
            conds.append(v)
            n += 1
            continue
        elif kind < 0.30 and conds:
            lines.append(f"  {v} = comb.mux {rng.choice(conds[-16:])}, {x}, {y} : i32")
        elif kind < 0.36:
            lo, hi = f"%v{n}_lo", f"%v{n}_hi"
            lines.append(f"  {lo} = comb.extract {x} from 16 : (i32) -> i16")
            lines.append(f"  {hi} = comb.extract {y} from 0 : (i32) -> i16")
            lines.append(f"  {v} = comb.concat {lo}, {hi} : i16, i16")
            n += 2
        else:
            op = rng.choice(["add", "sub", "mul", "and", "or", "xor", "shl", "shru"])
            lines.append(f"  {v} = comb.{op} {x}, {y} : i32")
        values.append(v)
        n += 1
    outs = values[-8:]
    ports = ", ".join(f"out o{i}: i32" for i in range(len(outs)))
    head = f"hw.module @top(in %clk: !seq.clock, in %a: i32, in %b: i32, in %c: i32, in %d: i32, {ports}) {{"
    tail = f"  hw.output {', '.join(outs)} : {', '.join('i32' for _ in outs)}\n}}\n"
    return "\n".join([head] + lines) + "\n" + tail


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", type=int, default=200_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--silica", default=os.path.join(HERE, "..", "target", "release", "silica"))
    ap.add_argument("--no-record", action="store_true",
                    help="do not append to bench/results/ nor write docs/BENCHMARKS.md's table")
    args = ap.parse_args()
    started = time.time()
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "design.mlir")
        with open(src, "w") as f:
            f.write(generate(args.ops))
        size = os.path.getsize(src)
        ours, theirs = [], []
        for _ in range(args.runs):
            start = time.perf_counter()
            subprocess.run([args.silica, "translate", "--to-verilog", src, "-o", os.path.join(d, "out.sv")], check=True)
            ours.append(time.perf_counter() - start)
            start = time.perf_counter()
            r = subprocess.run([sys.executable, "-c", CIRCT_RUN, src], check=True, capture_output=True)
            theirs.append(time.perf_counter() - start)
        s, c = min(ours), min(theirs)
        print(f"design: {args.ops} ops, {size / 1e6:.1f} MB")
        print(f"silica parse + emit:                 {s:.3f} s (best of {args.runs})")
        print(f"circt wheel parse + lower + export:  {c:.3f} s (best of {args.runs}; in-process part {float(r.stdout):.3f} s)")
        print(f"ratio: {s / c:.2f}x")
    if not args.no_record and args.ops == 200_000:
        tables.record(TABLE, [{"ops": args.ops, "megabytes": f"{size / 1e6:.1f}", "silica_s": f"{s:.3f}",
                               "circt_s": f"{c:.3f}", "ratio": f"{s / c:.2f}x"}],
                      tables.meta(args.silica, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    main()
