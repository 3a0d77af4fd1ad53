/* Lanes of one sub-group exchange values through __local memory, ordered by
 * sub_group_barrier: legal without a work-group barrier, and not reported
 * as relying on warp-synchronous execution. */
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void ok_sub_group_barrier(global int *out)
{
  local int s[64];
  size_t l = get_local_id(0);
  uint lane = get_sub_group_local_id(), base = get_sub_group_id() * get_max_sub_group_size();
  s[l] = (int)l * 2;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = s[base + (lane ^ 1)];
}
