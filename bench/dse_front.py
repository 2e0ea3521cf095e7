#!/usr/bin/env python3
"""silica dse benchmarks: the time of an exhaustive estimate-level run of a
space, and NSGA-II's front against the exhaustive front (hypervolume ratio)
at a given share of the evaluations, for several seeds.

Usage: bench/dse_front.py [--silica target/release/silica] [--jobs 2]
                          [--share 0.25] [--seeds 1,2,3]
Defaults: PolyBench gemm (MINI, i32) with bench/dse_gemm.space.toml (768
points) on ecp5-85k, objectives latency_us, lut, ff, dsp. The
hypervolume is exact (slicing), over the objectives of the run, with the
reference point 1.1x the largest value of each objective (plus one) over
every valid point of the exhaustive run. NSGA-II's evaluations are the
points it evaluated (not those it took from its own cache: every run has
a fresh cache).

The runs are appended to bench/results/dse_front.csv and the table of
docs/QOR.md written from them (bench/tables.py), unless --no-record.
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import tables  # noqa: E402
# `--objectives` names and their points.csv columns.
COLUMNS = {"latency": "latency_cycles", "latency_us": "latency_us", "lut": "lut",
           "ff": "ff", "dsp": "dsp", "bram": "bram"}


def share_cell(r):
    if r.get("evaluations") and r.get("points"):
        return f"{100.0 * int(r['evaluations']) / int(r['points']):.1f}%"
    return ""


def found_cell(r):
    return f"{r['found']} of {r['front_size']}" if r.get("found") else ""


TABLE = tables.Table(
    "dse_front", "docs/QOR.md",
    ("search", "seed", "evaluations", "points", "valid", "wall_s", "hv_ratio", "found", "front_size"),
    [tables.col("search", "search", right=False),
     tables.col("seed", "seed"),
     tables.col("evaluations", "evaluations", "int"),
     tables.Column("share", share_cell),
     tables.col("wall s", "wall_s", ".1f"),
     tables.col("hypervolume ratio", "hv_ratio"),
     tables.Column("front points found", found_cell)],
    command="python3 bench/dse_front.py --silica target/release/silica --jobs 2")
TABLES = [TABLE]


def dominates(a, b):
    return all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))


def front(points):
    out = []
    for i, p in enumerate(points):
        if any(dominates(q, p) for q in points) or p in points[:i]:
            continue
        out.append(p)
    return out


def hypervolume(points, ref):
    points = [p for p in points if all(x < r for x, r in zip(p, ref))]
    return slice_hv(front(points), ref)


def slice_hv(points, ref):
    if not points:
        return 0.0
    if len(ref) == 1:
        return ref[0] - min(p[0] for p in points)
    points = sorted(points, key=lambda p: p[-1])
    volume = 0.0
    for i, p in enumerate(points):
        nxt = points[i + 1][-1] if i + 1 < len(points) else ref[-1]
        h = nxt - p[-1]
        if h > 0:
            volume += h * slice_hv(front([q[:-1] for q in points[: i + 1]]), ref[:-1])
    return volume


def valid_points(directory, objectives):
    with open(os.path.join(directory, "points.csv")) as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    return [[float(r[COLUMNS[o]]) for o in objectives] for r in rows]


def run(silica, args, out):
    start = time.monotonic()
    p = subprocess.run(
        [silica, "dse", *args, "-o", out, "--cache", os.path.join(out, "cache.jsonl")],
        cwd=ROOT, capture_output=True, text=True,
    )
    if p.returncode != 0:
        sys.exit(p.stderr)
    return time.monotonic() - start, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--silica", default=os.path.join(ROOT, "target/release/silica"))
    ap.add_argument("--input", default="examples/polybench/mini/gemm.i32.mlir")
    ap.add_argument("--top", default="gemm")
    ap.add_argument("--space", default="bench/dse_gemm.space.toml")
    ap.add_argument("--target", default="ecp5-85k")
    ap.add_argument("--objectives", default="latency_us,lut,ff,dsp")
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--share", type=float, default=0.25)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--no-record", action="store_true",
                    help="do not append to bench/results/ nor write docs/QOR.md's table")
    a = ap.parse_args()
    started = time.time()
    rows = []
    objectives = a.objectives.split(",")
    common = [a.input, "--top", a.top, "--space", a.space, "--target", a.target,
              "--objectives", a.objectives]
    with tempfile.TemporaryDirectory() as tmp:
        ex = os.path.join(tmp, "exhaustive")
        secs, out = run(a.silica, common + ["--search", "exhaustive", "--jobs", a.jobs], ex)
        print(out.splitlines()[0])
        print(out.splitlines()[1])
        print(f"exhaustive: {secs:.1f} s wall with --jobs {a.jobs}")
        allp = valid_points(ex, objectives)
        ref = [1.1 * max(p[k] for p in allp) + 1 for k in range(len(objectives))]
        hv_ex = hypervolume(allp, ref)
        best = front(allp)
        print(f"exhaustive front: {len(best)} point(s) of {len(allp)} valid")
        seen = sum(1 for _ in open(os.path.join(ex, "points.csv"))) - 1
        rows.append({"search": "exhaustive", "evaluations": seen, "points": seen, "valid": len(allp),
                     "wall_s": f"{secs:.1f}", "hv_ratio": "1", "found": len(best), "front_size": len(best)})
        for seed in a.seeds.split(","):
            d = os.path.join(tmp, f"nsga-{seed}")
            budget = int(a.share * seen)
            secs, out = run(
                a.silica,
                common + ["--search", "nsga2", "--budget", str(budget), "--seed", seed,
                          "--jobs", a.jobs],
                d,
            )
            pts = valid_points(d, objectives)
            evaluated = out.splitlines()[1].split(",")[1].split()[0]
            ratio = hypervolume(pts, ref) / hv_ex
            rows.append({"search": "nsga2", "seed": seed, "evaluations": evaluated, "points": seen,
                         "valid": len(pts), "wall_s": f"{secs:.1f}", "hv_ratio": f"{ratio:.4f}",
                         "found": sum(1 for p in best if p in pts), "front_size": len(best)})
            print(
                f"nsga2 seed {seed}: {evaluated} evaluations of {seen} points "
                f"({100.0 * int(evaluated) / seen:.1f}%), {secs:.1f} s, "
                f"hypervolume ratio {ratio:.4f}, "
                f"{sum(1 for p in best if p in pts)} of the {len(best)} front point(s) found"
            )
    if not a.no_record:
        tables.record(TABLE, rows, tables.meta(a.silica, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    main()
