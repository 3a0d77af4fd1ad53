/* Bug: the loop fills only acc[0..n-1] but the sum reads all 4 entries, so
 * for n < 4 the result depends on uninitialized private memory. */
kernel void uninit_private_array(global const int *in, global int *out, int n)
{
  size_t i = get_global_id(0);
  int acc[4];
  for (int k = 0; k < n; k++)
    acc[k] = in[i * 4 + k];
  int s = 0;
  for (int k = 0; k < 4; k++)
    if (acc[k] > 0) /* at -O3 a select: the sum stored is what is reported */
      s += acc[k];
  out[i] = s;
}
