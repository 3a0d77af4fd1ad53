/* SPDX-License-Identifier: MIT */
/* Benchmarks (DESIGN.md "Tests": bench/ runs kernels side by side with the
 * other OpenCL platforms): eleven OpenCL 1.2 kernels of different character
 * (memory bound, compute bound, divergent, barrier heavy, atomics, launch
 * overhead, libm heavy, a 2-D stencil, vector add with a NULL local size) at
 * three sizes. Each case is built, run once to warm up (PoCL compiles at the
 * first launch), then timed: the median over BENCH_REPS runs of the summed
 * profiled START..END times of its launches. Every run is checked against a
 * host reference. Prints "case size ms" lines for bench/compare.sh.
 * Usage: kernels [s|m|l|all] [case...]   Platform: SOFTGPU_SAMPLE_PLATFORM. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "../samples/sg_sample.h"

struct bench {
  struct sg_sample s;
  cl_program prog;
};

static cl_mem buf(struct bench *b, size_t size, void *host) {
  return sg_sample_buffer(&b->s, CL_MEM_READ_WRITE, size, host);
}

static void arg_mem(cl_kernel k, cl_uint i, cl_mem *m) { SG_CL(clSetKernelArg(k, i, sizeof *m, m)); }
static void arg_int(cl_kernel k, cl_uint i, int v) { SG_CL(clSetKernelArg(k, i, sizeof v, &v)); }

/* xorshift: the same inputs on every platform. */
static uint32_t rnd_state = 1;
static uint32_t rnd(void) {
  rnd_state ^= rnd_state << 13;
  rnd_state ^= rnd_state >> 17;
  rnd_state ^= rnd_state << 5;
  return rnd_state;
}
static float *rnd_floats(size_t n, float lo, float hi) {
  float *a = malloc(n * sizeof *a);
  for (size_t i = 0; i < n; i++)
    a[i] = lo + (hi - lo) * (float)(rnd() >> 8) / 16777216.0f;
  return a;
}

static bool close_to(float got, float want, float tol) {
  return fabsf(got - want) <= tol * (1.0f + fabsf(want));
}

static const char source[] =
    "__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {\n"
    "  size_t i = get_global_id(0); c[i] = a[i] + b[i];\n}\n"
    "__kernel void copy4(__global const float4 *a, __global float4 *b) {\n"
    "  size_t i = get_global_id(0); b[i] = a[i];\n}\n"
    "__kernel void stencil(__global const float *in, __global float *out, int w, int h) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  if (x == 0 || y == 0 || x >= w - 1 || y >= h - 1) { out[y * w + x] = in[y * w + x]; return; }\n"
    "  out[y * w + x] = 0.5f * in[y * w + x] + 0.125f * (in[y * w + x - 1] + in[y * w + x + 1] +\n"
    "                   in[(y - 1) * w + x] + in[(y + 1) * w + x]);\n}\n"
    "__kernel void matmul(__global const float *a, __global const float *b, __global float *c,\n"
    "                     int n) {\n"
    "  int col = get_global_id(0), row = get_global_id(1); float acc = 0.0f;\n"
    "  for (int k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];\n"
    "  c[row * n + col] = acc;\n}\n"
    "__kernel void mandel(__global int *out, int w, int h, int maxit) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h, zr = 0.0f, zi = 0.0f;\n"
    "  int i = 0;\n"
    "  while (i < maxit && zr * zr + zi * zi < 4.0f) {\n"
    "    float t = zr * zr - zi * zi + cr; zi = 2.0f * zr * zi + ci; zr = t; i++;\n"
    "  }\n"
    "  out[y * w + x] = i;\n}\n"
    "__kernel void collatz(__global const uint *in, __global uint *out) {\n"
    "  size_t i = get_global_id(0); uint n = in[i], steps = 0;\n"
    "  while (n != 1) { n = (n & 1) ? 3 * n + 1 : n / 2; steps++; }\n"
    "  out[i] = steps;\n}\n"
    "__kernel void reduce(__global const float *in, __global float *out, __local float *tmp) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  tmp[l] = in[get_global_id(0)];\n"
    "  for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < s) tmp[l] += tmp[l + s];\n"
    "  }\n"
    "  if (l == 0) out[get_group_id(0)] = tmp[0];\n}\n"
    "__kernel void hist(__global const uint *in, __global uint *bins) {\n"
    "  atomic_inc(&bins[in[get_global_id(0)] & 255]);\n}\n"
    "__kernel void tiny(__global int *a) { a[get_global_id(0)] += 1; }\n"
    "__kernel void libm(__global const float *in, __global float *out) {\n"
    "  size_t i = get_global_id(0); float x = in[i];\n"
    "  out[i] = sin(x) * cos(x) + exp(-x) + log(1.0f + x) + sqrt(x) + atan(x) + pow(x, 1.5f);\n}\n"
    "__kernel void transpose(__global const float *in, __global float *out, int n) {\n"
    "  __local float tile[16][17];\n"
    "  int gx = get_group_id(0) * 16, gy = get_group_id(1) * 16;\n"
    "  int lx = get_local_id(0), ly = get_local_id(1);\n"
    "  tile[ly][lx] = in[(gy + ly) * n + gx + lx];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[(gx + ly) * n + gy + lx] = tile[lx][ly];\n}\n";

/* One timed run of a case at size level z (0, 1, 2): launches its kernels,
 * adds their time to b->s.kernel_ms and returns the mismatches. */
typedef unsigned long (*case_fn)(struct bench *b, int z);

static cl_kernel kern(struct bench *b, const char *name) { return sg_sample_kernel(b->prog, name); }

static unsigned long c_vadd(struct bench *b, int z) {
  static const size_t sizes[] = {1 << 20, 1 << 22, 1 << 23};
  size_t n = sizes[z];
  float *x = rnd_floats(n, -1, 1), *y = rnd_floats(n, -1, 1), *r = malloc(n * 4);
  cl_mem a = buf(b, n * 4, x), bb = buf(b, n * 4, y), c = buf(b, n * 4, NULL);
  cl_kernel k = kern(b, "vadd");
  arg_mem(k, 0, &a), arg_mem(k, 1, &bb), arg_mem(k, 2, &c);
  for (int i = 0; i < 20; i++)
    sg_sample_run(&b->s, k, 1, &n, NULL);
  sg_sample_read(&b->s, c, n * 4, r);
  unsigned long bad = 0;
  for (size_t i = 0; i < n; i++)
    bad += r[i] != x[i] + y[i];
  clReleaseKernel(k), clReleaseMemObject(a), clReleaseMemObject(bb), clReleaseMemObject(c);
  free(x), free(y), free(r);
  return bad;
}

static unsigned long c_copy4(struct bench *b, int z) {
  static const size_t sizes[] = {1 << 18, 1 << 20, 1 << 21}; /* float4s */
  size_t n = sizes[z], local = 256;
  float *x = rnd_floats(4 * n, -1, 1), *r = malloc(16 * n);
  cl_mem a = buf(b, 16 * n, x), c = buf(b, 16 * n, NULL);
  cl_kernel k = kern(b, "copy4");
  arg_mem(k, 0, &a), arg_mem(k, 1, &c);
  for (int i = 0; i < 10; i++)
    sg_sample_run(&b->s, k, 1, &n, &local);
  sg_sample_read(&b->s, c, 16 * n, r);
  unsigned long bad = (unsigned long)(memcmp(x, r, 16 * n) != 0);
  clReleaseKernel(k), clReleaseMemObject(a), clReleaseMemObject(c);
  free(x), free(r);
  return bad;
}

static unsigned long c_stencil(struct bench *b, int z) {
  static const int sizes[] = {512, 1024, 2048};
  int w = sizes[z], h = sizes[z];
  size_t n = (size_t)w * h, global[2] = {(size_t)w, (size_t)h}, local[2] = {16, 8};
  float *x = rnd_floats(n, 0, 1), *ref = malloc(n * 4), *tmp = malloc(n * 4), *r = malloc(n * 4);
  cl_mem m[2] = {buf(b, n * 4, x), buf(b, n * 4, NULL)};
  cl_kernel k = kern(b, "stencil");
  arg_int(k, 2, w), arg_int(k, 3, h);
  memcpy(ref, x, n * 4);
  for (int s = 0; s < 8; s++) {
    arg_mem(k, 0, &m[s & 1]), arg_mem(k, 1, &m[!(s & 1)]);
    sg_sample_run(&b->s, k, 2, global, local);
    for (int yy = 0; yy < h; yy++)
      for (int xx = 0; xx < w; xx++) {
        size_t i = (size_t)yy * w + xx;
        tmp[i] = (xx == 0 || yy == 0 || xx == w - 1 || yy == h - 1)
                     ? ref[i]
                     : 0.5f * ref[i] + 0.125f * (ref[i - 1] + ref[i + 1] + ref[i - w] + ref[i + w]);
      }
    memcpy(ref, tmp, n * 4);
  }
  sg_sample_read(&b->s, m[0], n * 4, r);
  unsigned long bad = 0;
  for (size_t i = 0; i < n; i++)
    bad += !close_to(r[i], ref[i], 1e-5f);
  clReleaseKernel(k), clReleaseMemObject(m[0]), clReleaseMemObject(m[1]);
  free(x), free(ref), free(tmp), free(r);
  return bad;
}

static unsigned long c_matmul(struct bench *b, int z) {
  static const int sizes[] = {128, 256, 384};
  int n = sizes[z];
  size_t nn = (size_t)n * n, global[2] = {(size_t)n, (size_t)n}, local[2] = {16, 16};
  float *x = rnd_floats(nn, -1, 1), *y = rnd_floats(nn, -1, 1), *r = malloc(nn * 4);
  cl_mem a = buf(b, nn * 4, x), bb = buf(b, nn * 4, y), c = buf(b, nn * 4, NULL);
  cl_kernel k = kern(b, "matmul");
  arg_mem(k, 0, &a), arg_mem(k, 1, &bb), arg_mem(k, 2, &c), arg_int(k, 3, n);
  sg_sample_run(&b->s, k, 2, global, local);
  sg_sample_read(&b->s, c, nn * 4, r);
  unsigned long bad = 0;
  for (int i = 0; i < n; i += 7)
    for (int j = 0; j < n; j += 5) {
      float acc = 0;
      for (int q = 0; q < n; q++)
        acc += x[i * n + q] * y[q * n + j];
      bad += !close_to(r[i * n + j], acc, 1e-3f);
    }
  clReleaseKernel(k), clReleaseMemObject(a), clReleaseMemObject(bb), clReleaseMemObject(c);
  free(x), free(y), free(r);
  return bad;
}

static unsigned long c_mandel(struct bench *b, int z) {
  static const int sizes[] = {256, 512, 768};
  int w = sizes[z], h = sizes[z], maxit = 256;
  size_t n = (size_t)w * h, global[2] = {(size_t)w, (size_t)h}, local[2] = {16, 16};
  int *r = malloc(n * sizeof *r);
  cl_mem o = buf(b, n * 4, NULL);
  cl_kernel k = kern(b, "mandel");
  arg_mem(k, 0, &o), arg_int(k, 1, w), arg_int(k, 2, h), arg_int(k, 3, maxit);
  sg_sample_run(&b->s, k, 2, global, local);
  sg_sample_read(&b->s, o, n * 4, r);
  /* Iteration counts near the set's edge depend on FMA contraction, which
   * platforms choose differently: check a sanity bound, not each value. */
  unsigned long bad = 0, inside = 0;
  for (size_t i = 0; i < n; i++) {
    bad += r[i] < 1 || r[i] > maxit;
    inside += r[i] == maxit;
  }
  bad += inside < n / 8 || inside > n / 2;
  clReleaseKernel(k), clReleaseMemObject(o);
  free(r);
  return bad;
}

static unsigned long c_collatz(struct bench *b, int z) {
  static const size_t sizes[] = {1 << 14, 1 << 16, 1 << 17};
  size_t n = sizes[z], local = 64;
  uint32_t *in = malloc(n * 4), *r = malloc(n * 4);
  for (size_t i = 0; i < n; i++)
    in[i] = 1 + rnd() % 100000;
  cl_mem a = buf(b, n * 4, in), o = buf(b, n * 4, NULL);
  cl_kernel k = kern(b, "collatz");
  arg_mem(k, 0, &a), arg_mem(k, 1, &o);
  sg_sample_run(&b->s, k, 1, &n, &local);
  sg_sample_read(&b->s, o, n * 4, r);
  unsigned long bad = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t v = in[i], s = 0;
    while (v != 1)
      v = (v & 1) ? 3 * v + 1 : v / 2, s++;
    bad += r[i] != s;
  }
  clReleaseKernel(k), clReleaseMemObject(a), clReleaseMemObject(o);
  free(in), free(r);
  return bad;
}

static unsigned long c_reduce(struct bench *b, int z) {
  static const size_t sizes[] = {1 << 18, 1 << 20, 1 << 21};
  size_t n = sizes[z], local = 128, groups = n / local;
  float *x = rnd_floats(n, 0, 1), *r = malloc(groups * 4);
  cl_mem a = buf(b, n * 4, x), o = buf(b, groups * 4, NULL);
  cl_kernel k = kern(b, "reduce");
  arg_mem(k, 0, &a), arg_mem(k, 1, &o);
  SG_CL(clSetKernelArg(k, 2, local * 4, NULL));
  for (int i = 0; i < 4; i++)
    sg_sample_run(&b->s, k, 1, &n, &local);
  sg_sample_read(&b->s, o, groups * 4, r);
  unsigned long bad = 0;
  for (size_t g = 0; g < groups; g++) {
    double acc = 0;
    for (size_t i = 0; i < local; i++)
      acc += x[g * local + i];
    bad += !close_to(r[g], (float)acc, 1e-4f);
  }
  clReleaseKernel(k), clReleaseMemObject(a), clReleaseMemObject(o);
  free(x), free(r);
  return bad;
}

static unsigned long c_hist(struct bench *b, int z) {
  static const size_t sizes[] = {1 << 18, 1 << 20, 1 << 21};
  size_t n = sizes[z], local = 128;
  uint32_t *in = malloc(n * 4), bins[256] = {0}, ref[256] = {0};
  for (size_t i = 0; i < n; i++)
    in[i] = rnd(), ref[in[i] & 255] += 4;
  cl_mem a = buf(b, n * 4, in), o = buf(b, sizeof bins, bins);
  cl_kernel k = kern(b, "hist");
  arg_mem(k, 0, &a), arg_mem(k, 1, &o);
  for (int i = 0; i < 4; i++)
    sg_sample_run(&b->s, k, 1, &n, &local);
  sg_sample_read(&b->s, o, sizeof bins, bins);
  unsigned long bad = (unsigned long)(memcmp(bins, ref, sizeof bins) != 0);
  clReleaseKernel(k), clReleaseMemObject(a), clReleaseMemObject(o);
  free(in);
  return bad;
}

static unsigned long c_launch(struct bench *b, int z) {
  static const int sizes[] = {200, 1000, 2000};
  size_t n = 1024, local = 64;
  int *x = calloc(n, sizeof *x);
  cl_mem a = buf(b, n * 4, x);
  cl_kernel k = kern(b, "tiny");
  arg_mem(k, 0, &a);
  for (int i = 0; i < sizes[z]; i++)
    sg_sample_run(&b->s, k, 1, &n, &local);
  sg_sample_read(&b->s, a, n * 4, x);
  unsigned long bad = 0;
  for (size_t i = 0; i < n; i++)
    bad += x[i] != sizes[z];
  clReleaseKernel(k), clReleaseMemObject(a);
  free(x);
  return bad;
}

static unsigned long c_libm(struct bench *b, int z) {
  static const size_t sizes[] = {1 << 16, 1 << 18, 1 << 19};
  size_t n = sizes[z], local = 128;
  float *x = rnd_floats(n, 0.01f, 4), *r = malloc(n * 4);
  cl_mem a = buf(b, n * 4, x), o = buf(b, n * 4, NULL);
  cl_kernel k = kern(b, "libm");
  arg_mem(k, 0, &a), arg_mem(k, 1, &o);
  sg_sample_run(&b->s, k, 1, &n, &local);
  sg_sample_read(&b->s, o, n * 4, r);
  unsigned long bad = 0;
  for (size_t i = 0; i < n; i++) {
    double v = x[i];
    double want = sin(v) * cos(v) + exp(-v) + log(1 + v) + sqrt(v) + atan(v) + pow(v, 1.5);
    bad += !close_to(r[i], (float)want, 1e-4f);
  }
  clReleaseKernel(k), clReleaseMemObject(a), clReleaseMemObject(o);
  free(x), free(r);
  return bad;
}

static unsigned long c_transpose(struct bench *b, int z) {
  static const int sizes[] = {512, 1024, 2048};
  int n = sizes[z];
  size_t nn = (size_t)n * n, global[2] = {(size_t)n, (size_t)n}, local[2] = {16, 16};
  float *x = rnd_floats(nn, -1, 1), *r = malloc(nn * 4);
  cl_mem a = buf(b, nn * 4, x), o = buf(b, nn * 4, NULL);
  cl_kernel k = kern(b, "transpose");
  arg_mem(k, 0, &a), arg_mem(k, 1, &o), arg_int(k, 2, n);
  for (int i = 0; i < 4; i++)
    sg_sample_run(&b->s, k, 2, global, local);
  sg_sample_read(&b->s, o, nn * 4, r);
  unsigned long bad = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      bad += r[(size_t)j * n + i] != x[(size_t)i * n + j];
  clReleaseKernel(k), clReleaseMemObject(a), clReleaseMemObject(o);
  free(x), free(r);
  return bad;
}

static const struct {
  const char *name, *what;
  case_fn fn;
} cases[] = {
    {"vadd", "memory bound, NULL local size, 20 launches", c_vadd},
    {"copy4", "memory bound, float4, 10 launches", c_copy4},
    {"stencil", "5-point 2-D stencil, 16x8 groups, 8 sweeps", c_stencil},
    {"matmul", "compute bound, naive", c_matmul},
    {"mandel", "compute bound, divergent", c_mandel},
    {"collatz", "divergent loops", c_collatz},
    {"reduce", "barrier heavy, local memory", c_reduce},
    {"hist", "global atomics", c_hist},
    {"launch", "launch-overhead bound, 1024 work-items", c_launch},
    {"libm", "libm heavy", c_libm},
    {"transpose", "local-memory tiles, barrier", c_transpose},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  const char *level = argc > 1 ? argv[1] : "all";
  int zlo = 0, zhi = 2;
  static const char *const names[] = {"s", "m", "l"};
  for (int z = 0; z < 3; z++)
    if (!strcmp(level, names[z]))
      zlo = zhi = z;
  if (strcmp(level, "all") && zlo != zhi) {
    fprintf(stderr, "usage: %s [s|m|l|all] [case...]\n", argv[0]);
    return 2;
  }
  int reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 3;
  reps = reps < 1 ? 1 : reps > 99 ? 99 : reps;
  struct bench b;
  sg_sample_init(&b.s);
  b.prog = sg_sample_build(&b.s, source, "");
  int status = 0;
  for (int c = 0; c < NCASES; c++) {
    bool want = argc <= 2;
    for (int i = 2; i < argc; i++)
      want |= !strcmp(argv[i], cases[c].name);
    for (int z = zlo; want && z <= zhi; z++) {
      double t[99];
      unsigned long bad = 0;
      rnd_state = 1;
      bad += cases[c].fn(&b, z); /* warm-up */
      for (int r = 0; r < reps; r++) {
        b.s.kernel_ms = 0;
        rnd_state = 1;
        bad += cases[c].fn(&b, z);
        t[r] = b.s.kernel_ms;
      }
      qsort(t, (size_t)reps, sizeof t[0], cmp);
      printf("%-10s %s %10.3f%s\n", cases[c].name, names[z], t[reps / 2],
             bad ? "  FAILED" : "");
      fflush(stdout);
      status |= bad != 0;
    }
  }
  clReleaseProgram(b.prog);
  sg_sample_finish(&b.s);
  return status;
}
