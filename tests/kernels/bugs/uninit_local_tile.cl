/* Bug: each work-item fills tile[lid] but reads tile[lid + 1]; the last
 * work-item of the group reads a slot nobody wrote (the fill loop is one
 * short), and that value decides what is stored (a select at -O3). */
kernel void uninit_local_tile(global const int *in, global int *out)
{
  local int tile[65];
  size_t l = get_local_id(0), g = get_global_id(0);
  tile[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = tile[l + 1];
  if (v > 100)
    out[g] = v;
  else
    out[g] = -1;
}
