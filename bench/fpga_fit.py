#!/usr/bin/env python3
"""Which kernels of the HLS set fit which device.

For every kernel of the set (bench/hls_qor_kernels.mlir, then the
PolyBench MINI i32 kernels, then the f32 ones; `fpga_qor.kernels`) and
every target: `silica hls FILE --top F --target T --clock-ns C
--bitstream`, one at a time, and from what `silica hls` reports
(F.json's `resources.synthesis`, or its error for a design that does not
fit): bitstream yes/no, LUT/FF/BRAM/DSP used against the device's, Fmax,
and for a design that does not fit, by how much. A design that misses
the clock is run again at nextpnr's Fmax less 10% (whole ns), at most
three runs (a retry whose Fmax falls below the run before it, or whose
design does not fit, ends them, the row keeping the run before it): a missed clock is no bitstream, and the
question here is whether the design fits. "does not fit (estimate, not synthesised)":
silica's estimate is many times the device and yosys is not run;
"(placer)": nextpnr's placer could not place the packed netlist at the
device's utilisation limit.

Resumable: each run's figures go to OUT/results/T.NAME.json and a run
whose file is there is not run again, unless --again (a row whose design
has changed since: the new run replaces the file once it ends). OUT/runs/
keeps silica's outputs of the last run.

Usage: python3 bench/fpga_fit.py OUT [--silica PATH] [--targets T,..]
         [--only NAME,..] [--variants i32,f32] [--clock T=NS,..]
         [--timeout S] [--tries N] [--directives FILE] [--again] [--jobs N]
         [--table] [--errors [--reestimate]]
(--tries: the runs at most per row, 3 unless told; --jobs N: N rows at
once, each by a run of this script of its own, the f32 rows first; --table prints the
markdown table of what OUT holds and runs nothing;
--errors, the estimate's errors of its rows with a bitstream: the
estimated LUTs against the placed ones, the predicted Fmax against
nextpnr's, counted within 25% and 20%;
with --reestimate, the estimate of `--silica` now: `silica hls` again
without --bitstream at each row's clock, against the row's synthesis,
the rows whose design changed since placed (other cycles) marked and
counted apart)

The rows a run places are appended to bench/results/fpga_fit.csv, and
`--errors --reestimate` appends the estimate's errors to
bench/results/fpga_estimate.csv; the tables of docs/QOR.md are written
from them (bench/tables.py). --no-record leaves both alone.
"""
import argparse
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fpga_qor  # noqa: E402
import tables  # noqa: E402

DEVICES = {
    # LUT, FF, BRAM, DSP available (hls/src/model/target/device.rs).
    "ice40-up5k": {"LUT": 5280, "FF": 5280, "BRAM": 30, "DSP": 8},
    "ecp5-25k": {"LUT": 24288, "FF": 24288, "BRAM": 56, "DSP": 28},
}
CLOCKS = {"ice40-up5k": 30.0, "ecp5-25k": 20.0}
OVER = re.compile(r"(\d+) (LUT|FF|BRAM|DSP|LC) of (\d+) \((\d+)%\)")


def kernel_set(variants):
    """(name, variant, file, top) in the order to run them: the small
    kernels (i32) first, then PolyBench by variant."""
    out = []
    for name, path, top in fpga_qor.kernels():
        if not path.endswith(".i32.mlir"):
            out.append((name, "i32", path, top))
    for variant in variants:
        for name, path, top in fpga_qor.kernels(variant):
            if path.endswith(f".{variant}.mlir"):
                out.append((name, variant, path, top))
    return [k for k in out if k[1] in variants]


def tag(directives):
    """`.NAME` for a directives file NAME.toml (results and outputs apart)."""
    return "." + os.path.splitext(os.path.basename(directives))[0] if directives else ""


STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


def stop_on_signal(p):
    """While `p` runs: on SIGTERM, SIGHUP (a queue stopped by killing its
    process group) or SIGINT (Ctrl-C), stops `p`'s process group too,
    which is not in ours, and exits: no run goes on without a results
    file to show for it. Gives the handlers it replaced."""
    def stop(signum, _frame):
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        sys.exit(128 + signum)
    return {s: signal.signal(s, stop) for s in STOP_SIGNALS}


def run_silica(cmd, timeout):
    """Runs `cmd` in its own process group (the tools it starts are
    stopped with it on timeout or when this script is stopped); (exit
    status or None, stderr, seconds)."""
    start = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    previous = stop_on_signal(p)
    try:
        _, err = p.communicate(timeout=timeout)
        return p.returncode, err, time.time() - start
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return None, "", time.time() - start
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def measure(silica, name, variant, path, top, target, clock, outdir, timeout, directives=None):
    d = os.path.join(outdir, "runs", f"{target}.{name}.{variant}{tag(directives)}")
    # A run that fails writes nothing: the reports of an earlier run (a
    # retry's first clock) must not be read as its own.
    shutil.rmtree(d, ignore_errors=True)
    cmd = [silica, "hls", path, "--top", top, "-o", d, "--target", target,
           "--clock-ns", f"{clock:g}", "--bitstream"]
    if directives:
        cmd += ["--directives", directives]
    rc, err, secs = run_silica(cmd, timeout)
    r = {"name": name + tag(directives), "variant": variant, "target": target, "clock_ns": clock,
         "seconds": round(secs, 1), "command": " ".join(cmd).replace(fpga_qor.ROOT + os.sep, "")}
    if rc is None:
        r["why"] = f"timed out after {timeout} s"
        return r
    # The error says whether the design kept does not fit (a note of
    # silica's closure may say so of a try before it).
    errors = "\n".join(line for line in err.splitlines() if line.startswith("error:"))
    over = OVER.findall(errors) if "does not fit" in errors else []
    if over:
        r["overflow"] = [{"what": w, "used": int(u), "available": int(a), "percent": int(p)}
                         for u, w, a, p in over]
        r["message"] = fpga_qor.first_error(err)
    report = os.path.join(d, top + ".json")
    if os.path.exists(report):
        with open(report) as f:
            j = json.load(f)
        r["estimate"] = j["resources"]["estimate"]
        r["cycles"] = j["latency"]["min"]
        syn = j["resources"]["synthesis"]
        if syn:
            r["synthesis"] = {k: syn.get(k) for k in
                              ("lut", "ff", "bram", "dsp", "io", "fmax_mhz", "clock_met", "slack_ns",
                               "bitstream", "netlist")}
            r["synthesis"]["scan"] = bool(syn.get("scan"))
            # Timing closure's placements (silica hls --bitstream schedules
            # a design that missed its clock again with a clock uncertainty).
            r["synthesis"]["closure"] = syn.get("closure", [])
            r["synthesis"]["from_estimate"] = bool(syn.get("from_estimate"))
    if rc != 0 and "synthesis" not in r and not over:
        r["why"] = fpga_qor.first_error(err)
        trap = re.search(r"wasm trap: (.*)", err)
        if trap:
            r["why"] += f" (YoWASP: wasm trap: {trap.group(1).strip()})"
    return r


def missed_fmax(r):
    """nextpnr's Fmax of a run that placed and routed its design and
    missed the clock; None otherwise."""
    s = r.get("synthesis")
    return s["fmax_mhz"] if s and not s["clock_met"] and s["fmax_mhz"] else None


def measure_fitting(silica, k, target, clock, outdir, timeout, directives=None, tries=3):
    """measure(), and where the clock is missed again at nextpnr's Fmax
    less 10% (whole ns), at most `tries` runs in all. The schedule at the
    slower clock is another design, which may be slower still, or
    larger: a retry whose design does not fit ends the retries, and the
    row keeps the run before it (`fell_at` the retry's clock; the reports
    in OUT/runs are the retry's). A retry whose Fmax falls goes on: the
    next one, slower still, may meet its clock (stopping there left rows
    with their clock missed that a slower clock would have met)."""
    r = measure(silica, *k, target, clock, outdir, timeout, directives)
    missed, seconds = [], r["seconds"]
    for _ in range(tries - 1):
        fmax = missed_fmax(r)
        if not fmax:
            break
        missed.append({"clock_ns": r["clock_ns"], "fmax_mhz": fmax})
        slower = float(math.ceil(max(r["clock_ns"], 1000.0 / fmax) * 1.1))
        retry = measure(silica, *k, target, slower, outdir, timeout, directives)
        seconds += retry["seconds"]
        if "overflow" in retry:
            missed.pop()
            r["fell_at"] = {"clock_ns": retry["clock_ns"], "fmax_mhz": None}
            break
        r = retry
    if missed or "fell_at" in r:
        r["missed_at"] = missed
        r["seconds"] = round(seconds, 1)
    return r


FIT_FIELDS = ("kernel", "type", "target", "status", "scan", "lut", "lut_over", "lut_unit", "ff", "ff_over",
              "bram", "bram_over", "dsp", "dsp_over", "fmax_mhz", "clock_ns", "missed", "closure", "fell_at",
              "cycles", "seconds")
RESOURCES = (("LUT", "lut"), ("FF", "ff"), ("BRAM", "bram"), ("DSP", "dsp"))


def closure_try(t):
    """One placement of silica's closure (F.json's synthesis.closure):
    its margins and what it placed at."""
    margins = f"{t['clock_uncertainty_ns']:g} ns"
    if t.get("fit_share"):
        margins += f", {t['fit_share'] * 100:.0f}% of the device"
    if t.get("overflow"):
        at = f"does not fit ({t['area_ratio']:.2f}x)" if t.get("area_ratio") else "does not fit"
    else:
        at = f"{t['fmax_mhz']:.1f} MHz" if t.get("fmax_mhz") else "?"
    return f"{margins}: {at}, {t.get('latency')} cycles"


def fit_fields(r):
    """A row's results (OUT/results/*.json) as a row of fpga_fit.csv."""
    s = r.get("synthesis")
    row = {"kernel": r["name"], "type": r["variant"], "target": r["target"]}
    if "overflow" in r:
        status = "does not fit"
        if "its estimate needs" in r.get("message", ""):
            status += " (estimate, not synthesised)"
        elif "nextpnr cannot place it" in r.get("message", ""):
            status += " (placer)"
    elif s:
        status = "yes" if s["bitstream"] else "clock missed"
    else:
        status = re.sub(r"\S*/", "", r.get("why", "?")).replace("|", "/")
    row["status"] = status
    if s and "overflow" not in r:
        row["scan"] = "yes" if s.get("scan") else "no"
    for what, key in RESOURCES:
        over = [o for o in r.get("overflow", []) if o["what"] == what or (what == "LUT" and o["what"] == "LC")]
        if over:
            row[key], row[key + "_over"] = over[0]["used"], over[0]["percent"]
            if over[0]["what"] == "LC":
                row["lut_unit"] = "LC"
        elif s and not s.get("from_estimate"):
            # iCE40 places logic cells ("lc"), which the estimate counts.
            row[key] = s.get("lc", s[key]) if key == "lut" else s[key]
    row["fmax_mhz"] = f"{s['fmax_mhz']:.1f}" if s and s["fmax_mhz"] else ""
    row["clock_ns"] = f"{r['clock_ns']:g}"
    missed = r.get("missed_at", [])
    if isinstance(missed, dict):
        missed = [missed]
    row["missed"] = ", ".join(f"{m['clock_ns']:g}" for m in missed)
    row["closure"] = "; ".join(closure_try(t) for t in (s or {}).get("closure", []))
    if "fell_at" in r:
        f = r["fell_at"]
        at = f"{f['fmax_mhz']:.1f} MHz, slower" if f["fmax_mhz"] else "does not fit"
        row["fell_at"] = f"{f['clock_ns']:g}: {at}"
    row["cycles"] = r.get("cycles", "")
    row["seconds"] = f"{r['seconds']:.0f}"
    return row


def logic(figures):
    """The logic of F.json's `estimate` or `synthesis` that the device's
    capacity counts: iCE40's logic cells (`lc`), else its LUTs."""
    return figures.get("lc", figures["lut"])


def resource_cell(row, what, key):
    """`used / available`, in bold with the percentage where over (the
    estimate's where the design was refused from it: only those over)."""
    available = DEVICES[row["target"]][what]
    used, over = row.get(key, ""), row.get(key + "_over", "")
    unit = " LC" if what == "LUT" and row.get("lut_unit") == "LC" else ""
    if over != "":
        if used == "":
            return f"**{over}% of {available:,}{unit}**"
        return f"**{int(used):,}{unit} / {available:,}: {over}%**"
    return f"{int(used):,} / {available:,}" if used != "" else ""


def bitstream_cell(row):
    status = row["status"]
    if status == "yes":
        bit = "yes"
    elif status == "clock missed":
        bit = "no: clock missed"
    else:
        bit = "no: " + status
    if row.get("scan") == "yes":
        bit += " (scan)"
    return bit


def clock_cell(row):
    clock = row["clock_ns"]
    if row.get("missed"):
        clock += f" (missed {row['missed']})"
    if row.get("closure"):
        clock += f" (closure: {row['closure']})"
    if row.get("fell_at"):
        clock += f" (at {row['fell_at']})"
    return clock


def fit_cells(row):
    """The cells of a row of the fit table (stdout and docs/QOR.md)."""
    return [row["kernel"], row["type"], row["target"], bitstream_cell(row),
            *(resource_cell(row, what, key) for what, key in RESOURCES),
            row.get("fmax_mhz", ""), clock_cell(row), row.get("cycles", ""), row.get("seconds", "")]


FIT_HEADER = ["kernel", "type", "target", "bitstream", "LUT", "FF", "BRAM", "DSP", "Fmax MHz", "clock ns",
              "cycles", "s"]


def fit_counts(target, rows):
    bits = sum(1 for r in rows if r["status"] == "yes")
    misfit = sum(1 for r in rows if r["status"].startswith("does not fit"))
    return f"{target}: {bits} of {len(rows)} with a bitstream, {misfit} do not fit, {len(rows) - bits - misfit} other"


def table(results):
    print("| " + " | ".join(FIT_HEADER) + " |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = [fit_fields(r) for r in results]
    for row in rows:
        print("| " + " | ".join(str(c) for c in fit_cells(row)) + " |")
    for t in sorted({r["target"] for r in rows}):
        print("\n" + fit_counts(t, [r for r in rows if r["target"] == t]))


SMALL = ("vadd", "dot", "fir", "conv2d", "gemm16", "matvec")


def set_order(r):
    """The kernel set's order: i32 then f32, the small kernels first."""
    k = r["kernel"]
    return (r["type"] != "i32", SMALL.index(k) if k in SMALL else len(SMALL), k)


ESTIMATE_FIELDS = ("kernel", "type", "target", "lut_est", "lut_placed", "lut_error", "fmax_pred", "fmax",
                   "fmax_error", "cycles", "cycles_now")
# The estimate's errors (--errors --reestimate) go to their own CSV; the
# fit tables show them beside the placed figures.
ESTIMATE = tables.Table("fpga_estimate", "docs/QOR.md", ESTIMATE_FIELDS, [],
                        key=("kernel", "type", "target"))


def with_estimates(rows):
    """The fit rows with the newest estimate of each (its error against
    the placement it was compared with; † where that is not the row's)."""
    estimates = {(e["kernel"], e["type"], e["target"]): e for e in tables.current(ESTIMATE)}
    for r in rows:
        e = estimates.get((r["kernel"], r["type"], r["target"]))
        if not e or r["status"] != "yes":
            continue
        other = str(e["lut_placed"]) != str(r.get("lut")) or (
            r.get("fmax_mhz") and f"{float(e['fmax']):.1f}" != f"{float(r['fmax_mhz']):.1f}")
        changed = e.get("cycles_now") not in ("", None) and e["cycles_now"] != e.get("cycles")
        mark = (" †" if other else "") + (" (changed)" if changed else "")
        r["lut_est_cell"] = f"{int(e['lut_est']):,} ({float(e['lut_error']):+.0f}%){mark}"
        r["fmax_est_cell"] = f"{float(e['fmax_pred']):.1f} ({float(e['fmax_error']):+.0f}%){mark}"
        r["_estimate"] = e
    return rows


def fit_summary(target, rows):
    out = [fit_counts(target, rows) + "."]
    shown = [r["_estimate"] for r in rows if r.get("_estimate")]
    if not shown:
        return out
    runs = []
    for e in shown:
        if tables.run_of(e) not in runs:
            runs.append(tables.run_of(e))
    lut = sum(1 for e in shown if abs(float(e["lut_error"])) <= 25)
    fmax = sum(1 for e in shown if abs(float(e["fmax_error"])) <= 20)
    text = (f"*LUT est.* and *Fmax pred.* (`{ESTIMATE_COMMAND}`), with their errors against the placed "
            f"figures: {len(shown)} rows, LUTs within 25% in {lut}, Fmax within 20% in {fmax}; estimated "
            + "; ".join(tables.describe(run) for run in runs) + ".")
    if any("†" in r.get("lut_est_cell", "") for r in rows):
        text += " †: compared with an earlier placement of the row."
    return out + ["", text]


ESTIMATE_COMMAND = "python3 bench/fpga_fit.py OUT --errors --reestimate --silica target/debug/silica"


def fit_table(target):
    cells = [tables.Column(h, (lambda i: lambda r: fit_cells(r)[i])(i), right=i >= 4)
             for i, h in enumerate(FIT_HEADER)]
    by = {c.header: c for c in cells}
    columns = [by[h] for h in ("kernel", "type", "bitstream", "LUT")]
    columns.append(tables.col("LUT est.", "lut_est_cell"))
    columns += [by[h] for h in ("FF", "BRAM", "DSP", "Fmax MHz")]
    columns.append(tables.col("Fmax pred.", "fmax_est_cell"))
    columns += [by[h] for h in ("clock ns", "cycles", "s")]
    return tables.Table(
        "fpga_fit_" + target.replace("-", "_"), "docs/QOR.md", FIT_FIELDS, columns,
        key=("kernel", "type", "target"), csv="fpga_fit",
        command=f"python3 bench/fpga_fit.py OUT --targets {target} --jobs 2",
        select=lambda r: r["target"] == target, order=set_order, transform=with_estimates,
        summary=lambda rows: fit_summary(target, rows))


TABLES = [fit_table("ice40-up5k"), fit_table("ecp5-25k")]


def reestimate(silica, k, r, out, directives):
    """The estimate of `silica hls` for row `r` of kernel `k` at the
    row's clock (no synthesis), and the design's cycles now."""
    name, _, path, top = k
    d = os.path.join(out, "estimates", f"{r['target']}.{name}.{r['variant']}{tag(directives)}")
    cmd = [silica, "hls", path, "--top", top, "-o", d, "--target", r["target"],
           "--clock-ns", f"{r['clock_ns']:g}"]
    if directives:
        cmd += ["--directives", directives]
    uncertainty = kept_uncertainty(r)
    if uncertainty:
        cmd += ["--clock-uncertainty", f"{uncertainty:g}"]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    with open(os.path.join(d, top + ".json")) as f:
        j = json.load(f)
    return j["resources"]["estimate"], j["latency"]["min"]


def kept_uncertainty(r):
    """The clock uncertainty (ns) the row's kept design was scheduled
    with: of its closure tries, the fastest one of the row's cycles."""
    tries = [t for t in r.get("synthesis", {}).get("closure") or [] if t.get("latency") == r.get("cycles")]
    if not tries:
        return 0.0
    return max(tries, key=lambda t: t.get("fmax_mhz") or 0)["clock_uncertainty_ns"]


def errors(results):
    """The estimate against synthesis, for the rows with a bitstream; with
    --reestimate, the rows whose design changed since it was placed (its
    cycles now differ from the row's) are marked and counted apart.
    Gives the rows as rows of fpga_estimate.csv."""
    print("| kernel | type | target | LUT est. | LUT placed | LUT error | Fmax pred. | Fmax | Fmax error |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    rows = [r for r in results if r.get("synthesis", {}).get("bitstream") and r.get("estimate")]
    ok = {False: [0, 0, 0], True: [0, 0, 0]}
    recorded = []
    for r in rows:
        e, s = r["estimate"], r["synthesis"]
        lut = (logic(e) - logic(s)) / logic(s) * 100
        fmax = (e["fmax_mhz"] - s["fmax_mhz"]) / s["fmax_mhz"] * 100
        changed = "cycles_now" in r and r["cycles_now"] != r.get("cycles")
        counts = ok[changed]
        counts[0] += 1
        counts[1] += abs(lut) <= 25
        counts[2] += abs(fmax) <= 20
        name = r["name"] + (f" (changed: {r['cycles']} -> {r['cycles_now']} cycles)" if changed else "")
        recorded.append({"kernel": r["name"], "type": r["variant"], "target": r["target"],
                         "lut_est": logic(e), "lut_placed": logic(s), "lut_error": f"{lut:.4f}",
                         "fmax_pred": e["fmax_mhz"], "fmax": s["fmax_mhz"],
                         "fmax_error": f"{fmax:.4f}", "cycles": r.get("cycles", ""),
                         "cycles_now": r.get("cycles_now", "")})
        print(f"| {name} | {r['variant']} | {r['target']} | {logic(e):,} | {logic(s):,} | {lut:+.0f}% "
              f"| {e['fmax_mhz']:.1f} | {s['fmax_mhz']:.1f} | {fmax:+.0f}% |")
    same, changed = ok[False], ok[True]
    print(f"\n{len(rows)} rows with a bitstream: LUTs within 25% in {same[1] + changed[1]}, "
          f"Fmax within 20% in {same[2] + changed[2]}")
    if changed[0]:
        print(f"{same[0]} rows whose design is unchanged since placed: LUTs within 25% in {same[1]}, "
              f"Fmax within 20% in {same[2]}")
    return recorded


def run_rows_at_once(args, ks, targets):
    """Runs the rows still to run `args.jobs` at a time, each by this
    script for that row alone (its own process: the stop handlers are
    per process); the caller then reads their results (and records
    them). Gives the rows run, (kernel, target)."""
    rows = []
    for k in ks:
        for t in targets:
            file = os.path.join(args.out, "results", f"{t}.{k[0]}.{k[1]}{tag(args.directives)}.json")
            if args.again or not os.path.exists(file):
                rows.append((k, t))
    rows.sort(key=lambda row: row[0][1] != "f32")
    common = [sys.executable, os.path.abspath(__file__), args.out, "--silica", args.silica,
              "--timeout", str(args.timeout), "--tries", str(args.tries), "--clock", args.clock,
              "--no-record"]
    if args.directives:
        common += ["--directives", args.directives]
    if args.again:
        common += ["--again"]

    def run(row):
        (name, variant, _, _), t = row
        subprocess.run(common + ["--targets", t, "--variants", variant, "--only", name],
                       stdout=subprocess.DEVNULL, check=False)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(run, rows))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--silica", default=os.path.join(fpga_qor.ROOT, "target", "debug", "silica"))
    ap.add_argument("--targets", default="ice40-up5k,ecp5-25k")
    ap.add_argument("--variants", default="i32,f32")
    ap.add_argument("--only", default=None)
    ap.add_argument("--clock", default="")
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("--tries", type=int, default=3,
                    help="runs at most per row: the first, and retries at a missed clock's Fmax")
    ap.add_argument("--directives", default=None,
                    help="a directives file for every run (its name tags the results)")
    ap.add_argument("--again", action="store_true",
                    help="run the rows whose results are there too (the new run replaces them)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="rows run at once, each by a run of this script of its own")
    ap.add_argument("--table", action="store_true")
    ap.add_argument("--errors", action="store_true")
    ap.add_argument("--reestimate", action="store_true")
    ap.add_argument("--no-record", action="store_true",
                    help="do not append to bench/results/ nor write docs/QOR.md's tables")
    args = ap.parse_args()
    started = time.time()
    ran = set()
    clocks = dict(CLOCKS)
    for item in filter(None, args.clock.split(",")):
        t, ns = item.split("=")
        clocks[t] = float(ns)
    targets = args.targets.split(",")
    ks = kernel_set(args.variants.split(","))
    if args.only:
        wanted = set(args.only.split(","))
        ks = [k for k in ks if k[0] in wanted]
    os.makedirs(os.path.join(args.out, "results"), exist_ok=True)
    if args.jobs > 1 and not (args.table or args.errors):
        ran = {(k[0], k[1], t) for k, t in run_rows_at_once(args, ks, targets)}
        # Every row has run: what follows only reads their results.
        args.again = False
    results = []
    for k in ks:
        for t in targets:
            file = os.path.join(args.out, "results", f"{t}.{k[0]}.{k[1]}{tag(args.directives)}.json")
            run = not (args.table or args.errors) and (args.again or not os.path.exists(file))
            if not run and not os.path.exists(file):
                continue
            if run:
                r = measure_fitting(args.silica, k, t, clocks[t], args.out, args.timeout,
                                    args.directives and os.path.abspath(args.directives),
                                    args.tries)
                r["load"] = os.getloadavg()[0]
                with open(file, "w") as f:
                    json.dump(r, f, indent=1)
                print(f"{t} {k[0]}.{k[1]}: {r.get('synthesis', {}).get('bitstream') or r.get('message') or r.get('why') or 'no bitstream'} "
                      f"({r['seconds']:.0f} s)", file=sys.stderr, flush=True)
                ran.add((k[0], k[1], t))
            with open(file) as f:
                r = json.load(f)
            if args.reestimate and r.get("synthesis", {}).get("bitstream"):
                r["estimate"], r["cycles_now"] = reestimate(
                    args.silica, k, r, args.out, args.directives and os.path.abspath(args.directives))
            r["ran"] = (k[0], k[1], t) in ran
            results.append(r)
    if args.errors:
        recorded = errors(results)
        if args.reestimate and not args.no_record:
            tables.record(ESTIMATE, recorded, tables.meta(args.silica, started=started))
            tables.render(TABLES)
    else:
        table(results)
        fresh = [fit_fields(r) for r in results if r["ran"]]
        if fresh and not args.no_record:
            tables.record(TABLES[0], fresh, tables.meta(args.silica, started=started))
            tables.render(TABLES)


if __name__ == "__main__":
    main()
