/* The lane of a sub-group broadcast must be the same in every work-item of
 * the sub-group. */
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void sg_broadcast_args(global const int *in, global int *out)
{
  size_t l = get_local_id(0);
  out[l] = sub_group_broadcast(in[l], get_sub_group_local_id() / 16);
}
