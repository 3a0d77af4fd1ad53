/* SPDX-License-Identifier: MIT */
/* Tests of sim/ special function unit (DESIGN.md section 4): the helpers
 * that replace host libm functions too inexact for OpenCL's ULP table give
 * correctly rounded results on inputs where the host's are off by more,
 * the expected roots derived in exact rational arithmetic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "sg_sim_impl.h"

/* cbrt: exact cubes, signed zeros, infinities, and inputs where glibc's
 * double cbrt is off by more than 2 ulp (OpenCL's bound). */
static void test_cbrt(void **state) {
  (void)state;
  static const struct {
    double x, want;
  } cases[] = {
      {27.0, 3.0},
      {-0x1.9074417a56d6ep-22, -0x1.d7bc02d957fadp-8},
      {0x1.b9aa36d3a16dbp-2, 0x1.82d7b34af94cbp-1},
      {0x1.7cfc915afcf14p+391, 0x1.703f5fd31ed7cp+130},
      {0x1.ba74cfac19a5ap-517, 0x1.e7ae9a7ef9162p-173},
      {0x1p-1071, 0x1p-357},
      {-0.0, -0.0},
      {INFINITY, INFINITY},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    double got = sg_cbrt(cases[i].x);
    assert_true(got == cases[i].want && signbit(got) == signbit(cases[i].want));
  }
  assert_true(isnan(sg_cbrt(NAN)));
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_cbrt)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
