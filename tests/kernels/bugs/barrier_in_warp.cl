/* A barrier that half of each warp reaches: those lanes wait for the rest,
 * which wait to rejoin them. Hardware would hang; SoftGPU ends the launch. */
kernel void barrier_in_warp(global int *out)
{
  size_t l = get_local_id(0);
  if (l % 2)
    barrier(CLK_GLOBAL_MEM_FENCE);
  out[l] = (int)l;
}
