#!/bin/sh
# SPDX-License-Identifier: MIT
# The C++ bindings program (tests/clients/clhpp.cpp, built with SoftGPU as
# build/tests/clients/client_clhpp) on one platform.
# Usage: tools/clients/clhpp.sh softgpu|pocl
set -eu
. "$(dirname "$0")/common.sh"
sg_client_platform "${1:-}"

prog=$SG_BUILD/tests/clients/client_clhpp
[ -x "$prog" ] || sg_die "no $prog: build SoftGPU first (cmake --build build)"
sg_client_time "$prog"
