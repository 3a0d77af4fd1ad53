/* SPDX-License-Identifier: MIT */
/* Sub-group sizes and ids with warps of 4 lanes: groups of 6 and a partial
 * group of 4 (OpenCL C 2.0). out[gid * 6 + k]. */
kernel void sg_sizes(global uint *out) {
  global uint *o = out + get_global_id(0) * 6;
  o[0] = get_sub_group_size();
  o[1] = get_max_sub_group_size();
  o[2] = get_num_sub_groups();
  o[3] = get_enqueued_num_sub_groups();
  o[4] = get_sub_group_id();
  o[5] = get_sub_group_local_id();
}
