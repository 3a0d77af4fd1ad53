#!/bin/sh
# SPDX-License-Identifier: MIT
# Sets up and builds SoftGPU, then runs the whole test suite (ctest, in
# parallel on all cores). Tests reach SoftGPU through the real ICD loader.
# Then builds it again in build-sanitize with AddressSanitizer and
# UndefinedBehaviorSanitizer and runs the unit, api, kernels and samples
# suites there: any report fails its test (README "Sanitizers").
set -eu
cd "$(dirname "$0")/.."
sh tools/setup.sh
# Label chroot (the Debian package installed in a fresh Debian root: root,
# network, minutes) runs on request: ctest --test-dir build -L chroot.
ctest --test-dir build -j "$(nproc)" --output-on-failure --timeout 600 -LE chroot

# SG_FUZZ=OFF: the fuzz targets are built with ASan and UBSan in build already.
cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSOFTGPU_SANITIZE=address,undefined -DSG_FUZZ=OFF
cmake --build build-sanitize -j "$(nproc)"
ctest --test-dir build-sanitize -j "$(nproc)" -L 'unit|api|kernels|samples' \
  --output-on-failure --timeout 600
