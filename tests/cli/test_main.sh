#!/bin/sh
# SPDX-License-Identifier: MIT
# softgpu itself: the command list, --help of every command, --version,
# and one line on stderr with exit status 2 for a bad command line.
. "$(dirname "$0")/lib.sh"

commands="run compile disasm kernel config presets report"

expect 0 "$SOFTGPU" --help
for c in $commands; do
  has out "^  $c +[a-z]"
done
for code in 0 1 2 3 4 125 126 127; do
  has out "^ +$code  [a-z\`]"
done
has out "^  SOFTGPU_CONFIG "

expect 2 "$SOFTGPU"
has err "^usage: softgpu COMMAND"

expect 0 "$SOFTGPU" --version
has out "^softgpu [0-9]+\.[0-9]+\.[0-9]+ \(.*LLVM"

for c in $commands; do
  expect 0 "$SOFTGPU" "$c" --help
  has out "^usage: softgpu $c( |$)"
  has out "^  -h, --help "
  expect 0 "$SOFTGPU" help "$c"
  has out "^usage: softgpu $c( |$)"
  # An unknown option: one line naming it (run keeps 2 for the program's
  # own status and says 125).
  status=2
  [ "$c" = run ] && status=125
  expect $status "$SOFTGPU" "$c" --no-such-option
  one_error "^softgpu $c: unknown option '--no-such-option'"
done

expect 2 "$SOFTGPU" frobnicate
one_error "^softgpu: no command named 'frobnicate'"
expect 2 "$SOFTGPU" --frobnicate
one_error "^softgpu: unknown option '--frobnicate'"
expect 2 "$SOFTGPU" help frobnicate
one_error "^softgpu: no command named 'frobnicate'"

# Options that take a value say so when it is missing; flags take none.
expect 2 "$SOFTGPU" compile -o
one_error "^softgpu compile: option '-o' needs a value"
expect 2 "$SOFTGPU" kernel x.cl --global
one_error "needs a value"
expect 125 "$SOFTGPU" run --debug=1 -- true
one_error "^softgpu run: option '--debug' takes no value"
finish
