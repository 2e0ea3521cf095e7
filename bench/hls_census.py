#!/usr/bin/env python3
"""Static census of bench/hls_qor.py's kernel set: every kernel compiled
(`silica hls F --top T -o DIR`, no co-simulation) and, from F.json, the
report's latency (the static schedule's, which `--sim` measures equal),
the estimated LUTs and the pipelined loops' IIs. Fast enough to compare
two binaries on the whole set (run it with each and compare the JSON).

Usage: python3 bench/hls_census.py SILICA OUT.json [DIRECTIVES_DIR]
       (with DIRECTIVES_DIR only the kernels that have a directives file)
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hls_qor  # noqa: E402


def one(silica, directives, k, workdir):
    name, path, top = k
    out = os.path.join(workdir, re.sub(r"[^\w.-]", "_", name))
    extra = []
    if directives:
        d = os.path.join(directives, hls_qor.directive_key(name) + ".toml")
        if not os.path.exists(d):
            return None
        extra = ["--directives", d]
    r = subprocess.run([silica, "hls", path, "--top", top, "-o", out] + extra,
                       capture_output=True, text=True)
    if r.returncode:
        return [name, None, hls_qor.first_error(r.stderr)]
    with open(os.path.join(out, top + ".json")) as f:
        rep = json.load(f)
    return [name, rep["latency"]["min"], rep["resources"]["estimate"]["lut"],
            [lp["ii"] for lp in rep["loops"] if lp["pipelined"]]]


def main():
    silica, out_json = sys.argv[1], sys.argv[2]
    directives = sys.argv[3] if len(sys.argv) > 3 else None
    with tempfile.TemporaryDirectory() as workdir:
        ks = hls_qor.kernels(workdir)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            rows = [r for r in pool.map(lambda k: one(silica, directives, k, workdir), ks) if r]
    with open(out_json, "w") as f:
        json.dump(rows, f, indent=0)
    print(f"{len(rows)} kernels")


if __name__ == "__main__":
    main()
