/* A sub-group reduction inside a branch that splits the sub-group: only
 * the lanes that took the branch take part, where the specification asks
 * every work-item of the sub-group to call it. */
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void sg_reduce_divergent(global const int *in, global int *out)
{
  size_t l = get_local_id(0);
  int x = in[get_global_id(0)];
  if (get_sub_group_local_id() < 16)
    x = sub_group_reduce_add(x);
  out[l] = x;
}
