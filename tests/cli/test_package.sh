#!/bin/sh
# SPDX-License-Identifier: MIT
# The Debian package, in bounds for CI: cpack builds it from this build
# tree; its control fields, files and conffiles are checked, its Depends
# against the packages that really own the libraries its programs load
# (read with readelf and dpkg, independently of dpkg-shlibdeps) and the
# clang the library spawns; then, unpacked into a folder (nothing is
# installed on this machine), its own command, library, samples and ICD
# file run clinfo, a sample and a kernel. The full install in a fresh
# Debian root is test_package_chroot.sh (label chroot).
. "$(dirname "$0")/lib.sh"
: "${SG_VERSION:?}"

expect 0 cpack --config "$SG_BUILD_DIR/CPackConfig.cmake" -G DEB -B "$WORK/pkg"
arch=$(dpkg --print-architecture)
deb="$WORK/pkg/softgpu_${SG_VERSION}_$arch.deb"
[ -f "$deb" ] || { fail "no $deb"; finish; }

field() { dpkg-deb -f "$deb" "$1"; }
same "$(field Package)" softgpu "Package"
same "$(field Version)" "$SG_VERSION" "Version"
same "$(field Architecture)" "$arch" "Architecture"
same "$(field Provides)" opencl-icd "Provides"
depends=$(field Depends)

dpkg-deb -x "$deb" root
dpkg-deb -e "$deb" control
for f in etc/OpenCL/vendors/softgpu.icd usr/bin/softgpu usr/share/man/man1/softgpu.1.gz \
  usr/share/doc/softgpu/copyright usr/share/doc/softgpu/README.md \
  usr/share/doc/softgpu/guide.md usr/share/doc/softgpu/settings.md \
  usr/share/softgpu/presets/vortex.cfg usr/libexec/softgpu/samples/vector_add \
  usr/share/doc/softgpu/examples/vector_add.c; do
  [ -f "root/$f" ] || fail "the package lacks /$f"
done
same "$(cat control/conffiles)" /etc/OpenCL/vendors/softgpu.icd "conffiles"
# The ICD file names the packaged library by its installed path.
lib=$(cat root/etc/OpenCL/vendors/softgpu.icd)
case $lib in /usr/lib*/libsoftgpu.so) ;; *) fail "softgpu.icd names '$lib'" ;; esac
[ -f "root$lib" ] || fail "softgpu.icd names $lib, which the package does not hold"
# Presets as files are complete configurations the command loads.
expect 0 "$SOFTGPU" config root/usr/share/softgpu/presets/vortex.cfg
has out "^cores=4 "
zcat root/usr/share/man/man1/softgpu.1.gz >man.1
has man.1 '^\.TH SOFTGPU 1 '
has man.1 '^\.SS "softgpu kernel"$'
has man.1 '^\.B SOFTGPU_CONFIG$'

# Depends: the owner of every shared library the packaged programs load
# directly (their NEEDED entries, as the dynamic linker resolves them
# here), and of the clang the compiler spawns.
for elf in root/usr/bin/softgpu "root$lib" root/usr/libexec/softgpu/samples/*; do
  readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
done | sort -u >needed
[ "$(wc -l <needed)" -ge 4 ] || fail "too few NEEDED libraries: $(cat needed)"
while read -r soname; do
  path=$(ldconfig -p | awk -v s="$soname" '$1 == s && / => / { print $NF; exit }')
  [ -n "$path" ] || { fail "$soname is not known to ldconfig"; continue; }
  owner=$(dpkg-query -S "$(readlink -f "$path")" 2>/dev/null || dpkg-query -S "$path" 2>/dev/null)
  owner=${owner%%:*}
  [ -n "$owner" ] || { fail "no package owns $path ($soname)"; continue; }
  echo "$depends" | tr ',|' '\n\n' | sed 's/^ *//; s/ .*//' | grep -qx "$owner" ||
    fail "$soname comes from $owner, which Depends lacks: $depends"
done <needed
clang=$(strings "root$lib" | grep -E '^/.*/clang(-[0-9]+)?$' | head -1)
[ -n "$clang" ] || fail "no clang path in the library"
clang_owner=$(dpkg-query -S "$clang" 2>/dev/null | sed 's/:.*//')
echo "$depends" | tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -qx "$clang_owner" ||
  fail "the compiler runs $clang from $clang_owner, which Depends lacks: $depends"

# The unpacked files work by themselves: the packaged command finds the
# packaged library beside it (not this build tree's).
PATH="$WORK/root/usr/bin:$PATH"
expect 0 softgpu run -- sh -c 'echo "$OCL_ICD_VENDORS"'
same "$(cat out)" "$(cd root && pwd -P)$lib" "library used by the packaged softgpu"
expect 0 softgpu run -- clinfo -l
has out "^Platform #0: SoftGPU$"
same "$(count out '^Platform #')" 1 "platforms"
expect 0 softgpu run --config vortex -- root/usr/libexec/softgpu/samples/vector_add 1000
has out '^vector_add: platform "SoftGPU", size 1000: ok \(0 mismatches\)$'
printf 'kernel void k(global int *p) { p[get_global_id(0)] *= 3; }\n' >k.cl
expect 0 softgpu kernel k.cl --global 4 --arg 'int[4]:range:dump'
has out '^  \[0\] 0 3 6 9$'
finish
