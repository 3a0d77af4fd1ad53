/* SPDX-License-Identifier: MIT */
/* Benchmark of the fixed costs of a launch (DESIGN.md section 3, CTA
 * dispatch): an empty kernel, a copy kernel and a 5-point stencil over a
 * sweep of work-group sizes and counts. Prints, per point, the median
 * kernel time of BENCH_REPS launches (profiled START..END) as ns per
 * work-group and ns per work-item: a trivial work-group should cost no more
 * than its instructions. Usage: wg_sweep [kernel...]
 * Platform: SOFTGPU_SAMPLE_PLATFORM (a substring of its name). */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>

#include "../samples/sg_sample.h"

static const char source[] =
    "__kernel void empty(__global float *a, __global float *b, int w) {}\n"
    "__kernel void copy(__global const float *a, __global float *b, int w) {\n"
    "  size_t i = get_global_id(0); b[i] = a[i];\n}\n"
    "__kernel void stencil(__global const float *in, __global float *out, int w) {\n"
    "  size_t i = get_global_id(0); int x = i % w;\n"
    "  if (x == 0 || x == w - 1 || i < w || i >= get_global_size(0) - w) { out[i] = in[i]; return; }\n"
    "  out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);\n}\n";

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  static const char *const kernels[] = {"empty", "copy", "stencil"};
  static const size_t wg_sizes[] = {32, 64, 128, 256};
  static const size_t wg_counts[] = {16, 256, 4096};
  int reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 11;
  reps = reps < 1 ? 1 : reps > 99 ? 99 : reps;
  struct sg_sample s;
  sg_sample_init(&s);
  cl_program p = sg_sample_build(&s, source, "");
  size_t max = 256 * 4096;
  cl_mem a = sg_sample_buffer(&s, CL_MEM_READ_WRITE, max * 4, NULL);
  cl_mem b = sg_sample_buffer(&s, CL_MEM_READ_WRITE, max * 4, NULL);
  float zero = 0;
  SG_CL(clEnqueueFillBuffer(s.queue, a, &zero, 4, 0, max * 4, 0, NULL, NULL));
  printf("platform \"%s\", median of %d launches\n", s.platform_name, reps);
  printf("%-8s %6s %7s %12s %10s %10s\n", "kernel", "wg", "groups", "launch us", "ns/wg",
         "ns/item");
  for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
    bool want = argc < 2;
    for (int i = 1; i < argc; i++)
      want |= !strcmp(argv[i], kernels[k]);
    if (!want)
      continue;
    cl_kernel kern = sg_sample_kernel(p, kernels[k]);
    int w = 64;
    SG_CL(clSetKernelArg(kern, 0, sizeof a, &a));
    SG_CL(clSetKernelArg(kern, 1, sizeof b, &b));
    SG_CL(clSetKernelArg(kern, 2, sizeof w, &w));
    for (size_t i = 0; i < sizeof wg_sizes / sizeof wg_sizes[0]; i++)
      for (size_t j = 0; j < sizeof wg_counts / sizeof wg_counts[0]; j++) {
        size_t local = wg_sizes[i], global = local * wg_counts[j];
        double t[99];
        s.kernel_ms = 0;
        sg_sample_run(&s, kern, 1, &global, &local); /* warm-up */
        for (int r = 0; r < reps; r++) {
          s.kernel_ms = 0;
          sg_sample_run(&s, kern, 1, &global, &local);
          t[r] = s.kernel_ms;
        }
        qsort(t, (size_t)reps, sizeof t[0], cmp);
        double ms = t[reps / 2];
        printf("%-8s %6zu %7zu %12.1f %10.1f %10.2f\n", kernels[k], local, wg_counts[j],
               ms * 1e3, ms * 1e6 / (double)wg_counts[j], ms * 1e6 / (double)global);
      }
    clReleaseKernel(kern);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseProgram(p);
  sg_sample_finish(&s);
  return 0;
}
