/* Correct: a private array filled completely before any read, with a
 * data-dependent index (it stays in memory). */
kernel void ok_private_array_full(global const int *in, global int *out)
{
  size_t i = get_global_id(0);
  int t[8];
  for (int k = 0; k < 8; k++)
    t[k] = in[(i + k) & 7];
  out[i] = t[in[i] & 7] > 3 ? 1 : 0;
}
