#!/usr/bin/env bash
# Times `silica hls` without --sim on the HLS kernel set: every PolyBench
# MINI kernel of examples/polybench/mini (f32 and i32) and the kernels of
# bench/hls_qor_kernels.mlir, one after the other, and says how many were
# compiled and which were refused. Usage: bench/hls_compile_time.sh [SILICA]
set -uo pipefail
cd "$(dirname "$0")/.."
silica="${1:-target/release/silica}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
jobs=()
for f in examples/polybench/mini/*.mlir; do
  jobs+=("$f $(grep -m1 -oE 'func.func @[A-Za-z0-9_]+' "$f" | sed 's/func.func @//')")
done
for t in $(grep -oE 'func.func @[A-Za-z0-9_]+' bench/hls_qor_kernels.mlir | sed 's/func.func @//'); do
  jobs+=("bench/hls_qor_kernels.mlir $t")
done
ok=0
start=$(date +%s.%N)
for job in "${jobs[@]}"; do
  set -- $job
  if "$silica" hls "$1" --top "$2" -o "$out/d" >/dev/null 2>&1; then
    ok=$((ok + 1))
  else
    echo "refused: $1 --top $2"
  fi
done
end=$(date +%s.%N)
printf '%d of %d kernels compiled in %.2f s\n' "$ok" "${#jobs[@]}" "$(awk "BEGIN { print $end - $start }")"
