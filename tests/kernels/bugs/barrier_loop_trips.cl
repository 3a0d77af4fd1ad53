/* A barrier in a loop whose trip count differs between warps: the first
 * warp leaves the loop after one barrier and reaches the final one while
 * the second still waits in the loop. */
kernel void barrier_loop_trips(global int *out)
{
  local int s[64];
  size_t l = get_local_id(0);
  s[l] = 0;
  for (size_t i = 0; i < l / 32 + 1; i++) {
    s[l] += (int)i;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = s[63 - l];
}
