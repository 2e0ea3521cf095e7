#!/usr/bin/env bash
# Lowers an affine kernel file through silica's own LLVM path and runs it
# in lli-22, printing what its main prints.
#   run.sh SILICA FILE              the kernel as written
#   run.sh SILICA FILE 'PASSES'     after `builtin.module(func.func(PASSES))`,
#                                   e.g. 'affine-loop-unroll{unroll-factor=4}'
# then --lower-affine, --convert-scf-to-cf, --convert-to-llvm and
# --reconcile-unrealized-casts, translation to LLVM IR and lli-22.
#
# Each kernel in this directory first records its untransformed output in
# %t.ref (and pins it with FileCheck); checking one more transformation is
# one RUN line:
#   // RUN: bash %S/run.sh silica %s 'PASS{OPTIONS}' | diff %t.ref -
set -euo pipefail
silica=$1
file=$2
if [ $# -ge 3 ]; then
  transform=(--pass-pipeline="builtin.module(func.func($3))")
else
  transform=()
fi
"$silica" opt "${transform[@]}" "$file" |
  "$silica" opt --lower-affine --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts |
  "$silica" translate --to-llvmir |
  lli-22
