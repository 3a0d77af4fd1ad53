/* An async copy started by the first warp only: every work-item of the
 * work-group must call it, with the same arguments. */
kernel void async_divergent(global const int *in, global int *out)
{
  local int tile[64];
  size_t l = get_local_id(0);
  event_t e = 0;
  if (l < 32)
    e = async_work_group_copy(tile, in, 64, 0);
  wait_group_events(1, &e);
  out[l] = tile[l];
}
