/* SPDX-License-Identifier: MIT */
/* sg_program_load never trusts its input: every truncation of a real
 * binary and single-byte corruptions at every offset give SG_EBINARY (or
 * SG_OK for harmless bytes), never a crash; the untouched binary loads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <elf.h>
#include <stdbool.h>
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

/* A section of a binary (layout: compiler/sg_binary.c) and its size. */
static uint8_t *section_of(uint8_t *bin, const char *name, size_t *size)
{
  Elf64_Ehdr eh;
  Elf64_Shdr sh, names;
  memcpy(&eh, bin, sizeof eh);
  memcpy(&names, bin + eh.e_shoff + eh.e_shstrndx * sizeof sh, sizeof sh);
  for (int i = 0; i < eh.e_shnum; i++) {
    memcpy(&sh, bin + eh.e_shoff + i * sizeof sh, sizeof sh);
    if (!strcmp((char *)bin + names.sh_offset + sh.sh_name, name)) {
      if (size)
        *size = sh.sh_size;
      return bin + sh.sh_offset;
    }
  }
  fail_msg("no %s", name);
  return NULL;
}

static uint8_t *meta_of(uint8_t *bin) { return section_of(bin, ".sg.meta", NULL); }

/* Every line with code is found, in input.cl, and quoted from the source
 * the binary carries. */
static void test_lines(void **state)
{
  (void)state;
  struct sg_program_image *img = NULL;
  char err[256];
  assert_int_equal(sg_program_load(res.binary, res.binary_size, &img, err, sizeof err), SG_OK);
  assert_string_equal(img->load_warning, "");
  bool seen[8] = {false};
  for (uint64_t pc = img->ro_base; pc < img->ro_base + img->ro_size; pc += 4) {
    struct sg_source_loc loc;
    if (!sg_program_locate(img, pc, &loc))
      continue;
    assert_string_equal(loc.file, "input.cl");
    assert_true(loc.line >= 1 && loc.line <= 7);
    assert_non_null(loc.text);
    seen[loc.line] = true;
    if (loc.line == 7)
      assert_memory_equal(loc.text, "__kernel void g(__global int *a) { a[0] = tab[a[1] & 3]; }",
                          loc.text_len);
  }
  assert_true(seen[4] && seen[7]);
  sg_program_image_free(img);
}

/* Damaged line tables or embedded source: the binary loads without them,
 * and says why. */
static void test_damaged_lines(void **state)
{
  (void)state;
  static const char *const damage[] = {".debug_line", ".sg.source", ".debug_info"};
  for (size_t d = 0; d < sizeof damage / sizeof damage[0]; d++) {
    uint8_t *copy = malloc(res.binary_size);
    assert_non_null(copy);
    memcpy(copy, res.binary, res.binary_size);
    size_t size;
    uint8_t *s = section_of(copy, damage[d], &size);
    memset(s, 0xff, size);
    struct sg_program_image *img = NULL;
    char err[256];
    assert_int_equal(sg_program_load(copy, res.binary_size, &img, err, sizeof err), SG_OK);
    if (!strstr(img->load_warning, "ignored"))
      fail_msg("%s damaged: warning '%s'", damage[d], img->load_warning);
    struct sg_source_loc loc;
    bool found = sg_program_locate(img, img->kernels[0].entry_pc + 8, &loc);
    if (d == 1) /* lines without the source: no quote */
      assert_true(!found || !loc.text);
    else
      assert_false(found);
    sg_program_image_free(img);
    free(copy);
  }
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

/* Every metadata field is checked against what the runtime relies on: a
 * binary that passes the loader cannot make the runtime divide by zero,
 * overflow or index out of bounds. Offsets: kernel records of 72 bytes
 * after the 32-byte header (k first, then g), argument records of 40. */
static void test_metadata_fields(void **state)
{
  (void)state;
  enum { HDR = 32, KREC = 72, AREC = 48, NK = 2 };
  uint8_t *copy = malloc(res.binary_size);
  assert_non_null(copy);
  memcpy(copy, res.binary, res.binary_size); /* meta_of reads the section table */
  uint8_t *m = meta_of(copy);
  size_t moff = (size_t)(m - copy);
  const size_t k0 = moff + HDR, k1 = k0 + KREC, a0 = moff + HDR + NK * KREC;
  struct {
    const char *what;
    size_t at;
    uint32_t value; /* UINT32_MAX - 1: copy kernel 0's name offset */
  } cases[] = {
      {"reqd (1,0,0)", k0 + 24, 0},
      {"reqd product past 32 bits", k0 + 24, 0x80000000u},
      {"hint (5,0,0)", k1 + 32, 5},
      {"duplicate kernel name", k1, UINT32_MAX - 1},
      {"private size past the stack window", k0 + 44, 0xfffffff0u},
      {"unknown OpenCL C version", moff + 8, 150},
      {"pointer argument of 4 bytes", a0 + 20, 4},
      {"pointer argument misaligned", a0 + 24, 4},
      {"global pointer declared __local", a0 + 8, SG_ARG_LOCAL},
      {"value argument as a pointer kind", a0 + 3 * AREC + 8, SG_ARG_GLOBAL},
      {"argument past the block", a0 + 3 * AREC + 24, 0xfffffff0u},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    memcpy(copy, res.binary, res.binary_size);
    if (cases[i].value == UINT32_MAX - 1)
      put32(copy + cases[i].at, get32(copy + k0));
    else
      put32(copy + cases[i].at, cases[i].value);
    if (try_load(copy, res.binary_size) != SG_EBINARY)
      fail_msg("accepted: %s", cases[i].what);
  }
  free(copy);
}

/* The device's limits: a reqd_work_group_size within them passes, one
 * over them in any dimension or in total is named. */
static void test_device_limits(void **state)
{
  (void)state;
  struct sg_program_image *img;
  char err[256];
  assert_int_equal(sg_program_load(res.binary, res.binary_size, &img, err, sizeof err), SG_OK);
  struct sg_device_limits ok = {256, {256, 256, 256}}, small = {2, {256, 256, 256}},
                          narrow = {256, {3, 256, 256}};
  assert_int_equal(sg_program_check_device(img, &ok, err, sizeof err), SG_OK);
  assert_int_equal(sg_program_check_device(img, &small, err, sizeof err), SG_EBINARY);
  assert_non_null(strstr(err, "kernel k: reqd_work_group_size(4,1,1)"));
  assert_int_equal(sg_program_check_device(img, &narrow, err, sizeof err), SG_EBINARY);
  sg_program_image_free(img);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_intact),
      cmocka_unit_test(test_truncation),
      cmocka_unit_test(test_corruption),
      cmocka_unit_test(test_metadata_fields),
      cmocka_unit_test(test_lines),
      cmocka_unit_test(test_damaged_lines),
      cmocka_unit_test(test_device_limits),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
