/* SPDX-License-Identifier: MIT */
/* API tests for program objects (DESIGN.md "Tests"): creation from source and
 * binary, build/compile/link, Get*Info, each entry's success path and the
 * spec's error codes, through the ICD loader. */
#include "sg_api_fixture.h"
#include "sg_info_table.h"

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

/* 5.8.6: every compile option of OpenCL 3.0 is taken by clBuildProgram and
 * by clCompileProgram (then linked), and the program still computes. */
static void test_every_compile_option(void **state) {
  struct fx *f = *state;
  static const char *const options[] = {
      "-DX=1", "-D X", "-I.", "-cl-single-precision-constant", "-cl-denorms-are-zero",
      "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-opt-disable", "-cl-mad-enable",
      "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
      "-cl-fast-relaxed-math", "-w", "-Werror", "-cl-std=CL1.2", "-cl-std=CL3.0",
      "-cl-kernel-arg-info", "-cl-uniform-work-group-size", "-cl-no-subgroup-ifp", "-g",
      "-cl-strict-aliasing",
  };
  for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
    cl_int err;
    cl_program p = clCreateProgramWithSource(f->ctx, 1, &two_kernels, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    err = clBuildProgram(p, 0, NULL, options[i], NULL, NULL);
    if (err != CL_SUCCESS)
      fail_msg("clBuildProgram refuses %s: %d", options[i], err);
    run_twice(f, p);
    clReleaseProgram(p);

    cl_program obj = clCreateProgramWithSource(f->ctx, 1, &two_kernels, NULL, &err);
    err = clCompileProgram(obj, 0, NULL, options[i], 0, NULL, NULL, NULL, NULL);
    if (err != CL_SUCCESS)
      fail_msg("clCompileProgram refuses %s: %d", options[i], err);
    cl_program exe = clLinkProgram(f->ctx, 0, NULL, NULL, 1, &obj, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    run_twice(f, exe);
    clReleaseProgram(exe);
    clReleaseProgram(obj);
  }
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

  /* The same object twice defines twice() twice: a link failure naming it. */
  cl_program multi = clLinkProgram(f->ctx, 0, NULL, NULL, 2, objs, NULL, NULL, &err);
  assert_int_equal(err, CL_LINK_PROGRAM_FAILURE);
  assert_non_null(multi);
  char log[512];
  assert_int_equal(
      clGetProgramBuildInfo(multi, f->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
      CL_SUCCESS);
  assert_non_null(strstr(log, "'twice'"));
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

/* ---- Separate compilation ---------------------------------------------- */

static const char *poly_hdr = "#define BIAS 7\nint poly(int x);\n";
static const char *poly_src = "#include \"poly.h\"\n"
                              "int poly(int x) { return x * x + BIAS; }\n";
static const char *apply_src = "#include \"poly.h\"\n"
                               "__kernel void apply(__global int *a, int k) {\n"
                               "  size_t i = get_global_id(0);\n"
                               "  a[i] = poly(a[i]) - k * BIAS;\n"
                               "}\n";

/* Host reference for apply(): a[i] = a[i]^2 + 7 - k * 7 over a[i] = i - 50. */
static void run_apply(struct fx *f, cl_program p) {
  enum { N = 100 };
  int a[N], k = 3;
  for (int i = 0; i < N; i++)
    a[i] = i - 50;
  cl_mem m = fx_buffer(f, sizeof a, a);
  cl_kernel kern = fx_kernel(p, "apply");
  size_t g = N;
  fx_arg(kern, 0, sizeof m, &m);
  fx_arg(kern, 1, sizeof k, &k);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, kern, 1, NULL, &g, NULL, 0, NULL, NULL),
                   CL_SUCCESS);
  fx_read(f, m, sizeof a, a);
  for (int i = 0; i < N; i++)
    assert_int_equal(a[i], (i - 50) * (i - 50) + 7 - k * 7);
  clReleaseKernel(kern);
  clReleaseMemObject(m);
}

static cl_program_binary_type binary_type(struct fx *f, cl_program p) {
  cl_program_binary_type bt = 0;
  assert_int_equal(
      clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL),
      CL_SUCCESS);
  return bt;
}

static char *build_log(struct fx *f, cl_program p) {
  size_t n = 0;
  assert_int_equal(clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n),
                   CL_SUCCESS);
  char *log = malloc(n);
  assert_int_equal(clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_LOG, n, log, NULL),
                   CL_SUCCESS);
  return log;
}

/* Compiles src with poly.h embedded; checks the callback ran and the type. */
static cl_program compile_with_header(struct fx *f, const char *src) {
  cl_int err;
  cl_program h = clCreateProgramWithSource(f->ctx, 1, &poly_hdr, NULL, &err);
  cl_program p = clCreateProgramWithSource(f->ctx, 1, &src, NULL, &err);
  const char *names[] = {"poly.h"};
  notified = 0;
  assert_int_equal(clCompileProgram(p, 0, NULL, NULL, 1, &h, names, on_built, &f->device),
                   CL_SUCCESS);
  assert_int_equal(notified, 1);
  assert_int_equal(binary_type(f, p), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  clReleaseProgram(h);
  return p;
}

static void test_link_two_objects(void **state) {
  struct fx *f = *state;
  cl_int err;
  cl_program objs[2] = {compile_with_header(f, apply_src), compile_with_header(f, poly_src)};
  notified = 0;
  cl_program exe = clLinkProgram(f->ctx, 1, &f->device, NULL, 2, objs, on_built, &f->device, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(notified, 1);
  assert_int_equal(binary_type(f, exe), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  run_apply(f, exe);
  clReleaseProgram(exe);

  /* Every link option clLinkProgram takes, in the other order. */
  cl_program swapped[2] = {objs[1], objs[0]};
  exe = clLinkProgram(f->ctx, 0, NULL,
                      "-cl-denorms-are-zero -cl-no-signed-zeros -cl-unsafe-math-optimizations "
                      "-cl-finite-math-only -cl-fast-relaxed-math -cl-no-subgroup-ifp",
                      2, swapped, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  run_apply(f, exe);
  clReleaseProgram(exe);

  /* Alone, the kernel's object misses poly(): a link failure naming it,
   * reported to the callback and in the log. */
  notified = 0;
  cl_program bad = clLinkProgram(f->ctx, 0, NULL, NULL, 1, objs, on_built, &f->device, &err);
  assert_int_equal(err, CL_LINK_PROGRAM_FAILURE);
  assert_non_null(bad);
  assert_int_equal(notified, 2);
  char *log = build_log(f, bad);
  assert_non_null(strstr(log, "poly"));
  free(log);
  assert_int_equal(binary_type(f, bad), CL_PROGRAM_BINARY_TYPE_NONE);
  cl_kernel k = clCreateKernel(bad, "apply", &err);
  assert_null(k);
  assert_int_equal(err, CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(bad);

  /* Two definitions of poly(). */
  cl_program dup[3] = {objs[0], objs[1], objs[1]};
  bad = clLinkProgram(f->ctx, 0, NULL, NULL, 3, dup, NULL, NULL, &err);
  assert_int_equal(err, CL_LINK_PROGRAM_FAILURE);
  log = build_log(f, bad);
  assert_non_null(strstr(log, "'poly'"));
  free(log);
  clReleaseProgram(bad);

  /* Bad link options: no program. */
  static const char *const bad_opts[] = {"-cl-opt-disable", "-enable-link-options", "-DX=1",
                                         "-create-library -w"};
  for (size_t i = 0; i < sizeof bad_opts / sizeof *bad_opts; i++) {
    assert_null(clLinkProgram(f->ctx, 0, NULL, bad_opts[i], 2, objs, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_LINKER_OPTIONS);
  }
  clReleaseProgram(objs[0]);
  clReleaseProgram(objs[1]);
}

static void test_link_library(void **state) {
  struct fx *f = *state;
  cl_int err;
  cl_program lib_in = compile_with_header(f, poly_src);
  cl_program obj = compile_with_header(f, apply_src);
  notified = 0;
  cl_program lib = clLinkProgram(f->ctx, 0, NULL, "-create-library -enable-link-options", 1,
                                 &lib_in, on_built, &f->device, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(notified, 1);
  assert_int_equal(binary_type(f, lib), CL_PROGRAM_BINARY_TYPE_LIBRARY);
  size_t nk;
  assert_int_equal(clGetProgramInfo(lib, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL),
                   CL_INVALID_PROGRAM_EXECUTABLE);
  cl_program inputs[2] = {lib, obj};
  cl_program exe =
      clLinkProgram(f->ctx, 0, NULL, "-cl-fast-relaxed-math", 2, inputs, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  run_apply(f, exe);
  /* An executable is not a link input. */
  cl_program again[2] = {exe, obj};
  assert_null(clLinkProgram(f->ctx, 0, NULL, NULL, 2, again, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_OPERATION);
  clReleaseProgram(exe);
  clReleaseProgram(lib);
  clReleaseProgram(obj);
  clReleaseProgram(lib_in);
}

/* Gets p's binary and makes a program of it; checks its binary type. */
static cl_program reload(struct fx *f, cl_program p, cl_program_binary_type want) {
  cl_int err, status = 1;
  size_t size;
  unsigned char *bin = get_binary(f, p, &size);
  const unsigned char *bins[1] = {bin};
  cl_program r = clCreateProgramWithBinary(f->ctx, 1, &f->device, &size, bins, &status, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(status, CL_SUCCESS);
  assert_int_equal(binary_type(f, r), want);
  free(bin);
  return r;
}

static void test_binaries_of_each_type(void **state) {
  struct fx *f = *state;
  cl_int err;
  cl_program poly = compile_with_header(f, poly_src), apply = compile_with_header(f, apply_src);
  cl_program lib = clLinkProgram(f->ctx, 0, NULL, "-create-library", 1, &poly, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);

  /* Objects and libraries from binaries link like the originals. */
  cl_program obj2 = reload(f, apply, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program lib2 = reload(f, lib, CL_PROGRAM_BINARY_TYPE_LIBRARY);
  cl_program in[2] = {obj2, lib2};
  cl_program exe = clLinkProgram(f->ctx, 0, NULL, NULL, 2, in, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  run_apply(f, exe);
  /* A compiled object's binary cannot be built; it is linked. */
  assert_int_equal(clBuildProgram(obj2, 0, NULL, NULL, NULL, NULL), CL_INVALID_BINARY);

  /* The executable's binary builds and runs. */
  cl_program exe2 = reload(f, exe, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  assert_int_equal(clBuildProgram(exe2, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
  run_apply(f, exe2);

  /* A corrupted object binary is refused. */
  size_t size;
  unsigned char *bin = get_binary(f, apply, &size);
  bin[size / 2] ^= 0x40;
  const unsigned char *bins[1] = {bin};
  cl_int status = 1;
  assert_null(clCreateProgramWithBinary(f->ctx, 1, &f->device, &size, bins, &status, &err));
  assert_int_equal(err, CL_INVALID_BINARY);
  assert_int_equal(status, CL_INVALID_BINARY);
  free(bin);
  clReleaseProgram(exe2);
  clReleaseProgram(exe);
  clReleaseProgram(lib2);
  clReleaseProgram(obj2);
  clReleaseProgram(lib);
  clReleaseProgram(apply);
  clReleaseProgram(poly);
}

static cl_int program_info(void *p, cl_uint name, size_t size, void *value, size_t *ret) {
  return clGetProgramInfo(p, name, size, value, ret);
}

static cl_device_id build_info_device; /* the device clGetProgramBuildInfo is asked about */

static cl_int build_info(void *p, cl_uint name, size_t size, void *value, size_t *ret) {
  return clGetProgramBuildInfo(p, build_info_device, name, size, value, ret);
}

/* CL_PROGRAM_BINARIES is an array of one caller-owned pointer per device:
 * its size is that of the pointers; a NULL entry is skipped; a non-NULL one
 * receives exactly BINARY_SIZES bytes, the same as a second query gives. */
static void check_binaries(cl_program p) {
  size_t size = 0, n = 0;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL),
                   CL_SUCCESS);
  assert_true(size > 0);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARIES, 0, NULL, &n), CL_SUCCESS);
  assert_int_equal(n, sizeof(unsigned char *));
  unsigned char *ptrs[2] = {NULL, (unsigned char *)1}; /* [1]: past the array, never used */
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARIES, n, ptrs, NULL), CL_SUCCESS);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARIES, n - 1, ptrs, &n), CL_INVALID_VALUE);
  enum { CANARY = 16 };
  unsigned char *a = malloc(size + CANARY), *b = malloc(size);
  assert_non_null(a);
  assert_non_null(b);
  memset(a, 0xa5, size + CANARY);
  ptrs[0] = a;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARIES, n, ptrs, &n), CL_SUCCESS);
  assert_int_equal(n, sizeof(unsigned char *));
  for (size_t i = size; i < size + CANARY; i++)
    assert_int_equal(a[i], 0xa5);
  ptrs[0] = b;
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARIES, n, ptrs, NULL), CL_SUCCESS);
  assert_memory_equal(a, b, size);
  assert_ptr_equal(ptrs[1], (unsigned char *)1);
  free(a), free(b);
}

/* 5.8.9 clGetProgramInfo and clGetProgramBuildInfo: every name of OpenCL
 * 3.0 on an executable built from source (with a program-scope variable)
 * and on one built from its binary; the build info also before any build
 * and after a failed one. */
static void test_info_table(void **state) {
  struct fx *f = *state;
  static const struct sg_info_row rows[] = {
      SG_ROW(CL_PROGRAM_REFERENCE_COUNT, cl_uint),
      SG_ROW(CL_PROGRAM_CONTEXT, cl_context),
      SG_ROW(CL_PROGRAM_NUM_DEVICES, cl_uint),
      SG_ROW(CL_PROGRAM_DEVICES, cl_device_id), /* one per device: SoftGPU has one */
      SG_ROW_STR(CL_PROGRAM_SOURCE),
      SG_ROW_ARRAY(CL_PROGRAM_IL, unsigned char),
      SG_ROW(CL_PROGRAM_BINARY_SIZES, size_t),
      SG_ROW(CL_PROGRAM_NUM_KERNELS, size_t),
      SG_ROW_STR(CL_PROGRAM_KERNEL_NAMES),
      SG_ROW(CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, cl_bool),
      SG_ROW(CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, cl_bool),
  };
  static const struct sg_info_row build_rows[] = {
      SG_ROW(CL_PROGRAM_BUILD_STATUS, cl_build_status),
      SG_ROW_STR(CL_PROGRAM_BUILD_OPTIONS),
      SG_ROW_STR(CL_PROGRAM_BUILD_LOG),
      SG_ROW(CL_PROGRAM_BINARY_TYPE, cl_program_binary_type),
      SG_ROW(CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, size_t),
  };
  static const char *with_global =
      "__global int counter[4];\n"
      "__kernel void bump(__global int *a) { a[0] = ++counter[a[1] & 3]; }\n";
  build_info_device = f->device;
  cl_int err;
  cl_program built = fx_build(f, with_global, "-cl-std=CL3.0");
  size_t size = 0;
  assert_int_equal(clGetProgramInfo(built, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL),
                   CL_SUCCESS);
  unsigned char *bin = malloc(size);
  assert_non_null(bin);
  assert_int_equal(clGetProgramInfo(built, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL),
                   CL_SUCCESS);
  const unsigned char *bins[1] = {bin};
  cl_program from_bin = clCreateProgramWithBinary(f->ctx, 1, &f->device, &size, bins, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clBuildProgram(from_bin, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
  cl_program execs[] = {built, from_bin};
  for (size_t i = 0; i < 2; i++) {
    sg_check_info_table(program_info, execs[i], rows, sizeof rows / sizeof rows[0]);
    sg_check_info_table(build_info, execs[i], build_rows, sizeof build_rows / sizeof build_rows[0]);
    check_binaries(execs[i]);
    /* No IL programs: size 0 and nothing written. */
    size_t n = 1;
    assert_int_equal(clGetProgramInfo(execs[i], CL_PROGRAM_IL, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, 0);
    /* Four ints of program scope, at least. */
    assert_int_equal(clGetProgramBuildInfo(execs[i], f->device,
                                           CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, sizeof n,
                                           &n, NULL),
                     CL_SUCCESS);
    assert_true(n >= 4 * sizeof(cl_int));
  }
  const char *bad = "__kernel void k( { }";
  cl_program unbuilt = clCreateProgramWithSource(f->ctx, 1, &two_kernels, NULL, &err);
  cl_program failed = clCreateProgramWithSource(f->ctx, 1, &bad, NULL, &err);
  assert_int_equal(clBuildProgram(failed, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  /* The last four rows need an executable: CL_INVALID_PROGRAM_EXECUTABLE. */
  const size_t any = sizeof rows / sizeof rows[0] - 4;
  cl_program not_execs[] = {unbuilt, failed};
  for (size_t i = 0; i < 2; i++) {
    sg_check_info_table(build_info, not_execs[i], build_rows,
                        sizeof build_rows / sizeof build_rows[0]);
    sg_check_info_table(program_info, not_execs[i], rows, any);
    for (size_t r = any; r < sizeof rows / sizeof rows[0]; r++) {
      size_t n;
      assert_int_equal(clGetProgramInfo(not_execs[i], rows[r].name, 0, NULL, &n),
                       CL_INVALID_PROGRAM_EXECUTABLE);
    }
  }
  free(bin);
  clReleaseProgram(failed), clReleaseProgram(unbuilt);
  clReleaseProgram(from_bin), clReleaseProgram(built);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_create_with_source),    cmocka_unit_test(test_build_and_info),
      cmocka_unit_test(test_every_compile_option),
      cmocka_unit_test(test_build_failure),         cmocka_unit_test(test_build_arguments),
      cmocka_unit_test(test_binary_round_trip),     cmocka_unit_test(test_unsupported_creation),
      cmocka_unit_test(test_compile_and_link),      cmocka_unit_test(test_global_variables),
      cmocka_unit_test(test_link_two_objects),      cmocka_unit_test(test_link_library),
      cmocka_unit_test(test_binaries_of_each_type), cmocka_unit_test(test_info_table),
  };
  return cmocka_run_group_tests(tests, fx_setup, fx_teardown);
}
