#!/usr/bin/env python3
"""LLVM lowering benchmarks, silica against mlir-opt-22 + mlir-translate-22.

1. Compile time: lowering (scf-to-cf, convert-to-llvm, reconcile casts)
   plus translation to LLVM IR of a large generated module
   (bench/gen_pretty.py), silica's time over the MLIR tools' (bar: <= 0.5).
2. Run time: examples/kernels.mlir with its main repeated, lowered by each
   pipeline, compiled by llc-22 -O3 and linked by cc; the MLIR
   executable's time over silica's, i.e. silica's speed relative to
   mlir-opt's (bar: >= 0.95). Both executables must print the same.

The two rows are appended to bench/results/llvm_bench.csv and the table
of docs/BENCHMARKS.md written from them (bench/tables.py), unless
--no-record.

Usage: python3 bench/llvm_bench.py [--runs 5] [--funcs 1000] [--reps 300] [--no-record]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SILICA = os.path.join(ROOT, "target", "release", "silica")
sys.path.insert(0, HERE)
import tables  # noqa: E402

TABLE = tables.Table(
    "llvm_bench", "docs/BENCHMARKS.md", ("job", "silica_s", "mlir_s", "ratio", "bar"),
    [tables.col("job", "job", right=False),
     tables.col("silica s", "silica_s"),
     tables.col("MLIR 22 tools s", "mlir_s"),
     tables.col("ratio", "ratio"),
     tables.col("bar", "bar")],
    key=("job",), command="python3 bench/llvm_bench.py --runs 5 --reps 3000")
TABLES = [TABLE]
LOWER_AFFINE = ["--lower-affine"]
TO_LLVM = ["--convert-scf-to-cf", "--convert-to-llvm", "--reconcile-unrealized-casts"]


def timed(cmd, runs, **kw):
    """Median wall time of `cmd` (a shell string) over `runs` runs."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, shell=True, check=True, **kw)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def compile_time(tmp, runs, funcs):
    src = os.path.join(tmp, "pretty.mlir")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_pretty.py"), src, "--funcs", str(funcs)], check=True)
    passes = " ".join(TO_LLVM)
    ours = f"{SILICA} opt {passes} {src} | {SILICA} translate --to-llvmir -o {tmp}/ours.ll"
    theirs = f"mlir-opt-22 {passes} {src} | mlir-translate-22 --mlir-to-llvmir -o {tmp}/theirs.ll"
    t_ours = timed(ours, runs)
    t_theirs = timed(theirs, runs)
    subprocess.run(["llvm-as-22", f"{tmp}/ours.ll", "-o", "/dev/null"], check=True)
    size = os.path.getsize(src) / 1e6
    print(f"compile: {size:.1f} MB, {funcs} functions: lowering + translation")
    print(f"  silica {t_ours:.3f} s, mlir-opt-22 | mlir-translate-22 {t_theirs:.3f} s, ratio {t_ours / t_theirs:.2f}x (bar <= 0.5)")
    return {"job": f"lowering + translation, {size:.1f} MB", "silica_s": f"{t_ours:.3f}",
            "mlir_s": f"{t_theirs:.3f}", "ratio": f"{t_ours / t_theirs:.2f}x time", "bar": "<= 0.5x"}


def repeated_kernels(tmp, reps):
    """examples/kernels.mlir with main renamed and called `reps` times."""
    text = open(os.path.join(ROOT, "examples", "kernels.mlir")).read()
    text = text.replace("func.func @main() -> i32", "func.func @run_once() -> i32")
    text += f"""
func.func @main() -> i32 {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {reps} : index
  scf.for %i = %c0 to %n step %c1 {{
    %r = func.call @run_once() : () -> i32
  }}
  %ok = arith.constant 0 : i32
  return %ok : i32
}}
"""
    path = os.path.join(tmp, "kernels.mlir")
    with open(path, "w") as f:
        f.write(text)
    return path


def run_time(tmp, runs, reps):
    src = repeated_kernels(tmp, reps)
    passes = " ".join(LOWER_AFFINE + TO_LLVM)
    builds = {
        "silica": f"{SILICA} opt {passes} {src} | {SILICA} translate --to-llvmir -o {tmp}/k_silica.ll",
        "mlir": f"mlir-opt-22 {passes} {src} | mlir-translate-22 --mlir-to-llvmir -o {tmp}/k_mlir.ll",
    }
    outputs = {}
    times = {}
    for name, build in builds.items():
        subprocess.run(build, shell=True, check=True)
        subprocess.run(["llc-22", "-O3", "-filetype=obj", "-relocation-model=pic", f"{tmp}/k_{name}.ll", "-o", f"{tmp}/k_{name}.o"], check=True)
        subprocess.run(["cc", f"{tmp}/k_{name}.o", "-o", f"{tmp}/k_{name}"], check=True)
        outputs[name] = subprocess.run([f"{tmp}/k_{name}"], capture_output=True, check=True).stdout
    if outputs["silica"] != outputs["mlir"]:
        sys.exit("the two executables print different results")
    for name in builds:
        times[name] = timed(f"{tmp}/k_{name} > /dev/null", runs)
    speed = times["mlir"] / times["silica"]
    print(f"run: examples/kernels.mlir x{reps}, llc-22 -O3")
    print(f"  silica {times['silica']:.3f} s, mlir-opt-22 {times['mlir']:.3f} s, speed {speed:.2f}x of mlir-opt's (bar >= 0.95)")
    return {"job": f"kernels x{reps}, llc-22 -O3", "silica_s": f"{times['silica']:.3f}",
            "mlir_s": f"{times['mlir']:.3f}", "ratio": f"{speed:.2f}x speed", "bar": ">= 0.95x"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--funcs", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=300)
    ap.add_argument("--no-record", action="store_true",
                    help="do not append to bench/results/ nor write docs/BENCHMARKS.md's table")
    args = ap.parse_args()
    started = time.time()
    if not os.path.exists(SILICA):
        sys.exit("build first: cargo build --release -p silica-cli")
    with tempfile.TemporaryDirectory() as tmp:
        rows = [compile_time(tmp, args.runs, args.funcs), run_time(tmp, args.runs, args.reps)]
    if not args.no_record:
        tables.record(TABLE, rows, tables.meta(SILICA, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    main()
