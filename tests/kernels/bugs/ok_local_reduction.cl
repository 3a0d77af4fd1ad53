/* Correct: a tree reduction in __local memory; every slot read was
 * written (uninitialized-value checking is on). */
kernel void ok_local_reduction(global const int *in, global int *out)
{
  local int s[64];
  size_t l = get_local_id(0);
  s[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t w = 32; w > 0; w >>= 1) {
    if (l < w)
      s[l] += s[l + w];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = s[0];
}
