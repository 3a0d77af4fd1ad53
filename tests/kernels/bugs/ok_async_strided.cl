/* A strided async copy (one column of a 16 x 16 matrix per work-group)
 * and its wait: no finding. */
kernel void ok_async_strided(global const int *m, global int *cols)
{
  local int col[16];
  size_t l = get_local_id(0), c = get_group_id(0);
  event_t e = async_work_group_strided_copy(col, m + c, 16, 16, 0);
  wait_group_events(1, &e);
  cols[c * 16 + l] = col[l];
}
