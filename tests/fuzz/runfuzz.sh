#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs one libFuzzer target for a while and says how it went, in one line:
#   fuzz <name>: <runs> runs, <n> crashes
# usage: runfuzz.sh BINARY SEED_DIR WORK_DIR SECONDS
# The committed seeds are read only; what the fuzzer learns goes to WORK_DIR/corpus, and a
# crash, leak or timeout leaves its reproducer in WORK_DIR/artifacts (named on failure).
# Exits non-zero on a crash, leak or timeout, and when the binary is missing (a fuzz test
# that cannot run must fail, not pass quietly).
set -uo pipefail
bin=$1 seeds=$2 work=$3 seconds=$4
name=$(basename "$bin"); name=${name#fuzz_}
if [ ! -x "$bin" ]; then
  echo "fuzz $name: $bin is missing: the fuzz build (build-fuzz, clang, -DSONDE_FUZZ=ON) was not built" >&2
  exit 1
fi
mkdir -p "$work/corpus" "$work/artifacts"
rm -f "$work/artifacts"/* # this run's reproducers only, so the count is this run's
log="$work/fuzz.log"
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus" "$seeds" >"$log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
[ -n "$runs" ] || runs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -n1)
[ -n "$runs" ] || runs=0
crashes=$(find "$work/artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
echo "fuzz $name: $runs runs, $crashes crashes"
if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
  echo "fuzz $name: failed (exit $rc); reproducer kept in $work/artifacts, log in $log" >&2
  grep -m1 -A25 -E '^==[0-9]+==ERROR|runtime error|property failed|ERROR: libFuzzer' "$log" >&2
  exit 1
fi
