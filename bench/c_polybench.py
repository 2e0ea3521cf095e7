#!/usr/bin/env python3
"""PolyBench/C 4.2 as C programs (examples/polybench-c): silica's C
input measured on the 30 kernels.

- QoR: `silica hls PROGRAM.c --top kernel_NAME` (clang's AST lowered to
  affine MLIR) beside `silica hls` of the kernel's affine MLIR twin in
  examples/polybench/mini: the static latency of each, float beside f32
  (every kernel) and int beside i32 (where it exists). The C and MLIR
  kernels compute the same, in the same order, but for covariance's int
  build (C divides by its float_n argument, the MLIR i32 kernel by the
  constant N) and nussinov's float build (C adds its int `match`
  converted to float, the MLIR kernel a float constant).
- System co-simulation: `silica cosim PROGRAM.c --kernel kernel_NAME`,
  each whole program built by clang as written and with its kernel on
  the simulated accelerator (the AXI wrapper in Verilator), in double and
  in int (adi and deriche are not integer algorithms); both print the
  same on standard output and standard error (every array dumped, %a
  for doubles). The call's cycles are the backend's (open to close).

The rows are appended to bench/results/c_polybench_qor.csv and
bench/results/c_polybench_cosim.csv and the tables of docs/QOR.md
written from them (bench/tables.py), unless --no-record.

Usage: python3 bench/c_polybench.py [--silica PATH] [--jobs N]
       [--only NAME,...] [--no-cosim] [--no-qor] [--no-record]
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
sys.path.insert(0, HERE)
import tables  # noqa: E402

PROGRAMS = os.path.join(ROOT, "examples", "polybench-c")
MLIR = os.path.join(ROOT, "examples", "polybench", "mini")
KERNELS = sorted(f[:-2] for f in os.listdir(PROGRAMS) if f.endswith(".c"))
FLOAT_ONLY = {"adi", "deriche"}
# Where the C build computes other than the MLIR twin (module doc).
DIFFERENT = {("covariance", "int"), ("nussinov", "float")}
FLAGS = {"float": "-DDATA_TYPE_IS_FLOAT", "int": "-DDATA_TYPE_IS_INT", "double": None}
MLIR_TYPE = {"float": "f32", "int": "i32"}


def top_of(kernel):
    return "kernel_" + kernel.replace("-", "_")


def ratio_cell(c_key, m_key):
    def cell(r):
        c, m = r.get(c_key), r.get(m_key)
        if not c or not m:
            return ""
        return f"{int(c) / int(m):.3f}"
    return cell


def qor_summary(rows):
    out = []
    for ty in ("float", "int"):
        pairs = [(r, int(r[f"c_{ty}"]), int(r[f"mlir_{ty}"])) for r in rows
                 if r.get(f"c_{ty}") and r.get(f"mlir_{ty}")]
        same = [p for p in pairs if (p[0]["kernel"], ty) not in DIFFERENT]
        equal = sum(1 for _, c, m in same if c == m)
        within = sum(1 for _, c, m in same if abs(c - m) <= 0.05 * m)
        worst = max(same, key=lambda p: abs(p[1] - p[2]) / p[2], default=None)
        if same:
            line = (f"{ty}: of {len(same)} kernels computing the same as their MLIR twin, "
                    f"{equal} take the same cycles and {within} are within 5%")
            if worst and worst[1] != worst[2]:
                line += f" (the farthest: {worst[0]['kernel']}, {worst[1] / worst[2]:.3f})"
            out.append(line + ".")
    for k, ty in sorted(DIFFERENT):
        out.append(f"- {k} ({ty}): the C build computes other than the MLIR twin (bench/c_polybench.py)")
    failed = [r for r in rows if r.get("status") and r["status"] != "ok"]
    out += [f"- {r['kernel']}: {r['status']}" for r in failed]
    return out


QOR = tables.Table(
    "c_polybench_qor", "docs/QOR.md",
    ("kernel", "status", "mlir_float", "c_float", "mlir_int", "c_int"),
    [tables.col("kernel", "kernel", right=False),
     tables.col("MLIR f32 cycles", "mlir_float", "int"),
     tables.col("C float cycles", "c_float", "int"),
     tables.Column("C / MLIR", ratio_cell("c_float", "mlir_float")),
     tables.col("MLIR i32 cycles", "mlir_int", "int"),
     tables.col("C int cycles", "c_int", "int"),
     tables.Column("C / MLIR ", ratio_cell("c_int", "mlir_int"))],
    key=("kernel",), command="python3 bench/c_polybench.py --no-cosim", summary=qor_summary)


def cosim_summary(rows):
    ok = [r for r in rows if r.get("status") == "ok"]
    out = [f"{len(ok)} of {len(rows)} programs print the same with the accelerator as built by clang."]
    out += [f"- {r['kernel']} ({r['type']}): {r['status']}" for r in rows if r.get("status") != "ok"]
    return out


COSIM = tables.Table(
    "c_polybench_cosim", "docs/QOR.md",
    ("kernel", "type", "status", "stdout", "stderr", "cycles", "seconds"),
    [tables.col("kernel", "kernel", right=False),
     tables.col("type", "type", right=False),
     tables.col("identical lines (stdout)", "stdout", "int"),
     tables.col("identical lines (stderr)", "stderr", "int"),
     tables.col("call cycles", "cycles", "int"),
     tables.col("wall s", "seconds", ".1f")],
    key=("kernel", "type"), command="python3 bench/c_polybench.py --no-qor --jobs 1",
    summary=cosim_summary)
TABLES = [QOR, COSIM]

LATENCY = re.compile(r"latency: (\d+) cycles")


def hls(silica, args, out):
    r = subprocess.run([silica, "hls"] + args + ["-o", out], capture_output=True, text=True)
    m = LATENCY.search(r.stdout)
    if r.returncode != 0 or not m:
        err = [line for line in r.stderr.splitlines() if "error" in line]
        return None, (err or ["failed"])[0][:160]
    return int(m.group(1)), None


def mlir_top(path):
    with open(path) as f:
        return re.search(r"func\.func @(\w+)\(", f.read()).group(1)


def qor_one(silica, kernel, work):
    row = {"kernel": kernel, "status": "ok"}
    for ty in ("float", "int"):
        mlir = os.path.join(MLIR, f"{kernel}.{MLIR_TYPE[ty]}.mlir")
        if ty == "int" and kernel in FLOAT_ONLY:
            continue
        if os.path.exists(mlir):
            cycles, err = hls(silica, [mlir, "--top", mlir_top(mlir)], os.path.join(work, f"{kernel}.{ty}.m"))
            row[f"mlir_{ty}"] = cycles
            if err:
                row["status"] = f"MLIR {ty}: {err}"
        program = os.path.join(PROGRAMS, f"{kernel}.c")
        cycles, err = hls(silica, [program, "--top", top_of(kernel), FLAGS[ty]],
                          os.path.join(work, f"{kernel}.{ty}.c"))
        row[f"c_{ty}"] = cycles
        if err:
            row["status"] = f"C {ty}: {err}"
    return row


COSIM_LINE = re.compile(r"(\d+) lines of output and (\d+) of error output identical "
                        r"\(software ([\d.]+) s, with the accelerator ([\d.]+) s\)")
CALL = re.compile(r"call 1: (\d+) cycles")


def cosim_one(silica, kernel, ty, work):
    args = [silica, "cosim", os.path.join(PROGRAMS, f"{kernel}.c"), "--kernel", top_of(kernel),
            "-o", os.path.join(work, f"{kernel}.{ty}.sys")]
    if FLAGS[ty]:
        args.append(FLAGS[ty])
    started = time.time()
    r = subprocess.run(args, capture_output=True, text=True)
    row = {"kernel": kernel, "type": ty, "seconds": f"{time.time() - started:.1f}"}
    m = COSIM_LINE.search(r.stdout)
    if r.returncode != 0 or not m:
        err = [line for line in r.stderr.splitlines() if "error" in line]
        row["status"] = (err or ["failed"])[0][:200]
        return row
    row.update({"status": "ok", "stdout": int(m.group(1)), "stderr": int(m.group(2)),
                "cycles": int(CALL.search(r.stdout).group(1))})
    return row


def find_silica(path):
    if path:
        return path
    for p in ("target/release/silica", "target/debug/silica"):
        if os.path.exists(os.path.join(ROOT, p)):
            return os.path.join(ROOT, p)
    sys.exit("no silica binary: cargo build -p silica-cli")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--silica", default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default=None)
    ap.add_argument("--no-cosim", action="store_true")
    ap.add_argument("--no-qor", action="store_true")
    ap.add_argument("--no-record", action="store_true",
                    help="do not append the rows to bench/results/ nor write docs/QOR.md's tables")
    args = ap.parse_args()
    started = time.time()
    silica = find_silica(args.silica)
    kernels = args.only.split(",") if args.only else KERNELS
    qor_rows, cosim_rows = [], []
    with tempfile.TemporaryDirectory() as work, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        if not args.no_qor:
            qor_rows = list(pool.map(lambda k: qor_one(silica, k, work), kernels))
        if not args.no_cosim:
            jobs = [(k, ty) for k in kernels for ty in ("double", "int")
                    if not (ty == "int" and k in FLOAT_ONLY)]
            cosim_rows = list(pool.map(lambda j: cosim_one(silica, j[0], j[1], work), jobs))
    for r in qor_rows:
        print(f"{r['kernel']:16} f32 {r.get('mlir_float')} float {r.get('c_float')}   "
              f"i32 {r.get('mlir_int')} int {r.get('c_int')}   {r['status']}")
    for r in cosim_rows:
        print(f"{r['kernel']:16} {r['type']:6} {r['status']} {r.get('stdout', '')} {r.get('stderr', '')} "
              f"{r.get('cycles', '')} cycles, {r['seconds']} s")
    if not args.no_record:
        meta = tables.meta(silica, started=started)
        if qor_rows:
            tables.record(QOR, qor_rows, meta)
        if cosim_rows:
            tables.record(COSIM, cosim_rows, meta)
        tables.render(TABLES)


if __name__ == "__main__":
    main()
