#!/usr/bin/env python3
"""QoR benchmark of `silica hls`: the PolyBench set (examples/polybench,
MINI size, i32 and f32) and the small kernels of bench/hls_qor_kernels.mlir
(vadd, dot, fir, conv2d, gemm16), plus PolyBench kernels at the 16-per-
dimension sizes CIRCT's static HLS flow is quoted at.

For every kernel: `silica hls FILE --top F -o DIR` timed (compile time,
best of --repeat runs), then `silica hls ... --sim` (co-simulation in
Verilator against the kernel in lli-22: cycles measured, bit-exact check);
from F.json: the latency, every pipelined loop's II against its lower
bound (max(ResMII, RecMII), or the slot bound above both: `mii`), and the resource estimate; from report.txt the pipelines' bound
(sum of iterations x MII + deepest depth). Kernels the flow rejects are
listed with their diagnostic.

With --circt, CIRCT's static flow (affine -> scf -> calyx -> Verilog,
bench/circt_static.py) runs in the same run on the kernels it is quoted
for (and fir, conv2d), on the same stimuli, checked against the same
software run; its cycles and the ratio silica / CIRCT are printed.
Without it, the quoted figures are printed, labelled as quoted.
With --circt-dynamic, CIRCT's dynamic flow (cf -> handshake -> hw,
bench/circt_dynamic.py) runs on the same kernels, with the buffering
strategies `all` (the pass's default) and `cycles`, and two more columns
give its cycles and silica / CIRCT against the faster of the two.

With --directives DIR, a kernel with a file DIR/<key>.toml (key: the
kernel's name, `gemm (i32)` as `gemm.i32`) is compiled with it
(`bench/hls_qor_directives/` holds the committed configuration) and
marked `[d]`; the others run as without.

Each run appends its rows to bench/results/ (hls_qor.csv, without
directives; hls_qor_directives.csv, the kernels compiled with theirs;
circt_flows.csv, CIRCT's cycles) and writes the tables of docs/QOR.md
from them (bench/tables.py), unless --no-record.

Usage: python3 bench/hls_qor.py [--silica PATH] [--jobs N] [--repeat N]
       [--only NAME,...] [--circt] [--circt-dynamic] [--directives DIR]
       [--no-record]
       (prints a markdown table)
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
sys.path.insert(0, os.path.join(ROOT, "examples", "polybench"))

sys.path.insert(0, HERE)
import circt_dynamic  # noqa: E402
import circt_static  # noqa: E402
import tables  # noqa: E402

# Kernels CIRCT's flows are measured on with --circt and --circt-dynamic.
CIRCT_KERNELS = ["vadd", "dot", "fir", "conv2d", "gemm16", "atax16", "bicg16", "gesummv16", "mvt16",
                 "jacobi-1d16"]

# CIRCT static flow (lower-affine, flattened memories, scf-for-to-while,
# lower-scf-to-calyx, calyx 0.7 to Verilog), cycles in a Verilator
# testbench, as quoted for 16-element-per-dimension i32 kernels.
CIRCT_STATIC_QUOTED = {
    "vadd": 644,
    "dot": 839,
    "gemm16": 104388,
    "atax16": 11592,
    "bicg16": 8456,
    "gesummv16": 8708,
    "mvt16": 11016,
    "jacobi-1d16": 4372,
}

# PolyBench kernels at the sizes of the quoted CIRCT figures.
SIZED = {
    "atax16": ("atax", {"M": 16, "N": 16}),
    "bicg16": ("bicg", {"M": 16, "N": 16}),
    "gesummv16": ("gesummv", {"N": 16}),
    "mvt16": ("mvt", {"N": 16}),
    "jacobi-1d16": ("jacobi-1d", {"TSTEPS": 4, "N": 32}),
}


# The tables of docs/QOR.md this script writes (bench/tables.py).
QOR = "docs/QOR.md"
KERNEL_FIELDS = ("kernel", "status", "cycles", "bound", "pipelined", "at_bound", "iis",
                 "lut", "ff", "dsp", "bram", "compile_ms")


def ratio_cell(r):
    if r.get("cycles") and r.get("bound"):
        return f"{int(r['cycles']) / int(r['bound']):.2f}"
    return ""


def at_mii_cell(r):
    return f"{r['at_bound']}/{r['pipelined']}" if r.get("pipelined") else ""


KERNEL_COLUMNS = [
    tables.col("kernel", "kernel", right=False),
    tables.col("cycles (co-sim)", "cycles", "int"),
    tables.col("bound", "bound", "int"),
    tables.Column("ratio", ratio_cell),
    tables.Column("II = MII", at_mii_cell),
    tables.col("II (ResMII, RecMII)", "iis", right=False),
    tables.col("LUT", "lut", "int"),
    tables.col("FF", "ff", "int"),
    tables.col("DSP", "dsp", "int"),
    tables.col("BRAM", "bram", "int"),
    tables.col("compile ms", "compile_ms", "int"),
]


def hide_failures(rows):
    """Kernels that failed are listed under the table, not in it."""
    for r in rows:
        r["_hidden"] = r.get("status") != "ok"
    return rows


def kernel_summary(rows):
    ok = [r for r in rows if r.get("status") == "ok"]
    failed = [r for r in rows if r.get("status") != "ok"]
    loops = sum(int(r["pipelined"] or 0) for r in ok)
    at = sum(int(r["at_bound"] or 0) for r in ok)
    line = (f"{len(ok)} of {len(rows)} kernels compile and co-simulate bit-exactly; "
            f"{at} of {loops} pipelined loops at II = MII (max(ResMII, RecMII), or the slot bound)")
    if ok and all(r.get("compile_ms") for r in ok):
        total = sum(float(r["compile_ms"]) for r in ok) / 1000
        line += f"; compile time (no --sim) of those {len(ok)}: {total:.2f} s in all"
    out = [line + "."]
    if failed:
        out += ["", "| kernel | not accepted or not matching |", "|---|---|"]
        out += [f"| {r['kernel']} | {r['status'].replace('|', '/')} |" for r in failed]
    return out


PLAIN = tables.Table(
    "hls_qor", QOR, KERNEL_FIELDS, KERNEL_COLUMNS, key=("kernel",),
    command="python3 bench/hls_qor.py",
    # The PolyBench i32 kernels' default designs are in bench/hls_auto.py's
    # table, measured with their --auto designs.
    select=lambda r: not r.get("kernel", "").endswith("(i32)"),
    transform=hide_failures, summary=kernel_summary)
DIRECTED = tables.Table(
    "hls_qor_directives", QOR, KERNEL_FIELDS, KERNEL_COLUMNS, key=("kernel",),
    command="python3 bench/hls_qor.py --directives bench/hls_qor_directives --only " + ",".join(
        ["vadd", "dot", "fir", "conv2d", "gemm16", "atax16", "bicg16", "gesummv16", "mvt16", "jacobi-1d16"]),
    transform=hide_failures, summary=kernel_summary)
# CIRCT's flows, one row per kernel and flow (`static`, `dynamic all`,
# `dynamic cycles`); the document sets them beside silica's cycles with
# the directives (the table above).
FLOWS = ("static", "dynamic all", "dynamic cycles")


def flow_cell(row):
    if not row:
        return ""
    if row.get("status") == "ok":
        return f"{int(row['cycles']):,}"
    return "wrong outputs" if row.get("status") == "fails (compare)" else row.get("status", "")


def circt_rows(rows):
    """One row per kernel: silica's newest cycles with directives, CIRCT's
    cycles in each flow and the ratios."""
    silica = {r["kernel"]: r for r in tables.current(DIRECTED) if r.get("status") == "ok"}
    by_kernel = {}
    for r in rows:
        by_kernel.setdefault(r["kernel"], {})[r["flow"]] = r
    out = []
    for kernel in sorted(by_kernel, key=lambda k: CIRCT_KERNELS.index(k) if k in CIRCT_KERNELS else 99):
        flows = by_kernel[kernel]
        s = silica.get(kernel)
        cycles = int(s["cycles"]) if s else None
        row = {"kernel": kernel, "silica": f"{cycles:,}" if cycles else "",
               "_run": ", ".join(sorted({f.get("_run", "") for f in flows.values()} - {""}))}
        static = flows.get("static")
        row["static"] = flow_cell(static)
        if cycles and static and static.get("status") == "ok":
            row["static_ratio"] = f"{cycles / int(static['cycles']):.3f}"
        dyn = [flows.get(f) for f in FLOWS[1:]]
        if any(dyn):
            row["dynamic"] = " / ".join(flow_cell(d) or "-" for d in dyn)
            best = [int(d["cycles"]) for d in dyn if d and d.get("status") == "ok"]
            if cycles and best:
                row["dynamic_ratio"] = f"{cycles / min(best):.3f}"
        out.append(row)
    return out


CIRCT = tables.Table(
    "circt_flows", QOR, ("kernel", "flow", "status", "cycles"),
    [tables.col("kernel", "kernel", right=False),
     tables.col("silica, directives", "silica"),
     tables.col("CIRCT static", "static"),
     tables.col("silica / static", "static_ratio"),
     tables.col("CIRCT dynamic, buffers all / cycles", "dynamic"),
     tables.col("silica / best dynamic", "dynamic_ratio")],
    key=("kernel", "flow"),
    command="python3 bench/hls_qor.py --circt --circt-dynamic --directives bench/hls_qor_directives "
            "--only " + ",".join(["vadd", "dot", "fir", "conv2d", "gemm16", "atax16", "bicg16",
                                  "gesummv16", "mvt16", "jacobi-1d16"]),
    transform=circt_rows)
TABLES = [DIRECTED, CIRCT, PLAIN]


def kernel_row(r):
    """A result of run_one() as a row of the kernels' CSVs."""
    row = {"kernel": r["name"], "status": "ok" if r["ok"] else r["why"]}
    if r.get("compile_s") is not None:
        row["compile_ms"] = f"{r['compile_s'] * 1000:.0f}"
    if r["ok"]:
        res = r["resources"]
        row.update({
            "cycles": r["cycles"], "bound": r["bound"] or "", "pipelined": r["pipelined"],
            "at_bound": r["at_bound"], "iis": ", ".join(f"{ii} ({rm}, {cm})" for ii, rm, cm in r["iis"]),
            "lut": res["lut"], "ff": res["ff"], "dsp": res["dsp"], "bram": res["bram"],
        })
    return row


def flow_row(kernel, flow, m):
    ok = m["ok"]
    return {"kernel": kernel, "flow": flow, "status": "ok" if ok else f"fails ({m['stage']})",
            "cycles": m.get("cycles", "") if ok else ""}


def kernels(workdir):
    """(name, file, top) of every kernel of the benchmark."""
    import gen  # examples/polybench/gen.py
    out = []
    small = os.path.join(HERE, "hls_qor_kernels.mlir")
    with open(small) as f:
        for top in re.findall(r"func\.func @(\w+)\(", f.read()):
            out.append((top, small, top))
    for label, (name, sizes) in SIZED.items():
        path = os.path.join(workdir, label + ".mlir")
        with open(path, "w") as f:
            f.write(gen.render(name, "custom", "i32", sizes))
        out.append((label, path, gen.top_name(name)))
    for ty in ("i32", "f32"):
        for path in sorted(glob.glob(os.path.join(ROOT, "examples", "polybench", "mini", f"*.{ty}.mlir"))):
            name = os.path.basename(path)[: -len(".mlir")]
            with open(path) as f:
                top = re.search(r"func\.func @(\w+)\(", f.read()).group(1)
            out.append((f"{name.replace('.' + ty, '')} ({ty})", path, top))
    return out


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip().replace(ROOT + os.sep, "")
    return text.strip().splitlines()[-1] if text.strip() else "failed"


def directive_key(name):
    """`gemm (i32)` -> `gemm.i32`; other names as they are."""
    m = re.fullmatch(r"(.+) \((\w+)\)", name)
    return f"{m.group(1)}.{m.group(2)}" if m else name


def run_one(silica, name, path, top, workdir, repeat, directives=None):
    out = os.path.join(workdir, re.sub(r"[^\w.-]", "_", name))
    extra = []
    if directives:
        d = os.path.join(directives, directive_key(name) + ".toml")
        if os.path.exists(d):
            extra = ["--directives", d]
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = subprocess.run([silica, "hls", path, "--top", top, "-o", out + ".c"] + extra,
                           capture_output=True, text=True)
        dt = time.perf_counter() - t0
        if r.returncode != 0:
            return {"name": name, "ok": False, "directives": bool(extra), "why": first_error(r.stderr)}
        best = dt if best is None else min(best, dt)
    r = subprocess.run([silica, "hls", path, "--top", top, "-o", out, "--sim"] + extra,
                       capture_output=True, text=True)
    if r.returncode != 0:
        return {"name": name, "ok": False, "directives": bool(extra), "compile_s": best,
                "why": first_error(r.stderr)}
    with open(os.path.join(out, top + ".json")) as f:
        report = json.load(f)
    with open(os.path.join(out, "report.txt")) as f:
        text = f.read()
    bound = re.search(r"= (\d+) cycles\): ([\d.]+)x", text)
    loops = [lp for lp in report["loops"] if lp["pipelined"]]
    # The II's lower bound: max(ResMII, RecMII), or the slot bound above
    # both where recurrences hold port or unit users in one slot.
    at_bound = sum(1 for lp in loops
                   if lp["ii"] == (lp.get("mii") or max(lp["res_mii"], lp["rec_mii"])))
    return {
        "name": name,
        "directives": bool(extra),
        "ok": True,
        "cycles": report["latency"]["min"],
        "bound": int(bound.group(1)) if bound else None,
        "pipelined": len(loops),
        "at_bound": at_bound,
        "iis": [(lp["ii"], lp["res_mii"], lp["rec_mii"]) for lp in loops],
        "resources": report["resources"]["estimate"],
        "compile_s": best,
    }


def dynamic_cells(dynamic, r):
    """The dynamic flow's two cells of a kernel's row: cycles with each
    buffering strategy (or the stage that failed), and silica's cycles
    over the faster one's."""
    runs = dynamic.get(r["name"])
    if not runs:
        return " | |"
    shown = [str(m["cycles"]) if m["ok"] else f"fails ({m['stage']})" for m in runs.values()]
    best = min((m["cycles"] for m in runs.values() if m["ok"]), default=None)
    ratio = f"{r['cycles'] / best:.3f}" if best else ""
    return f" {' / '.join(shown)} | {ratio} |"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--silica", default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default=None)
    ap.add_argument("--directives", default=None,
                    help="directives files per kernel (DIR/<key>.toml), e.g. bench/hls_qor_directives")
    ap.add_argument("--circt", action="store_true",
                    help="also run CIRCT's static flow (bench/circt_static.py) on its kernels")
    ap.add_argument("--circt-dynamic", action="store_true",
                    help="also run CIRCT's dynamic flow (bench/circt_dynamic.py), buffers all and cycles")
    ap.add_argument("--no-record", action="store_true",
                    help="do not append the rows to bench/results/ nor write docs/QOR.md's tables")
    args = ap.parse_args()
    started = time.time()
    silica = args.silica
    if silica is None:
        for p in ("target/release/silica", "target/debug/silica"):
            if os.path.exists(os.path.join(ROOT, p)):
                silica = os.path.join(ROOT, p)
                break
    with tempfile.TemporaryDirectory() as workdir:
        ks = kernels(workdir)
        if args.only:
            wanted = set(args.only.split(","))
            ks = [k for k in ks if k[0] in wanted]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(
                lambda k: run_one(silica, *k, workdir, args.repeat, args.directives), ks))
            circt = {}
            if args.circt:
                circt_static.ensure_tools()
                peers = [k for k in ks if k[0] in CIRCT_KERNELS]
                measured = pool.map(lambda k: circt_static.measure(silica, k[1], k[2]), peers)
                circt = {k[0]: m for k, m in zip(peers, measured)}
            dynamic = {}
            if args.circt_dynamic:
                circt_dynamic.circt_static.ensure_circt()
                peers = [(k, b) for k in ks if k[0] in CIRCT_KERNELS for b in ("all", "cycles")]
                measured = pool.map(
                    lambda kb: circt_dynamic.measure(silica, kb[0][1], kb[0][2], buffers=kb[1]), peers)
                for (k, b), m in zip(peers, measured):
                    dynamic.setdefault(k[0], {})[b] = m
    print(f"silica: {silica}")
    source = "measured" if args.circt else "quoted"
    dyn_head = " CIRCT dynamic, buffers all / cycles | silica / best dynamic |" if args.circt_dynamic else ""
    dyn_rule = "---:|---:|" if args.circt_dynamic else ""
    print(f"| kernel | cycles (co-sim) | bound | ratio | II = MII | II (ResMII, RecMII) | LUT | FF | DSP | BRAM | compile ms | CIRCT static ({source}) | silica / CIRCT |{dyn_head}")
    print(f"|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|{dyn_rule}")
    failed = []
    loops = at = 0
    total_compile = 0.0
    for r in results:
        if not r["ok"]:
            failed.append(r)
            continue
        res = r["resources"]
        if args.circt:
            peer = circt.get(r["name"])
            if peer is None:
                peer_cycles = None
            elif peer["ok"]:
                peer_cycles = peer["cycles"]
            else:
                peer_cycles = f"fails ({peer['stage']})"
        else:
            peer_cycles = CIRCT_STATIC_QUOTED.get(r["name"])
        ratio = f"{r['cycles'] / r['bound']:.2f}" if r["bound"] else ""
        speedup = f"{r['cycles'] / peer_cycles:.3f}" if isinstance(peer_cycles, int) else ""
        iis = ", ".join(f"{ii} ({rm}, {cm})" for ii, rm, cm in r["iis"])
        loops += r["pipelined"]
        at += r["at_bound"]
        total_compile += r["compile_s"]
        print(
            f"| {r['name']}{' [d]' if r['directives'] else ''} | {r['cycles']} | {r['bound'] or ''} | {ratio} | {r['at_bound']}/{r['pipelined']} | {iis} "
            f"| {res['lut']} | {res['ff']} | {res['dsp']} | {res['bram']} | {r['compile_s'] * 1000:.0f} "
            f"| {peer_cycles or ''} | {speedup} |{dynamic_cells(dynamic, r) if args.circt_dynamic else ''}"
        )
    print()
    passed = len(results) - len(failed)
    print(f"{passed} of {len(results)} kernels compile and co-simulate bit-exactly; "
          f"{at} of {loops} pipelined loops at II = MII (max(ResMII, RecMII), or the slot bound); "
          f"compile time (no --sim) of those {passed}: {total_compile:.2f} s in all")
    if failed:
        print()
        print("| kernel | not accepted or not matching |")
        print("|---|---|")
        for r in failed:
            why = r["why"].replace("|", "\\|")
            print(f"| {r['name']} | {why} |")
    if not args.no_record:
        run = tables.meta(silica, started=started)
        tables.record(PLAIN, [kernel_row(r) for r in results if not r.get("directives")], run)
        tables.record(DIRECTED, [kernel_row(r) for r in results if r.get("directives")], run)
        flows = [flow_row(k, "static", m) for k, m in circt.items()]
        flows += [flow_row(k, f"dynamic {b}", m) for k, runs in dynamic.items() for b, m in runs.items()]
        tables.record(CIRCT, flows, run)
        tables.render(TABLES)


if __name__ == "__main__":
    main()
