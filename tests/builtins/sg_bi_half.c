/* SPDX-License-Identifier: MIT */
/* Built-in function conformance, half-precision loads and stores (OpenCL
 * C 1.2 s6.12.7): every half bit pattern through vload_half/vloada_half,
 * float and double through vstore_half/vstorea_halfn in each rounding mode
 * on overflow, subnormal, tie and NaN edges, against an exact host binary16
 * rounding; vector forms (width 4, aligned width 3) lane by lane. */
#include <float.h>

#include "sg_bi.h"

enum { NMODES = 5, NRAND = 2048 };
static const char *const modes[NMODES] = {"", "_rte", "_rtz", "_rtp", "_rtn"};

/* The binary16 encoding of x rounded in mode m: |x| / q rounded to an
 * integer, q the half ulp of x's binade (2^-24 below the normal range), is
 * the encoding itself once the exponent offset is added (a carry moves into
 * the exponent field); past 65504 the mode picks infinity or the largest. */
static uint16_t to_half(double x, int m) {
  uint16_t sign = signbit(x) ? 0x8000 : 0;
  double a = fabs(x);
  if (isnan(x))
    return sign | 0x7e00;
  if (isinf(x)) /* exact in every mode */
    return sign | 0x7c00;
  int away = m <= 1 || (m == 3 && !sign) || (m == 4 && sign); /* may round up in magnitude */
  if (a >= 65536)
    return sign | (away ? 0x7c00 : 0x7bff);
  if (a == 0)
    return sign;
  int e;
  frexp(a, &e);
  e = e - 1 < -14 ? -14 : e - 1;
  long double s = ldexpl(a, 10 - e), r; /* exact */
  if (m <= 1)
    r = rintl(s);
  else if (m == 2 || away == 0)
    r = truncl(s);
  else
    r = ceill(s);
  uint32_t bits = (uint32_t)((e + 14) << 10) + (uint32_t)r;
  if (bits > 0x7bff)
    return sign | (away ? 0x7c00 : 0x7bff);
  return sign | (uint16_t)bits;
}

static double from_half(uint16_t h) {
  int e = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v = e == 0x1f ? (mant ? NAN : INFINITY)
             : e == 0  ? ldexp(mant, -24)
                       : ldexp(mant + 1024, e - 25);
  return (h & 0x8000) ? -v : v;
}
static int same_half(uint16_t got, uint16_t want) {
  int gn = (got & 0x7c00) == 0x7c00 && (got & 0x3ff),
      wn = (want & 0x7c00) == 0x7c00 && (want & 0x3ff);
  return wn ? gn : got == want;
}

/* Edge values of binary16 rounding; each also negated. */
static size_t edges(int dbl, double *v) {
  const double e[] = {0,
                      65504,
                      65505,
                      65519,
                      65519.99,
                      65520,
                      65520.01,
                      65535,
                      65536,
                      1e10,
                      dbl ? DBL_MAX : FLT_MAX,
                      INFINITY,
                      NAN,
                      0x1p-14,
                      0x1p-24,
                      0x1p-25,
                      0x1.0002p-25,
                      0x3p-26,
                      0x1p-26,
                      0x1.8p-24,
                      0x2.8p-24,
                      1 + 0x1p-11,
                      1 + 0x3p-11,
                      1 + 0x1p-11 + 0x1p-20,
                      1.0 / 3,
                      0x1p-14 - 0x1p-25,
                      0x1p-14 - 0x1p-24,
                      dbl ? DBL_TRUE_MIN : FLT_TRUE_MIN,
                      1,
                      2048 + 1,
                      4096 + 2,
                      0x1.ffep-1,
                      1 + 0x1p-11 + 0x1p-40,
                      0x1p-25 + 0x1p-60,
                      2048 + 1 + 0x1p-30,
                      65520 - 0x1p-30};
  size_t n = 0;
  for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
    double x = dbl ? e[i] : (double)(float)e[i];
    v[n++] = x, v[n++] = -x;
  }
  return n;
}

static void emit_store(struct sg_bi *b, const char *T, int m) {
  const char *M = modes[m];
  sg_bi_emit(b,
             "__kernel void st_%s%s(__global const %s *a, __global half *o, uint n) {\n"
             "  size_t j = get_global_id(0);\n"
             "  vstore_half%s(a[j], j, o);\n"
             "  if (j %% 2 == 0)\n    vstorea_half2%s(vload2(0, a + j), j / 2, o + n);\n"
             "  if (j %% 4 == 0) {\n"
             "    vstore_half4%s(vload4(0, a + j), j / 4, o + 2 * n);\n"
             "    vstorea_half3%s(vload3(0, a + j), j / 4, o + 3 * n);\n  }\n}\n",
             T, M, T, M, M, M, M);
}

static void check_store(struct sg_bi *b, cl_program p, int dbl, int m, const double *x, size_t n) {
  size_t es = dbl ? 8 : 4;
  void *a = calloc(n, es);
  uint16_t *o = malloc(4 * n * sizeof(uint16_t));
  for (size_t i = 0; i < 4 * n; i++)
    o[i] = 0x5555; /* vstorea_half3 must leave every fourth half alone */
  for (size_t i = 0; i < n; i++) {
    if (dbl)
      ((double *)a)[i] = x[i];
    else
      ((float *)a)[i] = (float)x[i];
  }
  struct sg_bi_arg args[] = {{a, n * es, 0}, {o, 4 * n * sizeof(uint16_t), 1}};
  cl_uint cn = (cl_uint)n;
  char name[64];
  snprintf(name, sizeof(name), "st_%s%s", dbl ? "double" : "float", modes[m]);
  sg_bi_run(b, p, name, n, args, 2, &cn, sizeof(cn));
  static const char *const form[4] = {"vstore_half", "vstorea_half2", "vstore_half4",
                                      "vstorea_half3"};
  for (int f = 0; f < 4; f++) {
    unsigned long fails = 0;
    for (size_t i = 0; i < n; i++) {
      uint16_t want = f == 3 && i % 4 == 3 ? 0x5555 : to_half(x[i], m), got = o[(size_t)f * n + i];
      if (!same_half(got, want) && fails++ < SG_BI_MAX_REPORT)
        printf("  %s%s(%s %a): got %#06x expected %#06x\n", form[f], modes[m],
               dbl ? "double" : "float", x[i], got, want);
    }
    char fn[40];
    snprintf(fn, sizeof(fn), "%s%s", form[f], modes[m]);
    sg_bi_verdict(b, fn, dbl ? "double" : "float", fails, (unsigned long)n, 0);
  }
  free(a), free(o);
}

/* vload_half, vload_half4, vloada_half4 and vloada_half3 over all 65536 halves. */
static void check_load(struct sg_bi *b, cl_program p) {
  size_t n = 65536;
  uint16_t *h = malloc(n * sizeof(uint16_t));
  float *o = calloc(4 * n, sizeof(float));
  for (size_t i = 0; i < n; i++)
    h[i] = (uint16_t)i;
  struct sg_bi_arg args[] = {{h, n * sizeof(uint16_t), 0}, {o, 4 * n * sizeof(float), 1}};
  cl_uint cn = (cl_uint)n;
  sg_bi_run(b, p, "ld", n, args, 2, &cn, sizeof(cn));
  static const char *const form[4] = {"vload_half", "vload_half4", "vloada_half4", "vloada_half3"};
  for (int f = 0; f < 4; f++) {
    unsigned long fails = 0;
    for (size_t i = 0; i < n; i++) {
      if (f == 3 && i % 4 == 3)
        continue;
      double want = from_half(h[i]), got = o[(size_t)f * n + i];
      int ok = isnan(want) ? isnan(got) : got == want && signbit(got) == signbit(want);
      if (!ok && fails++ < SG_BI_MAX_REPORT)
        printf("  %s(%#06zx): got %a expected %a\n", form[f], i, got, want);
    }
    sg_bi_verdict(b, form[f], "float", fails, (unsigned long)n, 0);
  }
  free(h), free(o);
}

int sg_bi_half(struct sg_bi *b) {
  int nd = b->has_fp64 ? 2 : 1;
  for (int d = 0; d < nd; d++)
    for (int m = 0; m < NMODES; m++)
      emit_store(b, d ? "double" : "float", m);
  sg_bi_emit(b, "__kernel void ld(__global const half *h, __global float *o, uint n) {\n"
                "  size_t j = get_global_id(0);\n  o[j] = vload_half(j, h);\n"
                "  if (j %% 4 == 0) {\n"
                "    vstore4(vload_half4(j / 4, h), j / 4, o + n);\n"
                "    vstore4(vloada_half4(j / 4, h), j / 4, o + 2 * n);\n"
                "    vstore3(vloada_half3(j / 4, h), 0, o + 3 * n + j);\n  }\n}\n");
  cl_program p = sg_bi_build(b, "");
  check_load(b, p);
  double *x = calloc(256 + NRAND, sizeof(double));
  for (int d = 0; d < nd; d++) {
    size_t n = edges(d, x);
    while (n % 4 || n < 128 + NRAND) { /* random values around the half range */
      double r = ldexp((double)(sg_bi_rand() >> 11), -53 + (int)(sg_bi_rand() % 48) - 30);
      x[n++] = d ? r : (double)(float)r;
      x[n - 1] = (sg_bi_rand() & 1) ? -x[n - 1] : x[n - 1];
    }
    for (int m = 0; m < NMODES; m++)
      check_store(b, p, d, m, x, n);
  }
  free(x);
  clReleaseProgram(p);
  return 0;
}
