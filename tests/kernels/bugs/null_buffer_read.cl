/* Bug: the host passes no buffer for `lut` (NULL) and the kernel reads it. */
kernel void null_buffer_read(global const int *lut, global int *out)
{
  size_t i = get_global_id(0);
  out[i] = lut[i & 3] + 1;
}
