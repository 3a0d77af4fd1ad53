/* missing_barrier.cl with its barrier: no finding. */
kernel void ok_tile_exchange(global const int *in, global int *out)
{
  local int tile[64];
  size_t l = get_local_id(0), g = get_global_id(0);
  tile[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tile[63 - l];
}
