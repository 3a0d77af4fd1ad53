/* Correct: one loop walks two arrays; loop strength reduction may address
 * one through the other's induction pointer plus their distance. */
kernel void ok_two_array_loop(global const float *a, global const float *b, global float *c,
                              int n)
{
  size_t row = get_global_id(0);
  float s = 0;
  for (int k = 0; k < n; k++)
    s += a[row * n + k] * b[k];
  c[row] = s;
}
