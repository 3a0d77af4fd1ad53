/* SPDX-License-Identifier: MIT */
/* API tests, thread safety (OpenCL 3.0 spec A.2 "Multiple Host Threads": all
 * API calls are thread-safe except clSetKernelArg and clCloneKernel on one
 * kernel), through the ICD loader: host threads building, launching and
 * waiting at once, checked against host computations, and racing reference
 * counts, last releases and user-event status changes. */
#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

/* clCreateCommandQueue takes the out-of-order flag directly. */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

enum { THREADS = 8, ROUNDS = 6, N = 1000 /* not a multiple of any work-group size */ };

static const char *src =
    "__kernel void axpy(__global int *y, __global const int *x, int a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] += a * x[i];\n"
    "}\n"
    "__kernel void scale(__global int *y, int b) { y[get_global_id(0)] *= b; }\n";

static cl_device_id dev;
static cl_context ctx;
static cl_program shared_prog;
static cl_command_queue shared_q;

/* cmocka's asserts must stay on the main thread: workers count failures and
 * print where they happened. */
struct worker {
  pthread_t thread;
  int id;
  int failures;
  pthread_barrier_t *start;
};

#define CHECK(w, cond)                                                                             \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "thread %d: %s:%d: %s\n", (w)->id, __FILE__, __LINE__, #cond);               \
      (w)->failures++;                                                                             \
      return false;                                                                                \
    }                                                                                              \
  } while (0)

static int setup(void **state) {
  (void)state;
  cl_platform_id plat;
  cl_int err;
  if (clGetPlatformIDs(1, &plat, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
    return -1;
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  if (err != CL_SUCCESS)
    return -1;
  shared_q = clCreateCommandQueue(ctx, dev, 0, &err);
  shared_prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  if (err != CL_SUCCESS || clBuildProgram(shared_prog, 1, &dev, NULL, NULL, NULL) != CL_SUCCESS)
    return -1;
  return 0;
}

static int teardown(void **state) {
  (void)state;
  clReleaseProgram(shared_prog);
  clReleaseCommandQueue(shared_q);
  return clReleaseContext(ctx) == CL_SUCCESS ? 0 : -1;
}

/* The reference count of obj through its clGet*Info. */
#define REFCOUNT(info, obj, name)                                                                  \
  do {                                                                                             \
    rc = 0;                                                                                        \
    assert_int_equal(info(obj, name, sizeof rc, &rc, NULL), CL_SUCCESS);                           \
  } while (0)

static void run_threads(struct worker *w, void *(*fn)(void *)) {
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, THREADS);
  for (int i = 0; i < THREADS; i++) {
    w[i] = (struct worker){.id = i, .start = &start};
    assert_int_equal(pthread_create(&w[i].thread, NULL, fn, &w[i]), 0);
  }
  int failures = 0;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(w[i].thread, NULL);
    failures += w[i].failures;
  }
  pthread_barrier_destroy(&start);
  assert_int_equal(failures, 0);
}

/* One round of one thread: y = (y0 + a*x) * b, the axpy on the shared queue
 * and the scale on the thread's own queue after it, read back there. */
static bool one_round(struct worker *w, cl_program prog, cl_command_queue own, int round) {
  cl_int err;
  int x[N], y[N], out[N];
  const int a = w->id + 2, b = round + 1;
  for (int i = 0; i < N; i++)
    x[i] = i * (w->id + 1) - round, y[i] = 3 * i + w->id;
  cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof x, x, &err);
  CHECK(w, err == CL_SUCCESS);
  cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof y, NULL, &err);
  CHECK(w, err == CL_SUCCESS);
  cl_kernel axpy = clCreateKernel(prog, "axpy", &err);
  CHECK(w, err == CL_SUCCESS);
  cl_kernel scale = clCreateKernel(prog, "scale", &err);
  CHECK(w, err == CL_SUCCESS);
  CHECK(w, clSetKernelArg(axpy, 0, sizeof by, &by) == CL_SUCCESS);
  CHECK(w, clSetKernelArg(axpy, 1, sizeof bx, &bx) == CL_SUCCESS);
  CHECK(w, clSetKernelArg(axpy, 2, sizeof a, &a) == CL_SUCCESS);
  CHECK(w, clSetKernelArg(scale, 0, sizeof by, &by) == CL_SUCCESS);
  CHECK(w, clSetKernelArg(scale, 1, sizeof b, &b) == CL_SUCCESS);
  size_t gws = N;
  cl_event written, added, scaled, read;
  CHECK(w,
        clEnqueueWriteBuffer(own, by, CL_FALSE, 0, sizeof y, y, 0, NULL, &written) == CL_SUCCESS);
  CHECK(w, clEnqueueNDRangeKernel(shared_q, axpy, 1, NULL, &gws, NULL, 1, &written, &added) ==
               CL_SUCCESS);
  CHECK(w,
        clEnqueueNDRangeKernel(own, scale, 1, NULL, &gws, NULL, 1, &added, &scaled) == CL_SUCCESS);
  CHECK(w, clEnqueueReadBuffer(own, by, CL_FALSE, 0, sizeof out, out, 1, &scaled, &read) ==
               CL_SUCCESS);
  CHECK(w, clWaitForEvents(1, &read) == CL_SUCCESS);
  for (int i = 0; i < N; i++)
    CHECK(w, out[i] == (y[i] + a * x[i]) * b);
  cl_event evs[] = {written, added, scaled, read};
  for (int i = 0; i < 4; i++)
    CHECK(w, clReleaseEvent(evs[i]) == CL_SUCCESS);
  CHECK(w, clReleaseKernel(axpy) == CL_SUCCESS);
  CHECK(w, clReleaseKernel(scale) == CL_SUCCESS);
  CHECK(w, clReleaseMemObject(bx) == CL_SUCCESS);
  CHECK(w, clReleaseMemObject(by) == CL_SUCCESS);
  return true;
}

/* Every fourth thread builds its own program in its first rounds, while the
 * others launch from the shared one; odd threads use out-of-order queues. */
static void *launcher(void *arg) {
  struct worker *w = arg;
  cl_int err;
  cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue own = clCreateCommandQueueWithProperties(ctx, dev, w->id % 2 ? ooo : NULL, &err);
  pthread_barrier_wait(w->start);
  if (err != CL_SUCCESS) {
    w->failures++;
    return NULL;
  }
  for (int r = 0; r < ROUNDS; r++) {
    cl_program prog = shared_prog;
    if (w->id % 4 == 3 && r < 2) {
      prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
      if (err != CL_SUCCESS || clBuildProgram(prog, 1, &dev, NULL, NULL, NULL) != CL_SUCCESS) {
        w->failures++;
        break;
      }
    }
    bool ok = one_round(w, prog, own, r);
    if (prog != shared_prog && clReleaseProgram(prog) != CL_SUCCESS)
      w->failures++;
    if (!ok)
      break;
  }
  if (clReleaseCommandQueue(own) != CL_SUCCESS)
    w->failures++;
  return NULL;
}

static void test_concurrent_launches(void **state) {
  (void)state;
  struct worker w[THREADS];
  run_threads(w, launcher);
  assert_int_equal(clFinish(shared_q), CL_SUCCESS);
}

/* Shared objects retained and released from every thread at once. */
static cl_mem shared_buf;
static cl_event shared_ev;

static bool retain_release(struct worker *w) {
  for (int i = 0; i < 2000; i++) {
    CHECK(w, clRetainContext(ctx) == CL_SUCCESS);
    CHECK(w, clRetainProgram(shared_prog) == CL_SUCCESS);
    CHECK(w, clRetainCommandQueue(shared_q) == CL_SUCCESS);
    CHECK(w, clRetainMemObject(shared_buf) == CL_SUCCESS);
    CHECK(w, clRetainEvent(shared_ev) == CL_SUCCESS);
    CHECK(w, clReleaseEvent(shared_ev) == CL_SUCCESS);
    CHECK(w, clReleaseMemObject(shared_buf) == CL_SUCCESS);
    CHECK(w, clReleaseCommandQueue(shared_q) == CL_SUCCESS);
    CHECK(w, clReleaseProgram(shared_prog) == CL_SUCCESS);
    CHECK(w, clReleaseContext(ctx) == CL_SUCCESS);
  }
  return true;
}

static void *retainer(void *arg) {
  struct worker *w = arg;
  pthread_barrier_wait(w->start);
  retain_release(w);
  return NULL;
}

static void test_concurrent_retain_release(void **state) {
  (void)state;
  cl_int err;
  shared_buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  shared_ev = clCreateUserEvent(ctx, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_uint rc, ctx_rc;
  REFCOUNT(clGetContextInfo, ctx, CL_CONTEXT_REFERENCE_COUNT);
  ctx_rc = rc;
  struct worker w[THREADS];
  run_threads(w, retainer);
  REFCOUNT(clGetContextInfo, ctx, CL_CONTEXT_REFERENCE_COUNT);
  assert_int_equal(rc, ctx_rc);
  REFCOUNT(clGetProgramInfo, shared_prog, CL_PROGRAM_REFERENCE_COUNT);
  assert_int_equal(rc, 1);
  REFCOUNT(clGetCommandQueueInfo, shared_q, CL_QUEUE_REFERENCE_COUNT);
  assert_int_equal(rc, 1);
  REFCOUNT(clGetMemObjectInfo, shared_buf, CL_MEM_REFERENCE_COUNT);
  assert_int_equal(rc, 1);
  REFCOUNT(clGetEventInfo, shared_ev, CL_EVENT_REFERENCE_COUNT);
  assert_int_equal(rc, 1);
  assert_int_equal(clSetUserEventStatus(shared_ev, CL_COMPLETE), CL_SUCCESS);
  assert_int_equal(clReleaseEvent(shared_ev), CL_SUCCESS);
  assert_int_equal(clReleaseMemObject(shared_buf), CL_SUCCESS);
}

/* Every thread drops one of the queue's references at once: exactly one is
 * the last, the queue shuts down once, and its pending commands still run. */
static cl_command_queue racing_q;

static void *queue_releaser(void *arg) {
  struct worker *w = arg;
  pthread_barrier_wait(w->start);
  if (clReleaseCommandQueue(racing_q) != CL_SUCCESS)
    w->failures++;
  return NULL;
}

static void test_racing_last_release(void **state) {
  (void)state;
  cl_int err;
  int host[64];
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
  assert_int_equal(err, CL_SUCCESS);
  for (int round = 0; round < 20; round++) {
    memset(host, 0, sizeof host);
    racing_q = clCreateCommandQueue(ctx, dev,
                                    round % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, &err);
    assert_int_equal(err, CL_SUCCESS);
    for (int i = 1; i < THREADS; i++)
      assert_int_equal(clRetainCommandQueue(racing_q), CL_SUCCESS);
    for (int i = 0; i < 64; i++) {
      int v = i + round;
      assert_int_equal(
          clEnqueueFillBuffer(racing_q, buf, &v, sizeof v, i * sizeof v, sizeof v, 0, NULL, NULL),
          CL_SUCCESS);
    }
    /* Releasing does not wait for the queue's commands (OpenCL 3.0 5.1:
     * the queue is deleted once they have finished): wait on a marker,
     * which covers every earlier command in either queue kind. */
    cl_event done;
    assert_int_equal(clEnqueueMarkerWithWaitList(racing_q, 0, NULL, &done), CL_SUCCESS);
    struct worker w[THREADS];
    run_threads(w, queue_releaser);
    assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
    assert_int_equal(clReleaseEvent(done), CL_SUCCESS);
    for (int i = 0; i < 64; i++)
      assert_int_equal(host[i], i + round);
  }
  assert_int_equal(clReleaseMemObject(buf), CL_SUCCESS);
}

/* clSetUserEventStatus from every thread at once: one succeeds, the rest
 * get CL_INVALID_OPERATION; waiters on other threads all wake. */
static cl_event racing_ev;

static void *status_setter(void *arg) {
  struct worker *w = arg;
  pthread_barrier_wait(w->start);
  cl_int err = clSetUserEventStatus(racing_ev, w->id % 2 ? CL_COMPLETE : -1 - w->id);
  if (err == CL_SUCCESS)
    return arg;
  if (err != CL_INVALID_OPERATION)
    w->failures++;
  return NULL;
}

static void test_racing_user_event_status(void **state) {
  (void)state;
  cl_int err;
  for (int round = 0; round < 50; round++) {
    racing_ev = clCreateUserEvent(ctx, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event waiter;
    assert_int_equal(clEnqueueMarkerWithWaitList(shared_q, 1, &racing_ev, &waiter), CL_SUCCESS);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, THREADS);
    struct worker w[THREADS];
    int winners = 0, failures = 0;
    for (int i = 0; i < THREADS; i++) {
      w[i] = (struct worker){.id = i, .start = &start};
      assert_int_equal(pthread_create(&w[i].thread, NULL, status_setter, &w[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
      void *won;
      pthread_join(w[i].thread, &won);
      winners += won != NULL;
      failures += w[i].failures;
    }
    pthread_barrier_destroy(&start);
    assert_int_equal(failures, 0);
    assert_int_equal(winners, 1);
    cl_int st;
    assert_int_equal(
        clGetEventInfo(racing_ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL),
        CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &waiter),
                     st == CL_COMPLETE ? CL_SUCCESS : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    clReleaseEvent(waiter);
    clReleaseEvent(racing_ev);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_concurrent_launches),
      cmocka_unit_test(test_concurrent_retain_release),
      cmocka_unit_test(test_racing_last_release),
      cmocka_unit_test(test_racing_user_event_status),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
