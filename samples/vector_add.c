/* SPDX-License-Identifier: MIT */
/* Sample (DESIGN.md "Tests": samples through the ICD loader): c = a + b over
 * a prime number of work-items with local size NULL, so the platform picks
 * the work-group size and must handle the tail. Usage: vector_add [n] */
#include "sg_sample.h"

/* clang-format off */
static const char *source =
    "kernel void vector_add(global const float *a, global const float *b,\n"
    "                       global float *c)\n"
    "{\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n";
/* clang-format on */

int main(int argc, char **argv) {
  size_t n = sg_sample_size(argc, argv, 1000003); /* prime */
  struct sg_sample s;
  sg_sample_init(&s);
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
  float *c = malloc(n * sizeof(float));
  if (!a || !b || !c)
    return 2;
  for (size_t i = 0; i < n; i++) {
    a[i] = (float)(i % 1000) * 0.5f;
    b[i] = (float)(i % 777) - 300.0f;
  }
  cl_program p = sg_sample_build(&s, source, "");
  cl_kernel k = sg_sample_kernel(p, "vector_add");
  cl_mem da = sg_sample_buffer(&s, CL_MEM_READ_ONLY, n * sizeof(float), a);
  cl_mem db = sg_sample_buffer(&s, CL_MEM_READ_ONLY, n * sizeof(float), b);
  cl_mem dc = sg_sample_buffer(&s, CL_MEM_WRITE_ONLY, n * sizeof(float), NULL);
  SG_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &da));
  SG_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &db));
  SG_CL(clSetKernelArg(k, 2, sizeof(cl_mem), &dc));
  sg_sample_run(&s, k, 1, &n, NULL);
  sg_sample_read(&s, dc, n * sizeof(float), c);

  unsigned long bad = 0;
  for (size_t i = 0; i < n; i++)
    if (c[i] != a[i] + b[i] && bad++ < 5)
      fprintf(stderr, "c[%zu] = %g, expected %g\n", i, c[i], a[i] + b[i]);
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseKernel(k);
  clReleaseProgram(p);
  sg_sample_finish(&s);
  free(a);
  free(b);
  free(c);
  return sg_sample_report(&s, "vector_add", n, bad);
}
