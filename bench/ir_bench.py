#!/usr/bin/env python3
"""IR benchmark: silica opt vs mlir-opt-22 on a large generic-form file.

Generates the input with gen_generic.py (unless --input is given), then runs
the two tools alternately `--runs` times each for two jobs and prints the
best wall times, the peak resident memory, the silica/mlir-opt ratios of
those and the median ratio of the paired runs (the bar's measure: on a
busy machine the best times of runs taken at different moments mislead):

  parse+verify+print   TOOL --allow-unregistered-dialect IN -o OUT
  parse+verify         TOOL --allow-unregistered-dialect --mlir-print-skip-regions IN -o /dev/null

Both tools' outputs of the first job are compared byte for byte.
The rows are appended to bench/results/ir_bench.csv and the table of
docs/BENCHMARKS.md written from them (bench/tables.py), unless --no-record.
Usage: python3 bench/ir_bench.py [--runs 5] [--silica target/release/silica] [--no-record]
"""
import argparse
import filecmp
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tables  # noqa: E402

JOB_FIELDS = ("job", "silica_s", "silica_mib", "mlir_s", "mlir_mib", "time_ratio", "median_ratio", "mem_ratio",
              "identical")


def job_table(name, command):
    """A table of jobs timed against mlir-opt-22 (this script's and
    pretty_bench.py's)."""
    return tables.Table(
        name, "docs/BENCHMARKS.md", JOB_FIELDS,
        [tables.col("job", "job", right=False),
         tables.col("silica s", "silica_s"),
         tables.col("silica MiB", "silica_mib"),
         tables.col("mlir-opt-22 s", "mlir_s"),
         tables.col("mlir-opt-22 MiB", "mlir_mib"),
         tables.col("time ratio (best times)", "time_ratio"),
         tables.col("time ratio (median of pairs)", "median_ratio"),
         tables.col("memory ratio", "mem_ratio"),
         tables.col("outputs identical", "identical", right=False)],
        key=("job",), command=command)


def job_row(name, t_s, m_s, t_m, m_m, median, same):
    return {"job": name, "silica_s": f"{t_s:.3f}", "silica_mib": f"{m_s:.1f}", "mlir_s": f"{t_m:.3f}",
            "mlir_mib": f"{m_m:.1f}", "time_ratio": f"{t_s / t_m:.3f}", "median_ratio": f"{median:.3f}",
            "mem_ratio": f"{m_s / m_m:.3f}", "identical": "yes" if same else "no"}


TABLE = job_table("ir_bench", "python3 bench/ir_bench.py --runs 5")
TABLES = [TABLE]


def measure(argv):
    """Runs argv; returns (wall seconds, peak RSS in MiB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"command failed: {' '.join(argv)}\n{err}")
    return wall, usage.ru_maxrss / 1024.0


def compare(ours, theirs, runs):
    """Runs the two commands alternately `runs` times each (so that a
    change in the machine's load hits both alike). Returns each one's best
    wall time and peak memory, and the median of the per-pair time
    ratios ours/theirs."""
    pairs = [(measure(ours), measure(theirs)) for _ in range(runs)]
    ratios = sorted(o[0] / t[0] for o, t in pairs)
    best = [min(p[i][0] for p in pairs) for i in (0, 1)]
    peak = [max(p[i][1] for p in pairs) for i in (0, 1)]
    return best[0], peak[0], best[1], peak[1], ratios[len(ratios) // 2]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--silica", default=os.path.join(HERE, "..", "target", "release", "silica"))
    parser.add_argument("--mlir-opt", default="mlir-opt-22")
    parser.add_argument("--input", help="use this file instead of generating one")
    parser.add_argument("--no-record", action="store_true",
                        help="do not append to bench/results/ nor write docs/BENCHMARKS.md's table")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="silica-bench-") as tmp:
        run_jobs(args, tmp)


def run_jobs(args, tmp):
    src = args.input or os.path.join(tmp, "generic.mlir")
    if not args.input:
        subprocess.run([sys.executable, os.path.join(HERE, "gen_generic.py"), src], check=True)
    size_mb = os.path.getsize(src) / 1e6
    print(f"input: {src} ({size_mb:.1f} MB)")

    ours_out = os.path.join(tmp, "silica.out.mlir")
    theirs_out = os.path.join(tmp, "mlir-opt.out.mlir")
    subprocess.run([args.silica, "opt", "--allow-unregistered-dialect", src, "-o", ours_out], check=True)
    subprocess.run([args.mlir_opt, "--allow-unregistered-dialect", src, "-o", theirs_out], check=True)
    same = filecmp.cmp(ours_out, theirs_out, shallow=False)
    print(f"outputs identical: {same}")

    jobs = [
        ("parse+verify+print", ["--allow-unregistered-dialect", src, "-o", os.devnull]),
        ("parse+verify", ["--allow-unregistered-dialect", "--mlir-print-skip-regions", src, "-o", os.devnull]),
    ]
    print(f"{'job':<20} {'tool':<10} {'time s':>8} {'peak MiB':>9}")
    ok = same
    started = time.time()
    rows = []
    for name, flags in jobs:
        t_s, m_s, t_m, m_m, median = compare([args.silica, "opt", *flags], [args.mlir_opt, *flags], args.runs)
        print(f"{name:<20} {'silica':<10} {t_s:8.3f} {m_s:9.1f}")
        print(f"{name:<20} {'mlir-opt':<10} {t_m:8.3f} {m_m:9.1f}")
        rt, rm = t_s / t_m, m_s / m_m
        print(f"{name:<20} {'ratio':<10} {rt:8.3f} {rm:9.3f}   (of the best times; median of paired runs: {median:.3f})")
        print(f"{name:<20} bar: median time ratio <= 0.25, memory <= 0.5")
        ok = ok and median <= 0.25 and rm <= 0.5
        rows.append(job_row(name, t_s, m_s, t_m, m_m, median, same))
    print("PASS" if ok else "FAIL")
    if not args.no_record and not args.input:
        tables.record(TABLE, rows, tables.meta(args.silica, started=started))
        tables.render(TABLES)


if __name__ == "__main__":
    main()
