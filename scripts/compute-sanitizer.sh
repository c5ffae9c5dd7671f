#!/usr/bin/env bash
# Runs the CUDA cases of the GPU test binaries under one compute-sanitizer tool (docs/reliability.md).
# Usage: scripts/compute-sanitizer.sh BIN_DIR OUT_DIR TOOL [JOBS [FILTER]]
#   TOOL: memcheck, racecheck, initcheck or synccheck. FILTER (a gtest filter; default every CUDA
#   case) picks the cases. Each binary's cases are split into shards, JOBS of them at a time: the
#   driver's PTX JIT and the sanitizer's instrumentation are CPU-bound, the GPU mostly idle.
set -uo pipefail
bin=$(realpath "$1") out=$2 tool=$3 jobs=${4:-8} filter=${5:-'*cuda*:*Cuda*'}
export CASCADE_SOURCE_DIR=$PWD CASCADE_CLI=$bin/cascade
export LD_LIBRARY_PATH=$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CUDA_CACHE_MAXSIZE=4294967296
# The out-of-memory case fills the device on purpose; under a sanitizer, which allocates beside
# the program, it tests the sanitizer. It runs in the plain suite (scripts/device-run.sh).
filter="$filter-*OutOfMemory*"
case $tool in
  memcheck) options=(--tool memcheck) ;;
  racecheck) options=(--tool racecheck --racecheck-report all) ;;
  initcheck) options=(--tool initcheck) ;;
  synccheck) options=(--tool synccheck) ;;
  *) echo "unknown tool '$tool'" >&2; exit 2 ;;
esac
mkdir -p "$out/$tool"
# binary:shards[:filter], the shards sized by each binary's CUDA cases; a filter of its own (','
# for gtest's ':') replaces FILTER for that binary (a representative subset, docs/reliability.md).
suites=${CASCADE_SANITIZER_SUITES:-"test_iir:16 test_gaussian_blur:8 test_boundary:8 test_iir_line:4 test_sat:4 test_samples:2 test_box:1
        test_cli:1 test_bench:1 test_runtime_api:1"}
run_shard() {
  local t=$1 shards=$2 k=$3 cases=$4 log=$out/$tool/$t.$3
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$k compute-sanitizer "${options[@]}" --error-exitcode 99 \
    --print-limit 100 --log-file "$log.sanitizer" "$bin/$t" --gtest_filter="$cases" --gtest_brief=1 \
    >"$log.gtest" 2>&1
  echo "$t shard $k: rc=$? $(grep -h 'ERROR SUMMARY' "$log.sanitizer" | tail -1)" >>"$out/$tool/shards.txt"
}
start=$SECONDS
for spec in $suites; do
  t=${spec%%:*} rest=${spec#*:}
  shards=${rest%%:*} cases=$filter
  [[ $rest == *:* ]] && cases="${rest#*:}-*OutOfMemory*" && cases=${cases//,/:}
  for ((k = 0; k < shards; k++)); do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    run_shard "$t" "$shards" "$k" "$cases" &
  done
done
wait
sort "$out/$tool/shards.txt" -o "$out/$tool/shards.txt"
passed=$(cat "$out/$tool"/*.gtest | grep -hoE '^\[  PASSED  \] [0-9]+' | awk '{s += $4} END {print s + 0}')
failed=$(grep -h -c '^\[  FAILED  \] .*(' "$out/$tool"/*.gtest | awk '{s += $1} END {print s + 0}')
errors=$(grep -h 'ERROR SUMMARY' "$out/$tool"/*.sanitizer | awk '{s += $3} END {print s + 0}')
echo "$tool: $passed tests passed, $failed failed, $errors sanitizer errors, $((SECONDS - start)) s"
