#!/bin/sh
# SPDX-License-Identifier: MIT
# CLBlast's tests (Debian clblast-tests: one program per routine, each
# checked against the reference CBLAS) on one platform. With no routine
# names, all of them; the sums of passed/skipped/failed cases close the run.
# Usage: tools/clients/clblast.sh softgpu|pocl [xgemm xaxpy ...]
set -eu
SG_USAGE="[routine...]"
. "$(dirname "$0")/common.sh"
sg_client_platform "${1:-}"
shift

sg_client_install clblast-tests
if [ $# -eq 0 ]; then
  # shellcheck disable=SC2046 # one routine name a line, no blanks
  set -- $(dpkg -L clblast-tests | sed -n 's,^/usr/bin/clblast_test_,,p' | sort)
fi

# count WORD LOG: the sum of the "N test(s) WORD" lines (one per precision).
count() {
  sed 's/\x1b\[[0-9;]*m//g' "$2" | awk -v w="$1" '$2 == "test(s)" && $3 == w { n += $1 } END { print n + 0 }'
}

log=$SG_CLIENTS_WORK/clblast-$SG_PLATFORM.log
: >"$log"
passed=0 skipped=0 failed=0 broken=""
t0=$(date +%s)
for r in "$@"; do
  out=$SG_CLIENTS_WORK/clblast-$SG_PLATFORM-$r.log
  t1=$(date +%s)
  set +e
  "clblast_test_$r" >"$out" 2>&1
  rc=$?
  set -e
  # Each precision ends with "N test(s) passed|skipped|failed".
  p=$(count passed "$out")
  s=$(count skipped "$out")
  f=$(count failed "$out")
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
    broken="$broken $r(exit $rc)" # a crash, not a counted failure
    f=1
  fi
  echo "$r: $p passed, $s skipped, $f failed ($(($(date +%s) - t1)) s)" | tee -a "$log"
  passed=$((passed + p)) skipped=$((skipped + s)) failed=$((failed + f))
done
[ -z "$broken" ] || echo "exited abnormally:$broken"
echo "wall time: $(($(date +%s) - t0)) s"
echo "clblast: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
