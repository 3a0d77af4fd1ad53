# SPDX-License-Identifier: MIT
# Sourced by the bench scripts, with $build (a build tree) and $work (a
# scratch directory) set: one vendors directory per platform, each holding
# only that platform's .icd file, so the loader sees it alone. Sets
# softgpu_dir, pocl_dir and oclgrind_dir (empty when not installed).

# vendor_dir NAME ICD-FILE-OR-LIBRARY: prints the directory, or nothing.
vendor_dir() {
  [ -e "$2" ] || return 0
  mkdir -p "$work/$1"
  case $2 in
    *.icd) cp "$2" "$work/$1/" ;;
    *) echo "$2" >"$work/$1/$1.icd" ;;
  esac
  echo "$work/$1"
}

softgpu_dir=""
[ -f "$build/vendors/softgpu.icd" ] && softgpu_dir="$build/vendors"
pocl_dir=$(vendor_dir pocl /etc/OpenCL/vendors/pocl.icd)
oclgrind_icd=/etc/OpenCL/vendors/oclgrind.icd
[ -e "$oclgrind_icd" ] || oclgrind_icd=/usr/lib/oclgrind/liboclgrind-rt-icd.so
oclgrind_dir=$(vendor_dir oclgrind "$oclgrind_icd")
