/* 64-bit atom_* (cl_khr_int64_base_atomics) on one global word per
 * operation, contended by every work-item; the sums carry across bit 32. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
kernel void global64(global long *l)
{
  long i = get_global_id(0);
  atom_add(&l[0], i << 20);
  atom_add(&l[1], 0xffffffffl);
  atom_inc(&l[2]);
  long seen, expected = l[3];
  while ((seen = atom_cmpxchg(&l[3], expected, expected + i + (1l << 32))) != expected)
    expected = seen;
}
