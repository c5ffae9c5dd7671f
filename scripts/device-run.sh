#!/usr/bin/env bash
# Runs the carried test binaries and the benchmark on a GPU machine (docs/gpu.md). Usage:
#   scripts/device-run.sh BIN_DIR OUT_DIR [bench args...]
set -uo pipefail
bin=$1 out=$2
shift 2
export CASCADE_SOURCE_DIR=$PWD CASCADE_CLI=$bin/cascade
# test_bad_input's stand-in driver, carried in a folder of its own: on the library path it would
# hide the real one.
export CASCADE_FAKE_LIBCUDA_DIR=$bin/fake_libcuda
# The binaries link libcascade.so, carried beside them.
export LD_LIBRARY_PATH=$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
# test_iir is sharded over 8 processes: its ~60 CUDA variants' PTX JIT is CPU-bound (one process
# ran past 90 s on the H100 machine).
for k in 0 1 2 3 4 5 6 7; do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$k "$bin/test_iir" --gtest_brief=1 >"$out/test_iir.$k.log" 2>&1 &
done
wait
cat "$out"/test_iir.*.log >"$out/test_iir.log" && rm "$out"/test_iir.*.log
echo "== test_iir: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/test_iir.log" | tr '\n' ' ')"
for t in test_iir_line test_boundary test_samples test_gaussian_blur test_sat test_box test_cli test_bench \
  test_image_io test_algebra test_runtime_api test_bad_input test_tuning; do
  printf '== %s: ' "$t"
  if [ ! -x "$bin/$t" ]; then echo "not carried"; continue; fi
  "$bin/$t" --gtest_brief=1 >"$out/$t.log" 2>&1
  echo "rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$t.log" | tr '\n' ' ')"
done
grep -h -B3 -A8 "Failure" "$out"/test_*.log | head -60
if [ $# -gt 0 ]; then
  "$bin/cascade" bench "$@" | tee "$out/bench.txt"
fi
