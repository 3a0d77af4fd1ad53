#!/bin/sh
# SPDX-License-Identifier: MIT
# A timing launch past two seconds says how far it got on stderr (docs/timing.md):
# with SOFTGPU_PROGRESS=1 a line "kernel 'K': D of N work-groups, C cycles,
# R cycles/s", with SOFTGPU_PROGRESS=0 none. The launch: 1024 one-warp
# work-groups of microbench's thrash kernel on one core, about 5 s.
#   test_progress.sh MICROBENCH
set -eu
mb=$1
cfg=$(mktemp)
out=$(mktemp)
trap 'rm -f "$cfg" "$out"' EXIT
printf 'cores=1\nmode=timing\n' >"$cfg"
line="^SoftGPU: kernel 'thrash': [0-9]+ of 1024 work-groups, [0-9]+ cycles, [0-9]+ cycles/s$"
SOFTGPU_CONFIG=$cfg SOFTGPU_PROGRESS=1 "$mb" thrash 1024 8 2>"$out" >/dev/null
grep -Eq "$line" "$out" || { echo "FAIL: no progress line with SOFTGPU_PROGRESS=1:"; cat "$out"; exit 1; }
grep -E "$line" "$out" | head -1
SOFTGPU_CONFIG=$cfg SOFTGPU_PROGRESS=0 "$mb" thrash 1024 8 2>"$out" >/dev/null
if grep -q "work-groups," "$out"; then echo "FAIL: a progress line with SOFTGPU_PROGRESS=0:"; cat "$out"; exit 1; fi
echo "ok: progress with SOFTGPU_PROGRESS=1, none with 0"
