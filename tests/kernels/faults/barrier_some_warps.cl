/* Only the first warp of each work-group (64 work-items, 32-wide warps)
 * reaches the barrier; the second returns. The barrier releases (exited
 * work-items count as arrived, as on GPUs) and the early return is
 * reported as undefined behaviour. */
kernel void barrier_some_warps(global int *out)
{
  size_t l = get_local_id(0), g = get_global_id(0);
  out[g] = (int)l;
  if (l >= 32)
    return;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[g] += 100;
}
