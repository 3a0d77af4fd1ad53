/* 32-bit atomics on __local words, contended by the work-items of each group
 * (every warp of the group); each group writes its 8 results to out. */
kernel void local32(global int *out)
{
  local int s[8];
  int lid = get_local_id(0), grp = get_group_id(0), n = get_local_size(0);
  if (lid < 8)
    s[lid] = lid == 3 ? 0x7fffffff : lid == 4 ? -0x7fffffff - 1 : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&s[0], lid);
  atomic_inc(&s[1]);
  atomic_add(&s[2], grp);
  /* 37 is odd: lid * 37 mod n (a power of two) is a permutation of 0 .. n-1 */
  int v = ((lid * 37) & (n - 1)) - 100;
  atomic_min(&s[3], v);
  atomic_max(&s[4], v);
  if (atomic_xchg(&s[5], 1) == 0)
    atomic_inc(&s[6]);
  int seen, expected = s[7];
  while ((seen = atomic_cmpxchg(&s[7], expected, expected + lid + 1)) != expected)
    expected = seen;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 8)
    out[grp * 8 + lid] = s[lid];
}
