/* warp_sync_reduction.cl with a barrier after every step, down to one
 * element: no finding, at any warp size. */
kernel void ok_tree_reduction(global const int *in, global int *out)
{
  local int s[256];
  size_t t = get_local_id(0);
  s[t] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t n = 128; n > 0; n >>= 1) {
    if (t < n)
      s[t] += s[t + n];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0)
    out[get_group_id(0)] = s[0];
}
