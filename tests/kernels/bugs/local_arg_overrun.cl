/* Bug: `a` is given 32 ints by the host but the kernel indexes it with the
 * work-item id (64 work-items): the upper half writes into `b` (each
 * __local argument starts on a multiple of 128 bytes, so 32 ints leave no
 * gap before `b`). */
kernel void local_arg_overrun(global int *out, local int *a, local int *b)
{
  size_t l = get_local_id(0);
  if (l < 32)
    b[l] = 7;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = a[l & 31];
}
