#!/usr/bin/env bash
# Runs cascade's libFuzzer targets (fuzz/) over copies of their seed corpora and prints, per
# target, the executions, time, exec/s and result as a Markdown table, ready for
# docs/reliability.md. Exit status 1 when any target found something (its inputs are kept).
#
#   scripts/fuzz.sh [--time S | --runs N] [--jobs J] [--bin DIR] [--work DIR] [--fresh] [TARGET...]
#
#   --time S    each target runs S seconds in all (default 60)
#   --runs N    each target runs N executions in all instead (e.g. 10000000), split over the jobs
#   --jobs J    J libFuzzer processes per target at once (-jobs/-workers), for machines with cores
#   --bin DIR   where the fuzz_* executables are (default build-fuzz/fuzz)
#   --work DIR  where corpora grow and findings land, DIR/<target>/ (default fuzz-work)
#   --fresh     start from the seed corpus even where DIR/<target>/corpus exists
#   TARGET      fuzz_png fuzz_tiff fuzz_pfm fuzz_npy fuzz_design fuzz_cli (default: all)
set -euo pipefail
shopt -s nullglob

root=$(cd "$(dirname "$0")/.." && pwd)
seconds=60 runs="" jobs=1 bin="$root/build-fuzz/fuzz" work="$root/fuzz-work" fresh=0 targets=()
while (($#)); do
    case "$1" in
        --time) seconds=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --bin) bin=$(realpath -m "$2"); shift 2 ;;
        --work) work=$(realpath -m "$2"); shift 2 ;;
        --fresh) fresh=1; shift ;;
        -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
((${#targets[@]})) || targets=(fuzz_png fuzz_tiff fuzz_pfm fuzz_npy fuzz_design fuzz_cli)

# The dictionary of each target, where its input format has one.
dict_of() {
    case "$1" in
        fuzz_png) echo png ;; fuzz_tiff) echo tiff ;; fuzz_pfm) echo pfm ;; fuzz_npy) echo npy ;;
        fuzz_cli) echo cli ;; *) echo "" ;;
    esac
}

failed=0
rows=()
for target in "${targets[@]}"; do
    name=${target#fuzz_}
    exe="$bin/$target"
    [[ -x $exe ]] || { echo "fuzz.sh: no executable $exe (build with -DCASCADE_FUZZ=ON)" >&2; exit 2; }
    dir="$work/$target"
    if ((fresh)); then rm -rf "$dir"; fi
    mkdir -p "$dir/artifacts"
    # The repository's seeds are never written: libFuzzer adds what it finds to the copy.
    if [[ ! -d $dir/corpus ]]; then cp -r "$root/fuzz/corpus/$name" "$dir/corpus"; fi
    rm -f "$dir"/fuzz-*.log "$dir/run.log"
    # fuzz_design and fuzz_cli build plans, tables and double references per input: up to
    # seconds under ASan on a loaded 2-core machine for a slowly decaying filter. A hang still shows.
    timeout=10
    [[ $target == fuzz_design || $target == fuzz_cli ]] && timeout=120
    flags=(-timeout=$timeout -rss_limit_mb=2048 -print_final_stats=1 -close_fd_mask=1
        -artifact_prefix="$dir/artifacts/")
    dict=$(dict_of "$target")
    [[ -n $dict ]] && flags+=(-dict="$root/fuzz/dict/$dict.dict")
    if [[ -n $runs ]]; then flags+=(-runs=$(((runs + jobs - 1) / jobs))); else flags+=(-max_total_time="$seconds"); fi
    ((jobs > 1)) && flags+=(-jobs="$jobs" -workers="$jobs")
    start=$(date +%s)
    status=0
    (cd "$dir" && "$exe" "${flags[@]}" corpus >run.log 2>&1) || status=$?
    elapsed=$(($(date +%s) - start))
    ((elapsed > 0)) || elapsed=1
    # Every process ends with "stat::number_of_executed_units: N"; -jobs writes one log per job.
    executions=$(cat "$dir"/run.log "$dir"/fuzz-*.log 2>/dev/null |
        awk '/stat::number_of_executed_units:/ {n += $2} END {print n + 0}')
    # A crash, leak, timeout or out-of-memory input is a finding; a slow unit (past 10 s, short of
    # the timeout) is kept and counted but fails nothing.
    found=$(find "$dir/artifacts" -type f ! -name 'slow-unit-*' | wc -l)
    slow=$(find "$dir/artifacts" -type f -name 'slow-unit-*' | wc -l)
    if ((status != 0 || found > 0)); then
        failed=1
        result="FOUND $found input(s) in $dir/artifacts (exit $status)"
    else
        result="clean"
    fi
    ((slow == 0)) || result+=", $slow slow unit(s) kept in $dir/artifacts"
    rows+=("| $target | $executions | $elapsed | $((executions / elapsed)) | $(find "$dir/corpus" -type f | wc -l) | $result |")
done

echo "| target | executions | seconds | exec/s | corpus | result |"
echo "|---|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
exit $failed
