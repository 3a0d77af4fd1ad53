#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the Khronos OpenCL-CTS against SoftGPU (or PoCL, for comparison, or
# both in turn) and prints a pass/fail/skip/not-run table per test binary
# (docs/conformance.md). Every sub-test runs in its own process, in wimpy
# mode, one at a time, under a per-sub-test and a per-binary time budget: a
# crash or a hang costs one sub-test, and a binary that outlives its budget
# reports the rest as not run. With several platforms each sub-test runs on
# each in turn, so that all see the same machine load.
set -eu

usage() {
  cat <<'EOF'
usage: tools/cts.sh [options] CTS_BUILD [NAME | NAME/SUBTEST ...]

CTS_BUILD is a build tree of the OpenCL-CTS (the folder holding
test_conformance/); docs/conformance.md names the commits it is tested at.
NAME is a binary as in test_conformance (basic, api, math_brute_force, ...);
"images" stands for every image binary. Without names the default list runs.

options:
  --platform softgpu|pocl|FILE.icd  the ICD to test (default softgpu: the
                                    build tree's build/vendors); a comma-
                                    separated list runs each sub-test on
                                    each in turn (softgpu,pocl), with a
                                    budget per platform, results under
                                    --out/LABEL and compare.tsv
  --softgpu-build DIR               SoftGPU build tree (default ./build)
  --binary-budget SECONDS           wall time per binary (default 120)
  --subtest-budget SECONDS          wall time per sub-test (default 30)
  --out DIR                         logs and results.tsv (default
                                    /tmp/softgpu-cts-PLATFORM[-PLATFORM...])
  --profile                         also say where each sub-test's time goes
                                    (program builds, waiting for the device,
                                    SoftGPU's simulation): profile.tsv, through
                                    bench/'s libsg_cl_time.so
  --user-caches                     keep the platforms' own program caches
                                    (default: each platform's cache starts
                                    empty under --out/cache, so that no
                                    platform's builds come from an earlier
                                    run and the others' do not)
EOF
  exit 2
}

IMAGES="cl_copy_images cl_fill_images cl_get_info cl_read_write_images
  kernel_image_methods image_streams samplerless_reads"
DEFAULT_LIST="basic api compiler computeinfo atomics buffers events
  math_brute_force conversions integer_ops relationals commonfns geometrics
  vectors printf profiling mem_host_flags multiples allocations $IMAGES
  non_uniform_work_group subgroups c11_atomics"

root=$(cd "$(dirname "$0")/.." && pwd)
platform=softgpu
sgbuild=$root/build
binary_budget=120
subtest_budget=30
out=""
profile=0
user_caches=0
while [ $# -gt 0 ]; do
  case $1 in
  --platform) platform=$2; shift 2 ;;
  --softgpu-build) sgbuild=$2; shift 2 ;;
  --binary-budget) binary_budget=$2; shift 2 ;;
  --subtest-budget) subtest_budget=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --profile) profile=1; shift ;;
  --user-caches) user_caches=1; shift ;;
  -h | --help) usage ;;
  -*) echo "cts.sh: unknown option $1" >&2; usage ;;
  *) break ;;
  esac
done
[ $# -ge 1 ] || usage
cts=$(cd "$1" && pwd)
shift
[ -d "$cts/test_conformance" ] || { echo "cts.sh: $cts has no test_conformance/" >&2; exit 2; }
names=${*:-$DEFAULT_LIST}

# The loader sees exactly one platform, so the CTS's platform and device 0
# are the one under test: each platform gets a vendors folder of its own.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
labels=""
for p in $(echo "$platform" | tr ',' ' '); do
  case $p in
  softgpu)
    v=$(cd "$sgbuild/vendors" && pwd)
    l=softgpu ;;
  pocl | *.icd)
    icd=$p
    [ "$p" = pocl ] && icd=/etc/OpenCL/vendors/pocl.icd
    [ -f "$icd" ] || { echo "cts.sh: no ICD file $icd" >&2; exit 2; }
    l=$(basename "$icd" .icd)
    v=$tmp/$l
    mkdir -p "$v"
    cp "$icd" "$v/" ;;
  *) echo "cts.sh: unknown platform $p" >&2; usage ;;
  esac
  case " $labels " in *" $l "*) echo "cts.sh: $l given twice" >&2; exit 2 ;; esac
  labels="$labels $l"
  eval "vendors_$l=\$v"
done
labels=${labels# }
out=${out:-/tmp/softgpu-cts-$(echo "$labels" | tr ' ' '-')}
# One platform: results.tsv and logs/ in --out; several: one folder each.
dir_of() { if [ "$labels" = "$1" ]; then echo "$out"; else echo "$out/$1"; fi; }
for l in $labels; do
  mkdir -p "$(dir_of "$l")/logs"
  : >"$(dir_of "$l")/results.tsv"
done
# A program cache warm from earlier runs makes a platform's builds look
# free (SoftGPU's cache dies with each rebuild of the library, PoCL's
# lives on): each starts empty and fills as its sub-tests build.
if [ $user_caches = 0 ]; then
  rm -rf "$out/cache"
  for l in $labels; do mkdir -p "$out/cache/$l"; done
fi
if [ $profile = 1 ]; then
  cl_time=$sgbuild/bench/libsg_cl_time.so
  [ -f "$cl_time" ] || { echo "cts.sh: --profile needs $cl_time (build SoftGPU)" >&2; exit 2; }
  for l in $labels; do
    printf 'binary\tsubtest\tstatus\tseconds\tbuild_s\tbuilds\twait_s\tlaunches\tsimulation_s\n' \
      >"$(dir_of "$l")/profile.tsv"
  done
fi

unset OCL_ICD_FILENAMES
export CL_WIMPY_MODE=1

now_ms() { date +%s%3N; }

# test_<name>, except where the CTS names the binary otherwise.
binary_of() {
  case $1 in
  math_brute_force) b=test_bruteforce ;;
  *) b=test_$1 ;;
  esac
  find "$cts/test_conformance" -name "$b" -type f -perm -u+x | head -n 1
}

# The status of one finished sub-test: the harness's JSON result if it wrote
# one, else what the exit says.
status_of() { # json name rc
  if [ "$3" -eq 124 ] || [ "$3" -eq 137 ]; then
    echo timeout
  elif [ "$3" -gt 128 ]; then
    echo "crash(signal $(($3 - 128)))"
  elif [ -s "$1" ] && s=$(sed -n "s/^[[:space:]]*\"$2\": \"\\([a-z]*\\)\".*/\\1/p" "$1") &&
    [ -n "$s" ]; then
    echo "$s"
  elif [ "$3" -eq 0 ]; then
    echo pass
  else
    echo fail
  fi
}

# One profile.tsv row: the cl_time totals (the last line the sub-test's
# process wrote) and the simulation time SOFTGPU_STATS recorded per launch.
profile_line() { # dir name subtest status ms
  d=$1
  shift
  tf=$d/logs/$1.$2.time
  sim=$(sed -n 's/.*"host_time_ns":\([0-9]*\).*/\1/p' "$d/logs/$1.$2.stats" 2>/dev/null |
    awk '{ s += $1 } END { printf "%.3f", s / 1e9 }')
  tail -n 1 "$tf" 2>/dev/null | awk -v b="$1" -v t="$2" -v s="$3" -v ms="$4" -v sim="$sim" '
    { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
    END { printf "%s\t%s\t%s\t%.3f\t%s\t%s\t%s\t%s\t%s\n", b, t, s, ms / 1000,
          v["build_s"] + 0, v["builds"] + 0, v["wait_s"] + 0, v["launches"] + 0, sim }' \
    >>"$d/profile.tsv"
}

# The conversions binary has one harness test and takes the conversions as
# arguments, named as its ParseArgs reads them (test_conversions.cpp:
# destination, _sat, rounding, _source; no _sat into a floating type).
conversion_names() {
  types="uchar char ushort short uint int half float double ulong long"
  for dst in $types; do
    for src in $types; do
      for sat in "" _sat; do
        case $dst$sat in half_sat | float_sat | double_sat) continue ;; esac
        for rnd in "" _rte _rtp _rtn _rtz; do
          echo "$dst$sat${rnd}_$src"
        done
      done
    done
  done
}

# Runs sub-test $t of binary $name on platform $l (its budget left: $2 ms)
# and records it; adds its time to used_$l.
run_one() { # label left_ms
  l=$1
  d=$(dir_of "$l")
  eval "v=\$vendors_$l"
  budget=$subtest_budget
  [ $(($2 / 1000)) -lt "$budget" ] && budget=$((($2 + 999) / 1000))
  json=$d/logs/$name.$t.json
  rm -f "$json" "$d/logs/$name.$t.time" "$d/logs/$name.$t.stats"
  t0=$(now_ms)
  rc=0
  (
    cd "$dir"
    export OCL_ICD_VENDORS="$v"
    if [ $user_caches = 0 ]; then
      export SOFTGPU_CACHE_DIR="$out/cache/$l" POCL_CACHE_DIR="$out/cache/$l"
    fi
    preload=""
    if [ $profile = 1 ]; then
      preload=LD_PRELOAD=$cl_time
      export SG_CL_TIME=$d/logs/$name.$t.time SOFTGPU_STATS=$d/logs/$name.$t.stats
    fi
    # env sets the preload for the test alone, not for timeout(1).
    CL_CONFORMANCE_RESULTS_FILENAME=$json exec timeout -k 10 "$budget" env $preload "$bin" "$t"
  ) >"$d/logs/$name.$t.log" 2>&1 || rc=$?
  ms=$(($(now_ms) - t0))
  eval "used_$l=\$((used_$l + ms))"
  s=$(status_of "$json" "${key_of_all:-$t}" $rc)
  # A conversion the device cannot run (half without cl_khr_fp16) passes
  # without testing anything: not supported.
  if [ "$name" = conversions ] && [ "$s" = pass ] &&
    ! grep -q '^Testing' "$d/logs/$name.$t.log"; then
    s=skip
  fi
  # Killed by the binary's budget rather than its own: not run.
  [ "$s" = timeout ] && [ "$budget" -lt "$subtest_budget" ] && s=notrun
  printf '%s\t%s\t%s\t%d.%03d\n' "$name" "$t" "$s" $((ms / 1000)) $((ms % 1000)) >>"$d/results.tsv"
  if [ $profile = 1 ]; then profile_line "$d" "$name" "$t" "$s" "$ms"; fi
  printf '  %-10s %-24s %-40s %-10s %d.%03d s\n' "$l" "$name" "$t" "$s" $((ms / 1000)) $((ms % 1000))
}

run_binary() { # name [subtest ...]
  name=$1
  shift
  bin=$(binary_of "$name")
  if [ -z "$bin" ]; then
    for l in $labels; do printf '%s\t-\tmissing\t0\n' "$name" >>"$(dir_of "$l")/results.tsv"; done
    echo "cts.sh: no binary for $name under $cts/test_conformance" >&2
    return
  fi
  dir=$(dirname "$bin")
  if [ $# -gt 0 ]; then
    subtests=$*
  elif [ "$name" = conversions ]; then
    subtests=$(conversion_names)
  else
    # --list needs no device: the harness lists before it looks for one.
    subtests=$(cd "$dir" && timeout 60 "$bin" --list 2>/dev/null | sed -n 's/^[[:space:]]\{1,\}\([A-Za-z0-9_]\{1,\}\)$/\1/p')
  fi
  # The harness names its one test after the binary where the sub-tests
  # are its arguments (conversions: one conversion per name).
  key_of_all=""
  [ "$name" = conversions ] && key_of_all=conversions
  # Each platform's budget counts the time of its own sub-tests.
  for l in $labels; do eval "used_$l=0"; done
  for t in $subtests; do
    for l in $labels; do
      eval "left=\$((binary_budget * 1000 - used_$l))"
      if [ "$left" -le 0 ]; then
        printf '%s\t%s\tnotrun\t0\n' "$name" "$t" >>"$(dir_of "$l")/results.tsv"
      else
        run_one "$l" "$left"
      fi
    done
  done
}

# Arguments: whole binaries, or binary/subtest (grouped per binary, in order).
expanded=""
done_bins=""
for n in $names; do
  if [ "$n" = images ]; then expanded="$expanded $IMAGES"; else expanded="$expanded $n"; fi
done
for n in $expanded; do
  case $n in
  */*) b=${n%%/*} ;;
  *) b=$n ;;
  esac
  case " $done_bins " in *" $b "*) continue ;; esac
  done_bins="$done_bins $b"
  subs=""
  for m in $expanded; do
    case $m in "$b"/*) subs="$subs ${m#*/}" ;; esac
  done
  echo "== $b ($labels)"
  # shellcheck disable=SC2086
  run_binary "$b" $subs
done

for l in $labels; do
  results=$(dir_of "$l")/results.tsv
  echo
  echo "OpenCL-CTS on $l: wimpy, ${binary_budget} s per binary, ${subtest_budget} s per sub-test"
  echo "(results: $results)"
  echo
  awk -F'\t' '
    function col(s) {
      if (s == "pass") return 1; if (s == "fail") return 2; if (s == "skip") return 3
      if (s == "timeout") return 4; if (s == "notrun") return 5; if (s ~ /^crash/) return 6
      return 7
    }
    !($1 in seen) { seen[$1] = 1; order[++n] = $1 }
    { c[$1, col($3)]++; tot[col($3)]++; sec[$1] += $4 }
    END {
      printf "| binary | passed | failed | not supported | timed out | not run | crashed | seconds |\n"
      printf "|---|---:|---:|---:|---:|---:|---:|---:|\n"
      for (i = 1; i <= n; i++) {
        b = order[i]
        printf "| %s | %d | %d | %d | %d | %d | %d | %.0f |\n", b, c[b,1], c[b,2] + c[b,7], c[b,3],
          c[b,4], c[b,5], c[b,6], sec[b]
        all += sec[b]
      }
      printf "| **total** | %d | %d | %d | %d | %d | %d | %.0f |\n", tot[1], tot[2] + tot[7], tot[3],
        tot[4], tot[5], tot[6], all
    }' "$results"
  echo
  failed=$(awk -F'\t' '$3 != "pass" && $3 != "skip" && $3 != "notrun" { print "  " $1 "/" $2 " (" $3 ")" }' "$results")
  if [ -n "$failed" ]; then
    echo "failed, timed out or crashed:"
    echo "$failed"
  fi
done

# Two platforms: every sub-test's time on each, and their ratio, side by
# side (compare.tsv; the ratio only where both passed).
set -- $labels
if [ $# -eq 2 ]; then
  awk -F'\t' -v a="$1" -v b="$2" '
    NR == FNR { s[$1 "/" $2] = $3; t[$1 "/" $2] = $4; next }
    { k = $1 "/" $2; r = ($3 == "pass" && s[k] == "pass" && $4 > 0) ? sprintf("%.2f", t[k] / $4) : "-"
      if (!hdr++) printf "subtest\t%s\t%s_s\t%s\t%s_s\t%s/%s\n", a, a, b, b, a, b
      printf "%s\t%s\t%s\t%s\t%s\t%s\n", k, s[k], t[k], $3, $4, r }' \
    "$(dir_of "$1")/results.tsv" "$(dir_of "$2")/results.tsv" >"$out/compare.tsv"
  echo
  echo "per sub-test, $1 vs $2: $out/compare.tsv"
fi
