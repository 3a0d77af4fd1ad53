#!/bin/sh
# SPDX-License-Identifier: MIT
# softgpu run: a host program sees SoftGPU alone whatever the loader would
# otherwise find, the options become SOFTGPU_* variables, and the exit
# status is the program's own or 125/126/127.
. "$(dirname "$0")/lib.sh"

# The reference: with PoCL's vendor folder plus the build tree's .icd file,
# the loader lists both platforms (pocl-opencl-icd comes with tools/setup.sh).
mkdir vendors
cp /etc/OpenCL/vendors/*.icd "$SG_BUILD_DIR/vendors/softgpu.icd" vendors/
export OCL_ICD_VENDORS="$WORK/vendors"
expect 0 clinfo -l
has out "^Platform #[0-9]+: SoftGPU"
has out "^Platform #[0-9]+: Portable Computing Language"

expect 0 "$SOFTGPU" run -- clinfo -l
same "$(count out '^Platform #')" 1 "platforms under softgpu run"
has out "^Platform #0: SoftGPU$"
has out "^ \`-- Device #0: SoftGPU SIMT \(8 cores x 32 warps x 32 lanes\)"

# The program sees the settings as SOFTGPU_* variables and the library
# built beside the command; variables of the caller stay unless overridden.
export SOFTGPU_CHECK=strict SOFTGPU_THREADS=3
expect 0 "$SOFTGPU" run --debug --threads=2 --stats s.json -- sh -c \
  'echo "$SOFTGPU_DEBUG|$SOFTGPU_THREADS|$SOFTGPU_STATS|$SOFTGPU_CHECK|$OCL_ICD_VENDORS|$OCL_ICD_FILENAMES"'
lib=$(cd "$SG_BUILD_DIR/runtime" && pwd -P)/libsoftgpu.so
same "$(cat out)" "1|2|s.json|strict|$lib|$lib" "variables seen by the program"
unset SOFTGPU_CHECK SOFTGPU_THREADS

# A preset reaches the device.
expect 0 "$SOFTGPU" run --config vortex -- clinfo
has out "Device Name +SoftGPU SIMT \(4 cores x 4 warps x 4 lanes\)"
has out "Max work group size +16$"
cat >narrow.cfg <<'CFG'
warp_size=8
CFG
expect 0 "$SOFTGPU" run --config=narrow.cfg -- clinfo -l
has out "Device #0: SoftGPU SIMT \(8 cores x 32 warps x 8 lanes\)"

# Statistics: the divergence sample launches two kernels, one line each.
expect 0 "$SOFTGPU" run --stats stats.json -- "$SG_BUILD_DIR/samples/divergence" 1024
has out "^divergence: platform \"SoftGPU\", size 1024: ok"
same "$(count stats.json '^\{"kernel":"(uniform|divergent)_work","status":"ok",')" 2 "launch lines"

# Exit statuses: the program's, a signal's as the shell sees it, 127, 126.
expect 7 "$SOFTGPU" run -- sh -c 'exit 7'
expect 0 sh -c "\"$SOFTGPU\" run -- sh -c 'kill -TERM \$\$'; echo \$? >status"
same "$(cat status)" 143 "status of a program killed by SIGTERM"
expect 127 "$SOFTGPU" run -- ./no-such-program
one_error "^softgpu run: cannot run './no-such-program': No such file or directory$"
printf 'not a program\n' >notexec
expect 126 "$SOFTGPU" run -- ./notexec
one_error "^softgpu run: cannot run './notexec': Permission denied$"
# Options end at the first operand: the program's own options are its own.
expect 0 "$SOFTGPU" run sh -c 'echo "$0 $1"' --config x
same "$(cat out)" "--config x" "arguments after the program"

# softgpu's own failures: 125 and one line, the program never starts.
expect 125 "$SOFTGPU" run
one_error "^softgpu run: no program given"
expect 125 "$SOFTGPU" run --config no-such-preset -- touch started
one_error "^softgpu run: --config: no preset or file named 'no-such-preset' \(presets: default, "
printf 'warp_size=0\n' >bad.cfg
expect 125 "$SOFTGPU" run --config bad.cfg -- touch started
one_error "^softgpu run: --config: bad.cfg:1: warp_size=0: must be 1\.\.64$"
expect 125 "$SOFTGPU" run --threads 0 -- touch started
one_error "^softgpu run: --threads: '0' is not a number from 1 to 1024$"
expect 125 "$SOFTGPU" run --threads two -- touch started
expect 125 "$SOFTGPU" run --stats= -- touch started
one_error "^softgpu run: --stats: empty value$"
expect 125 "$SOFTGPU" run --stats
one_error "^softgpu run: option '--stats' needs a value"
[ ! -e started ] || fail "the program ran although softgpu run failed"

# A command moved away from its library says where it looked.
mkdir -p moved/bin
cp "$SOFTGPU" moved/bin/softgpu
expect 125 moved/bin/softgpu run -- true
one_error "^softgpu run: the SoftGPU library is neither at .*moved/bin/\.\./.*libsoftgpu\.so nor at"
finish
