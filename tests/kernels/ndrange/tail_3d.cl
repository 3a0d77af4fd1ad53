/* A 3-D range of odd sizes with no local size: each real work-item runs
 * exactly once, and none past the global size runs at all. */
kernel void tail_3d(global int *out, global uint *count)
{
  size_t lin = (get_global_id(2) * 5 + get_global_id(1)) * 7 + get_global_id(0);
  out[lin] = (int)lin;
  atomic_inc(count);
}
