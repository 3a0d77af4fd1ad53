#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the Khronos OpenCL-CTS from a checkout of its public repository, at
# the commits docs/conformance.md names, into a build tree that tools/cts.sh
# runs. The CTS needs the unified OpenCL-Headers (Debian 12's are too old)
# and SPIRV-Headers: given as checkouts, or cloned at their pinned commits.
set -eu

# The commits the results in docs/conformance.md come from.
CTS_COMMIT=b8f8906c251926b1b3679323bfbf3df730b40fb8
CL_HEADERS_COMMIT=15b536b7fbe1098cea462a27db496b287ac89b63
SPIRV_HEADERS_COMMIT=0d25db97cb9b8f725e4c95e4553001710e7fc39d

usage() {
  cat <<'EOF'
usage: tools/cts-build.sh [options] CTS_SRC [BUILD_DIR]

CTS_SRC is a checkout of https://github.com/KhronosGroup/OpenCL-CTS;
BUILD_DIR (default CTS_SRC/build) receives the build tree to give
tools/cts.sh. A checkout at another commit than the pinned one builds too,
with a warning.

options:
  --cl-headers DIR     a checkout of KhronosGroup/OpenCL-Headers (default:
                       cloned into BUILD_DIR/deps at the pinned commit)
  --spirv-headers DIR  a checkout of KhronosGroup/SPIRV-Headers (likewise)
  --configure-only     configure, do not build
  -j N                 parallel build jobs (default: the number of CPUs)
EOF
  exit 2
}

cl_headers=""
spirv_headers=""
configure_only=0
jobs=$(nproc)
while [ $# -gt 0 ]; do
  case $1 in
  --cl-headers) cl_headers=$2; shift 2 ;;
  --spirv-headers) spirv_headers=$2; shift 2 ;;
  --configure-only) configure_only=1; shift ;;
  -j) jobs=$2; shift 2 ;;
  -h | --help) usage ;;
  -*) echo "cts-build.sh: unknown option $1" >&2; usage ;;
  *) break ;;
  esac
done
case $# in 1 | 2) ;; *) usage ;; esac
src=$(cd "$1" && pwd)
[ -f "$src/test_conformance/CMakeLists.txt" ] || { echo "cts-build.sh: $src is no OpenCL-CTS checkout" >&2; exit 2; }
build=${2:-$src/build}
mkdir -p "$build"
build=$(cd "$build" && pwd)

# Says when a checkout is not at the commit the results come from.
check_commit() { # dir commit name
  head=$(git -C "$1" rev-parse HEAD 2>/dev/null) || head=unknown
  [ "$head" = "$2" ] ||
    echo "cts-build.sh: warning: $3 is at $head, docs/conformance.md's results come from $2" >&2
}

# A checkout given, or a clone at the pinned commit in BUILD_DIR/deps.
headers() { # given-dir name commit
  if [ -n "$1" ]; then
    d=$(cd "$1" && pwd)
    check_commit "$d" "$3" "$2"
  else
    d=$build/deps/$2
    if [ ! -d "$d/.git" ]; then
      git clone --quiet "https://github.com/KhronosGroup/$2.git" "$d"
    fi
    git -C "$d" checkout --quiet "$3"
  fi
  echo "$d"
}

check_commit "$src" $CTS_COMMIT OpenCL-CTS
cl_headers=$(headers "$cl_headers" OpenCL-Headers $CL_HEADERS_COMMIT)
spirv_headers=$(headers "$spirv_headers" SPIRV-Headers $SPIRV_HEADERS_COMMIT)

# The CTS links the ICD loader (libOpenCL.so: Debian's ocl-icd-opencl-dev)
# and assembles test_compiler's SPIR-V with spirv-as and spirv-val
# (Debian's spirv-tools).
loader=$(ldconfig -p | sed -n 's/^[[:space:]]*libOpenCL\.so (.*=> \(.*\)$/\1/p' | head -n 1)
[ -n "$loader" ] || { echo "cts-build.sh: no libOpenCL.so (install ocl-icd-opencl-dev)" >&2; exit 2; }
spirv_as=$(command -v spirv-as) || { echo "cts-build.sh: no spirv-as (install spirv-tools)" >&2; exit 2; }

generator=""
command -v ninja >/dev/null && generator="-G Ninja"
# shellcheck disable=SC2086
cmake -S "$src" -B "$build" $generator \
  -DCMAKE_BUILD_TYPE=Release \
  -DCL_INCLUDE_DIR="$cl_headers" \
  -DSPIRV_INCLUDE_DIR="$spirv_headers" \
  -DCL_LIB_DIR="$(dirname "$loader")" \
  -DOPENCL_LIBRARIES=OpenCL \
  -DSPIRV_TOOLS_DIR="$(dirname "$spirv_as")"
[ $configure_only = 1 ] && exit 0
cmake --build "$build" -j "$jobs"
echo "cts-build.sh: built; run it with tools/cts.sh $build"
