# SPDX-License-Identifier: MIT
# Helpers for the tests of the softgpu command, sourced by each test_*.sh:
# each test runs in a fresh folder, with no SOFTGPU_* variable of the caller.
# ctest gives SOFTGPU (the command), SG_SOURCE_DIR and SG_BUILD_DIR.
set -u
: "${SOFTGPU:?the softgpu command to test}" "${SG_SOURCE_DIR:?}" "${SG_BUILD_DIR:?}"
for v in $(env | sed -n 's/^\(SOFTGPU_[A-Z0-9_]*\)=.*/\1/p'); do
  unset "$v"
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sg_cli_test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
failures=0
what=""

# run CMD...: runs it; $rc is its status, files out and err its output.
run() {
  what="$*"
  "$@" >out 2>err
  rc=$?
}

fail() {
  failures=$((failures + 1))
  echo "FAIL: $what"
  echo "  $*"
  echo "  --- stdout:"
  show out
  echo "  --- stderr:"
  show err
}

# show FILE: its first 20 and last 40 lines.
show() {
  [ -f "$1" ] || return 0
  if [ "$(wc -l <"$1")" -le 60 ]; then
    sed 's/^/  | /' "$1"
  else
    head -20 "$1" | sed 's/^/  | /'
    echo "  | ..."
    tail -40 "$1" | sed 's/^/  | /'
  fi
}

# expect STATUS CMD...: runs CMD and checks its exit status.
expect() {
  want=$1
  shift
  run "$@"
  [ "$rc" = "$want" ] || fail "exit status $rc, expected $want"
}

# has FILE ERE: FILE has a line matching ERE.
has() {
  grep -Eq -- "$2" "$1" || fail "$1 has no line matching /$2/"
}

# lacks FILE ERE: no line of FILE matches ERE.
lacks() {
  ! grep -Eq -- "$2" "$1" || fail "$1 has a line matching /$2/: $(grep -E -- "$2" "$1" | head -1)"
}

# one_error ERE: stderr is exactly one line, matching ERE.
one_error() {
  [ "$(wc -l <err)" -eq 1 ] || fail "stderr is not one line"
  has err "$1"
}

# count FILE ERE: how many lines match.
count() {
  grep -Ec -- "$2" "$1"
}

# same A B what: the two values are equal.
same() {
  [ "$1" = "$2" ] || fail "$3: '$1', expected '$2'"
}

finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
  fi
  echo "all checks passed"
  exit 0
}
