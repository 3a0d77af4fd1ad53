/* Each work-item stores one element further on: the last store is one past
 * the end of the buffer. It is dropped and reported; the next buffer is
 * untouched. */
kernel void oob_store(global int *out, global int *next)
{
  size_t i = get_global_id(0);
  out[i + 1] = (int)i;
  if (i == 0)
    next[0] += 1;
}
