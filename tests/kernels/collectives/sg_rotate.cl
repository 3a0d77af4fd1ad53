/* SPDX-License-Identifier: MIT */
/* cl_khr_subgroup_rotate checked against a reference each work-item
 * computes from its sub-group's inputs in __local memory, as sg_check.cl
 * does: err[gid] gets one bit per failed check. A source lane at or past the
 * end of a partial sub-group holds no work-item, so no check reads it. */
#define CHECK(bit, cond) e |= (cond) ? 0 : 1 << (bit)

/* The lane (lane + delta) modulo n, delta of either sign. */
uint wrap(uint lane, int delta, uint n) {
  int r = ((int)lane + delta) % (int)n;
  return (uint)(r < 0 ? r + (int)n : r);
}

kernel void sg_rotate(global int *err) {
  local int xs[128];
  uint lid = get_local_id(0);
  int x = (int)((get_global_id(0) * 37 + 11) % 101) - 50;
  xs[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint m = get_max_sub_group_size(), s = get_sub_group_size(), sl = get_sub_group_local_id();
  uint first = get_sub_group_id() * m;
  int e = 0;

  int r1 = sub_group_rotate(x, 1), rm3 = sub_group_rotate(x, -3);
  long r5 = sub_group_rotate(x * 1000000007L, 5 + (int)m);
  double rd = sub_group_rotate(x * 0.5, -1);
  uint t;
  t = wrap(sl, 1, m);
  CHECK(0, t >= s || r1 == xs[first + t]);
  t = wrap(sl, -3, m);
  CHECK(1, t >= s || rm3 == xs[first + t]);
  t = wrap(sl, 5, m);
  CHECK(2, t >= s || r5 == xs[first + t] * 1000000007L);
  t = wrap(sl, -1, m);
  CHECK(3, t >= s || rd == xs[first + t] * 0.5);

  /* Clusters of 4 and of 2 (a constant power of two up to the maximum
   * sub-group size; m is the same for the whole sub-group). */
  if (m >= 4) {
    int q = sub_group_clustered_rotate(x, 1, 4u);
    uint b = sl - sl % 4;
    t = b + wrap(sl - b, 1, 4);
    CHECK(4, t >= s || q == xs[first + t]);
  }
  if (m >= 2) {
    int q = sub_group_clustered_rotate(x, -1, 2u);
    uint b = sl - sl % 2;
    t = b + wrap(sl - b, -1, 2);
    CHECK(5, t >= s || q == xs[first + t]);
  }
  err[get_global_id(0)] = e;
}
