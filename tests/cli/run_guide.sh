#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the commands of docs/guide.md, so the guide cannot rot:
#   run_guide.sh GUIDE [--install] [--samples DIR]
# Every ```sh block runs, in order, in one shell (variables and files carry
# over) in the current folder, under set -e. A ```text block after it lists
# lines its output (stdout and stderr) must contain, `...` matching any
# text. ```sh install blocks run only with --install (as root, beside the
# package: tests/cli/test_package_chroot.sh). --samples DIR replaces the
# guide's one line `samples=/usr/libexec/softgpu/samples` (the installed
# sample programs) for a build tree.
set -eu
guide=$1
shift
install=0
samples=""
while [ $# -gt 0 ]; do
  case $1 in
  --install) install=1 ;;
  --samples) samples=$2; shift ;;
  *) echo "run_guide.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -f "$guide" ] || { echo "run_guide.sh: no guide at $guide" >&2; exit 2; }
samples_line='samples=/usr/libexec/softgpu/samples'
if [ -n "$samples" ]; then
  n=$(grep -cx "$samples_line" "$guide" || true)
  [ "$n" = 1 ] || { echo "run_guide.sh: the guide has $n lines '$samples_line', not 1" >&2; exit 1; }
fi

# The guide as one script: each block's output goes to a file, is shown,
# then checked against the text block that follows it.
awk -v install="$install" -v samples="$samples" -v samples_line="$samples_line" '
  function flush_expect() {
    if (expecting) print "EXPECTED_OUTPUT_END"
    expecting = 0
  }
  /^```sh( install)?$/ {
    flush_expect()
    skip = ($0 ~ / install$/) && !install
    block++
    in_sh = 1
    if (!skip) { print "echo \"--- guide block " block "\""; print "{" }
    next
  }
  /^```text$/ && last_ran {
    in_text = 1
    expecting = 1
    print "guide_expect " last_ran " <<'"'"'EXPECTED_OUTPUT_END'"'"'"
    next
  }
  /^```$/ && in_sh {
    in_sh = 0
    if (!skip) {
      print "} >guide_out." block " 2>&1 || { status=$?; cat guide_out." block "; echo \"guide block " block " failed with exit status $status\"; exit 1; }"
      print "cat guide_out." block
      last_ran = block
    } else {
      last_ran = 0
    }
    next
  }
  /^```$/ && in_text { in_text = 0; flush_expect(); next }
  in_sh && !skip {
    if (samples != "" && $0 == samples_line) print "samples=" samples
    else print
    next
  }
  in_text { print; next }
' "$guide" >guide_script.sh

cat >guide_prelude.sh <<'EOF'
set -e
# guide_expect BLOCK: each line on stdin ("..." = anything) is in the block's output.
guide_expect() {
  while IFS= read -r want; do
    [ -n "$want" ] || continue
    if ! awk -v want="$want" '
      BEGIN { n = split(want, part, /\.\.\./) }
      { s = $0; ok = 1
        for (i = 1; i <= n; i++) {
          if (part[i] == "") continue
          if (i == n && n > 1) { # the last part ends the line
            l = length(part[i])
            ok = length(s) >= l && substr(s, length(s) - l + 1) == part[i]
            s = ""; break }
          at = index(s, part[i]); if (!at) { ok = 0; break }
          if (i == 1 && at != 1) { ok = 0; break }
          s = substr(s, at + length(part[i])) }
        if (ok && (part[n] == "" || s == "")) { found = 1; exit } }
      END { exit !found }' "guide_out.$1"; then
      echo "guide block $1: no output line matches: $want"
      exit 1
    fi
  done
}
EOF
cat guide_prelude.sh guide_script.sh >guide_run.sh
sh guide_run.sh
echo "run_guide.sh: every block of $guide ran as shown"
