/* SPDX-License-Identifier: MIT */
/* Sample (DESIGN.md "Tests": samples through the ICD loader): 256-bin
 * histogram of n bytes. Each work-group counts into __local bins with
 * atomic_inc, then adds its bins to the global histogram with atomic_add.
 * The data is skewed so that many work-items hit the same bin at once.
 * Usage: histogram [n] */
#include "sg_sample.h"

#define BINS 256
#define GROUP 128
#define GROUPS 32

/* clang-format off */
static const char *source =
    "kernel void histogram(global const uchar *data, uint n, global uint *hist)\n"
    "{\n"
    "  local uint bins[256];\n"
    "  uint l = get_local_id(0), size = get_local_size(0);\n"
    "  for (uint b = l; b < 256; b += size)\n"
    "    bins[b] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "    atomic_inc(&bins[data[i]]);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint b = l; b < 256; b += size)\n"
    "    atomic_add(&hist[b], bins[b]);\n"
    "}\n";
/* clang-format on */

int main(int argc, char **argv) {
  size_t n = sg_sample_size(argc, argv, 1 << 22);
  struct sg_sample s;
  sg_sample_init(&s);
  unsigned char *data = malloc(n);
  cl_uint ref[BINS] = {0}, hist[BINS] = {0};
  if (!data || n > 0xffffffffu)
    return 2;
  for (size_t i = 0; i < n; i++) {
    cl_uint h = (cl_uint)(i * 2654435761u);
    data[i] = (unsigned char)((h >> 24) & (h >> 16)); /* skewed towards 0 */
    ref[data[i]]++;
  }
  cl_program p = sg_sample_build(&s, source, "");
  cl_kernel k = sg_sample_kernel(p, "histogram");
  cl_mem dd = sg_sample_buffer(&s, CL_MEM_READ_ONLY, n, data);
  cl_mem dh = sg_sample_buffer(&s, CL_MEM_READ_WRITE, sizeof(hist), hist);
  cl_uint un = (cl_uint)n;
  SG_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &dd));
  SG_CL(clSetKernelArg(k, 1, sizeof(cl_uint), &un));
  SG_CL(clSetKernelArg(k, 2, sizeof(cl_mem), &dh));
  size_t global = GROUP * GROUPS, local = GROUP;
  sg_sample_run(&s, k, 1, &global, &local);
  sg_sample_read(&s, dh, sizeof(hist), hist);

  unsigned long bad = 0;
  for (int b = 0; b < BINS; b++)
    if (hist[b] != ref[b] && bad++ < 5)
      fprintf(stderr, "bin %d = %u, expected %u\n", b, hist[b], ref[b]);
  clReleaseMemObject(dd);
  clReleaseMemObject(dh);
  clReleaseKernel(k);
  clReleaseProgram(p);
  sg_sample_finish(&s);
  free(data);
  return sg_sample_report(&s, "histogram", n, bad);
}
