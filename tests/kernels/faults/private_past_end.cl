/* Even work-items write past the end of their private array by one stack
 * slot, onto a[0] of the work-item above; the last work-item writes past
 * the top of all the stacks. Dropped and reported; every array keeps what
 * its own work-item wrote. */
kernel void private_past_end(global int *out, local ulong *where)
{
  volatile int a[8];
  size_t l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
  for (int k = 0; k < 8; k++)
    a[k] = (int)g * 10 + k;
  where[l] = (ulong)&a[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  long slot = (long)(where[1] - where[0]) / 4;
  if (l % 2 == 0)
    a[slot] = -1;
  if (l == n - 1)
    a[slot + 2] = -2;
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = 0;
  for (int k = 0; k < 8; k++)
    s += a[k];
  out[g] = s;
}
