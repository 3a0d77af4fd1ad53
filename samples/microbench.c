/* SPDX-License-Identifier: MIT */
/* Sample (DESIGN.md 4, timing mode): microbenchmarks that measure a GPU's
 * latencies and effects from plain OpenCL, the way published GPU
 * dissections do (pointer chases, dependent chains, strided accesses).
 * Times come from profiling events (CL_PROFILING_COMMAND_START/END) turned
 * into cycles with CL_DEVICE_MAX_CLOCK_FREQUENCY; fixed costs (the launch,
 * cold caches, the loop) cancel because each figure is a difference of
 * launches that differ only in the work measured. Counters that a time
 * cannot show (transactions, SIMD efficiency, hit rates) are read from the
 * statistics SoftGPU writes to SOFTGPU_STATS, when it is set.
 *
 * Usage: microbench EXPERIMENT [ARGS]
 *   latency alu|mul|fpu   cycles between dependent instructions of a unit
 *                         (alu: shift and add, two instructions a step)
 *   chase BYTES STRIDE    load-to-use cycles of a pointer chase over a ring
 *                         of BYTES with a pointer every STRIDE bytes
 *   smem STRIDE           cycles of a warp's __local load whose lanes are
 *                         STRIDE words apart (bank conflicts), and of the
 *                         add that makes the next address
 *   coalesce STRIDE       a copy whose lanes read STRIDE floats apart:
 *                         memory requests and their transactions
 *   diverge K             K lanes of every warp run a long path: SIMD efficiency
 *   stream GROUPS         one-warp work-groups each streaming 64 KB: cycles
 *   dualpath              the dual-path kernel of MP-IPDOM's example: cycles
 *   uniform               the same kernel without divergence: cycles
 *   thrash WARPS ROUNDS   each warp re-reads its own 4 KB, with ROUNDS x 4
 *                         FMAs on each element: cycles, L1 hit rate */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "sg_sample.h"

#include <math.h>

#define THRASH_FLOATS 1024 /* each warp's working set in the thrash kernel: 4 KB */
#define STR_(x) #x
#define STR(x) STR_(x)

/* clang-format off */
static const char *source =
    "#define R4(s) s s s s\n"
    "#define R16(s) R4(R4(s))\n"
    /* Dependent chains: 16 or 32 instructions per iteration, one loop. */
    "#define CHAIN(name, type, step)                                       \\\n"
    "kernel void name##16(global type *io, uint n) {                        \\\n"
    "  type x = io[0];                                                      \\\n"
    "  _Pragma(\"nounroll\") for (uint i = 0; i < n; i++) { R16(step) }     \\\n"
    "  io[0] = x;                                                           \\\n"
    "}                                                                      \\\n"
    "kernel void name##32(global type *io, uint n) {                        \\\n"
    "  type x = io[0];                                                      \\\n"
    "  _Pragma(\"nounroll\") for (uint i = 0; i < n; i++) { R16(step) R16(step) } \\\n"
    "  io[0] = x;                                                           \\\n"
    "}\n"
    "CHAIN(alu, uint, x += x >> 1;)\n" /* two ALU instructions */
    "CHAIN(mul, uint, x = x * x;)\n"
    "CHAIN(fpu, float, x = fma(x, x, x);)\n"
    /* A ring of pointers, one every `stride` ulongs. */
    "kernel void ring(global ulong *buf, uint stride, uint count) {\n"
    "  uint i = get_global_id(0);\n"
    "  buf[i * stride] = (ulong)(buf + (i + 1) % count * stride);\n"
    "}\n"
    "kernel void chase(global ulong *buf, uint n, global ulong *out) {\n"
    "  global ulong *p = buf;\n"
    "  for (uint i = 0; i < n; i++)\n"
    "    p = (global ulong *)*p;\n"
    "  out[0] = (ulong)(p - buf);\n"
    "}\n"
    /* Each lane chases its own word of __local memory, which holds its
     * byte offset: a step is the load and the add that makes its address. */
    "kernel void smem(global uint *out, uint stride, uint n, local int *tile) {\n"
    "  int off = (int)(get_local_id(0) * stride * 4);\n" /* int: lw extends it */
    "  *(local int *)((local uchar *)tile + off) = off;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint i = 0; i < n; i++)\n"
    "    off = *(local int *)((local uchar *)tile + off);\n"
    "  out[get_global_id(0)] = (uint)off / 4;\n"
    "}\n"
    "kernel void copy(global const float *in, global float *out, uint stride) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i * stride];\n"
    "}\n"
    "kernel void diverge(global float *io, uint k, uint warp, uint n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float x = io[i];\n"
    "  if (get_local_id(0) % warp < k)\n"
    "    for (uint r = 0; r < n; r++)\n"
    "      x = fma(x, 0.5f, 1.0f);\n"
    "  io[i] = x;\n"
    "}\n"
    /* Each work-group sums its own 64 KB, a warp-wide float4 load at a time. */
    "kernel void stream(global const float4 *in, global float *out) {\n"
    "  size_t base = get_group_id(0) * 4096, l = get_local_id(0);\n"
    "  float4 s = 0;\n"
    "  for (uint i = 0; i < 4096; i += get_local_size(0))\n"
    "    s += in[base + i + l];\n"
    "  out[get_global_id(0)] = s.x + s.y + s.z + s.w;\n"
    "}\n"
    /* Each warp (a work-group) reads its own 4 KB eight times, with FMAs
     * in four independent chains on every element: the warps compete for
     * issue slots, and who wins decides whose lines stay in the L1. */
    "#define FLOATS " STR(THRASH_FLOATS) "\n"
    "kernel void thrash(global const float *in, global float *out, uint rounds) {\n"
    "  size_t base = get_group_id(0) * FLOATS, l = get_local_id(0);\n"
    "  float s0 = 0, s1 = 0, s2 = 0, s3 = 0;\n"
    "  for (uint r = 0; r < 8; r++)\n"
    "    for (uint i = 0; i < FLOATS; i += get_local_size(0)) {\n"
    "      float x = in[base + i + l];\n"
    "      for (uint k = 0; k < rounds; k++) {\n"
    "        s0 = fma(s0, 0.5f, x); s1 = fma(s1, 0.25f, x);\n"
    "        s2 = fma(s2, 0.125f, x); s3 = fma(s3, 0.0625f, x);\n"
    "      }\n"
    "    }\n"
    "  out[get_global_id(0)] = s0 + s1 + s2 + s3;\n"
    "}\n";
/* clang-format on */

/* Seed 002's dual-path kernel (an MP-IPDOM example) and its uniform twin,
 * built with -cl-opt-disable so that every access stays on its path as
 * written (optimised, the common load is hoisted above the branch and the
 * stores merge below it, leaving no memory work on the short path). */
static const char *dualpath_source =
    "kernel void dualpath(global const int *in, global int *out) {\n"
    "  int tid = get_local_id(0);\n"
    "  if (tid % 2 == 0) {\n"
    "    out[tid] = in[tid] + 10000;\n"
    "  } else {\n"
    "    out[tid] = in[tid] + 100;\n"
    "    out[tid] = out[tid] + 100;\n"
    "    out[tid] = out[tid] + 100;\n"
    "    out[tid] = out[tid] + 100;\n"
    "  }\n"
    "  out[tid] += 1;\n"
    "}\n"
    "kernel void uniform(global const int *in, global int *out) {\n"
    "  int tid = get_local_id(0);\n"
    "  out[tid] = in[tid] + 100;\n"
    "  out[tid] = out[tid] + 100;\n"
    "  out[tid] = out[tid] + 100;\n"
    "  out[tid] = out[tid] + 100;\n"
    "  out[tid] += 1;\n"
    "}\n";


struct mb {
  struct sg_sample s;
  cl_program p;
  cl_uint clock_mhz, warp;
  const char *stats; /* SOFTGPU_STATS, or NULL */
};

static double cycles(struct mb *m, cl_kernel k, size_t global, size_t local) {
  m->s.kernel_ms = 0;
  sg_sample_run(&m->s, k, 1, &global, &local);
  return m->s.kernel_ms * 1e3 * m->clock_mhz; /* ms x 1e3 = us; us x MHz = cycles */
}

/* A field of the last launch in the statistics file (the first one named so
 * in its line: the launch's total), or -1. */
static double stat_of(const struct mb *m, const char *field) {
  char key[64], *line = NULL;
  size_t cap = 0;
  double v = -1;
  snprintf(key, sizeof key, "\"%s\":", field);
  FILE *f = m->stats ? fopen(m->stats, "r") : NULL;
  if (!f)
    return -1;
  while (getline(&line, &cap, f) > 0) {
    const char *p = strstr(line, key);
    v = p ? strtod(p + strlen(key), NULL) : -1;
  }
  free(line);
  fclose(f);
  return v;
}

/* The field as text, "n/a" without statistics (SOFTGPU_STATS unset, or
 * another platform); buf holds 32 bytes. */
static const char *stat(const struct mb *m, const char *field, const char *fmt, char *buf) {
  double v = stat_of(m, field);
  if (v < 0)
    return "n/a";
  snprintf(buf, 32, fmt, v);
  return buf;
}

static cl_mem buffer(struct mb *m, size_t size, void *host) {
  return sg_sample_buffer(&m->s, CL_MEM_READ_WRITE, size, host);
}

static void arg(cl_kernel k, cl_uint i, size_t size, const void *v) {
  SG_CL(clSetKernelArg(k, i, size, v));
}

/* latency UNIT: (T(32 per iteration) - T(16)) / (16 n), with n-differencing
 * so that cold instruction fetches cancel too. */
static int latency(struct mb *m, const char *unit) {
  char name[16];
  double t[2][2];
  const cl_uint n[2] = {64, 192};
  cl_uint zero = 0, one = 1;
  for (int w = 0; w < 2; w++) {
    snprintf(name, sizeof name, "%s%d", unit, w ? 32 : 16);
    cl_kernel k = sg_sample_kernel(m->p, name);
    for (int j = 0; j < 2; j++) {
      /* x stays 0 (fma(0,0,0), 0 + (0>>1)) or 1 (1*1) */
      cl_mem io = buffer(m, 4, strcmp(unit, "mul") ? (void *)&zero : (void *)&one);
      arg(k, 0, sizeof io, &io);
      arg(k, 1, sizeof n[j], &n[j]);
      t[w][j] = cycles(m, k, 1, 1);
      cl_uint out;
      sg_sample_read(&m->s, io, 4, &out);
      clReleaseMemObject(io);
      if (out != (strcmp(unit, "mul") ? 0u : 1u)) {
        fprintf(stderr, "latency %s: wrong result %u\n", unit, out);
        return 1;
      }
    }
    clReleaseKernel(k);
  }
  double per16 = (t[0][1] - t[0][0]) / (n[1] - n[0]), per32 = (t[1][1] - t[1][0]) / (n[1] - n[0]);
  double lat = (per32 - per16) / 16 / (strcmp(unit, "alu") ? 1 : 2);
  printf("latency %s: %.2f cycles (an iteration of 16: %.2f cycles)\n", unit, lat, per16);
  return 0;
}

/* chase BYTES STRIDE: a warm pass over the ring, then n2 - n1 more loads. */
static int chase(struct mb *m, size_t bytes, size_t stride) {
  if (stride < 8 || stride % 8 || bytes < stride || bytes % stride) {
    fprintf(stderr, "chase: STRIDE must be a multiple of 8 dividing BYTES\n");
    return 2;
  }
  cl_uint count = (cl_uint)(bytes / stride), words = (cl_uint)(stride / 8);
  cl_mem buf = buffer(m, bytes, NULL), out = buffer(m, 8, NULL);
  cl_kernel ring = sg_sample_kernel(m->p, "ring"), k = sg_sample_kernel(m->p, "chase");
  arg(ring, 0, sizeof buf, &buf);
  arg(ring, 1, sizeof words, &words);
  arg(ring, 2, sizeof count, &count);
  size_t g = count;
  SG_CL(clEnqueueNDRangeKernel(m->s.queue, ring, 1, NULL, &g, NULL, 0, NULL, NULL));
  /* the ring once to warm the caches, then 2 or 4 more rounds, at least 1024 loads */
  cl_uint rounds = count >= 1024 ? 1 : (1024 + count - 1) / count;
  cl_uint n[2] = {count + 2 * rounds * count, count + 4 * rounds * count};
  double t[2];
  for (int j = 0; j < 2; j++) {
    arg(k, 0, sizeof buf, &buf);
    arg(k, 1, sizeof n[j], &n[j]);
    arg(k, 2, sizeof out, &out);
    t[j] = cycles(m, k, 1, 1);
    cl_ulong end;
    sg_sample_read(&m->s, out, 8, &end);
    if (end != (cl_ulong)(n[j] % count) * words) {
      fprintf(stderr, "chase: ended at word %llu, not %llu\n", (unsigned long long)end,
              (unsigned long long)(n[j] % count) * words);
      return 1;
    }
  }
  printf("chase %zu B, stride %zu B: %.2f cycles per load\n", bytes, stride,
         (t[1] - t[0]) / (n[1] - n[0]));
  clReleaseKernel(ring);
  clReleaseKernel(k);
  clReleaseMemObject(buf);
  clReleaseMemObject(out);
  return 0;
}

/* smem STRIDE: one warp, each lane at lane x STRIDE words. */
static int smem(struct mb *m, cl_uint stride) {
  cl_kernel k = sg_sample_kernel(m->p, "smem");
  size_t lanes = m->warp, local_bytes = (lanes * stride + 1) * 4;
  cl_mem out = buffer(m, lanes * 4, NULL);
  const cl_uint n[2] = {256, 768};
  double t[2];
  for (int j = 0; j < 2; j++) {
    arg(k, 0, sizeof out, &out);
    arg(k, 1, sizeof stride, &stride);
    arg(k, 2, sizeof n[j], &n[j]);
    arg(k, 3, local_bytes, NULL);
    t[j] = cycles(m, k, lanes, lanes);
  }
  cl_uint *got = malloc(lanes * 4);
  sg_sample_read(&m->s, out, lanes * 4, got);
  unsigned long bad = 0;
  for (size_t l = 0; l < lanes; l++)
    bad += got[l] != l * stride;
  free(got);
  printf("smem stride %u words: %.2f cycles per load and add\n", stride,
         (t[1] - t[0]) / (n[1] - n[0]));
  clReleaseKernel(k);
  clReleaseMemObject(out);
  return bad ? 1 : 0;
}

/* coalesce STRIDE: 64 warps copy; lane l of a warp reads float l x STRIDE. */
static int coalesce(struct mb *m, cl_uint stride) {
  size_t n = 64 * (size_t)m->warp;
  float *in = malloc(n * stride * sizeof(float)), *out = malloc(n * sizeof(float));
  for (size_t i = 0; i < n * stride; i++)
    in[i] = (float)i;
  cl_mem din = buffer(m, n * stride * sizeof(float), in), dout = buffer(m, n * sizeof(float), NULL);
  cl_kernel k = sg_sample_kernel(m->p, "copy");
  arg(k, 0, sizeof din, &din);
  arg(k, 1, sizeof dout, &dout);
  arg(k, 2, sizeof stride, &stride);
  size_t local = m->warp;
  cycles(m, k, n, local);
  sg_sample_read(&m->s, dout, n * sizeof(float), out);
  unsigned long bad = 0;
  for (size_t i = 0; i < n; i++)
    bad += out[i] != in[i * stride];
  char b1[32], b2[32];
  printf("coalesce stride %u: %s requests, %s transactions\n", stride,
         stat(m, "mem_requests", "%.0f", b1), stat(m, "mem_transactions", "%.0f", b2));
  free(in);
  free(out);
  clReleaseKernel(k);
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  return bad ? 1 : 0;
}

/* diverge K: 64 warps; K lanes of each run 100 FMAs. */
static int diverge(struct mb *m, cl_uint kl) {
  size_t n = 64 * (size_t)m->warp;
  float *x = calloc(n, sizeof(float));
  cl_mem io = buffer(m, n * sizeof(float), x);
  cl_uint rounds = 100;
  cl_kernel k = sg_sample_kernel(m->p, "diverge");
  arg(k, 0, sizeof io, &io);
  arg(k, 1, sizeof kl, &kl);
  arg(k, 2, sizeof m->warp, &m->warp);
  arg(k, 3, sizeof rounds, &rounds);
  double c = cycles(m, k, n, m->warp);
  sg_sample_read(&m->s, io, n * sizeof(float), x);
  unsigned long bad = 0;
  for (size_t i = 0; i < n; i++) {
    float want = 0;
    for (cl_uint r = 0; i % m->warp < kl && r < rounds; r++)
      want = want * 0.5f + 1.0f;
    bad += x[i] != want;
  }
  char b1[32], b2[32], b3[32];
  printf("diverge %u of %u lanes: %.0f cycles, %s warp instructions, %s thread "
         "instructions, SIMD efficiency %s\n",
         kl, m->warp, c, stat(m, "warp_insns", "%.0f", b1), stat(m, "thread_insns", "%.0f", b2),
         stat(m, "simd_efficiency", "%.4f", b3));
  free(x);
  clReleaseKernel(k);
  clReleaseMemObject(io);
  return bad ? 1 : 0;
}

/* stream GROUPS: each one-warp work-group sums its own 64 KB. */
static int stream(struct mb *m, cl_uint groups) {
  size_t floats = (size_t)groups * 16384, n = (size_t)groups * m->warp;
  float *in = malloc(floats * sizeof(float)), *out = malloc(n * sizeof(float));
  for (size_t i = 0; i < floats; i++)
    in[i] = (float)(i % 7);
  cl_mem din = buffer(m, floats * sizeof(float), in), dout = buffer(m, n * sizeof(float), NULL);
  cl_kernel k = sg_sample_kernel(m->p, "stream");
  arg(k, 0, sizeof din, &din);
  arg(k, 1, sizeof dout, &dout);
  double c = cycles(m, k, n, m->warp);
  sg_sample_read(&m->s, dout, n * sizeof(float), out);
  unsigned long bad = 0;
  for (size_t i = 0; i < n; i++) {
    size_t g = i / m->warp, l = i % m->warp;
    double want = 0;
    for (size_t e = 0; e < 4096; e += m->warp)
      for (int c4 = 0; c4 < 4; c4++)
        want += (double)((g * 16384 + (e + l) * 4 + c4) % 7);
    bad += out[i] != (float)want;
  }
  printf("stream %u groups, %zu bytes: %.0f cycles, %.2f bytes per cycle\n", groups,
         floats * sizeof(float), c, (double)(floats * sizeof(float)) / c);
  free(in);
  free(out);
  clReleaseKernel(k);
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  return bad ? 1 : 0;
}

/* dualpath / uniform: one warp of seed 002's kernel. */
static int dualpath(struct mb *m, const char *name) {
  size_t n = m->warp;
  cl_int *in = malloc(n * sizeof(cl_int)), *out = calloc(n, sizeof(cl_int));
  for (size_t i = 0; i < n; i++)
    in[i] = (cl_int)i;
  cl_mem din = buffer(m, n * sizeof(cl_int), in), dout = buffer(m, n * sizeof(cl_int), out);
  cl_program p = sg_sample_build(&m->s, dualpath_source, "-cl-opt-disable");
  cl_kernel k = sg_sample_kernel(p, name);
  arg(k, 0, sizeof din, &din);
  arg(k, 1, sizeof dout, &dout);
  double c = cycles(m, k, n, n);
  clReleaseProgram(p);
  sg_sample_read(&m->s, dout, n * sizeof(cl_int), out);
  unsigned long bad = 0;
  for (size_t i = 0; i < n; i++)
    bad += out[i] != (cl_int)i + (strcmp(name, "uniform") && i % 2 == 0 ? 10000 : 400) + 1;
  printf("%s: %.0f cycles\n", name, c);
  free(in);
  free(out);
  clReleaseKernel(k);
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  return bad ? 1 : 0;
}

/* thrash WARPS: one-warp work-groups, each reading its own 4 KB 8 times. */
static int thrash(struct mb *m, cl_uint warps, cl_uint rounds) {
  size_t floats = (size_t)warps * THRASH_FLOATS, n = (size_t)warps * m->warp;
  float *in = malloc(floats * sizeof(float)), *out = malloc(n * sizeof(float));
  for (size_t i = 0; i < floats; i++)
    in[i] = (float)(i % 5);
  cl_mem din = buffer(m, floats * sizeof(float), in), dout = buffer(m, n * sizeof(float), NULL);
  cl_kernel k = sg_sample_kernel(m->p, "thrash");
  arg(k, 0, sizeof din, &din);
  arg(k, 1, sizeof dout, &dout);
  arg(k, 2, sizeof rounds, &rounds);
  double c = cycles(m, k, n, m->warp);
  sg_sample_read(&m->s, dout, n * sizeof(float), out);
  unsigned long bad = 0;
  for (size_t i = 0; i < n; i++) {
    size_t g = i / m->warp, l = i % m->warp;
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int r = 0; r < 8; r++)
      for (size_t e = 0; e < THRASH_FLOATS; e += m->warp) {
        float x = in[g * THRASH_FLOATS + e + l];
        for (cl_uint k = 0; k < rounds; k++) {
          s0 = fmaf(s0, 0.5f, x), s1 = fmaf(s1, 0.25f, x);
          s2 = fmaf(s2, 0.125f, x), s3 = fmaf(s3, 0.0625f, x);
        }
      }
    bad += out[i] != s0 + s1 + s2 + s3;
  }
  char b1[32];
  printf("thrash %u warps, %u FMA rounds: %.0f cycles, L1 hit rate %s\n", warps, rounds, c,
         stat(m, "l1_hit_rate", "%.4f", b1));
  free(in);
  free(out);
  clReleaseKernel(k);
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  return bad ? 1 : 0;
}

static unsigned long number(const char *s) {
  char *end;
  unsigned long v = s ? strtoul(s, &end, 0) : 0;
  if (!s || *end || v == 0 || v > (1ul << 30)) {
    fprintf(stderr, "microbench: '%s' is not a positive number\n", s ? s : "");
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  struct mb m = {.stats = getenv("SOFTGPU_STATS")};
  sg_sample_init(&m.s);
  SG_CL(clGetDeviceInfo(m.s.device, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof m.clock_mhz,
                        &m.clock_mhz, NULL));
  m.p = sg_sample_build(&m.s, source, "");
  /* the warp: the kernel's preferred work-group size multiple */
  cl_kernel probe = sg_sample_kernel(m.p, "copy");
  size_t multiple;
  SG_CL(clGetKernelWorkGroupInfo(probe, m.s.device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                 sizeof multiple, &multiple, NULL));
  clReleaseKernel(probe);
  m.warp = (cl_uint)multiple;
  int rc;
  if (!strcmp(what, "latency") && argc == 3 &&
      (!strcmp(argv[2], "alu") || !strcmp(argv[2], "mul") || !strcmp(argv[2], "fpu")))
    rc = latency(&m, argv[2]);
  else if (!strcmp(what, "chase") && argc == 4)
    rc = chase(&m, number(argv[2]), number(argv[3]));
  else if (!strcmp(what, "smem") && argc == 3)
    rc = smem(&m, (cl_uint)number(argv[2]));
  else if (!strcmp(what, "coalesce") && argc == 3)
    rc = coalesce(&m, (cl_uint)number(argv[2]));
  else if (!strcmp(what, "diverge") && argc == 3)
    rc = diverge(&m, (cl_uint)strtoul(argv[2], NULL, 0));
  else if (!strcmp(what, "stream") && argc == 3)
    rc = stream(&m, (cl_uint)number(argv[2]));
  else if ((!strcmp(what, "dualpath") || !strcmp(what, "uniform")) && argc == 2)
    rc = dualpath(&m, what);
  else if (!strcmp(what, "thrash") && argc == 4)
    rc = thrash(&m, (cl_uint)number(argv[2]), (cl_uint)number(argv[3]));
  else {
    fprintf(stderr, "usage: microbench latency alu|mul|fpu | chase BYTES STRIDE | smem STRIDE |"
                    " coalesce STRIDE | diverge K | stream GROUPS | dualpath | uniform |"
                    " thrash WARPS ROUNDS\n");
    rc = 2;
  }
  clReleaseProgram(m.p);
  sg_sample_finish(&m.s);
  return rc;
}
