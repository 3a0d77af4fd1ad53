/* An async copy completed with a barrier instead of wait_group_events:
 * the specification leaves the copy unfinished until the wait. */
kernel void async_no_wait(global const int *in, global int *out)
{
  local int tile[64];
  size_t l = get_local_id(0);
  async_work_group_copy(tile, in + get_group_id(0) * 64, 64, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[63 - l];
}
