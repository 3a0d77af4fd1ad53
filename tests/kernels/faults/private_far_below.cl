/* Work-item 0 writes 512 MiB below its private array. The stacks of a
 * work-group sit in the middle of their 2.5 GiB window with unmapped memory
 * on both sides, so the store meets no mapping; had the stacks started at
 * the bottom of the window, it would have landed in the 64 KiB of local
 * memory just below it. Dropped and reported; local memory is intact. */
kernel void private_far_below(global int *out, local int *tile, long below)
{
  volatile int a[8];
  size_t l = get_local_id(0), n = get_local_size(0);
  for (size_t k = l; k < 16384; k += n)
    tile[k] = (int)k;
  a[l & 7] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0)
    a[below] = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = 0;
  for (size_t k = l; k < 16384; k += n)
    s += tile[k] == (int)k;
  out[get_global_id(0)] = s + a[l & 7];
}
