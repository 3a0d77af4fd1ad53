/* Neighbour exchange inside a sub-group with sub_group_shuffle_xor (no
 * memory, so no race), then a uniform sub-group scan. */
#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable
kernel void ok_shuffle_exchange(global int *out)
{
  size_t l = get_local_id(0);
  int v = sub_group_shuffle_xor((int)l, 1);
  out[l] = v + sub_group_scan_exclusive_add(1) * 0;
}
