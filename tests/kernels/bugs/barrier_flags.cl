/* The first warp fences __local memory at the barrier, the second __global
 * memory: the flags of one barrier must agree across the work-group. */
kernel void barrier_flags(global int *out)
{
  local int s[64];
  size_t l = get_local_id(0);
  s[l] = (int)l;
  barrier(l < 32 ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE);
  out[l] = s[63 - l];
}
