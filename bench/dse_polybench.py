#!/usr/bin/env python3
"""silica dse on PolyBench kernels: the Pareto fronts of
gemm, 2mm, jacobi-2d and conv2d on ecp5-25k with the best point's latency
against the design without directives (the speed-up, the best point
confirmed by co-simulation), the estimate's error on the validated points,
and the multipliers' efficiency of every Pareto point (also for atax,
bicg, gesummv and mvt).

Usage: bench/dse_polybench.py [--silica target/release/silica] [--jobs 2]
           [--validate 3] [--validate-level pnr] [--only gemm,mvt]
           [--no-sim] [--tables-only] [--json out.json]

Each kernel: `silica dse FILE --top T --space bench/dse_polybench/K.space.toml
--target ecp5-25k --clock-ns 10 --objectives latency,lut,dsp` at the
estimate level (exhaustive: the spaces are small), with `--validate N`
(every kernel; `--validate-level synth` for yosys alone). The baseline is the same evaluation of the kernel
without directives (`pareto.json`'s `baseline`); the speed-up is its
cycles over the fastest Pareto point's (same clock, so also in us). The
fastest point's directives file is then co-simulated (`silica hls --sim
--directives pareto/point-N.toml`) and its measured cycles printed.

Efficiency (`pareto.json`'s `mul_efficiency`): the program's
multiplications (those the design without directives executes) divided
by the multipliers the point instantiates, divided by its latency in
cycles: 1.0 when every multiplier does useful work in every cycle. The
best point near the fastest: the Pareto point of the highest efficiency
within 10% of the fastest point's cycles.

A run (not --tables-only) appends each kernel's front to
bench/results/dse_fronts.csv and each validated point to
bench/results/dse_validation.csv, and writes the tables of docs/QOR.md
from them (bench/tables.py), unless --no-record.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import tables  # noqa: E402
MINI = "examples/polybench/mini"
# name, input, top, whether its front and speed-up are reported.
KERNELS = [
    ("gemm", f"{MINI}/gemm.i32.mlir", "gemm", True),
    ("2mm", f"{MINI}/2mm.i32.mlir", "k2mm", True),
    ("jacobi-2d", f"{MINI}/jacobi-2d.i32.mlir", "jacobi_2d", True),
    ("conv2d", "bench/hls_qor_kernels.mlir", "conv2d", True),
    ("atax", f"{MINI}/atax.i32.mlir", "atax", False),
    ("bicg", f"{MINI}/bicg.i32.mlir", "bicg", False),
    ("gesummv", f"{MINI}/gesummv.i32.mlir", "gesummv", False),
    ("mvt", f"{MINI}/mvt.i32.mlir", "mvt", False),
]


FRONT_FIELDS = ("kernel", "space", "front", "baseline_cycles", "point", "cycles", "cosim_cycles", "lut", "dsp",
                "multipliers", "efficiency", "best_point", "best_cycles", "best_multipliers",
                "best_efficiency", "wall_s")
VALIDATION_FIELDS = ("kernel", "point", "level", "status", "cycles", "lut_est", "lut", "ff_est", "ff",
                     "dsp_est", "dsp", "bram_est", "bram", "mhz_est", "mhz", "us_est", "us")


def speedup_cell(r):
    if r.get("baseline_cycles") and r.get("cycles"):
        return f"{int(r['baseline_cycles']) / int(r['cycles']):.2f}x"
    return ""


def best_cell(r):
    """The best point near the fastest, as `point: cycles (+x%), multipliers, efficiency`."""
    if r.get("best_point") in ("", None, "none"):
        return r.get("best_point") or ""
    if r["best_point"] == r.get("point"):
        return "the same"
    more = (int(r["best_cycles"]) - int(r["cycles"])) / int(r["cycles"]) * 100
    pct = f"{more:.2f}" if more < 1 else f"{more:.1f}"
    return (f"{r['best_point']}: {int(r['best_cycles']):,} (+{pct}%), {r['best_multipliers']}, "
            f"{float(r['best_efficiency']):.2f}")


FRONTS = tables.Table(
    "dse_fronts", "docs/QOR.md", FRONT_FIELDS,
    [tables.col("kernel", "kernel", right=False),
     tables.col("space", "space", "int"),
     tables.col("front", "front", "int"),
     tables.col("baseline cycles", "baseline_cycles", "int"),
     tables.col("fastest point", "point"),
     tables.col("cycles", "cycles", "int"),
     tables.col("co-sim cycles", "cosim_cycles", "int"),
     tables.Column("speed-up", speedup_cell),
     tables.col("LUT", "lut", "int"),
     tables.col("DSP", "dsp", "int"),
     tables.col("multipliers", "multipliers", "int"),
     tables.col("efficiency", "efficiency"),
     tables.Column("best within 10%: cycles, multipliers, efficiency", best_cell, right=False),
     tables.col("wall s", "wall_s", ",.0f")],
    key=("kernel",),
    command="python3 bench/dse_polybench.py --jobs 2 --validate 0")


def err_cell(e, m):
    def cell(r):
        if r.get(e) in ("", None) or r.get(m) in ("", None):
            return ""
        return f"{100 * rel(float(r[e]), float(r[m])):+.0f}%"
    return cell


def validation_columns():
    cols = [tables.col("kernel", "kernel", right=False), tables.col("point", "point"),
            tables.col("level", "level", right=False), tables.col("cycles", "cycles", "int")]
    for label, k, fmt in (("LUT", "lut", "int"), ("FF", "ff", "int"), ("DSP", "dsp", "int"),
                          ("BRAM", "bram", "int"), ("MHz", "mhz", ".1f"), ("us", "us", ".2f")):
        est = "predicted MHz" if k == "mhz" else f"{label} est."
        got = "Fmax MHz" if k == "mhz" else label
        cols += [tables.col(est, k + "_est", fmt), tables.col(got, k, fmt),
                 tables.Column("error", err_cell(k + "_est", k))]
    return cols


def validation_summary(rows):
    """Median and max |error| of each figure over the points shown, per level."""
    out = []
    for level in dict.fromkeys(r["level"] for r in rows):
        at = [r for r in rows if r["level"] == level]
        parts = []
        for label, k in (("LUT", "lut"), ("FF", "ff"), ("DSP", "dsp"), ("BRAM", "bram"), ("Fmax", "mhz"),
                         ("latency in us", "us")):
            errs = [abs(rel(float(r[k + "_est"]), float(r[k]))) for r in at
                    if r.get(k + "_est") not in ("", None) and r.get(k) not in ("", None)]
            if errs:
                parts.append(f"{label} {100 * statistics.median(errs):.0f}% / {100 * max(errs):.0f}%")
        out.append(f"`{level}`, {len(at)} points, median / max |error|: " + ", ".join(parts) + ".")
    return [" ".join(out)] if out else []


VALIDATION = tables.Table(
    "dse_validation", "docs/QOR.md", VALIDATION_FIELDS, validation_columns(),
    key=("kernel", "point", "level"),
    command="python3 bench/dse_polybench.py --jobs 2 --validate 3 [--validate-level synth] --no-sim",
    select=lambda r: r.get("status", "ok") == "ok", order=lambda r: r["level"] != "pnr",
    summary=validation_summary)
TABLES = [FRONTS, VALIDATION]


def best_near(front, best):
    """The Pareto point of the highest efficiency within 10% of the
    fastest point's cycles (fewer cycles on a tie), or None."""
    limit = 1.1 * best["estimate"]["latency_cycles"]
    near = [p for p in front["front"] if p["estimate"] and p.get("mul_efficiency") is not None
            and p["estimate"]["latency_cycles"] <= limit]
    if not near:
        return None
    return max(near, key=lambda p: (p["mul_efficiency"], -p["estimate"]["latency_cycles"]))


def front_row(r):
    p, b, best = r["pareto"], r["pareto"]["baseline"], r["best"]
    e = best["estimate"]
    near = best_near(p, best)
    row = {"kernel": r["name"], "space": p["space_size"], "front": len(p["front"]),
           "baseline_cycles": b["latency_cycles"], "point": best["id"], "cycles": e["latency_cycles"],
           "cosim_cycles": r.get("cosim_cycles") or "", "lut": e["lut"], "dsp": e["dsp"],
           "multipliers": e["multipliers"],
           "efficiency": "" if best.get("mul_efficiency") is None else f"{best['mul_efficiency']:.2f}",
           "best_point": "none", "wall_s": "" if r["seconds"] is None else f"{r['seconds']:.1f}"}
    if near:
        ne = near["estimate"]
        row.update({"best_point": near["id"], "best_cycles": ne["latency_cycles"],
                    "best_multipliers": ne["multipliers"], "best_efficiency": f"{near['mul_efficiency']:.2f}"})
    return row


def validation_rows(r, level):
    out = []
    for pt in r["pareto"]["front"]:
        v = pt.get("validated")
        if not v:
            continue
        row = {"kernel": r["name"], "point": pt["id"], "level": level}
        if v.get("status") != "ok":
            row["status"] = v.get("reason") or v.get("error") or "failed"
            out.append(row)
            continue
        e, m = pt["estimate"], v["metrics"]
        row.update({"status": "ok", "cycles": e["latency_cycles"]})
        for k in ("lut", "ff", "dsp", "bram"):
            row[k + "_est"], row[k] = e[k], m[k]
        if m.get("fmax_mhz"):
            row.update({"mhz_est": e["predicted_mhz"], "mhz": m["fmax_mhz"], "us_est": e["latency_us"],
                        "us": m["latency_us"]})
        out.append(row)
    return out


def dse(a, name, path, top, validate):
    out = os.path.join(a.out, name)
    cmd = [a.silica, "dse", path, "--top", top,
           "--space", f"bench/dse_polybench/{name}.space.toml",
           "--target", a.target, "--clock-ns", str(a.clock_ns),
           "--objectives", "latency,lut,dsp", "--jobs", str(a.jobs), "-o", out]
    if validate:
        cmd += ["--validate", str(validate)]
        if a.validate_level != "pnr":
            cmd += ["--validate-level", a.validate_level]
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    secs = time.monotonic() - start
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}\n{p.stderr}")
    with open(os.path.join(ROOT, out, "pareto.json")) as f:
        front = json.load(f)
    return front, p.stdout, secs, out


def cosim(a, path, top, toml, out):
    cmd = [a.silica, "hls", path, "--top", top, "--target", a.target,
           "--clock-ns", str(a.clock_ns), "--sim", "--directives", toml, "-o", out]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    m = re.search(r"co-simulation \(seed \d+\): (\d+) values match, latency (\d+) cycles",
                  p.stdout + p.stderr)
    if p.returncode != 0 or not m:
        return None, (p.stderr or p.stdout).strip().splitlines()[:1]
    return int(m.group(2)), None


def fastest(front):
    """The fastest Pareto point (fewest multipliers, then LUTs, on a tie)."""
    pts = [p for p in front["front"] if p["estimate"]]
    return min(pts, key=lambda p: (p["estimate"]["latency_cycles"],
                                   p["estimate"]["multipliers"], p["estimate"]["lut"]))


def rel(e, m):
    return (e - m) / m if m else (0.0 if e == 0 else float("inf"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--silica", default=os.path.join(ROOT, "target/release/silica"))
    ap.add_argument("--out", default="bench/out/dse_polybench")
    ap.add_argument("--target", default="ecp5-25k")
    ap.add_argument("--clock-ns", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--validate", type=int, default=3)
    ap.add_argument("--validate-level", default="pnr")
    ap.add_argument("--only", default=None)
    ap.add_argument("--no-sim", action="store_true")
    ap.add_argument("--tables-only", action="store_true",
                    help="print the tables from the outputs of an earlier run (--out)")
    ap.add_argument("--json", default=None)
    ap.add_argument("--no-record", action="store_true",
                    help="do not append to bench/results/ nor write docs/QOR.md's tables")
    a = ap.parse_args()
    started = time.time()
    a.silica = os.path.abspath(a.silica)
    only = a.only.split(",") if a.only else None
    results = []
    for name, path, top, is_front in KERNELS:
        if only and name not in only:
            continue
        if a.tables_only:
            out = os.path.join(a.out, name)
            with open(os.path.join(ROOT, out, "summary.txt")) as f:
                stdout = f.read()
            with open(os.path.join(ROOT, out, "pareto.json")) as f:
                front = json.load(f)
            secs = None
        else:
            front, stdout, secs, out = dse(a, name, path, top, a.validate)
        r = {"name": name, "top": top, "front_kernel": is_front, "seconds": secs,
             "summary": stdout.splitlines()[:2], "pareto": front}
        best = fastest(front)
        r["best"] = best
        report = os.path.join(ROOT, out, f"hls-{best['id']}", "report.txt")
        if is_front and a.tables_only and os.path.exists(report):
            with open(report) as f:
                m = re.search(r"latency: (\d+) cycles .*measured by co-simulation", f.read())
            r["cosim_cycles"], r["cosim_error"] = (int(m.group(1)), None) if m else (None, None)
        elif is_front and not a.no_sim and not a.tables_only:
            toml = os.path.join(out, best["directives"])
            kernel = os.path.join(out, best["kernel"]) if best.get("kernel") else path
            r["cosim_cycles"], r["cosim_error"] = cosim(
                a, kernel, top, toml, os.path.join(out, f"hls-{best['id']}"))
        results.append(r)
        wall = f" ({secs:.1f} s wall)" if secs is not None else ""
        print(f"{name}: {stdout.splitlines()[1]}{wall}", flush=True)

    print(f"\n## Fronts on {a.target} at {a.clock_ns:g} ns (objectives latency, LUT, DSP)\n")
    print("| kernel | space | front | baseline cycles | fastest point | cycles | co-sim cycles "
          "| speed-up | LUT | DSP | multipliers | efficiency |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        if not r["front_kernel"]:
            continue
        p, b = r["pareto"], r["pareto"]["baseline"]
        e = r["best"]["estimate"]
        sim = r.get("cosim_cycles") or (r.get("cosim_error") or ["not run"])[0]
        eff = r["best"].get("mul_efficiency")
        print(f"| {r['name']} | {p['space_size']} | {len(p['front'])} | {b['latency_cycles']} "
              f"| {r['best']['directives']} | {e['latency_cycles']} | {sim} "
              f"| {b['latency_cycles'] / e['latency_cycles']:.2f}x | {e['lut']} | {e['dsp']} "
              f"| {e['multipliers']} | {'' if eff is None else f'{eff:.2f}'} |")

    print("\n## Pareto points (estimate) and the multipliers' efficiency\n")
    print("| kernel | point | cycles | LUT | DSP | multiplications | multipliers | efficiency | choices |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in results:
        b = r["pareto"]["baseline"]
        beff = (b["mul_ops"] / (b["multipliers"] * b["latency_cycles"])
                if b["multipliers"] else None)
        print(f"| {r['name']} | baseline | {b['latency_cycles']} | {b['lut']} | {b['dsp']} "
              f"| {b['mul_ops']} | {b['multipliers']} | {'' if beff is None else f'{beff:.2f}'} | |")
        for pt in r["pareto"]["front"]:
            e = pt["estimate"]
            eff = pt.get("mul_efficiency")
            choices = " ".join(f"{k}={v}" for k, v in pt["choices"].items())
            print(f"| {r['name']} | {pt['id']} | {e['latency_cycles']} | {e['lut']} | {e['dsp']} "
                  f"| {e['mul_ops']} | {e['multipliers']} | {'' if eff is None else f'{eff:.2f}'} "
                  f"| {choices} |")

    print("\n## Estimate against validation\n")
    print("| kernel | point | cycles | LUT est. | LUT | error | FF est. | FF | error | DSP est. "
          "| DSP | error | BRAM est. | BRAM | error | predicted MHz | Fmax MHz | error | us est. | us "
          "| error |")
    print("|---|---:|---:" + "|---:" * 18 + "|")
    errors = {"lut": [], "ff": [], "dsp": [], "bram": [], "mhz": [], "us": []}
    per_kernel = []
    for r in results:
        before = {k: len(v) for k, v in errors.items()}
        for pt in r["pareto"]["front"]:
            v = pt.get("validated")
            if not v:
                continue
            if v.get("status") != "ok":
                print(f"| {r['name']} | {pt['id']} | {v.get('reason') or v.get('error')} |")
                continue
            e, m = pt["estimate"], v["metrics"]
            row = [r["name"], pt["id"], e["latency_cycles"]]
            for k in ("lut", "ff", "dsp", "bram"):
                err = rel(e[k], m[k])
                errors[k].append(err)
                row += [e[k], m[k], f"{100 * err:+.0f}%"]
            if m.get("fmax_mhz"):
                err = rel(e["predicted_mhz"], m["fmax_mhz"])
                errors["mhz"].append(err)
                row += [f"{e['predicted_mhz']:.1f}", f"{m['fmax_mhz']:.1f}", f"{100 * err:+.0f}%"]
                err = rel(e["latency_us"], m["latency_us"])
                errors["us"].append(err)
                row += [f"{e['latency_us']:.2f}", f"{m['latency_us']:.2f}", f"{100 * err:+.0f}%"]
            else:
                row += ["", "", "", f"{e['latency_us']:.2f}", "", ""]
            print("| " + " | ".join(str(x) for x in row) + " |")
        per_kernel.append((r["name"], {k: v[before[k]:] for k, v in errors.items()}))
    print("\n## Estimate error per kernel (median and max |error| over its validated points)\n")
    print("| kernel | points | " + " | ".join(errors) + " |")
    print("|---|---:" + "|---" * len(errors) + "|")
    for name, errs in per_kernel:
        if not errs["lut"]:
            continue
        cells = [f"{100 * statistics.median(map(abs, e)):.0f}% / {100 * max(map(abs, e)):.0f}%"
                 if e else "" for e in errs.values()]
        print(f"| {name} | {len(errs['lut'])} | " + " | ".join(cells) + " |")
    print()
    for k, errs in errors.items():
        if errs:
            abs_errs = [abs(x) for x in errs]
            print(f"{k}: {len(errs)} point(s), median |error| {100 * statistics.median(abs_errs):.0f}%, "
                  f"max |error| {100 * max(abs_errs):.0f}%")
    if not a.tables_only and not a.no_record:
        run = tables.meta(a.silica, started=started)
        tables.record(FRONTS, [front_row(r) for r in results], run)
        if a.validate:
            tables.record(VALIDATION, [row for r in results for row in validation_rows(r, a.validate_level)], run)
        tables.render(TABLES)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
