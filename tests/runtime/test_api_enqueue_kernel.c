/* SPDX-License-Identifier: MIT */
/* API tests for kernel launches (DESIGN.md "Tests" and "ND-ranges of any
 * size"): every ND-range check's spec code, 1/2/3-D ranges with offsets
 * against host-computed ids, local sizes chosen for awkward global sizes,
 * partial work-groups, tasks, argument snapshots, device faults and the
 * SOFTGPU_STATS output, through the ICD loader. */
#include <unistd.h>

#include "sg_api_fixture.h"

static char stats_path[64];

static const char *src =
    "__kernel void ids(__global int *out, __global int *grp) {\n"
    "  size_t x = get_global_id(0) - get_global_offset(0);\n"
    "  size_t y = get_global_id(1) - get_global_offset(1);\n"
    "  size_t z = get_global_id(2) - get_global_offset(2);\n"
    "  size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;\n"
    "  out[i] = (int)(get_global_id(0) + 100 * get_global_id(1) + 10000 * get_global_id(2));\n"
    "  grp[i] = (int)(get_group_id(0) * get_local_size(0) + get_local_id(0)\n"
    "                 + get_global_offset(0) == get_global_id(0));\n"
    "}\n"
    /* Cannot observe its group shape: full groups with a masked tail. */
    "__kernel void count(__global int *hits, __global int *size) {\n"
    "  atomic_inc(&hits[get_global_id(1) * get_global_size(0) + get_global_id(0)]);\n"
    "  if (get_global_id(0) == 0 && get_global_id(1) == 0) {\n"
    "    size[0] = get_global_size(0); size[1] = get_global_size(1); }\n"
    "}\n"
    /* Observes it: the chosen local size must divide the global size. */
    "__kernel void count_local(__global int *hits, __global int *bad) {\n"
    "  size_t g = get_global_id(0);\n"
    "  atomic_inc(&hits[g]);\n"
    "  if (get_group_id(0) * get_local_size(0) + get_local_id(0) != g) atomic_inc(bad);\n"
    "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "}\n"
    "__kernel void fill(__global int *out, int v) { out[get_global_id(0)] = v; }\n"
    "__kernel void task(__global int *out) {\n"
    "  out[0] = get_global_size(0); out[1] = get_local_size(0); out[2] = get_work_dim(); }\n"
    "__kernel void null_store(__global int *p, __global int *other) {\n"
    "  if (get_global_id(0) == 5) p[0] = 1;\n"
    "  other[get_global_id(0) % 16] = 7;\n"
    "}\n"
    "__kernel void trap(__global int *other) {\n"
    "  if (get_global_id(0) == 5) __builtin_trap();\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed(__global int *o) {\n"
    "  o[get_global_id(0)] = get_local_size(0); }\n"
    "__kernel void big_local(__local int *l, __global int *o) { l[0] = 1; o[0] = l[0]; }\n"
    "__kernel void two_local(__local int *a, __local int *b, __global int *o) {\n"
    "  a[0] = 1; b[0] = 2; o[0] = a[0]; }\n";

/* OpenCL C 2.0: get_enqueued_local_size. */
static const char *src20 =
    "__kernel void sizes(__global int *out) {\n"
    "  size_t g = get_global_id(0);\n"
    "  out[3 * g] = get_local_size(0); out[3 * g + 1] = get_enqueued_local_size(0);\n"
    "  out[3 * g + 2] = get_num_groups(0);\n"
    "}\n";

static cl_program program(struct fx *f, const char *options) {
  return fx_build(f, src, options);
}

static void test_errors(void **state) {
  struct fx *f = *state;
  cl_program p = program(f, NULL);
  cl_kernel k = fx_kernel(p, "fill");
  cl_mem m = fx_buffer(f, 4096, NULL);
  size_t g = 64, l = 64, big = SIZE_MAX, off = 1, zero = 0, huge = 1 << 20;
  cl_int v = 1, err;
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, NULL, 0, NULL, NULL),
                   CL_INVALID_KERNEL_ARGS);
  fx_arg(k, 0, sizeof m, &m);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, NULL, 0, NULL, NULL),
                   CL_INVALID_KERNEL_ARGS);
  fx_arg(k, 1, sizeof v, &v);
  assert_int_equal(clEnqueueNDRangeKernel(NULL, k, 1, NULL, &g, NULL, 0, NULL, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, NULL, 1, NULL, &g, NULL, 0, NULL, NULL),
                   CL_INVALID_KERNEL);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 0, NULL, &g, NULL, 0, NULL, NULL),
                   CL_INVALID_WORK_DIMENSION);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 4, NULL, &g, NULL, 0, NULL, NULL),
                   CL_INVALID_WORK_DIMENSION);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, &off, &big, NULL, 0, NULL, NULL),
                   CL_INVALID_GLOBAL_OFFSET);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, &zero, 0, NULL, NULL),
                   CL_INVALID_WORK_GROUP_SIZE);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &huge, &huge, 0, NULL, NULL),
                   CL_INVALID_WORK_GROUP_SIZE);
  size_t too_many = (size_t)1 << 40, one = 1; /* 2^40 work-groups */
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &too_many, &one, 0, NULL, NULL),
                   CL_INVALID_GLOBAL_WORK_SIZE);
  size_t g2 = 66; /* OpenCL C 1.2: the local size must divide the global size */
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g2, &l, 0, NULL, NULL),
                   CL_INVALID_WORK_GROUP_SIZE);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, &l, 1, NULL, NULL),
                   CL_INVALID_EVENT_WAIT_LIST);

  /* reqd_work_group_size: only that local size, and it must divide. */
  cl_kernel fixed = fx_kernel(p, "fixed");
  fx_arg(fixed, 0, sizeof m, &m);
  size_t l8 = 8, g6 = 6;
  assert_int_equal(clEnqueueNDRangeKernel(f->q, fixed, 1, NULL, &g, &l8, 0, NULL, NULL),
                   CL_INVALID_WORK_GROUP_SIZE);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, fixed, 1, NULL, &g6, NULL, 0, NULL, NULL),
                   CL_INVALID_WORK_GROUP_SIZE);
  assert_int_equal(clEnqueueTask(f->q, fixed, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  /* NULL local: the required size is used. */
  assert_int_equal(clEnqueueNDRangeKernel(f->q, fixed, 1, NULL, &g, NULL, 0, NULL, NULL),
                   CL_SUCCESS);
  int out[64];
  fx_read(f, m, sizeof out, out);
  for (int i = 0; i < 64; i++)
    assert_int_equal(out[i], 4);

  /* More __local memory than the device has. */
  cl_ulong dev_local;
  assert_int_equal(
      clGetDeviceInfo(f->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof dev_local, &dev_local, NULL),
      CL_SUCCESS);
  cl_kernel bl = fx_kernel(p, "big_local");
  fx_arg(bl, 0, dev_local + 4, NULL);
  fx_arg(bl, 1, sizeof m, &m);
  assert_int_equal(clEnqueueTask(f->q, bl, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
  /* Sizes whose 16-byte round-up or sum wraps past 2^64 must not become a
   * small total (aliasing __local arguments): they too exceed the device. */
  cl_kernel tl = fx_kernel(p, "two_local");
  fx_arg(tl, 2, sizeof m, &m);
  const size_t sizes[][2] = {{SIZE_MAX, 16}, {(size_t)1 << 63, (size_t)1 << 63}, {16, SIZE_MAX - 7}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    fx_arg(tl, 0, sizes[i][0], NULL);
    fx_arg(tl, 1, sizes[i][1], NULL);
    cl_ulong kernel_local;
    assert_int_equal(clGetKernelWorkGroupInfo(tl, f->device, CL_KERNEL_LOCAL_MEM_SIZE,
                                              sizeof kernel_local, &kernel_local, NULL),
                     CL_SUCCESS);
    assert_true(kernel_local > dev_local);
    assert_true(kernel_local >= sizes[i][0] && kernel_local >= sizes[i][1]);
    assert_int_equal(clEnqueueTask(f->q, tl, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
  }
  clReleaseKernel(tl);

  /* 2^32 - 1 work-groups in each of three dimensions: each is allowed, the
   * product (about 2^96) is refused at enqueue. */
  size_t many[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX}, ones[3] = {1, 1, 1};
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 3, NULL, many, ones, 0, NULL, NULL),
                   CL_INVALID_GLOBAL_WORK_SIZE);

  /* A queue of another context. */
  cl_context ctx2 = clCreateContext(NULL, 1, &f->device, NULL, NULL, &err);
  cl_command_queue q2 = clCreateCommandQueueWithProperties(ctx2, f->device, NULL, &err);
  assert_int_equal(clEnqueueNDRangeKernel(q2, k, 1, NULL, &g, NULL, 0, NULL, NULL),
                   CL_INVALID_CONTEXT);
  clReleaseCommandQueue(q2);
  clReleaseContext(ctx2);
  clReleaseKernel(bl);
  clReleaseKernel(fixed);
  clReleaseKernel(k);
  clReleaseMemObject(m);
  clReleaseProgram(p);
}

/* Runs ids over global (with offset and local, either may be NULL) and
 * checks every element against the host's ids. */
static void check_ids(struct fx *f, cl_kernel k, cl_uint dim, const size_t *off, const size_t *gws,
                      const size_t *lws) {
  size_t g[3] = {1, 1, 1}, o[3] = {0, 0, 0}, n = 1;
  for (cl_uint d = 0; d < dim; d++) {
    g[d] = gws[d];
    o[d] = off ? off[d] : 0;
    n *= g[d];
  }
  cl_mem mo = fx_buffer(f, n * sizeof(int), NULL), mg = fx_buffer(f, n * sizeof(int), NULL);
  fx_arg(k, 0, sizeof mo, &mo);
  fx_arg(k, 1, sizeof mg, &mg);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, dim, off, gws, lws, 0, NULL, NULL), CL_SUCCESS);
  int *out = malloc(n * sizeof(int)), *grp = malloc(n * sizeof(int));
  fx_read(f, mo, n * sizeof(int), out);
  fx_read(f, mg, n * sizeof(int), grp);
  for (size_t z = 0; z < g[2]; z++)
    for (size_t y = 0; y < g[1]; y++)
      for (size_t x = 0; x < g[0]; x++) {
        size_t i = (z * g[1] + y) * g[0] + x;
        assert_int_equal(out[i], (int)((x + o[0]) + 100 * (y + o[1]) + 10000 * (z + o[2])));
        assert_int_equal(grp[i], 1);
      }
  free(out);
  free(grp);
  clReleaseMemObject(mo);
  clReleaseMemObject(mg);
}

static void test_ndrange_dims(void **state) {
  struct fx *f = *state;
  cl_program p = program(f, NULL);
  cl_kernel k = fx_kernel(p, "ids");
  const size_t g1[] = {96}, o1[] = {5}, l1[] = {32};
  const size_t g2[] = {12, 10}, o2[] = {3, 7}, l2[] = {4, 5};
  const size_t g3[] = {6, 4, 5}, o3[] = {1, 2, 3}, l3[] = {3, 2, 5};
  check_ids(f, k, 1, o1, g1, l1);
  check_ids(f, k, 1, NULL, g1, NULL);
  check_ids(f, k, 2, o2, g2, l2);
  check_ids(f, k, 2, o2, g2, NULL);
  check_ids(f, k, 3, o3, g3, l3);
  check_ids(f, k, 3, NULL, g3, NULL);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* NULL local and prime global sizes: every work-item runs exactly once. */
static void test_null_local_prime(void **state) {
  struct fx *f = *state;
  cl_program p = program(f, NULL);
  const size_t shapes[][2] = {{1009, 1}, {37, 41}, {1, 1}, {4099, 3}};
  for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
    size_t n = shapes[s][0] * shapes[s][1];
    int *hits = calloc(n, sizeof(int)), size[2] = {0, 0};
    cl_mem mh = fx_buffer(f, n * sizeof(int), hits), ms = fx_buffer(f, sizeof size, size);
    cl_kernel k = fx_kernel(p, "count");
    fx_arg(k, 0, sizeof mh, &mh);
    fx_arg(k, 1, sizeof ms, &ms);
    assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 2, NULL, shapes[s], NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    fx_read(f, mh, n * sizeof(int), hits);
    fx_read(f, ms, sizeof size, size);
    for (size_t i = 0; i < n; i++)
      assert_int_equal(hits[i], 1);
    assert_int_equal(size[0], shapes[s][0]);
    assert_int_equal(size[1], shapes[s][1]);
    clReleaseKernel(k);
    clReleaseMemObject(mh);

    /* A kernel that sees its groups: 1.2 rules, groups divide the range. */
    size_t g = shapes[s][0];
    int bad = 0;
    memset(hits, 0, n * sizeof(int));
    mh = fx_buffer(f, g * sizeof(int), hits);
    cl_mem mb = fx_buffer(f, sizeof bad, &bad);
    k = fx_kernel(p, "count_local");
    fx_arg(k, 0, sizeof mh, &mh);
    fx_arg(k, 1, sizeof mb, &mb);
    assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
    fx_read(f, mh, g * sizeof(int), hits);
    fx_read(f, mb, sizeof bad, &bad);
    for (size_t i = 0; i < g; i++)
      assert_int_equal(hits[i], 1);
    assert_int_equal(bad, 0);
    clReleaseKernel(k);
    clReleaseMemObject(mh);
    clReleaseMemObject(mb);
    clReleaseMemObject(ms);
    free(hits);
  }
  clReleaseProgram(p);
}

/* OpenCL C 2.0: the last group is partial. */
static void test_partial_groups(void **state) {
  struct fx *f = *state;
  cl_program p = fx_build(f, src20, "-cl-std=CL2.0");
  cl_kernel k = fx_kernel(p, "sizes");
  enum { G = 100, L = 32 };
  int out[3 * G];
  cl_mem m = fx_buffer(f, sizeof out, NULL);
  size_t g = G, l = L;
  fx_arg(k, 0, sizeof m, &m);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  fx_read(f, m, sizeof out, out);
  for (int i = 0; i < G; i++) {
    assert_int_equal(out[3 * i], i < G / L * L ? L : G % L);
    assert_int_equal(out[3 * i + 1], L);
    assert_int_equal(out[3 * i + 2], (G + L - 1) / L);
  }
  /* NULL local: any size SoftGPU picks is consistent, the last group
   * holding the remainder. */
  enum { G2 = 1009 };
  int *o2 = malloc(3 * G2 * sizeof(int));
  cl_mem m2 = fx_buffer(f, 3 * G2 * sizeof(int), NULL);
  size_t g2 = G2;
  fx_arg(k, 0, sizeof m2, &m2);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g2, NULL, 0, NULL, NULL), CL_SUCCESS);
  fx_read(f, m2, 3 * G2 * sizeof(int), o2);
  int enq = o2[1], ng = o2[2];
  assert_true(enq > 0 && ng == (G2 + enq - 1) / enq);
  for (int i = 0; i < G2; i++) {
    assert_int_equal(o2[3 * i + 1], enq);
    assert_int_equal(o2[3 * i + 2], ng);
    assert_int_equal(o2[3 * i], i < (ng - 1) * enq ? enq : G2 - (ng - 1) * enq);
  }
  free(o2);
  clReleaseMemObject(m2);
  clReleaseKernel(k);
  clReleaseProgram(p);
  /* -cl-uniform-work-group-size brings back the 1.2 rule. */
  p = fx_build(f, src20, "-cl-std=CL2.0 -cl-uniform-work-group-size");
  k = fx_kernel(p, "sizes");
  fx_arg(k, 0, sizeof m, &m);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, &l, 0, NULL, NULL),
                   CL_INVALID_WORK_GROUP_SIZE);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseMemObject(m);
}

static void test_task_and_empty(void **state) {
  struct fx *f = *state;
  cl_program p = program(f, NULL);
  cl_kernel k = fx_kernel(p, "task");
  int out[3] = {0, 0, 0};
  cl_mem m = fx_buffer(f, sizeof out, out);
  cl_event ev;
  fx_arg(k, 0, sizeof m, &m);
  assert_int_equal(clEnqueueTask(f->q, k, 0, NULL, &ev), CL_SUCCESS);
  cl_command_type type;
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
  assert_int_equal(type, CL_COMMAND_TASK);
  clReleaseEvent(ev);
  fx_read(f, m, sizeof out, out);
  assert_int_equal(out[0], 1);
  assert_int_equal(out[1], 1);
  assert_int_equal(out[2], 1);
  assert_int_equal(clEnqueueTask(NULL, k, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);

  /* A zero global size (OpenCL 2.1+) completes without running anything. */
  cl_kernel fill = fx_kernel(p, "fill");
  cl_int v = 9, status = 1;
  size_t g[2] = {16, 0};
  fx_arg(fill, 0, sizeof m, &m);
  fx_arg(fill, 1, sizeof v, &v);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, fill, 2, NULL, g, NULL, 0, NULL, &ev), CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
  assert_int_equal(
      clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
      CL_SUCCESS);
  assert_int_equal(status, CL_COMPLETE);
  clReleaseEvent(ev);
  fx_read(f, m, sizeof out, out);
  assert_int_equal(out[0], 1);

  /* So does a NULL global_work_size (OpenCL 2.1+), once its wait list is
   * done: it waits for a user event like any command. */
  cl_int err;
  cl_event user = clCreateUserEvent(f->ctx, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, fill, 1, NULL, NULL, NULL, 1, &user, &ev),
                   CL_SUCCESS);
  assert_int_equal(
      clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
      CL_SUCCESS);
  assert_true(status > CL_COMPLETE);
  assert_int_equal(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
  assert_int_equal(
      clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
      CL_SUCCESS);
  assert_int_equal(status, CL_COMPLETE);
  clReleaseEvent(ev);
  clReleaseEvent(user);
  fx_read(f, m, sizeof out, out);
  assert_int_equal(out[0], 1);
  /* The other arguments are still checked. */
  assert_int_equal(clEnqueueNDRangeKernel(f->q, fill, 0, NULL, NULL, NULL, 0, NULL, NULL),
                   CL_INVALID_WORK_DIMENSION);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, fill, 1, NULL, NULL, NULL, 1, NULL, NULL),
                   CL_INVALID_EVENT_WAIT_LIST);
  clReleaseKernel(fill);
  clReleaseKernel(k);
  clReleaseMemObject(m);
  clReleaseProgram(p);
}

/* clSetKernelArg after the enqueue does not change what the launch sees. */
static void test_arg_snapshot(void **state) {
  struct fx *f = *state;
  cl_int err;
  cl_program p = program(f, NULL);
  cl_kernel k = fx_kernel(p, "fill");
  int a[8] = {0}, b[8] = {0};
  cl_mem ma = fx_buffer(f, sizeof a, a), mb = fx_buffer(f, sizeof b, b);
  cl_event gate = clCreateUserEvent(f->ctx, &err);
  cl_int v = 5;
  size_t g = 8;
  fx_arg(k, 0, sizeof ma, &ma);
  fx_arg(k, 1, sizeof v, &v);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, NULL, 1, &gate, NULL), CL_SUCCESS);
  v = 7;
  fx_arg(k, 0, sizeof mb, &mb);
  fx_arg(k, 1, sizeof v, &v);
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clFinish(f->q), CL_SUCCESS);
  fx_read(f, ma, sizeof a, a);
  fx_read(f, mb, sizeof b, b);
  for (int i = 0; i < 8; i++) {
    assert_int_equal(a[i], 5);
    assert_int_equal(b[i], 0);
  }
  clReleaseEvent(gate);
  clReleaseKernel(k);
  clReleaseMemObject(ma);
  clReleaseMemObject(mb);
  clReleaseProgram(p);
}

/* What the context's callback heard, one line per message. */
static char notified[4096];
static void CL_CALLBACK on_notify(const char *msg, const void *info, size_t size, void *data) {
  (void)info, (void)size, (void)data;
  size_t n = strlen(notified);
  snprintf(notified + n, sizeof notified - n, "%s\n", msg);
}

static cl_int run_status(struct fx *f, cl_kernel k) {
  cl_event ev;
  cl_int status = 0;
  size_t g = 64;
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, NULL, 0, NULL, &ev), CL_SUCCESS);
  clWaitForEvents(1, &ev);
  assert_int_equal(
      clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
      CL_SUCCESS);
  clReleaseEvent(ev);
  return status;
}

/* A null store is a finding a GPU survives: it is dropped, the launch
 * completes and the context's callback names the kernel and work-item. A
 * trap ends the launch: the event fails, the process and other buffers are
 * fine, and the queue keeps working. */
static void test_fault(void **state) {
  struct fx *f = *state;
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &f->device, on_notify, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueue(ctx, f->device, 0, &err);
  assert_int_equal(err, CL_SUCCESS);
  struct fx mine = *f;
  mine.ctx = ctx, mine.q = q;
  cl_program p = program(&mine, NULL);
  cl_kernel k = fx_kernel(p, "null_store");
  int other[16];
  for (int i = 0; i < 16; i++)
    other[i] = 1000 + i;
  cl_mem mo = fx_buffer(&mine, sizeof other, other);
  assert_int_equal(clSetKernelArg(k, 0, sizeof(cl_mem), NULL), CL_SUCCESS);
  fx_arg(k, 1, sizeof mo, &mo);
  assert_int_equal(run_status(&mine, k), CL_COMPLETE);
  fx_read(&mine, mo, sizeof other, other);
  for (int i = 0; i < 16; i++)
    assert_int_equal(other[i], 7);
  if (!strstr(notified, "kernel 'null_store': input.cl:25:35: store of 4 bytes at unmapped "
                        "address 0x0 (the null page) by work-item (global 5,0,0;") ||
      !strstr(notified, "; source: if (get_global_id(0) == 5) p[0] = 1;") ||
      !strstr(notified, "\nkernel 'null_store': 1 finding at 1 site: 1 UNMAPPED (SOFTGPU_CHECK="))
    fail_msg("notified: %s", notified);
  notified[0] = 0;
  clReleaseKernel(k);

  k = fx_kernel(p, "trap");
  for (int i = 0; i < 16; i++)
    other[i] = 1000 + i;
  assert_int_equal(clEnqueueWriteBuffer(q, mo, CL_TRUE, 0, sizeof other, other, 0, NULL, NULL),
                   CL_SUCCESS);
  fx_arg(k, 0, sizeof mo, &mo);
  assert_true(run_status(&mine, k) < 0);
  if (!strstr(notified, "kernel 'trap' faulted: input.cl:") || !strstr(notified, ": trap"))
    fail_msg("notified: %s", notified);
  memset(other, 0, sizeof other);
  fx_read(&mine, mo, sizeof other, other);
  for (int i = 0; i < 16; i++)
    assert_int_equal(other[i], 1000 + i);
  clReleaseKernel(k);
  clReleaseMemObject(mo);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* SOFTGPU_STATS (set in main before the first launch) got one JSON line per
 * launch with every field. */
static void test_stats(void **state) {
  struct fx *f = *state;
  cl_program p = program(f, NULL);
  cl_kernel k = fx_kernel(p, "fill");
  cl_mem m = fx_buffer(f, 256 * sizeof(int), NULL);
  cl_int v = 3;
  size_t g = 200, l = 8;
  fx_arg(k, 0, sizeof m, &m);
  fx_arg(k, 1, sizeof v, &v);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clFinish(f->q), CL_SUCCESS);
  FILE *in = fopen(stats_path, "r");
  assert_non_null(in);
  char line[2048], last[2048] = "";
  while (fgets(line, sizeof line, in))
    if (strstr(line, "\"kernel\":\"fill\""))
      strcpy(last, line);
  fclose(in);
  static const char *fields[] = {
      "\"global_size\":[200]",   "\"local_size\":[8]", "\"ctas\":25,",         "\"warps\":25,",
      "\"warp_insns\":",         "\"thread_insns\":",  "\"simd_efficiency\":", "\"branches\":",
      "\"divergent_branches\":", "\"barriers\":",      "\"host_time_ns\":",    "\"status\":\"ok\""};
  for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
    if (!strstr(last, fields[i]))
      fprintf(stderr, "missing %s in: %s\n", fields[i], last);
    assert_non_null(strstr(last, fields[i]));
  }
  assert_int_equal(last[0], '{');
  clReleaseKernel(k);
  clReleaseMemObject(m);
  clReleaseProgram(p);
}

int main(void) {
  snprintf(stats_path, sizeof stats_path, "/tmp/sg_test_stats_%ld.jsonl", (long)getpid());
  setenv("SOFTGPU_STATS", stats_path, 1);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_ndrange_dims),
      cmocka_unit_test(test_null_local_prime),
      cmocka_unit_test(test_partial_groups),
      cmocka_unit_test(test_task_and_empty),
      cmocka_unit_test(test_arg_snapshot),
      cmocka_unit_test(test_fault),
      cmocka_unit_test(test_stats),
  };
  int rc = cmocka_run_group_tests(tests, fx_setup, fx_teardown);
  unlink(stats_path);
  return rc;
}
