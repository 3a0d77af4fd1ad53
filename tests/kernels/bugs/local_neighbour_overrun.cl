/* Bug: each work-item reads its right neighbour's element of the tile, and
 * the last work-item of every group reads one past it, into the next
 * __local array. Only that lane of each group's second warp leaves `tile`:
 * the warps before it ran the same code from the same state without a
 * finding, so the one that overruns is caught where they were not. */
kernel void local_neighbour_overrun(global const int *in, global int *out)
{
  local int tile[64];
  local int next[64];
  size_t l = get_local_id(0);
  tile[l] = in[get_global_id(0)];
  next[l] = 100;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[l + 1] + next[l];
}
