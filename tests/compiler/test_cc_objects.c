/* SPDX-License-Identifier: MIT */
/* Separate compilation (sg_compile_object, sg_link, sg_binary_check): objects
 * calling each other, libraries, duplicate and missing symbols named in the
 * log, embedded headers, link options, and malformed inputs rejected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "sg_cc_internal.h"

#include <llvm-c/blake3.h>

static const char helper_src[] = "int helper(int x) { return 3 * x + 1; }\n";
static const char kernel_src[] = "int helper(int x);\n"
                                 "__kernel void k(__global int *a, int n) {\n"
                                 "  a[get_global_id(0)] = helper(n);\n"
                                 "}\n";

static struct sg_build_result compile_h(const char *src, const char *opts,
                                        const struct sg_header *h, uint32_t nh)
{
  struct sg_build_request req = {.source = src, .options = opts, .headers = h, .num_headers = nh};
  struct sg_build_result res;
  enum sg_status st = sg_compile_object(&req, &res);
  if (st != SG_OK)
    print_message("%s", res.log);
  assert_int_equal(st, SG_OK);
  enum sg_binary_kind kind;
  char err[256];
  assert_int_equal(sg_binary_check(res.binary, res.binary_size, &kind, err, sizeof err), SG_OK);
  assert_int_equal(kind, SG_BINARY_OBJECT);
  return res;
}

static struct sg_build_result compile(const char *src)
{
  return compile_h(src, NULL, NULL, 0);
}

static enum sg_status link2(const char *opts, const struct sg_build_result *a,
                            const struct sg_build_result *b, struct sg_build_result *out)
{
  struct sg_link_input in[2] = {{a->binary, a->binary_size}, {b ? b->binary : NULL, b ? b->binary_size : 0}};
  struct sg_link_request req = {.options = opts, .inputs = in, .num_inputs = b ? 2 : 1};
  enum sg_status st = sg_link(&req, out);
  assert_non_null(out->log);
  return st;
}

static void expect_kernel(const struct sg_build_result *exe, const char *name, uint32_t nargs)
{
  enum sg_binary_kind kind;
  char err[256];
  assert_int_equal(sg_binary_check(exe->binary, exe->binary_size, &kind, err, sizeof err), SG_OK);
  assert_int_equal(kind, SG_BINARY_EXECUTABLE);
  struct sg_program_image *img = NULL;
  assert_int_equal(sg_program_load(exe->binary, exe->binary_size, &img, err, sizeof err), SG_OK);
  const struct sg_kernel_info *k = sg_program_find_kernel(img, name);
  assert_non_null(k);
  assert_int_equal(k->num_args, nargs);
  sg_program_image_free(img);
}

static void test_two_objects(void **state)
{
  (void)state;
  struct sg_build_result a = compile(kernel_src), b = compile(helper_src), exe;
  /* Either order: the call resolves across objects. */
  assert_int_equal(link2(NULL, &a, &b, &exe), SG_OK);
  expect_kernel(&exe, "k", 2);
  sg_build_result_free(&exe);
  assert_int_equal(link2("-cl-fast-relaxed-math -cl-denorms-are-zero", &b, &a, &exe), SG_OK);
  expect_kernel(&exe, "k", 2);
  sg_build_result_free(&exe);
  /* Alone, the kernel object misses helper. */
  assert_int_equal(link2(NULL, &a, NULL, &exe), SG_ELINK);
  assert_non_null(strstr(exe.log, "helper"));
  assert_null(exe.binary);
  sg_build_result_free(&exe);
  sg_build_result_free(&a);
  sg_build_result_free(&b);
}

static void test_duplicate_symbol(void **state)
{
  (void)state;
  struct sg_build_result a = compile(helper_src), b = compile(helper_src), exe;
  assert_int_equal(link2(NULL, &a, &b, &exe), SG_ELINK);
  assert_non_null(strstr(exe.log, "'helper'"));
  assert_non_null(strstr(exe.log, "multiply defined"));
  sg_build_result_free(&exe);
  sg_build_result_free(&a);
  sg_build_result_free(&b);
}

static void test_library(void **state)
{
  (void)state;
  struct sg_build_result a = compile(kernel_src), b = compile(helper_src), lib, exe;
  assert_int_equal(link2("-create-library -enable-link-options", &b, NULL, &lib), SG_OK);
  enum sg_binary_kind kind;
  char err[256];
  assert_int_equal(sg_binary_check(lib.binary, lib.binary_size, &kind, err, sizeof err), SG_OK);
  assert_int_equal(kind, SG_BINARY_LIBRARY);
  assert_int_equal(link2("-cl-unsafe-math-optimizations", &a, &lib, &exe), SG_OK);
  expect_kernel(&exe, "k", 2);
  sg_build_result_free(&exe);
  /* A library of both objects links alone. */
  struct sg_build_result both;
  assert_int_equal(link2("-create-library", &a, &b, &both), SG_OK);
  assert_int_equal(link2(NULL, &both, NULL, &exe), SG_OK);
  expect_kernel(&exe, "k", 2);
  sg_build_result_free(&exe);
  /* An executable is not a link input. */
  assert_int_equal(link2(NULL, &both, NULL, &exe), SG_OK);
  struct sg_build_result again;
  assert_int_equal(link2(NULL, &exe, NULL, &again), SG_EBINARY);
  assert_non_null(strstr(again.log, "executable"));
  sg_build_result_free(&again);
  sg_build_result_free(&exe);
  sg_build_result_free(&both);
  sg_build_result_free(&lib);
  sg_build_result_free(&a);
  sg_build_result_free(&b);
}

static void test_headers_and_arg_names(void **state)
{
  (void)state;
  const struct sg_header h[] = {{"inc/scale.h", "#define SCALE 5\nint scale(int);\n"}};
  struct sg_build_result a = compile_h("#include \"inc/scale.h\"\n"
                                      "__kernel void s(__global int *out) { out[0] = scale(SCALE); }\n",
                                      "-cl-kernel-arg-info", h, 1);
  struct sg_build_result b = compile("int scale(int v) { return v * 2; }\n"), exe;
  assert_int_equal(link2(NULL, &a, &b, &exe), SG_OK);
  struct sg_program_image *img = NULL;
  char err[256];
  assert_int_equal(sg_program_load(exe.binary, exe.binary_size, &img, err, sizeof err), SG_OK);
  assert_string_equal(sg_program_find_kernel(img, "s")->args[0].name, "out");
  sg_program_image_free(img);
  sg_build_result_free(&exe);
  sg_build_result_free(&a);
  /* Without -cl-kernel-arg-info the name is not kept. */
  a = compile(kernel_src);
  assert_int_equal(link2(NULL, &a, &b, &exe), SG_ELINK); /* helper is missing */
  sg_build_result_free(&exe);
  struct sg_build_result c = compile(helper_src);
  assert_int_equal(link2(NULL, &a, &c, &exe), SG_OK);
  assert_int_equal(sg_program_load(exe.binary, exe.binary_size, &img, err, sizeof err), SG_OK);
  assert_string_equal(sg_program_find_kernel(img, "k")->args[0].name, "");
  sg_program_image_free(img);
  sg_build_result_free(&exe);
  sg_build_result_free(&a);
  sg_build_result_free(&b);
  sg_build_result_free(&c);

  /* A missing header is a compile error with the include named. */
  struct sg_build_request req = {.source = "#include \"nothere.h\"\n"};
  struct sg_build_result res;
  assert_int_equal(sg_compile_object(&req, &res), SG_EBUILD);
  assert_non_null(strstr(res.log, "nothere.h"));
  assert_null(res.binary);
  sg_build_result_free(&res);
  req.source = "__kernel void k(void) {}";
  req.options = "-no-such-option";
  assert_int_equal(sg_compile_object(&req, &res), SG_EOPTIONS);
  sg_build_result_free(&res);
}

/* The header (compiler/sg_cc_objects.c): the checksum at 32, the tag at
 * 64, the bitcode from 96. */
#define OBJ_HEADER 96

/* A checksum that matches the (changed) bitcode: only the tag, keyed with
 * this process's secret, still tells that it is not what was compiled. */
static void fix_checksum(uint8_t *b, size_t size)
{
  llvm_blake3_hasher h;
  llvm_blake3_hasher_init(&h);
  llvm_blake3_hasher_update(&h, b + OBJ_HEADER, size - OBJ_HEADER);
  llvm_blake3_hasher_finalize(&h, b + 32, LLVM_BLAKE3_OUT_LEN);
}

static void test_bad_options_and_inputs(void **state)
{
  (void)state;
  struct sg_build_result a = compile(helper_src), out;
  assert_int_equal(link2("-cl-opt-disable", &a, NULL, &out), SG_EOPTIONS);
  assert_non_null(strstr(out.log, "-cl-opt-disable"));
  sg_build_result_free(&out);
  assert_int_equal(link2("-enable-link-options", &a, NULL, &out), SG_EOPTIONS);
  sg_build_result_free(&out);

  /* Garbage, truncated, corrupted bitcode, bad header field: each rejected. */
  uint8_t *bad = malloc(a.binary_size);
  enum sg_binary_kind kind;
  char err[256];
  size_t cuts[] = {0, 10, 64, 96, a.binary_size - 1};
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
    assert_int_equal(sg_binary_check(a.binary, cuts[i], &kind, err, sizeof err), SG_EBINARY);
    assert_true(strlen(err) > 0);
  }
  size_t offsets[] = {0, 9, 13, 17, 21, 25, 96 + 20, a.binary_size - 3};
  for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++) {
    memcpy(bad, a.binary, a.binary_size);
    bad[offsets[i]] ^= 0x5a;
    assert_int_equal(sg_binary_check(bad, a.binary_size, &kind, err, sizeof err), SG_EBINARY);
    struct sg_build_result in = {.binary = bad, .binary_size = a.binary_size};
    assert_int_equal(link2(NULL, &in, NULL, &out), SG_EBINARY);
    assert_non_null(strstr(out.log, "input 0"));
    sg_build_result_free(&out);
  }
  /* A consistent header (checksum included) over bytes that are not bitcode. */
  memcpy(bad, a.binary, OBJ_HEADER);
  for (size_t i = OBJ_HEADER; i < a.binary_size; i++)
    bad[i] = (uint8_t)(i * 13 + 7);
  fix_checksum(bad, a.binary_size);
  assert_int_equal(sg_binary_check(bad, a.binary_size, &kind, err, sizeof err), SG_EBINARY);
  assert_non_null(strstr(err, "bitcode"));
  free(bad);
  assert_int_equal(sg_binary_check(NULL, 0, &kind, err, sizeof err), SG_EBINARY);
  assert_int_equal(kind, SG_BINARY_NONE);
  struct sg_link_request none = {0};
  assert_int_equal(sg_link(&none, &out), SG_EINVAL);
  sg_build_result_free(&out);
  sg_build_result_free(&a);
}

/* Damaged bitcode behind a consistent header: LLVM's bitcode reader
 * crashes or aborts on some of it (SIGSEGV, "LLVM ERROR: out of memory")
 * within a few hundred mutations. Each must end as SG_OK or SG_EBINARY
 * (a crash contained in the compiler worker is SG_EBINARY), in
 * sg_binary_check and in sg_link, and this process must survive. The
 * mutations are a fixed pseudo-random sequence. */
static void test_mutated_bitcode(void **state)
{
  (void)state;
  struct sg_build_result a = compile(kernel_src), b = compile(helper_src), out;
  uint8_t *bad = malloc(a.binary_size);
  assert_non_null(bad);
  uint64_t x = 0x9e3779b97f4a7c15u;
  unsigned rejected = 0, contained = 0, accepted = 0;
  enum { N = 400 };
  for (int i = 0; i < N; i++) {
    memcpy(bad, a.binary, a.binary_size);
    for (int m = 0; m < 1 + i % 4; m++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      size_t at = OBJ_HEADER + (size_t)(x % (a.binary_size - OBJ_HEADER));
      bad[at] = (uint8_t)(x >> 32);
    }
    fix_checksum(bad, a.binary_size);
    enum sg_binary_kind kind;
    char err[1024];
    enum sg_status st = sg_binary_check(bad, a.binary_size, &kind, err, sizeof err);
    assert_true(st == SG_OK || st == SG_EBINARY);
    accepted += st == SG_OK;
    rejected += st == SG_EBINARY;
    if (st == SG_EBINARY && strstr(err, "the compiler") != NULL && !contained++)
      print_message("contained: %s", err);
    if (i % 20 == 0) {
      struct sg_build_result in = {.binary = bad, .binary_size = a.binary_size};
      st = link2(NULL, &in, &b, &out);
      assert_true(st == SG_OK || st == SG_EBINARY || st == SG_ELINK || st == SG_EBUILD);
      sg_build_result_free(&out);
    }
  }
  print_message("%d mutations: %u accepted, %u rejected (%u by a contained crash)\n", N,
                accepted, rejected, contained);
  assert_true(rejected > 0);
  /* The worker that crashed was replaced: the intact objects still link. */
  assert_int_equal(link2(NULL, &a, &b, &out), SG_OK);
  sg_build_result_free(&out);
  free(bad);
  sg_build_result_free(&a);
  sg_build_result_free(&b);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_two_objects),
      cmocka_unit_test(test_duplicate_symbol),
      cmocka_unit_test(test_library),
      cmocka_unit_test(test_headers_and_arg_names),
      cmocka_unit_test(test_bad_options_and_inputs),
      cmocka_unit_test(test_mutated_bitcode),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
