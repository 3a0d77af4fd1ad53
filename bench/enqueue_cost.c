/* SPDX-License-Identifier: MIT */
/* Enqueue cost per command as the queue grows: N markers that all wait for
 * one user event (each registers a callback on that event), and N markers
 * without a wait list on an out-of-order queue (each waits for everything
 * before it), behind one command held by a user event. A linear runtime
 * shows the same ns/command at every N. Prints the median of 5 runs:
 *   enqueue_cost [N...]     (default 1000 10000 100000) */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define RUNS 5

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void check(cl_int err, const char *what) {
  if (err != CL_SUCCESS) {
    fprintf(stderr, "enqueue_cost: %s failed (%d)\n", what, err);
    exit(1);
  }
}

/* ns per enqueued marker; ooo selects the scenario. */
static double run(cl_context ctx, cl_device_id dev, int n, int ooo) {
  cl_int err;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                 ooo ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
  check(err, "clCreateCommandQueueWithProperties");
  cl_event gate = clCreateUserEvent(ctx, &err);
  check(err, "clCreateUserEvent");
  if (ooo)
    check(clEnqueueMarkerWithWaitList(q, 1, &gate, NULL), "held marker");
  double t0 = now_ns();
  for (int i = 0; i < n; i++)
    check(ooo ? clEnqueueMarkerWithWaitList(q, 0, NULL, NULL)
              : clEnqueueMarkerWithWaitList(q, 1, &gate, NULL),
          "clEnqueueMarkerWithWaitList");
  double t = now_ns() - t0;
  check(clSetUserEventStatus(gate, CL_COMPLETE), "clSetUserEventStatus");
  check(clFinish(q), "clFinish");
  clReleaseEvent(gate);
  clReleaseCommandQueue(q);
  return t / n;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  cl_platform_id plat;
  cl_device_id dev;
  cl_int err;
  check(clGetPlatformIDs(1, &plat, NULL), "clGetPlatformIDs");
  check(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL), "clGetDeviceIDs");
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  check(err, "clCreateContext");
  setvbuf(stdout, NULL, _IOLBF, 0); /* each row as soon as it is measured */
  static const int defaults[] = {1000, 10000, 100000};
  int count = argc > 1 ? argc - 1 : 3;
  printf("%10s %28s %28s\n", "N", "on one user event (ns/cmd)", "out-of-order markers (ns/cmd)");
  for (int c = 0; c < count; c++) {
    int n = argc > 1 ? atoi(argv[c + 1]) : defaults[c];
    if (n <= 0)
      continue;
    double t[2][RUNS];
    run(ctx, dev, n, 0); /* warm-up */
    for (int r = 0; r < RUNS; r++)
      for (int ooo = 0; ooo < 2; ooo++)
        t[ooo][r] = run(ctx, dev, n, ooo);
    qsort(t[0], RUNS, sizeof(double), cmp);
    qsort(t[1], RUNS, sizeof(double), cmp);
    printf("%10d %28.0f %28.0f\n", n, t[0][RUNS / 2], t[1][RUNS / 2]);
  }
  clReleaseContext(ctx);
  return 0;
}
