/* Correct: each work-group reverses its slice through __local memory, a
 * barrier between the writes and the reads of other work-items' slots. */
kernel void ok_local_reverse(global const int *in, global int *out)
{
  local int tile[32];
  size_t l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
  tile[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tile[n - 1 - l];
}
