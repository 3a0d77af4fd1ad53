/* SPDX-License-Identifier: MIT */
/* API tests, context family (OpenCL 3.0 spec 4.4 "Contexts"), through the
 * ICD loader: clCreateContext, clCreateContextFromType, clRetainContext,
 * clReleaseContext, clGetContextInfo, clSetContextDestructorCallback. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <CL/cl.h>

#include "sg_info_table.h"

static cl_platform_id plat;
static cl_device_id dev;

static int setup(void **state) {
  (void)state;
  if (clGetPlatformIDs(1, &plat, NULL) != CL_SUCCESS)
    return -1;
  return clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS ? 0 : -1;
}

static void CL_CALLBACK notify(const char *errinfo, const void *info, size_t cb, void *user_data) {
  (void)errinfo, (void)info, (void)cb, (void)user_data;
}

static cl_uint refcount(cl_context ctx) {
  cl_uint n = 0;
  assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL),
                   CL_SUCCESS);
  return n;
}

/* 4.4 clCreateContext and clGetContextInfo. */
static void test_create_and_info(void **state) {
  (void)state;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
  cl_int err = -1;
  cl_device_id devs[2] = {dev, dev}; /* duplicates are ignored */
  cl_context ctx = clCreateContext(props, 2, devs, notify, &err, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_non_null(ctx);
  cl_uint n;
  assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL), CL_SUCCESS);
  assert_int_equal(n, 1);
  cl_device_id d;
  assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof d, &d, NULL), CL_SUCCESS);
  assert_ptr_equal(d, dev);
  cl_context_properties got[3];
  size_t size;
  assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof got, got, &size),
                   CL_SUCCESS);
  assert_int_equal(size, sizeof props);
  assert_memory_equal(got, props, sizeof props);
  assert_int_equal(refcount(ctx), 1);
  assert_int_equal(clRetainContext(ctx), CL_SUCCESS);
  assert_int_equal(refcount(ctx), 2);
  assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);
  assert_int_equal(refcount(ctx), 1);
  assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);

  /* No properties: CL_CONTEXT_PROPERTIES has size 0. */
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, 0, NULL, &size), CL_SUCCESS);
  assert_int_equal(size, 0);
  /* CL_INVALID_VALUE: unknown name, too small a buffer. */
  assert_int_equal(clGetContextInfo(ctx, 0x7fff, 0, NULL, &size), CL_INVALID_VALUE);
  char small[2];
  assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof small, small, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);
}

/* 4.4 clCreateContext errors. */
static void test_create_errors(void **state) {
  (void)state;
  cl_int err;
  assert_null(clCreateContext(NULL, 0, &dev, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateContext(NULL, 1, NULL, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  int data;
  assert_null(clCreateContext(NULL, 1, &dev, NULL, &data, &err));
  assert_int_equal(err, CL_INVALID_VALUE);

  cl_context_properties unknown[] = {0x7fff, 1, 0};
  assert_null(clCreateContext(unknown, 1, &dev, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_PROPERTY);
  cl_context_properties twice[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat,
                                   CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
  assert_null(clCreateContext(twice, 1, &dev, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_PROPERTY);
  cl_context_properties bad_sync[] = {CL_CONTEXT_INTEROP_USER_SYNC, 7, 0};
  assert_null(clCreateContext(bad_sync, 1, &dev, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_PROPERTY);
  cl_context_properties sync[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
  cl_context ctx = clCreateContext(sync, 1, &dev, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);

  /* CL_INVALID_PLATFORM: the platform property is not a platform. */
  cl_context_properties bad_plat[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)ctx, 0};
  assert_null(clCreateContext(bad_plat, 1, &dev, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_PLATFORM);
  /* CL_INVALID_DEVICE: a handle that is not a device. */
  cl_device_id not_dev = (cl_device_id)ctx;
  assert_null(clCreateContext(NULL, 1, &not_dev, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_DEVICE);
  assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);
}

/* 4.4 clCreateContextFromType. */
static void test_from_type(void **state) {
  (void)state;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
  cl_int err;
  cl_context ctx = clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_device_id d;
  assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof d, &d, NULL), CL_SUCCESS);
  assert_ptr_equal(d, dev);
  assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);
  assert_null(clCreateContextFromType(props, CL_DEVICE_TYPE_CPU, NULL, NULL, &err));
  assert_int_equal(err, CL_DEVICE_NOT_FOUND);
  assert_null(clCreateContextFromType(props, (cl_device_type)1 << 20, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_DEVICE_TYPE);
  assert_null(clCreateContextFromType(props, 0, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_DEVICE_TYPE);
  int data;
  assert_null(clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, NULL, &data, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  cl_context_properties unknown[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0x7fff, 1,
                                     0};
  assert_null(clCreateContextFromType(unknown, CL_DEVICE_TYPE_GPU, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_PROPERTY);
}

static int order[4], calls;

static void CL_CALLBACK destructor(cl_context ctx, void *user_data) {
  (void)ctx;
  order[calls++] = *(int *)user_data;
}

/* 4.4 clSetContextDestructorCallback: called in reverse order of
 * registration, only once the context and everything made from it are gone;
 * a released handle is CL_INVALID_CONTEXT even while SoftGPU still holds it. */
static void test_destructor_callbacks(void **state) {
  (void)state;
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  static int one = 1, two = 2;
  calls = 0;
  assert_int_equal(clSetContextDestructorCallback(ctx, destructor, &one), CL_SUCCESS);
  assert_int_equal(clSetContextDestructorCallback(ctx, destructor, &two), CL_SUCCESS);
  assert_int_equal(clSetContextDestructorCallback(ctx, NULL, NULL), CL_INVALID_VALUE);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);
  assert_int_equal(calls, 0); /* the buffer still holds it */
  assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, 0, NULL, NULL),
                   CL_INVALID_CONTEXT);
  assert_int_equal(clRetainContext(ctx), CL_INVALID_CONTEXT);
  assert_int_equal(clSetContextDestructorCallback(ctx, destructor, &one), CL_INVALID_CONTEXT);
  assert_int_equal(clReleaseMemObject(buf), CL_SUCCESS);
  assert_int_equal(calls, 2);
  assert_int_equal(order[0], 2);
  assert_int_equal(order[1], 1);
}

static int log_[8], logged;

static void CL_CALLBACK log_context(cl_context ctx, void *user_data) {
  (void)ctx;
  log_[logged++] = *(int *)user_data;
}

static void CL_CALLBACK log_mem(cl_mem m, void *user_data) {
  (void)m;
  log_[logged++] = *(int *)user_data;
}

/* 4.4 and 5.5.4: destructor callbacks of memory objects and of their
 * context, in the order the objects really go. A sub-buffer keeps its parent,
 * and every object keeps the context: the sub-buffer's callbacks run first,
 * then its parent's (last registered first), then the context's. */
static void test_destructor_order(void **state) {
  (void)state;
  static int c1 = 1, c2 = 2, p1 = 11, p2 = 12, s1 = 21;
  cl_int err;
  logged = 0;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_mem parent = clCreateBuffer(ctx, 0, 1024, NULL, &err);
  cl_buffer_region r = {256, 256};
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clSetContextDestructorCallback(ctx, log_context, &c1), CL_SUCCESS);
  assert_int_equal(clSetContextDestructorCallback(ctx, log_context, &c2), CL_SUCCESS);
  assert_int_equal(clSetMemObjectDestructorCallback(parent, log_mem, &p1), CL_SUCCESS);
  assert_int_equal(clSetMemObjectDestructorCallback(parent, log_mem, &p2), CL_SUCCESS);
  assert_int_equal(clSetMemObjectDestructorCallback(sub, log_mem, &s1), CL_SUCCESS);
  assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);
  assert_int_equal(clReleaseMemObject(parent), CL_SUCCESS);
  assert_int_equal(logged, 0); /* the sub-buffer holds its parent */
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
  assert_int_equal(logged, 0); /* the sub-buffer holds the context */
  assert_int_equal(clReleaseMemObject(sub), CL_SUCCESS);
  const int expected[] = {21, 12, 11, 2, 1};
  assert_int_equal(logged, 5);
  assert_memory_equal(log_, expected, sizeof expected);
}

static cl_int context_info(void *c, cl_uint name, size_t size, void *value, size_t *ret) {
  return clGetContextInfo(c, name, size, value, ret);
}

/* 4.4 clGetContextInfo: every name of OpenCL 3.0, on a context with
 * properties and one without (CL_CONTEXT_PROPERTIES then has size 0). */
static void test_info_table(void **state) {
  (void)state;
  static const struct sg_info_row rows[] = {
      SG_ROW(CL_CONTEXT_REFERENCE_COUNT, cl_uint),
      SG_ROW(CL_CONTEXT_NUM_DEVICES, cl_uint),
      SG_ROW_ARRAY(CL_CONTEXT_DEVICES, cl_device_id),
      SG_ROW_ARRAY(CL_CONTEXT_PROPERTIES, cl_context_properties),
  };
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat,
                                   CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0};
  cl_int err;
  cl_context with = clCreateContext(props, 1, &dev, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_context without = clCreateContextFromType(NULL, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  sg_check_info_table(context_info, with, rows, sizeof rows / sizeof rows[0]);
  sg_check_info_table(context_info, without, rows, sizeof rows / sizeof rows[0]);
  /* The properties come back as given, in order; the device list is one entry. */
  cl_context_properties got[5];
  size_t size;
  assert_int_equal(clGetContextInfo(with, CL_CONTEXT_PROPERTIES, sizeof got, got, &size),
                   CL_SUCCESS);
  assert_int_equal(size, sizeof props);
  assert_memory_equal(got, props, sizeof props);
  assert_int_equal(clGetContextInfo(without, CL_CONTEXT_DEVICES, 0, NULL, &size), CL_SUCCESS);
  assert_int_equal(size, sizeof(cl_device_id));
  clReleaseContext(with), clReleaseContext(without);
}

/* CL_INVALID_CONTEXT for a handle of another kind. */
static void test_invalid_context(void **state) {
  (void)state;
  cl_context not_ctx = (cl_context)dev;
  assert_int_equal(clRetainContext(not_ctx), CL_INVALID_CONTEXT);
  assert_int_equal(clReleaseContext(not_ctx), CL_INVALID_CONTEXT);
  assert_int_equal(clGetContextInfo(not_ctx, CL_CONTEXT_NUM_DEVICES, 0, NULL, NULL),
                   CL_INVALID_CONTEXT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_create_and_info), cmocka_unit_test(test_create_errors),
      cmocka_unit_test(test_from_type),       cmocka_unit_test(test_destructor_callbacks),
      cmocka_unit_test(test_invalid_context), cmocka_unit_test(test_destructor_order),
      cmocka_unit_test(test_info_table),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
