/* SPDX-License-Identifier: MIT */
/* API tests for kernel objects (DESIGN.md "Tests"): creation, arguments of
 * every kind (checked by running the kernel), Get*Info against hand-derived
 * values, and the spec's error codes, through the ICD loader. */
#include "sg_api_fixture.h"
#include "sg_info_table.h"

static const char *src =
    "typedef struct { int a; float b; char c; long d; } pod;\n"
    "__kernel void every(__global long *out, __constant int *lut, __local int *scratch,\n"
    "                    pod s, char c, short h, long l, float4 v, double d, int3 t) {\n"
    "  scratch[get_local_id(0)] = lut[1];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (get_global_id(0) != 0) return;\n"
    "  out[0] = s.a; out[1] = (long)(s.b * 4); out[2] = s.c; out[3] = s.d;\n"
    "  out[4] = c; out[5] = h; out[6] = l; out[7] = (long)(v.x + v.y * 10 + v.z * 100 + v.w * "
    "1000);\n"
    "  out[8] = (long)(d * 8); out[9] = t.x + t.y * 10 + t.z * 100; out[10] = scratch[0];\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(8, 4, 1)))\n"
    "void fixed(__global const float * restrict in, volatile __global int *out) {\n"
    "  __local int tile[64];\n"
    "  tile[get_local_id(0)] = 1;\n"
    "  out[0] = tile[0] + (int)in[0];\n"
    "}\n";

typedef struct {
  cl_int a;
  cl_float b;
  cl_char c;
  cl_long d;
} pod;

static void test_create(void **state) {
  struct fx *f = *state;
  cl_int err;
  cl_program p = clCreateProgramWithSource(f->ctx, 1, &src, NULL, &err);
  assert_null(clCreateKernel(p, "every", &err));
  assert_int_equal(err, CL_INVALID_PROGRAM_EXECUTABLE);
  assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
  assert_null(clCreateKernel(p, "nope", &err));
  assert_int_equal(err, CL_INVALID_KERNEL_NAME);
  assert_null(clCreateKernel(p, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateKernel(NULL, "every", &err));
  assert_int_equal(err, CL_INVALID_PROGRAM);

  cl_uint n = 0;
  cl_kernel ks[2];
  assert_int_equal(clCreateKernelsInProgram(p, 0, NULL, &n), CL_SUCCESS);
  assert_int_equal(n, 2);
  assert_int_equal(clCreateKernelsInProgram(p, 1, ks, NULL), CL_INVALID_VALUE);
  assert_int_equal(clCreateKernelsInProgram(p, 2, ks, &n), CL_SUCCESS);
  char names[2][16];
  for (int i = 0; i < 2; i++)
    assert_int_equal(clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, 16, names[i], NULL),
                     CL_SUCCESS);
  assert_true((!strcmp(names[0], "every") && !strcmp(names[1], "fixed")) ||
              (!strcmp(names[1], "every") && !strcmp(names[0], "fixed")));
  /* The program stays alive for its kernels. */
  clReleaseProgram(p);
  cl_program kp;
  assert_int_equal(clGetKernelInfo(ks[0], CL_KERNEL_PROGRAM, sizeof kp, &kp, NULL), CL_SUCCESS);
  assert_ptr_equal(kp, p);
  clReleaseKernel(ks[0]);
  clReleaseKernel(ks[1]);
  assert_int_equal(clRetainKernel(NULL), CL_INVALID_KERNEL);
  assert_int_equal(clReleaseKernel(NULL), CL_INVALID_KERNEL);
}

static void test_kernel_info(void **state) {
  struct fx *f = *state;
  cl_program p = fx_build(f, src, NULL);
  cl_kernel k = fx_kernel(p, "every");
  cl_uint u;
  cl_context c;
  char attr[128];
  assert_int_equal(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof u, &u, NULL), CL_SUCCESS);
  assert_int_equal(u, 10);
  assert_int_equal(clRetainKernel(k), CL_SUCCESS);
  assert_int_equal(clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof u, &u, NULL), CL_SUCCESS);
  assert_int_equal(u, 2);
  assert_int_equal(clReleaseKernel(k), CL_SUCCESS);
  assert_int_equal(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
  assert_ptr_equal(c, f->ctx);
  assert_int_equal(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attr, attr, NULL), CL_SUCCESS);
  assert_string_equal(attr, "");
  assert_int_equal(clGetKernelInfo(k, 0x7fff, sizeof u, &u, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, 1, &u, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetKernelInfo(NULL, CL_KERNEL_NUM_ARGS, sizeof u, &u, NULL),
                   CL_INVALID_KERNEL);

  cl_kernel fixed = fx_kernel(p, "fixed");
  assert_int_equal(clGetKernelInfo(fixed, CL_KERNEL_ATTRIBUTES, sizeof attr, attr, NULL),
                   CL_SUCCESS);
  assert_non_null(strstr(attr, "reqd_work_group_size(8,4,1)"));
  clReleaseKernel(fixed);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

static void test_set_arg_errors(void **state) {
  struct fx *f = *state;
  cl_program p = fx_build(f, src, NULL);
  cl_kernel k = fx_kernel(p, "every");
  cl_mem m = fx_buffer(f, 64, NULL);
  cl_mem null_mem = NULL;
  cl_int i = 0;
  pod s = {0};
  assert_int_equal(clSetKernelArg(k, 10, sizeof i, &i), CL_INVALID_ARG_INDEX);
  assert_int_equal(clSetKernelArg(NULL, 0, sizeof m, &m), CL_INVALID_KERNEL);
  /* Pointers: sizeof(cl_mem), a valid buffer or NULL. */
  assert_int_equal(clSetKernelArg(k, 0, 4, &m), CL_INVALID_ARG_SIZE);
  cl_mem bogus = (cl_mem)f->ctx;
  assert_int_equal(clSetKernelArg(k, 0, sizeof bogus, &bogus), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  assert_int_equal(clSetKernelArg(k, 1, sizeof null_mem, &null_mem), CL_SUCCESS);
  assert_int_equal(clSetKernelArg(k, 1, sizeof(cl_mem), NULL), CL_SUCCESS);
  /* __local: size only. */
  assert_int_equal(clSetKernelArg(k, 2, 16, &i), CL_INVALID_ARG_VALUE);
  assert_int_equal(clSetKernelArg(k, 2, 0, NULL), CL_INVALID_ARG_SIZE);
  assert_int_equal(clSetKernelArg(k, 2, 16, NULL), CL_SUCCESS);
  /* By value: exactly the type's size, never NULL. */
  assert_int_equal(clSetKernelArg(k, 3, sizeof s, NULL), CL_INVALID_ARG_VALUE);
  assert_int_equal(clSetKernelArg(k, 3, sizeof s - 1, &s), CL_INVALID_ARG_SIZE);
  assert_int_equal(clSetKernelArg(k, 3, sizeof s, &s), CL_SUCCESS);
  assert_int_equal(clSetKernelArg(k, 4, sizeof(cl_int), &i), CL_INVALID_ARG_SIZE);
  cl_int3 t = {{1, 2, 3}};
  assert_int_equal(clSetKernelArg(k, 9, sizeof t, &t), CL_SUCCESS);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* Every kind of argument reaches the kernel intact. */
static void test_every_arg_kind(void **state) {
  struct fx *f = *state;
  cl_program p = fx_build(f, src, NULL);
  cl_kernel k = fx_kernel(p, "every");
  cl_long out[11] = {0};
  cl_int lut[4] = {5, 77, 9, 9};
  cl_mem mo = fx_buffer(f, sizeof out, out);
  cl_mem ml = fx_buffer(f, sizeof lut, lut);
  pod s = {-7, 2.5f, 'x', 1ll << 40};
  cl_char c = -3;
  cl_short h = -300;
  cl_long l = -(1ll << 50);
  cl_float4 v = {{1, 2, 3, 4}};
  cl_double d = 0.375;
  cl_int3 t = {{1, 2, 3}};
  fx_arg(k, 0, sizeof mo, &mo);
  fx_arg(k, 1, sizeof ml, &ml);
  fx_arg(k, 2, 64 * sizeof(cl_int), NULL);
  fx_arg(k, 3, sizeof s, &s);
  fx_arg(k, 4, sizeof c, &c);
  fx_arg(k, 5, sizeof h, &h);
  fx_arg(k, 6, sizeof l, &l);
  fx_arg(k, 7, sizeof v, &v);
  fx_arg(k, 8, sizeof d, &d);
  fx_arg(k, 9, sizeof t, &t);
  size_t g = 64, lsz = 64;
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, &lsz, 0, NULL, NULL), CL_SUCCESS);
  fx_read(f, mo, sizeof out, out);
  const cl_long want[11] = {-7, 10, 'x', 1ll << 40, -3, -300, -(1ll << 50), 4321, 3, 321, 77};
  for (int i = 0; i < 11; i++)
    assert_int_equal(out[i], want[i]);

  /* A clone carries the arguments; changing its arguments leaves k alone. */
  cl_int err;
  cl_kernel k2 = clCloneKernel(k, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_char c2 = 42;
  fx_arg(k2, 4, sizeof c2, &c2);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k2, 1, NULL, &g, &lsz, 0, NULL, NULL), CL_SUCCESS);
  fx_read(f, mo, sizeof out, out);
  assert_int_equal(out[4], 42);
  assert_int_equal(out[0], -7);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, &lsz, 0, NULL, NULL), CL_SUCCESS);
  fx_read(f, mo, sizeof out, out);
  assert_int_equal(out[4], -3);
  assert_null(clCloneKernel(NULL, &err));
  assert_int_equal(err, CL_INVALID_KERNEL);
  clReleaseKernel(k2);
  clReleaseMemObject(mo);
  clReleaseMemObject(ml);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

static void CL_CALLBACK count_destruction(cl_mem m, void *user_data) {
  (void)m;
  ++*(int *)user_data;
}

/* 5.5.1 clReleaseMemObject: a buffer is deleted once the application's
 * references are gone and no command uses it; a kernel argument is not a
 * command, so it does not keep the buffer (CTS
 * api/retain_mem_object_set_kernel_arg waits for the destructor callback).
 * The kernel then refuses to launch with the deleted buffer, takes a new one,
 * and clones and releases safely. */
static void test_arg_does_not_keep_buffer(void **state) {
  struct fx *f = *state;
  cl_int err;
  cl_program p = fx_build(f, "__kernel void k(__global int *a) { a[get_global_id(0)] = 5; }", NULL);
  cl_kernel k = fx_kernel(p, "k");
  cl_mem gone = fx_buffer(f, 64, NULL);
  int destroyed = 0;
  assert_int_equal(clSetMemObjectDestructorCallback(gone, count_destruction, &destroyed),
                   CL_SUCCESS);
  fx_arg(k, 0, sizeof gone, &gone);
  cl_kernel clone = clCloneKernel(k, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clReleaseMemObject(gone), CL_SUCCESS);
  assert_int_equal(destroyed, 1);
  size_t g = 16;
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, NULL, 0, NULL, NULL),
                   CL_INVALID_KERNEL_ARGS);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, clone, 1, NULL, &g, NULL, 0, NULL, NULL),
                   CL_INVALID_KERNEL_ARGS);

  int out[16] = {0};
  cl_mem fresh = fx_buffer(f, sizeof out, out);
  fx_arg(k, 0, sizeof fresh, &fresh);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, NULL, 0, NULL, NULL), CL_SUCCESS);
  fx_read(f, fresh, sizeof out, out);
  for (int i = 0; i < 16; i++)
    assert_int_equal(out[i], 5);

  /* A command does keep its buffer: released while the launch waits on a
   * user event, it is deleted only after the launch ran. */
  cl_event user = clCreateUserEvent(f->ctx, &err);
  int fresh_destroyed = 0;
  assert_int_equal(clSetMemObjectDestructorCallback(fresh, count_destruction, &fresh_destroyed),
                   CL_SUCCESS);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &g, NULL, 1, &user, NULL), CL_SUCCESS);
  assert_int_equal(clReleaseMemObject(fresh), CL_SUCCESS);
  assert_int_equal(fresh_destroyed, 0);
  assert_int_equal(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clFinish(f->q), CL_SUCCESS);
  assert_int_equal(fresh_destroyed, 1);
  clReleaseEvent(user);
  clReleaseKernel(clone);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

static void test_arg_info(void **state) {
  struct fx *f = *state;
  for (int with = 0; with < 2; with++) {
    cl_program p = fx_build(f, src, with ? "-cl-kernel-arg-info" : NULL);
    cl_kernel k = fx_kernel(p, "fixed");
    cl_kernel_arg_address_qualifier aq;
    cl_kernel_arg_access_qualifier acc;
    cl_kernel_arg_type_qualifier tq;
    char name[64];
    assert_int_equal(
        clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL),
        CL_SUCCESS);
    assert_int_equal(aq, CL_KERNEL_ARG_ADDRESS_GLOBAL);
    assert_int_equal(
        clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL),
        CL_SUCCESS);
    assert_int_equal(acc, CL_KERNEL_ARG_ACCESS_NONE);
    assert_int_equal(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, NULL),
                     CL_SUCCESS);
    assert_string_equal(name, "float*");
    assert_int_equal(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL),
                     CL_SUCCESS);
    assert_int_equal(tq, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT);
    assert_int_equal(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL),
                     CL_SUCCESS);
    assert_int_equal(tq, CL_KERNEL_ARG_TYPE_VOLATILE);
    cl_int err = clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, sizeof name, name, NULL);
    if (with) {
      assert_int_equal(err, CL_SUCCESS);
      assert_string_equal(name, "out");
    } else {
      assert_int_equal(err, CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    }
    assert_int_equal(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_NAME, sizeof name, name, NULL),
                     CL_INVALID_ARG_INDEX);
    assert_int_equal(clGetKernelArgInfo(k, 0, 0x7fff, sizeof name, name, NULL), CL_INVALID_VALUE);
    clReleaseKernel(k);
    k = fx_kernel(p, "every");
    assert_int_equal(
        clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL),
        CL_SUCCESS);
    assert_int_equal(aq, CL_KERNEL_ARG_ADDRESS_CONSTANT);
    assert_int_equal(
        clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL),
        CL_SUCCESS);
    assert_int_equal(aq, CL_KERNEL_ARG_ADDRESS_LOCAL);
    assert_int_equal(
        clGetKernelArgInfo(k, 4, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL),
        CL_SUCCESS);
    assert_int_equal(aq, CL_KERNEL_ARG_ADDRESS_PRIVATE);
    assert_int_equal(clGetKernelArgInfo(k, 7, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, NULL),
                     CL_SUCCESS);
    assert_string_equal(name, "float4");
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
}

static void test_work_group_info(void **state) {
  struct fx *f = *state;
  cl_program p = fx_build(f, src, NULL);
  cl_kernel every = fx_kernel(p, "every"), fixed = fx_kernel(p, "fixed");
  size_t dev_max, wg, cwg[3], mult;
  cl_ulong local, local2, priv;
  assert_int_equal(
      clGetDeviceInfo(f->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof dev_max, &dev_max, NULL),
      CL_SUCCESS);
  assert_int_equal(
      clGetKernelWorkGroupInfo(every, f->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
      CL_SUCCESS);
  assert_int_equal(wg, dev_max);
  assert_int_equal(
      clGetKernelWorkGroupInfo(fixed, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
      CL_SUCCESS);
  assert_int_equal(wg, 32);
  assert_int_equal(clGetKernelWorkGroupInfo(fixed, f->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                            sizeof cwg, cwg, NULL),
                   CL_SUCCESS);
  assert_true(cwg[0] == 8 && cwg[1] == 4 && cwg[2] == 1);
  assert_int_equal(clGetKernelWorkGroupInfo(every, f->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                            sizeof cwg, cwg, NULL),
                   CL_SUCCESS);
  assert_true(cwg[0] == 0 && cwg[1] == 0 && cwg[2] == 0);
  /* Static __local: the 64-int tile. */
  assert_int_equal(clGetKernelWorkGroupInfo(fixed, f->device, CL_KERNEL_LOCAL_MEM_SIZE,
                                            sizeof local, &local, NULL),
                   CL_SUCCESS);
  assert_true(local >= 64 * sizeof(cl_int));
  /* A __local argument adds its size, rounded up to the 128-byte alignment
   * the device gives each one, the largest type's (1000 -> 1024). */
  assert_int_equal(clGetKernelWorkGroupInfo(every, f->device, CL_KERNEL_LOCAL_MEM_SIZE,
                                            sizeof local, &local, NULL),
                   CL_SUCCESS);
  fx_arg(every, 2, 1000, NULL);
  assert_int_equal(clGetKernelWorkGroupInfo(every, f->device, CL_KERNEL_LOCAL_MEM_SIZE,
                                            sizeof local2, &local2, NULL),
                   CL_SUCCESS);
  assert_int_equal(local2, local + 1024);
  assert_int_equal(clGetKernelWorkGroupInfo(every, f->device,
                                            CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                            sizeof mult, &mult, NULL),
                   CL_SUCCESS);
  if (!getenv("SOFTGPU_CONFIG"))
    assert_int_equal(mult, 32); /* the default machine's warp size */
  assert_int_equal(clGetKernelWorkGroupInfo(every, f->device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                            sizeof priv, &priv, NULL),
                   CL_SUCCESS);
  size_t gws[3];
  assert_int_equal(
      clGetKernelWorkGroupInfo(every, f->device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof gws, gws, NULL),
      CL_INVALID_VALUE);
  assert_int_equal(clGetKernelWorkGroupInfo(every, (cl_device_id)f->ctx, CL_KERNEL_WORK_GROUP_SIZE,
                                            sizeof wg, &wg, NULL),
                   CL_INVALID_DEVICE);
  assert_int_equal(
      clGetKernelWorkGroupInfo(NULL, f->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
      CL_INVALID_KERNEL);
  assert_int_equal(clGetKernelWorkGroupInfo(every, f->device, 0x7fff, sizeof wg, &wg, NULL),
                   CL_INVALID_VALUE);
  /* Sub-groups are warps; the warp size is the preferred multiple. */
  size_t sub, in2[2] = {5, 3}, count = 2, ls[3];
  assert_int_equal(clGetKernelSubGroupInfo(every, f->device,
                                           CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof in2,
                                           in2, sizeof sub, &sub, NULL),
                   CL_SUCCESS);
  assert_int_equal(sub, 15 < mult ? 15 : mult);
  assert_int_equal(clGetKernelSubGroupInfo(every, NULL, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                           sizeof in2, in2, sizeof sub, &sub, NULL),
                   CL_SUCCESS);
  assert_int_equal(sub, (15 + mult - 1) / mult);
  /* Local sizes whose product passes SIZE_MAX: the count saturates at
   * ceil(SIZE_MAX / warp) instead of wrapping to a small number. */
  const size_t wide[3] = {SIZE_MAX, 2, 1}, edge[1] = {SIZE_MAX};
  const size_t most = SIZE_MAX / mult + (SIZE_MAX % mult != 0);
  assert_int_equal(clGetKernelSubGroupInfo(every, NULL, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                           sizeof wide, wide, sizeof sub, &sub, NULL),
                   CL_SUCCESS);
  assert_true(sub == most);
  assert_int_equal(clGetKernelSubGroupInfo(every, NULL, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                           sizeof edge, edge, sizeof sub, &sub, NULL),
                   CL_SUCCESS);
  assert_true(sub == most);
  assert_int_equal(clGetKernelSubGroupInfo(every, f->device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                           sizeof sub, &sub, NULL),
                   CL_SUCCESS);
  assert_int_equal(sub, (dev_max + mult - 1) / mult);
  assert_int_equal(clGetKernelSubGroupInfo(every, f->device, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0,
                                           NULL, sizeof sub, &sub, NULL),
                   CL_SUCCESS);
  assert_int_equal(sub, 0);
  assert_int_equal(clGetKernelSubGroupInfo(every, f->device,
                                           CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count,
                                           &count, sizeof ls, ls, NULL),
                   CL_SUCCESS);
  assert_true(ls[0] == 2 * mult && ls[1] == 1 && ls[2] == 1); /* 2 full warps */
  count = (32 + mult - 1) / mult; /* fixed: reqd_work_group_size(8, 4, 1) */
  assert_int_equal(clGetKernelSubGroupInfo(fixed, f->device,
                                           CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count,
                                           &count, sizeof ls, ls, NULL),
                   CL_SUCCESS);
  assert_true(ls[0] == 8 && ls[1] == 4 && ls[2] == 1);
  count++;
  assert_int_equal(clGetKernelSubGroupInfo(fixed, f->device,
                                           CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof count,
                                           &count, sizeof ls, ls, NULL),
                   CL_SUCCESS);
  assert_true(ls[0] == 0 && ls[1] == 0 && ls[2] == 0);
  assert_int_equal(clGetKernelSubGroupInfo(every, f->device,
                                           CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof in2,
                                           NULL, sizeof sub, &sub, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clGetKernelSubGroupInfo(every, f->device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                           4, in2, sizeof sub, &sub, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clGetKernelSubGroupInfo(every, f->device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                           1, &sub, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(
      clGetKernelSubGroupInfo(every, f->device, 0x7fff, 0, NULL, sizeof sub, &sub, NULL),
      CL_INVALID_VALUE);
  assert_int_equal(clGetKernelSubGroupInfo(NULL, f->device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                           sizeof sub, &sub, NULL),
                   CL_INVALID_KERNEL);
  assert_int_equal(clGetKernelSubGroupInfo(every, (cl_device_id)f->ctx,
                                           CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof sub,
                                           &sub, NULL),
                   CL_INVALID_DEVICE);
  clReleaseKernel(every);
  clReleaseKernel(fixed);
  clReleaseProgram(p);
}

static cl_int kernel_info(void *k, cl_uint name, size_t size, void *value, size_t *ret) {
  return clGetKernelInfo(k, name, size, value, ret);
}

static cl_device_id wg_device; /* the device clGetKernelWorkGroupInfo is asked about */

static cl_int work_group_info(void *k, cl_uint name, size_t size, void *value, size_t *ret) {
  return clGetKernelWorkGroupInfo(k, wg_device, name, size, value, ret);
}

static cl_uint arg_index; /* the argument clGetKernelArgInfo is asked about */

static cl_int arg_info(void *k, cl_uint name, size_t size, void *value, size_t *ret) {
  return clGetKernelArgInfo(k, arg_index, name, size, value, ret);
}

/* 5.10.1 clGetKernelInfo, clGetKernelWorkGroupInfo (with the device and with
 * NULL) and clGetKernelArgInfo (every argument, built with
 * -cl-kernel-arg-info): every name of OpenCL 3.0 on both kernels of src.
 * CL_KERNEL_GLOBAL_WORK_SIZE is only for custom devices and built-in
 * kernels: CL_INVALID_VALUE. */
static void test_info_table(void **state) {
  struct fx *f = *state;
  typedef size_t size3[3];
  static const struct sg_info_row rows[] = {
      SG_ROW_STR(CL_KERNEL_FUNCTION_NAME),        SG_ROW(CL_KERNEL_NUM_ARGS, cl_uint),
      SG_ROW(CL_KERNEL_REFERENCE_COUNT, cl_uint), SG_ROW(CL_KERNEL_CONTEXT, cl_context),
      SG_ROW(CL_KERNEL_PROGRAM, cl_program),      SG_ROW_STR(CL_KERNEL_ATTRIBUTES),
  };
  static const struct sg_info_row wg_rows[] = {
      SG_ROW(CL_KERNEL_WORK_GROUP_SIZE, size_t),
      SG_ROW(CL_KERNEL_COMPILE_WORK_GROUP_SIZE, size3),
      SG_ROW(CL_KERNEL_LOCAL_MEM_SIZE, cl_ulong),
      SG_ROW(CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, size_t),
      SG_ROW(CL_KERNEL_PRIVATE_MEM_SIZE, cl_ulong),
  };
  static const struct sg_info_row arg_rows[] = {
      SG_ROW(CL_KERNEL_ARG_ADDRESS_QUALIFIER, cl_kernel_arg_address_qualifier),
      SG_ROW(CL_KERNEL_ARG_ACCESS_QUALIFIER, cl_kernel_arg_access_qualifier),
      SG_ROW_STR(CL_KERNEL_ARG_TYPE_NAME),
      SG_ROW(CL_KERNEL_ARG_TYPE_QUALIFIER, cl_kernel_arg_type_qualifier),
      SG_ROW_STR(CL_KERNEL_ARG_NAME),
  };
  cl_program p = fx_build(f, src, "-cl-kernel-arg-info");
  cl_kernel ks[] = {fx_kernel(p, "every"), fx_kernel(p, "fixed")};
  const cl_device_id devs[] = {f->device, NULL};
  for (size_t i = 0; i < 2; i++) {
    sg_check_info_table(kernel_info, ks[i], rows, sizeof rows / sizeof rows[0]);
    for (size_t d = 0; d < 2; d++) {
      wg_device = devs[d];
      sg_check_info_table(work_group_info, ks[i], wg_rows, sizeof wg_rows / sizeof wg_rows[0]);
      size3 gws;
      size_t n;
      assert_int_equal(
          clGetKernelWorkGroupInfo(ks[i], devs[d], CL_KERNEL_GLOBAL_WORK_SIZE, sizeof gws, gws, &n),
          CL_INVALID_VALUE);
    }
    cl_uint nargs = 0;
    assert_int_equal(clGetKernelInfo(ks[i], CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL),
                     CL_SUCCESS);
    assert_true(nargs > 0);
    for (arg_index = 0; arg_index < nargs; arg_index++)
      sg_check_info_table(arg_info, ks[i], arg_rows, sizeof arg_rows / sizeof arg_rows[0]);
  }
  clReleaseKernel(ks[0]), clReleaseKernel(ks[1]);
  clReleaseProgram(p);
}

/* CL_KERNEL_PRIVATE_MEM_SIZE is each kernel's own call graph's, exact;
 * launches whose work-group of stacks the device cannot back are
 * CL_OUT_OF_RESOURCES; two 10 KiB kernels of one program run; a kernel no
 * work-group could back does not build. */
static const char *private_src =
    "kernel void ten_a(global int *o) { volatile int a[2560]; int g = get_global_id(0);\n"
    "  for (int k = 0; k < 2560; k++) a[k] = g + k; o[g] = a[(g * 7) % 2560]; }\n"
    "kernel void ten_b(global int *o) { volatile int b[2560]; int g = get_global_id(0);\n"
    "  for (int k = 0; k < 2560; k++) b[k] = g - k; o[g] += b[(g * 5) % 2560]; }\n"
    "kernel void none(global int *o) { o[get_global_id(0)] = 1; }\n"
    "kernel void huge(global char *o, long n) {\n"
    "  volatile char a[200ul << 20]; a[n] = 1; o[0] = a[n + 1]; }\n"
    "int depth(int n) { volatile int pad[16]; pad[n & 15] = n;\n"
    "  return n <= 0 ? pad[0] : depth(n - 1) + pad[n & 15]; }\n"
    "kernel void rec(global int *o, int n) { o[0] = depth(n); }\n";

static cl_ulong private_mem(struct fx *f, cl_kernel k) {
  cl_ulong size = 0;
  assert_int_equal(clGetKernelWorkGroupInfo(k, f->device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof size,
                                            &size, NULL),
                   CL_SUCCESS);
  return size;
}

static void test_private_memory(void **state) {
  struct fx *f = *state;
  cl_program p = fx_build(f, private_src, NULL);
  cl_kernel a = fx_kernel(p, "ten_a"), b = fx_kernel(p, "ten_b"), none = fx_kernel(p, "none"),
            huge = fx_kernel(p, "huge"), rec = fx_kernel(p, "rec");
  /* An array plus at most a few saved registers and alignment. */
  cl_ulong pa = private_mem(f, a), pb = private_mem(f, b), pn = private_mem(f, none);
  cl_ulong ph = private_mem(f, huge);
  assert_true(pa >= 10240 && pa <= 10240 + 256);
  assert_true(pb >= 10240 && pb <= 10240 + 256);
  assert_true(pn < 256);
  assert_true(ph >= (200ull << 20) && ph <= (200ull << 20) + 256);
  if (!getenv("SOFTGPU_CONFIG"))
    assert_int_equal(private_mem(f, rec), 16384); /* unbounded: stack_per_lane */
  char log[4096] = "";
  assert_int_equal(clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                   CL_SUCCESS);
  assert_non_null(strstr(log, "kernel 'rec': its private memory cannot be bounded (recursion"));

  enum { N = 128 };
  cl_int out[N];
  cl_mem m = fx_buffer(f, sizeof out, NULL);
  size_t gws = N, lws = 64, sixteen = 16;
  cl_long n = 0;
  fx_arg(a, 0, sizeof m, &m), fx_arg(b, 0, sizeof m, &m);
  fx_arg(huge, 0, sizeof m, &m), fx_arg(huge, 1, sizeof n, &n);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, a, 1, NULL, &gws, &lws, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueNDRangeKernel(f->q, b, 1, NULL, &gws, &lws, 0, NULL, NULL), CL_SUCCESS);
  fx_read(f, m, sizeof out, out);
  for (int g = 0; g < N; g++)
    assert_int_equal(out[g], g + (g * 7) % 2560 + g - (g * 5) % 2560);
  /* 16 x 200 MiB: more than the 2.5 GiB stack window. */
  assert_int_equal(clEnqueueNDRangeKernel(f->q, huge, 1, NULL, &sixteen, &sixteen, 0, NULL, NULL),
                   CL_OUT_OF_RESOURCES);
  clReleaseMemObject(m);
  clReleaseKernel(a), clReleaseKernel(b), clReleaseKernel(none), clReleaseKernel(huge);
  clReleaseKernel(rec);
  clReleaseProgram(p);

  static const char *too_big = "kernel void k(global char *o, long n) {\n"
                               "  volatile char a[3ul << 30]; a[n] = 1; o[0] = a[n + 1]; }\n";
  cl_int err;
  p = clCreateProgramWithSource(f->ctx, 1, &too_big, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  assert_int_equal(clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                   CL_SUCCESS);
  assert_non_null(strstr(log, "kernel 'k' needs 3221225472 bytes of private memory per work-item"));
  clReleaseProgram(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_private_memory),
      cmocka_unit_test(test_create),         cmocka_unit_test(test_kernel_info),
      cmocka_unit_test(test_set_arg_errors), cmocka_unit_test(test_every_arg_kind),
      cmocka_unit_test(test_arg_info),       cmocka_unit_test(test_work_group_info),
      cmocka_unit_test(test_info_table),     cmocka_unit_test(test_arg_does_not_keep_buffer),
  };
  return cmocka_run_group_tests(tests, fx_setup, fx_teardown);
}
