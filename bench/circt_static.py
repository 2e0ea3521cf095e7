#!/usr/bin/env python3
"""CIRCT's static HLS flow on a kernel, measured in a Verilator testbench
on the same stimuli as `silica hls --sim` and checked against the same
software run (the peer column of bench/hls_qor.py).

The flow:
  mlir-opt-22 --lower-affine --scf-for-to-while --canonicalize
  -> the `circt` wheel (Python bindings): lower-scf-to-calyx{top-level-function=F},
     canonicalize, then calyx-native, whose export to native Calyx is kept
  -> the Calyx compiler from crates.io (`calyx` 0.7.1): -b verilog, the
     primitives' Verilog included
  -> Verilator, with a C++ testbench modelling Calyx's external memories
     (combinational read, registered write with a `done` one cycle later),
     `go` held until `done`.

Two things the wheel does not do on its own, done here:
- it registers only CIRCT's dialects for parsing; func/arith/memref/scf/cf
  are linked in and become available once pass pipelines that depend on
  them have been parsed and run on an empty module (`load_upstream_dialects`);
- it has no `export-calyx` translation: the `calyx-native` pass writes the
  native Calyx program to a temporary file and runs `calyx` on it; a
  `calyx` shim first in PATH keeps a copy of that file and fails, which
  ends the pass (the driver's failure is expected; the copy is the
  result), and the real compiler then runs on the copy.

Memories stay N-dimensional (CIRCT 1.62's lower-scf-to-calyx gives each
dimension an address port); the testbench maps them row-major onto the
words of the stimuli. Latency: cycles from the first cycle `go` is high to
the cycle `done` is seen, as silica's testbench counts start to done.

Tools go into bench/out/tools (ignored): a venv with circt==1.62.0 and
`cargo install calyx --version 0.7.1` (about 5 minutes the first time).

Usage: python3 bench/circt_static.py FILE --top F [--silica PATH] [--seed N]
       (prints cycles, or the stage that failed)
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TOOLS = os.path.join(ROOT, "bench", "out", "tools")
CIRCT_VERSION = "1.62.0"
CALYX_VERSION = "0.7.1"

# Runs first inside the circt venv, for this flow's driver and
# circt_dynamic's: the upstream dialects made parseable.
PRELUDE = r'''
import sys
import circt
from circt.ir import Context, Module
from circt.passmanager import PassManager

def load_upstream_dialects(ctx):
    warm = ["convert-affine-to-loopschedule", "lower-loopschedule-to-calyx",
            "handshake-lower-extmem-to-hw", "lower-cf-to-handshake",
            "lower-scf-to-calyx{top-level-function=none}", "handshake-legalize-memrefs"]
    for p in warm:
        for wrap in ("builtin.module(%s)", "builtin.module(func.func(%s))"):
            try:
                pm = PassManager.parse(wrap % p)
            except Exception:
                continue
            try:
                pm.run(Module.parse("module {}").operation)
            except Exception:
                pass
            break
    for d in ("func", "arith", "memref", "scf", "cf"):
        ctx.dialects[d]
'''

# Lowers the kernel to Calyx and calls calyx-native (whose input the shim
# keeps).
CIRCT_DRIVER = PRELUDE + r'''
src, top = sys.argv[1], sys.argv[2]
with Context() as ctx:
    circt.register_dialects(ctx)
    load_upstream_dialects(ctx)
    m = Module.parse(open(src).read())
    PassManager.parse(
        "builtin.module(lower-scf-to-calyx{top-level-function=%s},canonicalize,calyx-native)" % top
    ).run(m.operation)
'''

# Keeps calyx-native's input and fails, so the pass stops there (reading
# back calyx's MLIR output crashes CIRCT 1.62 on some kernels).
CALYX_SHIM = """#!/bin/sh
cp "$1" "$SILICA_CALYX_CAPTURE"
exit 1
"""


def run(cmd, cwd=None, env=None, timeout=1800):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        tail = "\n".join((r.stderr or r.stdout).strip().splitlines()[-6:])
        raise RuntimeError(f"{os.path.basename(cmd[0])} failed: {tail}")
    return r.stdout


def ensure_circt():
    """The python of the circt venv, installing it if needed."""
    venv = os.path.join(TOOLS, "circt-venv")
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        run([sys.executable, "-m", "venv", venv])
    probe = subprocess.run([python, "-c", "import circt"], capture_output=True)
    if probe.returncode != 0:
        run([python, "-m", "pip", "install", "-q", f"circt=={CIRCT_VERSION}"])
    return python


def ensure_tools():
    """(python of the circt venv, calyx binary), installing them if needed."""
    python = ensure_circt()
    calyx = os.path.join(TOOLS, "calyx", "bin", "calyx")
    if not os.path.exists(calyx):
        run(["cargo", "install", "-q", "calyx", "--version", CALYX_VERSION, "--locked",
             "--root", os.path.join(TOOLS, "calyx")])
    return python, calyx


def kernel_signature(text, top):
    """[(kind, shape, element bits)] per argument of @top: ("mem", [dims], bits)
    or ("scalar", None, None),
    and the number of results."""
    m = re.search(r"func\.func @%s\((.*?)\)\s*(->\s*([^{]*))?\{" % re.escape(top), text, re.S)
    if not m:
        raise RuntimeError(f"no function @{top}")
    args = []
    for a in re.finditer(r"%\w+\s*:\s*(memref<([^>]*)>|[a-z]\w*)", m.group(1)):
        if a.group(2) is not None:
            parts = a.group(2).split("x")
            args.append(("mem", [int(d) for d in parts[:-1]], int(parts[-1].lstrip("if"))))
        else:
            args.append(("scalar", None, None))
    results = 0
    if m.group(3):
        results = len([r for r in m.group(3).strip().strip("()").split(",") if r.strip()])
    return args, results


def ports(verilog, top):
    """{port name: (direction, width)} of module `top`."""
    m = re.search(r"module %s\s*\((.*?)\);" % re.escape(top), verilog, re.S)
    if not m:
        raise RuntimeError(f"no module {top} in the Calyx output")
    out = {}
    for p in re.finditer(r"(input|output)\s+(?:logic\s+|wire\s+)?(\[(\d+):0\]\s*)?(\w+)", m.group(1)):
        out[p.group(4)] = (p.group(1), int(p.group(3)) + 1 if p.group(3) else 1)
    return out


def testbench(top, args, results, port_map, max_cycles):
    """The C++ testbench of the Calyx component."""
    for name, (_, width) in port_map.items():
        if width > 64:
            raise RuntimeError(f"port {name} is {width} bits wide (the testbench handles 64)")
    lines = [
        f'#include "V{top}.h"',
        "#include <cstdio>", "#include <cstdint>", "#include <vector>", "#include <verilated.h>",
        "static uint64_t next(FILE *f) { unsigned long long v; if (fscanf(f, \"%llx\", &v) != 1) { fprintf(stderr, \"short input\\n\"); exit(2);} return v; }",
        "int main(int argc, char **argv) {",
        "  Verilated::commandArgs(argc, argv);",
        f"  V{top} *t = new V{top};",
        "  FILE *in = fopen(argv[1], \"r\");",
    ]
    mems = [(dims, bits) for k, dims, bits in args if k == "mem"]
    scalars = [i for i, (k, _, _) in enumerate(args) if k == "scalar"]
    for n, i in enumerate(scalars):
        lines.append(f"  t->in{n} = next(in);")
    for n, (dims, _) in enumerate(mems):
        size = 1
        for d in dims:
            size *= d
        lines.append(f"  std::vector<uint64_t> m{n}({size}); for (auto &w : m{n}) w = next(in);")
        lines.append(f"  bool done{n} = false;")
    lines.append("  fclose(in);")

    def address(n, dims):
        terms = "0"
        for d, extent in enumerate(dims):
            terms = f"(({terms}) * {extent} + t->ext_mem{n}_addr{d})"
        bound = 1
        for e in dims:
            bound *= e
        return f"({terms} % {bound})"

    settle = ["    for (int s = 0; s < 4; s++) { t->eval();"]
    for n, (dims, _) in enumerate(mems):
        settle.append(f"      t->ext_mem{n}_read_data = m{n}[{address(n, dims)}]; t->ext_mem{n}_done = done{n};")
    settle.append("    }")
    edge = []
    for n, (dims, _) in enumerate(mems):
        edge.append(f"    bool w{n} = t->ext_mem{n}_write_en; uint64_t a{n} = {address(n, dims)}; uint64_t d{n} = t->ext_mem{n}_write_data;")
    commit = []
    for n, _ in enumerate(mems):
        commit.append(f"    if (w{n}) m{n}[a{n}] = d{n}; done{n} = w{n};")
    lines += [
        "  auto tick = [&]() { t->clk = 0; t->eval(); t->clk = 1; t->eval(); };",
        "  t->go = 0; t->reset = 1; for (int i = 0; i < 5; i++) tick(); t->reset = 0; tick();",
        "  t->go = 1; uint64_t cycles = 0;",
        "  for (;;) {",
        *settle,
        "    if (t->done) break;",
        *edge,
        "    tick(); cycles++;",
        *commit,
        f"    if (cycles > {max_cycles}ULL) {{ fprintf(stderr, \"no done after %llu cycles\\n\", (unsigned long long)cycles); return 3; }}",
        "  }",
        "  printf(\"latency %llu\\n\", (unsigned long long)cycles);",
    ]
    for n, (_, bits) in enumerate(mems):
        mask = (1 << bits) - 1
        lines.append(f"  for (auto w : m{n}) printf(\"%llx\\n\", (unsigned long long)(w & {mask:#x}ULL));")
    for r in range(results):
        lines.append(f"  printf(\"%llx\\n\", (unsigned long long)t->out{r});")
    lines += ["  delete t;", "  return 0;", "}"]
    return "\n".join(lines) + "\n"


def top_function(text, top):
    """The text of `func.func @top` alone (the whole text if it is not
    found on lines of its own)."""
    only = re.search(r"^func\.func @%s\(.*?^}[ \t]*$" % re.escape(top), text, re.S | re.M)
    return only.group(0) + "\n" if only else text


def software_run(silica, path, top, work, seed):
    """The stimuli `silica hls --sim` writes for `seed` and what the
    software run prints on them: (the stimuli file, the printed words)."""
    sim_dir = os.path.join(work, "sim")
    run([silica, "hls", path, "--top", top, "-o", os.path.join(work, "silica"),
         "--sim", "--seed", str(seed), "--sim-dir", sim_dir])
    expected = run(["lli-22", "--entry-function=cosim_main", "software.ll"], cwd=sim_dir)
    return os.path.join(sim_dir, f"stimuli-{seed}.txt"), expected


def failure(stage, e):
    """The result of a run that stopped at `stage` with error `e`."""
    why = str(e).strip().splitlines()[-1] if str(e).strip() else stage
    return {"ok": False, "stage": stage, "why": why}


def verilate_and_compare(top, verilog_path, tb_text, work, stimuli, expected):
    """Builds `verilog_path` with the C++ testbench `tb_text` in Verilator,
    runs it on `stimuli` and compares what it prints after its `latency N`
    line with the software's words: {'ok': True, 'cycles': N} or a
    failure."""
    stage = "verilator"
    try:
        tb = os.path.join(work, "tb.cpp")
        with open(tb, "w") as f:
            f.write(tb_text)
        obj = os.path.join(work, "obj")
        run(["verilator", "--cc", "--exe", "--build", "-O1", "-Wno-fatal", "-Wno-lint",
             "-Wno-style", "--top-module", top, "-Mdir", obj, verilog_path, tb,
             "-CFLAGS", "-O1"])
        stage = "simulation"
        got = run([os.path.join(obj, f"V{top}"), stimuli]).splitlines()
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        return failure(stage, e)
    cycles = int(got[0].split()[1])
    want = [w.strip() for w in expected.splitlines() if w.strip()]
    got = [w.strip() for w in got[1:] if w.strip()]
    if got != want:
        first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        return {"ok": False, "stage": "compare", "cycles": cycles,
                "why": f"output word {first} differs from software ({len(got)} vs {len(want)} words)"}
    return {"ok": True, "cycles": cycles}


def measure(silica, path, top, seed=1, max_cycles=50_000_000, keep=None):
    """{'ok': True, 'cycles': N} or {'ok': False, 'stage': ..., 'why': ...}."""
    python, calyx = ensure_tools()
    work = keep or tempfile.mkdtemp(prefix="circt-static-")
    os.makedirs(work, exist_ok=True)
    stage = "setup"
    try:
        try:
            with open(path) as f:
                text = f.read()
            args, results = kernel_signature(text, top)
            stage = "mlir-opt-22"
            kernel = os.path.join(work, "kernel.mlir")
            with open(kernel, "w") as f:
                f.write(top_function(text, top))
            low = run(["mlir-opt-22", kernel, "--lower-affine", "--scf-for-to-while", "--canonicalize"])
            with open(os.path.join(work, "kernel.scf.mlir"), "w") as f:
                f.write(low)
            stage = "circt lower-scf-to-calyx"
            shim_dir = os.path.join(work, "shim")
            os.makedirs(shim_dir, exist_ok=True)
            shim = os.path.join(shim_dir, "calyx")
            with open(shim, "w") as f:
                f.write(CALYX_SHIM)
            os.chmod(shim, 0o755)
            driver = os.path.join(work, "circt_driver.py")
            with open(driver, "w") as f:
                f.write(CIRCT_DRIVER)
            futil = os.path.join(work, "kernel.futil")
            env = dict(os.environ, PATH=shim_dir + os.pathsep + os.environ["PATH"],
                       SILICA_CALYX_CAPTURE=futil)
            r = subprocess.run([python, driver, os.path.join(work, "kernel.scf.mlir"), top],
                               env=env, capture_output=True, text=True, timeout=1800)
            if not os.path.exists(futil) or os.path.getsize(futil) == 0:
                tail = [ln for ln in r.stderr.splitlines() if "error" in ln.lower()] or r.stderr.splitlines()[-1:]
                raise RuntimeError(f"lower-scf-to-calyx failed: {tail[0] if tail else r.returncode}")
            stage = "calyx"
            verilog_path = os.path.join(work, f"{top}.v")
            # To standard output: with `-o`, calyx 0.7.1 truncates the file
            # after writing the primitives' Verilog into it.
            verilog = run([calyx, futil, "-b", "verilog"])
            with open(verilog_path, "w") as f:
                f.write(verilog)
            stage = "silica hls --sim (stimuli and software)"
            stimuli, expected = software_run(silica, path, top, work, seed)
            stage = "verilator"
            tb = testbench(top, args, results, ports(verilog, top), max_cycles)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            return failure(stage, e)
        return verilate_and_compare(top, verilog_path, tb, work, stimuli, expected)
    finally:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--top", required=True)
    ap.add_argument("--silica", default=os.path.join(ROOT, "target", "release", "silica"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", default=None, help="work in this directory and keep it")
    a = ap.parse_args()
    r = measure(a.silica, a.file, a.top, a.seed, keep=a.keep)
    if r["ok"]:
        print(f"{a.top}: {r['cycles']} cycles (CIRCT static flow, outputs identical to software)")
    else:
        print(f"{a.top}: failed at {r['stage']}: {r['why']}")
        sys.exit(1)


if __name__ == "__main__":
    main()
