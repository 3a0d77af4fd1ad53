/* SPDX-License-Identifier: MIT */
/* Built-in function conformance (DESIGN.md "Tests"): `sg_builtins FAMILY`
 * generates the family's kernels, runs them through the ICD loader and
 * checks every result against the host reference; exit 1 on any failure. */
#include <stdarg.h>

#include "sg_bi.h"

void sg_bi_emit(struct sg_bi *b, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int n = vsnprintf(b->src + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n >= 0 && b->len + (size_t)n < b->cap) {
      b->len += (size_t)n;
      return;
    }
    b->cap = b->cap * 2 + (size_t)(n > 0 ? n : 0) + 4096;
    b->src = realloc(b->src, b->cap);
    if (!b->src) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
  }
}

cl_program sg_bi_build(struct sg_bi *b, const char *opts) {
  cl_program p = sg_sample_build(&b->s, b->src, opts);
  b->len = 0;
  b->src[0] = 0;
  return p;
}

void sg_bi_run(struct sg_bi *b, cl_program p, const char *name, size_t global,
               const struct sg_bi_arg *args, int nargs, const void *val, size_t valsize) {
  cl_kernel k = sg_sample_kernel(p, name);
  cl_mem mem[16];
  for (int i = 0; i < nargs; i++) {
    mem[i] = sg_sample_buffer(&b->s, CL_MEM_READ_WRITE, args[i].bytes, args[i].host);
    SG_CL(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &mem[i]));
  }
  if (val)
    SG_CL(clSetKernelArg(k, (cl_uint)nargs, valsize, val));
  sg_sample_run(&b->s, k, 1, &global, NULL);
  for (int i = 0; i < nargs; i++) {
    if (args[i].out)
      sg_sample_read(&b->s, mem[i], args[i].bytes, args[i].host);
    clReleaseMemObject(mem[i]);
  }
  clReleaseKernel(k);
}

uint64_t sg_bi_rand(void) {
  static uint64_t s = 0x9e3779b97f4a7c15ull;
  s ^= s >> 12;
  s ^= s << 25;
  s ^= s >> 27;
  return s * 0x2545f4914f6cdd1dull;
}

void sg_bi_verdict(struct sg_bi *b, const char *fn, const char *type, unsigned long fails,
                   unsigned long n, double max_ulp) {
  b->checks += n;
  if (fails)
    b->failed_fns++;
  else
    b->passed_fns++;
  printf("%-6s %-24s %-8s %6lu values, max error %.3g ulp%s\n", fails ? "FAIL" : "ok", fn, type,
         n, max_ulp, fails ? "" : "");
}

static const struct {
  const char *name;
  int (*run)(struct sg_bi *);
} families[] = {
    {"math", sg_bi_math},
    {"integer", sg_bi_integer},
    {"convert", sg_bi_convert},
    {"relational", sg_bi_relational},
    {"half", sg_bi_half},
    {"common", sg_bi_common},
};

int main(int argc, char **argv) {
  size_t nf = sizeof(families) / sizeof(families[0]);
  size_t f = 0;
  while (argc == 2 && f < nf && strcmp(argv[1], families[f].name))
    f++;
  if (argc != 2 || f == nf) {
    fprintf(stderr, "usage: %s FAMILY (", argv[0]);
    for (f = 0; f < nf; f++)
      fprintf(stderr, "%s%s", f ? "|" : "", families[f].name);
    fprintf(stderr, ")\n");
    return 2;
  }
  struct sg_bi b = {0};
  sg_sample_init(&b.s);
  char ext[8192] = "";
  SG_CL(clGetDeviceInfo(b.s.device, CL_DEVICE_EXTENSIONS, sizeof(ext) - 1, ext, NULL));
  b.has_fp64 = strstr(ext, "cl_khr_fp64") != NULL;
  sg_bi_emit(&b, "%s", "");
  families[f].run(&b);
  sg_sample_finish(&b.s);
  free(b.src);
  printf("%s: %lu values checked\n", families[f].name, b.checks);
  printf("%lu passed, %lu failed\n", b.passed_fns, b.failed_fns);
  return b.failed_fns ? 1 : 0;
}
