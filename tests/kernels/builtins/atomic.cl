/* 32-bit atomics on global and local memory. 64-bit atomics: atomic64.cl. */
kernel void atomic(global int *g, global uint *per_group, local int *s)
{
  int i = get_global_id(0), lid = get_local_id(0);
  if (lid == 0)
    s[0] = 0, s[1] = 0x7fffffff, s[2] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&g[0], i);
  atomic_sub(&g[1], 2);
  atomic_inc(&g[2]);
  atomic_dec(&g[3]);
  atomic_max(&g[4], i * 7 % 61);
  atomic_min(&g[5], 1000 - i);
  atomic_or(&g[6], 1 << (i % 31));
  atomic_and(&g[7], ~(1 << (i % 13)));
  atomic_xor(&g[8], i);
  /* exactly one work-item wins the exchange from 0 */
  if (atomic_cmpxchg(&g[9], 0, 77) == 0)
    atomic_inc(&g[10]);
  atomic_xchg((global float *)&g[11], 2.5f);
  atomic_add(&s[0], 1);
  atomic_min(&s[1], i);
  atomic_add(&s[2], i);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    per_group[get_group_id(0) * 3] = s[0];
    per_group[get_group_id(0) * 3 + 1] = s[1];
    per_group[get_group_id(0) * 3 + 2] = s[2];
  }
}
