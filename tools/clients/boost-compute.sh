#!/bin/sh
# SPDX-License-Identifier: MIT
# Boost.Compute's tests on one platform. The headers are Debian's
# (libboost-dev); the tests live in boostorg/compute, fetched at the tag of
# the Debian Boost version (docs/clients.md; needs GitHub or
# SG_CLIENTS_GIT_BASE). Builds the tests once (-O1, no debug info: most
# of the time is the C++ compiler), then runs them with ctest.
# Usage: tools/clients/boost-compute.sh softgpu|pocl [ctest arguments...]
set -eu
SG_USAGE="[ctest arguments...]"
. "$(dirname "$0")/common.sh"
sg_client_platform "${1:-}"
shift

sg_client_install libboost-dev libboost-test-dev g++ cmake ninja-build git ocl-icd-opencl-dev opencl-headers
version=$(dpkg-query -W -f='${Version}' libboost-dev) # 1.74.0.3
v=$(echo "$version" | cut -d. -f1-3)
src=$(sg_client_fetch boostorg/compute "boost-$v")
# The tests include the checkout's include/, identical at this tag to
# Debian's /usr/include/boost/compute (checked: diff -r).
bld=$SG_CLIENTS_WORK/boost-compute-build
if [ ! -f "$bld/build.ninja" ]; then
  cmake -S "$src" -B "$bld" -G Ninja -DBOOST_COMPUTE_BUILD_TESTS=ON \
    -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -w" >/dev/null
fi
cmake --build "$bld" -j "${SG_CLIENTS_JOBS:-2}"

# One test at a time: each already uses every host thread on SoftGPU.
cd "$bld"
sg_client_time ctest --timeout 900 --output-on-failure "$@"
