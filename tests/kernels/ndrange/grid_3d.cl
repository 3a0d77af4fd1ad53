/* Every work-item function in a 3-D range with an offset. */
kernel void grid_3d(global int *ids)
{
  size_t lin = (get_global_id(2) - get_global_offset(2)) * get_global_size(1) * get_global_size(0) +
               (get_global_id(1) - get_global_offset(1)) * get_global_size(0) +
               (get_global_id(0) - get_global_offset(0));
  ids[3 * lin + 0] = get_global_id(0) + 10 * get_global_id(1) + 100 * get_global_id(2);
  ids[3 * lin + 1] = get_local_id(0) + 10 * get_local_id(1) + 100 * get_local_id(2) +
                     1000 * (get_group_id(0) + 10 * get_group_id(1) + 100 * get_group_id(2));
  ids[3 * lin + 2] = get_num_groups(0) + 10 * get_num_groups(1) + 100 * get_num_groups(2) +
                     1000 * get_work_dim() + 10000 * get_local_size(0);
}
