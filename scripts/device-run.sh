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
# runs past 90 s on the H100 machine).
for k in 0 1 2 3 4 5 6 7; do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$k "$bin/test_iir" --gtest_brief=1 >"$out/test_iir.$k.log" 2>&1 &
done
wait
cat "$out"/test_iir.*.log >"$out/test_iir.log" && rm "$out"/test_iir.*.log
echo "== test_iir: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/test_iir.log" | tr '\n' ' ')"
# Every other test binary carried, so that a new one cannot be left out.
for path in "$bin"/test_*; do
  t=$(basename "$path")
  [ -x "$path" ] && [ "$t" != test_iir ] || continue
  # The Func API's tests JIT-compile through libHalide, which a GPU machine need not have; they
  # have no CUDA case.
  if [ "$t" = test_funcs ] && ! LD_LIBRARY_PATH=$bin ldd "$path" | grep -q 'libHalide.*=> /'; then
    echo "== test_funcs: not run (needs libHalide; no CUDA case)"
    continue
  fi
  printf '== %s: ' "$t"
  "$path" --gtest_brief=1 >"$out/$t.log" 2>&1
  echo "rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$t.log" | tr '\n' ' ')"
done
grep -h -B3 -A8 "Failure" "$out"/test_*.log | head -60
if [ $# -gt 0 ]; then
  "$bin/cascade" bench "$@" | tee "$out/bench.txt"
fi
