#!/bin/sh
# SPDX-License-Identifier: MIT
# Benchmarks (DESIGN.md "Tests": bench/ runs the samples side by side with the
# other OpenCL platforms on the machine). Runs each sample at a few sizes on
# SoftGPU (the build tree's ICD), PoCL and Oclgrind, each alone through the
# loader, and prints the kernel times the samples report (kernel_ms, event
# profiling) with ratios. A platform that is missing, fails or times out
# shows "-". Usage: bench/run.sh [BUILD_DIR]   (default: ./build)
# Environment: BENCH_SAMPLES (names, default all), BENCH_TIMEOUT (s, 120).
set -u

build=${1:-build}
timeout_s=${BENCH_TIMEOUT:-120}
samples=${BENCH_SAMPLES:-"vector_add matmul reduction histogram mandelbrot divergence"}

if [ ! -x "$build/samples/vector_add" ]; then
  echo "bench: no samples in $build/samples: build first (ninja -C $build)" >&2
  exit 2
fi
build=$(cd "$build" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/sg-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

sizes() {
  case $1 in
    vector_add) echo "100003 1000003" ;;
    matmul) echo "64 128 256" ;;
    reduction | histogram) echo "100000 1000000" ;;
    mandelbrot) echo "128 256" ;;
    divergence) echo "16384 65536" ;;
    *) echo "1000" ;;
  esac
}

. "$(dirname "$0")/vendors.sh"

# kernel_ms of one run, or "-".
run_one() { # vendors-dir sample size
  [ -n "$1" ] || { echo "-"; return; }
  out=$(cd "$work" && env -u SOFTGPU_SAMPLE_PLATFORM OCL_ICD_VENDORS="$1" \
    timeout "$timeout_s" "$build/samples/$2" "$3" 2>/dev/null) || { echo "-"; return; }
  ms=$(printf '%s\n' "$out" | sed -n 's/^kernel_ms: //p' | tail -n 1)
  echo "${ms:--}"
}

ratio() { # a b -> a/b or "-"
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (a == "-" || b == "-" || b + 0 == 0) print "-"; else printf "%.2f\n", a / b }'
}

fmt="%-12s %9s %12s %12s %12s %13s %16s\n"
printf "$fmt" sample size "SoftGPU ms" "PoCL ms" "Oclgrind ms" "SoftGPU/PoCL" "Oclgrind/SoftGPU"
for s in $samples; do
  for n in $(sizes "$s"); do
    sg=$(run_one "$softgpu_dir" "$s" "$n")
    po=$(run_one "$pocl_dir" "$s" "$n")
    og=$(run_one "$oclgrind_dir" "$s" "$n")
    printf "$fmt" "$s" "$n" "$sg" "$po" "$og" "$(ratio "$sg" "$po")" "$(ratio "$og" "$sg")"
  done
done
