/* Each work-group writes its block, then reads the next group's block:
 * nothing orders work-groups, so the values read depend on the schedule. */
kernel void group_neighbor(global int *buf, global int *out)
{
  size_t l = get_local_id(0), g = get_group_id(0), n = get_local_size(0);
  size_t groups = get_num_groups(0);
  buf[g * n + l] = (int)(g * 1000 + l);
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[g * n + l] = buf[((g + 1) % groups) * n + l];
}
