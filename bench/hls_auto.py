#!/usr/bin/env python3
"""`silica hls --auto` against the default design, per kernel and target.

For every kernel (the PolyBench MINI kernels of examples/polybench/mini,
i32 and f32, and fir, conv2d and matvec of bench/hls_qor_kernels.mlir and
the convolutions of bench/hls_auto_stencils.mlir (`--variants i16` for theirs); or
--only NAME,...) and every target (ecp5-25k and ice40-up5k, or --targets):
  - the default design: `silica hls FILE --top F --target T --sim`
    (co-simulated bit for bit): its cycles and its roofline fraction;
  - `--auto --sim` (with --bitstream: also placed, and closed as
    `silica hls` closes): the chosen design's cycles (co-simulation), its
    roofline fraction (F.json "roofline": the roofline's bound over the
    cycles), LUT/FF/DSP/BRAM (placed with --bitstream, else the estimate),
    Fmax (nextpnr with --bitstream, else the estimate's), us at that
    clock, the speed-up over the default design in us, the points the
    search evaluated and its seconds (the wall time of the whole
    `silica hls --auto --sim` command).
A kernel the flow rejects, or a design that does not fit or meet the
clock, is a row with the first error.

A run appends its rows to bench/results/hls_auto.csv and writes the
table of docs/QOR.md from it (bench/tables.py), unless --no-record; a run
without --bitstream leaves out the rows of the same --auto cycles as a
kernel's placed row, which would hide it.

Usage: python3 bench/hls_auto.py [--silica PATH] [--targets T,..]
         [--only NAME,..] [--variants i32,f32] [--bitstream] [--jobs N]
         [--no-record]
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import tables  # noqa: E402

FIELDS = ("kernel", "variant", "target", "status", "default_cycles", "default_fraction",
          "cycles", "fraction", "lut", "ff", "dsp", "bram", "fmax", "placed", "us", "speedup",
          "points", "seconds")

TABLE = tables.Table(
    "hls_auto", "docs/QOR.md", FIELDS,
    [tables.col("kernel", "kernel", right=False),
     tables.col("type", "variant", right=False),
     tables.col("target", "target", right=False),
     tables.col("default cycles", "default_cycles", "int"),
     tables.col("default roofline", "default_fraction", ".2f"),
     tables.col("--auto cycles", "cycles", "int"),
     tables.col("roofline", "fraction", ".2f"),
     tables.col("LUT", "lut", "int"),
     tables.col("FF", "ff", "int"),
     tables.col("DSP", "dsp", "int"),
     tables.col("BRAM", "bram", "int"),
     tables.col("MHz", "fmax", ".1f"),
     tables.col("placed", "placed", right=False),
     tables.col("us", "us", ".2f"),
     tables.col("speed-up (us)", "speedup", ".2f"),
     tables.col("points", "points", "int"),
     tables.col("s", "seconds", ".1f"),
     tables.col("status", "status", right=False)],
    key=("kernel", "variant", "target"),
    command="python3 bench/hls_auto.py")
TABLES = [TABLE]

EXTRA = ("fir", "conv2d", "matvec")


def kernels(variants, only):
    """(name, variant, file, top) of the kernel set."""
    out = []
    small = os.path.join(HERE, "hls_qor_kernels.mlir")
    with open(small) as f:
        text = f.read()
    for top in EXTRA:
        if re.search(rf"func\.func @{top}\(", text):
            out.append((top, "i32", small, top))
    stencils = os.path.join(HERE, "hls_auto_stencils.mlir")
    with open(stencils) as f:
        for top in re.findall(r"func\.func @(\w+)_(i16|i32|f32)\(", f.read()):
            out.append((top[0], top[1], stencils, f"{top[0]}_{top[1]}"))
    for variant in variants:
        pattern = os.path.join(ROOT, "examples", "polybench", "mini", f"*.{variant}.mlir")
        for path in sorted(glob.glob(pattern)):
            name = os.path.basename(path)[: -len(f".{variant}.mlir")]
            with open(path) as f:
                top = re.search(r"func\.func @(\w+)\(", f.read()).group(1)
            out.append((name, variant, path, top))
    if only:
        out = [k for k in out if k[0] in only]
    return [k for k in out if k[1] in variants]


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip().replace(ROOT + os.sep, "")
    return text.strip().splitlines()[-1] if text.strip() else "failed"


def hls(silica, path, top, target, out, extra):
    cmd = [silica, "hls", path, "--top", top, "--target", target, "-o", out, "--sim"] + extra
    start = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.time() - start
    report = os.path.join(out, top + ".json")
    if r.returncode != 0 and not os.path.exists(report):
        return None, first_error(r.stderr), seconds, r.stdout
    with open(report) as f:
        j = json.load(f)
    why = first_error(r.stderr) if r.returncode != 0 else ""
    return j, why, seconds, r.stdout


def period(j):
    """The clock period of the design of report `j`: the asked clock
    where the design meets it, else the one it reaches (placed, or the
    estimate's)."""
    syn = j["resources"].get("synthesis") or {}
    fmax = syn.get("fmax_mhz") or j["resources"]["estimate"].get("fmax_mhz")
    return max(j["clock_ns"], 1000.0 / float(fmax)) if fmax else j["clock_ns"]


def run(silica, kernel, target, bitstream, workdir):
    name, variant, path, top = kernel
    row = {"kernel": name, "variant": variant, "target": target}
    base = os.path.join(workdir, f"{name}.{variant}.{target}")
    j, why, _, _ = hls(silica, path, top, target, base + ".default", [])
    if j is None:
        row["status"] = "default: " + why
        return row
    row["default_cycles"] = j["latency"]["min"]
    row["default_fraction"] = j["roofline"]["fraction"]
    default_us = j["latency"]["min"] * period(j) / 1000.0
    extra = ["--auto"] + (["--bitstream"] if bitstream else [])
    j, why, seconds, stdout = hls(silica, path, top, target, base + ".auto", extra)
    row["seconds"] = round(seconds, 1)
    m = re.search(r"auto: (\d+) of the", stdout)
    row["points"] = m.group(1) if m else 0
    if j is None:
        row["status"] = why
        return row
    cycles = j["latency"]["min"]
    row["cycles"] = cycles
    row["fraction"] = j["roofline"]["fraction"]
    syn = j["resources"].get("synthesis")
    est = j["resources"]["estimate"]
    if syn:
        row.update({k: syn.get(k) for k in ("lut", "ff", "dsp", "bram")})
        row["lut"] = syn.get("lc", row["lut"])  # iCE40: the logic cells
        row["fmax"] = syn.get("fmax_mhz")
        row["placed"] = "met" if syn.get("clock_met") else "missed"
    else:
        row.update({k: est.get(k) for k in ("lut", "ff", "dsp", "bram")})
        row["lut"] = est.get("lc", row["lut"])  # iCE40: the logic cells
        row["fmax"] = est.get("fmax_mhz")
        row["placed"] = "estimate"
    row["us"] = round(cycles * period(j) / 1000.0, 3)
    row["speedup"] = round(default_us / row["us"], 2) if row["us"] else ""
    row["status"] = why or "ok"
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--silica", default=None)
    ap.add_argument("--targets", default="ecp5-25k,ice40-up5k")
    ap.add_argument("--variants", default="i32,f32")
    ap.add_argument("--only", default="")
    ap.add_argument("--bitstream", action="store_true")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--no-record", action="store_true")
    args = ap.parse_args()
    silica = args.silica
    if silica is None:
        for p in ("target/release/silica", "target/debug/silica"):
            if os.path.exists(os.path.join(ROOT, p)):
                silica = os.path.join(ROOT, p)
                break
    targets = [t for t in args.targets.split(",") if t]
    only = {k for k in args.only.split(",") if k}
    todo = [(k, t) for k in kernels(args.variants.split(","), only) for t in targets]
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="hls-auto-") as workdir:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            rows = list(pool.map(lambda kt: run(silica, kt[0], kt[1], args.bitstream, workdir), todo))
    for r in rows:
        print(",".join(str(r.get(f, "")) for f in FIELDS))
    if not args.no_record:
        if not args.bitstream:
            rows = keep_placed(rows)
        tables.record(TABLE, rows, tables.meta(silica, started=started))
        tables.render(TABLES)


def keep_placed(rows):
    """`rows` less those that would hide a placed row (its newest, placed
    with --bitstream) of the same kernel, type, target and --auto cycles:
    an estimate's figures say less than the placed design's."""
    newest = {}
    for r in tables.read(TABLE.path):
        newest[tuple(r.get(c, "") for c in TABLE.key)] = r
    kept = []
    for r in rows:
        old = newest.get(tuple(str(r.get(c, "")) for c in TABLE.key))
        placed = old is not None and old.get("placed") in ("met", "missed")
        if placed and str(old.get("cycles")) == str(r.get("cycles")):
            print(f"{r['kernel']} {r['variant']} {r['target']}: its placed row "
                  f"({old['date']}) has the same cycles; kept", file=sys.stderr)
            continue
        kept.append(r)
    return kept


if __name__ == "__main__":
    main()
