/* Written for work-groups of 64 (the tile has 64 slots) and launched with
 * 128: work-items l and l + 64 write the same slot. */
kernel void wrong_local_size(global const int *in, global int *out)
{
  local int tile[64];
  size_t l = get_local_id(0) % 64, g = get_global_id(0);
  tile[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tile[63 - l];
}
