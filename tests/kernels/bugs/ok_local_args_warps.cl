/* Correct: two __local arguments sized for the whole work-group (two full
 * warps), exchanged through a barrier. */
kernel void ok_local_args_warps(global int *out, local int *a, local int *b)
{
  size_t l = get_local_id(0), n = get_local_size(0);
  a[l] = (int)l;
  b[l] = 7;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = a[n - 1 - l] + b[l];
}
