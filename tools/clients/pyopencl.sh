#!/bin/sh
# SPDX-License-Identifier: MIT
# pyopencl's own test suite (Debian python3-pyopencl) on one platform.
# The tests live in pyopencl's repository: the tag matching the Debian
# package is fetched (docs/clients.md; needs GitHub or SG_CLIENTS_GIT_BASE).
# Usage: tools/clients/pyopencl.sh softgpu|pocl [pytest arguments...]
#        tools/clients/pyopencl.sh softgpu|pocl radixsort
#          (pyopencl.algorithm.RadixSort against numpy: pyopencl-radixsort.py)
set -eu
SG_USAGE="[pytest arguments...] | radixsort"
. "$(dirname "$0")/common.sh"
sg_client_platform "${1:-}"
shift

sg_client_install python3-pyopencl python3-pytest python3-mako python3-scipy git
if [ "${1:-}" = radixsort ]; then
  export XDG_CACHE_HOME="$SG_CLIENTS_WORK/pyopencl-cache-$SG_PLATFORM"
  rm -rf "$XDG_CACHE_HOME"
  sg_client_time /usr/bin/python3 "$SG_ROOT/tools/clients/pyopencl-radixsort.py"
  exit
fi
version=$(dpkg-query -W -f='${Version}' python3-pyopencl)
tag=v${version%%-*} # 2022.3.1-2.1 -> v2022.3.1
src=$(sg_client_fetch inducer/pyopencl "$tag")

# pyopencl caches program binaries keyed by the device's name and version
# strings, which do not change when SoftGPU is rebuilt: a fresh cache each
# run, or binaries of an older compiler come back.
export XDG_CACHE_HOME="$SG_CLIENTS_WORK/pyopencl-cache-$SG_PLATFORM"
rm -rf "$XDG_CACHE_HOME"

# Debian's python3, not one earlier on PATH: the module is installed for it.
# Run from the tests folder so the checkout's own pyopencl/ (unbuilt) is not
# imported instead of the installed one.
cd "$src/test"
sg_client_time /usr/bin/python3 -m pytest -q -rfEs -p no:cacheprovider "$@"
