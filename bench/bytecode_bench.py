#!/usr/bin/env python3
"""Bytecode speed: how fast silica reads and writes MLIR bytecode against
the text path of the same file (bar: at least 3x faster each way).

Inputs: the IR benchmark's generic-form file of unregistered ops
(gen_generic.py, about 24 MB) and the pretty benchmark's func/arith/scf/
memref file (gen_pretty.py, about 7 MB). Each is written as bytecode by
both tools (the bytes compared), then timed in-process with
`--mlir-timing`, whose Parser row is the read and whose Output row is the
write:

  read   TOOL IN.mlir -o /dev/null      TOOL LOC.mlir -o /dev/null    TOOL IN.mlirbc -o /dev/null  (Parser)
  write  TOOL IN.mlir -o /dev/null      ... --mlir-print-debuginfo     ... --emit-bytecode          (Output)

Bytecode holds every op's location: the *text with locations* columns
time the text that holds them too (LOC.mlir is IN.mlir printed with
`--mlir-print-debuginfo`; the write prints with it), the *text* columns
the text as written without them (the parser makes `file:line:col`
locations, the printer leaves them out). silica reads large text and
large bytecode on two threads (each file in halves of its functions)
and prints large text on two; mlir-opt-22 reads and writes on one.

Each command runs `--runs` times (alternating); the best times are kept.
mlir-opt-22's figures are shown beside silica's. The rows are appended to
bench/results/bytecode_bench.csv and the table of docs/BENCHMARKS.md
written from them (bench/tables.py), unless --no-record.

Usage: python3 bench/bytecode_bench.py [--runs 5] [--silica target/release/silica] [--no-record]
"""
import argparse
import filecmp
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tables  # noqa: E402

FIELDS = ("input", "job", "silica_text_s", "silica_loc_text_s", "silica_bytecode_s", "speedup", "loc_speedup",
          "mlir_text_s", "mlir_loc_text_s", "mlir_bytecode_s", "mlir_speedup", "mlir_loc_speedup", "identical")

TABLE = tables.Table(
    "bytecode_bench", "docs/BENCHMARKS.md", FIELDS,
    [tables.col("input", "input", right=False),
     tables.col("job", "job", right=False),
     tables.col("silica text s", "silica_text_s"),
     tables.col("silica text with locations s", "silica_loc_text_s"),
     tables.col("silica bytecode s", "silica_bytecode_s"),
     tables.col("× text", "speedup"),
     tables.col("× text with locations", "loc_speedup"),
     tables.col("mlir-opt-22 text s", "mlir_text_s"),
     tables.col("mlir-opt-22 text with locations s", "mlir_loc_text_s"),
     tables.col("mlir-opt-22 bytecode s", "mlir_bytecode_s"),
     tables.col("mlir-opt-22 × text", "mlir_speedup"),
     tables.col("mlir-opt-22 × text with locations", "mlir_loc_speedup"),
     tables.col("bytecode identical", "identical", right=False)],
    key=("input", "job"), command="python3 bench/bytecode_bench.py --runs 5")
TABLES = [TABLE]

BAR = 3.0


def phases(argv):
    """Runs argv with --mlir-timing: the Parser and Output seconds."""
    r = subprocess.run(argv + ["--mlir-timing"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"command failed: {' '.join(argv)}\n{r.stderr}")
    found = {}
    for line in r.stderr.splitlines():
        m = re.match(r"\s*([0-9.]+) \(\s*[0-9.]+%\)\s+(Parser|Output)\s*$", line)
        if m:
            found[m.group(2)] = float(m.group(1))
    return found["Parser"], found["Output"]


def best(cmds, runs):
    """Runs each command `runs` times, alternating; the best (Parser,
    Output) seconds of each."""
    out = [[float("inf"), float("inf")] for _ in cmds]
    for _ in range(runs):
        for i, c in enumerate(cmds):
            p, o = phases(c)
            out[i][0] = min(out[i][0], p)
            out[i][1] = min(out[i][1], o)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--silica", default=os.path.join(HERE, "..", "target", "release", "silica"))
    parser.add_argument("--mlir-opt", default="mlir-opt-22")
    parser.add_argument("--no-record", action="store_true",
                        help="do not append to bench/results/ nor write docs/BENCHMARKS.md's table")
    args = parser.parse_args()
    started = time.time()
    rows = []
    verdicts = {}
    with tempfile.TemporaryDirectory(prefix="silica-bench-") as tmp:
        inputs = [
            ("generic", "gen_generic.py", [], ["--allow-unregistered-dialect"]),
            ("pretty", "gen_pretty.py", ["--funcs", "1000"], []),
        ]
        for name, gen, gen_args, flags in inputs:
            src = os.path.join(tmp, f"{name}.mlir")
            subprocess.run([sys.executable, os.path.join(HERE, gen), src, *gen_args], check=True,
                           stdout=subprocess.DEVNULL)
            ours, theirs = os.path.join(tmp, f"{name}.silica.mlirbc"), os.path.join(tmp, f"{name}.mlir-opt.mlirbc")
            subprocess.run([args.silica, "opt", *flags, src, "--emit-bytecode", "-o", ours], check=True)
            subprocess.run([args.mlir_opt, *flags, src, "--emit-bytecode", "-o", theirs], check=True)
            same = filecmp.cmp(ours, theirs, shallow=False)
            print(f"{name}: {os.path.getsize(src) / 1e6:.1f} MB text, {os.path.getsize(ours) / 1e6:.1f} MB "
                  f"bytecode, identical to mlir-opt-22's: {same}")
            located = os.path.join(tmp, f"{name}.loc.mlir")
            subprocess.run([args.silica, "opt", *flags, src, "--mlir-print-debuginfo", "-o", located], check=True)
            out = ["-o", os.devnull]
            debug = "--mlir-print-debuginfo"
            s_text, s_loc, s_bc, s_emit, s_locw, m_text, m_loc, m_bc, m_emit, m_locw = best([
                [args.silica, "opt", *flags, src, *out],
                [args.silica, "opt", *flags, located, *out],
                [args.silica, "opt", *flags, ours, *out],
                [args.silica, "opt", *flags, src, "--emit-bytecode", *out],
                [args.silica, "opt", *flags, src, debug, *out],
                [args.mlir_opt, *flags, src, *out],
                [args.mlir_opt, *flags, located, *out],
                [args.mlir_opt, *flags, theirs, *out],
                [args.mlir_opt, *flags, src, "--emit-bytecode", *out],
                [args.mlir_opt, *flags, src, debug, *out],
            ], args.runs)
            for job, st, sl, sb, mt, ml, mb in (
                    ("read", s_text[0], s_loc[0], s_bc[0], m_text[0], m_loc[0], m_bc[0]),
                    ("write", s_text[1], s_locw[1], s_emit[1], m_text[1], m_locw[1], m_emit[1])):
                speedup, loc_speedup = st / max(sb, 1e-9), sl / max(sb, 1e-9)
                mlir_speedup, mlir_loc_speedup = mt / max(mb, 1e-9), ml / max(mb, 1e-9)
                for bar_name, x in (("text", speedup), ("text with locations", loc_speedup)):
                    verdicts.setdefault(bar_name, []).append(x >= BAR)
                print(f"  {job:<6} silica text {st:.4f} s, with locations {sl:.4f} s, bytecode {sb:.4f} s: "
                      f"{speedup:.1f}x, {loc_speedup:.1f}x   (mlir-opt-22 text {mt:.4f} s, with locations "
                      f"{ml:.4f} s, bytecode {mb:.4f} s: {mlir_speedup:.1f}x, {mlir_loc_speedup:.1f}x)")
                rows.append({"input": name, "job": job, "silica_text_s": f"{st:.4f}",
                             "silica_loc_text_s": f"{sl:.4f}", "silica_bytecode_s": f"{sb:.4f}",
                             "speedup": f"{speedup:.1f}", "loc_speedup": f"{loc_speedup:.1f}",
                             "mlir_text_s": f"{mt:.4f}", "mlir_loc_text_s": f"{ml:.4f}",
                             "mlir_bytecode_s": f"{mb:.4f}", "mlir_speedup": f"{mlir_speedup:.1f}",
                             "mlir_loc_speedup": f"{mlir_loc_speedup:.1f}", "identical": "yes" if same else "no"})
    for bar_name, oks in verdicts.items():
        print(f"bar: bytecode read and write at least {BAR:.0f}x faster than {bar_name}: "
              f"{'PASS' if all(oks) else 'FAIL'}")
    if not args.no_record:
        tables.record(TABLE, rows, tables.meta(args.silica, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    main()
