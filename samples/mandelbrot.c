/* SPDX-License-Identifier: MIT */
/* Sample (DESIGN.md "Tests": samples through the ICD loader): Mandelbrot set
 * on an n x n grid, one work-item per pixel with per-pixel (divergent) loop
 * trip counts. Writes a PGM image and checks iteration counts against the
 * host. Usage: mandelbrot [n [image.pgm]] (default mandelbrot.pgm) */
#include "sg_sample.h"

#define MAX_ITER 256

/* The kernel and mandel_host() use the same float operations in the same
 * order, and the kernel forbids FMA contraction, so counts normally match
 * exactly. A platform that still fuses or reorders (the pragma is only a
 * permission to the compiler, not every one honours it) may differ on pixels
 * at the set's boundary, where one rounding changes the escape iteration;
 * a mismatch in at most 1 pixel in 1000 is therefore accepted and reported. */
/* clang-format off */
static const char *source =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "kernel void mandelbrot(global uchar *img, global uint *iters, uint n, int max_iter)\n"
    "{\n"
    "  uint px = get_global_id(0), py = get_global_id(1);\n"
    "  float cr = -2.0f + (float)px * (3.0f / (float)n);\n"
    "  float ci = -1.5f + (float)py * (3.0f / (float)n);\n"
    "  float zr = 0.0f, zi = 0.0f;\n"
    "  int it = 0;\n"
    "  while (it < max_iter && zr * zr + zi * zi <= 4.0f) {\n"
    "    float t = zr * zr - zi * zi + cr;\n"
    "    zi = 2.0f * zr * zi + ci;\n"
    "    zr = t;\n"
    "    it++;\n"
    "  }\n"
    "  iters[py * n + px] = it;\n"
    "  img[py * n + px] = (uchar)(it == max_iter ? 0 : 255 - (it * 255) / max_iter);\n"
    "}\n";
/* clang-format on */

static int mandel_host(unsigned px, unsigned py, unsigned n) {
  float cr = -2.0f + (float)px * (3.0f / (float)n);
  float ci = -1.5f + (float)py * (3.0f / (float)n);
  float zr = 0.0f, zi = 0.0f;
  int it = 0;
  while (it < MAX_ITER && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    it++;
  }
  return it;
}

static int write_pgm(const char *path, const unsigned char *img, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return 0;
  fprintf(f, "P5\n%zu %zu\n255\n", n, n);
  int ok = fwrite(img, 1, n * n, f) == n * n;
  return fclose(f) == 0 && ok;
}

int main(int argc, char **argv) {
  size_t n = sg_sample_size(argc, argv, 512);
  const char *path = argc > 2 ? argv[2] : "mandelbrot.pgm";
  struct sg_sample s;
  sg_sample_init(&s);
  unsigned char *img = malloc(n * n);
  cl_uint *iters = malloc(n * n * sizeof(cl_uint));
  if (!img || !iters)
    return 2;
  cl_program p = sg_sample_build(&s, source, "");
  cl_kernel k = sg_sample_kernel(p, "mandelbrot");
  cl_mem dimg = sg_sample_buffer(&s, CL_MEM_WRITE_ONLY, n * n, NULL);
  cl_mem dit = sg_sample_buffer(&s, CL_MEM_WRITE_ONLY, n * n * sizeof(cl_uint), NULL);
  cl_uint un = (cl_uint)n;
  cl_int max_iter = MAX_ITER;
  SG_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &dimg));
  SG_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &dit));
  SG_CL(clSetKernelArg(k, 2, sizeof(cl_uint), &un));
  SG_CL(clSetKernelArg(k, 3, sizeof(cl_int), &max_iter));
  size_t global[2] = {n, n};
  sg_sample_run(&s, k, 2, global, NULL);
  sg_sample_read(&s, dimg, n * n, img);
  sg_sample_read(&s, dit, n * n * sizeof(cl_uint), iters);

  unsigned long differ = 0;
  for (size_t y = 0; y < n; y++)
    for (size_t x = 0; x < n; x++) {
      int ref = mandel_host((unsigned)x, (unsigned)y, (unsigned)n);
      if ((int)iters[y * n + x] != ref && differ++ < 5)
        fprintf(stderr, "pixel (%zu,%zu): %u iterations, host %d\n", x, y, iters[y * n + x], ref);
    }
  printf("mandelbrot: %lu of %zu pixels differ from the host (at most %zu accepted)\n", differ,
         n * n, n * n / 1000);
  int written = write_pgm(path, img, n);
  if (!written)
    fprintf(stderr, "cannot write %s\n", path);
  else
    printf("mandelbrot: image written to %s\n", path);
  clReleaseMemObject(dimg);
  clReleaseMemObject(dit);
  clReleaseKernel(k);
  clReleaseProgram(p);
  sg_sample_finish(&s);
  free(img);
  free(iters);
  return sg_sample_report(&s, "mandelbrot", n, (differ > n * n / 1000) + !written);
}
