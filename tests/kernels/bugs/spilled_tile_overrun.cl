/* Bug: each work-item reads its right neighbour's element of the tile, and
 * the last one reads one past its end, into the next __local argument.
 * Built with -cl-opt-disable, every pointer goes through the private stack;
 * two full warps run it. */
kernel void spilled_tile_overrun(global const int *in, global int *out, local int *tile,
                                 local int *next)
{
  size_t l = get_local_id(0);
  tile[l] = in[get_global_id(0)];
  next[l] = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[l + 1];
}
