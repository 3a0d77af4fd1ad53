/* Bug: a byte buffer is read as ints at an odd byte offset: the int loads
 * are misaligned (undefined in OpenCL C). */
kernel void misaligned_int_load(global const char *bytes, global int *out)
{
  size_t i = get_global_id(0);
  out[i] = *(global const int *)(bytes + 4 * i + 1);
}
