/* SPDX-License-Identifier: MIT */
/* Post-dominator computation (compiler/sg_cc_reconv.c) on hand-built CFGs
 * whose immediate post-dominators are derived by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "sg_cc_internal.h"

/* succ lists as one flat array per node, -1 terminated; node n is the exit. */
static void check(uint32_t n, const int *adj, const uint32_t *want)
{
  uint32_t off[32], succ[64] = {0}, ipdom[32], m = 0, node = 0;
  off[0] = 0;
  for (const int *p = adj; node < n; p++) {
    if (*p < 0)
      off[++node] = m;
    else
      succ[m++] = (uint32_t)*p;
  }
  assert_int_equal(sg_cc_postdom(n, off, succ, ipdom), SG_OK);
  for (uint32_t i = 0; i < n; i++)
    assert_int_equal(ipdom[i], want[i]);
}

static void test_diamond(void **state)
{
  (void)state; /* 0 -> 1,2 -> 3 -> exit(4) */
  static const int adj[] = {1, 2, -1, 3, -1, 3, -1, 4, -1};
  static const uint32_t want[] = {3, 3, 3, 4};
  check(4, adj, want);
}

static void test_loop(void **state)
{
  (void)state; /* 0 -> 1; 1 -> 2,3; 2 -> 1 (back edge); 3 -> exit(4) */
  static const int adj[] = {1, -1, 2, 3, -1, 1, -1, 4, -1};
  static const uint32_t want[] = {1, 3, 1, 4};
  check(4, adj, want);
}

static void test_early_return(void **state)
{
  (void)state; /* 0 -> 1, exit(3); 1 -> 2; 2 -> exit: the paths meet only at the exit */
  static const int adj[] = {1, 3, -1, 2, -1, 3, -1};
  static const uint32_t want[] = {3, 2, 3};
  check(3, adj, want);
}

static void test_infinite_loop(void **state)
{
  (void)state; /* 0 -> 1,2; 1 -> 1 forever; 2 -> exit(3). Node 1 never exits. */
  static const int adj[] = {1, 2, -1, 1, -1, 3, -1};
  static const uint32_t want[] = {2, 3, 3};
  check(3, adj, want);
}

static void test_nested(void **state)
{
  (void)state; /* if (a) { if (b) X else Y } Z: 0 -> 1,4; 1 -> 2,3; 2,3 -> 4; 4 -> exit(5) */
  static const int adj[] = {1, 4, -1, 2, 3, -1, 4, -1, 4, -1, 5, -1};
  static const uint32_t want[] = {4, 4, 4, 4, 5};
  check(5, adj, want);
}

static void test_loop_with_break(void **state)
{
  (void)state; /* 0 -> 1; 1 -> 2,4 (loop test); 2 -> 3,4 (break); 3 -> 1; 4 -> exit(5) */
  static const int adj[] = {1, -1, 2, 4, -1, 3, 4, -1, 1, -1, 5, -1};
  static const uint32_t want[] = {1, 4, 4, 1, 5};
  check(5, adj, want);
}

static void test_bad_edge(void **state)
{
  (void)state;
  uint32_t off[] = {0, 1}, succ[] = {7}, ipdom[1];
  assert_int_equal(sg_cc_postdom(1, off, succ, ipdom), SG_EINVAL);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_diamond),       cmocka_unit_test(test_loop),
      cmocka_unit_test(test_early_return),  cmocka_unit_test(test_infinite_loop),
      cmocka_unit_test(test_nested),        cmocka_unit_test(test_loop_with_break),
      cmocka_unit_test(test_bad_edge),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
