#!/usr/bin/env python3
"""System co-simulation benchmark (`silica cosim`): for kernels
of bench/hls_qor.py's set, a program is generated that fills every
memref argument with fixed pseudo-random values, calls the kernel once
and prints every memref word and result (bits in hex; NaNs as one
pattern); `silica cosim PROGRAM --kernel F` runs it in software and with
the accelerator (the AXI wrapper in Verilator behind the `sim` driver
backend) and checks the outputs are identical. From the backend's line
of the call:

- cycles: the call, from the device's open to its close (buffers copied
  in, registers written, the run, copies back);
- system latency: cycles from the first register write to the read that
  sees ap_done, and the share of them in which an AXI transfer of the
  wrapper's master (copying memrefs between host memory and the on-chip
  RAMs, or moving DMA tiles) was under way;
- AXI traffic: read and write bursts, bytes;
- speed: simulated cycles per second of wall time, over the call (the
  Verilated model, its memory model and the register traffic).

Kernels marked `+dma` are first tiled and given DMA copies with double
buffering (`silica opt --affine-loop-tile --affine-data-copy-generate
--affine-pipeline-data-transfer`); behind the AXI wrapper their DMA
engines stream: the wrapper's master moves each tile between host memory
and the core's tile buffers as bursts while the core computes.

The rows are appended to bench/results/system_cosim.csv and the table of
docs/QOR.md written from them (bench/tables.py), unless --no-record.

Usage: python3 bench/system_cosim.py [--silica PATH] [--jobs N] [--only NAME,...]
       [--no-record]
       (prints a markdown table)
"""
import argparse
import concurrent.futures
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
import tables  # noqa: E402

SMALL = os.path.join(HERE, "hls_qor_kernels.mlir")
# bench/hls_qor.py's kernels at modest sizes: its five small kernels, its
# PolyBench kernels at 16 per dimension, gemm at MINI size in f32, and
# two kernels with DMA and double buffering.
SIZED = {
    "atax16": ("atax", {"M": 16, "N": 16}, "i32"),
    "bicg16": ("bicg", {"M": 16, "N": 16}, "i32"),
    "gesummv16": ("gesummv", {"N": 16}, "i32"),
    "mvt16": ("mvt", {"N": 16}, "i32"),
    "jacobi-1d16": ("jacobi-1d", {"TSTEPS": 4, "N": 32}, "i32"),
    "gesummv16 (f32)": ("gesummv", {"N": 16}, "f32"),
}
DMA_PASSES = ["--affine-data-copy-generate=generate-dma fast-mem-space=1 fast-mem-capacity=1",
              "--affine-pipeline-data-transfer"]
DMA = {
    "vadd+dma": ("vadd", ["--affine-loop-tile=tile-sizes=16"] + DMA_PASSES),
    "gemm16+dma": ("gemm16", ["--affine-loop-tile=tile-sizes=4,4,16"] + DMA_PASSES),
}
MINI = {"gemm (f32)": os.path.join(ROOT, "examples", "polybench", "mini", "gemm.f32.mlir")}


def busy_cell(r):
    return f"{int(r['busy']):,} ({r['share']}%)" if r.get("busy") else ""


def bursts_cell(r):
    return f"{r['reads']}, {r['writes']}" if r.get("reads") else ""


def summary(rows):
    ok = [r for r in rows if r.get("status") == "ok"]
    out = []
    timed = [r for r in ok if r.get("cycles") and r.get("ms")]
    if timed and len(timed) == len(ok):
        cycles = sum(int(r["cycles"]) for r in timed)
        ms = sum(float(r["ms"]) for r in timed)
        out.append(f"All calls: {cycles:,} cycles in {ms:.0f} ms: {cycles / (ms / 1e3):,.0f} simulated cycles/s.")
    out += [f"- {r['kernel']}: {r['status']}" for r in rows if r.get("status") != "ok"]
    return out


def hide_failures(rows):
    for r in rows:
        r["_hidden"] = r.get("status") != "ok"
    return rows


TABLE = tables.Table(
    "system_cosim", "docs/QOR.md",
    ("kernel", "status", "values", "cycles", "span", "busy", "share", "reads", "writes", "bytes", "ms",
     "rate"),
    [tables.col("kernel", "kernel", right=False),
     tables.col("values compared", "values", "int"),
     tables.col("call cycles", "cycles", "int"),
     tables.col("first write to done", "span", "int"),
     tables.Column("AXI busy (share)", busy_cell),
     tables.Column("AXI bursts (read, write)", bursts_cell, right=False),
     tables.col("bytes", "bytes", "int"),
     tables.col("wall ms", "ms", ".1f"),
     tables.col("simulated cycles/s", "rate", "int")],
    key=("kernel",), command="python3 bench/system_cosim.py --jobs 1",
    transform=hide_failures, summary=summary)
TABLES = [TABLE]


def signature(text, top):
    """[(name, type)] of `top`'s arguments, and its result types."""
    m = re.search(r"func\.func @" + re.escape(top) + r"\((.*?)\)\s*(->\s*\(?([^{]*?)\)?)?\s*\{", text, re.S)
    args = []
    for a in re.finditer(r"%(\w+)\s*:\s*(memref<[^>]*>|[\w]+)", m.group(1)):
        args.append((a.group(1), a.group(2)))
    results = [t.strip() for t in (m.group(3) or "").split(",") if t.strip()]
    return args, results


def memref_parts(t):
    parts = t[len("memref<"):-1].split("x")
    return [int(p) for p in parts[:-1]], parts[-1]


def int_width(t):
    return 64 if t == "index" else int(t[1:])


class Program:
    """The text of a generated `main` (scf loops, so the DMA passes leave it alone)."""

    def __init__(self):
        self.lines = []
        self.n = 0

    def v(self, text):
        self.n += 1
        name = f"%v{self.n}"
        self.lines.append(f"  {name} = {text}")
        return name

    def const(self, value, ty):
        return self.v(f"arith.constant {value} : {ty}")

    def loops(self, shape):
        """Opens nested loops over `shape`; gives the induction variables and
        the flattened index (as i32)."""
        zero, one = self.const(0, "index"), self.const(1, "index")
        ivs = []
        for d in shape:
            bound = self.const(d, "index")
            self.n += 1
            iv = f"%i{self.n}"
            self.lines.append(f"  scf.for {iv} = {zero} to {bound} step {one} {{")
            ivs.append(iv)
        flat = self.const(0, "index")
        for iv, d in zip(ivs, shape):
            dd = self.const(d, "index")
            flat = self.v(f"arith.muli {flat}, {dd} : index")
            flat = self.v(f"arith.addi {flat}, {iv} : index")
        return ivs, self.v(f"arith.index_cast {flat} : index to i32")

    def close(self, shape):
        self.lines.extend(["  }"] * len(shape))

    def value(self, k, seed, ty):
        """A pseudo-random element from the i32 index `k`: 1..64 for integers,
        that over 16 for floats."""
        a, c = self.const(1103515245, "i32"), self.const(12345 + 7919 * seed, "i32")
        x = self.v(f"arith.muli {k}, {a} : i32")
        x = self.v(f"arith.addi {x}, {c} : i32")
        s = self.const(16, "i32")
        x = self.v(f"arith.shrui {x}, {s} : i32")
        m = self.const(63, "i32")
        x = self.v(f"arith.andi {x}, {m} : i32")
        one = self.const(1, "i32")
        x = self.v(f"arith.addi {x}, {one} : i32")
        if ty.startswith("f"):
            f = self.v(f"arith.sitofp {x} : i32 to {ty}")
            sixteen = self.const("16.0", ty)
            return self.v(f"arith.divf {f}, {sixteen} : {ty}")
        w = int_width(ty)
        if w < 32:
            return self.v(f"arith.trunci {x} : i32 to {ty}")
        if w > 32:
            return self.v(f"arith.extsi {x} : i32 to {ty}")
        return x

    def show(self, v, ty):
        """printf's the bits of `v` in hex (NaNs as 7fc00000 / 7ff8...)."""
        if ty.startswith("f"):
            w = int(ty[1:])
            bits = self.v(f"arith.bitcast {v} : {ty} to i{w}")
            nan = self.v(f"arith.cmpf uno, {v}, {v} : {ty}")
            canon = self.const(0x7FC00000 if w == 32 else 0x7FF8000000000000, f"i{w}")
            bits = self.v(f"arith.select {nan}, {canon}, {bits} : i{w}")
            ty = f"i{w}"
            v = bits
        if ty == "index":
            v = self.v(f"arith.index_cast {v} : index to i64")
        elif int_width(ty) < 64:
            v = self.v(f"arith.extui {v} : {ty} to i64")
        fmt = self.v("llvm.mlir.addressof @fmt_hex : !llvm.ptr")
        self.v(f"llvm.call @printf({fmt}, {v}) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64) -> i32")


TIMER = """llvm.mlir.global external @stderr() {addr_space = 0 : i32} : !llvm.ptr
llvm.mlir.global internal constant @fmt_call_ns("silica bench: kernel call %lld ns\\0A\\00") {addr_space = 0 : i32}
llvm.func @fprintf(!llvm.ptr, !llvm.ptr, ...) -> i32
llvm.func @clock_gettime(i32, !llvm.ptr) -> i32
"""


def now_ns(p):
    """The monotonic clock in nanoseconds (an i64 value of `p`)."""
    one = p.v("llvm.mlir.constant(1 : i64) : i64")
    ts = p.v(f"llvm.alloca {one} x !llvm.struct<(i64, i64)> : (i64) -> !llvm.ptr")
    monotonic = p.v("llvm.mlir.constant(1 : i32) : i32")
    p.v(f"llvm.call @clock_gettime({monotonic}, {ts}) : (i32, !llvm.ptr) -> i32")
    sec = p.v(f"llvm.load {ts} : !llvm.ptr -> i64")
    nsp = p.v(f"llvm.getelementptr {ts}[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i64, i64)>")
    nsec = p.v(f"llvm.load {nsp} : !llvm.ptr -> i64")
    billion = p.v("llvm.mlir.constant(1000000000 : i64) : i64")
    whole = p.v(f"llvm.mul {sec}, {billion} : i64")
    return p.v(f"llvm.add {whole}, {nsec} : i64")


def program(kernel_text, top, timed=False):
    """The program that fills the kernel's memrefs, calls it once and prints
    every word; `timed`: it also prints the call's wall time on stderr
    (`silica bench: kernel call N ns`)."""
    args, results = signature(kernel_text, top)
    p = Program()
    names = []
    for i, (name, ty) in enumerate(args):
        if ty.startswith("memref"):
            shape, elem = memref_parts(ty)
            m = p.v(f"memref.alloc() : {ty}")
            ivs, k = p.loops(shape)
            val = p.value(k, i, elem)
            p.lines.append(f"  memref.store {val}, {m}[{', '.join(ivs)}] : {ty}")
            p.close(shape)
            names.append(m)
        elif ty.startswith("f"):
            names.append(p.const("1.5", ty))
        else:
            names.append(p.const(8 if ty == "index" else 3, ty))
    types = ", ".join(t for _, t in args)
    res = ", ".join(results)
    call = f"func.call @{top}({', '.join(names)}) : ({types}) -> ({res})"
    start = now_ns(p) if timed else None
    if results:
        p.n += 1
        r = f"%r{p.n}"
        p.lines.append(f"  {r}:{len(results)} = {call}" if len(results) > 1 else f"  {r} = {call}")
        for j, t in enumerate(results):
            p.show(f"{r}#{j}" if len(results) > 1 else r, t)
    else:
        p.lines.append(f"  {call}")
    if timed:
        end = now_ns(p)
        took = p.v(f"llvm.sub {end}, {start} : i64")
        err_at = p.v("llvm.mlir.addressof @stderr : !llvm.ptr")
        err = p.v(f"llvm.load {err_at} : !llvm.ptr -> !llvm.ptr")
        fmt = p.v("llvm.mlir.addressof @fmt_call_ns : !llvm.ptr")
        p.v(f"llvm.call @fprintf({err}, {fmt}, {took}) vararg(!llvm.func<i32 (ptr, ptr, ...)>) : (!llvm.ptr, !llvm.ptr, i64) -> i32")
    for m, (name, ty) in zip(names, args):
        if ty.startswith("memref"):
            shape, elem = memref_parts(ty)
            ivs, _ = p.loops(shape)
            v = p.v(f"memref.load {m}[{', '.join(ivs)}] : {ty}")
            p.show(v, elem)
            p.close(shape)
    zero = p.const(0, "i32")
    body = "\n".join(p.lines)
    return (kernel_text + '\nllvm.mlir.global internal constant @fmt_hex("%llx\\0A\\00") {addr_space = 0 : i32}\n'
            + "llvm.func @printf(!llvm.ptr, ...) -> i32\n" + (TIMER if timed else "")
            + f"func.func @main() -> i32 {{\n{body}\n  return {zero} : i32\n}}\n")


def kernels(workdir):
    """(name, kernel text, top, passes)."""
    import gen  # examples/polybench/gen.py
    out = []
    with open(SMALL) as f:
        small = f.read()
    for top in re.findall(r"func\.func @(\w+)\(", small):
        out.append((top, small, top, []))
    for label, (name, sizes, ty) in SIZED.items():
        out.append((label, gen.render(name, "custom", ty, sizes), gen.top_name(name), []))
    for label, path in MINI.items():
        with open(path) as f:
            text = f.read()
        out.append((label, text, re.search(r"func\.func @(\w+)\(", text).group(1), []))
    for label, (top, passes) in DMA.items():
        out.append((label, small, top, passes))
    return out


CALL = re.compile(r"call 1: (\d+) cycles, (\d+) AXI read bursts, (\d+) AXI write bursts, (\d+) bytes; "
                  r"first register write to done (\d+) cycles, AXI busy (\d+) \((\d+)%\); ([\d.]+) ms")


def run_one(silica, name, text, top, passes, workdir):
    base = os.path.join(workdir, re.sub(r"[^\w.-]", "_", name))
    src = base + ".mlir"
    prog = program(text, top)
    if passes:
        r = subprocess.run([silica, "opt"] + passes + ["-"], input=prog, capture_output=True, text=True)
        if r.returncode != 0:
            return {"name": name, "ok": False, "why": r.stderr.strip().splitlines()[-1]}
        prog = r.stdout
    with open(src, "w") as f:
        f.write(prog)
    r = subprocess.run([silica, "cosim", src, "--kernel", top, "-o", base + ".d"], capture_output=True, text=True)
    if r.returncode != 0:
        err = [line for line in r.stderr.splitlines() if "error" in line]
        return {"name": name, "ok": False, "why": (err or r.stderr.splitlines() or ["failed"])[0][:200]}
    m = CALL.search(r.stdout)
    lines = re.search(r"(\d+) lines of output identical", r.stdout).group(1)
    cycles, rb, wb, nbytes, span, busy, share, ms = m.groups()
    return {"name": name, "ok": True, "lines": int(lines), "cycles": int(cycles), "reads": int(rb),
            "writes": int(wb), "bytes": int(nbytes), "span": int(span), "busy": int(busy),
            "share": int(share), "ms": float(ms)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--silica", default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default=None)
    ap.add_argument("--no-record", action="store_true",
                    help="do not append the rows to bench/results/ nor write docs/QOR.md's table")
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
            results = list(pool.map(lambda k: run_one(silica, *k, workdir), ks))
    print(f"silica: {silica}")
    print("| kernel | values compared | call cycles | first write to done | AXI busy (share) | "
          "AXI bursts (read, write) | bytes | wall ms | simulated cycles/s |")
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|")
    total_cycles = total_ms = 0.0
    failed = []
    for r in results:
        if not r["ok"]:
            failed.append(r)
            continue
        rate = r["cycles"] / (r["ms"] / 1e3) if r["ms"] else 0
        total_cycles += r["cycles"]
        total_ms += r["ms"]
        print(f"| {r['name']} | {r['lines']} | {r['cycles']:,} | {r['span']:,} | {r['busy']:,} ({r['share']}%) | "
              f"{r['reads']}, {r['writes']} | {r['bytes']:,} | {r['ms']:.1f} | {rate:,.0f} |")
    if total_ms:
        print(f"\nall calls: {total_cycles:,.0f} cycles in {total_ms:.0f} ms: "
              f"{total_cycles / (total_ms / 1e3):,.0f} simulated cycles/s")
    for r in failed:
        print(f"- {r['name']}: {r['why']}")
    if not args.no_record:
        rows = []
        for r in results:
            row = {"kernel": r["name"], "status": "ok" if r["ok"] else r["why"]}
            if r["ok"]:
                row.update({"values": r["lines"], "cycles": r["cycles"], "span": r["span"], "busy": r["busy"],
                            "share": r["share"], "reads": r["reads"], "writes": r["writes"],
                            "bytes": r["bytes"], "ms": f"{r['ms']:.3f}",
                            "rate": f"{r['cycles'] / (r['ms'] / 1e3):.0f}" if r["ms"] else ""})
            rows.append(row)
        tables.record(TABLE, rows, tables.meta(silica, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    main()
