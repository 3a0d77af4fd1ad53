/* SPDX-License-Identifier: MIT */
/* Sample (DESIGN.md "Tests": samples through the ICD loader): a bilinear
 * image resize. An n x n 8-bit grey picture is scaled to 3n/2 x 5n/4 by a
 * kernel that samples it with normalized coordinates and linear filtering
 * (the texture unit blends the four texels) and writes each output pixel
 * with write_imagef. Writes the result as a PGM and checks every pixel
 * against the host's bilinear filter within one grey level.
 * Usage: image_resize [n [image.pgm]] (default 256, resized.pgm) */
#include <math.h>

#include "sg_sample.h"

/* clang-format off */
static const char *source =
    "kernel void resize(read_only image2d_t src, write_only image2d_t dst, sampler_t s)\n"
    "{\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  float2 at = ((float2)(p.x, p.y) + 0.5f) / (float2)(get_image_width(dst), get_image_height(dst));\n"
    "  write_imagef(dst, p, read_imagef(src, s, at));\n"
    "}\n";
/* clang-format on */

/* A picture with edges in every direction: rings and a ramp. */
static unsigned char picture(size_t x, size_t y, size_t n) {
  double dx = (double)x - n / 2.0, dy = (double)y - n / 2.0;
  double r = sqrt(dx * dx + dy * dy);
  return (unsigned char)(((int)(r / (n / 16.0)) % 2 ? 200 : 40) + (x * 50) / n);
}

/* The spec's linear filter with CLK_ADDRESS_CLAMP_TO_EDGE (OpenCL
 * environment spec, "Linear Filtering"), on the host. */
static double bilinear(const unsigned char *img, size_t n, float s, float t) {
  float u = s * (float)n - 0.5f, v = t * (float)n - 0.5f;
  long i0 = (long)floorf(u), j0 = (long)floorf(v);
  double a = u - floorf(u), b = v - floorf(v), sum = 0;
  for (int k = 0; k < 4; k++) {
    long i = i0 + (k & 1), j = j0 + (k >> 1);
    i = i < 0 ? 0 : i > (long)n - 1 ? (long)n - 1 : i;
    j = j < 0 ? 0 : j > (long)n - 1 ? (long)n - 1 : j;
    double w = ((k & 1) ? a : 1 - a) * ((k >> 1) ? b : 1 - b);
    sum += w * (img[j * n + i] / 255.0);
  }
  return sum;
}

static int write_pgm(const char *path, const unsigned char *img, size_t w, size_t h) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return 0;
  fprintf(f, "P5\n%zu %zu\n255\n", w, h);
  int ok = fwrite(img, 1, w * h, f) == w * h;
  return fclose(f) == 0 && ok;
}

int main(int argc, char **argv) {
  size_t n = sg_sample_size(argc, argv, 256);
  const char *path = argc > 2 ? argv[2] : "resized.pgm";
  size_t w = 3 * n / 2, h = 5 * n / 4;
  struct sg_sample s;
  sg_sample_init(&s);
  cl_bool images = CL_FALSE;
  SG_CL(clGetDeviceInfo(s.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
  if (!images) {
    fprintf(stderr, "image_resize: the device has no image support\n");
    return 77;
  }
  unsigned char *in = malloc(n * n), *out = malloc(w * h);
  if (!in || !out)
    return 2;
  for (size_t y = 0; y < n; y++)
    for (size_t x = 0; x < n; x++)
      in[y * n + x] = picture(x, y, n);

  cl_int err;
  cl_image_format grey = {CL_R, CL_UNORM_INT8};
  cl_image_desc sd = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = n, .image_height = n};
  cl_image_desc dd = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h};
  cl_mem src =
      clCreateImage(s.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &grey, &sd, in, &err);
  SG_CL(err);
  cl_mem dst = clCreateImage(s.context, CL_MEM_WRITE_ONLY, &grey, &dd, NULL, &err);
  SG_CL(err);
  cl_sampler smp =
      clCreateSampler(s.context, CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, &err);
  SG_CL(err);
  cl_program p = sg_sample_build(&s, source, "");
  cl_kernel k = sg_sample_kernel(p, "resize");
  SG_CL(clSetKernelArg(k, 0, sizeof src, &src));
  SG_CL(clSetKernelArg(k, 1, sizeof dst, &dst));
  SG_CL(clSetKernelArg(k, 2, sizeof smp, &smp));
  size_t global[2] = {w, h};
  sg_sample_run(&s, k, 2, global, NULL);
  size_t origin[3] = {0, 0, 0}, region[3] = {w, h, 1};
  SG_CL(clEnqueueReadImage(s.queue, dst, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL));

  /* The spec leaves the precision of linear filtering to the device; one
   * grey level covers any device's rounding of the weights. */
  unsigned long bad = 0;
  for (size_t y = 0; y < h; y++)
    for (size_t x = 0; x < w; x++) {
      float at_s = ((float)x + 0.5f) / (float)w, at_t = ((float)y + 0.5f) / (float)h;
      double want = bilinear(in, n, at_s, at_t) * 255.0;
      if (fabs(out[y * w + x] - want) > 1.0 && bad++ < 5)
        fprintf(stderr, "pixel (%zu,%zu): %u, host %.2f\n", x, y, out[y * w + x], want);
    }
  printf("image_resize: %zux%zu to %zux%zu, %lu pixels off by more than one grey level\n", n, n, w,
         h, bad);
  int written = write_pgm(path, out, w, h);
  if (!written)
    fprintf(stderr, "cannot write %s\n", path);
  else
    printf("image_resize: image written to %s\n", path);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  clReleaseSampler(smp);
  clReleaseKernel(k);
  clReleaseProgram(p);
  sg_sample_finish(&s);
  free(in);
  free(out);
  return sg_sample_report(&s, "image_resize", w * h, (bad > 0) + !written);
}
