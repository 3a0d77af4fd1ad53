/* SPDX-License-Identifier: MIT */
/* API tests (DESIGN.md "Tests"): a handle the application has released and
 * passes again gets the spec's CL_INVALID_* code for its kind, never a
 * use-after-free. OpenCL 3.0 API spec: each clRelease* and clGet*Info lists
 * CL_INVALID_<OBJECT> "if <object> is not a valid ... object"; the objects
 * here are destroyed (no reference left anywhere) when they are passed
 * again. The valgrind label runs this under memcheck, so a read of freed
 * memory fails it. */
#include "sg_api_fixture.h"

static const char *src = "kernel void k(global int *p) { p[get_global_id(0)] = 1; }";

/* Section 5.2.1 (buffers) and 5.5.8: clRetainMemObject, clReleaseMemObject,
 * clGetMemObjectInfo give CL_INVALID_MEM_OBJECT. */
static void test_released_buffer(void **state) {
  struct fx *f = *state;
  cl_int err;
  cl_mem b = clCreateBuffer(f->ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clReleaseMemObject(b), CL_SUCCESS);
  size_t size;
  assert_int_equal(clGetMemObjectInfo(b, CL_MEM_SIZE, sizeof size, &size, NULL),
                   CL_INVALID_MEM_OBJECT);
  assert_int_equal(clRetainMemObject(b), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clReleaseMemObject(b), CL_INVALID_MEM_OBJECT);
  int v = 0;
  assert_int_equal(clEnqueueWriteBuffer(f->q, b, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
}

/* Sections 5.8.1 and 5.9.1: programs and kernels. */
static void test_released_program_and_kernel(void **state) {
  struct fx *f = *state;
  cl_int err;
  cl_program p = fx_build(f, src, "");
  cl_kernel k = clCreateKernel(p, "k", &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clReleaseKernel(k), CL_SUCCESS);
  assert_int_equal(clReleaseProgram(p), CL_SUCCESS);
  cl_uint n;
  assert_int_equal(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL), CL_INVALID_KERNEL);
  assert_int_equal(clReleaseKernel(k), CL_INVALID_KERNEL);
  cl_mem none = NULL;
  assert_int_equal(clSetKernelArg(k, 0, sizeof none, &none), CL_INVALID_KERNEL);
  assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(size_t), &(size_t){0}, NULL),
                   CL_INVALID_PROGRAM);
  assert_int_equal(clReleaseProgram(p), CL_INVALID_PROGRAM);
  assert_null(clCreateKernel(p, "k", &err));
  assert_int_equal(err, CL_INVALID_PROGRAM);
}

/* Section 5.11 (events): a completed event whose last reference is gone. */
static void test_released_event(void **state) {
  struct fx *f = *state;
  cl_int err;
  cl_event ev = clCreateUserEvent(f->ctx, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clSetUserEventStatus(ev, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clReleaseEvent(ev), CL_SUCCESS);
  cl_int st;
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL),
                   CL_INVALID_EVENT);
  assert_int_equal(clWaitForEvents(1, &ev), CL_INVALID_EVENT);
  assert_int_equal(clReleaseEvent(ev), CL_INVALID_EVENT);
}

/* Sections 5.1 (queues) and 4.4 (contexts): their own context and queue, so
 * the fixture's stay valid. */
static void test_released_queue_and_context(void **state) {
  struct fx *f = *state;
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &f->device, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, f->device, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
  assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);
  assert_int_equal(clFinish(q), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clReleaseCommandQueue(q), CL_INVALID_COMMAND_QUEUE);
  cl_uint refs;
  assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                   CL_INVALID_CONTEXT);
  assert_int_equal(clReleaseContext(ctx), CL_INVALID_CONTEXT);
  assert_null(clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_released_buffer),
      cmocka_unit_test(test_released_program_and_kernel),
      cmocka_unit_test(test_released_event),
      cmocka_unit_test(test_released_queue_and_context),
  };
  return cmocka_run_group_tests(tests, fx_setup, fx_teardown);
}
