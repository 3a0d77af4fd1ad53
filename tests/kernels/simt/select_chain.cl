/* SPDX-License-Identifier: MIT */
/* Chains of data-dependent selects (the subtract-with-borrow step of
 * pyopencl's Ranlux generator) in a loop. RV64IMAFD has no conditional move,
 * so each select is a branch, and lanes split by one must rejoin within the
 * iteration: the sub-group reduction closing each iteration is reached by
 * every work-item (16 iterations each), so it must see the whole sub-group
 * every time (lanes[gid] = 16), and the values must match the host. The code
 * layout that kept lanes apart until the loop exit is checked on the
 * reconvergence table itself (tests/compiler, test_reconv_select_chain). */
static void step(float a, float *s, float *carry) {
  float uni = a - *s - *carry;
  if (uni < 0.0f) {
    uni += 1.0f;
    *carry = 0x1p-24f;
  } else {
    *carry = 0.0f;
  }
  *s = uni;
}

/* A multiple of 2^-24 in [0, 1) from a hash of (gid, k). */
static float seed(uint gid, uint k) {
  return (float)((gid * 2654435761u + k * 40503u) >> 8) * 0x1p-24f;
}

kernel void select_chain(global uint *lanes, global float *out) {
  uint gid = get_global_id(0);
  float s0 = seed(gid, 0), s1 = seed(gid, 1), s2 = seed(gid, 2), s3 = seed(gid, 3);
  float s4 = seed(gid, 4), carry = 0.0f, acc = 0.0f;
  uint whole = 0;
  for (int i = 0; i < 16; i++) {
    step(s2, &s0, &carry);
    step(s3, &s1, &carry);
    step(s4, &s2, &carry);
    step(s0, &s3, &carry);
    acc += s0;
    whole += sub_group_reduce_add(1u) == get_sub_group_size();
  }
  lanes[gid] = whole;
  out[gid] = acc;
}
