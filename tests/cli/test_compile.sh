#!/bin/sh
# SPDX-License-Identifier: MIT
# softgpu compile: builds as clBuildProgram does, prints the log with the
# user's file name, writes a program binary the runtime accepts; exit 1 for
# source errors, 2 for bad options or command lines, 3 for files.
. "$(dirname "$0")/lib.sh"
data="$(dirname "$0")/data"

expect 0 "$SOFTGPU" compile "$data/saxpy.cl" -o saxpy.bin
has out "saxpy.cl: 2 kernels: saxpy, reverse; [0-9]+ bytes of program binary in saxpy.bin$"
[ "$(head -c 4 saxpy.bin | od -An -c | tr -d ' ')" = '177ELF' ] || fail "saxpy.bin is not an ELF file"
# The binary is what the runtime accepts: softgpu kernel runs it.
expect 0 "$SOFTGPU" kernel saxpy.bin --kernel reverse --global 4 --local 4 \
  --arg 'int[4]:range:dump' --arg local:16
has out "^  \[0\] 3 2 1 0$"

# Without -o only the check and the summary; build options after --.
expect 0 "$SOFTGPU" compile "$data/saxpy.cl" -- -cl-std=CL2.0 -DUNUSED=1
has out "2 kernels"
# Includes beside the file are found, wherever softgpu runs from.
expect 0 "$SOFTGPU" compile "$data/inc/uses_header.cl"
has out "1 kernel: scaled;"

# A source error: the log names the user's file, line and column.
expect 1 "$SOFTGPU" compile "$data/broken.cl" -o broken.bin
has err "broken.cl:3:10: error: use of undeclared identifier 'not_declared'"
has err "^softgpu compile: .*broken.cl did not build$"
[ ! -e broken.bin ] || fail "a binary was written for a failed build"

expect 2 "$SOFTGPU" compile "$data/saxpy.cl" -- -no-such-option
has err "^softgpu compile: bad build options: .*-no-such-option"
expect 2 "$SOFTGPU" compile
one_error "^softgpu compile: no source file"
expect 2 "$SOFTGPU" compile a.cl b.cl
one_error "^softgpu compile: unexpected argument 'b.cl' \(usage: softgpu compile FILE.cl "
expect 3 "$SOFTGPU" compile no-such.cl
one_error "^softgpu compile: cannot read no-such.cl: No such file or directory$"
expect 3 "$SOFTGPU" compile "$data/saxpy.cl" -o no-such-dir/x.bin
one_error "^softgpu compile: cannot write no-such-dir/x.bin: No such file or directory$"
finish
