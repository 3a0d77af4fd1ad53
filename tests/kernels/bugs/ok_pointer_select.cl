/* Correct: a pointer chosen per work-item between two buffers. */
kernel void ok_pointer_select(global const int *a, global const int *b, global int *out)
{
  size_t i = get_global_id(0);
  global const int *p = (i & 1) ? a : b;
  out[i] = p[i];
}
