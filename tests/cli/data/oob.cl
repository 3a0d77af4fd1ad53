/* The last work-item stores one element past the end of the buffer. */
kernel void oob(global int *out)
{
  size_t i = get_global_id(0);
  out[i + 1] = (int)i;
}
