/* A work-group reduction called by the first two warps only: the others
 * never reach it. SoftGPU releases its barriers as hardware would (work-items
 * that returned count as arrived) and the sum covers the callers only. */
kernel void wg_reduce_divergent(global const int *in, global int *out)
{
  size_t l = get_local_id(0);
  if (l < 64)
    out[l] = work_group_reduce_add(in[get_global_id(0)]);
}
