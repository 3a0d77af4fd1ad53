/* SPDX-License-Identifier: MIT */
/* Sample (DESIGN.md "Tests"; SIMT core statistics): the same amount of work
 * done by a uniform kernel and by a kernel that branches on
 * get_global_id(0) % 4, so a warp runs four paths one after another. Prints
 * the SIMD efficiency (active lanes / lane slots) of each, read from the
 * per-launch statistics SoftGPU writes as JSON lines to SOFTGPU_STATS;
 * other platforms have no such statistics ("n/a"). Usage: divergence [n] */
#include <unistd.h>

#include "sg_sample.h"

#define ROUNDS 64

/* Each path is a different loop, so the branches cannot become selects. */
/* clang-format off */
#define PATHS(X)                                                               \
  X(0, x = x * 747796405u + (x >> 7) + r)                                      \
  X(1, x = (x ^ (x << 5)) + r * 3u)                                            \
  X(2, x = (x * 1664525u) ^ ((x >> 11) + r))                                   \
  X(3, x = (x + 0x9e3779b9u + r) * (x | 1u))
#define STR_(...) #__VA_ARGS__
#define STR(...) STR_(__VA_ARGS__)
#define CL_PATH(n, step)                                                       \
  "uint path" #n "(uint x)\n"                                                  \
  "{\n"                                                                        \
  "  for (uint r = 0; r < " STR(ROUNDS) "; r++)\n"                             \
  "    " STR(step) ";\n"                                                       \
  "  return x;\n"                                                              \
  "}\n"
#define HOST_PATH(n, step)                                                     \
  static cl_uint path##n(cl_uint x)                                            \
  {                                                                            \
    for (cl_uint r = 0; r < ROUNDS; r++)                                       \
      step;                                                                    \
    return x;                                                                  \
  }

static const char *source =
    PATHS(CL_PATH)
    "kernel void uniform_work(global const uint *in, global uint *out)\n"
    "{\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = path0(in[i]);\n"
    "}\n"
    "kernel void divergent_work(global const uint *in, global uint *out)\n"
    "{\n"
    "  size_t i = get_global_id(0);\n"
    "  uint x = in[i];\n"
    "  switch (i % 4) {\n"
    "  case 0: x = path0(x); break;\n"
    "  case 1: x = path1(x); break;\n"
    "  case 2: x = path2(x); break;\n"
    "  default: x = path3(x); break;\n"
    "  }\n"
    "  out[i] = x;\n"
    "}\n";

PATHS(HOST_PATH)
/* clang-format on */

static cl_uint expected(int divergent, size_t i, cl_uint x) {
  static cl_uint (*const path[4])(cl_uint) = {path0, path1, path2, path3};
  return path[divergent ? i % 4 : 0](x);
}

/* simd_efficiency of the last launch in the stats file; -1 if none. */
static double last_simd_efficiency(const char *path) {
  char line[8192];
  double eff = -1;
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  while (fgets(line, sizeof(line), f)) {
    const char *p = strstr(line, "\"simd_efficiency\"");
    if (p && (p = strchr(p, ':')))
      eff = strtod(p + 1, NULL);
  }
  fclose(f);
  return eff;
}

static unsigned long run(struct sg_sample *s, cl_program p, const char *name, int divergent,
                         size_t n, const char *stats) {
  cl_uint *in = malloc(n * sizeof(cl_uint)), *out = malloc(n * sizeof(cl_uint));
  if (!in || !out)
    exit(2);
  for (size_t i = 0; i < n; i++)
    in[i] = (cl_uint)(i * 2654435761u);
  cl_kernel k = sg_sample_kernel(p, name);
  cl_mem din = sg_sample_buffer(s, CL_MEM_READ_ONLY, n * sizeof(cl_uint), in);
  cl_mem dout = sg_sample_buffer(s, CL_MEM_WRITE_ONLY, n * sizeof(cl_uint), NULL);
  SG_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &din));
  SG_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &dout));
  size_t local = 64;
  sg_sample_run(s, k, 1, &n, &local);
  sg_sample_read(s, dout, n * sizeof(cl_uint), out);

  unsigned long bad = 0;
  for (size_t i = 0; i < n; i++)
    if (out[i] != expected(divergent, i, in[i]) && bad++ < 5)
      fprintf(stderr, "%s: out[%zu] = %u, expected %u\n", name, i, out[i],
              expected(divergent, i, in[i]));
  double eff = stats ? last_simd_efficiency(stats) : -1;
  if (eff >= 0)
    printf("%s simd_efficiency: %.3f\n", name, eff);
  else
    printf("%s simd_efficiency: n/a\n", name);
  if (stats && !(eff > 0 && eff <= 1)) {
    fprintf(stderr, "%s: no valid simd_efficiency in %s\n", name, stats);
    bad++;
  }
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  clReleaseKernel(k);
  free(in);
  free(out);
  return bad;
}

int main(int argc, char **argv) {
  /* A multiple of the work-group size: no masked tail lanes, so only the
   * branches lower the divergent kernel's efficiency. */
  size_t n = (sg_sample_size(argc, argv, 1 << 16) + 63) / 64 * 64;
  char stats[] = "/tmp/sg_divergence_stats_XXXXXX";
  int own_stats = !getenv("SOFTGPU_STATS");
  if (own_stats) {
    int fd = mkstemp(stats);
    if (fd < 0)
      return 2;
    close(fd);
    setenv("SOFTGPU_STATS", stats, 1); /* before the platform is loaded */
  }
  struct sg_sample s;
  sg_sample_init(&s);
  const char *stats_path = sg_sample_is_softgpu(&s) ? getenv("SOFTGPU_STATS") : NULL;
  cl_program p = sg_sample_build(&s, source, "");
  unsigned long bad = run(&s, p, "uniform_work", 0, n, stats_path);
  bad += run(&s, p, "divergent_work", 1, n, stats_path);
  clReleaseProgram(p);
  sg_sample_finish(&s);
  if (own_stats)
    unlink(stats);
  return sg_sample_report(&s, "divergence", n, bad);
}
