/* The two warps of a work-group (32-wide) go through different barriers:
 * the first warp through two, the second through one and then returns.
 * Released by counting arrivals, as hardware does; both differences are
 * reported. */
kernel void barrier_counts(global int *out)
{
  size_t l = get_local_id(0), g = get_global_id(0);
  out[g] = 1;
  if (l < 32) {
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[g] += 10;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[g] += 100;
  } else {
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[g] += 1000;
  }
}
