/* SPDX-License-Identifier: MIT */
/* Sample (DESIGN.md "Tests": samples through the ICD loader): C = A * B for
 * n x n float matrices, 16x16 tiles staged in __local memory between
 * barriers. n is rounded up to a multiple of 16. Usage: matmul [n] */
#include "sg_sample.h"

#define TILE 16

/* clang-format off */
static const char *source =
    "#define TILE 16\n"
    "kernel void matmul(global const float *a, global const float *b,\n"
    "                   global float *c, uint n)\n"
    "{\n"
    "  local float ta[TILE][TILE], tb[TILE][TILE];\n"
    "  uint lx = get_local_id(0), ly = get_local_id(1);\n"
    "  uint col = get_global_id(0), row = get_global_id(1);\n"
    "  float acc = 0.0f;\n"
    "  for (uint t = 0; t < n; t += TILE) {\n"
    "    ta[ly][lx] = a[row * n + t + lx];\n"
    "    tb[ly][lx] = b[(t + ly) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint k = 0; k < TILE; k++)\n"
    "      acc += ta[ly][k] * tb[k][lx];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  c[row * n + col] = acc;\n"
    "}\n";
/* clang-format on */

int main(int argc, char **argv) {
  size_t n = (sg_sample_size(argc, argv, 256) + TILE - 1) / TILE * TILE;
  struct sg_sample s;
  sg_sample_init(&s);
  float *a = malloc(n * n * sizeof(float)), *b = malloc(n * n * sizeof(float));
  float *c = malloc(n * n * sizeof(float));
  if (!a || !b || !c)
    return 2;
  /* Small integers: every product and partial sum is exact in float, so any
   * summation order gives the same result and the check can be exact. */
  for (size_t i = 0; i < n * n; i++) {
    a[i] = (float)((i * 7) % 11) - 5.0f;
    b[i] = (float)((i * 3) % 13) - 6.0f;
  }
  cl_program p = sg_sample_build(&s, source, "");
  cl_kernel k = sg_sample_kernel(p, "matmul");
  cl_mem da = sg_sample_buffer(&s, CL_MEM_READ_ONLY, n * n * sizeof(float), a);
  cl_mem db = sg_sample_buffer(&s, CL_MEM_READ_ONLY, n * n * sizeof(float), b);
  cl_mem dc = sg_sample_buffer(&s, CL_MEM_WRITE_ONLY, n * n * sizeof(float), NULL);
  cl_uint un = (cl_uint)n;
  SG_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &da));
  SG_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &db));
  SG_CL(clSetKernelArg(k, 2, sizeof(cl_mem), &dc));
  SG_CL(clSetKernelArg(k, 3, sizeof(cl_uint), &un));
  size_t global[2] = {n, n}, local[2] = {TILE, TILE};
  sg_sample_run(&s, k, 2, global, local);
  sg_sample_read(&s, dc, n * n * sizeof(float), c);

  unsigned long bad = 0;
  for (size_t r = 0; r < n; r++)
    for (size_t col = 0; col < n; col++) {
      float ref = 0.0f;
      for (size_t k2 = 0; k2 < n; k2++)
        ref += a[r * n + k2] * b[k2 * n + col];
      if (c[r * n + col] != ref && bad++ < 5)
        fprintf(stderr, "c[%zu][%zu] = %g, expected %g\n", r, col, c[r * n + col], ref);
    }
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseKernel(k);
  clReleaseProgram(p);
  sg_sample_finish(&s);
  free(a);
  free(b);
  free(c);
  return sg_sample_report(&s, "matmul", n, bad);
}
