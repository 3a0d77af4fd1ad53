/* Transpose through a padded __local tile with a barrier: no finding. */
kernel void ok_transpose(global const int *in, global int *out, int n)
{
  local int t[16][17];
  int x = get_local_id(0), y = get_local_id(1);
  int gx = get_group_id(0) * 16, gy = get_group_id(1) * 16;
  t[y][x] = in[(gy + y) * n + gx + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(gx + y) * n + gy + x] = t[x][y];
}
