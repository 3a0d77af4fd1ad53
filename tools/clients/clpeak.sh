#!/bin/sh
# SPDX-License-Identifier: MIT
# clpeak (Debian clpeak) on one platform, stopped after a time limit: clpeak
# sizes its work for a real GPU, so on a simulator the point is how far it
# gets. Prints clpeak's output (each result line is one finished
# measurement; $SG_CLIENTS_WORK/clpeak-PLATFORM.log fills as it runs),
# then how many finished and whether it completed.
# Usage: tools/clients/clpeak.sh softgpu|pocl [seconds (default 600)] [clpeak options...]
set -eu
SG_USAGE="[seconds] [clpeak options...]"
. "$(dirname "$0")/common.sh"
sg_client_platform "${1:-}"
shift
limit=${1:-600}
[ $# -eq 0 ] || shift

sg_client_install clpeak
log=$SG_CLIENTS_WORK/clpeak-$SG_PLATFORM.log
t0=$(date +%s)
set +e
# stdbuf: clpeak's lines reach the log as they are printed, not at exit.
timeout --signal=INT --kill-after=10 "$limit" stdbuf -oL clpeak "$@" >"$log" 2>&1
rc=$?
cat "$log"
set -e
elapsed=$(($(date +%s) - t0))
# A result is a line "      float16 : 123.45" under a heading such as
# "Global memory bandwidth (GBPS)" (the device's own lines are indented less).
results=$(grep -cE '^      [A-Za-z0-9]+ *: +[0-9.]+ *$' "$log" || true)
if [ $rc -eq 0 ]; then
  echo "clpeak: completed in $elapsed s, $results measurements"
else
  echo "clpeak: stopped after $elapsed s (exit $rc), $results measurements finished"
fi
