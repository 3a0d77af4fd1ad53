/* SPDX-License-Identifier: MIT */
/* Samples (DESIGN.md "Tests": every sample run through the real ICD loader):
 * the few helpers every sample host program shares. Plain OpenCL 1.2 through
 * the loader; the platform is chosen by SOFTGPU_SAMPLE_PLATFORM (a substring
 * of its name, default: the first platform), so one binary runs anywhere. */
#ifndef SG_SAMPLE_H
#define SG_SAMPLE_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exits with a message naming the call when an OpenCL call fails. */
#define SG_CL(call)                                                                                \
  do {                                                                                             \
    cl_int sg_err_ = (call);                                                                       \
    if (sg_err_ != CL_SUCCESS) {                                                                   \
      fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, (int)sg_err_);          \
      exit(2);                                                                                     \
    }                                                                                              \
  } while (0)

struct sg_sample {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue; /* in order, with profiling */
  char platform_name[256];
  double kernel_ms; /* summed over sg_sample_run() launches */
};

/* The platform whose name contains `want` (NULL or "": the first one). */
static inline cl_platform_id sg_sample_pick_platform(const char *want, char *name, size_t namelen) {
  cl_platform_id ids[16];
  cl_uint n = 0;
  if (clGetPlatformIDs(16, ids, &n) != CL_SUCCESS || n == 0) {
    fprintf(stderr, "no OpenCL platform found\n");
    exit(2);
  }
  for (cl_uint i = 0; i < n && i < 16; i++) {
    SG_CL(clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, namelen, name, NULL));
    if (!want || !*want || strstr(name, want))
      return ids[i];
  }
  fprintf(stderr, "no OpenCL platform named like \"%s\"\n", want);
  exit(2);
}

/* The context's notify callback (NULL: none) receives what the platform
 * reports about the context (SoftGPU: device faults and findings). */
typedef void(CL_CALLBACK *sg_sample_notify)(const char *, const void *, size_t, void *);

static inline void sg_sample_init_notify(struct sg_sample *s, sg_sample_notify notify,
                                         void *data) {
  cl_int err;
  memset(s, 0, sizeof(*s));
  s->platform = sg_sample_pick_platform(getenv("SOFTGPU_SAMPLE_PLATFORM"), s->platform_name,
                                        sizeof(s->platform_name));
  SG_CL(clGetDeviceIDs(s->platform, CL_DEVICE_TYPE_ALL, 1, &s->device, NULL));
  s->context = clCreateContext(NULL, 1, &s->device, notify, data, &err);
  SG_CL(err);
  s->queue = clCreateCommandQueue(s->context, s->device, CL_QUEUE_PROFILING_ENABLE, &err);
  SG_CL(err);
}

static inline void sg_sample_init(struct sg_sample *s) { sg_sample_init_notify(s, NULL, NULL); }

static inline int sg_sample_is_softgpu(const struct sg_sample *s) {
  return strstr(s->platform_name, "SoftGPU") != NULL;
}

/* Builds source; prints the build log and exits on failure. */
static inline cl_program sg_sample_build(struct sg_sample *s, const char *src, const char *opts) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(s->context, 1, &src, NULL, &err);
  SG_CL(err);
  if (clBuildProgram(p, 1, &s->device, opts, NULL, NULL) != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(p, s->device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
    fprintf(stderr, "build failed:\n%s\n", log);
    exit(2);
  }
  return p;
}

static inline cl_kernel sg_sample_kernel(cl_program p, const char *name) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  SG_CL(err);
  return k;
}

static inline cl_mem sg_sample_buffer(struct sg_sample *s, cl_mem_flags flags, size_t size,
                                      void *host) {
  cl_int err;
  cl_mem m =
      clCreateBuffer(s->context, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), size, host, &err);
  SG_CL(err);
  return m;
}

/* Launches k, waits for it and adds its profiled start..end time to
 * s->kernel_ms. */
static inline void sg_sample_run(struct sg_sample *s, cl_kernel k, cl_uint dim,
                                 const size_t *global, const size_t *local) {
  cl_event ev;
  cl_ulong t0 = 0, t1 = 0;
  SG_CL(clEnqueueNDRangeKernel(s->queue, k, dim, NULL, global, local, 0, NULL, &ev));
  SG_CL(clWaitForEvents(1, &ev));
  SG_CL(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(t0), &t0, NULL));
  SG_CL(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL));
  s->kernel_ms += (double)(t1 - t0) * 1e-6;
  clReleaseEvent(ev);
}

static inline void sg_sample_read(struct sg_sample *s, cl_mem m, size_t size, void *host) {
  SG_CL(clEnqueueReadBuffer(s->queue, m, CL_TRUE, 0, size, host, 0, NULL, NULL));
}

/* argv[1] as a positive size, or def. */
static inline size_t sg_sample_size(int argc, char **argv, size_t def) {
  if (argc < 2)
    return def;
  char *end;
  unsigned long long v = strtoull(argv[1], &end, 0);
  if (*end || v == 0) {
    fprintf(stderr, "usage: %s [size]  (size: a positive integer)\n", argv[0]);
    exit(2);
  }
  return (size_t)v;
}

static inline void sg_sample_finish(struct sg_sample *s) {
  clReleaseCommandQueue(s->queue);
  clReleaseContext(s->context);
}

/* The summary lines bench/run.sh parses; returns the exit status. */
static inline int sg_sample_report(const struct sg_sample *s, const char *name, size_t size,
                                   unsigned long mismatches) {
  printf("%s: platform \"%s\", size %zu: %s (%lu mismatches)\n", name, s->platform_name, size,
         mismatches ? "FAILED" : "ok", mismatches);
  printf("kernel_ms: %.3f\n", s->kernel_ms);
  return mismatches ? 1 : 0;
}

#endif
