/* SPDX-License-Identifier: MIT */
/* SOFTGPU_DEBUG names errors with sg_error_name: every code of the Khronos
 * header's "Error Codes" section (listed from cl.h at configure time) must
 * have its own name, never CL_UNKNOWN_ERROR. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "sg_runtime.h"

static void test_every_header_code_is_named(void **state) {
  (void)state;
  static const struct {
    cl_int code;
    const char *name;
  } codes[] = {
#define SG_CODE(c) {c, #c},
#include "sg_cl_error_codes.h"
#undef SG_CODE
  };
  assert_true(sizeof codes / sizeof codes[0] > 60); /* the section was found */
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
    assert_string_equal(sg_error_name(codes[i].code), codes[i].name);
}

static void test_unknown_code(void **state) {
  (void)state;
  assert_string_equal(sg_error_name(-9999), "CL_UNKNOWN_ERROR");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_header_code_is_named),
      cmocka_unit_test(test_unknown_code),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
