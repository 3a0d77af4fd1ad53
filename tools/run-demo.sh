#!/bin/sh
# SPDX-License-Identifier: MIT
# Sets up, builds and installs SoftGPU, then shows it working through the
# system's ICD loader: clinfo lists it and a sample host program runs on it.
set -eu
cd "$(dirname "$0")/.."
sh tools/setup.sh
cmake --install build
clinfo -l
SOFTGPU_SAMPLE_PLATFORM=SoftGPU ./build/samples/vector_add
