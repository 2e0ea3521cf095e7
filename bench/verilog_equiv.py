#!/usr/bin/env python3
"""Equivalence: silica's Verilog against CIRCT's for random hw/comb/seq
modules, proved by yosys: a miter of the two designs whose `trigger` output
`sat -tempinduct` proves never rises, from all registers at zero (silica's
power-up value; CIRCT leaves them uninitialised).

Each random module (comb operators of several widths, icmp, mux,
extract/concat/replicate, registers with and without reset) is emitted by
`silica translate --to-verilog` and by the circt 1.62 wheel (parse,
`lower-seq-to-sv`, `export_verilog`); yosys reads both and must prove
every output and register equivalent.

A case whose SAT problem yosys cannot settle within --timeout seconds
(wide multipliers make induction hard) is reported as undecided.

The counts are appended to bench/results/verilog_equiv.csv and the table
of docs/BENCHMARKS.md written from them (bench/tables.py), unless
--no-record.

Usage: python3 bench/verilog_equiv.py [--cases N] [--ops N] [--seed S] [--timeout S] [--silica PATH]
       [--no-record]
(needs `pip install circt==1.62.0` and yosys)
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
    "verilog_equiv", "docs/BENCHMARKS.md",
    ("cases", "ops", "seed", "timeout_s", "proved", "not_equivalent", "undecided"),
    [tables.col("random modules", "cases", "int"),
     tables.col("ops each", "ops", "int"),
     tables.col("seed", "seed"),
     tables.col("SAT s per case", "timeout_s", "int"),
     tables.col("proved equivalent", "proved", "int"),
     tables.col("not equivalent", "not_equivalent", "int"),
     tables.col("undecided", "undecided", "int")],
    command="python3 bench/verilog_equiv.py")
TABLES = [TABLE]

CIRCT_EXPORT = """
import io, sys, circt
from circt.ir import Context, Module
from circt.passmanager import PassManager
with Context() as ctx:
    circt.register_dialects(ctx)
    m = Module.parse(open(sys.argv[1]).read())
    PassManager.parse("builtin.module(lower-seq-to-sv)").run(m.operation)
    out = io.StringIO()
    circt.export_verilog(m, out)
    open(sys.argv[2], "w").write(out.getvalue())
"""

BINARY = ["add", "sub", "mul", "and", "or", "xor", "shl", "shru", "shrs"]
VARIADIC = {"add", "mul", "and", "or", "xor"}
PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


def random_module(rng, ops):
    w = rng.choice([4, 8, 13])
    lines = []
    values = ["%a", "%b"]
    conds = ["%c"]
    n = 0

    def fresh():
        nonlocal n
        n += 1
        return f"%v{n}"

    for _ in range(ops):
        k = rng.random()
        x, y = rng.choice(values), rng.choice(values)
        v = fresh()
        if k < 0.1:
            lines.append(f"  {v} = hw.constant {rng.randrange(1 << w)} : i{w}")
            values.append(v)
        elif k < 0.2:
            lines.append(f"  {v} = comb.icmp {rng.choice(PREDICATES)} {x}, {y} : i{w}")
            conds.append(v)
        elif k < 0.3:
            lines.append(f"  {v} = comb.mux {rng.choice(conds)}, {x}, {y} : i{w}")
            values.append(v)
        elif k < 0.4:
            lo = rng.randrange(w - 2)
            e = fresh()
            lines.append(f"  {e} = comb.extract {x} from {lo} : (i{w}) -> i2")
            r = fresh()
            lines.append(f"  {r} = comb.extract {y} from 2 : (i{w}) -> i{w - 2}")
            lines.append(f"  {v} = comb.concat {e}, {r} : i2, i{w - 2}")
            values.append(v)
        elif k < 0.45:
            p = fresh()
            lines.append(f"  {p} = comb.parity {x} : i{w}")
            conds.append(p)
            values.append(x)
        elif k < 0.55:
            if rng.random() < 0.5:
                lines.append(f"  {v} = seq.compreg {x}, %clk : i{w}")
            else:
                lines.append(f"  {v} = seq.compreg {x}, %clk reset %rst, {y} : i{w}")
            values.append(v)
        else:
            op = rng.choice(BINARY)
            args = [x, y] + ([rng.choice(values)] if op in VARIADIC and rng.random() < 0.3 else [])
            lines.append(f"  {v} = comb.{op} {', '.join(args)} : i{w}")
            values.append(v)
    outs = values[-3:]
    flags = conds[-2:]
    ports = [f"out o{i}: i{w}" for i in range(len(outs))] + [f"out f{i}: i1" for i in range(len(flags))]
    types = [f"i{w}"] * len(outs) + ["i1"] * len(flags)
    head = f"hw.module @m(in %clk: !seq.clock, in %rst: i1, in %a: i{w}, in %b: i{w}, in %c: i1, {', '.join(ports)}) {{"
    tail = f"  hw.output {', '.join(outs + flags)} : {', '.join(types)}\n}}\n"
    return "\n".join([head] + lines) + "\n" + tail


YOSYS = """
read_verilog -sv {gold}
rename m gold
read_verilog -sv {gate}
rename m gate
proc; opt_clean
async2sync
miter -equiv -flatten -make_outputs gold gate miter
hierarchy -top miter
sat -verify -tempinduct -prove trigger 0 -set-init-zero -seq 1 -maxsteps 20 miter
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=20)
    ap.add_argument("--ops", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=60, help="seconds of SAT per case")
    ap.add_argument("--silica", default=os.path.join(HERE, "..", "target", "release", "silica"))
    ap.add_argument("--no-record", action="store_true",
                    help="do not append to bench/results/ nor write docs/BENCHMARKS.md's table")
    args = ap.parse_args()
    started = time.time()
    rng = random.Random(args.seed)
    proved = 0
    undecided = 0
    with tempfile.TemporaryDirectory() as d:
        for case in range(args.cases):
            src = os.path.join(d, f"case{case}.mlir")
            with open(src, "w") as f:
                f.write(random_module(rng, args.ops))
            ours = os.path.join(d, f"case{case}.silica.sv")
            theirs = os.path.join(d, f"case{case}.circt.sv")
            subprocess.run([args.silica, "translate", "--to-verilog", src, "-o", ours], check=True)
            subprocess.run([sys.executable, "-c", CIRCT_EXPORT, src, theirs], check=True)
            script = os.path.join(d, f"case{case}.ys")
            with open(script, "w") as f:
                f.write(YOSYS.format(gold=theirs, gate=ours))
            try:
                r = subprocess.run(["yosys", "-q", "-s", script], capture_output=True,
                                   text=True, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                undecided += 1
                print(f"case {case}: undecided after {args.timeout} s (SAT too hard)")
                continue
            if r.returncode == 0:
                proved += 1
            else:
                print(f"case {case}: NOT proved equivalent\n{open(src).read()}\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    failed = args.cases - proved - undecided
    print(f"equivalent: {proved}/{args.cases} random modules ({args.ops} ops each); "
          f"{undecided} undecided within {args.timeout} s; {failed} not equivalent")
    if not args.no_record:
        tables.record(TABLE, [{"cases": args.cases, "ops": args.ops, "seed": args.seed, "timeout_s": args.timeout,
                               "proved": proved, "not_equivalent": failed, "undecided": undecided}],
                      tables.meta(args.silica, started=started))
        tables.render(TABLES)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
