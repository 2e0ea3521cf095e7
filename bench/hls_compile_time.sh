#!/usr/bin/env bash
# Times `silica hls` without --sim on the HLS kernel set: bench/hls_compile_time.py
# (which records the run in bench/results/ and docs/QOR.md). Usage: bench/hls_compile_time.sh [SILICA]
exec python3 "$(dirname "$0")/hls_compile_time.py" "$@"
