/* Each warp asks for a different number of elements: the arguments of an
 * async copy must be the same in every work-item. */
kernel void async_args(global const int *in, global int *out)
{
  local int tile[64];
  size_t l = get_local_id(0);
  event_t e = async_work_group_copy(tile, in, l < 32 ? 64 : 32, 0);
  wait_group_events(1, &e);
  out[l] = tile[l];
}
