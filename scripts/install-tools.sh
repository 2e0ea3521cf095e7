#!/usr/bin/env bash
# Installs the external tools the tests use (Debian packages), only when
# they are missing, so repeated runs are quick.
set -euo pipefail
need=()
command -v FileCheck-22 >/dev/null 2>&1 || need+=(llvm-22-tools)
command -v mlir-opt-22 >/dev/null 2>&1 || need+=(mlir-22-tools)
command -v lli-22 >/dev/null 2>&1 || need+=(llvm-22-runtime)
command -v opt-22 >/dev/null 2>&1 || need+=(llvm-22)
command -v verilator >/dev/null 2>&1 || need+=(verilator)
command -v iverilog >/dev/null 2>&1 || need+=(iverilog)
command -v yosys >/dev/null 2>&1 || need+=(yosys)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${need[@]}"
fi
