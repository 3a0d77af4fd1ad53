/* Bug: the row offset is computed in int and overflows for large rows;
 * the wrapped negative index reads before the start of the buffer. */
kernel void index_overflow(global const int *in, global int *out, int row)
{
  size_t i = get_global_id(0);
  int offset = row * 65536 * 65536 + (int)i; /* row * 2^32 wraps to 0 */
  out[i] = in[offset - 8];
}
