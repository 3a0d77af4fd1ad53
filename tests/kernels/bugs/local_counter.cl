/* Counting with ++ on a __local counter instead of atomic_inc: every
 * work-item reads and writes it with no order between them. */
kernel void local_counter(global const int *in, global int *out)
{
  local int count;
  size_t l = get_local_id(0);
  if (l == 0)
    count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (in[get_global_id(0)] > 0)
    count++;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0)
    out[get_group_id(0)] = count;
}
