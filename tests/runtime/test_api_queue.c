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

#include "sg_info_table.h"

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
  /* Valid but unsupported: a device queue. */
  assert_null(clCreateCommandQueue(
      ctx, dev, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err));
  assert_int_equal(err, CL_INVALID_QUEUE_PROPERTIES);
  /* The device reports out-of-order host queues, so they can be made. */
  cl_command_queue_properties host;
  assert_int_equal(
      clGetDeviceInfo(dev, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof host, &host, NULL),
      CL_SUCCESS);
  assert_int_equal(host, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, host, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_command_queue_properties p;
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL), CL_SUCCESS);
  assert_int_equal(p, host);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
}

/* clCreateCommandQueueWithProperties must fail with err for props. */
static void expect_refused(const cl_queue_properties *props, cl_int expected) {
  cl_int err = CL_SUCCESS;
  assert_null(clCreateCommandQueueWithProperties(ctx, dev, props, &err));
  assert_int_equal(err, expected);
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

  /* An empty list is not NULL: CL_QUEUE_PROPERTIES_ARRAY gives it back. */
  cl_queue_properties empty[] = {0};
  q = clCreateCommandQueueWithProperties(ctx, dev, empty, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof got, got, &size),
                   CL_SUCCESS);
  assert_int_equal(size, sizeof empty);
  assert_int_equal(got[0], 0);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
  cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  q = clCreateCommandQueueWithProperties(ctx, dev, ooo, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_command_queue_properties p;
  assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL), CL_SUCCESS);
  assert_int_equal(p, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);

  /* CL_INVALID_VALUE: unknown names and bits, duplicates, invalid
   * combinations (CL_QUEUE_ON_DEVICE_DEFAULT needs CL_QUEUE_ON_DEVICE, which
   * needs out-of-order), CL_QUEUE_SIZE on a host queue. */
  const cl_queue_properties invalid[][5] = {
      {0x7fff, 0, 0},
      {CL_QUEUE_PROPERTIES, (cl_queue_properties)1 << 40, 0},
      {CL_QUEUE_PROPERTIES, 0, CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0},
      {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0},
      {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0},
      {CL_QUEUE_SIZE, 1024, 0},
      {CL_QUEUE_SIZE, 1024, CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0},
      {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_SIZE, 16, 0},
  };
  for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++)
    expect_refused(invalid[i], CL_INVALID_VALUE);
  /* CL_INVALID_QUEUE_PROPERTIES: valid device-queue properties (with or
   * without CL_QUEUE_SIZE, in either order), which the device does not
   * support (CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES is 0). */
  const cl_queue_properties on_device = CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  const cl_queue_properties unsupported[][5] = {
      {CL_QUEUE_PROPERTIES, on_device, 0},
      {CL_QUEUE_PROPERTIES, on_device | CL_QUEUE_ON_DEVICE_DEFAULT, 0},
      {CL_QUEUE_SIZE, 1024, CL_QUEUE_PROPERTIES, on_device, 0},
      {CL_QUEUE_PROPERTIES, on_device, CL_QUEUE_SIZE, 1024, 0},
  };
  for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
    expect_refused(unsupported[i], CL_INVALID_QUEUE_PROPERTIES);
  assert_null(clCreateCommandQueueWithProperties((cl_context)dev, dev, NULL, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
  assert_null(clCreateCommandQueueWithProperties(ctx, (cl_device_id)ctx, NULL, &err));
  assert_int_equal(err, CL_INVALID_DEVICE);
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
  clReleaseEvent(marker);
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

/* 5.1 clReleaseCommandQueue: the last release flushes; what is queued still
 * runs, and an event of the queue can be waited for after the release. */
static void test_release_finishes(void **state) {
  (void)state;
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  int data[64], host[64];
  for (int i = 0; i < 64; i++)
    data[i] = i * 3;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
  cl_event last = NULL;
  for (int i = 0; i < 64; i++) {
    if (last)
      clReleaseEvent(last);
    assert_int_equal(clEnqueueWriteBuffer(q, buf, CL_FALSE, i * sizeof(int), sizeof(int), &data[i],
                                          0, NULL, &last),
                     CL_SUCCESS);
  }
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &last), CL_SUCCESS); /* in order: the last one is enough */
  assert_memory_equal(host, data, sizeof data);
  clReleaseEvent(last);
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

/* ---- Out-of-order queues (5.1, 5.13) -------------------------------------- */

static cl_command_queue ooo_queue(void) {
  cl_int err;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
  assert_int_equal(err, CL_SUCCESS);
  return q;
}

static cl_event user_event(void) {
  cl_int err;
  cl_event ev = clCreateUserEvent(ctx, &err);
  assert_int_equal(err, CL_SUCCESS);
  return ev;
}

/* Fills int slot i of buf with v after the n events in list. */
static cl_event fill(cl_command_queue q, cl_mem buf, int i, int v, cl_uint n,
                     const cl_event *list) {
  cl_event ev;
  assert_int_equal(clEnqueueFillBuffer(q, buf, &v, sizeof v, i * sizeof v, sizeof v, n, list, &ev),
                   CL_SUCCESS);
  return ev;
}

static void wait_ok(cl_event ev) {
  assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
}

static void release_all(cl_event *evs, int n) {
  for (int i = 0; i < n; i++)
    assert_int_equal(clReleaseEvent(evs[i]), CL_SUCCESS);
}

/* Commands run when their own wait lists are done, whatever the order they
 * were enqueued in: a later command passes an earlier one held back. */
static void test_ooo_wait_lists(void **state) {
  (void)state;
  cl_int err;
  cl_command_queue q = ooo_queue();
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * sizeof(int), NULL, &err);
  cl_event gate = user_event();
  cl_event first = fill(q, buf, 0, 1, 1, &gate);
  cl_event second = fill(q, buf, 1, 2, 0, NULL);
  cl_event after_second = fill(q, buf, 2, 3, 1, &second);
  wait_ok(after_second);
  assert_int_equal(status_of(second), CL_COMPLETE);
  assert_true(status_of(first) > CL_COMPLETE);
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clFinish(q), CL_SUCCESS);
  assert_int_equal(status_of(first), CL_COMPLETE);
  int out[3];
  assert_int_equal(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(out[0], 1), assert_int_equal(out[1], 2), assert_int_equal(out[2], 3);
  cl_event evs[] = {gate, first, second, after_second};
  release_all(evs, 4);
  clReleaseMemObject(buf);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
}

/* A marker without a wait list waits for every earlier command but holds
 * nothing back; a barrier without one also blocks every later command. The
 * 1.x clEnqueueMarker and clEnqueueBarrier act the same. */
static void test_ooo_marker_and_barrier_all(void **state) {
  (void)state;
  cl_int err;
  cl_command_queue q = ooo_queue();
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8 * sizeof(int), NULL, &err);
  cl_event gate = user_event();
  cl_event held = fill(q, buf, 0, 1, 1, &gate), marker, legacy_marker, barrier;
  assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &marker), CL_SUCCESS);
  assert_int_equal(clEnqueueMarker(q, &legacy_marker), CL_SUCCESS);
  cl_event free_runner = fill(q, buf, 1, 2, 0, NULL);
  wait_ok(free_runner);
  assert_true(status_of(marker) > CL_COMPLETE);
  assert_true(status_of(legacy_marker) > CL_COMPLETE);

  assert_int_equal(clEnqueueBarrierWithWaitList(q, 0, NULL, &barrier), CL_SUCCESS);
  cl_event blocked = fill(q, buf, 2, 3, 0, NULL);
  assert_int_equal(clEnqueueBarrier(q), CL_SUCCESS);
  cl_event blocked2 = fill(q, buf, 3, 4, 0, NULL);
  /* Its own wait list is done, but the barrier is not. */
  cl_event blocked3 = fill(q, buf, 4, 5, 1, &free_runner);
  assert_true(status_of(blocked3) > CL_COMPLETE);
  assert_true(status_of(barrier) > CL_COMPLETE);
  assert_true(status_of(blocked) > CL_COMPLETE);
  assert_true(status_of(blocked2) > CL_COMPLETE);
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  wait_ok(blocked2);
  cl_event evs[] = {marker, legacy_marker, barrier, held, blocked};
  for (int i = 0; i < 5; i++)
    assert_int_equal(status_of(evs[i]), CL_COMPLETE);
  assert_int_equal(clFinish(q), CL_SUCCESS);
  int out[5];
  assert_int_equal(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                   CL_SUCCESS);
  for (int i = 0; i < 5; i++)
    assert_int_equal(out[i], i + 1);
  release_all(evs, 5);
  cl_event more[] = {gate, free_runner, blocked2, blocked3};
  release_all(more, 4);
  clReleaseMemObject(buf);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
}

/* Markers in a row: each waits (through the one before it) for everything
 * earlier, also for commands enqueued between them; a marker with a wait list
 * waits only for its list, so the marker after it still waits for all. */
static void test_ooo_marker_chain(void **state) {
  (void)state;
  cl_int err;
  cl_command_queue q = ooo_queue();
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * sizeof(int), NULL, &err);
  cl_event gate = user_event();
  cl_event held = fill(q, buf, 0, 1, 1, &gate), m[4], listed;
  assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &m[0]), CL_SUCCESS);
  assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &m[1]), CL_SUCCESS);
  cl_event runner = fill(q, buf, 1, 2, 0, NULL);
  assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, &runner, &listed), CL_SUCCESS);
  assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &m[2]), CL_SUCCESS);
  assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &m[3]), CL_SUCCESS);
  wait_ok(listed);
  for (int i = 0; i < 4; i++)
    assert_true(status_of(m[i]) > CL_COMPLETE);
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  wait_ok(m[3]);
  assert_int_equal(status_of(held), CL_COMPLETE);
  for (int i = 0; i < 4; i++)
    assert_int_equal(status_of(m[i]), CL_COMPLETE);
  assert_int_equal(clFinish(q), CL_SUCCESS);
  release_all(m, 4);
  cl_event evs[] = {gate, held, runner, listed};
  release_all(evs, 4);
  clReleaseMemObject(buf);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
}

/* With a wait list, a marker or barrier waits for that list only; the
 * barrier (and clEnqueueWaitForEvents) still holds back later commands. */
static void test_ooo_marker_and_barrier_list(void **state) {
  (void)state;
  cl_int err;
  cl_command_queue q = ooo_queue();
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8 * sizeof(int), NULL, &err);
  cl_event gate = user_event(), gate2 = user_event(), gate3 = user_event();
  cl_event held = fill(q, buf, 0, 1, 1, &gate), marker, barrier;
  assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, &gate2, &marker), CL_SUCCESS);
  assert_int_equal(clEnqueueBarrierWithWaitList(q, 1, &marker, &barrier), CL_SUCCESS);
  cl_event later = fill(q, buf, 1, 2, 0, NULL);
  assert_true(status_of(barrier) > CL_COMPLETE);
  assert_true(status_of(later) > CL_COMPLETE);
  assert_int_equal(clSetUserEventStatus(gate2, CL_COMPLETE), CL_SUCCESS);
  wait_ok(later);
  assert_int_equal(status_of(marker), CL_COMPLETE);
  assert_int_equal(status_of(barrier), CL_COMPLETE);
  assert_true(status_of(held) > CL_COMPLETE); /* not in any list */

  assert_int_equal(clEnqueueWaitForEvents(q, 1, &gate3), CL_SUCCESS);
  cl_event last = fill(q, buf, 2, 3, 0, NULL);
  assert_true(status_of(last) > CL_COMPLETE);
  assert_int_equal(clSetUserEventStatus(gate3, CL_COMPLETE), CL_SUCCESS);
  wait_ok(last);
  assert_true(status_of(held) > CL_COMPLETE);
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clFinish(q), CL_SUCCESS);
  int out[3];
  assert_int_equal(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                   CL_SUCCESS);
  for (int i = 0; i < 3; i++)
    assert_int_equal(out[i], i + 1);
  cl_event evs[] = {gate, gate2, gate3, held, marker, barrier, later, last};
  release_all(evs, 8);
  clReleaseMemObject(buf);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
}

/* Many independent commands, then a barrier and one read of all of them:
 * the result is the host's, whatever order the workers took. */
static void test_ooo_many(void **state) {
  (void)state;
  enum { N = 256 };
  cl_int err;
  cl_command_queue q = ooo_queue();
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
  for (int i = 0; i < N; i++) {
    int v = i * 7 + 1;
    cl_event ev;
    assert_int_equal(clEnqueueFillBuffer(q, a, &v, sizeof v, i * sizeof v, sizeof v, 0, NULL, &ev),
                     CL_SUCCESS);
    /* Each copy waits for its own fill only. */
    assert_int_equal(
        clEnqueueCopyBuffer(q, a, b, i * sizeof v, i * sizeof v, sizeof v, 1, &ev, NULL),
        CL_SUCCESS);
    clReleaseEvent(ev);
  }
  assert_int_equal(clEnqueueBarrierWithWaitList(q, 0, NULL, NULL), CL_SUCCESS);
  int out[N];
  assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                   CL_SUCCESS);
  for (int i = 0; i < N; i++)
    assert_int_equal(out[i], i * 7 + 1);
  clReleaseMemObject(a), clReleaseMemObject(b);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
}

/* Queues of one device run side by side: one held back does not stop the
 * other, and waits across them work both ways. */
static void test_queues_run_concurrently(void **state) {
  (void)state;
  cl_int err;
  cl_command_queue q1 = clCreateCommandQueue(ctx, dev, 0, &err), q2 = ooo_queue();
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * sizeof(int), NULL, &err);
  cl_event gate = user_event();
  cl_event held = fill(q1, buf, 0, 1, 1, &gate);
  cl_event after_held = fill(q1, buf, 1, 2, 0, NULL);
  int out = 0;
  cl_event other = fill(q2, buf, 2, 3, 0, NULL);
  assert_int_equal(
      clEnqueueReadBuffer(q2, buf, CL_TRUE, 2 * sizeof out, sizeof out, &out, 1, &other, NULL),
      CL_SUCCESS);
  assert_int_equal(out, 3);
  assert_true(status_of(after_held) > CL_COMPLETE); /* in order behind the held fill */
  cl_event cross = fill(q2, buf, 3, 4, 1, &after_held);
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  wait_ok(cross);
  assert_int_equal(status_of(held), CL_COMPLETE);
  cl_event evs[] = {gate, held, after_held, other, cross};
  release_all(evs, 5);
  clReleaseMemObject(buf);
  assert_int_equal(clReleaseCommandQueue(q1), CL_SUCCESS);
  assert_int_equal(clReleaseCommandQueue(q2), CL_SUCCESS);
}

/* 5.1: releasing the last reference never waits for the queue's commands,
 * even one held back by a user event; once the event is set, the commands of
 * the released queue still run (checked on another queue). */
static void release_with_pending(cl_command_queue q) {
  cl_int err;
  cl_command_queue other = clCreateCommandQueue(ctx, dev, 0, &err);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * sizeof(int), NULL, &err);
  cl_event gate = user_event();
  cl_event held = fill(q, buf, 0, 11, 1, &gate);
  cl_event behind = fill(q, buf, 1, 12, 1, &held);
  assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS); /* returns: the gate is not set */
  assert_true(status_of(held) > CL_COMPLETE);
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  int out[2] = {0, 0};
  assert_int_equal(clEnqueueReadBuffer(other, buf, CL_TRUE, 0, sizeof out, out, 1, &behind, NULL),
                   CL_SUCCESS);
  assert_int_equal(out[0], 11);
  assert_int_equal(out[1], 12);
  assert_int_equal(status_of(held), CL_COMPLETE);
  cl_event evs[] = {gate, held, behind};
  release_all(evs, 3);
  clReleaseMemObject(buf);
  assert_int_equal(clReleaseCommandQueue(other), CL_SUCCESS);
}

static void test_release_with_pending(void **state) {
  (void)state;
  cl_int err;
  release_with_pending(clCreateCommandQueue(ctx, dev, 0, &err));
  release_with_pending(ooo_queue());
}

struct self_release {
  cl_command_queue q;
  cl_int err;  /* what clReleaseCommandQueue returned in the callback */
  cl_event done;
};

static void CL_CALLBACK release_own_queue(cl_event ev, cl_int status, void *data) {
  (void)ev, (void)status;
  struct self_release *s = data;
  s->err = clReleaseCommandQueue(s->q);
  clSetUserEventStatus(s->done, CL_COMPLETE);
}

/* 5.11 callbacks: a completion callback, run by the queue's own worker,
 * drops the last reference to that queue; a command queued behind it still
 * runs. The gate makes sure the callback is registered before the command
 * runs, so the worker (not this thread) calls it. */
static void self_release(cl_command_queue q) {
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * sizeof(int), NULL, &err);
  cl_event gate = user_event();
  struct self_release s = {q, 99, user_event()};
  cl_event first = fill(q, buf, 0, 21, 1, &gate);
  cl_event second = fill(q, buf, 1, 22, 1, &first);
  assert_int_equal(clSetEventCallback(first, CL_COMPLETE, release_own_queue, &s), CL_SUCCESS);
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &s.done), CL_SUCCESS);
  assert_int_equal(s.err, CL_SUCCESS);
  wait_ok(second);
  cl_command_queue reader = clCreateCommandQueue(ctx, dev, 0, &err);
  int out[2] = {0, 0};
  assert_int_equal(clEnqueueReadBuffer(reader, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(out[0], 21);
  assert_int_equal(out[1], 22);
  cl_event evs[] = {gate, s.done, first, second};
  release_all(evs, 4);
  clReleaseMemObject(buf);
  assert_int_equal(clReleaseCommandQueue(reader), CL_SUCCESS);
}

static void test_callback_releases_own_queue(void **state) {
  (void)state;
  cl_int err;
  self_release(clCreateCommandQueue(ctx, dev, 0, &err));
  self_release(ooo_queue());
}

static cl_int queue_info(void *q, cl_uint name, size_t size, void *value, size_t *ret) {
  return clGetCommandQueueInfo(q, name, size, value, ret);
}

/* 5.1 clGetCommandQueueInfo: every name of OpenCL 3.0 that a host queue
 * answers, on a 1.x queue (empty properties array) and on one made with
 * properties. CL_QUEUE_SIZE is only for device queues: the spec's error for
 * a queue that is "not a valid command-queue for param_name" is
 * CL_INVALID_COMMAND_QUEUE, with any buffer size. */
static void test_info_table(void **state) {
  (void)state;
  static const struct sg_info_row rows[] = {
      SG_ROW(CL_QUEUE_CONTEXT, cl_context),
      SG_ROW(CL_QUEUE_DEVICE, cl_device_id),
      SG_ROW(CL_QUEUE_REFERENCE_COUNT, cl_uint),
      SG_ROW(CL_QUEUE_PROPERTIES, cl_command_queue_properties),
      SG_ROW_ARRAY(CL_QUEUE_PROPERTIES_ARRAY, cl_queue_properties),
      SG_ROW(CL_QUEUE_DEVICE_DEFAULT, cl_command_queue),
  };
  cl_int err;
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue qs[2] = {clCreateCommandQueue(ctx, dev, 0, &err), NULL};
  assert_int_equal(err, CL_SUCCESS);
  qs[1] = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
  assert_int_equal(err, CL_SUCCESS);
  for (size_t i = 0; i < 2; i++) {
    sg_check_info_table(queue_info, qs[i], rows, sizeof rows / sizeof rows[0]);
    cl_uint size = 0;
    size_t ret = 0;
    assert_int_equal(clGetCommandQueueInfo(qs[i], CL_QUEUE_SIZE, 0, NULL, &ret),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clGetCommandQueueInfo(qs[i], CL_QUEUE_SIZE, sizeof size, &size, &ret),
                     CL_INVALID_COMMAND_QUEUE);
  }
  size_t n = 0;
  cl_queue_properties got[3];
  assert_int_equal(clGetCommandQueueInfo(qs[1], CL_QUEUE_PROPERTIES_ARRAY, sizeof got, got, &n),
                   CL_SUCCESS);
  assert_int_equal(n, sizeof props);
  assert_memory_equal(got, props, sizeof props);
  clReleaseCommandQueue(qs[0]);
  clReleaseCommandQueue(qs[1]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_create_and_info),
      cmocka_unit_test(test_create_errors),
      cmocka_unit_test(test_with_properties),
      cmocka_unit_test(test_marker_orders_commands),
      cmocka_unit_test(test_marker_errors),
      cmocka_unit_test(test_release_finishes),
      cmocka_unit_test(test_invalid_queue),
      cmocka_unit_test(test_ooo_wait_lists),
      cmocka_unit_test(test_ooo_marker_and_barrier_all),
      cmocka_unit_test(test_ooo_marker_and_barrier_list),
      cmocka_unit_test(test_ooo_many),
      cmocka_unit_test(test_queues_run_concurrently),
      cmocka_unit_test(test_release_with_pending),
      cmocka_unit_test(test_callback_releases_own_queue),
      cmocka_unit_test(test_info_table),
      cmocka_unit_test(test_ooo_marker_chain),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
