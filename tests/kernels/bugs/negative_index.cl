/* Bug: a stencil reads in[i - 1] without guarding the first work-item. */
kernel void negative_index(global const int *in, global int *out)
{
  size_t i = get_global_id(0);
  out[i] = in[i] + in[i - 1];
}
