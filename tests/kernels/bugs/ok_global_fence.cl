/* local_fence_global.cl with CLK_GLOBAL_MEM_FENCE: the barrier orders the
 * __global exchange within the work-group. */
kernel void ok_global_fence(global const int *in, global int *tmp, global int *out)
{
  size_t g = get_global_id(0);
  tmp[g] = in[g] * 2;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[g] = tmp[g ^ 32];
}
