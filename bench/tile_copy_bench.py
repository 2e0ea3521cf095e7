#!/usr/bin/env python3
"""Tiling and copy generation benchmark: a generated file of affine kernels
(gemm, 2-d stencils, 2-d convolutions, matrix-vector products and
transposed copies over memrefs of random static sizes; at least
`--megabytes` MB of text) run through
`affine-loop-tile{tile-size=16}` then
`affine-data-copy-generate{generate-dma=false fast-mem-space=1
skip-non-unit-stride-loops}` by silica and mlir-opt-22, alternately in the
same invocation. Both tools' outputs are compared first, function by
function (the count of functions printed identically is reported).
Wall-clock and CPU (user + system) times are reported: on a loaded
machine the CPU ratio is the steadier one.

The run (of the default 5 MB) is appended to bench/results/tile_copy_bench.csv
and the table of docs/BENCHMARKS.md written from it (bench/tables.py),
unless --no-record.

Usage: python3 bench/tile_copy_bench.py [--runs 3] [--megabytes 5] [--silica PATH] [--no-record]
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
from dependence_bench import timing_row, timing_table  # noqa: E402

TABLE = timing_table("tile_copy_bench", ("functions identical", "identical"),
                     "python3 bench/tile_copy_bench.py --runs 3")
TABLES = [TABLE]
PIPELINE = ("builtin.module(func.func(affine-loop-tile{tile-size=16},"
            "affine-data-copy-generate{generate-dma=false fast-mem-space=1 skip-non-unit-stride-loops}))")


def gemm(name, rnd):
    n, m, k = (rnd.choice([32, 48, 64, 96, 128]) for _ in range(3))
    return f"""func.func @{name}(%A: memref<{n}x{k}xf32>, %B: memref<{k}x{m}xf32>, %C: memref<{n}x{m}xf32>) {{
  affine.for %i = 0 to {n} {{
    affine.for %j = 0 to {m} {{
      affine.for %k = 0 to {k} {{
        %a = affine.load %A[%i, %k] : memref<{n}x{k}xf32>
        %b = affine.load %B[%k, %j] : memref<{k}x{m}xf32>
        %c = affine.load %C[%i, %j] : memref<{n}x{m}xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<{n}x{m}xf32>
      }}
    }}
  }}
  return
}}
"""


def stencil(name, rnd):
    n = rnd.choice([34, 66, 130, 258])
    t = f"memref<{n}x{n}xf32>"
    return f"""func.func @{name}(%A: {t}, %B: {t}) {{
  affine.for %i = 1 to {n - 1} {{
    affine.for %j = 1 to {n - 1} {{
      %c = affine.load %A[%i, %j] : {t}
      %n = affine.load %A[%i - 1, %j] : {t}
      %s = affine.load %A[%i + 1, %j] : {t}
      %w = affine.load %A[%i, %j - 1] : {t}
      %e = affine.load %A[%i, %j + 1] : {t}
      %0 = arith.addf %c, %n : f32
      %1 = arith.addf %0, %s : f32
      %2 = arith.addf %1, %w : f32
      %3 = arith.addf %2, %e : f32
      affine.store %3, %B[%i, %j] : {t}
    }}
  }}
  return
}}
"""


def conv(name, rnd):
    n = rnd.choice([32, 64, 128])
    k = rnd.choice([3, 5])
    o = n - k + 1
    return f"""func.func @{name}(%I: memref<{n}x{n}xi32>, %W: memref<{k}x{k}xi32>, %O: memref<{o}x{o}xi32>) {{
  affine.for %i = 0 to {o} {{
    affine.for %j = 0 to {o} {{
      affine.for %p = 0 to {k} {{
        affine.for %q = 0 to {k} {{
          %x = affine.load %I[%i + %p, %j + %q] : memref<{n}x{n}xi32>
          %w = affine.load %W[%p, %q] : memref<{k}x{k}xi32>
          %y = affine.load %O[%i, %j] : memref<{o}x{o}xi32>
          %m = arith.muli %x, %w : i32
          %s = arith.addi %y, %m : i32
          affine.store %s, %O[%i, %j] : memref<{o}x{o}xi32>
        }}
      }}
    }}
  }}
  return
}}
"""


def matvec(name, rnd):
    n, m = rnd.choice([64, 128, 256]), rnd.choice([64, 128, 256])
    return f"""func.func @{name}(%A: memref<{n}x{m}xf64>, %x: memref<{m}xf64>, %y: memref<{n}xf64>) {{
  affine.for %i = 0 to {n} {{
    affine.for %j = 0 to {m} {{
      %a = affine.load %A[%i, %j] : memref<{n}x{m}xf64>
      %b = affine.load %x[%j] : memref<{m}xf64>
      %c = affine.load %y[%i] : memref<{n}xf64>
      %p = arith.mulf %a, %b : f64
      %s = arith.addf %c, %p : f64
      affine.store %s, %y[%i] : memref<{n}xf64>
    }}
  }}
  return
}}
"""


def transpose(name, rnd):
    n = rnd.choice([64, 128, 256, 512])
    t = f"memref<{n}x{n}xf32>"
    return f"""func.func @{name}(%A: {t}, %B: {t}) {{
  affine.for %i = 0 to {n} {{
    affine.for %j = 0 to {n} {{
      %v = affine.load %A[%j, %i] : {t}
      affine.store %v, %B[%i, %j] : {t}
    }}
  }}
  return
}}
"""


def generate(megabytes, seed=11):
    rnd = random.Random(seed)
    kinds = [gemm, stencil, conv, matvec, transpose]
    parts, size, n = [], 0, 0
    while size < megabytes * 1_000_000:
        f = rnd.choice(kinds)(f"k{n}", rnd)
        parts.append(f)
        size += len(f)
        n += 1
    return "".join(parts), n


def run(cmd):
    """Wall-clock seconds, CPU seconds (user + system) and stdout of `cmd`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed:\n{p.stderr[-2000:]}")
    return elapsed, cpu, p.stdout


def functions(text):
    """The printed functions, map aliases expanded, by name."""
    aliases = dict(re.findall(r"^(#map\d*) = (affine_map<.*>)$", text, re.M))
    body = re.sub(r"#map\d*\b", lambda m: aliases.get(m.group(0), m.group(0)), text)
    return dict(re.findall(r"func\.func @(\w+)(.*?\n  \})", body, re.S))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--megabytes", type=float, default=5.0)
    parser.add_argument("--silica", default=os.path.join(HERE, "..", "target", "release", "silica"))
    parser.add_argument("--mlir-opt", default="mlir-opt-22")
    parser.add_argument("--no-record", action="store_true",
                        help="do not append to bench/results/ nor write docs/BENCHMARKS.md's table")
    args = parser.parse_args()
    started = time.time()
    text, count = generate(args.megabytes)
    with tempfile.TemporaryDirectory(prefix="silica-tile-copy-bench-") as d:
        path = os.path.join(d, "kernels.mlir")
        with open(path, "w") as f:
            f.write(text)
        silica = [args.silica, "opt", f"--pass-pipeline={PIPELINE}", path]
        mlir = [args.mlir_opt, f"--pass-pipeline={PIPELINE}", path]
        _, _, s_out = run(silica)
        _, _, m_out = run(mlir)
        fs, fm = functions(s_out), functions(m_out)
        same = sum(fs.get(k) == v for k, v in fm.items())
        ts, tm, cs, cm, ratios = [], [], [], [], []
        for _ in range(args.runs):
            a, ca, _ = run(silica)
            b, cb, _ = run(mlir)
            ts.append(a)
            tm.append(b)
            cs.append(ca)
            cm.append(cb)
            ratios.append(a / b)
    print(f"{len(text) / 1e6:.1f} MB, {count} functions; {same}/{len(fm)} printed identically")
    print(f"wall: silica {min(ts):.3f} s  mlir-opt-22 {min(tm):.3f} s  "
          f"ratio {min(ts) / min(tm):.3f} (median of pairs {statistics.median(ratios):.3f})")
    print(f"cpu (user + system): silica {min(cs):.3f} s  mlir-opt-22 {min(cm):.3f} s  "
          f"ratio {min(cs) / min(cm):.3f}")
    if not args.no_record and args.megabytes == 5.0:
        row = dict(timing_row(ts, tm, cs, cm, ratios), identical=f"{same:,}/{len(fm):,}")
        tables.record(TABLE, [row], tables.meta(args.silica, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    main()
