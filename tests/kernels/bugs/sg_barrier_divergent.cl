/* A sub-group barrier inside a branch that half of each sub-group takes. */
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void sg_barrier_divergent(global int *out)
{
  local int s[32];
  size_t l = get_local_id(0);
  s[l] = (int)l;
  if (l < 16)
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = s[l];
}
