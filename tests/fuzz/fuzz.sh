#!/bin/sh
# SPDX-License-Identifier: MIT
# Long fuzzing runs by hand: each target (default: all four) for SECONDS,
# keeping its corpus in BUILD/tests/fuzz/corpus/TARGET between runs and any
# crashing input in BUILD/tests/fuzz/findings/. Needs a build with SG_FUZZ
# (the default when clang-19's libFuzzer is installed).
# Usage: sh tests/fuzz/fuzz.sh BUILD SECONDS [program object config options]
set -eu
build=$(cd "$1" && pwd) seconds=$2
shift 2
targets=${*:-program object config options}
dir=$build/tests/fuzz
mkdir -p "$dir/findings"
for t in $targets; do
  mkdir -p "$dir/corpus/$t"
  echo "fuzz_$t: $seconds s"
  (cd "$dir/findings" &&
    "$dir/targets/fuzz_$t" -rss_limit_mb=4096 -max_len=65536 -max_total_time="$seconds" \
      -print_final_stats=1 -artifact_prefix="$dir/findings/$t-" \
      "$dir/corpus/$t" "$dir/seeds/$t") || echo "fuzz_$t: finding in $dir/findings"
done
