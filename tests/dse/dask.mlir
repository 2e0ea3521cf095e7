// silica dse --engine dask on a Dask cluster on loopback (a scheduler and
// two workers, tests/dse/dask_cluster.py): the 48-point space gives the
// same Pareto front as --jobs 2, also when a worker is killed while it
// runs a task of the run (Dask reruns its tasks on the other one). An
// unreachable scheduler, a missing Python, a Python without Dask (no
// site-packages) or a bad --engine: one message, exit 1, nothing written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: silica dse %s --top gemm --space %S/spaces/dask.toml -o %t/jobs --jobs 2 > /dev/null
// RUN: %S/../../.venv/bin/python %S/dask_cluster.py %t/cluster --workers 2 --kill-in 2 \
// RUN:   -- silica dse %s --top gemm --space %S/spaces/dask.toml -o %t/dask --engine dask={scheduler} \
// RUN:   -- silica dse %s --top gemm --space %S/spaces/dask.toml -o %t/kill --engine dask={scheduler} \
// RUN:   2>&1 | FileCheck %s
// RUN: diff <(grep -v '"evaluated"' %t/jobs/pareto.json) <(grep -v '"evaluated"' %t/dask/pareto.json)
// RUN: diff <(grep -v '"evaluated"' %t/jobs/pareto.json) <(grep -v '"evaluated"' %t/kill/pareto.json)
// RUN: diff %t/jobs/points.csv %t/kill/points.csv
// RUN: export DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=1s; not silica dse %s --top gemm --space %S/spaces/dask.toml -o %t/bad --engine dask=tcp://127.0.0.1:9 2>&1 | FileCheck %s --check-prefix=UNREACHABLE
// RUN: SILICA_PYTHON=%t/no-python not silica dse %s --top gemm --space %S/spaces/dask.toml -o %t/bad --engine dask 2>&1 | FileCheck %s --check-prefix=PYTHON
// RUN: printf '#!/bin/sh\nexec python3 -S "$@"\n' > %t/python-without-site && chmod +x %t/python-without-site
// RUN: SILICA_PYTHON=%t/python-without-site not silica dse %s --top gemm --space %S/spaces/dask.toml -o %t/bad --engine dask 2>&1 | FileCheck %s --check-prefix=DISTRIBUTED
// RUN: not silica dse %s --top gemm --space %S/spaces/dask.toml -o %t/bad --engine spark 2>&1 | FileCheck %s --check-prefix=ENGINE
// RUN: test ! -e %t/bad

// CHECK: dask: 2 worker(s), 2 thread(s)
// CHECK: points: 48 seen, 36 evaluated at estimate in {{.*}}, 0 from the cache, 12 pruned, {{[0-9]+}} invalid, 0 failed
// CHECK: dask: 2 worker(s), 2 thread(s)
// CHECK: killed a worker; the run was still running
// CHECK: points: 48 seen, 36 evaluated at estimate in {{.*}}, 0 from the cache, 12 pruned, {{[0-9]+}} invalid, 0 failed

// UNREACHABLE: error: --engine dask: cannot reach the Dask scheduler at tcp://127.0.0.1:9
// PYTHON: error: --engine dask: cannot run Python ('{{.*}}no-python'): {{.*}}; install Python 3 with Dask's distributed (`pip install distributed==2026.8.0`
// DISTRIBUTED: error: --engine dask: Python cannot import Dask (No module named 'dask'); install Dask's distributed into the Python that silica runs
// ENGINE: error: --engine: unknown engine 'spark' (local, dask, dask=tcp://HOST:PORT)
func.func @gemm(%alpha: i32 {hls.name = "alpha"},
                %C: memref<8x8xi32> {hls.name = "C"},
                %A: memref<8x8xi32> {hls.name = "A"},
                %B: memref<8x8xi32> {hls.name = "B"}) {
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 8 {
      %a = affine.load %A[%i, %k] : memref<8x8xi32>
      %aa = arith.muli %alpha, %a : i32
      affine.for %j = 0 to 8 {
        %b = affine.load %B[%k, %j] : memref<8x8xi32>
        %c = affine.load %C[%i, %j] : memref<8x8xi32>
        %p = arith.muli %aa, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<8x8xi32>
      } {hls.label = "j"}
    } {hls.label = "k"}
  } {hls.label = "i"}
  return
}
