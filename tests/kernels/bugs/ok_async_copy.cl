/* An async copy into __local memory, completed by wait_group_events before
 * the tile is read, and one back out: no finding. */
kernel void ok_async_copy(global const int *in, global int *out)
{
  local int tile[64];
  size_t l = get_local_id(0), base = get_group_id(0) * 64;
  event_t e = async_work_group_copy(tile, in + base, 64, 0);
  wait_group_events(1, &e);
  int v = tile[63 - l];
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(out + base, tile, 64, 0);
  wait_group_events(1, &e);
}
