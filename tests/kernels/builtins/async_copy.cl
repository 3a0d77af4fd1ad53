/* async_work_group_copy, async_work_group_strided_copy, wait_group_events
 * and prefetch (OpenCL C 1.2 s6.12.10-11), 16 work-items per group. */
kernel void async_copy(global const int *in, global int *out, local int *tile)
{
  size_t l = get_local_id(0), g = get_group_id(0), n = get_local_size(0);
  prefetch(in + g * n, n);
  event_t e = async_work_group_copy(tile, in + g * n, n, 0);
  wait_group_events(1, &e);
  out[g * n + l] = tile[n - 1 - l] * 2;            /* the group's block, reversed */
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(out + 32 + g * 2 * n, tile, n, 2, 0); /* every other slot */
  wait_group_events(1, &e);
}
