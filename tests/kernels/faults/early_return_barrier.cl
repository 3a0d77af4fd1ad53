/* The common `if (i >= n) return;` before a barrier: work-items 40..63 of
 * the work-group return, the others exchange values through local memory
 * after the barrier. It works on GPUs (returned work-items count as
 * arrived) and is reported as undefined behaviour. */
kernel void early_return_barrier(global const int *in, global int *out, uint n)
{
  local int tile[64];
  size_t l = get_local_id(0);
  if (l >= n)
    return;
  tile[l] = in[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = tile[(l + 1) % n];
}
