/* SPDX-License-Identifier: MIT */
/* cl_time: where an OpenCL program's wall time goes, for any platform.
 * Built as a library for LD_PRELOAD (libsg_cl_time.so): it wraps the entry
 * points that build programs, launch kernels and wait for the device, and
 * at exit appends one line of totals to the file named by SG_CL_TIME (or
 * stderr):
 *
 *   cl_time total_s=12.40 build_s=3.10 builds=31 enqueue_s=0.02 launches=412
 *           wait_s=8.70 waits=530
 *
 * build_s: time inside clBuildProgram, clCompileProgram and clLinkProgram;
 * enqueue_s: inside clEnqueueNDRangeKernel/clEnqueueTask (argument checks and
 * the command's set-up, not the run); wait_s: blocked on the device
 * (clFinish, clWaitForEvents, blocking reads, writes and maps), which holds
 * the kernels' execution; the rest of total_s is the program's own host work.
 * Used by tools/cts.sh --profile (docs/conformance.md). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One counter per category; the wrapped calls may come from any thread. */
enum { BUILD, ENQUEUE, WAIT, NCAT };
static _Atomic unsigned long long ns[NCAT], calls[NCAT];
static unsigned long long start_ns;

static unsigned long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

static void account(int cat, unsigned long long t0) {
  atomic_fetch_add(&ns[cat], now_ns() - t0);
  atomic_fetch_add(&calls[cat], 1);
}

/* The next definition of a wrapped entry point (the ICD loader's). */
static void *next(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "cl_time: no %s to wrap\n", name);
    abort();
  }
  return f;
}

/* Defines a wrapper that forwards to the next definition and accounts its
 * time to a category. */
#define WRAP(cat, ret, name, params, args)                                                       \
  CL_API_ENTRY ret CL_API_CALL name params {                                                     \
    static ret(CL_API_CALL * real) params;                                                        \
    if (!real)                                                                                    \
      real = (ret(CL_API_CALL *) params)next(#name);                                              \
    unsigned long long t0 = now_ns();                                                             \
    ret r = real args;                                                                            \
    account(cat, t0);                                                                             \
    return r;                                                                                     \
  }

typedef void(CL_CALLBACK *notify_fn)(cl_program, void *);

WRAP(BUILD, cl_int, clBuildProgram,
     (cl_program p, cl_uint n, const cl_device_id *d, const char *o, notify_fn cb, void *u),
     (p, n, d, o, cb, u))
WRAP(BUILD, cl_int, clCompileProgram,
     (cl_program p, cl_uint n, const cl_device_id *d, const char *o, cl_uint nh,
      const cl_program *h, const char **hn, notify_fn cb, void *u),
     (p, n, d, o, nh, h, hn, cb, u))
WRAP(BUILD, cl_program, clLinkProgram,
     (cl_context c, cl_uint n, const cl_device_id *d, const char *o, cl_uint ni,
      const cl_program *in, notify_fn cb, void *u, cl_int *e),
     (c, n, d, o, ni, in, cb, u, e))
WRAP(ENQUEUE, cl_int, clEnqueueNDRangeKernel,
     (cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *off, const size_t *g,
      const size_t *l, cl_uint nw, const cl_event *w, cl_event *e),
     (q, k, dim, off, g, l, nw, w, e))
WRAP(ENQUEUE, cl_int, clEnqueueTask,
     (cl_command_queue q, cl_kernel k, cl_uint nw, const cl_event *w, cl_event *e),
     (q, k, nw, w, e))
WRAP(WAIT, cl_int, clFinish, (cl_command_queue q), (q))
WRAP(WAIT, cl_int, clWaitForEvents, (cl_uint n, const cl_event *ev), (n, ev))
WRAP(WAIT, cl_int, clEnqueueReadBuffer,
     (cl_command_queue q, cl_mem m, cl_bool b, size_t off, size_t size, void *p, cl_uint nw,
      const cl_event *w, cl_event *e),
     (q, m, b, off, size, p, nw, w, e))
WRAP(WAIT, cl_int, clEnqueueWriteBuffer,
     (cl_command_queue q, cl_mem m, cl_bool b, size_t off, size_t size, const void *p, cl_uint nw,
      const cl_event *w, cl_event *e),
     (q, m, b, off, size, p, nw, w, e))
WRAP(WAIT, void *, clEnqueueMapBuffer,
     (cl_command_queue q, cl_mem m, cl_bool b, cl_map_flags f, size_t off, size_t size, cl_uint nw,
      const cl_event *w, cl_event *e, cl_int *err),
     (q, m, b, f, off, size, nw, w, e, err))

static void report(void) {
  const char *path = getenv("SG_CL_TIME");
  FILE *out = path && *path ? fopen(path, "a") : NULL;
  fprintf(out ? out : stderr,
          "cl_time total_s=%.3f build_s=%.3f builds=%llu enqueue_s=%.3f launches=%llu "
          "wait_s=%.3f waits=%llu\n",
          (now_ns() - start_ns) / 1e9, ns[BUILD] / 1e9, (unsigned long long)calls[BUILD],
          ns[ENQUEUE] / 1e9, (unsigned long long)calls[ENQUEUE], ns[WAIT] / 1e9,
          (unsigned long long)calls[WAIT]);
  if (out)
    fclose(out);
}

/* A program stopped by a time limit (timeout(1) sends SIGTERM) still says
 * where its time went, then dies of the signal as it would have. */
static void on_term(int sig) {
  report();
  signal(sig, SIG_DFL);
  raise(sig);
}

/* Only the program itself is measured: the processes it starts (a
 * platform's compiler, say) do not inherit the library. */
__attribute__((constructor)) static void cl_time_start(void) {
  start_ns = now_ns();
  unsetenv("LD_PRELOAD");
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_term;
  if (sigaction(SIGTERM, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
    sigaction(SIGTERM, &sa, NULL);
}

__attribute__((destructor)) static void cl_time_end(void) {
  report();
}
