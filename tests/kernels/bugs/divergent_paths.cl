/* Even work-items write their odd neighbour's slot while odd ones read
 * their own: the two sides of a divergent branch of one warp, whose order
 * the reconvergence policy chooses. */
kernel void divergent_paths(global int *out)
{
  local int s[64];
  size_t l = get_local_id(0);
  s[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l % 2 == 0)
    s[l + 1] = (int)l;
  else
    out[l] = s[l];
}
