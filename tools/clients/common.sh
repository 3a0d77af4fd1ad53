# SPDX-License-Identifier: MIT
# Shared by the client scripts (docs/clients.md); sourced, not run.
# Usage in a script: . "$(dirname "$0")/common.sh"; sg_client_platform "$1"
#
# The platform argument picks which ICD the loader sees, and only that one:
#   softgpu   the build tree's softgpu.icd (build it first: tools/setup.sh)
#   pocl      Debian's pocl-opencl-icd
# Upstream test sources go to $SG_CLIENTS_SRC (default build/clients/src);
# $SG_CLIENTS_GIT_BASE replaces https://github.com for a local mirror.

SG_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SG_BUILD=${SG_BUILD:-$SG_ROOT/build}
SG_CLIENTS_WORK=${SG_CLIENTS_WORK:-$SG_BUILD/clients}
SG_CLIENTS_SRC=${SG_CLIENTS_SRC:-$SG_CLIENTS_WORK/src}
SG_CLIENTS_GIT_BASE=${SG_CLIENTS_GIT_BASE:-https://github.com}

sg_die() {
  echo "$(basename "$0"): $*" >&2
  exit 2
}

# sg_client_platform NAME: exports OCL_ICD_VENDORS for NAME, sets SG_PLATFORM.
sg_client_platform() {
  SG_PLATFORM=${1:-}
  case "$SG_PLATFORM" in
  softgpu)
    [ -f "$SG_BUILD/vendors/softgpu.icd" ] || sg_die "no $SG_BUILD/vendors/softgpu.icd: build SoftGPU first"
    OCL_ICD_VENDORS=$SG_BUILD/vendors
    ;;
  pocl)
    icd=/etc/OpenCL/vendors/pocl.icd
    [ -f "$icd" ] || sg_die "no $icd: apt-get install pocl-opencl-icd"
    OCL_ICD_VENDORS=$SG_CLIENTS_WORK/vendors-pocl
    mkdir -p "$OCL_ICD_VENDORS"
    cp "$icd" "$OCL_ICD_VENDORS/"
    ;;
  *) sg_die "usage: $(basename "$0") softgpu|pocl ${SG_USAGE:-}" ;;
  esac
  export OCL_ICD_VENDORS
  unset OCL_ICD_FILENAMES
  mkdir -p "$SG_CLIENTS_WORK"
}

# sg_client_install PACKAGE...: installs the Debian packages that are missing.
sg_client_install() {
  missing=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  echo "$(basename "$0"): installing$missing"
  [ "$(id -u)" = 0 ] || sg_die "need root to install$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing
}

# sg_client_fetch OWNER/NAME TAG: a checkout of TAG in $SG_CLIENTS_SRC/NAME-TAG;
# prints its path. Cloned once; never part of SoftGPU's tree.
sg_client_fetch() {
  dir=$SG_CLIENTS_SRC/$(basename "$1")-$2
  if [ ! -d "$dir/.git" ]; then
    mkdir -p "$SG_CLIENTS_SRC"
    git clone -q "$SG_CLIENTS_GIT_BASE/$1" "$dir" >&2 || sg_die "cannot clone $1 (set SG_CLIENTS_GIT_BASE to a mirror)"
  fi
  git -C "$dir" -c advice.detachedHead=false checkout -q "$2" >&2 || sg_die "$1 has no tag $2"
  echo "$dir"
}

# sg_client_time CMD...: runs CMD, then prints its wall time in seconds.
sg_client_time() {
  t0=$(date +%s)
  set +e
  "$@"
  rc=$?
  set -e
  echo "wall time: $(($(date +%s) - t0)) s"
  return $rc
}
