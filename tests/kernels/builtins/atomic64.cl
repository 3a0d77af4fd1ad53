/* 64-bit atom_* (cl_khr_int64_base_atomics, cl_khr_int64_extended_atomics)
 * on global memory. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void atomic64(global long *l)
{
  int i = get_global_id(0);
  atom_add(&l[0], (long)i << 32);
  atom_max(&l[1], -(long)i);
  atom_xor(&l[2], (long)i << 40);
  if (atom_cmpxchg(&l[3], 0, 0x100000000l) == 0)
    atom_inc(&l[4]);
}
