/* A histogram in __local memory with atomic_inc, merged into __global
 * memory with atomic_add: atomics are not races. */
kernel void ok_local_histogram(global const uint *in, global uint *hist)
{
  local uint h[16];
  size_t l = get_local_id(0);
  if (l < 16)
    h[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&h[in[get_global_id(0)] % 16]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16)
    atomic_add(&hist[l], h[l]);
}
