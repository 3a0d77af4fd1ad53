/* Correct: a private array filled completely by a loop, then summed (the
 * uninit checker must see every element written). */
kernel void ok_private_sum(global const int *in, global int *out)
{
  size_t i = get_global_id(0);
  int acc[4];
  for (int k = 0; k < 4; k++)
    acc[k] = in[i * 4 + k];
  int s = 0;
  for (int k = 0; k < 4; k++)
    s += acc[k];
  out[i] = s;
}
