#!/usr/bin/env bash
# Runs the carried test binaries and the benchmark on a GPU machine (docs/gpu.md). Usage:
#   scripts/device-run.sh BIN_DIR OUT_DIR [bench args...]
set -uo pipefail
bin=$1 out=$2
shift 2
export CASCADE_SOURCE_DIR=$PWD CASCADE_CLI=$bin/cascade
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
for t in test_iir test_sat test_box test_cli test_bench test_image_io test_algebra; do
  printf '== %s: ' "$t"
  "$bin/$t" --gtest_brief=1 >"$out/$t.log" 2>&1
  echo "rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$t.log" | tr '\n' ' ')"
done
grep -h -B3 -A8 "Failure" "$out"/test_*.log | head -60
if [ $# -gt 0 ]; then
  "$bin/cascade" bench "$@" | tee "$out/bench.txt"
fi
