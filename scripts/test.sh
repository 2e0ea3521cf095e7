#!/usr/bin/env bash
# Runs every check of the project: formatting, clippy, unit, property and
# lit tests (the lit tests diff silica against mlir-opt-22 and FileCheck-22),
# and that every benchmark table in docs/ is the one its CSV renders.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-tools.sh
python3 bench/tables.py --check
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
