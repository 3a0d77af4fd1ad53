#!/bin/sh
# SPDX-License-Identifier: MIT
# The buggy-kernel suite (tests/kernels/bugs/) on SoftGPU and on Oclgrind:
# for each buggy kernel, whether each tool names its bug, and for each
# correct kernel (ok_*), whether it reports anything (a false positive).
# SoftGPU finds a bug when the case passes (the exact diagnostics its .run
# expects); Oclgrind, run through its `oclgrind` wrapper with
# --data-races --uninitialized on the case runner (-d: launch, check
# nothing), finds it when it reports an error of the bug's class (from the
# kinds the .run expects: races, barriers and collectives, memory,
# uninitialised values). Usage: bench/bugs.sh [BUILD_DIR]   (default: ./build)
# Environment: BENCH_TIMEOUT (s per run, default 60), BUGS (case names).
set -u

build=${1:-build}
timeout_s=${BENCH_TIMEOUT:-60}
here=$(cd "$(dirname "$0")" && pwd)
dir="$here/../tests/kernels/bugs"
runner="$build/tests/kernels/sg_kernel_runner"
if [ ! -x "$runner" ] || [ ! -f "$build/vendors/softgpu.icd" ]; then
  echo "bugs: no kernel runner in $build: build first (ninja -C $build)" >&2
  exit 2
fi
build=$(cd "$build" && pwd)
runner="$build/tests/kernels/sg_kernel_runner"
have_oclgrind=0
command -v oclgrind >/dev/null 2>&1 && have_oclgrind=1
out=$(mktemp "${TMPDIR:-/tmp}/sg-bugs.XXXXXX")
trap 'rm -f "$out"' EXIT INT TERM

# The class of a case's bug, from the diagnostics its .run expects.
class_of() { # run-file
  reports=$(grep '^report ' "$1")
  if echo "$reports" | grep -q 'data race\|warp-synchronous\|value already there'; then echo race
  elif echo "$reports" | grep -qi 'uninit'; then echo uninit
  elif echo "$reports" | grep -q 'barrier\|work_group_\|sub_group_\|async'; then echo sync
  elif echo "$reports" | grep -q 'unmapped\|read-only\|stack\|bounds\|past the end'; then echo memory
  else echo other
  fi
}

# What Oclgrind said, as classes: race sync memory uninit, or "unsupported"
# when it could not build or run the kernel.
oclgrind_says() { # run-file
  uniform=""
  grep -q "^check .*same-value" "$1" && uniform=--uniform-writes # the same request
  timeout "$timeout_s" oclgrind --data-races --uninitialized $uniform "$runner" -p Oclgrind -d "$1" \
    >"$out" 2>&1
  rc=$?
  if [ $rc -eq 124 ]; then echo "timeout"; return; fi
  if grep -q 'OCLGRIND FATAL ERROR\|build failed\|^launched' "$out" && ! grep -q '^launched' "$out"; then
    echo "unsupported"
    return
  fi
  said=""
  grep -q 'data race' "$out" && said="$said race"
  grep -q 'Work-group divergence\|barrier divergence\|Barrier divergence' "$out" && said="$said sync"
  grep -q 'Invalid read\|Invalid write\|out of bounds\|Invalid memory' "$out" && said="$said memory"
  grep -q 'Uninitialized value' "$out" && said="$said uninit"
  echo "${said# }"
}

# Does the list of classes $1 hold $2?
says() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }

printf '%-28s %-7s %-8s %-24s\n' kernel class SoftGPU Oclgrind
n_bug=0 sg_found=0 og_found=0 n_ok=0 sg_fp=0 og_fp=0 og_unsup=0
for run in "$dir"/*.run; do
  name=$(basename "$run" .run)
  [ -n "${BUGS:-}" ] && case " $BUGS " in *" $name "*) ;; *) continue ;; esac
  sg=$(cd "$dir" && OCL_ICD_VENDORS="$build/vendors" timeout "$timeout_s" "$runner" "$run" 2>&1)
  sg_rc=$?
  og="-"
  [ $have_oclgrind -eq 1 ] && og=$(oclgrind_says "$run")
  case $name in
    ok_*)
      n_ok=$((n_ok + 1))
      if [ $sg_rc -eq 0 ]; then sgs="quiet"; else
        sgs="REPORTS"
        echo "$sg" | grep -q '^unexpected report' && sg_fp=$((sg_fp + 1))
      fi
      case $og in
        "") ogs="quiet" ;;
        unsupported | timeout | -) ogs=$og; og_unsup=$((og_unsup + 1)) ;;
        *) ogs="REPORTS: $og"; og_fp=$((og_fp + 1)) ;;
      esac
      printf '%-28s %-7s %-8s %-24s\n' "$name" ok "$sgs" "$ogs"
      ;;
    *)
      n_bug=$((n_bug + 1))
      class=$(class_of "$run")
      if [ $sg_rc -eq 0 ]; then sgs="found"; sg_found=$((sg_found + 1)); else sgs="MISSED"; fi
      if [ "$og" = unsupported ] || [ "$og" = timeout ] || [ "$og" = - ]; then
        ogs=$og; og_unsup=$((og_unsup + 1))
      elif [ -z "$og" ]; then
        ogs="missed"
      elif says "$og" "$class" || { [ "$class" = sync ] && says "$og" race; }; then
        ogs="found ($og)"; og_found=$((og_found + 1)) # async misuse is a race to Oclgrind
      else
        ogs="other: $og"
      fi
      printf '%-28s %-7s %-8s %-24s\n' "$name" "$class" "$sgs" "$ogs"
      ;;
  esac
done
echo
echo "buggy kernels: $n_bug; SoftGPU names $sg_found, Oclgrind $og_found" \
  "(it cannot run $og_unsup of all the kernels)"
echo "correct kernels: $n_ok; false positives: SoftGPU $sg_fp, Oclgrind $og_fp"
