/* Whole-struct copies between global and private memory: large enough that
 * the code generator calls memcpy (from the device library). */
typedef struct { int v[96]; } block;

kernel void struct_copy(global const block *in, global block *out)
{
  size_t g = get_global_id(0);
  block b = in[g];              /* global -> private */
  for (int i = 0; i < 96; i++)
    b.v[i] += (int)g;
  out[g] = b;                   /* private -> global */
}
