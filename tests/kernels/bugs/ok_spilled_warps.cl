/* Correct: two full warps, built with -cl-opt-disable, so every pointer and
 * index lives on the private stack between uses; a __local tile and three
 * buffers, read back in a loop. */
kernel void ok_spilled_warps(global const int *a, global const int *b, global int *out)
{
  local int tile[64];
  size_t l = get_local_id(0), g = get_global_id(0);
  tile[l] = a[g] * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = 0;
  for (int k = 0; k < 4; k++)
    s += tile[(l + 16 * k) & 63] + b[(g + k) & 127];
  out[g] = s;
}
