/* Bug: the tile holds 64 ints but the loop reads 65 of them; the last read
 * lands in the next __local array (`scale`), which only per-array bounds
 * catch. */
kernel void local_tile_overrun(global const int *in, global int *out, int n)
{
  local int tile[64];
  local int scale[64];
  size_t l = get_local_id(0);
  tile[l] = in[get_global_id(0)];
  scale[l] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = 0;
  for (int k = 0; k <= n; k++) /* n = 64: one too many */
    s += tile[k] * scale[l];
  out[get_global_id(0)] = s;
}
