#!/usr/bin/env python3
"""silica dse benchmarks: the time of an exhaustive estimate-level run of a
space, and NSGA-II's front against the exhaustive front (hypervolume ratio)
at a given share of the evaluations, for several seeds.

Usage: bench/dse_front.py [--silica target/release/silica] [--jobs 2]
                          [--share 0.25] [--seeds 1,2,3]
Defaults: PolyBench 2mm (MINI, i32) with examples/dse/2mm.space.toml.
The hypervolume is exact (slicing), over the objectives of the run
(latency, lut, dsp, bram), with the reference point 1.1x the largest
value of each objective over every valid point of the exhaustive run.
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
OBJECTIVES = ["latency_cycles", "lut", "dsp", "bram"]


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


def valid_points(directory):
    with open(os.path.join(directory, "points.csv")) as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    return [[float(r[o]) for o in OBJECTIVES] for r in rows]


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
    ap.add_argument("--input", default="examples/polybench/mini/2mm.i32.mlir")
    ap.add_argument("--top", default="k2mm")
    ap.add_argument("--space", default="examples/dse/2mm.space.toml")
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--share", type=float, default=0.25)
    ap.add_argument("--seeds", default="1,2,3")
    a = ap.parse_args()
    common = [a.input, "--top", a.top, "--space", a.space]
    with tempfile.TemporaryDirectory() as tmp:
        ex = os.path.join(tmp, "exhaustive")
        secs, out = run(a.silica, common + ["--search", "exhaustive", "--jobs", a.jobs], ex)
        print(out.splitlines()[0])
        print(out.splitlines()[1])
        print(f"exhaustive: {secs:.1f} s wall with --jobs {a.jobs}")
        allp = valid_points(ex)
        ref = [1.1 * max(p[k] for p in allp) + 1 for k in range(len(OBJECTIVES))]
        hv_ex = hypervolume(allp, ref)
        seen = sum(1 for _ in open(os.path.join(ex, "points.csv"))) - 1
        for seed in a.seeds.split(","):
            d = os.path.join(tmp, f"nsga-{seed}")
            budget = int(a.share * seen)
            secs, out = run(
                a.silica,
                common + ["--search", "nsga2", "--budget", str(budget), "--seed", seed],
                d,
            )
            pts = valid_points(d)
            evaluated = out.splitlines()[1].split(",")[1].split()[0]
            ratio = hypervolume(pts, ref) / hv_ex
            print(
                f"nsga2 seed {seed}: {evaluated} evaluations of {seen} points "
                f"({100.0 * int(evaluated) / seen:.1f}%), {secs:.1f} s, "
                f"hypervolume ratio {ratio:.4f}"
            )


if __name__ == "__main__":
    main()
