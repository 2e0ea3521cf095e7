#!/usr/bin/env python3
"""Dataflow: the same directives with the loop nests run at once and one
after another, per kernel.

For every kernel (the PolyBench MINI i32 kernels of
examples/polybench/mini whose body has two loop nests or more, or --only
NAME,...) on --target (ecp5-25k):
  - the directives: none (`default`), with --flatten each nest's
    outermost loop `flatten = true` (`flatten`: each nest one pipeline),
    with --interchange each nest's but the first `interchange = true`
    on its outermost loop (`interchange`: its two outer loops swapped, so
    that 3mm's F is made and read column by column), with both, both
    (`flatten + interchange`), or with --auto those `silica hls --auto`
    chooses (its F.directives.toml, `auto`);
  - `silica hls FILE --top F --sim --directives D` with `dataflow = true`
    added to D (co-simulated bit for bit). The flow schedules the nests
    both ways with the same directives and ports, and keeps the faster
    (its report's note gives both static latencies, exact: the kept one
    is also measured): the cycles of each, their ratio, which was kept,
    and the estimate's LUT/DSP/BRAM of the kept design; `status` is the
    directive's outcome where it was not honoured.

A run appends its rows to bench/results/dataflow.csv and writes the
table of docs/QOR.md from it (bench/tables.py), unless --no-record.

Usage: python3 bench/dataflow.py [--silica PATH] [--target T]
         [--only NAME,..] [--flatten] [--interchange] [--auto] [--no-record]
"""
import argparse
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
from hls_auto import first_error, kernels  # noqa: E402

FIELDS = ("kernel", "variant", "target", "directives", "status", "sequential_cycles",
          "dataflow_cycles", "ratio", "kept", "lut", "dsp", "bram")

TABLE = tables.Table(
    "dataflow", "docs/QOR.md", FIELDS,
    [tables.col("kernel", "kernel", right=False),
     tables.col("directives", "directives", right=False),
     tables.col("nest after nest", "sequential_cycles", "int"),
     tables.col("dataflow", "dataflow_cycles", "int"),
     tables.col("ratio", "ratio", ".2f"),
     tables.col("kept", "kept", right=False),
     tables.col("LUT", "lut", "int"),
     tables.col("DSP", "dsp", "int"),
     tables.col("BRAM", "bram", "int"),
     tables.col("status", "status", right=False)],
    key=("kernel", "variant", "target", "directives"),
    command="python3 bench/dataflow.py && python3 bench/dataflow.py --only 2mm,3mm --flatten && python3 bench/dataflow.py --only 2mm,3mm,mvt --auto && python3 bench/dataflow.py --only 2mm,3mm --interchange && python3 bench/dataflow.py --only 3mm --flatten --interchange")
TABLES = [TABLE]


def nests(path):
    """The loop nests of the function's body (affine.for at its depth)."""
    with open(path) as f:
        return len(re.findall(r"^  affine\.for", f.read(), re.M))


def hls(silica, path, top, target, out, extra):
    cmd = [silica, "hls", path, "--top", top, "--target", target, "-o", out, "--sim"] + extra
    r = subprocess.run(cmd, capture_output=True, text=True)
    report = os.path.join(out, top + ".json")
    if r.returncode != 0 or not os.path.exists(report):
        return None, first_error(r.stderr)
    with open(report) as f:
        j = json.load(f)
    with open(os.path.join(out, "report.txt")) as f:
        text = f.read()
    return j, text


def with_dataflow(base, path):
    """Directives file text `base` with `dataflow = true` at its top."""
    lines = [line for line in base.splitlines() if not line.startswith("dataflow")]
    with open(path, "w") as f:
        f.write("dataflow = true\n" + "\n".join(lines) + "\n")
    return path


def run(silica, kernel, target, auto, flatten, interchange, workdir):
    name, variant, path, top = kernel
    row = {"kernel": name, "variant": variant, "target": target,
           "directives": "auto" if auto else "default"}
    base = os.path.join(workdir, f"{name}.{variant}")
    text = ""
    if flatten or interchange:
        row["directives"] = " + ".join(
            name for name, on in (("flatten", flatten), ("interchange", interchange)) if on)
        for n in range(nests(path)):
            keys = ("flatten = true\n" if flatten else "") + (
                "interchange = true\n" if interchange and n > 0 else "")
            if keys:
                text += f'[[loop]]\nlabel = "{top}/{n}"\n{keys}'
    if auto:
        j, why = hls(silica, path, top, target, base + ".auto", ["--auto"])
        if j is None:
            row["status"] = "auto: " + why
            return row
        with open(os.path.join(base + ".auto", top + ".directives.toml")) as f:
            text = f.read()
    d = with_dataflow(text, f"{base}.toml")
    j, report = hls(silica, path, top, target, base + ".dataflow", ["--directives", d])
    if j is None:
        row["status"] = report
        return row
    at_once = re.search(r"run at once \((\d+) cycles; one after another, (\d+)\)", report)
    after = re.search(r"run one after another \((\d+) cycles; at once, (\d+)\)", report)
    if at_once:
        row["dataflow_cycles"], row["sequential_cycles"] = map(int, at_once.groups())
        row["kept"] = "at once"
    elif after:
        row["sequential_cycles"], row["dataflow_cycles"] = map(int, after.groups())
        row["kept"] = "one after another"
    if at_once or after:
        row["ratio"] = round(row["sequential_cycles"] / row["dataflow_cycles"], 2)
    est = j["resources"]["estimate"]
    row.update({k: est.get(k) for k in ("lut", "dsp", "bram")})
    row["lut"] = est.get("lc", row["lut"])  # iCE40: the logic cells
    m = re.search(r"dataflow \([^)]*\): not honoured: (.*)", report)
    row["status"] = m.group(1) if m else "ok"
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--silica", default=None)
    ap.add_argument("--target", default="ecp5-25k")
    ap.add_argument("--only", default="")
    ap.add_argument("--auto", action="store_true")
    ap.add_argument("--flatten", action="store_true",
                    help="each nest flattened into one pipeline (its outermost loop `flatten = true`)")
    ap.add_argument("--interchange", action="store_true",
                    help="each nest but the first with its two outer loops swapped (`interchange = true`)")
    ap.add_argument("--no-record", action="store_true")
    args = ap.parse_args()
    silica = args.silica
    if silica is None:
        for p in ("target/release/silica", "target/debug/silica"):
            if os.path.exists(os.path.join(ROOT, p)):
                silica = os.path.join(ROOT, p)
                break
    only = {k for k in args.only.split(",") if k}
    todo = [k for k in kernels(["i32"], only) if "polybench" in k[2] and nests(k[2]) >= 2]
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="dataflow-") as workdir:
        rows = [run(silica, k, args.target, args.auto, args.flatten, args.interchange, workdir)
                for k in todo]
    for r in rows:
        print(",".join(str(r.get(f, "")) for f in FIELDS))
    if not args.no_record:
        tables.record(TABLE, rows, tables.meta(silica, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    main()
