/* Correct: 64 work-items for 60 elements, the tail guarded by a bounds
 * check (the usual rounded-up global size). */
kernel void ok_bounds_checked_tail(global const int *in, global int *out, int n)
{
  size_t i = get_global_id(0);
  if (i < (size_t)n)
    out[i] = in[i] * 2;
}
