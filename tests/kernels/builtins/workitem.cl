/* Work-item functions on a 2-D range with a global offset, including the
 * values for a dimension index past work_dim. */
kernel void workitem(global uint *o)
{
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  global uint *p = o + (y * get_global_size(0) + x) * 14;
  p[0] = get_global_id(0);
  p[1] = get_global_id(1);
  p[2] = get_local_id(0);
  p[3] = get_local_id(1);
  p[4] = get_group_id(0);
  p[5] = get_group_id(1);
  p[6] = get_global_size(0);
  p[7] = get_global_size(1);
  p[8] = get_local_size(0) * 10 + get_local_size(1);
  p[9] = get_num_groups(0) * 10 + get_num_groups(1);
  p[10] = get_global_offset(0) * 10 + get_global_offset(1);
  p[11] = get_work_dim();
  p[12] = get_local_size(3) * 10 + get_num_groups(3) + get_global_size(3) * 100;
  p[13] = get_global_id(3) + get_local_id(3) + get_group_id(3) + get_global_offset(3);
}
