#!/bin/sh
# SPDX-License-Identifier: MIT
# softgpu config and softgpu presets: every key with its value and origin
# (default, preset, FILE:LINE, from SOFTGPU_CONFIG), output that loads back
# to the same machine, errors naming FILE:LINE and the key (exit 3); the
# key list checked against device/sg_config.def itself.
. "$(dirname "$0")/lib.sh"
def="$SG_SOURCE_DIR/device/sg_config.def"

# The keys, types and defaults as sg_config.def writes them (with the timing
# model's, which it includes from sim/sg_timing_config.def).
sed -n 's/^SG_T*CFG(\([a-z_0-9]*\), *\([a-z_0-9]*\), *\([0-9]*\)u*l*l*,.*/\1 \2 \3/p' \
  "$def" "$SG_SOURCE_DIR/sim/sg_timing_config.def" >keys
nkeys=$(wc -l <keys)
sed -n 's/^SG_CFG_CHOICE(\([a-z_0-9]*\),.*/\1/p' "$def" >choices
[ "$nkeys" -ge 10 ] || fail "read only $nkeys keys from sg_config.def"

expect 0 "$SOFTGPU" config
has out "^# the default machine \(no SOFTGPU_CONFIG\)$"
while read -r key; do
  has out "^$key=[a-z0-9_]+ +# default$"
done <choices
same "$(count out '^[a-z_0-9]+=[0-9]+ +# default$')" "$nkeys" "keys at their default"
while read -r key type value; do
  has out "^$key=$value +# default$"
done <keys

expect 0 "$SOFTGPU" config --help
while read -r key type value; do
  has out "^  $key \($type, default $value\)$"
done <keys
# Choice keys (SG_CFG_CHOICE): their names as the type; the value is a name.
while read -r key; do
  has out "^  $key \(one of [a-z0-9_]+(, [a-z0-9_]+)+, default [a-z0-9_]+\)$"
done <choices
has out "^presets:$"

expect 0 "$SOFTGPU" presets
for p in default mvpgpu vortex wide; do
  has out "^  $p +[A-Za-z0-9]"
done
# Every preset listed loads; the list is the one the library names when a
# preset is unknown.
names=$(awk '{print $1}' out | tr '\n' ' ')
for p in $names; do
  expect 0 "$SOFTGPU" config "$p"
  has out "^# preset $p$"
done
expect 3 "$SOFTGPU" config no-such-preset
one_error "^softgpu config: no preset or file named 'no-such-preset' \(presets: $(echo $names | sed 's/ /, /g')\)$"

expect 0 "$SOFTGPU" config vortex
has out "^cores=4 +# preset vortex$"
has out "^warp_size=4 +# preset vortex$"
has out "^clock_mhz=1000 +# default$"

# A file over a preset: FILE:LINE for its keys, the preset's for others.
cat >my.cfg <<'CFG'
# over Vortex
preset=vortex

warp_size=8   # wider warps
local_mem_per_core=32k
CFG
expect 0 "$SOFTGPU" config my.cfg
has out "^# file my.cfg$"
has out "^cores=4 +# preset vortex$"
has out "^warp_size=8 +# my.cfg:4$"
has out "^local_mem_per_core=32768 +# my.cfg:5$"
has out "^clock_mhz=1000 +# default$"
# The output is a configuration file of the same machine.
cp out again.cfg
expect 0 "$SOFTGPU" config again.cfg
sed 's/ *#.*//' again.cfg | grep . >a
sed 's/ *#.*//' out | grep . >b
cmp -s a b || fail "the printed configuration does not load back to the same values"

# From the environment.
SOFTGPU_CONFIG=my.cfg "$SOFTGPU" config >out 2>err
has out "^# file my.cfg, from the environment \(SOFTGPU_CONFIG\)$"
has out "^warp_size=8 +# my.cfg:4 \(SOFTGPU_CONFIG\)$"
has out "^clock_mhz=1000 +# default$"
SOFTGPU_CONFIG=wide "$SOFTGPU" config >out 2>err
has out "^warp_size=64 +# preset wide \(SOFTGPU_CONFIG\)$"
SOFTGPU_CONFIG=bad.cfg "$SOFTGPU" config >out 2>err
[ $? = 3 ] || fail "a bad SOFTGPU_CONFIG is not exit 3"
one_error "^softgpu config: SOFTGPU_CONFIG: no preset or file named 'bad.cfg'"

# Errors: FILE:LINE: key, exit 3, one line.
check_error() { # check_error TEXT ERE
  printf "$1" >bad.cfg # the text has no %
  expect 3 "$SOFTGPU" config bad.cfg
  one_error "^softgpu config: $2"
}
check_error 'cores=4\nwarps=2\n' "bad.cfg:2: unknown key 'warps' \(keys: cores, "
check_error '\n\nwarp_size=lots\n' "bad.cfg:3: warp_size: bad value 'lots'"
check_error 'warp_size=65\n' "bad.cfg:1: warp_size=65: must be 1\.\.64$"
check_error 'cores=2\npreset=vortex\n' "bad.cfg:2: preset: must come before any other key$"
check_error 'preset=nope\n' "bad.cfg:1: preset: no preset named 'nope'$"
check_error 'cores\n' "bad.cfg:1: expected key=value, got 'cores'$"
check_error 'stack_per_lane=100\n' "bad.cfg:1: stack_per_lane=100: must be a multiple of 16"
printf 'a\000b' >nul.cfg
expect 3 "$SOFTGPU" config nul.cfg
one_error "^softgpu config: configuration file 'nul.cfg' is not text$"
expect 2 "$SOFTGPU" config a b
one_error "^softgpu config: unexpected argument 'b' \(usage: softgpu config \[PRESET\|FILE\]\)$"
expect 2 "$SOFTGPU" presets extra
one_error "^softgpu presets: unexpected argument 'extra' \(usage: softgpu presets\)$"
finish
