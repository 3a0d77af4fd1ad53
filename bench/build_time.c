/* SPDX-License-Identifier: MIT */
/* Benchmark of the compiler box (DESIGN.md section 2): clBuildProgram
 * latency for a small program (one kernel, one built-in) and a large one
 * (many kernels, many built-ins), median of several builds, on every
 * platform the loader lists (or the one SOFTGPU_SAMPLE_PLATFORM names):
 * from a fresh source, with the first launch (PoCL generates code then),
 * and the same source again (what a program cache answers). */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "../samples/sg_sample.h"

enum { REPS = 5, LARGE_KERNELS = 48 };

static const char small_src[] = "__kernel void k(__global float *a) {\n"
                                "  size_t i = get_global_id(0);\n"
                                "  a[i] = sqrt(a[i]);\n"
                                "}\n";

/* Built-ins spread over the families: math (float and vector), integer,
 * common, geometric, relational, conversions, vload/vstore. */
static const char *const large_ops[] = {
    "a[i] = sin(a[i]) + cos(b[i]) * exp(a[i]);",
    "a[i] = pow(a[i], b[i]) + log2(b[i]) - atan2(a[i], b[i]);",
    "vstore4(tanh(vload4(i, a)) + hypot(vload4(i, b), 2.0f), i, a);",
    "n[i] = add_sat(n[i], (int)i) + popcount(n[i]) + mul_hi(n[i], 77) + rotate(n[i], 3);",
    "a[i] = clamp(a[i], 0.0f, 1.0f) + smoothstep(0.0f, 1.0f, b[i]) + mix(a[i], b[i], 0.5f);",
    "a[i] = length(vload3(i, a)) + dot(vload4(i, a), vload4(i, b)) + distance(a[i], b[i]);",
    "n[i] = isnan(a[i]) + isless(a[i], b[i]) + signbit(b[i]) + any(vload4(i, n) < 0);",
    "n[i] = convert_int_sat_rte(a[i] * 1e6f) + convert_int_rtn(b[i]);",
    "a[i] = rootn(a[i], 3) + fract(b[i], &b[i]) + remquo(a[i], b[i], &n[i]);",
    "vstore_half_rte(a[i], i, (__global half *)b); a[i] = vload_half(i, (__global half *)b);",
    "a[i] = tgamma(a[i]) + erfc(b[i]) + cbrt(a[i]) + sinpi(b[i]);",
    "vstore8(fma(vload8(i, a), vload8(i, b), 1.0f), i, a);",
};

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static char *large_source(void) {
  size_t nops = sizeof(large_ops) / sizeof(large_ops[0]), cap = 1 << 16, len = 0;
  char *s = malloc(cap);
  for (int k = 0; k < LARGE_KERNELS && s; k++)
    len += (size_t)snprintf(s + len, cap - len,
                            "__kernel void k%d(__global float *a, __global float *b, "
                            "__global int *n) {\n  size_t i = get_global_id(0);\n  %s\n}\n",
                            k, large_ops[(size_t)k % nops]);
  return s;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

enum mode {
  FRESH,  /* a fresh source each time (a numbered comment): the compiler runs */
  LAUNCH, /* the same, plus the first launch of kernel k (PoCL compiles then) */
  REPEAT  /* one source built again and again: a program cache may answer */
};

/* Median build time over REPS builds. */
static double median_build(cl_context ctx, cl_device_id dev, const char *src, enum mode mode) {
  double t[REPS];
  size_t len = strlen(src) + 64;
  char *text = malloc(len);
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  SG_CL(err);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(float), NULL, &err);
  SG_CL(err);
  long stamp = (long)now_ms();
  for (int r = -(mode == REPEAT); r < REPS; r++) {
    snprintf(text, len, "/* build %d %ld */\n%s", mode == REPEAT ? 0 : r, stamp, src);
    const char *p = text;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &p, NULL, &err);
    SG_CL(err);
    double t0 = now_ms();
    SG_CL(clBuildProgram(prog, 1, &dev, NULL, NULL, NULL));
    if (mode == LAUNCH) {
      size_t global = 64;
      cl_kernel k = clCreateKernel(prog, "k", &err);
      SG_CL(err);
      SG_CL(clSetKernelArg(k, 0, sizeof buf, &buf));
      SG_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
      SG_CL(clFinish(q));
      clReleaseKernel(k);
    }
    if (r >= 0)
      t[r] = now_ms() - t0;
    clReleaseProgram(prog);
  }
  clReleaseMemObject(buf);
  clReleaseCommandQueue(q);
  free(text);
  qsort(t, REPS, sizeof(t[0]), cmp);
  return t[REPS / 2];
}

int main(void) {
  cl_platform_id ids[16];
  cl_uint n = 0;
  const char *want = getenv("SOFTGPU_SAMPLE_PLATFORM");
  SG_CL(clGetPlatformIDs(16, ids, &n));
  char *large = large_source();
  if (!large)
    return 2;
  printf("%-32s %9s %15s %10s %9s %10s\n", "platform", "small_ms", "small+launch_ms",
         "small_rep", "large_ms", "large_rep");
  printf("(median of %d builds; large: %d kernels; _rep: the same source built again)\n", REPS,
         LARGE_KERNELS);
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[256];
    cl_device_id dev;
    cl_int err;
    SG_CL(clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name), name, NULL));
    if (want && *want && !strstr(name, want))
      continue;
    SG_CL(clGetDeviceIDs(ids[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    SG_CL(err);
    double small_ms = median_build(ctx, dev, small_src, FRESH);
    double small_launch = median_build(ctx, dev, small_src, LAUNCH);
    double small_rep = median_build(ctx, dev, small_src, REPEAT);
    double large_ms = median_build(ctx, dev, large, FRESH);
    double large_rep = median_build(ctx, dev, large, REPEAT);
    printf("%-32.32s %9.1f %15.1f %10.2f %9.1f %10.2f\n", name, small_ms, small_launch, small_rep,
           large_ms, large_rep);
    clReleaseContext(ctx);
  }
  free(large);
  return 0;
}
