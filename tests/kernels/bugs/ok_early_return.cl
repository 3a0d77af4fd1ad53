/* The usual bounds check returns early; there is no barrier after it. */
kernel void ok_early_return(global const int *in, global int *out, int n)
{
  size_t g = get_global_id(0);
  if (g >= (size_t)n)
    return;
  out[g] = in[g] + 1;
}
