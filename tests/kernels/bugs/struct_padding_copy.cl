/* Correct: a struct with padding is built in private memory and copied
 * whole to global memory. The padding bytes are never written, and copying
 * them is not a use: no finding. */
typedef struct { char tag; int value; short small; } item;
kernel void struct_padding_copy(global item *out, global const int *in)
{
  size_t i = get_global_id(0);
  item t;
  t.tag = (char)i;
  t.value = in[i];
  t.small = (short)(2 * i);
  out[i] = t;
}
