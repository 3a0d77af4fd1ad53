/* Correct: a private array filled up to n and read at a data-dependent
 * index on every lane, but the value read is used only where that entry
 * was written: on the other lanes the select picks another value, and what
 * is stored is initialized. (A select of a value that may hold
 * uninitialized bytes stays a branch, compiler/sg_cc_select.c.) */
kernel void ok_select_partial_init(global const int *in, global int *out, int n)
{
  size_t i = get_global_id(0);
  int acc[4];
  for (int k = 0; k < n; k++)
    acc[k] = in[i * 4 + k] * 2;
  int j = (in[i * 4] + (int)i) & 3;
  int v = acc[j], w = in[i * 4 + 3];
  out[i] = j < n ? v : w;
}
