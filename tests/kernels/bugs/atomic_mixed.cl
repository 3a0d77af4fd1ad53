/* Work-items count with atomic_inc while work-item 0 reads the counter
 * with a plain load in the same barrier interval: atomics order nothing
 * for plain accesses. */
kernel void atomic_mixed(global int *out)
{
  local int count;
  size_t l = get_local_id(0);
  if (l == 0)
    count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&count);
  if (l == 40)
    out[0] = count;
}
