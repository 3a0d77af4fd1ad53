/* SPDX-License-Identifier: MIT */
/* API tests, command-queue family (OpenCL 3.0 spec 5.1 "Command-Queues",
 * 5.13 "Markers, Barriers and Waiting", 5.15 "Flush and Finish"), through
 * the ICD loader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

/* The 1.x entry points are part of what is tested. */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

static cl_platform_id plat;
static cl_device_id dev;
static cl_context ctx;

static int setup(void **state) {
  (void)state;
  cl_int err;
  if (clGetPlatformIDs(1, &plat, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
    return -1;
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  return err == CL_SUCCESS ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  return clReleaseContext(ctx) == CL_SUCCESS ? 0 : -1;
}

static cl_int status_of(cl_event ev) {
  cl_int st = 99;
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL),
                   CL_SUCCESS);
  return st;
}

/* 5.1 clCreateCommandQueue / clGetCommandQueueInfo / retain / release. */
static void test_create_and_info(void **state) {
  (void)state;
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_context c;
  cl_device_id d;
  cl_uint rc;
  cl_command_queue_properties p;
  size_t size;
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
  assert_ptr_equal(c, ctx);
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof d, &d, NULL), CL_SUCCESS);
  assert_ptr_equal(d, dev);
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL), CL_SUCCESS);
  assert_int_equal(p, CL_QUEUE_PROFILING_ENABLE);
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size), CL_SUCCESS);
  assert_int_equal(size, 0); /* not made by clCreateCommandQueueWithProperties */
  assert_int_equal(clRetainCommandQueue(q), CL_SUCCESS);
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof rc, &rc, NULL),
                   CL_SUCCESS);
  assert_int_equal(rc, 2);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
  cl_command_queue dq = (cl_command_queue)1;
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof dq, &dq, NULL),
                   CL_SUCCESS);
  assert_null(dq);
  /* CL_QUEUE_SIZE: CL_INVALID_COMMAND_QUEUE for a host queue. */
  cl_uint qs;
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof qs, &qs, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clGetCommandQueueInfo(q, 0x7fff, 0, NULL, &size), CL_INVALID_VALUE);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
}

/* 5.1 clCreateCommandQueue errors. */
static void test_create_errors(void **state) {
  (void)state;
  cl_int err;
  assert_null(clCreateCommandQueue((cl_context)dev, dev, 0, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
  assert_null(clCreateCommandQueue(ctx, (cl_device_id)ctx, 0, &err));
  assert_int_equal(err, CL_INVALID_DEVICE);
  assert_null(clCreateCommandQueue(ctx, dev, (cl_command_queue_properties)1 << 30, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  /* Valid but unsupported: out-of-order execution. */
  assert_null(clCreateCommandQueue(ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err));
  assert_int_equal(err, CL_INVALID_QUEUE_PROPERTIES);
}

/* 5.1 clCreateCommandQueueWithProperties and its errors. */
static void test_with_properties(void **state) {
  (void)state;
  cl_int err;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_queue_properties got[3];
  size_t size;
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof got, got, &size),
                   CL_SUCCESS);
  assert_int_equal(size, sizeof props);
  assert_memory_equal(got, props, sizeof props);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
  q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);

  cl_queue_properties unknown[] = {0x7fff, 0, 0};
  assert_null(clCreateCommandQueueWithProperties(ctx, dev, unknown, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  cl_queue_properties size_only[] = {CL_QUEUE_SIZE, 1024, 0};
  assert_null(clCreateCommandQueueWithProperties(ctx, dev, size_only, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  cl_queue_properties on_device[] = {
      CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  assert_null(clCreateCommandQueueWithProperties(ctx, dev, on_device, &err));
  assert_int_equal(err, CL_INVALID_QUEUE_PROPERTIES);
  cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  assert_null(clCreateCommandQueueWithProperties(ctx, dev, ooo, &err));
  assert_int_equal(err, CL_INVALID_QUEUE_PROPERTIES);
  assert_null(clCreateCommandQueueWithProperties((cl_context)dev, dev, NULL, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
}

/* 5.13: in order, a marker completes only after what precedes it; here a
 * write held back by a user event. */
static void test_marker_orders_commands(void **state) {
  (void)state;
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
  cl_event gate = clCreateUserEvent(ctx, &err);
  int value = 42, out = 0;
  cl_event marker, barrier, legacy;
  assert_int_equal(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof value, &value, 1, &gate, NULL),
                   CL_SUCCESS);
  assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &marker), CL_SUCCESS);
  assert_int_equal(clEnqueueBarrierWithWaitList(q, 0, NULL, &barrier), CL_SUCCESS);
  assert_int_equal(clEnqueueMarker(q, &legacy), CL_SUCCESS);
  assert_int_equal(clEnqueueBarrier(q), CL_SUCCESS);
  assert_int_equal(clFlush(q), CL_SUCCESS);
  assert_true(status_of(marker) > CL_COMPLETE); /* cannot pass the gated write */
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clFinish(q), CL_SUCCESS);
  assert_int_equal(status_of(marker), CL_COMPLETE);
  assert_int_equal(status_of(barrier), CL_COMPLETE);
  assert_int_equal(status_of(legacy), CL_COMPLETE);
  cl_command_type type;
  assert_int_equal(clGetEventInfo(marker, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                   CL_SUCCESS);
  assert_int_equal(type, CL_COMMAND_MARKER);
  assert_int_equal(clGetEventInfo(barrier, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                   CL_SUCCESS);
  assert_int_equal(type, CL_COMMAND_BARRIER);
  assert_int_equal(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(out, 42);

  /* clEnqueueWaitForEvents holds the queue until its events complete. */
  cl_event gate2 = clCreateUserEvent(ctx, &err);
  value = 7;
  assert_int_equal(clEnqueueWaitForEvents(q, 1, &gate2), CL_SUCCESS);
  assert_int_equal(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof value, &value, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(clEnqueueMarker(q, &marker), CL_SUCCESS);
  assert_true(status_of(marker) > CL_COMPLETE);
  assert_int_equal(clSetUserEventStatus(gate2, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(out, 7);

  clReleaseEvent(marker), clReleaseEvent(barrier), clReleaseEvent(legacy);
  clReleaseEvent(gate), clReleaseEvent(gate2);
  clReleaseMemObject(buf);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
}

/* 5.13 errors of the marker, barrier and wait calls. */
static void test_marker_errors(void **state) {
  (void)state;
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  cl_event ev;
  assert_int_equal(clEnqueueMarker(q, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueWaitForEvents(q, 0, NULL), CL_INVALID_VALUE);
  cl_event not_event = (cl_event)q;
  assert_int_equal(clEnqueueWaitForEvents(q, 1, &not_event), CL_INVALID_EVENT);
  assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, NULL, &ev), CL_INVALID_EVENT_WAIT_LIST);
  assert_int_equal(clEnqueueBarrierWithWaitList(q, 0, &not_event, &ev), CL_INVALID_EVENT_WAIT_LIST);
  assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, &not_event, &ev), CL_INVALID_EVENT_WAIT_LIST);
  /* CL_INVALID_CONTEXT: a wait-list event of another context. */
  cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_event foreign = clCreateUserEvent(other, &err);
  assert_int_equal(clEnqueueBarrierWithWaitList(q, 1, &foreign, NULL), CL_INVALID_CONTEXT);
  clReleaseEvent(foreign);
  clReleaseContext(other);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
}

/* 5.1 clReleaseCommandQueue: the last release runs what is queued first. */
static void test_release_finishes(void **state) {
  (void)state;
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  int data[64], host[64];
  for (int i = 0; i < 64; i++)
    data[i] = i * 3;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
  for (int i = 0; i < 64; i++)
    assert_int_equal(clEnqueueWriteBuffer(q, buf, CL_FALSE, i * sizeof(int), sizeof(int), &data[i],
                                          0, NULL, NULL),
                     CL_SUCCESS);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
  assert_memory_equal(host, data, sizeof data);
  clReleaseMemObject(buf);
}

/* CL_INVALID_COMMAND_QUEUE for handles of another kind, and for a queue the
 * application has released while an event still refers to it. */
static void test_invalid_queue(void **state) {
  (void)state;
  cl_command_queue not_q = (cl_command_queue)ctx;
  assert_int_equal(clFlush(not_q), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clFinish(not_q), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clRetainCommandQueue(not_q), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clReleaseCommandQueue(not_q), CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clEnqueueBarrier(not_q), CL_INVALID_COMMAND_QUEUE);
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  cl_event ev;
  assert_int_equal(clEnqueueMarker(q, &ev), CL_SUCCESS);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
  assert_int_equal(clFinish(q), CL_INVALID_COMMAND_QUEUE);
  cl_command_queue owner;
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_QUEUE, sizeof owner, &owner, NULL),
                   CL_SUCCESS);
  assert_ptr_equal(owner, q);
  clReleaseEvent(ev);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_create_and_info), cmocka_unit_test(test_create_errors),
      cmocka_unit_test(test_with_properties), cmocka_unit_test(test_marker_orders_commands),
      cmocka_unit_test(test_marker_errors),   cmocka_unit_test(test_release_finishes),
      cmocka_unit_test(test_invalid_queue),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
