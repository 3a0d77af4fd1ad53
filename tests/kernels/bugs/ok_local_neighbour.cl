/* Correct: each work-item reads its left neighbour's tile entry (tile[l - 1],
 * a constant offset the compiler folds below the array's start). */
kernel void ok_local_neighbour(global const int *in, global int *out)
{
  local int before[16];
  local int tile[64];
  size_t l = get_local_id(0);
  before[l & 15] = 0;
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = l > 0 ? tile[l - 1] + before[0] : -1;
}
