#!/usr/bin/env python3
"""Bytecode conformance: on the MLIR test chunks silica prints exactly as
mlir-opt-22 does, compares the two tools' MLIR bytecode.

Chunks are picked as bench/conformance.py picks them: every `// -----`
chunk of the test files, run with the shared flags of the file's first
mlir-opt RUN line (less `--verify-diagnostics`), in scope when it names
no dialect but silica's; a chunk counts when both tools print it to the
same text. For each such chunk:

  byte-identical   `silica opt --emit-bytecode` writes the bytes
                   `mlir-opt-22 --emit-bytecode` writes;
  silica -> mlir   mlir-opt-22 reads silica's bytecode and prints what it
                   prints of the chunk (or of its own bytecode of it: MLIR's
                   round trip is not always exact), with and without
                   `--mlir-print-debuginfo`;
  mlir -> silica   silica reads mlir-opt-22's bytecode and prints what it
                   prints of the chunk, or what mlir-opt-22 prints of that
                   bytecode, with and without locations.

A file counts as byte-identical when all its counted chunks are.
With --record SUITE the counts are appended to
bench/results/bytecode_conformance.csv and the table of docs/BENCHMARKS.md
written from them (bench/tables.py).

Usage: python3 bench/bytecode_conformance.py DIR_OR_FILE... [--silica PATH] [--record SUITE]
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tables  # noqa: E402
from conformance import (  # noqa: E402
    chunks_of, mlir_files, registered_dialects, scope_pattern, share_cell, without_comments)


TABLE = tables.Table(
    "bytecode_conformance", "docs/BENCHMARKS.md",
    ("suite", "chunks", "identical", "to_mlir", "from_mlir", "files", "files_identical"),
    [tables.col("suite", "suite", right=False),
     tables.col("chunks printed alike", "chunks", "int"),
     tables.col("bytecode identical", "identical", "int"),
     tables.Column("share", share_cell("chunks", "identical")),
     tables.col("silica → mlir-opt", "to_mlir", "int"),
     tables.col("mlir-opt → silica", "from_mlir", "int"),
     tables.col("files", "files", "int"),
     tables.col("files identical", "files_identical", "int"),
     tables.Column("file share", share_cell("files", "files_identical"))],
    key=("suite",), command="python3 bench/bytecode_conformance.py DIR... --record SUITE")
TABLES = [TABLE]

DEBUG = "--mlir-print-debuginfo"


def run(argv, timeout=60):
    try:
        r = subprocess.run(argv, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, b"", b"timeout"
    return r.returncode, r.stdout, r.stderr


def check(job):
    """The verdict on one chunk: None when the tools print it differently,
    else (identical, silica -> mlir ok, mlir -> silica ok, detail)."""
    silica, mlir_opt, scratch, index, text, flags = job
    flags = [f for f in flags if f != "--verify-diagnostics"]
    src = os.path.join(scratch, f"chunk{index}.mlir")
    ours_bc = os.path.join(scratch, f"chunk{index}.silica.mlirbc")
    theirs_bc = os.path.join(scratch, f"chunk{index}.mlir-opt.mlirbc")
    with open(src, "w", encoding="utf-8") as f:
        f.write(text)
    try:
        s = run([silica, "opt", *flags, src])
        m = run([mlir_opt, *flags, src])
        if s[0] != 0 or m[0] != 0 or s[1] != m[1]:
            return None
        reading = [f for f in flags if f == "--allow-unregistered-dialect" or f.startswith("--irdl-file")]
        wrote = run([silica, "opt", *reading, "--emit-bytecode", src, "-o", ours_bc])
        run([mlir_opt, *reading, "--emit-bytecode", src, "-o", theirs_bc])
        if wrote[0] != 0:
            msg = wrote[2].decode(errors="replace").strip().splitlines()
            return False, False, False, "silica cannot write: " + (msg[0] if msg else "")
        with open(ours_bc, "rb") as a, open(theirs_bc, "rb") as b:
            identical = a.read() == b.read()
        # MLIR's own round trip is not always exact (an attribute written
        # as text may read back simplified): what a tool prints of the
        # chunk, or of mlir-opt-22's bytecode of it, is the reference.
        def agrees(tool, bc):
            for extra in ([], [DEBUG]):
                got = run([*tool, *flags, *extra, bc])[:2]
                if got != run([*tool, *flags, *extra, src])[:2] and \
                        got != run([mlir_opt, *flags, *extra, theirs_bc])[:2]:
                    return False
            return True
        to_mlir = agrees([mlir_opt], ours_bc)
        from_mlir = agrees([silica, "opt"], theirs_bc)
        detail = "" if identical else "bytes differ"
        if not to_mlir:
            detail += "; mlir-opt reads silica's bytecode differently"
        if not from_mlir:
            detail += "; silica reads mlir-opt's bytecode differently"
        return identical, to_mlir, from_mlir, detail.strip("; ")
    finally:
        for p in (src, ours_bc, theirs_bc):
            if os.path.exists(p):
                os.remove(p)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--silica", default=os.path.join(HERE, "..", "target", "release", "silica"))
    parser.add_argument("--mlir-opt", default="mlir-opt-22")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--record", metavar="SUITE",
                        help="append the counts to bench/results/bytecode_conformance.csv as SUITE's")
    args = parser.parse_args()
    started = time.time()
    pattern = scope_pattern(registered_dialects(args.mlir_opt))
    with tempfile.TemporaryDirectory(prefix="silica-bytecode-") as scratch:
        jobs, where = [], []
        for path in mlir_files(args.paths):
            for line, text, flags, _ in chunks_of(path):
                if pattern.search(without_comments(text)):
                    continue
                where.append((path, line))
                jobs.append((args.silica, args.mlir_opt, scratch, len(jobs), text, flags))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(check, jobs))
    counts = {"chunks": 0, "identical": 0, "to_mlir": 0, "from_mlir": 0}
    files = {}
    bad = []
    for (path, line), r in zip(where, results):
        if r is None:
            continue
        identical, to_mlir, from_mlir, detail = r
        counts["chunks"] += 1
        counts["identical"] += identical
        counts["to_mlir"] += to_mlir
        counts["from_mlir"] += from_mlir
        files[path] = files.get(path, True) and identical
        if detail:
            bad.append(f"  {os.path.relpath(path)}:{line}: {detail}")
    n = counts["chunks"]
    print(f"chunks both tools print alike: {n}")
    for k, label in (("identical", "bytecode byte-identical"), ("to_mlir", "silica -> mlir-opt round trip"),
                     ("from_mlir", "mlir-opt -> silica round trip")):
        print(f"  {label}: {counts[k]} ({100.0 * counts[k] / max(n, 1):.1f}%)")
    same_files = sum(files.values())
    print(f"files: {len(files)}, all chunks byte-identical: {same_files} ({100.0 * same_files / max(len(files), 1):.1f}%)")
    if bad:
        print("differences:")
        print("\n".join(bad))
    if args.record:
        tables.record(TABLE, [dict(counts, suite=args.record, files=len(files), files_identical=same_files)],
                      tables.meta(args.silica, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    main()
