#!/bin/sh
# SPDX-License-Identifier: MIT
# Sets up and builds SoftGPU, then runs the whole test suite (ctest, in
# parallel on all cores). Tests reach SoftGPU through the real ICD loader.
set -eu
cd "$(dirname "$0")/.."
sh tools/setup.sh
# Label chroot (the Debian package installed in a fresh Debian root: root,
# network, minutes) runs on request: ctest --test-dir build -L chroot.
ctest --test-dir build -j "$(nproc)" --output-on-failure --timeout 600 -LE chroot
