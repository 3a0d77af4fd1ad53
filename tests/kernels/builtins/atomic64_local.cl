/* 64-bit atom_* on __local memory (cl_khr_int64_base_atomics and
 * _extended_atomics): 64 work-items per group on one word each, with values
 * that carry across bit 32. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void atomic64_local(global long *out)
{
  local long acc[4];
  long l = (long)get_local_id(0);
  if (l == 0) {
    acc[0] = 0;
    acc[1] = 4294967264L; /* 2^32 - 32 */
    acc[2] = 0;
    acc[3] = -1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  atom_add(&acc[0], l << 32 | 1);
  atom_inc(&acc[1]);
  atom_max(&acc[2], l * 1000000000L);
  atom_and(&acc[3], ~(1L << (l % 64)) | (l == 5 ? (1L << 5) : 0));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0)
    for (int i = 0; i < 4; i++)
      out[get_group_id(0) * 4 + i] = acc[i];
}
