/* SPDX-License-Identifier: MIT */
/* API tests, event family (OpenCL 3.0 spec 5.11 "Event Objects", 5.12 "User
 * Events" as part of 5.11, 5.14 "Profiling Operations on Memory Objects and
 * Kernels"), through the ICD loader. */
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
static cl_context ctx;
static cl_command_queue q, profq;
static cl_mem buf;

static int setup(void **state) {
  (void)state;
  cl_int err;
  if (clGetPlatformIDs(1, &plat, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
    return -1;
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  profq = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
  buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1024, NULL, &err);
  return err == CL_SUCCESS ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  clReleaseMemObject(buf);
  clReleaseCommandQueue(q);
  clReleaseCommandQueue(profq);
  return clReleaseContext(ctx) == CL_SUCCESS ? 0 : -1;
}

static cl_int status_of(cl_event ev) {
  cl_int st = 99;
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL),
                   CL_SUCCESS);
  return st;
}

/* 5.11 clCreateUserEvent, clSetUserEventStatus, clGetEventInfo. */
static void test_user_event(void **state) {
  (void)state;
  cl_int err;
  cl_event ev = clCreateUserEvent(ctx, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(status_of(ev), CL_SUBMITTED);
  cl_command_type type;
  cl_command_queue owner = (cl_command_queue)1;
  cl_context c;
  cl_uint rc;
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
  assert_int_equal(type, CL_COMMAND_USER);
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_QUEUE, sizeof owner, &owner, NULL),
                   CL_SUCCESS);
  assert_null(owner);
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
  assert_ptr_equal(c, ctx);
  assert_int_equal(clRetainEvent(ev), CL_SUCCESS);
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_REFERENCE_COUNT, sizeof rc, &rc, NULL), CL_SUCCESS);
  assert_int_equal(rc, 2);
  assert_int_equal(clReleaseEvent(ev), CL_SUCCESS);
  /* CL_INVALID_VALUE: neither CL_COMPLETE nor negative; unknown info name. */
  assert_int_equal(clSetUserEventStatus(ev, CL_RUNNING), CL_INVALID_VALUE);
  assert_int_equal(clGetEventInfo(ev, 0x7fff, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clSetUserEventStatus(ev, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(status_of(ev), CL_COMPLETE);
  /* CL_INVALID_OPERATION: the status was already set. */
  assert_int_equal(clSetUserEventStatus(ev, CL_COMPLETE), CL_INVALID_OPERATION);
  assert_int_equal(clReleaseEvent(ev), CL_SUCCESS);

  assert_null(clCreateUserEvent((cl_context)dev, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
  /* CL_INVALID_EVENT: a command's event is not a user event. */
  cl_event marker;
  assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &marker), CL_SUCCESS);
  assert_int_equal(clSetUserEventStatus(marker, CL_COMPLETE), CL_INVALID_EVENT);
  assert_int_equal(clWaitForEvents(1, &marker), CL_SUCCESS);
  clReleaseEvent(marker);
}

/* 5.11: a failed wait-list event fails the command, which does not run;
 * blocking calls and clWaitForEvents report it. */
static void test_failed_wait_list(void **state) {
  (void)state;
  cl_int err;
  int zero = 0, value = 5, out = -1;
  assert_int_equal(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL),
                   CL_SUCCESS);
  cl_event gate = clCreateUserEvent(ctx, &err), write;
  assert_int_equal(
      clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof value, &value, 1, &gate, &write),
      CL_SUCCESS);
  assert_int_equal(clSetUserEventStatus(gate, -1234), CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &write), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  assert_int_equal(status_of(write), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  assert_int_equal(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(out, 0); /* the write never ran */
  assert_int_equal(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, &out, 1, &gate, NULL),
                   CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(write);
  clReleaseEvent(gate);
}

/* 5.11 clWaitForEvents errors. */
static void test_wait_errors(void **state) {
  (void)state;
  cl_int err;
  assert_int_equal(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
  cl_event not_event = (cl_event)q;
  assert_int_equal(clWaitForEvents(1, &not_event), CL_INVALID_EVENT);
  cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_event two[2] = {clCreateUserEvent(ctx, &err), clCreateUserEvent(other, &err)};
  assert_int_equal(clWaitForEvents(2, two), CL_INVALID_CONTEXT);
  clSetUserEventStatus(two[0], CL_COMPLETE);
  clReleaseEvent(two[0]);
  clReleaseEvent(two[1]);
  clReleaseContext(other);
}

struct seen {
  int calls;
  cl_int status[4];
};

static void CL_CALLBACK record(cl_event ev, cl_int status, void *user_data) {
  (void)ev;
  struct seen *s = user_data;
  s->status[s->calls++] = status;
}

/* 5.11 clSetEventCallback: called once the status is reached, at once when
 * it already is, with the error status when the event fails. */
static void test_callbacks(void **state) {
  (void)state;
  cl_int err;
  struct seen done = {0}, submitted = {0}, failed = {0}, late = {0};
  cl_event ev = clCreateUserEvent(ctx, &err);
  assert_int_equal(clSetEventCallback(ev, CL_COMPLETE, record, &done), CL_SUCCESS);
  assert_int_equal(clSetEventCallback(ev, CL_SUBMITTED, record, &submitted), CL_SUCCESS);
  assert_int_equal(submitted.calls, 1); /* user events start CL_SUBMITTED */
  assert_int_equal(submitted.status[0], CL_SUBMITTED);
  assert_int_equal(done.calls, 0);
  assert_int_equal(clSetUserEventStatus(ev, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(done.calls, 1);
  assert_int_equal(done.status[0], CL_COMPLETE);
  assert_int_equal(clSetEventCallback(ev, CL_COMPLETE, record, &late), CL_SUCCESS);
  assert_int_equal(late.calls, 1);
  /* CL_INVALID_VALUE: NULL function or a status that is not a callback type. */
  assert_int_equal(clSetEventCallback(ev, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clSetEventCallback(ev, CL_QUEUED, record, &late), CL_INVALID_VALUE);
  assert_int_equal(clSetEventCallback((cl_event)q, CL_COMPLETE, record, &late), CL_INVALID_EVENT);
  clReleaseEvent(ev);

  cl_event bad = clCreateUserEvent(ctx, &err);
  assert_int_equal(clSetEventCallback(bad, CL_COMPLETE, record, &failed), CL_SUCCESS);
  assert_int_equal(clSetUserEventStatus(bad, -99), CL_SUCCESS);
  assert_int_equal(failed.calls, 1);
  assert_int_equal(failed.status[0], -99);
  clReleaseEvent(bad);

  /* A command's event runs its callbacks from the queue. */
  struct seen cmd = {0};
  cl_event marker;
  assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &marker), CL_SUCCESS);
  assert_int_equal(clSetEventCallback(marker, CL_COMPLETE, record, &cmd), CL_SUCCESS);
  assert_int_equal(clFinish(q), CL_SUCCESS);
  assert_int_equal(cmd.calls, 1);
  assert_int_equal(cmd.status[0], CL_COMPLETE);
  clReleaseEvent(marker);
}

/* 5.14 clGetEventProfilingInfo: ordered times on a profiling queue;
 * CL_PROFILING_INFO_NOT_AVAILABLE otherwise. */
static void test_profiling(void **state) {
  (void)state;
  cl_int err;
  char data[1024] = {1};
  cl_event ev;
  assert_int_equal(clEnqueueWriteBuffer(profq, buf, CL_TRUE, 0, sizeof data, data, 0, NULL, &ev),
                   CL_SUCCESS);
  cl_ulong t[5];
  const cl_profiling_info names[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                      CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                      CL_PROFILING_COMMAND_COMPLETE};
  for (int i = 0; i < 5; i++)
    assert_int_equal(clGetEventProfilingInfo(ev, names[i], sizeof t[i], &t[i], NULL), CL_SUCCESS);
  assert_true(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] <= t[4]);
  assert_int_equal(clGetEventProfilingInfo(ev, 0x7fff, sizeof t[0], t, NULL), CL_INVALID_VALUE);
  clReleaseEvent(ev);

  assert_int_equal(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof data, data, 0, NULL, &ev),
                   CL_SUCCESS);
  assert_int_equal(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t[0], t, NULL),
                   CL_PROFILING_INFO_NOT_AVAILABLE);
  clReleaseEvent(ev);
  cl_event user = clCreateUserEvent(ctx, &err);
  assert_int_equal(clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_END, sizeof t[0], t, NULL),
                   CL_PROFILING_INFO_NOT_AVAILABLE);
  /* Not complete yet: held back by the user event. */
  assert_int_equal(clEnqueueMarkerWithWaitList(profq, 1, &user, &ev), CL_SUCCESS);
  assert_int_equal(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t[0], t, NULL),
                   CL_PROFILING_INFO_NOT_AVAILABLE);
  clSetUserEventStatus(user, CL_COMPLETE);
  assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
  assert_int_equal(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t[0], t, NULL),
                   CL_SUCCESS);
  assert_int_equal(
      clGetEventProfilingInfo((cl_event)q, CL_PROFILING_COMMAND_END, sizeof t[0], t, NULL),
      CL_INVALID_EVENT);
  clReleaseEvent(ev);
  clReleaseEvent(user);
}

/* Events chain across queues: a command waits for another queue's event. */
static void test_cross_queue_wait(void **state) {
  (void)state;
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err), first, second;
  int a = 11, out = 0;
  assert_int_equal(clEnqueueWriteBuffer(profq, buf, CL_FALSE, 0, sizeof a, &a, 1, &gate, &first),
                   CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof out, &out, 1, &first, &second),
                   CL_SUCCESS);
  assert_true(status_of(second) > CL_COMPLETE);
  clSetUserEventStatus(gate, CL_COMPLETE);
  assert_int_equal(clWaitForEvents(1, &second), CL_SUCCESS);
  assert_int_equal(out, 11);
  cl_command_type type;
  assert_int_equal(clGetEventInfo(second, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                   CL_SUCCESS);
  assert_int_equal(type, CL_COMMAND_READ_BUFFER);
  clReleaseEvent(gate), clReleaseEvent(first), clReleaseEvent(second);
  assert_int_equal(clRetainEvent((cl_event)ctx), CL_INVALID_EVENT);
  assert_int_equal(clReleaseEvent((cl_event)ctx), CL_INVALID_EVENT);
  assert_int_equal(clGetEventInfo((cl_event)ctx, CL_EVENT_CONTEXT, 0, NULL, NULL),
                   CL_INVALID_EVENT);
}

static const cl_profiling_info prof_names[5] = {
    CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
    CL_PROFILING_COMMAND_END, CL_PROFILING_COMMAND_COMPLETE};

/* 5.14: on an in-order profiling queue each command's times grow in the
 * spec's order, and a command starts only after the previous one ended;
 * also for commands held back by a user event and for launches of markers. */
static void test_profiling_monotonic(void **state) {
  (void)state;
  enum { N = 8 };
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err), evs[N];
  int v = 3;
  for (int i = 0; i < N; i++) {
    if (i % 3 == 2)
      assert_int_equal(clEnqueueMarkerWithWaitList(profq, 0, NULL, &evs[i]), CL_SUCCESS);
    else
      assert_int_equal(clEnqueueFillBuffer(profq, buf, &v, sizeof v, 0, 64, i == 0 ? 1 : 0,
                                           i == 0 ? &gate : NULL, &evs[i]),
                       CL_SUCCESS);
  }
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clFinish(profq), CL_SUCCESS);
  cl_ulong prev_end = 0;
  for (int i = 0; i < N; i++) {
    cl_ulong t[5];
    for (int j = 0; j < 5; j++)
      assert_int_equal(clGetEventProfilingInfo(evs[i], prof_names[j], sizeof t[j], &t[j], NULL),
                       CL_SUCCESS);
    for (int j = 1; j < 5; j++)
      assert_true(t[j - 1] <= t[j]);
    assert_true(prev_end <= t[2]);
    prev_end = t[3];
    clReleaseEvent(evs[i]);
  }
  clReleaseEvent(gate);
}

/* 5.11 clSetEventCallback on a command: each callback runs once, with the
 * status it was registered for; registered late, it runs at once. */
static void test_command_callbacks(void **state) {
  (void)state;
  cl_int err;
  const cl_int kinds[3] = {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE};
  struct seen early[3] = {{0}}, late[3] = {{0}};
  cl_event gate = clCreateUserEvent(ctx, &err), ev;
  int v = 9;
  assert_int_equal(clEnqueueFillBuffer(q, buf, &v, sizeof v, 0, sizeof v, 1, &gate, &ev),
                   CL_SUCCESS);
  for (int i = 0; i < 3; i++)
    assert_int_equal(clSetEventCallback(ev, kinds[i], record, &early[i]), CL_SUCCESS);
  assert_int_equal(status_of(ev), CL_QUEUED); /* held back by its wait list */
  for (int i = 0; i < 3; i++)
    assert_int_equal(early[i].calls, 0);
  assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clFinish(q), CL_SUCCESS);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(early[i].calls, 1);
    assert_int_equal(early[i].status[0], kinds[i]);
    assert_int_equal(clSetEventCallback(ev, kinds[i], record, &late[i]), CL_SUCCESS);
    assert_int_equal(late[i].calls, 1);
    assert_int_equal(late[i].status[0], kinds[i]);
  }
  clReleaseEvent(ev);
  clReleaseEvent(gate);
}

/* 5.11: a failed command's CL_COMPLETE callbacks get its negative status,
 * registered before or after the failure. */
static void test_failed_command_callbacks(void **state) {
  (void)state;
  cl_int err;
  struct seen before = {0}, after = {0};
  cl_event gate = clCreateUserEvent(ctx, &err), ev;
  int v = 1;
  assert_int_equal(clEnqueueFillBuffer(q, buf, &v, sizeof v, 0, sizeof v, 1, &gate, &ev),
                   CL_SUCCESS);
  assert_int_equal(clSetEventCallback(ev, CL_COMPLETE, record, &before), CL_SUCCESS);
  assert_int_equal(clSetUserEventStatus(gate, -5), CL_SUCCESS);
  assert_int_equal(clFinish(q), CL_SUCCESS);
  assert_int_equal(before.calls, 1);
  assert_int_equal(before.status[0], CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  assert_int_equal(clSetEventCallback(ev, CL_COMPLETE, record, &after), CL_SUCCESS);
  assert_int_equal(after.calls, 1);
  assert_int_equal(after.status[0], CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(ev);
  clReleaseEvent(gate);
}

/* 5.11: a user event set to an error fails what waits on it, directly or
 * through other commands' events, on any queue; blocking calls report it.
 * Order alone (the next command of an in-order queue) does not fail. */
static void test_failure_is_transitive(void **state) {
  (void)state;
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err), a, b, c, marker, next;
  int zero = 0, v = 8, out = -1;
  assert_int_equal(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(clEnqueueFillBuffer(q, buf, &v, sizeof v, 0, sizeof v, 1, &gate, &a),
                   CL_SUCCESS);
  assert_int_equal(clEnqueueFillBuffer(profq, buf, &v, sizeof v, 0, sizeof v, 1, &a, &b),
                   CL_SUCCESS);
  assert_int_equal(clEnqueueMarkerWithWaitList(profq, 1, &b, &marker), CL_SUCCESS);
  cl_event both[2] = {gate, marker};
  assert_int_equal(clEnqueueFillBuffer(q, buf, &v, sizeof v, 0, sizeof v, 1, &marker, &c),
                   CL_SUCCESS);
  assert_int_equal(clEnqueueFillBuffer(q, buf, &zero, sizeof zero, 4, sizeof zero, 0, NULL, &next),
                   CL_SUCCESS);
  assert_int_equal(clSetUserEventStatus(gate, -77), CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(profq, buf, CL_TRUE, 0, sizeof out, &out, 2, both, NULL),
                   CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  assert_int_equal(clWaitForEvents(1, &c), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_event failed[] = {a, b, marker, c};
  for (int i = 0; i < 4; i++)
    assert_int_equal(status_of(failed[i]), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  assert_int_equal(status_of(gate), -77);
  assert_int_equal(clWaitForEvents(1, &next), CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(out, 0); /* none of the fills ran */
  /* Failed events give no profiling information. */
  cl_ulong t;
  assert_int_equal(clGetEventProfilingInfo(b, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL),
                   CL_PROFILING_INFO_NOT_AVAILABLE);
  for (int i = 0; i < 4; i++)
    clReleaseEvent(failed[i]);
  clReleaseEvent(gate), clReleaseEvent(next);
}

static cl_int event_info(void *ev, cl_uint name, size_t size, void *value, size_t *ret) {
  return clGetEventInfo(ev, name, size, value, ret);
}

static cl_int profiling_info(void *ev, cl_uint name, size_t size, void *value, size_t *ret) {
  return clGetEventProfilingInfo(ev, name, size, value, ret);
}

/* 5.11 clGetEventInfo: every name of OpenCL 3.0 on a user event, a pending
 * command and a completed one; 5.14 clGetEventProfilingInfo: every name on
 * a completed command of a profiling queue. */
static void test_info_table(void **state) {
  (void)state;
  static const struct sg_info_row rows[] = {
      SG_ROW(CL_EVENT_COMMAND_QUEUE, cl_command_queue),
      SG_ROW(CL_EVENT_CONTEXT, cl_context),
      SG_ROW(CL_EVENT_COMMAND_TYPE, cl_command_type),
      SG_ROW(CL_EVENT_COMMAND_EXECUTION_STATUS, cl_int),
      SG_ROW(CL_EVENT_REFERENCE_COUNT, cl_uint),
  };
  static const struct sg_info_row prof_rows[] = {
      SG_ROW(CL_PROFILING_COMMAND_QUEUED, cl_ulong),
      SG_ROW(CL_PROFILING_COMMAND_SUBMIT, cl_ulong),
      SG_ROW(CL_PROFILING_COMMAND_START, cl_ulong),
      SG_ROW(CL_PROFILING_COMMAND_END, cl_ulong),
      SG_ROW(CL_PROFILING_COMMAND_COMPLETE, cl_ulong),
  };
  cl_int err;
  cl_event user = clCreateUserEvent(ctx, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_event pending, done;
  assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, &user, &pending), CL_SUCCESS);
  char data[64] = {1};
  assert_int_equal(clEnqueueWriteBuffer(profq, buf, CL_TRUE, 0, sizeof data, data, 0, NULL, &done),
                   CL_SUCCESS);
  cl_event evs[] = {user, pending, done};
  for (size_t i = 0; i < 3; i++)
    sg_check_info_table(event_info, evs[i], rows, sizeof rows / sizeof rows[0]);
  sg_check_info_table(profiling_info, done, prof_rows, sizeof prof_rows / sizeof prof_rows[0]);
  assert_int_equal(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &pending), CL_SUCCESS);
  clReleaseEvent(pending), clReleaseEvent(done), clReleaseEvent(user);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_user_event),
      cmocka_unit_test(test_failed_wait_list),
      cmocka_unit_test(test_wait_errors),
      cmocka_unit_test(test_callbacks),
      cmocka_unit_test(test_profiling),
      cmocka_unit_test(test_cross_queue_wait),
      cmocka_unit_test(test_profiling_monotonic),
      cmocka_unit_test(test_command_callbacks),
      cmocka_unit_test(test_failed_command_callbacks),
      cmocka_unit_test(test_failure_is_transitive),
      cmocka_unit_test(test_info_table),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
