#!/bin/sh
# SPDX-License-Identifier: MIT
# docs/guide.md: every command runs and prints what the guide shows, with
# the build tree's softgpu and samples (run_guide.sh; the install step runs
# in test_package_chroot.sh).
. "$(dirname "$0")/lib.sh"
PATH="$(dirname "$SOFTGPU"):$PATH"
export PATH
[ "$(command -v softgpu)" = "$SOFTGPU" ] || fail "softgpu on PATH is $(command -v softgpu), not $SOFTGPU"
run sh "$SG_SOURCE_DIR/tests/cli/run_guide.sh" "$SG_SOURCE_DIR/docs/guide.md" \
  --samples "$SG_BUILD_DIR/samples"
[ "$rc" = 0 ] || fail "the guide's commands failed (exit status $rc)"
has out "^run_guide.sh: every block of .*guide.md ran as shown$"
# Every block ran: as many as the guide has, less the install step.
blocks=$(grep -c '^```sh$' "$SG_SOURCE_DIR/docs/guide.md")
same "$(grep -c '^--- guide block ' out)" "$blocks" "blocks run"
[ "$blocks" -ge 10 ] || fail "only $blocks command blocks in the guide"
finish
