#!/bin/sh
# SPDX-License-Identifier: MIT
# hashcat (Debian hashcat) on one platform: a mask attack that must recover
# a known password, then the benchmark of a few hash modes. Its kernels are
# built on every run (hashcat's kernel cache goes to a fresh folder) and
# the self-test stays on.
# Usage: tools/clients/hashcat.sh softgpu|pocl [crack] [bench MODE...]
#   (default: crack, then bench 0 100 1400)
set -eu
SG_USAGE="[crack] [bench MODE...]"
. "$(dirname "$0")/common.sh"
sg_client_platform "${1:-}"
shift
[ $# -gt 0 ] || set -- crack bench 0 100 1400

sg_client_install hashcat
work=$SG_CLIENTS_WORK/hashcat-$SG_PLATFORM
rm -rf "$work"
mkdir -p "$work"
cd "$work"
# hashcat keeps its kernel cache, potfile and sessions under $HOME.
export HOME="$work" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config"
# --force: hashcat refuses unknown OpenCL runtimes otherwise. -D 1,2: CPU
# devices too (PoCL's device is a CPU); -d 1: the one platform shown.
hc="hashcat --force -D 1,2 -d 1 --quiet --potfile-disable"

failed=0
crack() {
  password=abc12 # found by ?l?l?l?d?d after 40960 of 1757600 candidates
  printf %s "$password" | md5sum | cut -d' ' -f1 >md5.hash
  t0=$(date +%s)
  set +e
  $hc -m 0 -a 3 -o cracked.txt --outfile-format 2 md5.hash '?l?l?l?d?d' >crack.log 2>&1
  rc=$?
  set -e
  got=$(cat cracked.txt 2>/dev/null || true)
  # Exit status 0 is "cracked" (1 would be "exhausted").
  if [ $rc -eq 0 ] && [ "$got" = "$password" ]; then
    echo "crack md5 ?l?l?l?d?d: ok ($(($(date +%s) - t0)) s)"
  else
    echo "crack md5 ?l?l?l?d?d: FAILED (exit $rc, recovered '$got', log $work/crack.log)"
    failed=$((failed + 1))
  fi
}

bench() {
  t0=$(date +%s)
  set +e
  $hc -b -m "$1" >"bench-$1.log" 2>&1
  rc=$?
  set -e
  speed=$(sed -n 's/^Speed\.#1\.*: *\(.*\) @.*/\1/p' "bench-$1.log" | head -1)
  if [ $rc -eq 0 ] && [ -n "$speed" ]; then
    echo "bench -m $1: $speed ($(($(date +%s) - t0)) s)"
  else
    echo "bench -m $1: FAILED (exit $rc, log $work/bench-$1.log)"
    failed=$((failed + 1))
  fi
}

ran=0
while [ $# -gt 0 ]; do
  case "$1" in
  crack) crack ;;
  bench)
    shift
    while [ $# -gt 0 ] && [ "$1" != crack ]; do
      bench "$1"
      ran=$((ran + 1))
      shift
    done
    continue
    ;;
  *) sg_die "unknown step $1" ;;
  esac
  ran=$((ran + 1))
  shift
done
echo "hashcat: $((ran - failed)) passed, $failed failed"
[ $failed -eq 0 ]
