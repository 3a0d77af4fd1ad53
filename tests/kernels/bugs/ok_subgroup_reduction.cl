/* The tail of a reduction done right: each sub-group reduces with
 * sub_group_reduce_add (no memory, no race), the sub-groups' sums meet in
 * __local memory behind a barrier. */
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void ok_subgroup_reduction(global const int *in, global int *out)
{
  local int part[64];
  size_t t = get_local_id(0);
  int x = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0)
    part[get_sub_group_id()] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0) {
    int sum = 0;
    for (uint i = 0; i < get_num_sub_groups(); i++)
      sum += part[i];
    out[get_group_id(0)] = sum;
  }
}
