#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what building and testing SoftGPU needs (Debian 12, as root), then
# configures and builds it in ./build. Idempotent: installs only what is missing.
# dpkg-dev and file: cpack's Debian package (dpkg-shlibdeps); debootstrap: the
# package test in a fresh Debian (ctest -L chroot); chromium: the report test
# in a headless browser (about 35 s and 300 MB).
set -eu
cd "$(dirname "$0")/.."

PACKAGES="build-essential cmake ninja-build pkg-config
  clang-19 llvm-19-dev libclang-19-dev lld-19 libclang-rt-19-dev
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers opencl-clhpp-headers clinfo
  libcmocka-dev libelf-dev libdw-dev zlib1g-dev libzstd-dev
  pocl-opencl-icd oclgrind valgrind python3
  dpkg-dev file debootstrap
  chromium
  hashcat clblast-tests"

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$(nproc)"
