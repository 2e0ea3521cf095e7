#!/usr/bin/env python3
"""Generates a large MLIR file in custom (pretty) form with func, arith,
scf and memref ops: per function, constants (some repeated), integer
arithmetic over arguments with repeated subexpressions, comparisons and
selects, and a loop with iter_args that loads and stores a memref.

Usage: python3 bench/gen_pretty.py OUT [--funcs 1000] [--ops 150] [--seed 1]
"""
import argparse
import random

BINOPS = ["addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minui"]
PREDS = ["eq", "ne", "slt", "sle", "sgt", "ult"]


def gen_func(out, idx, n_ops, rng):
    out.append(f"func.func @f{idx}(%a: i32, %b: i32, %m: memref<64xi32>, %n: index) -> i32 {{")
    vals = ["%a", "%b"]
    for k in range(6):
        out.append(f"  %k{k} = arith.constant {rng.randint(-8, 8)} : i32")
        vals.append(f"%k{k}")
    emitted = []
    for i in range(n_ops):
        r = rng.random()
        if r < 0.15 and emitted:
            # A repeated subexpression.
            op, x, y = rng.choice(emitted)
            out.append(f"  %v{i} = arith.{op} {x}, {y} : i32")
        elif r < 0.25:
            x, y = rng.choice(vals[-12:]), rng.choice(vals)
            p = rng.choice(PREDS)
            out.append(f"  %p{i} = arith.cmpi {p}, {x}, {y} : i32")
            out.append(f"  %v{i} = arith.select %p{i}, {x}, {y} : i32")
        else:
            op = rng.choice(BINOPS)
            x, y = rng.choice(vals[-12:]), rng.choice(vals)
            out.append(f"  %v{i} = arith.{op} {x}, {y} : i32")
            emitted.append((op, x, y))
        vals.append(f"%v{i}")
    acc = vals[-1]
    out.append("  %c0 = arith.constant 0 : index")
    out.append("  %c1 = arith.constant 1 : index")
    out.append("  %c0_0 = arith.constant 0 : index")
    out.append(f"  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = {acc}) -> (i32) {{")
    out.append("    %x = memref.load %m[%i] : memref<64xi32>")
    out.append("    %y = arith.addi %s, %x : i32")
    out.append(f"    %z = arith.muli %y, {rng.choice(vals[:8])} : i32")
    out.append("    memref.store %z, %m[%c0_0] : memref<64xi32>")
    out.append("    scf.yield %z : i32")
    out.append("  }")
    out.append("  return %r : i32")
    out.append("}")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("output")
    parser.add_argument("--funcs", type=int, default=1000)
    parser.add_argument("--ops", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    out = []
    for f in range(args.funcs):
        gen_func(out, f, args.ops, rng)
    with open(args.output, "w") as fh:
        fh.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
