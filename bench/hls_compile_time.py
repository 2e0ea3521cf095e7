#!/usr/bin/env python3
"""Times `silica hls` without --sim on the HLS kernel set: every PolyBench
MINI kernel of examples/polybench/mini (f32 and i32) and the kernels of
bench/hls_qor_kernels.mlir, one after the other, and says how many were
compiled and which were refused.

The run is appended to bench/results/hls_compile_time.csv and the table
of docs/QOR.md written from it (bench/tables.py), unless --no-record.

Usage: python3 bench/hls_compile_time.py [SILICA] [--no-record]
       (SILICA: target/release/silica unless given)
"""
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import tables  # noqa: E402

FUNC = re.compile(r"func\.func @([A-Za-z0-9_]+)")

TABLE = tables.Table(
    "hls_compile_time", "docs/QOR.md", ("kernels", "compiled", "seconds", "refused"),
    [tables.col("kernels", "kernels", "int"),
     tables.col("compiled", "compiled", "int"),
     tables.col("wall s", "seconds", ".2f"),
     tables.col("refused", "refused", right=False)],
    command="python3 bench/hls_compile_time.py target/release/silica")
TABLES = [TABLE]


def jobs():
    """(file, top) of every kernel of the set, in the order they run."""
    out = []
    for f in sorted(glob.glob(os.path.join("examples", "polybench", "mini", "*.mlir"))):
        with open(f) as text:
            m = FUNC.search(text.read())
        if m:
            out.append((f, m.group(1)))
    small = os.path.join("bench", "hls_qor_kernels.mlir")
    with open(small) as text:
        out += [(small, top) for top in FUNC.findall(text.read())]
    return out


def main():
    args = [a for a in sys.argv[1:] if a != "--no-record"]
    no_record = "--no-record" in sys.argv[1:]
    os.chdir(ROOT)
    silica = args[0] if args else os.path.join("target", "release", "silica")
    todo = jobs()
    refused = []
    started = time.time()
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        for path, top in todo:
            r = subprocess.run([silica, "hls", path, "--top", top, "-o", os.path.join(out, "d")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if r.returncode != 0:
                refused.append(f"{path} --top {top}")
                print(f"refused: {path} --top {top}")
        seconds = time.perf_counter() - start
    compiled = len(todo) - len(refused)
    print(f"{compiled} of {len(todo)} kernels compiled in {seconds:.2f} s")
    if not no_record:
        command = "python3 bench/hls_compile_time.py " + " ".join(sys.argv[1:])
        tables.record(TABLE, [{"kernels": len(todo), "compiled": compiled, "seconds": f"{seconds:.2f}",
                               "refused": "; ".join(refused)}],
                      tables.meta(silica, command=command.strip(), started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    main()
