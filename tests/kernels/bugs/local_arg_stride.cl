/* Bug: `a` holds 32 ints but every work-item writes a[l]: the second warp
 * writes into `b`. */
kernel void local_arg_stride(global int *out, local int *a, local int *b)
{
  size_t l = get_local_id(0);
  b[l] = 7;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = a[l & 31] + b[l];
}
