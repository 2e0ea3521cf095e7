#!/usr/bin/env python3
"""Fuzzing (fuzz/): runs `cargo fuzz run TARGET` (`parse`: arbitrary bytes
through the parser, verifier and printer; `dialects`: every registered
dialect, printed forms parsed and verified again) for a given time and
prints libFuzzer's runs and whether it found a crash:

    cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run TARGET WORK corpus/TARGET -- \\
        -max_total_time=S -rss_limit_mb=4096 -max_len=4096

WORK is a scratch corpus directory (new inputs go there, not into the
committed seed corpus). The run is appended to bench/results/fuzz_bench.csv
and the table of docs/BENCHMARKS.md written from it (bench/tables.py),
unless --no-record.

Usage: python3 bench/fuzz_bench.py TARGET [--seconds S] [--work DIR] [--no-record]
       (S: 600 unless given; DIR: /tmp/fuzz-TARGET)
"""
import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import tables  # noqa: E402

TABLE = tables.Table(
    "fuzz_bench", "docs/BENCHMARKS.md", ("target", "runs", "seconds", "result"),
    [tables.col("target", "target", right=False),
     tables.col("runs", "runs", "int"),
     tables.col("s", "seconds"),
     tables.col("result", "result", right=False)],
    key=("target",), command="python3 bench/fuzz_bench.py TARGET --seconds 600")
TABLES = [TABLE]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("target", choices=["parse", "dialects"])
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--work", default=None)
    ap.add_argument("--no-record", action="store_true",
                    help="do not append to bench/results/ nor write docs/BENCHMARKS.md's table")
    a = ap.parse_args()
    work = a.work or f"/tmp/fuzz-{a.target}"
    os.makedirs(work, exist_ok=True)
    started = time.time()
    p = subprocess.run(["cargo", "fuzz", "run", a.target, work, f"corpus/{a.target}", "--",
                        f"-max_total_time={a.seconds}", "-rss_limit_mb=4096", "-max_len=4096"],
                       cwd=os.path.join(ROOT, "fuzz"), env=dict(os.environ, RUSTC_BOOTSTRAP="1"),
                       capture_output=True, text=True)
    log = p.stdout + p.stderr
    done = re.search(r"Done (\d+) runs in (\d+) second", log)
    artifact = re.search(r"Test unit written to (\S+)", log)
    if p.returncode == 0 and done:
        result = "no crash"
    elif artifact:
        result = f"crash: {artifact.group(1)}"
    else:
        result = f"failed (exit status {p.returncode})"
    runs = done.group(1) if done else ""
    seconds = done.group(2) if done else f"{time.time() - started:.0f}"
    print(f"{a.target}: {runs or '?'} runs in {seconds} s: {result}")
    if result.startswith("failed"):
        print(log[-3000:], file=sys.stderr)
    if not a.no_record:
        run = tables.meta(command=tables.command_line(), started=started)
        run["build"] = "cargo fuzz build"
        tables.record(TABLE, [{"target": a.target, "runs": runs, "seconds": seconds, "result": result}], run)
        tables.render(TABLES)
    return 0 if result == "no crash" else 1


if __name__ == "__main__":
    sys.exit(main())
