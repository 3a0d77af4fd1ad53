/* SPDX-License-Identifier: MIT */
/* sg_program_load never trusts its input: every truncation of a real
 * binary and single-byte corruptions at every offset give SG_EBINARY (or
 * SG_OK for harmless bytes), never a crash; the untouched binary loads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "sg_compiler.h"

static const char src[] =
    "typedef struct { int a; float b; } S;\n"
    "__kernel __attribute__((reqd_work_group_size(4,1,1)))\n"
    "void k(__global int *a, __local int *l, S s, int n) {\n"
    "  for (int i = 0; i < n; i++) { if (a[i] > s.a) a[i] = i; else l[i] = a[i] * 2; }\n"
    "}\n"
    "__constant int tab[4] = {1, 2, 3, 4};\n"
    "__kernel void g(__global int *a) { a[0] = tab[a[1] & 3]; }\n";

static struct sg_build_result res;

static int setup(void **state)
{
  (void)state;
  struct sg_build_request req = {.source = src, .options = "-cl-kernel-arg-info"};
  return sg_build(&req, &res) == SG_OK ? 0 : -1;
}

static int teardown(void **state)
{
  (void)state;
  sg_build_result_free(&res);
  return 0;
}

static enum sg_status try_load(const void *bin, size_t size)
{
  struct sg_program_image *img = NULL;
  char err[256];
  enum sg_status st = sg_program_load(bin, size, &img, err, sizeof err);
  assert_true(st == SG_OK || st == SG_EBINARY);
  if (st == SG_OK) {
    assert_non_null(img);
    for (uint32_t i = 0; i < img->num_kernels; i++) {
      const struct sg_kernel_info *k = &img->kernels[i];
      assert_true(k->entry_pc >= img->ro_base && k->entry_pc < img->ro_base + img->ro_size);
      for (uint32_t a = 0; a < k->num_args; a++)
        assert_true(k->args[a].offset + k->args[a].size <= k->args_size);
    }
    sg_program_image_free(img);
  } else {
    assert_null(img);
    assert_non_null(strstr(err, "invalid program binary"));
  }
  return st;
}

static void test_intact(void **state)
{
  (void)state;
  assert_int_equal(try_load(res.binary, res.binary_size), SG_OK);
  assert_int_equal(try_load(NULL, 0), SG_EBINARY);
  assert_int_equal(try_load("garbage", 7), SG_EBINARY);
}

static void test_truncation(void **state)
{
  (void)state;
  uint8_t *copy = malloc(res.binary_size);
  assert_non_null(copy);
  for (size_t len = 0; len < res.binary_size; len++) {
    /* A fresh, exactly-sized buffer so reads past the end are caught by
     * sanitizers and valgrind. */
    memcpy(copy, res.binary, len);
    uint8_t *exact = malloc(len ? len : 1);
    memcpy(exact, copy, len);
    assert_int_equal(try_load(exact, len), SG_EBINARY);
    free(exact);
  }
  free(copy);
}

static void test_corruption(void **state)
{
  (void)state;
  uint8_t *copy = malloc(res.binary_size);
  assert_non_null(copy);
  static const uint8_t values[] = {0x00, 0xff, 0x80, 0x7f, 0x01};
  size_t rejected = 0;
  for (size_t off = 0; off < res.binary_size; off++)
    for (size_t v = 0; v < sizeof values; v++) {
      memcpy(copy, res.binary, res.binary_size);
      if (copy[off] == values[v])
        continue;
      copy[off] = values[v];
      rejected += try_load(copy, res.binary_size) == SG_EBINARY;
    }
  assert_true(rejected > 0);
  free(copy);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_intact),
      cmocka_unit_test(test_truncation),
      cmocka_unit_test(test_corruption),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
