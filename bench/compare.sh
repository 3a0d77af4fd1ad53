#!/bin/sh
# SPDX-License-Identifier: MIT
# Benchmarks (DESIGN.md "Tests"): runs bench/kernels (eleven kernels, three
# sizes, warm-up, median of BENCH_REPS runs) on SoftGPU, PoCL and Oclgrind,
# each alone through the loader, single-threaded and on all host threads,
# and prints per-kernel kernel times, the SoftGPU/PoCL and Oclgrind/SoftGPU
# ratios and their geometric means. Nothing is asserted: the figures are
# measurements (bench/README.md).
# Usage: bench/compare.sh [BUILD_DIR] [s|m|l|all] [case...]
# Environment: BENCH_TIMEOUT (s per platform run, default 900),
# BENCH_OCLGRIND (sizes Oclgrind runs, default "s"; "" for none),
# BENCH_THREADS (host threads of the multi-threaded runs, default: nproc),
# BENCH_REPS (timed runs per case, default 3), SOFTGPU_* as usual.
set -u

build=${1:-build}
[ $# -gt 0 ] && shift
level=${1:-all}
[ $# -gt 0 ] && shift
timeout_s=${BENCH_TIMEOUT:-900}
og_sizes=${BENCH_OCLGRIND-s}
threads=${BENCH_THREADS:-$(nproc)}

prog="$build/bench/kernels"
if [ ! -x "$prog" ]; then
  echo "compare: no $prog: build first (ninja -C $build)" >&2
  exit 2
fi
build=$(cd "$build" && pwd)
prog="$build/bench/kernels"
work=$(mktemp -d "${TMPDIR:-/tmp}/sg-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

. "$(dirname "$0")/vendors.sh"

# run TAG VENDORS THREADS SIZE [CASE...]: "case size ms" lines into $work/TAG.
run() {
  [ -n "$2" ] || return 0
  tag=$1 vendors=$2 nthreads=$3 size=$4
  shift 4
  (cd "$work" && env -u SOFTGPU_SAMPLE_PLATFORM OCL_ICD_VENDORS="$vendors" \
    SOFTGPU_THREADS="$nthreads" POCL_CPU_MAX_CU_NUM="$nthreads" POCL_MAX_PTHREAD_COUNT="$nthreads" \
    timeout "$timeout_s" "$prog" "$size" "$@" 2>"$work/$tag.err") >>"$work/$tag" ||
    echo "compare: $tag size $size failed or timed out (see stderr of bench/kernels)" >&2
}
shift_args="$*"
for sz in $( [ "$level" = all ] && echo "s m l" || echo "$level"); do
  set -- $shift_args
  run sg1 "$softgpu_dir" 1 "$sz" "$@"
  run po1 "$pocl_dir" 1 "$sz" "$@"
  run sgn "$softgpu_dir" "$threads" "$sz" "$@"
  run pon "$pocl_dir" "$threads" "$sz" "$@"
  case " $og_sizes " in *" $sz "*) run og "$oclgrind_dir" 1 "$sz" "$@" ;; esac
done
touch "$work/sg1" "$work/po1" "$work/sgn" "$work/pon" "$work/og"

awk -v T="$threads" '
  BEGIN { idx["sg1"] = 1; idx["po1"] = 2; idx["sgn"] = 3; idx["pon"] = 4; idx["og"] = 5 }
  { f = FILENAME; sub(".*/", "", f); f = idx[f] }
  { key = $1 " " $2; if (!(key in seen)) { seen[key] = 1; order[n++] = key }
    v[f, key] = ($3 == "FAILED" || NF > 3) ? "-" : $3 }
  function val(i, k) { return ((i, k) in v) ? v[i, k] : "-" }
  function ratio(a, b) { return (a == "-" || b == "-" || b + 0 == 0) ? "-" : sprintf("%.2f", a / b) }
  function acc(i, r) { if (r != "-") { ls[i] += log(r); cnt[i]++; if (r + 0 > mx[i]) mx[i] = r + 0 } }
  END {
    fmt = "%-10s %-2s %10s %10s %7s | %10s %10s %7s | %11s %8s\n"
    printf fmt, "kernel", "sz", "SG 1t ms", "PoCL 1t", "SG/PoCL", "SG " T "t ms", "PoCL " T "t",
      "SG/PoCL", "Oclgrind ms", "OG/SG"
    for (i = 0; i < n; i++) {
      k = order[i]; split(k, p, " ")
      r1 = ratio(val(1, k), val(2, k)); rn = ratio(val(3, k), val(4, k))
      ro = ratio(val(5, k), val(1, k))
      acc(1, r1); acc(2, rn); acc(3, ro)
      printf fmt, p[1], p[2], val(1, k), val(2, k), r1, val(3, k), val(4, k), rn, val(5, k), ro
    }
    for (i = 1; i <= 3; i++)
      g[i] = cnt[i] ? sprintf("%.2f (max %.2f)", exp(ls[i] / cnt[i]), mx[i]) : "-"
    printf "geometric mean SoftGPU/PoCL, 1 thread: %s; %s threads: %s; Oclgrind/SoftGPU: %s\n",
      g[1], T, g[2], g[3]
  }' "$work/sg1" "$work/po1" "$work/sgn" "$work/pon" "$work/og"
