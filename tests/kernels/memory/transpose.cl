/* 16x16 transpose through a padded 8x8 __local tile declared in the kernel. */
kernel void transpose(global const int *in, global int *out)
{
  local int tile[8][9];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint gx = get_group_id(0) * 8u, gy = get_group_id(1) * 8u;
  tile[ly][lx] = in[(gy + ly) * 16u + gx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(gx + ly) * 16u + gy + lx] = tile[lx][ly];
}
