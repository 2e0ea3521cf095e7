#!/usr/bin/env bash
# Runs every check of the project: formatting, clippy, unit, property and
# lit tests (the lit tests diff silica against mlir-opt-22 and FileCheck-22),
# and that every benchmark table in docs/ is the one its CSV renders.
#
# The external tools (scripts/install-tools.sh: downloads, mostly) install
# while clippy and the test build compile, which need only the Rust
# toolchain and its linker; where there is no linker yet, they install
# first.
set -euo pipefail
cd "$(dirname "$0")/.."
log="$(mktemp)"
install=""
if command -v cc >/dev/null 2>&1; then
  bash scripts/install-tools.sh >"$log" 2>&1 &
  install=$!
  trap 'kill "$install" 2>/dev/null || true' EXIT
else
  bash scripts/install-tools.sh
fi
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace --no-run
if [ -n "$install" ]; then
  status=0
  wait "$install" || status=$?
  trap - EXIT
  cat "$log"
  if [ "$status" != 0 ]; then
    echo "scripts/install-tools.sh failed (status $status)" >&2
    exit "$status"
  fi
fi
rm -f "$log"
python3 bench/tables.py --check
cargo test --workspace
