/* Correct: a program-scope constant table indexed in bounds. */
constant int table[8] = {1, 2, 4, 8, 16, 32, 64, 128};
kernel void ok_constant_table(global int *out)
{
  size_t i = get_global_id(0);
  out[i] = table[i & 7];
}
