/* Reads the destination of an async copy before wait_group_events: the
 * elements other work-items copy may not be there yet. */
kernel void async_before_wait(global const int *in, global int *out)
{
  local int tile[64];
  size_t l = get_local_id(0);
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 64, 64, 0);
  int early = tile[63 - l];
  wait_group_events(1, &e);
  out[get_global_id(0)] = early + tile[l];
}
