#!/usr/bin/env python3
"""The PolyBench kernels on a GPU (`silica cosim --gpu`): for each kernel
of examples/polybench (MINI by default, i32 and f32), bench/system_cosim.py's
program (every memref filled with fixed pseudo-random values, the kernel
called once, every word printed as bits in hex) is built twice by
`silica cosim PROGRAM --kernel F --gpu --build-only`: in software, and
with F on the GPU through silica gpu's host side and driver layer. The
programs run where the GPU is (this machine has none: `build` writes a
directory and its run.sh, which the GPU machine runs; `compare` reads
what it printed):

    python3 bench/gpu_polybench.py build [--size mini|small] [--only a,b] [--dir DIR]
    (on the GPU machine)  bash DIR/run.sh OUTDIR
    python3 bench/gpu_polybench.py compare DIR OUTDIR [--no-record]

Integers must match bit for bit; floats within the documented tolerance
(relative 1e-4 of the larger magnitude, at least 1e-6: the GPU fuses
multiplies and adds, and the device library rounds its functions its own
way). The table gives each kernel's launches, the GPU's kernel time (the
driver layer's, copies excluded), the kernel call's wall time in each
program (the program times it: on the CPU; with the GPU, the driver's
start-up, the module's load, the copies and the launches, since the one
call is the program's first) and the whole programs' wall times.
The rows are appended to bench/results/gpu_polybench.csv and the table
of docs/BENCHMARKS.md written from them (bench/tables.py), unless
--no-record.
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import tables  # noqa: E402
from system_cosim import program  # noqa: E402

TABLE = tables.Table(
    "gpu_polybench", "docs/BENCHMARKS.md",
    ("kernel", "status", "values", "max_rel", "launches", "kernel_ms", "cpu_call_ms", "gpu_call_ms",
     "software_s", "gpu_s"),
    [
        tables.col("kernel", "kernel", right=False),
        tables.col("result", "status", right=False),
        tables.col("values", "values"),
        tables.col("max rel. error", "max_rel"),
        tables.col("launches", "launches"),
        tables.col("GPU kernels (ms)", "kernel_ms"),
        tables.col("call on the CPU (ms)", "cpu_call_ms"),
        tables.col("call with the GPU, driver start-up included (ms)", "gpu_call_ms"),
        tables.col("software (s)", "software_s"),
        tables.col("with the GPU (s)", "gpu_s"),
    ],
    key=("kernel",),
    command="python3 bench/gpu_polybench.py build; bash DIR/run.sh OUT (on the GPU); "
    "python3 bench/gpu_polybench.py compare DIR OUT")
TABLES = [TABLE]

TOLERANCE = 1e-4


def silica_binary():
    return os.path.join(ROOT, "target", "release", "silica")


def kernel_files(size, only):
    d = os.path.join(ROOT, "examples", "polybench", size)
    out = []
    for f in sorted(os.listdir(d)):
        m = re.match(r"(.+)\.(i32|f32)\.mlir$", f)
        if not m:
            continue
        name = f"{m.group(1)} ({m.group(2)})"
        if only and m.group(1) not in only and name not in only:
            continue
        out.append((name, os.path.join(d, f)))
    return out


def build(args):
    silica = args.silica or silica_binary()
    if os.path.exists(args.dir):
        shutil.rmtree(args.dir)
    os.makedirs(args.dir)
    run = ["#!/bin/bash", "# Runs each kernel's two programs; writes OUTDIR/<kernel>.{software,gpu}.{out,err,time}.",
           'out="${1:?OUTDIR}"', 'mkdir -p "$out"', 'here="$(cd "$(dirname "$0")" && pwd)"']
    built = []
    for name, path in kernel_files(args.size, args.only):
        with open(path) as f:
            text = f.read()
        top = re.search(r"func\.func @([\w-]+)\(", text).group(1)
        slug = re.sub(r"[^\w]+", "_", name).strip("_")
        work = os.path.join(args.dir, slug)
        os.makedirs(work)
        src = os.path.join(work, "program.mlir")
        with open(src, "w") as f:
            f.write(program(text, top, timed=True))
        r = subprocess.run([silica, "cosim", src, "--kernel", top, "--gpu", "--chip", args.chip,
                            "--build-only", "-o", work], capture_output=True, text=True)
        if r.returncode != 0:
            print(f"{name}: build failed: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode}")
            with open(os.path.join(args.dir, f"{slug}.build-failed"), "w") as f:
                f.write(r.stderr)
            continue
        for extra in os.listdir(work):
            if extra not in ("software", "gpu"):
                p = os.path.join(work, extra)
                if os.path.isfile(p):
                    os.remove(p)
        built.append(name)
        for prog in ("software", "gpu"):
            run.append(f'start=$(date +%s.%N); SILICA_GPU_TRACE=1 "$here/{slug}/{prog}" > "$out/{slug}.{prog}.out" '
                       f'2> "$out/{slug}.{prog}.err"; echo "$? $start $(date +%s.%N)" > "$out/{slug}.{prog}.time"')
    with open(os.path.join(args.dir, "run.sh"), "w") as f:
        f.write("\n".join(run) + "\n")
    print(f"{len(built)} kernel(s) built in {args.dir}; run: bash {args.dir}/run.sh OUTDIR")


def as_float(word, bits):
    if bits == 32:
        return struct.unpack("<f", struct.pack("<I", word & 0xFFFFFFFF))[0]
    return struct.unpack("<d", struct.pack("<Q", word & 0xFFFFFFFFFFFFFFFF))[0]


def compare_outputs(software, gpu, floats):
    """(status, values, max relative error) of the two outputs."""
    a, b = software.split(), gpu.split()
    if len(a) != len(b):
        return f"{len(b)} values, not {len(a)}", len(a), 0.0
    worst = 0.0
    for x, y in zip(a, b):
        if x == y:
            continue
        if not floats:
            return "differs", len(a), 0.0
        u, v = as_float(int(x, 16), 32), as_float(int(y, 16), 32)
        err = abs(u - v) / max(abs(u), abs(v), 1e-6 / TOLERANCE)
        worst = max(worst, err)
    if worst > TOLERANCE:
        return "differs", len(a), worst
    return "ok", len(a), worst


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def compare(args):
    rows = []
    for name, _ in kernel_files(args.size, args.only):
        slug = re.sub(r"[^\w]+", "_", name).strip("_")
        row = {"kernel": name}
        if os.path.exists(os.path.join(args.dir, f"{slug}.build-failed")):
            row["status"] = "build failed"
            rows.append(row)
            continue
        sw, gpu = (read(os.path.join(args.out, f"{slug}.{p}.out")) for p in ("software", "gpu"))
        times = [read(os.path.join(args.out, f"{slug}.{p}.time")) for p in ("software", "gpu")]
        if sw is None or gpu is None or None in times:
            row["status"] = "not run"
            rows.append(row)
            continue
        codes = [t.split() for t in times]
        if codes[1][0] != "0":
            err = (read(os.path.join(args.out, f"{slug}.gpu.err")) or "").strip().splitlines()
            row["status"] = f"exit {codes[1][0]}: {err[-1] if err else ''}"
            rows.append(row)
            continue
        status, values, worst = compare_outputs(sw, gpu, "(f32)" in name)
        err = read(os.path.join(args.out, f"{slug}.gpu.err")) or ""
        launches = re.findall(r"silica gpu: \S+ on .*: ([0-9.]+) ms", err)
        calls = [re.search(r"silica bench: kernel call (\d+) ns", read(os.path.join(args.out, f"{slug}.{p}.err")) or "")
                 for p in ("software", "gpu")]
        row.update({
            "status": status, "values": values, "max_rel": f"{worst:.1e}" if "(f32)" in name else "exact",
            "launches": len(launches), "kernel_ms": f"{sum(float(x) for x in launches):.3f}",
            "cpu_call_ms": f"{int(calls[0].group(1)) / 1e6:.3f}" if calls[0] else "",
            "gpu_call_ms": f"{int(calls[1].group(1)) / 1e6:.3f}" if calls[1] else "",
            "software_s": f"{float(codes[0][2]) - float(codes[0][1]):.3f}",
            "gpu_s": f"{float(codes[1][2]) - float(codes[1][1]):.3f}",
        })
        rows.append(row)
    ok = sum(r["status"] == "ok" for r in rows)
    print(f"{ok} of {len(rows)} kernels give the software's results")
    for r in rows:
        print(" | ".join(str(r.get(k, "")) for k in ("kernel", "status", "values", "max_rel", "launches",
                                                     "kernel_ms", "cpu_call_ms", "gpu_call_ms",
                                                     "software_s", "gpu_s")))
    if not args.no_record:
        if args.machine:
            os.environ["SILICA_BENCH_MACHINE"] = args.machine
        tables.record(TABLE, rows, tables.meta(args.silica or silica_binary()))
        tables.render([TABLE])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="step", required=True)
    b = sub.add_parser("build")
    b.add_argument("--dir", default=os.path.join(ROOT, "target", "gpu-bench"))
    c = sub.add_parser("compare")
    c.add_argument("dir")
    c.add_argument("out")
    c.add_argument("--no-record", action="store_true")
    c.add_argument("--machine", default=None, help="the GPU machine, for the table")
    for p in (b, c):
        p.add_argument("--size", default="mini", choices=["mini", "small"])
        p.add_argument("--only", default=None, type=lambda s: set(s.split(",")))
        p.add_argument("--silica", default=None)
        p.add_argument("--chip", default="sm_90")
    args = ap.parse_args()
    build(args) if args.step == "build" else compare(args)


if __name__ == "__main__":
    main()
