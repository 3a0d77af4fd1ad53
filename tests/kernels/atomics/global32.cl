/* 32-bit atomics on one global word per operation, contended by every
 * work-item of the launch (many work-groups, so many host threads and many
 * warps at once). Slots: see global32.ref. */
kernel void global32(global int *g)
{
  int i = get_global_id(0);
  int n = get_global_size(0);
  atomic_add(&g[0], i);
  atomic_inc(&g[1]);
  atomic_sub(&g[2], 3);
  /* 7919 is odd, so i * 7919 mod n (n a power of two) visits 0 .. n-1 once */
  int v = (int)(((uint)i * 7919u) & (uint)(n - 1)) - 5000;
  atomic_min(&g[3], v);
  atomic_max(&g[4], v);
  /* every work-item swaps 1 in: exactly one sees the initial 0 */
  int old = atomic_xchg(&g[5], 1);
  if (old == 0)
    atomic_inc(&g[6]);
  atomic_add(&g[7], old);
  /* lock-free counter: compare-and-swap until no one else got in between */
  int seen, expected = g[8];
  while ((seen = atomic_cmpxchg(&g[8], expected, expected + i + 1)) != expected)
    expected = seen;
}
