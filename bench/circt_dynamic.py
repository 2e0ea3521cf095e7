#!/usr/bin/env python3
"""CIRCT's dynamic (handshake) HLS flow on a kernel, measured in a Verilator
testbench on the same stimuli as `silica hls --sim` and checked against the
same software run (the second peer column of bench/hls_qor.py).

The flow:
  mlir-opt-22 --lower-affine --convert-scf-to-cf --canonicalize
  -> the `circt` wheel (Python bindings): lower-cf-to-handshake,
     handshake-lower-extmem-to-hw, canonicalize,
     handshake-materialize-forks-sinks, handshake-insert-buffers{strategy=S},
     lower-handshake-to-hw, then ESI channels to valid/ready wires
     (lower-esi-to-physical, lower-esi-ports, lower-esi-to-hw),
     lower-seq-to-sv, and the wheel's export_verilog
  -> Verilator, with a C++ testbench modelling the external memories as
     latency-insensitive channels: a load port takes an address when its
     response slot is free (or emptied in the same cycle) and returns the
     word one cycle later; a store port writes and answers `done` one
     cycle later. The start token, scalar arguments and results are
     channels too; every ready the testbench drives is high whenever the
     model can take a transfer.

The buffering strategy `S` is the pass's: `all` (its default) or `cycles`
(buffers only on cycles), the two CIRCT's figures are quoted for.

What the wheel needs that the flow does not say:
- func/arith/memref/scf/cf become parseable after pass pipelines that
  depend on them have run on an empty module (circt_static.PRELUDE);
- lower-cf-to-handshake keeps the function's argument attributes but adds
  the control argument, and the handshake.func verifier then rejects the
  function: silica's `hls.name` argument attributes are dropped first.

Latency: cycles from the first cycle the start token is offered to the
cycle by which the function's control result and every value result have
been taken (they are separate channels and may come in either order),
as silica's testbench counts start to done.

Usage: python3 bench/circt_dynamic.py FILE --top F [--silica PATH]
       [--seed N] [--buffers all|cycles] [--keep DIR]
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
sys.path.insert(0, HERE)
import circt_static  # noqa: E402

DRIVER = circt_static.PRELUDE + r'''
src, buffers, out = sys.argv[1], sys.argv[2], sys.argv[3]
with Context() as ctx:
    circt.register_dialects(ctx)
    load_upstream_dialects(ctx)
    m = Module.parse(open(src).read())
    PassManager.parse(
        "builtin.module(lower-cf-to-handshake,handshake-lower-extmem-to-hw,canonicalize,"
        "handshake.func(handshake-materialize-forks-sinks,handshake-insert-buffers{strategy=%s}),"
        "lower-handshake-to-hw,canonicalize,lower-esi-to-physical,lower-esi-ports,lower-esi-to-hw,"
        "canonicalize,lower-seq-to-sv,canonicalize)" % buffers
    ).run(m.operation)
    with open(out, "w") as f:
        circt.export_verilog(m, f)
'''


def flatten_memrefs(text):
    """Multi-dimensional memrefs of the lowered kernel as one-dimensional
    ones (row-major, as the stimuli are laid out), which the handshake
    lowering requires: each access's indices become one `affine.apply`
    (lowered again by mlir-opt-22), every `memref<AxBxT>` type
    `memref<(A*B)xT>`. The wheel does not register CIRCT's
    `flatten-memref`."""
    out = []
    fresh = 0
    access = re.compile(r"^(\s*)(.*memref\.(?:load|store) [^\[]*)\[([^\]]*)\](\s*:\s*memref<([^>]*)>.*)$")
    for line in text.splitlines():
        m = access.match(line)
        if m:
            dims = m.group(5).split("x")[:-1]
            indices = [i.strip() for i in m.group(3).split(",")]
            if len(dims) > 1:
                names = [f"d{k}" for k in range(len(dims))]
                expr = names[0]
                for k in range(1, len(dims)):
                    expr = f"({expr}) * {dims[k]} + {names[k]}"
                flat = f"%flat{fresh}"
                fresh += 1
                out.append(f"{m.group(1)}{flat} = affine.apply affine_map<({', '.join(names)}) -> "
                           f"({expr})>({', '.join(indices)})")
                line = f"{m.group(1)}{m.group(2)}[{flat}]{m.group(4)}"
        out.append(line)

    def one_dimension(t):
        parts = t.group(1).split("x")
        size = 1
        for d in parts[:-1]:
            size *= int(d)
        return f"memref<{size}x{parts[-1]}>"
    return re.sub(r"memref<((?:\d+x){2,}[a-z]\w*)>", one_dimension, "\n".join(out) + "\n")


def one_access_per_memref(text, top):
    """Each load or store of a memref argument given an argument of its
    own (`%argN_aK` beside `%argN`); returns the text and, per argument of
    the new signature, the index of the kernel argument it stands for.
    handshake-lower-extmem-to-hw (CIRCT 1.62) crashes or misnumbers its
    ports when two memories have several accesses each (port names such as
    `in4_ld1.data_st1.done_ld1.addr`); with one access per memory it does
    neither. The testbench serves every argument of a kernel argument
    from the same memory, so the kernel computes what it did: the
    extmemory interface has one channel pair per access either way, and
    a block's control token still waits for every access's completion."""
    sig = re.search(r"func\.func @%s\((.*?)\)" % re.escape(top), text)
    params = re.findall(r"(%\w+): ([^,]+(?:<[^>]*>)?)", sig.group(1))
    body = text[sig.end(1):]
    new, origin = [], []
    for k, (name, ty) in enumerate(params):
        new.append(f"{name}: {ty}")
        origin.append(k)
        if not ty.startswith("memref<"):
            continue
        access = re.compile(r"(memref\.(?:load |store [^,\n]+, ))%s\[" % re.escape(name))
        count = len(access.findall(body))
        for a in range(1, count):
            # The first access keeps the argument; the rest are renamed in turn.
            matches = list(access.finditer(body))
            m = matches[1]
            body = body[: m.start()] + f"{m.group(1)}{name}_a{a}[" + body[m.end():]
            new.append(f"{name}_a{a}: {ty}")
            origin.append(k)
    return text[: sig.start(1)] + ", ".join(new) + body, origin


def module_ports(verilog, top):
    """{port name: (direction, width)} of module `top` in the exported
    Verilog (zero-width ports are commented out there and left out here;
    a packed struct port's width is the sum of its fields')."""
    m = re.search(r"^module %s\((.*?)^\);" % re.escape(top), verilog, re.S | re.M)
    if not m:
        raise RuntimeError(f"no module {top} in the exported Verilog")
    out = {}
    direction = None
    for line in m.group(1).splitlines():
        line = line.split("//")[0].strip().rstrip(",")
        if not line:
            continue
        d = re.match(r"(input|output)\s+(.*)", line)
        if d:
            direction, line = d.group(1), d.group(2).strip()
        s = re.match(r"struct packed \{(.*)\}\s*(\w+)$", line)
        if s:
            width = sum(int(a) - int(b) + 1 for a, b in re.findall(r"\[(\d+):(\d+)\]", s.group(1)))
            width += len(re.findall(r"logic\s+\w+;", s.group(1)))
            out[s.group(2)] = (direction, width)
            continue
        p = re.match(r"(?:\[(\d+):0\]\s*)?(\w+)$", line)
        if p:
            out[p.group(2)] = (direction, int(p.group(1)) + 1 if p.group(1) else 1)
    return out


def channels(ports, origin, results):
    """The channels of the handshake top: per memref argument its load and
    store ports (in argument order), the scalar arguments, the start
    token and the results."""
    loads, stores = [], []
    for name in ports:
        m = re.fullmatch(r"in(\d+)_ld(\d+)_addr", name)
        if m:
            loads.append((int(m.group(1)), name[: -len("_addr")]))
        m = re.fullmatch(r"in(\d+)_st(\d+)", name)
        if m:
            stores.append((int(m.group(1)), name))
    start = f"in{len(origin)}"
    if f"{start}_valid" not in ports:
        raise RuntimeError(f"no start token port {start}_valid")
    return sorted(loads), sorted(stores), start, [f"out{r}" for r in range(results)], f"out{results}"


def testbench(top, args, origin, results, ports, max_cycles):
    """The C++ testbench of the handshake top; `origin[k]` is the kernel
    argument that argument k of the handshake function stands for."""
    for name, (_, width) in ports.items():
        if width > 64:
            raise RuntimeError(f"port {name} is {width} bits wide (the testbench handles 64)")
    loads, stores, start, outs, done = channels(ports, origin, results)
    loads = [(origin[k], name) for k, name in loads]
    stores = [(origin[k], name) for k, name in stores]
    mems = {i: dims for i, (k, dims, _) in enumerate(args) if k == "mem"}
    scalars = [i for i, (k, _, _) in enumerate(args) if k == "scalar"]
    scalar_port = {i: f"in{k}" for k, i in enumerate(origin) if args[i][0] == "scalar"}
    lines = [
        f'#include "V{top}.h"',
        "#include <cstdio>", "#include <cstdint>", "#include <cstdlib>", "#include <vector>",
        "#include <verilated.h>",
        "static uint64_t next(FILE *f) { unsigned long long v; if (fscanf(f, \"%llx\", &v) != 1) "
        "{ fprintf(stderr, \"short input\\n\"); exit(2); } return v; }",
        "int main(int argc, char **argv) {",
        "  Verilated::commandArgs(argc, argv);",
        f"  V{top} *t = new V{top};",
        "  FILE *in = fopen(argv[1], \"r\");",
    ]
    for i in scalars:
        lines.append(f"  uint64_t s{i} = next(in); bool s{i}_sent = false;")
    for i, dims in mems.items():
        size = 1
        for d in dims:
            size *= d
        lines.append(f"  std::vector<uint64_t> m{i}({size}); for (auto &w : m{i}) w = next(in);")
    lines.append("  fclose(in);")
    for n, _ in enumerate(loads):
        lines.append(f"  bool l{n}_full = false; uint64_t l{n}_word = 0;")
    for n, _ in enumerate(stores):
        lines.append(f"  bool w{n}_done = false;")
    for r, _ in enumerate(outs):
        lines.append(f"  uint64_t r{r} = 0; bool r{r}_got = false;")
    data_bits = {i: bits for i, (k, _, bits) in enumerate(args) if k == "mem"}

    def drive(first):
        body = []
        for i in scalars:
            port = scalar_port[i]
            body.append(f"    t->{port} = s{i}; t->{port}_valid = !s{i}_sent;")
        body.append(f"    t->{start}_valid = !started;")
        for n, (_, name) in enumerate(loads):
            body.append(f"    t->{name}_data = l{n}_word; t->{name}_data_valid = l{n}_full;")
            ready = f"!l{n}_full" if first else f"(!l{n}_full || t->{name}_data_ready)"
            body.append(f"    t->{name}_addr_ready = {ready};")
        for n, (_, name) in enumerate(stores):
            body.append(f"    t->{name}_done_valid = w{n}_done;")
            ready = f"!w{n}_done" if first else f"(!w{n}_done || t->{name}_done_ready)"
            body.append(f"    t->{name}_ready = {ready};")
        for o in outs + [done]:
            body.append(f"    t->{o}_ready = 1;")
        body.append("    t->eval();")
        return body

    fire = []
    for i in scalars:
        port = scalar_port[i]
        fire.append(f"    if (t->{port}_valid && t->{port}_ready) s{i}_sent = true;")
    fire.append(f"    if (t->{start}_valid && t->{start}_ready) started = true;")
    for n, (i, name) in enumerate(loads):
        fire += [
            f"    bool l{n}_take = t->{name}_data_valid && t->{name}_data_ready;",
            f"    bool l{n}_ask = t->{name}_addr_valid && t->{name}_addr_ready;",
            f"    uint64_t l{n}_addr = t->{name}_addr % m{i}.size();",
        ]
    for n, (i, name) in enumerate(stores):
        mask = (1 << data_bits[i]) - 1
        fire += [
            f"    bool w{n}_take = t->{name}_done_valid && t->{name}_done_ready;",
            f"    bool w{n}_put = t->{name}_valid && t->{name}_ready;",
            f"    uint64_t w{n}_addr = (t->{name} >> {data_bits[i]}) % m{i}.size();",
            f"    uint64_t w{n}_word = t->{name} & {mask:#x}ULL;",
        ]
    for r, o in enumerate(outs):
        fire.append(f"    if (t->{o}_valid) {{ r{r} = t->{o}; r{r}_got = true; }}")
    fire.append(f"    if (t->{done}_valid) done_seen = true;")
    fire.append("    bool finished = done_seen" + "".join(f" && r{r}_got" for r in range(len(outs))) + ";")
    commit = []
    for n, (i, _) in enumerate(loads):
        commit.append(f"    if (l{n}_take) l{n}_full = false;")
        commit.append(f"    if (l{n}_ask) {{ l{n}_word = m{i}[l{n}_addr]; l{n}_full = true; }}")
    for n, (i, _) in enumerate(stores):
        commit.append(f"    if (w{n}_take) w{n}_done = false;")
        commit.append(f"    if (w{n}_put) {{ m{i}[w{n}_addr] = w{n}_word; w{n}_done = true; }}")
    lines += [
        "  auto tick = [&]() { t->clock = 0; t->eval(); t->clock = 1; t->eval(); };",
        "  bool started = false, done_seen = false;",
        "  t->reset = 1; for (int i = 0; i < 5; i++) tick(); t->reset = 0;",
        "  uint64_t cycles = 0;",
        "  for (;;) {",
        *drive(True),
        *drive(False),
        *fire,
        "    if (finished) break;",
        "    tick(); cycles++;",
        *commit,
        f"    if (cycles > {max_cycles}ULL) {{ fprintf(stderr, \"no done after %llu cycles\\n\", "
        "(unsigned long long)cycles); return 3; }",
        "  }",
        "  printf(\"latency %llu\\n\", (unsigned long long)cycles);",
    ]
    for i, _ in mems.items():
        mask = (1 << data_bits[i]) - 1
        lines.append(f"  for (auto w : m{i}) printf(\"%llx\\n\", (unsigned long long)(w & {mask:#x}ULL));")
    for r, _ in enumerate(outs):
        lines.append(f"  if (!r{r}_got) {{ fprintf(stderr, \"result {r} never offered\\n\"); return 3; }}")
        lines.append(f"  printf(\"%llx\\n\", (unsigned long long)r{r});")
    lines += ["  delete t;", "  return 0;", "}"]
    return "\n".join(lines) + "\n"


def measure(silica, path, top, seed=1, buffers="all", max_cycles=50_000_000, keep=None):
    """{'ok': True, 'cycles': N} or {'ok': False, 'stage': ..., 'why': ...}."""
    python = circt_static.ensure_circt()
    work = keep or tempfile.mkdtemp(prefix="circt-dynamic-")
    os.makedirs(work, exist_ok=True)
    stage = "setup"
    try:
        try:
            with open(path) as f:
                text = f.read()
            args, results = circt_static.kernel_signature(text, top)
            stage = "mlir-opt-22"
            kernel = os.path.join(work, "kernel.mlir")
            with open(kernel, "w") as f:
                f.write(circt_static.top_function(text, top))
            low = circt_static.run(["mlir-opt-22", kernel, "--lower-affine", "--convert-scf-to-cf",
                                    "--canonicalize"])
            low = re.sub(r"\s*\{hls\.name = \"[^\"]*\"\}", "", low)
            flat = os.path.join(work, "kernel.flat.mlir")
            with open(flat, "w") as f:
                f.write(flatten_memrefs(low))
            low = circt_static.run(["mlir-opt-22", flat, "--lower-affine", "--canonicalize"])
            # CIRCT 1.62 does not parse the integer overflow flags.
            low = re.sub(r" overflow<[a-z, ]*>", "", low)
            low, origin = one_access_per_memref(low, top)
            with open(os.path.join(work, "kernel.cf.mlir"), "w") as f:
                f.write(low)
            stage = "circt handshake"
            driver = os.path.join(work, "circt_driver.py")
            with open(driver, "w") as f:
                f.write(DRIVER)
            verilog_path = os.path.join(work, f"{top}.sv")
            circt_static.run([python, driver, os.path.join(work, "kernel.cf.mlir"), buffers,
                              verilog_path])
            with open(verilog_path) as f:
                verilog = f.read()
            stage = "silica hls --sim (stimuli and software)"
            stimuli, expected = circt_static.software_run(silica, path, top, work, seed)
            stage = "verilator"
            tb = testbench(top, args, origin, results, module_ports(verilog, top), max_cycles)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            return circt_static.failure(stage, e)
        return circt_static.verilate_and_compare(top, verilog_path, tb, work, stimuli, expected)
    finally:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--top", required=True)
    ap.add_argument("--silica", default=os.path.join(ROOT, "target", "release", "silica"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--buffers", choices=["all", "cycles"], default="all")
    ap.add_argument("--keep", default=None, help="work in this directory and keep it")
    a = ap.parse_args()
    r = measure(a.silica, a.file, a.top, a.seed, a.buffers, keep=a.keep)
    if r["ok"]:
        print(f"{a.top}: {r['cycles']} cycles (CIRCT dynamic flow, buffers={a.buffers}, "
              "outputs identical to software)")
    else:
        print(f"{a.top}: failed at {r['stage']}: {r['why']}")
        sys.exit(1)


if __name__ == "__main__":
    main()
