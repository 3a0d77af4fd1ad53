#!/bin/sh
# SPDX-License-Identifier: MIT
# The Debian package installed the way users install it: debootstrap makes
# a fresh Debian root (minbase, from deb.debian.org or SG_DEBIAN_MIRROR),
# the guide's own install step (apt-get install ./softgpu_*.deb) pulls in
# the dependencies from the archive, then clinfo and a sample run through
# the system's ICD loader and /etc/OpenCL/vendors, and the whole guide runs
# as written. Needs root, debootstrap and the network, and takes minutes
# (about 5 minutes here, half of it debootstrap): label chroot, not run
# by tools/run-tests.sh; `ctest -L chroot` runs it.
. "$(dirname "$0")/lib.sh"
: "${SG_VERSION:?}"
[ "$(id -u)" = 0 ] || { fail "needs root (debootstrap, chroot)"; finish; }
command -v debootstrap >/dev/null || { fail "needs debootstrap (apt-get install debootstrap)"; finish; }
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
mirror=${SG_DEBIAN_MIRROR:-http://deb.debian.org/debian}

expect 0 cpack --config "$SG_BUILD_DIR/CPackConfig.cmake" -G DEB -B "$WORK/pkg"
expect 0 debootstrap --variant=minbase "$suite" "$WORK/root" "$mirror"
[ "$rc" = 0 ] || finish
mkdir -p root/guide
cp pkg/softgpu_*.deb root/guide/
cp "$SG_SOURCE_DIR/docs/guide.md" "$SG_SOURCE_DIR/tests/cli/run_guide.sh" root/guide/
# In the root: its own /proc (a private mount namespace, gone with it).
in_root() { unshare --mount --fork --pid --mount-proc="$WORK/root/proc" chroot "$WORK/root" "$@"; }
expect 0 in_root sh -c 'apt-get update -qq'
# The guide's install step, then the whole guide as written.
expect 0 in_root sh -c 'cd /guide && DEBIAN_FRONTEND=noninteractive sh run_guide.sh guide.md --install'
has out "^run_guide.sh: every block of guide.md ran as shown$"
expect 0 in_root dpkg-query -W -f='${Status} ${Version}\n' softgpu
same "$(cat out)" "install ok installed $SG_VERSION" "the package's state"
# Through the system's loader and vendor folder, no softgpu run.
expect 0 in_root sh -c 'apt-get install -y -qq clinfo >/dev/null && clinfo -l'
has out "^Platform #0: SoftGPU$"
expect 0 in_root /usr/libexec/softgpu/samples/vector_add 1000
has out '^vector_add: platform "SoftGPU", size 1000: ok'
# Removal leaves no ICD file behind (purge: it is a conffile).
expect 0 in_root sh -c 'apt-get purge -y -qq softgpu >/dev/null && test ! -e /etc/OpenCL/vendors/softgpu.icd'
finish
