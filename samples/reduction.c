/* SPDX-License-Identifier: MIT */
/* Sample (DESIGN.md "Tests": samples through the ICD loader): sum of n
 * integers. Each work-item adds a grid-strided slice, each work-group
 * reduces its work-items' sums in __local memory (a tree with a barrier per
 * level), and the host adds the per-group sums. Usage: reduction [n] */
#include "sg_sample.h"

#define GROUP 256
#define GROUPS 64

/* clang-format off */
static const char *source =
    "kernel void reduce(global const uint *in, ulong n, global ulong *partial,\n"
    "                   local ulong *sums)\n"
    "{\n"
    "  size_t l = get_local_id(0), size = get_local_size(0);\n"
    "  ulong acc = 0;\n"
    "  for (size_t i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "    acc += in[i];\n"
    "  sums[l] = acc;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t step = size / 2; step > 0; step /= 2) {\n"
    "    if (l < step)\n"
    "      sums[l] += sums[l + step];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0)\n"
    "    partial[get_group_id(0)] = sums[0];\n"
    "}\n";
/* clang-format on */

int main(int argc, char **argv) {
  size_t n = sg_sample_size(argc, argv, 1 << 22);
  struct sg_sample s;
  sg_sample_init(&s);
  cl_uint *in = malloc(n * sizeof(cl_uint));
  if (!in)
    return 2;
  cl_ulong ref = 0, got = 0, partial[GROUPS];
  for (size_t i = 0; i < n; i++) {
    in[i] = (cl_uint)(i * 2654435761u) >> 8;
    ref += in[i];
  }
  cl_program p = sg_sample_build(&s, source, "");
  cl_kernel k = sg_sample_kernel(p, "reduce");
  cl_mem din = sg_sample_buffer(&s, CL_MEM_READ_ONLY, n * sizeof(cl_uint), in);
  cl_mem dpart = sg_sample_buffer(&s, CL_MEM_WRITE_ONLY, sizeof(partial), NULL);
  cl_ulong un = n;
  SG_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &din));
  SG_CL(clSetKernelArg(k, 1, sizeof(cl_ulong), &un));
  SG_CL(clSetKernelArg(k, 2, sizeof(cl_mem), &dpart));
  SG_CL(clSetKernelArg(k, 3, GROUP * sizeof(cl_ulong), NULL));
  size_t global = GROUP * GROUPS, local = GROUP;
  sg_sample_run(&s, k, 1, &global, &local);
  sg_sample_read(&s, dpart, sizeof(partial), partial);
  for (int g = 0; g < GROUPS; g++)
    got += partial[g];

  if (got != ref)
    fprintf(stderr, "sum = %llu, expected %llu\n", (unsigned long long)got,
            (unsigned long long)ref);
  clReleaseMemObject(din);
  clReleaseMemObject(dpart);
  clReleaseKernel(k);
  clReleaseProgram(p);
  sg_sample_finish(&s);
  free(in);
  return sg_sample_report(&s, "reduction", n, got != ref);
}
