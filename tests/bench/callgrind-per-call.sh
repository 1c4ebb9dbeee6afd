#!/bin/sh
# SPDX-License-Identifier: MIT
# callgrind-per-call.sh CALLS_PER_BLOCK DUMP...: the client's instructions per call for each
# column of sonde-bench-http, from the dumps it leaves when run under callgrind (one dump per
# timed block, named after its column: floorcolumns.h). Instruction counts do not change with
# the load of a shared machine, as wall time does. For example:
#   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg/cg.%p \
#       build/bin/sonde-bench-http --server v2 --calls 500 --runs 1
#   tests/bench/callgrind-per-call.sh 100 /tmp/cg/cg.*.*
# (100 is the benchmark's block size; the last block is smaller when --calls is not a multiple.)
set -eu
if [ $# -lt 2 ]; then
  echo "usage: callgrind-per-call.sh CALLS_PER_BLOCK DUMP..." >&2
  exit 2
fi
per_block=$1
shift
awk -v per_block="$per_block" '
  /^desc: Trigger: Client Request: / { column = $NF }
  /^totals: / { if (column != "") { sum[column] += $2; blocks[column] += 1 }; column = "" }
  END {
    printf "%-26s %8s %16s\n", "column", "blocks", "Ir per call"
    for (c in sum)
      printf "%-26s %8d %16.0f\n", c, blocks[c], sum[c] / (blocks[c] * per_block)
  }' "$@" | sort
