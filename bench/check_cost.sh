#!/bin/sh
# SPDX-License-Identifier: MIT
# What device checking costs: every sample (samples/) on SoftGPU with
# SOFTGPU_CHECK=nomemory (unchecked functional mode), with the default
# (precise memory checking) and with uninit, the kernel time each run
# reports (kernel_ms:, the median of BENCH_RUNS runs) and the ratios to
# unchecked. docs/checking.md quotes its output.
#
#   sh bench/check_cost.sh build
set -u
build=${1:-build}
runs=${BENCH_RUNS:-3}
samples=${BENCH_SAMPLES:-"vector_add matmul reduction histogram mandelbrot divergence"}
if [ ! -x "$build/samples/vector_add" ]; then
  echo "check_cost: no samples in $build/samples: build first" >&2
  exit 2
fi
build=$(cd "$build" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/sg-check.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

size() {
  case $1 in
    vector_add) echo 1000003 ;;
    matmul) echo 128 ;;
    reduction | histogram) echo 1000000 ;;
    mandelbrot) echo 256 ;;
    divergence) echo 65536 ;;
  esac
}

run_one() { # checks sample size -> median kernel_ms
  i=0
  while [ $i -lt "$runs" ]; do
    (cd "$work" && env SOFTGPU_CHECK="$1" OCL_ICD_VENDORS="$build/vendors" \
      "$build/samples/$2" "$3" 2>/dev/null) | sed -n 's/^kernel_ms: //p' | tail -n 1
    i=$((i + 1))
  done | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'
}

ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (a == "-" || b == "-" || b + 0 == 0) print "-"; else printf "%.2f\n", a / b }'
}

fmt="%-12s %9s %12s %12s %12s %8s %8s\n"
printf "$fmt" sample size "unchecked ms" "memory ms" "uninit ms" "memory" "uninit"
for s in $samples; do
  n=$(size "$s")
  base=$(run_one nomemory "$s" "$n")
  mem=$(run_one "" "$s" "$n")
  un=$(run_one uninit "$s" "$n")
  printf "$fmt" "$s" "$n" "$base" "$mem" "$un" "$(ratio "$mem" "$base")" "$(ratio "$un" "$base")"
done
