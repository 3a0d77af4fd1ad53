/* The barrier fences __local memory only, but the work-items exchange
 * values through __global memory: nothing orders those accesses. */
kernel void local_fence_global(global const int *in, global int *tmp, global int *out)
{
  size_t g = get_global_id(0);
  tmp[g] = in[g] * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tmp[g ^ 32];
}
