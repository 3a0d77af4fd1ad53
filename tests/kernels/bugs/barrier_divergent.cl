/* A barrier in a branch that only the first warp takes: the second warp
 * runs to the end and returns, and the first is released as hardware
 * counting arrivals would release it. */
kernel void barrier_divergent(global int *out)
{
  local int s[64];
  size_t l = get_local_id(0);
  s[l] = (int)l;
  if (l < 32) {
    barrier(CLK_LOCAL_MEM_FENCE);
    out[l] = s[l + 32];
  }
}
