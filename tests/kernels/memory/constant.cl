/* A __constant buffer argument and a program-scope __constant table. */
constant int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};

kernel void constant_args(constant int *coef, global int *out)
{
  int i = get_global_id(0);
  out[i] = table[i % 8] * coef[i % 4] + coef[3];
}
