#!/usr/bin/env python3
"""Translation conformance: every chunk of MLIR's Target/LLVMIR tests goes
through `silica translate --to-llvmir` and `mlir-translate-22
--mlir-to-llvmir`. Where both translate, silica's LLVM IR must pass
`llvm-as-22`, and the two modules are compared for meaning with
`llvm-diff-22` after `opt-22 -passes=instsimplify` on both (MLIR's
IRBuilder folds constant expressions that silica leaves to LLVM).
llvm-diff compares instructions but not what surrounds them, so the
symbol-level text is compared too: every `define`/`declare` header, the
linkage and attributes of every global, and the calling convention,
tail-call kind and attributes of every call and invoke (attribute groups
written out, value names and metadata numbers erased, compared as
multisets: the two translators declare intrinsics in different orders).

Reports: chunks both translate and llvm-diff finds equal, chunks both
translate but differ, chunks only mlir-translate handles (unsupported in
silica, by first error), and chunks where silica wrote IR that llvm-as
rejects (must be none).

With --record the counts are appended to bench/results/translate_conformance.csv
and the table of docs/BENCHMARKS.md written from them (bench/tables.py).

Usage: python3 bench/translate_conformance.py DIR_OR_FILE... [--show N] [--record]
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SILICA = os.path.join(os.path.dirname(HERE), "target", "release", "silica")
sys.path.insert(0, HERE)
import tables  # noqa: E402

SAME = "same meaning (llvm-diff and symbol attributes)"
DIFFER = ("same instructions, symbol attributes differ", "both translate, llvm-diff differs")
ONLY_MLIR = "only mlir-translate translates"
INVALID = "silica wrote invalid IR"
REJECTED = "mlir-translate rejects"
TABLE = tables.Table(
    "translate_conformance", "docs/BENCHMARKS.md",
    ("chunks", "same", "attributes_differ", "llvm_diff_differs", "not_translated", "invalid", "rejected"),
    [tables.col("chunks", "chunks", "int"),
     tables.col("same meaning", "same", "int"),
     tables.col("same instructions, symbol attributes differ", "attributes_differ", "int"),
     tables.col("instructions differ (llvm-diff)", "llvm_diff_differs", "int"),
     tables.col("not translated by silica", "not_translated", "int"),
     tables.col("invalid IR from silica", "invalid", "int"),
     tables.col("rejected by mlir-translate-22", "rejected", "int")],
    command="python3 bench/translate_conformance.py $D/Target/LLVMIR --record")
TABLES = [TABLE]


def chunks(path):
    text = open(path).read()
    if "split-input-file" in text:
        return re.split(r"^// -----\s*$", text, flags=re.M)
    return [text]


def files(args):
    for a in args:
        if os.path.isdir(a):
            for n in sorted(os.listdir(a)):
                if n.endswith(".mlir"):
                    yield os.path.join(a, n)
        else:
            yield a


def signature(path):
    """The symbol-level lines of an LLVM IR file, normalised."""
    text = open(path).read()
    groups = dict(re.findall(r"^attributes (#\d+) = \{ (.*) \}$", text, re.M))

    def expand(line):
        return re.sub(r"#\d+\b", lambda m: "{" + groups.get(m.group(0), m.group(0)) + "}", line)

    out = []
    for line in text.split("\n"):
        s = line.strip()
        is_header = s.startswith(("define ", "declare "))
        is_call = re.match(r"(%\S+ = )?((tail|musttail|notail) )?(call|invoke) ", s)
        if s.startswith("@") and " = " in s:
            # A global: what comes before its type and its trailing
            # section/alignment, not the initializer.
            m = re.match(r"(@\S+) = (.*?)\b(global|constant|alias|ifunc)\b", s)
            if m:
                tail = re.findall(r", (section \"[^\"]*\"|align \d+)", s)
                s = " ".join([m.group(1), m.group(2), m.group(3)] + tail)
            out.append(s)
        elif is_header or is_call:
            s = expand(s)
            if is_call:
                s = s.split(" to label ")[0]
            s = re.sub(r"%[-\w.$]+", "%", s)
            s = re.sub(r"!\d+", "!", s)
            out.append(s)
    return out


def run(cmd, text=None):
    return subprocess.run(cmd, input=text, capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--show", type=int, default=0, help="print the first N differing chunks")
    ap.add_argument("--record", action="store_true",
                    help="append the counts to bench/results/ and write docs/BENCHMARKS.md's table")
    args = ap.parse_args()
    started = time.time()
    counts = collections.Counter()
    reasons = collections.Counter()
    shown = 0
    with tempfile.TemporaryDirectory() as tmp:
        ours, theirs = os.path.join(tmp, "ours.ll"), os.path.join(tmp, "theirs.ll")
        for f in files(args.paths):
            for i, c in enumerate(chunks(f)):
                t = run(["mlir-translate-22", "--mlir-to-llvmir", "-o", theirs, "-"], c)
                if t.returncode != 0:
                    counts["mlir-translate rejects"] += 1
                    continue
                s = run([SILICA, "translate", "--to-llvmir", "-o", ours, "-"], c)
                if s.returncode != 0:
                    counts["only mlir-translate translates"] += 1
                    first = s.stderr.strip().splitlines()[0] if s.stderr.strip() else "?"
                    reasons[re.sub(r"^.*?error: ", "", first)[:90]] += 1
                    continue
                if run(["llvm-as-22", ours, "-o", "/dev/null"]).returncode != 0:
                    counts["silica wrote invalid IR"] += 1
                    print(f"INVALID IR: {f} chunk {i}")
                    continue
                for p in (ours, theirs):
                    run(["opt-22", "-passes=instsimplify", "-S", p, "-o", p])
                d = run(["llvm-diff-22", ours, theirs])
                if d.returncode == 0 and not d.stderr.strip():
                    # Order aside: declarations come in a different order.
                    a, b = sorted(signature(ours)), sorted(signature(theirs))
                    if a == b:
                        counts["same meaning (llvm-diff and symbol attributes)"] += 1
                        continue
                    counts["same instructions, symbol attributes differ"] += 1
                    if shown < args.show:
                        shown += 1
                        diffs = [f"  silica: {x}\n  mlir:   {y}" for x, y in zip(a, b) if x != y]
                        if len(a) != len(b):
                            diffs.append(f"  {len(a)} vs {len(b)} lines")
                        print(f"--- {f} chunk {i}\n" + "\n".join(diffs[:4]))
                else:
                    counts["both translate, llvm-diff differs"] += 1
                    if shown < args.show:
                        shown += 1
                        print(f"--- {f} chunk {i}\n{d.stderr[:1500]}")
    total = sum(counts.values())
    print(f"chunks: {total}")
    for k, v in counts.most_common():
        print(f"  {k}: {v}")
    print("first silica error where only mlir-translate translates:")
    for k, v in reasons.most_common(25):
        print(f"  {v:4d}  {k}")
    if args.record:
        tables.record(TABLE, [{"chunks": total, "same": counts[SAME], "attributes_differ": counts[DIFFER[0]],
                               "llvm_diff_differs": counts[DIFFER[1]], "not_translated": counts[ONLY_MLIR],
                               "invalid": counts[INVALID], "rejected": counts[REJECTED]}],
                      tables.meta(SILICA, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    main()
