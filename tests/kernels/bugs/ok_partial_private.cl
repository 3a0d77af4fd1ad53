/* Correct: a private array only partly filled, and only the filled part
 * read (uninitialized-value checking is on). */
kernel void ok_partial_private(global const int *in, global int *out, int n)
{
  size_t i = get_global_id(0);
  int t[16];
  for (int k = 0; k < n; k++)
    t[k] = in[k] + (int)i;
  int s = 0;
  for (int k = 0; k < n; k++)
    if (t[k] & 1)
      s += t[k];
  out[i] = s;
}
