/* SPDX-License-Identifier: MIT */
/* API tests for program objects (DESIGN.md "Tests"): creation from source and
 * binary, build/compile/link, Get*Info, each entry's success path and the
 * spec's error codes, through the ICD loader. */
#include "sg_api_fixture.h"

static const char *two_kernels =
    "__kernel void twice(__global int *a) { size_t i = get_global_id(0); a[i] = 2 * a[i]; }\n"
    "__kernel void plus(__global int *a, int v) { a[get_global_id(0)] += v; }\n";

static void test_create_with_source(void **state) {
  struct fx *f = *state;
  cl_int err;
  const char *parts[] = {"__kernel void k(__global int *a)XXXX", " { a[0] = 1; }"};
  const size_t lengths[] = {32, 0}; /* first cut short, second NUL-terminated */
  cl_program p = clCreateProgramWithSource(f->ctx, 2, parts, lengths, &err);
  assert_int_equal(err, CL_SUCCESS);
  char src[128];
  size_t n = 0;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof src, src, &n), CL_SUCCESS);
  assert_string_equal(src, "__kernel void k(__global int *a) { a[0] = 1; }");
  assert_int_equal(n, strlen(src) + 1);
  clReleaseProgram(p);

  const char *null_entry[] = {"x", NULL};
  assert_null(clCreateProgramWithSource(f->ctx, 0, parts, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithSource(f->ctx, 1, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithSource(f->ctx, 2, null_entry, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithSource((cl_context)f->device, 1, parts, NULL, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
}

static void test_build_and_info(void **state) {
  struct fx *f = *state;
  cl_int err;
  cl_program p = clCreateProgramWithSource(f->ctx, 1, &two_kernels, NULL, &err);
  size_t nk;
  char names[64];
  cl_build_status st;
  cl_program_binary_type bt;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL),
                   CL_INVALID_PROGRAM_EXECUTABLE);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
                   CL_INVALID_PROGRAM_EXECUTABLE);
  assert_int_equal(
      clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL),
      CL_SUCCESS);
  assert_int_equal(st, CL_BUILD_NONE);

  assert_int_equal(clBuildProgram(p, 1, &f->device, "-DUNUSED=1", NULL, NULL), CL_SUCCESS);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL), CL_SUCCESS);
  assert_int_equal(nk, 2);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
                   CL_SUCCESS);
  assert_true(strcmp(names, "twice;plus") == 0 || strcmp(names, "plus;twice") == 0);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 3, names, NULL), CL_INVALID_VALUE);
  assert_int_equal(
      clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL),
      CL_SUCCESS);
  assert_int_equal(st, CL_BUILD_SUCCESS);
  assert_int_equal(
      clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL),
      CL_SUCCESS);
  assert_int_equal(bt, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  char opts[64];
  assert_int_equal(
      clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts, NULL),
      CL_SUCCESS);
  assert_string_equal(opts, "-DUNUSED=1");

  cl_uint u;
  cl_context c;
  cl_device_id d;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof u, &u, NULL), CL_SUCCESS);
  assert_int_equal(u, 1);
  assert_int_equal(clRetainProgram(p), CL_SUCCESS);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof u, &u, NULL), CL_SUCCESS);
  assert_int_equal(u, 2);
  assert_int_equal(clReleaseProgram(p), CL_SUCCESS);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
  assert_ptr_equal(c, f->ctx);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof u, &u, NULL), CL_SUCCESS);
  assert_int_equal(u, 1);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof d, &d, NULL), CL_SUCCESS);
  assert_ptr_equal(d, f->device);
  size_t il_size = 99;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &il_size), CL_SUCCESS);
  assert_int_equal(il_size, 0);
  cl_bool ctors = CL_TRUE;
  assert_int_equal(
      clGetProgramInfo(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof ctors, &ctors, NULL),
      CL_SUCCESS);
  assert_int_equal(ctors, CL_FALSE);
  assert_int_equal(clGetProgramInfo(p, 0x7fff, sizeof u, &u, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetProgramInfo((cl_program)f->ctx, CL_PROGRAM_NUM_DEVICES, sizeof u, &u, NULL),
                   CL_INVALID_PROGRAM);
  assert_int_equal(
      clGetProgramBuildInfo(p, (cl_device_id)f->ctx, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL),
      CL_INVALID_DEVICE);
  assert_int_equal(clGetProgramBuildInfo(p, f->device, 0x7fff, sizeof st, &st, NULL),
                   CL_INVALID_VALUE);
  clReleaseProgram(p);
  assert_int_equal(clRetainProgram(NULL), CL_INVALID_PROGRAM);
  assert_int_equal(clReleaseProgram(NULL), CL_INVALID_PROGRAM);
}

/* True when log holds "<line>:<column>" right after a ':' (file:line:col). */
static int log_has_position(const char *log, int line) {
  char pat[32];
  snprintf(pat, sizeof pat, ":%d:", line);
  for (const char *s = strstr(log, pat); s; s = strstr(s + 1, pat))
    if (s[strlen(pat)] >= '0' && s[strlen(pat)] <= '9')
      return 1;
  return 0;
}

static int notified;
static void CL_CALLBACK on_built(cl_program p, void *user) {
  cl_build_status st = CL_BUILD_IN_PROGRESS;
  clGetProgramBuildInfo(p, *(cl_device_id *)user, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL);
  notified = st == CL_BUILD_ERROR ? 2 : 1;
}

static void test_build_failure(void **state) {
  struct fx *f = *state;
  cl_int err;
  const char *bad = "__kernel void k(__global int *a)\n{\n  a[0] = undeclared_name;\n}\n";
  cl_program p = clCreateProgramWithSource(f->ctx, 1, &bad, NULL, &err);
  notified = 0;
  assert_int_equal(clBuildProgram(p, 0, NULL, NULL, on_built, &f->device),
                   CL_BUILD_PROGRAM_FAILURE);
  assert_int_equal(notified, 2);
  cl_build_status st;
  assert_int_equal(
      clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL),
      CL_SUCCESS);
  assert_int_equal(st, CL_BUILD_ERROR);
  size_t n = 0;
  assert_int_equal(clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n),
                   CL_SUCCESS);
  char *log = malloc(n);
  assert_int_equal(clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_LOG, n, log, NULL),
                   CL_SUCCESS);
  assert_true(log_has_position(log, 3));
  assert_non_null(strstr(log, "undeclared_name"));
  free(log);
  cl_kernel k = clCreateKernel(p, "k", &err);
  assert_null(k);
  assert_int_equal(err, CL_INVALID_PROGRAM_EXECUTABLE);

  /* Options the compiler does not know are the caller's error. */
  assert_int_equal(clBuildProgram(p, 0, NULL, "-cl-no-such-option", NULL, NULL),
                   CL_INVALID_BUILD_OPTIONS);
  clReleaseProgram(p);
}

static void test_build_arguments(void **state) {
  struct fx *f = *state;
  cl_int err;
  cl_program p = clCreateProgramWithSource(f->ctx, 1, &two_kernels, NULL, &err);
  int user = 0;
  cl_device_id wrong = (cl_device_id)f->ctx;
  assert_int_equal(clBuildProgram(NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
  assert_int_equal(clBuildProgram(p, 1, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clBuildProgram(p, 0, &f->device, NULL, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, &user), CL_INVALID_VALUE);
  assert_int_equal(clBuildProgram(p, 1, &wrong, NULL, NULL, NULL), CL_INVALID_DEVICE);

  notified = 0;
  assert_int_equal(clBuildProgram(p, 0, NULL, NULL, on_built, &f->device), CL_SUCCESS);
  assert_int_equal(notified, 1);
  /* A kernel attached blocks rebuilding; releasing it unblocks. */
  cl_kernel k = fx_kernel(p, "twice");
  assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
  clReleaseKernel(k);
  assert_int_equal(clBuildProgram(p, 0, NULL, "-cl-std=CL2.0", NULL, NULL), CL_SUCCESS);
  clReleaseProgram(p);
}

/* Runs twice() over 1..n and checks a[i] == 2 * (i + 1). */
static void run_twice(struct fx *f, cl_program p) {
  enum { N = 100 };
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = i + 1;
  cl_mem m = fx_buffer(f, sizeof a, a);
  cl_kernel k = fx_kernel(p, "twice");
  size_t g = N;
  fx_arg(k, 0, sizeof m, &m);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  fx_read(f, m, sizeof a, a);
  for (int i = 0; i < N; i++)
    assert_int_equal(a[i], 2 * (i + 1));
  clReleaseKernel(k);
  clReleaseMemObject(m);
}

static unsigned char *get_binary(struct fx *f, cl_program p, size_t *size) {
  (void)f;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL),
                   CL_SUCCESS);
  assert_true(*size > 0);
  unsigned char *bin = malloc(*size);
  unsigned char *ptrs[1] = {bin};
  size_t ret = 0;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptrs, ptrs, &ret), CL_SUCCESS);
  assert_int_equal(ret, sizeof ptrs);
  return bin;
}

static void test_binary_round_trip(void **state) {
  struct fx *f = *state;
  cl_int err, status = 1;
  cl_program src = fx_build(f, two_kernels, NULL);
  run_twice(f, src);
  size_t size;
  unsigned char *bin = get_binary(f, src, &size);
  const unsigned char *bins[1] = {bin};
  cl_program p = clCreateProgramWithBinary(f->ctx, 1, &f->device, &size, bins, &status, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(status, CL_SUCCESS);
  size_t nk;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL),
                   CL_INVALID_PROGRAM_EXECUTABLE);
  char src_text[8] = "x";
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof src_text, src_text, NULL),
                   CL_SUCCESS);
  assert_string_equal(src_text, "");
  assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL), CL_SUCCESS);
  assert_int_equal(nk, 2);
  run_twice(f, p);
  /* The binary of a program from a binary is the same binary. */
  size_t size2;
  unsigned char *bin2 = get_binary(f, p, &size2);
  assert_int_equal(size2, size);
  assert_memory_equal(bin2, bin, size);
  free(bin2);
  clReleaseProgram(p);

  /* Malformed binaries: garbage, truncated, corrupted header. */
  unsigned char junk[256];
  for (size_t i = 0; i < sizeof junk; i++)
    junk[i] = (unsigned char)(i * 37 + 11);
  size_t lens[3] = {sizeof junk, size / 2, size};
  unsigned char *corrupt = malloc(size);
  memcpy(corrupt, bin, size);
  memset(corrupt + 16, 0xff, 48 < size - 16 ? 48 : size - 16); /* ELF header fields */
  const unsigned char *bad[3] = {junk, bin, corrupt};
  for (int i = 0; i < 3; i++) {
    status = 1;
    assert_null(clCreateProgramWithBinary(f->ctx, 1, &f->device, &lens[i], &bad[i], &status, &err));
    assert_int_equal(err, CL_INVALID_BINARY);
    assert_int_equal(status, CL_INVALID_BINARY);
  }
  free(corrupt);
  size_t zero = 0;
  assert_null(clCreateProgramWithBinary(f->ctx, 1, &f->device, &zero, bins, &status, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_int_equal(status, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithBinary(f->ctx, 0, NULL, &size, bins, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  cl_device_id wrong = (cl_device_id)f->ctx;
  assert_null(clCreateProgramWithBinary(f->ctx, 1, &wrong, &size, bins, NULL, &err));
  assert_int_equal(err, CL_INVALID_DEVICE);
  assert_null(clCreateProgramWithBinary(f->ctx, 1, &f->device, NULL, bins, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithBinary(NULL, 1, &f->device, &size, bins, NULL, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
  free(bin);
  clReleaseProgram(src);
}

static void test_unsupported_creation(void **state) {
  struct fx *f = *state;
  cl_int err;
  static const unsigned char spirv[20] = {0x03, 0x02, 0x23, 0x07};
  assert_null(clCreateProgramWithIL(f->ctx, spirv, sizeof spirv, &err));
  assert_int_equal(err, CL_INVALID_OPERATION);
  assert_null(clCreateProgramWithIL(f->ctx, NULL, 0, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithIL(NULL, spirv, sizeof spirv, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
  assert_null(clCreateProgramWithBuiltInKernels(f->ctx, 1, &f->device, "sg_copy", &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateProgramWithBuiltInKernels(f->ctx, 0, NULL, "sg_copy", &err));
  assert_int_equal(err, CL_INVALID_VALUE);

  cl_program p = clCreateProgramWithSource(f->ctx, 1, &two_kernels, NULL, &err);
  assert_int_equal(clSetProgramSpecializationConstant(p, 0, 4, &err), CL_INVALID_OPERATION);
  assert_int_equal(clSetProgramReleaseCallback(p, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clSetProgramReleaseCallback(p, on_built, NULL), CL_INVALID_OPERATION);
  assert_int_equal(clUnloadPlatformCompiler(f->platform), CL_SUCCESS);
  clReleaseProgram(p);
}

static void test_compile_and_link(void **state) {
  struct fx *f = *state;
  cl_int err;
  const char *hdr = "#define SCALE 3\n";
  const char *src = "#include \"scale.h\"\n"
                    "__kernel void twice(__global int *a) { a[get_global_id(0)] *= SCALE - 1; }\n";
  cl_program h = clCreateProgramWithSource(f->ctx, 1, &hdr, NULL, &err);
  cl_program obj = clCreateProgramWithSource(f->ctx, 1, &src, NULL, &err);
  const char *names[] = {"scale.h"};
  cl_program objs[2] = {obj, obj};

  /* Linking needs a compiled object. */
  assert_null(clLinkProgram(f->ctx, 0, NULL, NULL, 1, objs, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_OPERATION);
  assert_int_equal(clCompileProgram(obj, 0, NULL, NULL, 1, &h, NULL, NULL, NULL), CL_INVALID_VALUE);
  /* Without the header the include fails: a compile failure with a log. */
  assert_int_equal(clCompileProgram(obj, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
                   CL_COMPILE_PROGRAM_FAILURE);
  assert_int_equal(clCompileProgram(obj, 0, NULL, NULL, 1, &h, names, NULL, NULL), CL_SUCCESS);
  cl_program_binary_type bt;
  assert_int_equal(
      clGetProgramBuildInfo(obj, f->device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL),
      CL_SUCCESS);
  assert_int_equal(bt, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_kernel k = clCreateKernel(obj, "twice", &err);
  assert_null(k);
  assert_int_equal(err, CL_INVALID_PROGRAM_EXECUTABLE);

  assert_null(clLinkProgram(f->ctx, 0, NULL, "-no-such-link-option", 1, objs, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_LINKER_OPTIONS);
  assert_null(clLinkProgram(f->ctx, 0, NULL, "-enable-link-options", 1, objs, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_LINKER_OPTIONS);
  assert_null(clLinkProgram(f->ctx, 0, NULL, NULL, 0, objs, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clLinkProgram(NULL, 0, NULL, NULL, 1, objs, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);

  /* One object links into an executable that runs. */
  cl_program exe =
      clLinkProgram(f->ctx, 0, NULL, "-cl-fast-relaxed-math", 1, objs, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  run_twice(f, exe);
  assert_int_equal(clBuildProgram(exe, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);

  /* Through a library too. */
  cl_program lib = clLinkProgram(f->ctx, 0, NULL, "-create-library", 1, objs, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(
      clGetProgramBuildInfo(lib, f->device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL),
      CL_SUCCESS);
  assert_int_equal(bt, CL_PROGRAM_BINARY_TYPE_LIBRARY);
  cl_program exe2 = clLinkProgram(f->ctx, 0, NULL, NULL, 1, &lib, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  run_twice(f, exe2);

  /* Several objects need separate compilation: an honest link failure. */
  cl_program multi = clLinkProgram(f->ctx, 0, NULL, NULL, 2, objs, NULL, NULL, &err);
  assert_int_equal(err, CL_LINK_PROGRAM_FAILURE);
  assert_non_null(multi);
  char log[512];
  assert_int_equal(
      clGetProgramBuildInfo(multi, f->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
      CL_SUCCESS);
  assert_non_null(strstr(log, "separate compilation"));
  clReleaseProgram(multi);
  clReleaseProgram(exe2);
  clReleaseProgram(lib);
  clReleaseProgram(exe);
  clReleaseProgram(obj);
  clReleaseProgram(h);
}

static void test_global_variables(void **state) {
  struct fx *f = *state;
  const char *src =
      "__global int table[64];\n"
      "__kernel void k(__global int *a) { table[a[0] & 63] += a[1]; a[2] = table[a[3] & 63]; }\n";
  cl_program p = fx_build(f, src, "-cl-std=CL2.0");
  size_t total = 0;
  assert_int_equal(clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                         sizeof total, &total, NULL),
                   CL_SUCCESS);
  assert_true(total >= 64 * sizeof(int));
  clReleaseProgram(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_create_with_source), cmocka_unit_test(test_build_and_info),
      cmocka_unit_test(test_build_failure),      cmocka_unit_test(test_build_arguments),
      cmocka_unit_test(test_binary_round_trip),  cmocka_unit_test(test_unsupported_creation),
      cmocka_unit_test(test_compile_and_link),   cmocka_unit_test(test_global_variables),
  };
  return cmocka_run_group_tests(tests, fx_setup, fx_teardown);
}
