/* SPDX-License-Identifier: MIT */
/* Post-dominator computation (compiler/sg_cc_reconv.c) on hand-built CFGs
 * whose immediate post-dominators are derived by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
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

/* The machine CFG (sg_cc_reconv): a call made on one side of a branch
 * falls through to the join, so the branch reconverges there; a tail call
 * (jr through another register) leaves the function. */
static uint64_t reconv_of_first_branch(const uint32_t *code, uint32_t n)
{
  uint8_t ro[64];
  memcpy(ro, code, 4 * n);
  struct sg_cc_symbol sym = {.name = "f", .addr = SG_ADDR_CODE, .size = 4 * n, .is_func = true};
  struct sg_linked l = {.ro = ro, .ro_size = 4 * n, .text_size = 4 * n, .num_symbols = 1,
                        .symbols = &sym};
  struct sg_reconv *table = NULL;
  size_t ntable = 0;
  struct sg_text log = {0};
  assert_int_equal(sg_cc_reconv(&l, &table, &ntable, &log), SG_OK);
  assert_int_equal(ntable, 1);
  assert_int_equal(table[0].branch_pc, SG_ADDR_CODE);
  uint64_t r = table[0].reconv_pc;
  free(table);
  free(sg_text_take(&log));
  return r;
}

static void test_call_in_branch(void **state)
{
  (void)state;
  static const uint32_t call[] = {
      0x00050663, /* beq a0, zero, +12 */
      0x00000097, /* auipc ra, 0 */
      0x000080e7, /* jalr ra, 0(ra): the call */
      0x00150513, /* addi a0, a0, 1: the join */
      0x00008067, /* ret */
  };
  assert_int_equal(reconv_of_first_branch(call, 5), SG_ADDR_CODE + 12);
  static const uint32_t tail[] = {
      0x00050663, /* beq a0, zero, +12 */
      0x00000317, /* auipc t1, 0 */
      0x00030067, /* jr t1: a tail call, the path never comes back */
      0x00150513, /* addi a0, a0, 1 */
      0x00008067, /* ret */
  };
  assert_int_equal(reconv_of_first_branch(tail, 5), SG_RECONV_EXIT);
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
      cmocka_unit_test(test_bad_edge),      cmocka_unit_test(test_call_in_branch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
