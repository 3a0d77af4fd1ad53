#!/bin/sh
# SPDX-License-Identifier: MIT
# Timing mode's simulation speed (docs/timing.md "Speed"): each sample in
# timing mode on a preset (default v100), one and two host threads, REPS
# runs each after a warm-up run; prints per sample the thread instructions
# simulated, the median thread instructions per second of host CPU time
# (one thread: what one host core does) and of wall time, and the wall-time
# speed-up from one host thread to two. Figures come from the statistics
# (thread_insns, host_cpu_ns, host_time_ns): build and transfers are
# left out. Not a test: nothing is asserted. The sizes give launches of
# half a second or more: a tenth of a second measures the first launch's
# setup (creating every core) and the host's noise more than the
# simulation (docs/timing.md "Speed").
#   bench/timing_speed.sh [BUILD_DIR]
# Environment: SPEED_PRESET (v100), SPEED_REPS (3), SPEED_SAMPLES
# ("name:size ..."), SPEED_THREADS ("1 2").
set -eu
build=${1:-build}
preset=${SPEED_PRESET:-v100}
reps=${SPEED_REPS:-3}
threads=${SPEED_THREADS:-"1 2"}
samples=${SPEED_SAMPLES:-"vector_add:1000003 matmul:256 reduction:8000000 histogram:8000000 mandelbrot:256 divergence:65536 microbench:stream,256"}
[ -x "$build/samples/vector_add" ] || { echo "timing_speed: no samples in $build/samples" >&2; exit 2; }
build=$(cd "$build" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/sg-speed.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# One run: "thread_insns cpu_ns wall_ns" summed over its launches.
run() { # sample args threads
  rm -f "$work/s.json"
  (cd "$work" && OCL_ICD_VENDORS="$build/vendors" SOFTGPU_CONFIG="$preset" SOFTGPU_MODE=timing \
    SOFTGPU_THREADS="$3" SOFTGPU_STATS="$work/s.json" "$build/samples/$1" $2 >/dev/null 2>&1) ||
    { echo "timing_speed: $1 $2 failed" >&2; exit 1; }
  python3 - "$work/s.json" <<'EOF'
import json, sys
t = c = w = 0
for line in open(sys.argv[1]):
    d = json.loads(line)
    if "timing" in d:
        t += d["thread_insns"]; c += d["host_cpu_ns"]; w += d["host_time_ns"]
print(t, c, w)
EOF
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

printf '%-22s %14s' "sample ($preset)" "thread insns"
for th in $threads; do printf ' %9s %9s' "${th}t CPU" "${th}t wall"; done
printf ' %8s\n' "speed-up"
printf '%-22s %14s' "" ""
for th in $threads; do printf ' %9s %9s' "M/s" "M/s"; done
printf ' %8s\n' "(wall)"
for s in $samples; do
  name=${s%%:*}
  args=$(echo "${s#*:}" | tr ',' ' ')
  printf '%-22s' "$name $args"
  run "$name" "$args" 1 >/dev/null # warm-up
  first=""
  for th in $threads; do
    : >"$work/cpu"
    : >"$work/wall"
    for r in $(seq "$reps"); do
      set -- $(run "$name" "$args" "$th")
      insns=$1
      echo "$1 $2" | awk '{printf "%.3f\n", $1 / $2 * 1e3}' >>"$work/cpu"
      echo "$1 $3" | awk '{printf "%.3f\n", $1 / $2 * 1e3}' >>"$work/wall"
    done
    [ -n "$first" ] || printf ' %14s' "$insns"
    cpu=$(median <"$work/cpu")
    wall=$(median <"$work/wall")
    printf ' %9.1f %9.1f' "$cpu" "$wall"
    [ -n "$first" ] || first=$wall
    last=$wall
  done
  echo "$last $first" | awk '{printf " %7.2fx\n", $1 / $2}'
done
