/* Each work-item publishes where its private array lies; neighbours are one
 * private stack slot apart (the kernel's private memory). Odd work-items
 * then write a[-slot/4], that is their lower neighbour's a[0]. The stores
 * are dropped and reported; every array keeps what its own work-item wrote. */
kernel void stack_overflow(global int *out, local ulong *where)
{
  volatile int a[8];
  size_t l = get_local_id(0), g = get_global_id(0);
  for (int k = 0; k < 8; k++)
    a[k] = (int)g * 10 + k;
  where[l] = (ulong)&a[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l & 1)
    a[-(long)(where[l] - where[l - 1]) / 4] = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = 0;
  for (int k = 0; k < 8; k++)
    s += a[k];
  out[g] = s;
}
