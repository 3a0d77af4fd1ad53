/* SPDX-License-Identifier: MIT */
/* cl_khr_subgroup_shuffle_relative and cl_khr_subgroup_non_uniform_vote
 * checked against a reference each work-item computes from its sub-group's
 * inputs in __local memory, as sg_check.cl does: err[gid] gets one bit per
 * failed check. The votes run once with every lane active and once with
 * only the lanes whose x > 0. */
#define CHECK(bit, cond) e |= (cond) ? 0 : 1 << (bit)

kernel void sg_vote(global int *err) {
  local int xs[128];
  uint lid = get_local_id(0);
  int x = (int)((get_global_id(0) * 37 + 11) % 101) - 50;
  xs[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint s = get_sub_group_size(), sl = get_sub_group_local_id();
  uint first = get_sub_group_id() * get_max_sub_group_size();
  int e = 0;

  /* Relative shuffles are defined for source lanes inside the sub-group. */
  int up1 = sub_group_shuffle_up(x, 1u), down2 = sub_group_shuffle_down(x, 2u);
  long up3 = sub_group_shuffle_up(x * 1000000007L, 3u);
  double down1 = sub_group_shuffle_down(x * 0.5, 1u);
  CHECK(0, sl < 1 || up1 == xs[first + sl - 1]);
  CHECK(1, sl + 2 >= s || down2 == xs[first + sl + 2]);
  CHECK(2, sl < 3 || up3 == xs[first + sl - 3] * 1000000007L);
  CHECK(3, sl + 1 >= s || down1 == xs[first + sl + 1] * 0.5);

  int any_big = 0, all_above = 1, all_same = 1, any_big_pos = 0, all_same_pos = 1;
  uint first_pos = ~0u;
  for (uint i = 0; i < s; i++) {
    int v = xs[first + i];
    any_big |= v > 40;
    all_above &= v > -45;
    all_same &= v == xs[first];
    if (v > 0 && first_pos == ~0u)
      first_pos = i;
    any_big_pos |= v > 40;
    all_same_pos &= v <= 0 || v == xs[first + first_pos];
  }
  CHECK(4, sub_group_elect() == (sl == 0));
  CHECK(5, !sub_group_non_uniform_any(x > 40) == !any_big);
  CHECK(6, !sub_group_non_uniform_all(x > -45) == !all_above);
  CHECK(7, sub_group_non_uniform_all_equal(x / 200) == 1);
  CHECK(8, !sub_group_non_uniform_all_equal(x) == !all_same);
  CHECK(9, sub_group_non_uniform_all_equal(0.25f) == 1);
  CHECK(10, !sub_group_non_uniform_all_equal((double)x) == !all_same);
  if (x > 0) { /* only these lanes take part */
    CHECK(11, sub_group_elect() == (sl == first_pos));
    CHECK(12, sub_group_non_uniform_all(x > 0) == 1);
    CHECK(13, !sub_group_non_uniform_any(x > 40) == !any_big_pos);
    CHECK(14, !sub_group_non_uniform_all_equal(x) == !all_same_pos);
  }
  err[get_global_id(0)] = e;
}
