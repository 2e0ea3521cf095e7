#!/usr/bin/env python3
"""Writes a large generic-form MLIR file of unregistered ops for the IR benchmark.

The file holds `--funcs` function-like ops ("bench.func", one region with a
few blocks and branches) of about `--ops` ops each, mixing integer, float,
vector and memref types, attributes, properties and nested regions.
"""
import argparse
import random


def gen_func(out, idx, n_ops, rng):
    out.append(f'"bench.func"() <{{sym_name = "f{idx}", arity = 3 : i32}}> ({{\n')
    out.append("^bb0(%arg0: i32, %arg1: f32, %arg2: memref<16x16xf32>):\n")
    ints = ["%arg0"]
    floats = ["%arg1"]
    counter = 0
    per_block = max(n_ops // 4, 1)
    block = 0
    for i in range(n_ops):
        kind = rng.randrange(6)
        name = f"%{counter}"
        if kind == 0:
            a, b = rng.choice(ints), rng.choice(ints)
            out.append(f'  {name} = "bench.addi"({a}, {b}) {{overflow = "nsw"}} : (i32, i32) -> i32\n')
            ints.append(name)
        elif kind == 1:
            a, b = rng.choice(floats), rng.choice(floats)
            out.append(f'  {name} = "bench.mulf"({a}, {b}) <{{fastmath = 7 : i32}}> : (f32, f32) -> f32\n')
            floats.append(name)
        elif kind == 2:
            v = rng.randrange(-1000, 1000)
            out.append(f'  {name} = "bench.constant"() {{value = {v} : i32}} : () -> i32\n')
            ints.append(name)
        elif kind == 3:
            x = rng.choice(ints)
            out.append(f'  {name} = "bench.load"(%arg2, {x}, {x}) : (memref<16x16xf32>, i32, i32) -> f32\n')
            floats.append(name)
        elif kind == 4:
            f = rng.choice(floats)
            out.append(f'  "bench.store"({f}, %arg2) {{tag = "st{i}", dims = [1, 2, 3]}} : (f32, memref<16x16xf32>) -> ()\n')
            counter -= 1
        else:
            a = rng.choice(ints)
            out.append(f'  {name}:2 = "bench.loop"({a}) ({{\n')
            out.append(f"  ^bb0(%iv: index, %acc: i32):\n")
            out.append(f'    %s = "bench.step"(%acc, %iv) : (i32, index) -> vector<4xi32>\n')
            out.append(f'    "bench.yield"(%s) : (vector<4xi32>) -> ()\n')
            out.append(f"  }}) : (i32) -> (i32, vector<4xi32>)\n")
            ints.append(f"{name}#0")
        counter += 1
        if (i + 1) % per_block == 0 and i + 1 < n_ops:
            block += 1
            c = rng.choice(ints)
            out.append(f'  "bench.br"({c}) [^bb{block}] : (i32) -> ()\n')
            out.append(f"^bb{block}(%b{block}: i32):\n")
            ints = ["%arg0", f"%b{block}"]
            floats = ["%arg1"]
    out.append(f'  "bench.return"({rng.choice(ints)}) : (i32) -> ()\n')
    out.append("}) : () -> ()\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("output")
    parser.add_argument("--funcs", type=int, default=1200)
    parser.add_argument("--ops", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(args.output, "w") as f:
        f.write('"builtin.module"() ({\n')
        for idx in range(args.funcs):
            chunk = []
            gen_func(chunk, idx, args.ops, rng)
            f.write("".join(chunk))
        f.write("}) : () -> ()\n")


if __name__ == "__main__":
    main()
