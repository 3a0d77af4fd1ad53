/* SPDX-License-Identifier: MIT */
/* API tests for programs, kernels and launches (DESIGN.md "Tests": API tests
 * against the spec's error codes, through the real loader): the shared
 * fixture, a context and in-order queue on the one platform the loader sees. */
#ifndef SG_API_FIXTURE_H
#define SG_API_FIXTURE_H

/* clEnqueueTask and clSetProgramReleaseCallback are deprecated, not gone. */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

struct fx {
  cl_platform_id platform;
  cl_device_id device;
  cl_context ctx;
  cl_command_queue q;
};

static inline int fx_setup(void **state) {
  static struct fx f;
  cl_int err;
  assert_int_equal(clGetPlatformIDs(1, &f.platform, NULL), CL_SUCCESS);
  assert_int_equal(clGetDeviceIDs(f.platform, CL_DEVICE_TYPE_ALL, 1, &f.device, NULL), CL_SUCCESS);
  f.ctx = clCreateContext(NULL, 1, &f.device, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  f.q = clCreateCommandQueueWithProperties(f.ctx, f.device, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  *state = &f;
  return 0;
}

static inline int fx_teardown(void **state) {
  struct fx *f = *state;
  clReleaseCommandQueue(f->q);
  clReleaseContext(f->ctx);
  return 0;
}

/* A program built from src; fails the test (printing the log) otherwise. */
static inline cl_program fx_build(struct fx *f, const char *src, const char *options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(f->ctx, 1, &src, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  err = clBuildProgram(p, 0, NULL, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed (%d):\n%s\n", err, log);
  }
  assert_int_equal(err, CL_SUCCESS);
  return p;
}

static inline cl_kernel fx_kernel(cl_program p, const char *name) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  assert_int_equal(err, CL_SUCCESS);
  return k;
}

static inline cl_mem fx_buffer(struct fx *f, size_t size, const void *init) {
  cl_int err;
  cl_mem m =
      clCreateBuffer(f->ctx, init ? CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE,
                     size, (void *)init, &err);
  assert_int_equal(err, CL_SUCCESS);
  return m;
}

static inline void fx_read(struct fx *f, cl_mem m, size_t size, void *out) {
  assert_int_equal(clEnqueueReadBuffer(f->q, m, CL_TRUE, 0, size, out, 0, NULL, NULL), CL_SUCCESS);
}

static inline void fx_arg(cl_kernel k, cl_uint i, size_t size, const void *v) {
  assert_int_equal(clSetKernelArg(k, i, size, v), CL_SUCCESS);
}

/* Runs tests with the fixture on a device configured by `config` (the
 * lines of a file SOFTGPU_CONFIG names, set before the platform exists). */
static inline int fx_run_configured(const char *config, const struct CMUnitTest *tests,
                                    size_t n) {
  char path[] = "/tmp/softgpu-config-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0)
    return 1;
  size_t len = strlen(config);
  int written = write(fd, config, len) == (ssize_t)len;
  close(fd);
  setenv("SOFTGPU_CONFIG", path, 1);
  int failed = written ? _cmocka_run_group_tests("configured", tests, n, fx_setup, fx_teardown) : 1;
  unlink(path);
  return failed;
}

#endif
