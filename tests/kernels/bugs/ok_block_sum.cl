/* Each work-group reduces in __local memory with barriers, then one
 * work-item adds the group's sum to the total with atomic_add. */
kernel void ok_block_sum(global const int *in, global int *total)
{
  local int s[64];
  size_t t = get_local_id(0);
  s[t] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t n = 32; n > 0; n >>= 1) {
    if (t < n)
      s[t] += s[t + n];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0)
    atomic_add(total, s[0]);
}
