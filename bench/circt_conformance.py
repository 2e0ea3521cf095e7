#!/usr/bin/env python3
"""CIRCT conformance: runs every chunk of CIRCT test files through silica
and the `circt` 1.62 Python wheel and reports where they agree.

Each file is split at `// -----` lines. The wheel parses a chunk (with
unregistered dialects allowed) and prints it; silica runs `silica opt
--allow-unregistered-dialect` on it. A chunk agrees when both print the
same text (up to runs of spaces inside a line: the 1.62 wheel prints
`seq.compreg  %a` where the newer test files, and silica, write one
space), or both reject it. A chunk is *in scope* when the ops, types
and attributes it names belong to hw, comb, seq, builtin or unregistered
dialects (the wheel does not register func); chunks with `expected-error` lines are counted
apart (agreement = both reject).

With --record the totals are appended to bench/results/circt_conformance.csv
and the table of docs/BENCHMARKS.md written from them (bench/tables.py).

Usage: python3 bench/circt_conformance.py DIR_OR_FILE... [--silica PATH] [--list] [--record]
(needs `pip install circt==1.62.0`)
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tables  # noqa: E402

TABLE = tables.Table(
    "circt_conformance", "docs/BENCHMARKS.md", ("in_scope", "agree", "errors", "errors_agree", "out_of_scope"),
    [tables.col("in-scope chunks", "in_scope", "int"),
     tables.col("print identically", "agree", "int"),
     tables.col("expected-error chunks", "errors", "int"),
     tables.col("rejected by both", "errors_agree", "int"),
     tables.col("out of scope", "out_of_scope", "int")],
    command="python3 bench/circt_conformance.py $CIRCT/test/Dialect/{HW,Comb,Seq} --record")
TABLES = [TABLE]
SPLIT = re.compile(r"^// -----\s*$", re.M)
SCOPE = {"hw", "comb", "seq", "builtin"}
CIRCT_DIALECTS = {
    "hw", "comb", "seq", "sv", "firrtl", "esi", "msft", "handshake", "calyx", "fsm",
    "llhd", "moore", "om", "verif", "ltl", "emit", "dc", "arc", "ssp", "systemc",
    "debug", "dbg", "sim", "interop", "loopschedule", "pipeline", "ibis", "kanagawa", "rtg",
    "rtgtest", "smt", "synth", "datapath", "aig", "arith", "scf", "cf", "memref",
    "affine", "llvm", "math", "index", "func", "builtin", "emitc", "dlti",
}
NAME = re.compile(r"(?<![\w.$%@#!])([a-z_][a-z0-9_]*)\.[a-z_][\w.]*")
TYPE = re.compile(r"[!#]([a-z_][a-z0-9_]*)[.<]")


def in_scope(chunk):
    body = "\n".join(l for l in chunk.splitlines() if not l.lstrip().startswith("//"))
    body = re.sub(r'"(?:[^"\\]|\\.)*"', '""', body)
    names = set(NAME.findall(body)) | set(TYPE.findall(body))
    return all(n in SCOPE or n not in CIRCT_DIALECTS for n in names)


CIRCT_WORKER = """
import sys, circt
from circt.ir import Context, Module
with Context() as ctx:
    circt.register_dialects(ctx)
    ctx.allow_unregistered_dialects = True
    m = Module.parse(sys.stdin.read())
    if not m.operation.verify():
        sys.exit(1)
    print(m)
"""


def circt_print(text):
    """The wheel's printing of `text` (None when it rejects it or
    crashes: it runs in a process of its own)."""
    r = subprocess.run(
        [sys.executable, "-c", CIRCT_WORKER],
        input=text.encode(),
        capture_output=True,
        timeout=60,
    )
    return r.stdout.decode() if r.returncode == 0 else None


def silica_print(silica, text):
    r = subprocess.run(
        [silica, "opt", "--allow-unregistered-dialect", "-"],
        input=text.encode(),
        capture_output=True,
        timeout=60,
    )
    return r.stdout.decode() if r.returncode == 0 else None


def same_text(a, b):
    """Equal up to runs of spaces within lines."""
    if a is None or b is None:
        return a == b
    squeeze = lambda t: re.sub(r"(?<=\S) {2,}(?=\S)", " ", t)
    return squeeze(a) == squeeze(b)


def files_of(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                for n in sorted(names):
                    if n.endswith(".mlir"):
                        yield os.path.join(root, n)
        else:
            yield p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--silica", default=os.path.join(HERE, "..", "target", "release", "silica"))
    ap.add_argument("--list", action="store_true", help="list disagreeing chunks")
    ap.add_argument("--record", action="store_true",
                    help="append the totals to bench/results/ and write docs/BENCHMARKS.md's table")
    args = ap.parse_args()
    started = time.time()
    totals = {"agree": 0, "differ": 0, "errors_agree": 0, "errors_differ": 0, "out": 0}
    for f in files_of(args.paths):
        text = open(f).read()
        stats = {k: 0 for k in totals}
        chunks = [(i, c) for i, c in enumerate(SPLIT.split(text)) if c.strip()]
        scoped = [(i, c) for i, c in chunks if in_scope(c)]
        stats["out"] = len(chunks) - len(scoped)
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            results = list(pool.map(lambda ic: (silica_print(args.silica, ic[1]), circt_print(ic[1])), scoped))
        for (i, chunk), (ours, theirs) in zip(scoped, results):
            expect_error = "expected-error" in chunk
            if expect_error:
                key = "errors_agree" if ours is None and theirs is None else "errors_differ"
            else:
                key = "agree" if same_text(ours, theirs) else "differ"
            stats[key] += 1
            if args.list and key.endswith("differ"):
                print(f"  {f} chunk {i}: {key} (silica {'ok' if ours is not None else 'rejects'}, circt {'ok' if theirs is not None else 'rejects'})")
        for k in totals:
            totals[k] += stats[k]
        rel = os.path.relpath(f)
        print(f"{rel}: agree {stats['agree']}/{stats['agree'] + stats['differ']}, errors {stats['errors_agree']}/{stats['errors_agree'] + stats['errors_differ']}, out of scope {stats['out']}")
    n = totals["agree"] + totals["differ"]
    e = totals["errors_agree"] + totals["errors_differ"]
    print(f"TOTAL: {totals['agree']}/{n} in-scope chunks print identically; {totals['errors_agree']}/{e} expected-error chunks rejected by both; {totals['out']} out of scope")
    if args.record:
        tables.record(TABLE, [{"in_scope": n, "agree": totals["agree"], "errors": e,
                               "errors_agree": totals["errors_agree"], "out_of_scope": totals["out"]}],
                      tables.meta(args.silica, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    sys.exit(main())
