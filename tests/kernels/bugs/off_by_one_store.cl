/* Bug: the loop bound is <= n instead of < n: the last work-item writes
 * one element past the end of `out`. */
kernel void off_by_one_store(global int *out, int n)
{
  size_t i = get_global_id(0);
  if (i <= n)
    out[i] = (int)i;
}
