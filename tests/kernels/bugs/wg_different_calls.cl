/* Half the work-group sums, the other half takes the maximum: two
 * different work-group functions where all must call the same one. */
kernel void wg_different_calls(global const int *in, global int *out)
{
  size_t l = get_local_id(0);
  int x = in[get_global_id(0)];
  if (l < 32)
    out[l] = work_group_reduce_add(x);
  else
    out[l] = work_group_reduce_max(x);
}
