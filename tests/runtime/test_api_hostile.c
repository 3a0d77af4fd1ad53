/* SPDX-License-Identifier: MIT */
/* API tests with hostile input (DESIGN.md "Malformed binaries are rejected
 * with CL_INVALID_BINARY, never crash"): program binaries whose metadata
 * asks for impossible work-groups, sources asking for more than the device
 * has, build options of any length, damaged compiled objects. Each case gets
 * the spec's error code and the host process survives. */
#include <elf.h>

#include "sg_api_fixture.h"

static const char reqd_src[] =
    "__kernel __attribute__((reqd_work_group_size(4, 1, 1)))\n"
    "void fixed(__global int *o) { o[get_global_id(0)] = (int)get_local_size(0); }\n";

/* The program binary of src (an executable), malloc'd. */
static unsigned char *binary_of(struct fx *f, const char *src, size_t *size) {
  cl_program p = fx_build(f, src, NULL);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL),
                   CL_SUCCESS);
  unsigned char *bin = malloc(*size);
  assert_non_null(bin);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), CL_SUCCESS);
  clReleaseProgram(p);
  return bin;
}

/* The first kernel record of the binary's .sg.meta section (layout:
 * compiler/sg_binary.c): a 32-byte header, then 72-byte kernel records. */
static unsigned char *first_kernel_record(unsigned char *bin, size_t size) {
  Elf64_Ehdr eh;
  memcpy(&eh, bin, sizeof eh);
  assert_true(eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) <= size);
  Elf64_Shdr sh[64], strs;
  assert_true(eh.e_shnum <= 64);
  memcpy(sh, bin + eh.e_shoff, eh.e_shnum * sizeof(Elf64_Shdr));
  strs = sh[eh.e_shstrndx];
  for (int i = 0; i < eh.e_shnum; i++)
    if (!strcmp((const char *)bin + strs.sh_offset + sh[i].sh_name, ".sg.meta"))
      return bin + sh[i].sh_offset + 32;
  fail_msg("no .sg.meta section");
  return NULL;
}

static cl_int create_from(struct fx *f, const unsigned char *bin, size_t size, cl_program *out) {
  cl_int err, status = 1;
  *out = clCreateProgramWithBinary(f->ctx, 1, &f->device, &size, &bin, &status, &err);
  assert_int_equal(err, status);
  return err;
}

/* reqd_work_group_size and work_group_size_hint (record offsets 20 and 32)
 * with zero components, products that wrap or exceed the device: refused at
 * creation. Before the loader checked them, reqd (1,0,0) loaded and a launch
 * with a NULL local size divided by zero. */
static void test_binary_work_group_sizes(void **state) {
  struct fx *f = *state;
  size_t size;
  unsigned char *good = binary_of(f, reqd_src, &size), *bin = malloc(size);
  assert_non_null(bin);
  static const struct {
    int field; /* byte offset in the kernel record */
    uint32_t v[3];
  } cases[] = {
      {20, {1, 0, 0}},         {20, {0, 4, 1}},      {20, {65536, 65536, 1}},
      {20, {2048, 1, 1}},      {20, {1, 1, 2048}},   {20, {4294967295u, 4294967295u, 2}},
      {32, {0, 1, 1}},         {32, {65536, 65536, 65536}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    memcpy(bin, good, size);
    memcpy(first_kernel_record(bin, size) + cases[i].field, cases[i].v, sizeof cases[i].v);
    cl_program p = NULL;
    cl_int err = create_from(f, bin, size, &p);
    if (err == CL_SUCCESS) {
      /* What used to happen: build, launch with a NULL local size. */
      cl_int e2;
      assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
      cl_kernel k = clCreateKernel(p, "fixed", &e2);
      cl_mem o = clCreateBuffer(f->ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &e2);
      clSetKernelArg(k, 0, sizeof o, &o);
      size_t g = 64;
      clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, NULL, 0, NULL, NULL);
      clFinish(f->q);
      clReleaseMemObject(o);
      clReleaseKernel(k);
      clReleaseProgram(p);
      fail_msg("case %zu: a binary with %s(%u,%u,%u) was accepted", i,
               cases[i].field == 20 ? "reqd_work_group_size" : "work_group_size_hint",
               cases[i].v[0], cases[i].v[1], cases[i].v[2]);
    }
    assert_int_equal(err, CL_INVALID_BINARY);
    assert_null(p);
  }
  /* The untouched binary still loads and launches with the required size. */
  cl_program p;
  assert_int_equal(create_from(f, good, size, &p), CL_SUCCESS);
  clReleaseProgram(p);
  free(bin);
  free(good);
}

/* A source asking for a work-group the device cannot run fails to build,
 * and the log names the kernel. */
static void test_source_reqd_too_large(void **state) {
  struct fx *f = *state;
  size_t max;
  assert_int_equal(clGetDeviceInfo(f->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max, &max,
                                   NULL),
                   CL_SUCCESS);
  char src[256];
  snprintf(src, sizeof src,
           "__kernel __attribute__((reqd_work_group_size(%zu, 2, 1)))\n"
           "void too_big(__global int *o) { o[0] = 1; }\n",
           max);
  const char *s = src;
  cl_int err;
  cl_program p = clCreateProgramWithSource(f->ctx, 1, &s, NULL, &err);
  assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  char log[4096] = "";
  clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  assert_non_null(strstr(log, "too_big"));
  assert_non_null(strstr(log, "reqd_work_group_size"));
  assert_null(strstr(log, "internal error"));
  clReleaseProgram(p);
}

/* Build options of any length: 1 MiB of -D options (which used to fail with
 * "Argument list too long" as clang's argv), the last one used by the
 * kernel, and one 1 MiB macro value. */
static void test_long_options(void **state) {
  struct fx *f = *state;
  enum { MIB = 1 << 20 };
  char *opts = malloc(MIB + 64);
  assert_non_null(opts);
  size_t len = 0;
  int n = 0;
  while (len < MIB)
    len += (size_t)snprintf(opts + len, 64, "-DM%d=%d ", n, n), n++;
  char src[256];
  snprintf(src, sizeof src, "__kernel void k(__global int *o) { o[0] = M%d; }\n", n - 1);
  cl_program p = fx_build(f, src, opts);
  cl_int err;
  cl_kernel k = clCreateKernel(p, "k", &err);
  cl_mem o = clCreateBuffer(f->ctx, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
  assert_int_equal(clSetKernelArg(k, 0, sizeof o, &o), CL_SUCCESS);
  assert_int_equal(clEnqueueTask(f->q, k, 0, NULL, NULL), CL_SUCCESS);
  int got = -1;
  assert_int_equal(clEnqueueReadBuffer(f->q, o, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(got, n - 1);
  clReleaseKernel(k);
  clReleaseProgram(p);
  /* One macro whose value is a 1 MiB string literal. */
  memcpy(opts, "-DBIG=\\\"", 8);
  memset(opts + 8, 'a', MIB);
  memcpy(opts + 8 + MIB, "\\\"", 3);
  p = fx_build(f, "__kernel void k(__global int *o) { o[0] = sizeof(BIG); }\n", opts);
  k = clCreateKernel(p, "k", &err);
  assert_int_equal(clSetKernelArg(k, 0, sizeof o, &o), CL_SUCCESS);
  assert_int_equal(clEnqueueTask(f->q, k, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(f->q, o, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(got, MIB + 1);
  clReleaseMemObject(o);
  clReleaseKernel(k);
  clReleaseProgram(p);
  free(opts);
}

/* Options that cannot mean anything are CL_INVALID_BUILD_OPTIONS, and the
 * log names them. */
static void test_absurd_options(void **state) {
  struct fx *f = *state;
  static const struct {
    const char *options, *named;
  } cases[] = {
      {"-D3x=1", "-D3x=1"},
      {"-D 'a b'", "-Da b"},
      {"-DX=\"1\n#error injected\"", "line break"},
      {"-cl-std=CL9.9", "-cl-std=CL9.9"},
      {"-fplugin=evil.so", "-fplugin=evil.so"},
      {"-DOK \"unterminated", "quote"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *src = "__kernel void k(__global int *o) { o[0] = 1; }\n";
    cl_int err;
    cl_program p = clCreateProgramWithSource(f->ctx, 1, &src, NULL, &err);
    assert_int_equal(clBuildProgram(p, 0, NULL, cases[i].options, NULL, NULL),
                     CL_INVALID_BUILD_OPTIONS);
    char log[4096] = "";
    clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    if (!strstr(log, cases[i].named))
      fail_msg("options %s: the log does not name %s:\n%s", cases[i].options, cases[i].named, log);
    clReleaseProgram(p);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_binary_work_group_sizes),
      cmocka_unit_test(test_source_reqd_too_large),
      cmocka_unit_test(test_long_options),
      cmocka_unit_test(test_absurd_options),
  };
  return cmocka_run_group_tests(tests, fx_setup, fx_teardown);
}
