/* SPDX-License-Identifier: MIT */
/* Sub-group functions checked against a reference each work-item computes
 * from its sub-group's inputs in __local memory: err[gid] gets one bit per
 * failed check. Groups of 112 (the last one 76) are cut into sub-groups of
 * the machine's warp size, so partial sub-groups occur for most warp sizes. */
#define CHECK(bit, cond) e |= (cond) ? 0 : 1 << (bit)

kernel void sg_check(global int *err) {
  local int xs[128];
  uint lid = get_local_id(0), ls = get_local_size(0);
  int x = (int)((get_global_id(0) * 37 + 11) % 101) - 50;
  xs[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint m = get_max_sub_group_size(), s = get_sub_group_size();
  uint sl = get_sub_group_local_id(), first = get_sub_group_id() * m;
  int e = 0;
  CHECK(0, m > 0 && m <= get_enqueued_local_size(0) && first + sl == lid);
  CHECK(1, s == min(m, ls - first) && sl < s);
  CHECK(2, get_num_sub_groups() == (ls + m - 1) / m);
  CHECK(3, get_enqueued_num_sub_groups() == (get_enqueued_local_size(0) + m - 1) / m);

  int sum = 0, incl_min = INT_MAX, excl_max = INT_MIN, any_pos = 0, all_pos = 1;
  long lsum = 0;
  double dexcl = 0;
  ulong pos = 0;
  uint first_pos = ~0u;
  for (uint i = 0; i < s; i++) {
    int v = xs[first + i];
    sum += v;
    lsum += v * 1000000007L;
    incl_min = i <= sl ? min(incl_min, v) : incl_min;
    excl_max = i < sl ? max(excl_max, v) : excl_max;
    dexcl += i < sl ? v * 0.5 : 0;
    any_pos |= v > 40;
    all_pos &= v > -45;
    pos |= (ulong)(v > 0) << i;
    first_pos = v > 0 && first_pos == ~0u ? i : first_pos;
  }
  CHECK(4, sub_group_reduce_add(x) == sum);
  CHECK(5, sub_group_scan_inclusive_min(x) == incl_min);
  CHECK(6, sub_group_scan_exclusive_max(x) == excl_max);
  CHECK(7, sub_group_reduce_add(x * 1000000007L) == lsum);
  CHECK(8, sub_group_scan_exclusive_add(x * 0.5) == dexcl);
  CHECK(9, sub_group_broadcast(x, s - 1) == xs[first + s - 1]);
  CHECK(10, !sub_group_any(x > 40) == !any_pos);
  CHECK(11, !sub_group_all(x > -45) == !all_pos);
  CHECK(12, sub_group_shuffle(x, (sl + 1) % s) == xs[first + (sl + 1) % s]);
  int xo = sub_group_shuffle_xor(x, 1u);
  CHECK(13, (sl ^ 1) >= s || xo == xs[first + (sl ^ 1)]);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);

  uint4 b = sub_group_ballot(x > 0);
  CHECK(14, b.x == (uint)pos && b.y == (uint)(pos >> 32) && b.z == 0 && b.w == 0);
  CHECK(15, sub_group_ballot_bit_count(b) == popcount(pos));
  CHECK(16, sub_group_ballot_inclusive_scan(b) == popcount(pos & ((2ul << sl) - 1)));
  CHECK(17, sub_group_ballot_find_lsb(b) == first_pos);
  CHECK(18, sub_group_inverse_ballot(b) == (x > 0));
  CHECK(19, get_sub_group_eq_mask().x == (uint)(1ul << sl));
  if (x > 0) /* only the lanes with x > 0 take part */
    CHECK(20, sub_group_broadcast_first(x) == xs[first + first_pos]);

  /* A bitfield's bits below the maximum sub-group size count, also in the
   * partial last sub-group (as the CTS's subgroup_functions_ballot reads
   * cl_khr_subgroup_ballot). */
  uint4 ones = (uint4)(~0u, ~0u, ~0u, ~0u);
  ulong upto_m = m >= 64 ? ~0ul : (1ul << m) - 1;
  CHECK(21, sub_group_ballot_bit_count(ones) == m);
  CHECK(22, sub_group_ballot_find_msb(ones) == m - 1 && sub_group_ballot_find_lsb(ones) == 0);
  CHECK(23, sub_group_ballot_inclusive_scan(ones) == sl + 1 &&
                sub_group_ballot_exclusive_scan(ones) == sl);
  uint4 ge = get_sub_group_ge_mask(), gt = get_sub_group_gt_mask();
  ulong ge64 = upto_m & ~((1ul << sl) - 1), gt64 = ge64 & ~(1ul << sl);
  CHECK(24, ge.x == (uint)ge64 && ge.y == (uint)(ge64 >> 32) && ge.z == 0 && ge.w == 0);
  CHECK(25, gt.x == (uint)gt64 && gt.y == (uint)(gt64 >> 32) && gt.z == 0 && gt.w == 0);
  err[get_global_id(0)] = e;
}
