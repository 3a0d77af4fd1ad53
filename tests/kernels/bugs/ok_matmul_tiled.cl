/* Tiled matrix product (16 x 16 tiles in __local memory, a barrier after
 * loading and after using each tile): no finding. */
#define T 16
kernel void ok_matmul_tiled(global const float *a, global const float *b, global float *c, int n)
{
  local float ta[T][T], tb[T][T];
  int r = get_local_id(1), q = get_local_id(0);
  int row = get_global_id(1), col = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n; k += T) {
    ta[r][q] = a[row * n + k + q];
    tb[r][q] = b[(k + r) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < T; i++)
      sum += ta[r][i] * tb[i][q];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = sum;
}
