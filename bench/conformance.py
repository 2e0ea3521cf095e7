#!/usr/bin/env python3
"""Conformance: runs every chunk of MLIR test files through silica and
mlir-opt-22 and reports where they agree.

In-scope figures are also split by whether a file's mlir-opt RUN lines
all run a pass (canonicalize, lowering, ...): such chunks are compared
without the pass, and counted apart.

Each file is split at `// -----` lines; each chunk is run by both tools with
the flags of the file's first mlir-opt RUN line that silica shares
(`--allow-unregistered-dialect`, `--verify-diagnostics`,
`--mlir-print-op-generic`, `--mlir-print-debuginfo`); a file without such a
line gets `--allow-unregistered-dialect`. A chunk agrees when both succeed with the same
output text, or both reject it (same first error message counts apart).

A chunk is *in scope* when it uses only unregistered ops, types and
attributes and those of the dialects silica implements (SILICA_DIALECTS),
i.e. names no other dialect mlir-opt-22 registers (as `dialect.op`,
`!dialect.t`, `#dialect.a` or `!dialect<...>`).
The goal is that every in-scope chunk agrees.

With --record SUITE the run's counts are appended to
bench/results/conformance.csv as the suite SUITE's, and the table of
docs/BENCHMARKS.md written from them (bench/tables.py).

Usage: python3 bench/conformance.py DIR_OR_FILE... [--silica PATH] [--list] [--record SUITE]
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
sys.path.insert(0, HERE)
import tables  # noqa: E402

SPLIT = re.compile(r"^// -----[ \t]*$", re.M)


def share_cell(n, ok):
    def cell(r):
        return f"{100.0 * int(r[ok]) / int(r[n]):.1f}%" if r.get(n) and r.get(ok) and int(r[n]) else ""
    return cell


TABLE = tables.Table(
    "conformance", "docs/BENCHMARKS.md", ("suite", "in_scope", "agree", "out_of_scope", "out_agree"),
    [tables.col("suite", "suite", right=False),
     tables.col("chunks in scope", "in_scope", "int"),
     tables.col("agree", "agree", "int"),
     tables.Column("share", share_cell("in_scope", "agree")),
     tables.col("out of scope", "out_of_scope", "int"),
     tables.col("out of scope, agree", "out_agree", "int")],
    key=("suite",), command="python3 bench/conformance.py DIR... --record SUITE")
TABLES = [TABLE]


# The upstream dialects silica registers.
SILICA_DIALECTS = {"builtin", "func", "arith", "cf", "math", "index", "scf", "memref", "affine", "llvm", "irdl", "ub"}


def registered_dialects(mlir_opt):
    out = subprocess.run([mlir_opt, "--show-dialects"], capture_output=True, text=True).stdout
    names = out.split(":", 1)[1].replace("\n", "").split(",")
    return sorted({n.strip() for n in names if n.strip()} - SILICA_DIALECTS)


def scope_pattern(dialects):
    alt = "|".join(re.escape(d) for d in dialects)
    # `dialect.x` not preceded by an identifier character, and not a file
    # name such as "test.mlir" in a location; or a dialect's section in
    # `{-# dialect_resources: { dialect: {...} } #-}`.
    return re.compile(
        rf"(?<![\w$.-])(?:{alt})(?:\.(?!mlir\")[A-Za-z_]|<)"
        rf"|dialect_resources:\s*\{{(?:[^#]|#(?!-\}}))*?(?<![\w$.-])(?:{alt}):\s*\{{"
    )


def without_comments(text):
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


SHARED_FLAGS = (
    "allow-unregistered-dialect",
    "verify-diagnostics",
    "mlir-print-op-generic",
    "mlir-print-debuginfo",
)


def run_flags(text, path):
    """The shared flags of the first RUN line that runs mlir-opt, with its
    `--irdl-file=%S/...` resolved next to `path`."""
    for line in text.splitlines():
        if "RUN:" in line and "mlir-opt" in line:
            used = set(re.findall(r"(?<![\w-])--?([a-z][\w-]*)", line))
            flags = [f"--{f}" for f in SHARED_FLAGS if f in used]
            irdl = re.search(r"--?irdl-file=%S/(\S+)", line)
            if irdl:
                flags.append("--irdl-file=" + os.path.join(os.path.dirname(os.path.abspath(path)), irdl.group(1)))
            return flags
    return ["--allow-unregistered-dialect"]


# Options of mlir-opt RUN lines that are not passes.
NON_PASS_FLAGS = set(SHARED_FLAGS) | {
    "split-input-file",
    "o",
    "mlir-print-local-scope",
    "mlir-print-value-users",
    "mlir-disable-threading",
    "verify-each",
    "check-prefix",
    "check-prefixes",
    "dump-input",
    "irdl-file",
}


def needs_pass(text):
    """Whether the file's mlir-opt RUN lines all run a pass (the chunk is
    then compared without it: parse, verify and print only)."""
    runs = [l for l in text.splitlines() if "RUN:" in l and "mlir-opt" in l]
    if not runs:
        return False
    def has_pass(line):
        opt_part = line.split("|")[0]
        used = set(re.findall(r"(?<![\w-])--?([a-z][\w-]*)", opt_part.split("mlir-opt", 1)[-1]))
        return bool(used - NON_PASS_FLAGS)
    return all(has_pass(l) for l in runs)


def chunks_of(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    flags = run_flags(text, path)
    passes = needs_pass(text)
    pieces = SPLIT.split(text)
    # `line` is where each piece starts: the first line of the file, or
    # the separator line ending the piece before (reported: the next one).
    line = 1
    for i, piece in enumerate(pieces):
        yield line + (i > 0), piece, flags, passes
        line += piece.count("\n")


def run_tool(argv, path):
    try:
        r = subprocess.run(argv + [path], capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return 124, b"", b"timeout"
    return r.returncode, r.stdout, r.stderr


def first_error(stderr):
    for line in stderr.decode(errors="replace").splitlines():
        m = re.search(r"error: (.*)", line)
        if m:
            return m.group(1).strip()
    return None


def compare(ours, theirs, compare_messages):
    """The verdict on one chunk from both tools' (status, stdout, stderr):
    agreement when both succeed with the same text or both reject it
    (telling same from other first messages when `compare_messages`)."""
    if ours[0] == 0 and theirs[0] == 0:
        return ("agree", "same text") if ours[1] == theirs[1] else ("disagree", "different text")
    if ours[0] != 0 and theirs[0] != 0:
        if not compare_messages:
            return "agree", "both reject"
        same = first_error(ours[2]) == first_error(theirs[2])
        return "agree", "both reject, same message" if same else "both reject, other message"
    if ours[0] >= 100 or ours[0] < 0:
        return "disagree", f"silica crashed ({ours[0]})"
    who = "silica" if ours[0] != 0 else "mlir-opt"
    return "disagree", f"only {who} rejects: {first_error(ours[2] if ours[0] else theirs[2])}"


def run_both(silica, mlir_opt, scratch, index, text, flags):
    """Writes `text` to a scratch file and runs both tools on it."""
    path = os.path.join(scratch, f"chunk{index}.mlir")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    ours = run_tool([silica, "opt", *flags], path)
    theirs = run_tool([mlir_opt, *flags], path)
    os.remove(path)
    return ours, theirs


def check_chunk(job):
    ours, theirs = run_both(*job)
    flags = job[5]
    return compare(ours, theirs, "--verify-diagnostics" not in flags)


def mlir_files(paths):
    """The `.mlir` files named or found under the directories named, sorted."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".mlir")]
        else:
            files.append(p)
    return sorted(files)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--silica", default=os.path.join(HERE, "..", "target", "release", "silica"))
    parser.add_argument("--mlir-opt", default="mlir-opt-22")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--list", action="store_true", help="also list out-of-scope disagreements")
    parser.add_argument("--record", metavar="SUITE",
                        help="append the counts to bench/results/conformance.csv as SUITE's")
    args = parser.parse_args()
    started = time.time()

    pattern = scope_pattern(registered_dialects(args.mlir_opt))
    files = mlir_files(args.paths)

    with tempfile.TemporaryDirectory(prefix="silica-conformance-") as scratch:
        jobs, where = [], []
        for path in files:
            for line, text, flags, passes in chunks_of(path):
                in_scope = not pattern.search(without_comments(text))
                where.append((path, line, in_scope, passes))
                jobs.append((args.silica, args.mlir_opt, scratch, len(jobs), text, flags))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(check_chunk, jobs))

    totals = {True: {}, False: {}}
    by_pass = {False: [0, 0], True: [0, 0]}
    bad = []
    for (path, line, in_scope, passes), (verdict, detail) in zip(where, results):
        if in_scope:
            by_pass[passes][0] += 1
            by_pass[passes][1] += verdict == "agree"
        bucket = totals[in_scope]
        bucket[verdict] = bucket.get(verdict, 0) + 1
        bucket[detail] = bucket.get(detail, 0) + 1
        if verdict == "disagree" and (in_scope or args.list):
            bad.append((in_scope, f"{os.path.relpath(path)}:{line}", detail))

    for in_scope in (True, False):
        t = totals[in_scope]
        n = t.get("agree", 0) + t.get("disagree", 0)
        label = "in scope (" + ", ".join(sorted(SILICA_DIALECTS)) + " + unregistered)" if in_scope else "out of scope (other dialects)"
        print(f"{label}: {n} chunks, {t.get('agree', 0)} agree, {t.get('disagree', 0)} disagree")
        for k in sorted(t):
            if k not in ("agree", "disagree"):
                print(f"    {k}: {t[k]}")
    for passes in (False, True):
        n, ok = by_pass[passes]
        what = "files whose RUN lines run a pass (compared without it)" if passes else "files checked without a pass"
        print(f"in scope, {what}: {n} chunks, {ok} agree")
    if bad:
        print("disagreements:")
        for in_scope, at, detail in bad:
            print(f"  {'' if in_scope else '(out of scope) '}{at}: {detail}")
    if args.record:
        t, o = totals[True], totals[False]
        tables.record(TABLE, [{"suite": args.record,
                               "in_scope": t.get("agree", 0) + t.get("disagree", 0), "agree": t.get("agree", 0),
                               "out_of_scope": o.get("agree", 0) + o.get("disagree", 0),
                               "out_agree": o.get("agree", 0)}],
                      tables.meta(args.silica, started=started))
        tables.render(TABLES)
    crashed = any("crashed" in d for _, d in results)
    sys.exit(1 if crashed else 0)


if __name__ == "__main__":
    main()
