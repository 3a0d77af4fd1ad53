#!/bin/sh
# SPDX-License-Identifier: MIT
# softgpu kernel: argument specs of every kind against results derived by
# hand, the checks against the kernel's signature, the settings options,
# and the exit statuses of each failure (one line on stderr).
. "$(dirname "$0")/lib.sh"
data="$(dirname "$0")/data"
saxpy="$data/saxpy.cl"

# y = 2 * x + y with x = 0, 1, 2, ... and y = 1: y[i] = 2i + 1.
expect 0 "$SOFTGPU" kernel "$saxpy" --kernel saxpy --global 16 --local 8 \
  --arg 'float[16]:fill=1:dump' --arg 'float[16]:range' --arg float:2 --arg int:16
has out "^arg 0: float\[16\]$"
has out "^  \[0\] 1 3 5 7 9 11 13 15$"
has out "^  \[8\] 17 19 21 23 25 27 29 31$"
has out "^kernel saxpy: global 16, local 8: [0-9]+\.[0-9]{3} ms$"
[ ! -s err ] || fail "messages on stderr"
# Short options, range=START,STEP, a larger ND-range than n (the guard).
expect 0 "$SOFTGPU" kernel "$saxpy" -k saxpy -g 20 -a 'float[16]:dump' -a 'float[16]:range=10,0.5' \
  -a float:-1 -a int:16
has out "^  \[0\] -10 -10.5 -11 -11.5 -12 -12.5 -13 -13.5$"
has out "local chosen by SoftGPU"

# __local memory: each work-group of 4 reverses its slice.
expect 0 "$SOFTGPU" kernel "$saxpy" -k reverse -g 8 -l 4 -a 'int[8]:range:dump' -a local:16
has out "^  \[0\] 3 2 1 0 7 6 5 4$"

# Two dimensions with an offset: (x, y) for x in 1..3, y in 1..2.
expect 0 "$SOFTGPU" kernel "$data/grid.cl" -g 3,2 --offset 1,1 -a 'int[12]:fill=-1:dump' -a int:4
has out "^  \[0\] -1 -1 -1 -1 -1 101 201 301$"
has out "^  \[8\] -1 102 202 302$"
has out "^kernel grid: global 3x2, "

# Values of several types; a vector from one value per element.
expect 0 "$SOFTGPU" kernel "$data/types.cl" -k types -g 1 -a 'float4[2]:dump' -a float4:1,2,3,4 \
  -a double:0.5 -a long:-7 -a uchar:200 -a short:-0x3
has out "^  \[0\] \(0\.5,1,1\.5,2\) \(-7,200,-3,0\)$"
expect 0 "$SOFTGPU" kernel "$data/types.cl" -k types -g 1 -a 'float4[2]:dump' -a float4:4 \
  -a double:1 -a long:010 -a uchar:0xff -a short:1
has out "^  \[0\] \(4,4,4,4\) \(10,255,1,0\)$"

# Buffers from and to files; the element count from the file's size; null.
printf '\001\000\000\000\002\000\000\000\003\000\000\000\375\377\377\377' >in.bin
expect 0 "$SOFTGPU" kernel "$data/types.cl" -k twice -g 4 -a 'int[4]:out=res.bin' -a 'int[]:file=in.bin'
same "$(od -An -td4 res.bin | tr -s ' ')" " 2 4 6 -6" "twice of in.bin"
expect 0 "$SOFTGPU" kernel "$data/types.cl" -k twice -g 4 -a 'int[]:file=in.bin:dump' -a null
has out "^  \[0\] 2 4 6 -6$"

# rand=SEED: the same seed gives the same floats in [0, 1), another seed
# other ones.
for seed in 5 5 6; do
  expect 0 "$SOFTGPU" kernel "$data/types.cl" -k copy -g 64 -a 'float[64]:dump' -a "float[64]:rand=$seed"
  grep '^  \[' out >"rand$seed.$(ls rand* 2>/dev/null | wc -l)"
done
cmp -s rand5.0 rand5.1 || fail "rand=5 twice gave different buffers"
! cmp -s rand5.0 rand6.2 || fail "rand=5 and rand=6 gave the same buffer"
same "$(tr ' ' '\n' <rand5.0 | grep -Ev '^$|^\[' | awk '$1 < 0 || $1 >= 1' | wc -l)" 0 "random floats outside [0, 1)"
same "$(tr ' ' '\n' <rand5.0 | grep -Ev '^$|^\[' | sort -u | wc -l)" 64 "distinct random floats"

# Settings: a configuration, statistics, strict checking.
cat >narrow.cfg <<'CFG'
warp_size=8
CFG
for cfg in default narrow.cfg; do
  expect 0 "$SOFTGPU" kernel "$data/stripes.cl" -g 4096 -l 64 -a 'float[4096]' --config $cfg \
    --stats stats.json
done
# Stripes of 8 work-items: 8-lane warps never diverge, 32-lane ones always.
# (one line per launch: the fields in any order)
grep '"warps":128,' stats.json >wide
grep '"warps":512,' stats.json >narrow
has wide '^\{"kernel":"stripes",'
has wide '"divergent_branches":128,'
has narrow '^\{"kernel":"stripes",'
has narrow '"simd_efficiency":1\.0000,'
has narrow '"divergent_branches":0,'
expect 0 "$SOFTGPU" kernel "$data/oob.cl" -g 64 -l 64 -a 'int[64]'
has err "^SoftGPU: kernel 'oob': input.cl:5:14: store of 4 bytes at unmapped address 0x[0-9a-f]+ \(0 bytes past the end of buffer argument 0 \`out\` \(256 bytes\)\) by work-item \(global 63,0,0; group 0,0,0; local 63,0,0; warp 1 lane 31\)"
expect 4 "$SOFTGPU" kernel "$data/oob.cl" -g 64 -l 64 -a 'int[64]' --check strict
has err "^softgpu kernel: the launch of 'oob' failed: CL_OUT_OF_RESOURCES$"
expect 4 "$SOFTGPU" kernel "$saxpy" -k reverse -g 64 -l 32 -a 'int[64]' -a local:128 --config vortex
one_error "^softgpu kernel: clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE"
expect 4 "$SOFTGPU" kernel "$saxpy" -k reverse -g 10 -l 4 -a 'int[10]' -a local:16
one_error "^softgpu kernel: clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE"
# --trace: one line per warp instruction; 64 work-items in one warp of 64
# lanes (the wide preset) run oob's straight-line code once.
expect 0 "$SOFTGPU" kernel "$data/oob.cl" -g 64 -l 64 -a 'int[65]' --config wide --trace t.txt
has t.txt "^# kernel oob cta 0 core [0-9]+ warps 1$"
has t.txt " cta 0 warp 0 pc 0x[0-9a-f]+ mask 0xffffffffffffffff  sw "
has t.txt " cta 0 warp 0 pc 0x[0-9a-f]+ mask 0xffffffffffffffff  sg\.exit$"
# --build-limits reaches the compiler worker: 16 MiB is too little to build.
expect 1 "$SOFTGPU" kernel "$data/oob.cl" -g 4 -a 'int[8]' --build-limits memory=16
has err "^softgpu kernel: .*oob.cl did not build$"
expect 2 "$SOFTGPU" kernel "$saxpy" -k reverse -g 8 -a 'int[8]' -a local:16 --threads 0
one_error "^softgpu kernel: --threads: '0' is not a number"

# A program binary works as well as source.
expect 0 "$SOFTGPU" compile "$saxpy" -o saxpy.bin
expect 0 "$SOFTGPU" kernel saxpy.bin -k saxpy -g 4 -a 'float[4]:dump' -a 'float[4]:fill=2' -a float:3 -a int:4
has out "^  \[0\] 6 6 6 6$"

# Arguments that do not fit the kernel: exit 2, one line naming both.
bad() { # bad MESSAGE-ERE ARGS...: exit 2 with that one line
  msg=$1
  shift
  expect 2 "$SOFTGPU" kernel "$saxpy" -k saxpy -g 16 "$@"
  one_error "^softgpu kernel: $msg"
}
bad "kernel 'saxpy' takes 4 arguments, 3 given \(--arg\)$" -a 'float[16]' -a 'float[16]' -a float:1
bad "--arg 2 'int:2': argument 2 \(float a\) takes float, not int$" \
  -a 'float[16]' -a 'float[16]' -a int:2 -a int:16
bad "--arg 1 'int\[16\]': argument 1 \(__global const float \*x\) points to float, not int$" \
  -a 'float[16]' -a 'int[16]' -a float:2 -a int:16
bad "--arg 2 'float\[4\]' is a buffer, but argument 2 \(float a\) takes a value \(TYPE:VALUE\)$" \
  -a 'float[16]' -a 'float[16]' -a 'float[4]' -a int:16
bad "--arg 0 'local:64' is local memory, but argument 0 \(__global float \*y\) takes a buffer" \
  -a local:64 -a 'float[16]' -a float:2 -a int:16
bad "--arg 0 'float:1' is a value, but argument 0 " -a float:1 -a 'float[16]' -a float:2 -a int:16
expect 2 "$SOFTGPU" kernel "$saxpy" -k reverse -g 8 -a 'int[8]' -a 'int[8]'
one_error "^softgpu kernel: --arg 1 'int\[8\]' is a buffer, but argument 1 \(__local int \*tmp\) takes local:BYTES$"

# Malformed specs and sizes: exit 2, one line.
for spec in 'float[16' 'quad:1' 'int:abc' 'int:99999999999' 'uchar:-1' 'float:1e39' 'float4:1,2' \
  'float4:1,2,3,4,5' 'float[16]:bogus' 'float[]' 'float[0]' 'local:0' 'float[16]:fill=x' \
  'float[16]:fill=1:range' 'float[16]dump' 'nothing'; do
  expect 2 "$SOFTGPU" kernel "$saxpy" -k saxpy -g 16 -a "$spec"
  one_error "^softgpu kernel: --arg 0 '"
done
for sizes in "-g 0" "-g 1,2,3,4" "-g x" "-g 16 -l 8,1" "-g 16,2 --offset 1" "-g 4,"; do
  # shellcheck disable=SC2086
  expect 2 "$SOFTGPU" kernel "$saxpy" -k saxpy $sizes -a 'float[16]'
  one_error "^softgpu kernel: "
done
expect 2 "$SOFTGPU" kernel "$saxpy" -k saxpy -a 'float[16]'
one_error "^softgpu kernel: no --global size$"
expect 2 "$SOFTGPU" kernel -g 4
one_error "^softgpu kernel: no program"
expect 2 "$SOFTGPU" kernel "$saxpy" -g 4
one_error "^softgpu kernel: .*saxpy.cl has 2 kernels \(saxpy, reverse\): choose one with --kernel$"
expect 2 "$SOFTGPU" kernel "$saxpy" -k nope -g 4
one_error "^softgpu kernel: .*saxpy.cl has no kernel 'nope' \(kernels: saxpy, reverse\)$"
expect 2 "$SOFTGPU" kernel "$saxpy" -k saxpy -g 4 -- -no-such-option
has err "^softgpu kernel: bad build options: "

# Build failures and files.
expect 1 "$SOFTGPU" kernel "$data/broken.cl" -g 1 -a 'int[1]'
has err "broken.cl:3:10: error: use of undeclared identifier 'not_declared'"
has err "^softgpu kernel: .*broken.cl did not build$"
expect 3 "$SOFTGPU" kernel no-such.cl -g 1
one_error "^softgpu kernel: cannot read no-such.cl: No such file or directory$"
expect 3 "$SOFTGPU" kernel "$data/types.cl" -k twice -g 4 -a 'int[8]:file=in.bin' -a null
one_error "^softgpu kernel: --arg 0: in.bin has 16 bytes, the buffer 32$"
expect 3 "$SOFTGPU" kernel "$data/types.cl" -k twice -g 4 -a 'int[]:file=no-such.bin' -a null
one_error "^softgpu kernel: --arg 0: cannot read no-such.bin: No such file or directory$"
printf 'abc' >odd.bin
expect 3 "$SOFTGPU" kernel "$data/types.cl" -k twice -g 4 -a 'int[]:file=odd.bin' -a null
one_error "^softgpu kernel: --arg 0: odd.bin has 3 bytes, not a whole number of 4-byte elements$"
expect 3 "$SOFTGPU" kernel "$data/types.cl" -k twice -g 4 -a 'int[4]:out=no-such-dir/x.bin' -a null
one_error "^softgpu kernel: --arg 0: cannot write no-such-dir/x.bin: No such file or directory$"
head -c 100 saxpy.bin >truncated.bin
expect 3 "$SOFTGPU" kernel truncated.bin -g 1
one_error "^softgpu kernel: truncated.bin is not a valid program binary$"
finish
