/* Correct: a __local tile transposed in place, built with -cl-opt-disable
 * (every pointer goes through the private stack). */
kernel void ok_tile_opt_disable(global const int *in, global int *out)
{
  local int tile[8][8];
  size_t x = get_local_id(0), y = get_local_id(1);
  tile[y][x] = in[y * 8 + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[y * 8 + x] = tile[x][y];
}
