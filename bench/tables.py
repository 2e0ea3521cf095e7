#!/usr/bin/env python3
"""The benchmarks' tables: their history in CSV files under bench/results/
and the markdown tables of docs/QOR.md and docs/BENCHMARKS.md written
from it.

A benchmark script declares its tables (`Table`, in a module-level list
`TABLES`), and when it runs for real appends its measured rows to the
table's CSV (`record`, with the columns of `META`: when, at which commit,
with which build, on which machine, by which command) and writes its
tables into their document (`render`), between the markers

    <!-- table: NAME -->
    ...
    <!-- end table -->

A document shows each key's newest row (a table without key columns: the
newest run's rows), with the command and machine it was measured by; rows
of several runs get a *run* column. Never edit the text between the
markers by hand: change the CSV (or measure again) and render.

    python3 bench/tables.py            # every table, from the CSVs; runs nothing
    python3 bench/tables.py NAME...    # those tables only
    python3 bench/tables.py --check    # exit 1 where a document differs from its CSVs
    python3 bench/tables.py --list     # the tables, their CSVs and documents

Standard library only.
"""
import csv
import importlib
import os
import platform
import re
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results")

# The columns every CSV starts with: they say how a row was measured.
META = ("date", "commit", "build", "machine", "command")

# The scripts whose `TABLES` this module renders (modules of bench/).
SCRIPTS = (
    "hls_qor", "hls_auto", "dataflow", "hls_compile_time", "system_cosim", "c_polybench",
    "gpu_polybench",
    "fpga_fit", "fpga_qor",
    "dse_polybench", "dse_front",
    "ir_bench", "format_diff", "conformance", "bytecode_conformance", "bytecode_bench",
    "pass_conformance", "dependence_bench",
    "tile_copy_bench", "pretty_bench", "llvm_bench", "translate_conformance",
    "modulo_bench", "ssp_conformance", "verilog_bench", "verilog_equiv",
    "circt_conformance", "circt_lit", "fuzz_bench",
)


class Column:
    """A column of a rendered table: its header, how a row's cell is
    written (`cell(row) -> str`) and its alignment."""

    def __init__(self, header, cell, right=True):
        self.header = header
        self.cell = cell
        self.right = right


def field(name, fmt=None):
    """A cell of the row's `name` value: as recorded (`fmt` None), or a
    number written with `fmt` ("int": thousands separated; ".1f", "+.0f",
    ...; a trailing "%" is appended after formatting). Empty stays empty."""
    def cell(row):
        v = row.get(name, "")
        if v in ("", None):
            return ""
        if fmt is None:
            return str(v)
        suffix = ""
        f = fmt
        if f.endswith("%"):
            f, suffix = f[:-1], "%"
        try:
            if f == "int":
                return f"{int(float(v)):,}" + suffix
            return format(float(v), f) + suffix
        except ValueError:
            return str(v)
    return cell


def col(header, name, fmt=None, right=True):
    return Column(header, field(name, fmt), right)


class Table:
    """A table of a document.

    name     the marker's name (and the CSV's, bench/results/NAME.csv, unless `csv`)
    doc      the document, relative to the repository root
    fields   the CSV's columns after META, in order
    columns  the rendered columns (`Column`)
    key      the fields that identify a row: the document shows each key's
             newest row; without a key, the newest run's rows
    command  the command that regenerates the table (shown above it)
    select   a filter of the CSV's rows (tables that share a CSV)
    transform  rows -> rows to show (pivots, rows from other tables)
    summary  rows -> lines written under the table
    order    a sort key of the rows shown (default: the CSV's order)
    """

    def __init__(self, name, doc, fields, columns, key=(), command=None, csv=None,
                 select=None, transform=None, summary=None, order=None):
        self.name = name
        self.doc = doc
        self.fields = tuple(fields)
        self.columns = columns
        self.key = tuple(key)
        self.command = command
        self.csv = csv or name
        self.select = select
        self.transform = transform
        self.summary = summary
        self.order = order

    @property
    def path(self):
        return os.path.join(RESULTS, self.csv + ".csv")


# ---------------------------------------------------------------- recording

def git(args, cwd):
    try:
        r = subprocess.run(["git", "-C", cwd] + args, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return r.stdout.strip() if r.returncode == 0 else ""


def commit_of(silica=None):
    """The commit of the tree that built `silica` (the part of its path
    before `/target/`), else of this checkout; `+changes` when that tree
    has uncommitted changes to tracked files."""
    tree = ROOT
    if silica:
        p = os.path.abspath(silica)
        if os.sep + "target" + os.sep in p:
            tree = p.split(os.sep + "target" + os.sep)[0]
    head = git(["rev-parse", "--short", "HEAD"], tree)
    if not head:
        return "unknown"
    dirty = git(["status", "--porcelain", "--untracked-files=no"], tree)
    return head + ("+changes" if dirty else "")


def build_of(silica=None):
    if not silica:
        return ""
    p = os.path.abspath(silica)
    for kind in ("release", "debug"):
        if f"{os.sep}{kind}{os.sep}" in p:
            return f"{kind} build"
    return f"build {os.path.basename(p)}"


def machine():
    """The machine, as SILICA_BENCH_MACHINE says, else its cores, memory
    and load average when the run started."""
    if os.environ.get("SILICA_BENCH_MACHINE"):
        return os.environ["SILICA_BENCH_MACHINE"]
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1))
        mem = f", {kb / 2 ** 20:.0f} GiB"
    except (OSError, AttributeError):
        pass
    try:
        load = f", load average {os.getloadavg()[0]:.1f}"
    except OSError:
        load = ""
    return f"{os.cpu_count()}-core {platform.machine()}{mem}{load}"


def command_line(argv=None):
    """The command as run, with the script's path relative to the root."""
    argv = list(sys.argv if argv is None else argv)
    script = os.path.relpath(os.path.abspath(argv[0]), ROOT)
    return " ".join(["python3", script] + [shlex.quote(a) for a in argv[1:]])


def meta(silica=None, command=None, started=None):
    """The META columns of a run of `command` (default: this process's)
    with the binary `silica`, started at `started` (time.time())."""
    t = time.gmtime(started or time.time())
    return {
        "date": time.strftime("%Y-%m-%d %H:%M", t),
        "commit": commit_of(silica),
        "build": build_of(silica),
        "machine": machine(),
        "command": command or command_line(),
    }


def read(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def record(table, rows, run_meta):
    """Appends `rows` (dicts of the table's fields) to its CSV with the
    run's META; the CSV's header gains any new field."""
    if not rows:
        return
    path = table.path
    os.makedirs(RESULTS, exist_ok=True)
    old = read(path)
    header = list(META) + list(table.fields)
    if old:
        with open(path, newline="") as f:
            have = next(csv.reader(f))
        header = have + [h for h in header if h not in have]
    extra = [k for r in rows for k in r if k not in header]
    header += list(dict.fromkeys(extra))
    new = [dict(run_meta, **{k: ("" if v is None else v) for k, v in r.items()}) for r in rows]
    if old and len(header) != len(have):
        all_rows = old + new
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, header, restval="")
            w.writeheader()
            w.writerows(all_rows)
        return
    exists = bool(old) or os.path.exists(path)
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, header, restval="")
        if not exists:
            w.writeheader()
        w.writerows(new)


# ---------------------------------------------------------------- rendering

def run_of(row):
    return tuple(row.get(m, "") for m in META)


def current(table):
    """The rows the document shows: each key's newest, or the newest run's."""
    rows = read(table.path)
    if table.select:
        rows = [r for r in rows if table.select(r)]
    if not rows:
        return []
    if table.key:
        newest = {}
        for r in rows:
            k = tuple(r.get(c, "") for c in table.key)
            newest.pop(k, None)
            newest[k] = r
        order = {}
        for r in rows:
            order.setdefault(tuple(r.get(c, "") for c in table.key), len(order))
        return sorted(newest.values(), key=lambda r: order[tuple(r.get(c, "") for c in table.key)])
    last = run_of(rows[-1])
    return [r for r in rows if run_of(r) == last]


def describe(run):
    date, commit, build, where, command = run
    what = ", ".join(x for x in (f"commit {commit}" if commit else "", build, where) if x)
    return f"{date} ({what}): `{command}`"


def markdown(columns, rows):
    """The rows (but those marked `_hidden`) as a markdown table; a column
    empty in every row is left out."""
    rows = [r for r in rows if not r.get("_hidden")]
    cells = [[c.cell(r).replace("|", "/").replace("\n", " ") for c in columns] for r in rows]
    keep = [i for i in range(len(columns)) if not rows or any(line[i] for line in cells)]
    out = ["| " + " | ".join(columns[i].header for i in keep) + " |",
           "|" + "|".join("---:" if columns[i].right else "---" for i in keep) + "|"]
    for line in cells:
        out.append("| " + " | ".join(line[i] for i in keep) + " |")
    return out


def render_text(table):
    """The text between the table's markers: how to regenerate it, the
    runs its rows come from, the table and what the table's summary says."""
    rows = current(table)
    lines = []
    if table.command:
        lines.append(f"- regenerate: `{table.command}`")
    if not rows:
        lines += ["- no measurement recorded yet", ""]
        return "\n".join(lines) + "\n"
    if table.order:
        rows = sorted(rows, key=table.order)
    # Runs are numbered in the CSV's order, which is the order they ran in.
    shown_runs = {run_of(r) for r in rows}
    runs = []
    for r in read(table.path):
        if run_of(r) in shown_runs and run_of(r) not in runs:
            runs.append(run_of(r))
    columns = list(table.columns)
    shown = [dict(r) for r in rows]
    if len(runs) > 1:
        for r in shown:
            r["_run"] = str(runs.index(run_of(r)) + 1)
    if table.transform:
        shown = table.transform(shown)
    if len(runs) > 1:
        columns = [Column("run", lambda r: r.get("_run", ""))] + columns
        lines.append(f"- measured in {len(runs)} runs (the *run* column):")
        for i, run in enumerate(runs, 1):
            lines.append(f"  {i}. {describe(run)}")
    else:
        lines.append(f"- measured {describe(runs[0])}")
    lines.append("")
    lines += markdown(columns, shown)
    if table.summary:
        extra = table.summary(shown)
        if extra:
            lines.append("")
            lines += extra
    return "\n".join(lines) + "\n"


MARKERS = "<!-- table: {} -->\n(.*?)<!-- end table -->"


def write(table, check=False):
    """Writes the table into its document; with `check`, only says
    whether the document holds what the CSV renders. False when it does
    not (or the markers are missing)."""
    doc = os.path.join(ROOT, table.doc)
    with open(doc) as f:
        text = f.read()
    pattern = re.compile(MARKERS.format(re.escape(table.name)), re.S)
    m = pattern.search(text)
    if not m:
        print(f"{table.doc}: no markers for table {table.name}", file=sys.stderr)
        return False
    body = render_text(table)
    if m.group(1) == body:
        return True
    if check:
        print(f"{table.doc}: table {table.name} differs from {os.path.relpath(table.path, ROOT)}",
              file=sys.stderr)
        return False
    text = text[:m.start(1)] + body + text[m.end(1):]
    with open(doc, "w") as f:
        f.write(text)
    return True


def render(tables):
    """Writes `tables` into their documents (after a script's run)."""
    for t in tables:
        write(t)


def all_tables():
    sys.path.insert(0, HERE)
    out = []
    for name in SCRIPTS:
        out += getattr(importlib.import_module(name), "TABLES", [])
    return out


def unclaimed_markers(tables):
    """Markers in the documents that no table writes."""
    names = {t.name for t in tables}
    bad = []
    for doc in sorted({t.doc for t in tables}):
        with open(os.path.join(ROOT, doc)) as f:
            for name in re.findall(r"<!-- table: (\S+) -->", f.read()):
                if name not in names:
                    bad.append(f"{doc}: markers of an unknown table {name}")
    return bad


def main():
    args = sys.argv[1:]
    check = "--check" in args
    listing = "--list" in args
    names = [a for a in args if not a.startswith("--")]
    tables = all_tables()
    if listing:
        for t in tables:
            print(f"{t.name:24} {os.path.relpath(t.path, ROOT):40} {t.doc}")
        return
    known = {t.name for t in tables}
    unknown = [n for n in names if n not in known]
    if unknown:
        sys.exit(f"unknown table(s): {', '.join(unknown)} (--list names them)")
    ok = True
    for t in tables:
        if names and t.name not in names:
            continue
        ok = write(t, check) and ok
    if check and not names:
        for line in unclaimed_markers(tables):
            print(line, file=sys.stderr)
            ok = False
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
