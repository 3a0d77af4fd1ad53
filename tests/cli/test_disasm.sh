#!/bin/sh
# SPDX-License-Identifier: MIT
# softgpu disasm: kernels with their signatures and sizes, the code checked
# against llvm-objdump (the independent reference: same addresses, words
# and, for RV64IMAFD, mnemonics), labels, branch targets, the reconvergence
# PC at every conditional branch and nowhere else; bad binaries give exit 3,
# never a crash.
. "$(dirname "$0")/lib.sh"
data="$(dirname "$0")/data"
: "${SG_OBJDUMP:?llvm-objdump}"

expect 0 "$SOFTGPU" compile "$data/saxpy.cl" -o saxpy.bin -- -cl-kernel-arg-info
expect 0 "$SOFTGPU" disasm saxpy.bin
cp out saxpy.txt
has out "^saxpy.bin: SoftGPU program binary, OpenCL C 1\.2 \(uniform work-groups\), 2 kernels$"
has out "^kernel void saxpy\(__global float \*y, __global const float \*x, float a, int n\)$"
has out "^  arg 0 y: global buffer, 8 bytes at parameter offset 0$"
has out "^  arg 2 a: value, 4 bytes at parameter offset 16$"
has out "^  arg 3 n: value, 4 bytes at parameter offset 20$"
has out "^kernel void reverse\(__global int \*data, __local int \*tmp\)$"
has out "^  arg 1 tmp: local memory, 8 bytes at parameter offset 8$"
has out "^  local memory: 0 bytes of __local variables, plus the __local arguments$"
has out "^  uses: its work-group's shape$"
has out "^  private memory: [0-9]+ bytes per work-item"
has out "^  entry: 0x[0-9a-f]+ <__sg_entry_saxpy>$"
has out "^__sg_entry_saxpy:$"
has out "^__sg_entry_reverse:$"
has out "^ +[0-9a-f]+:  [0-9a-f]+  sg\.barrier "
has out "^ +[0-9a-f]+:  [0-9a-f]+  sg\.exit$"
has out "csrr [a-z0-9]+, sg\.tid\.x$"

# Every instruction of .text once, as llvm-objdump decodes it.
insns() { awk '$1 ~ /^[0-9a-f]+:$/ && length($2) == 8 && $2 ~ /^[0-9a-f]+$/ { print $1, $2, $3 }' "$1"; }
"$SG_OBJDUMP" -d -M no-aliases saxpy.bin >objdump.txt || fail "llvm-objdump failed"
insns saxpy.txt | sort >ours
insns objdump.txt | sort >theirs
same "$(cut -d' ' -f1,2 ours | md5sum)" "$(cut -d' ' -f1,2 theirs | md5sum)" "addresses and words against llvm-objdump"
# Mnemonics agree except where objdump lacks the SIMT extension or shows
# csrr (an alias) as csrrs.
paste -d' ' ours theirs | awk '$3 !~ /^sg\./ && $3 != "csrr" && $3 != $6 { print }' >mismatch
[ ! -s mismatch ] || fail "mnemonics differ from llvm-objdump: $(head -3 mismatch)"
same "$(paste -d' ' ours theirs | awk '$6 == "<unknown>" && $3 !~ /^sg\./' | wc -l)" 0 \
  "instructions llvm-objdump does not know that are not SIMT ones"

# Reconvergence at every conditional branch, nowhere else, to an address
# in the code (or the exit); targets named by symbol.
branches=$(count saxpy.txt '^ +[0-9a-f]+:  [0-9a-f]+  b(eq|ne|lt|ge|ltu|geu) ')
same "$(count saxpy.txt '; reconverge (at exit|0x[0-9a-f]+ <[^>]+>)$')" "$branches" "branches with a reconvergence PC"
same "$(count saxpy.txt 'reconverge')" "$branches" "lines with a reconvergence PC"
for pc in $(sed -n 's/.*; reconverge 0x\([0-9a-f]*\) .*/\1/p' saxpy.txt); do
  grep -Eq "^ +$pc:  " saxpy.txt || fail "reconvergence PC $pc is not in the listing"
done
has saxpy.txt "  b(eq|ne|lt|ge|ltu|geu) [^#]*# <[A-Za-z_]+\+0x[0-9a-f]+>; reconverge"
# saxpy's guard has nothing after it: its paths only rejoin at the exit.
awk '/^__sg_entry_saxpy:/ { on = 1; next } /^$|^[a-z_]+:$/ { on = 0 } on' saxpy.txt >saxpy_code
same "$(count saxpy_code 'reconverge at exit$')" 1 "saxpy's guard branch"

# A loop with a varying trip count: every work-item makes the final store,
# so the store post-dominates every branch and each branch's paths rejoin
# after the branch and no later than the store.
expect 0 "$SOFTGPU" compile "$data/loop.cl" -o loop.bin
expect 0 "$SOFTGPU" disasm loop.bin
has out "^kernel void squares\(__global int\*, int\)$"
has out "^  \(argument names are kept when built with -cl-kernel-arg-info\)$"
awk '/^__sg_entry_squares:/ { on = 1; next } /^$|^[a-z_]+:$/ { on = 0 } on' out >loop_code
store=$(sed -n 's/^ *\([0-9a-f]*\):  [0-9a-f]*  sw .*/\1/p' loop_code | tail -1)
sed -n 's/^ *\([0-9a-f]*\):  [0-9a-f]*  b[a-z]* .*; reconverge 0x\([0-9a-f]*\) .*/\1 \2/p' loop_code >pairs
[ -s pairs ] && [ -n "$store" ] || fail "no conditional branch or no store in the loop kernel"
while read -r pc reconv; do
  [ $((0x$reconv)) -gt $((0x$pc)) ] && [ $((0x$reconv)) -le $((0x$store)) ] ||
    echo "the branch at $pc reconverges at $reconv, not after it and by the store at $store"
done <pairs >loopcheck
[ ! -s loopcheck ] || fail "$(cat loopcheck)"

# Bad input: one line, exit 3, never a crash.
expect 3 "$SOFTGPU" disasm "$data/saxpy.cl"
one_error "^softgpu disasm: .*saxpy.cl: not a SoftGPU executable program binary "
head -c 200 saxpy.bin >truncated.bin
expect 3 "$SOFTGPU" disasm truncated.bin
one_error "^softgpu disasm: truncated.bin: invalid program binary: "
expect 3 "$SOFTGPU" disasm no-such.bin
one_error "^softgpu disasm: cannot read no-such.bin: No such file or directory$"
expect 2 "$SOFTGPU" disasm
one_error "^softgpu disasm: no program binary \(softgpu disasm FILE.bin\)$"
expect 2 "$SOFTGPU" disasm saxpy.bin loop.bin
one_error "^softgpu disasm: unexpected argument 'loop.bin' "
# Damage one byte at a time across the file: a listing or a clear refusal.
size=$(wc -c <saxpy.bin)
offset=0
while [ "$offset" -lt "$size" ]; do
  cp saxpy.bin damaged.bin
  printf '\377' | dd of=damaged.bin bs=1 seek="$offset" conv=notrunc 2>/dev/null
  run "$SOFTGPU" disasm damaged.bin
  case $rc in
  0) ;;
  3) [ "$(wc -l <err)" -eq 1 ] || fail "byte $offset damaged: more than one line on stderr" ;;
  *) fail "byte $offset damaged: exit status $rc" ;;
  esac
  offset=$((offset + 37))
done
finish
