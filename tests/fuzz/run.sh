#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs one fuzz target from its seeds in a scratch corpus (ctest: a bounded
# number of runs). Usage: run.sh TARGET SEED_DIR [libFuzzer options...]
set -eu
target=$1 seeds=$2
shift 2
work=$(mktemp -d "${TMPDIR:-/tmp}/sg-fuzz-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
"$target" -rss_limit_mb=4096 -max_len=65536 "$@" "$work" "$seeds"
