/* SPDX-License-Identifier: MIT */
/* Built-in function conformance, common and geometric families (OpenCL C
 * s6.12.4, s6.12.5; tolerances of the OpenCL 3.0 C spec's ULP tables):
 * long double host references; common functions at width 4 lane by lane
 * against the scalar, and with scalar arguments among vectors; geometric ones at every width, with
 * huge and tiny components (no spurious overflow or underflow), zero, infinite and NaN vectors. */
#define _GNU_SOURCE
#include <float.h>

#include "sg_bi.h"

enum kind { K_EXACT, K_ZSIGN /* exact, sign of zero too */, K_ULP, K_ABS };
enum shape { COMMON, GEO_SCALAR, GEO_VECTOR };
enum fn {
  C_CLAMP,
  C_DEGREES,
  C_RADIANS,
  C_MIX,
  C_STEP,
  C_SMOOTHSTEP,
  C_SIGN,
  C_MAX,
  C_MIN,
  G_DOT,
  G_CROSS,
  G_LENGTH,
  G_DISTANCE,
  G_NORMALIZE,
  G_FAST_LENGTH,
  G_FAST_DISTANCE,
  G_FAST_NORMALIZE,
  F_COUNT
};
static const struct {
  const char *name;
  int arity;
  enum shape shape;
  int float_only;
} fns[F_COUNT] = {
    {"clamp", 3, COMMON, 0},
    {"degrees", 1, COMMON, 0},
    {"radians", 1, COMMON, 0},
    {"mix", 3, COMMON, 0},
    {"step", 2, COMMON, 0},
    {"smoothstep", 3, COMMON, 0},
    {"sign", 1, COMMON, 0},
    {"max", 2, COMMON, 0},
    {"min", 2, COMMON, 0},
    {"dot", 2, GEO_SCALAR, 0},
    {"cross", 2, GEO_VECTOR, 0},
    {"length", 1, GEO_SCALAR, 0},
    {"distance", 2, GEO_SCALAR, 0},
    {"normalize", 1, GEO_VECTOR, 0},
    {"fast_length", 1, GEO_SCALAR, 1},
    {"fast_distance", 2, GEO_SCALAR, 1},
    {"fast_normalize", 1, GEO_VECTOR, 1},
};
static const char *const tname[2] = {"float", "double"};
enum { NCOMMON = 2048, NGEO = 512 };

/* ---- Checking ------------------------------------------------------------ */
static long double to_t(int dbl, long double x) {
  return dbl ? (double)x : (float)x;
}

/* |got - ref| in ulps of ref's binade (OpenCL's definition). */
static long double ulp_err(int dbl, long double got, long double ref) {
  int e, mant = dbl ? 53 : 24, emin = dbl ? -1022 : -126;
  frexpl(fabsl(ref), &e);
  if (e - 1 < emin)
    e = emin + 1;
  return fabsl(got - ref) / ldexpl(1, e - mant);
}

/* The error of got against ref in the kind's unit (ulps or absolute);
 * INFINITY when the value or its class is wrong. */
static long double err(int dbl, enum kind k, long double got, long double ref) {
  long double rr = to_t(dbl, ref);
  if (isnan(ref) || isnan(got))
    return isnan(ref) && isnan(got) ? 0 : INFINITY;
  if (got == rr)
    return k == K_ZSIGN && signbit(got) != signbit(rr) ? INFINITY : 0;
  if (isinf(got) || isinf(rr) || k <= K_ZSIGN)
    return INFINITY;
  return k == K_ABS ? fabsl(got - ref) : ulp_err(dbl, got, ref);
}

/* ---- References ---------------------------------------------------------- */
static long double cref(enum fn f, long double x, long double y, long double z) {
  switch (f) {
  case C_CLAMP: return fminl(fmaxl(x, y), z);
  case C_DEGREES: return x * (180 / M_PIl);
  case C_RADIANS: return x * (M_PIl / 180);
  case C_MIX: return x + (y - x) * z;
  case C_STEP: return y < x ? 0 : 1;
  case C_SMOOTHSTEP: {
    long double t = fminl(fmaxl((z - x) / (y - x), 0), 1);
    return t * t * (3 - 2 * t);
  }
  case C_SIGN: return isnan(x) ? 0 : x > 0 ? 1 : x < 0 ? -1 : x;
  case C_MAX: return x < y ? y : x;
  case C_MIN: return y < x ? y : x;
  default: return NAN;
  }
}

static long double sumsq(const long double *p, int w) {
  long double s = 0;
  for (int i = 0; i < w; i++)
    s += p[i] * p[i];
  return s;
}

/* Geometric reference of f on w-wide p, q into r (w values, or one). */
static void gref(enum fn f, int w, const long double *p, const long double *q, long double *r) {
  long double d[4], v[4];
  int inf = 0, nan = 0, zero = 1;
  switch (f) {
  case G_DOT:
    r[0] = 0;
    for (int i = 0; i < w; i++)
      r[0] += p[i] * q[i];
    return;
  case G_CROSS:
    r[0] = p[1] * q[2] - p[2] * q[1], r[1] = p[2] * q[0] - p[0] * q[2];
    r[2] = p[0] * q[1] - p[1] * q[0];
    if (w == 4)
      r[3] = 0;
    return;
  case G_LENGTH:
  case G_FAST_LENGTH: r[0] = sqrtl(sumsq(p, w)); return;
  case G_DISTANCE:
  case G_FAST_DISTANCE:
    for (int i = 0; i < w; i++)
      d[i] = p[i] - q[i];
    r[0] = sqrtl(sumsq(d, w));
    return;
  default: break;
  }
  /* normalize (s7.5 of the 3.0 spec): zero vectors unchanged, NaN anywhere
   * gives NaNs, infinite components count as +-1 and the others as +-0. */
  for (int i = 0; i < w; i++)
    inf |= isinf(p[i]), nan |= isnan(p[i]), zero &= p[i] == 0;
  for (int i = 0; i < w; i++)
    v[i] = inf ? (isinf(p[i]) ? copysignl(1, p[i]) : copysignl(0, p[i])) : p[i];
  long double l = sqrtl(sumsq(v, w));
  for (int i = 0; i < w; i++)
    r[i] = nan ? NAN : zero ? p[i] : v[i] / l;
}

/* The bound for f on type dbl at width w; mx: the largest input magnitude. */
static long double bound(enum fn f, int dbl, int w, long double mx, enum kind *k) {
  long double eps = dbl ? DBL_EPSILON : FLT_EPSILON;
  *k = K_ULP;
  switch (f) {
  case C_DEGREES:
  case C_RADIANS: return 2;
  case C_MIX: *k = K_ABS; return 1e-3L;
  case C_SMOOTHSTEP: *k = K_ABS; return 1e-5L;
  case G_DOT: *k = K_ABS; return mx * mx * (2 * w - 1) * eps;
  case G_CROSS: *k = K_ABS; return mx * mx * 3 * eps;
  case G_LENGTH: return dbl ? 5.5L + w : 2.75L + 0.5L * w;
  case G_DISTANCE: return (dbl ? 5.5L : 2.5L) + 2 * w;
  case G_NORMALIZE: return (dbl ? 4.5L : 2) + w;
  case G_FAST_LENGTH:
  case G_FAST_DISTANCE:
  case G_FAST_NORMALIZE: return 8192;
  case C_SIGN: *k = K_ZSIGN; return 0;
  default: *k = K_EXACT; return 0;
  }
}

/* ---- Inputs -------------------------------------------------------------- */
static double rnd(int lo, int hi) { /* random sign, mantissa and exponent in [lo, hi) */
  double m = ldexp((double)(sg_bi_rand() >> 11), -53);
  m = ldexp(m, lo + (int)(sg_bi_rand() % (uint64_t)(hi - lo)));
  return (sg_bi_rand() & 1) ? -m : m;
}
static double unit(void) {
  return ldexp((double)(sg_bi_rand() >> 11), -53);
}

static void common_inputs(enum fn f, int dbl, size_t i, double *x, double *y, double *z) {
  static const double sp[] = {0.0, -0.0, NAN,      INFINITY, -INFINITY,
                              1.0, -1.0, 0x1p-149, 1e38,     -1e-40};
  double s = sp[i % 10];
  *x = rnd(-20, 20), *y = rnd(-20, 20), *z = rnd(-20, 20);
  switch (f) {
  case C_CLAMP:
    *x = i < 40 ? s : *x;
    if (*y > *z) {
      double t = *y;
      *y = *z, *z = t;
    }
    break;
  case C_DEGREES:
  case C_RADIANS:
  case C_SIGN: *x = i < 40 ? s : i < 80 ? rnd(-140, 128) : *x; break;
  case C_MIX: *x = rnd(-4, 7), *y = rnd(-4, 7), *z = unit(); break;
  case C_STEP: *y = i % 4 == 0 ? *x : *y; break;
  case C_SMOOTHSTEP:
    *x = 20 * unit() - 10, *y = *x + 10 * unit() + 0.01, *z = 24 * unit() - 12;
    *z = i % 8 == 0 ? *x : i % 8 == 1 ? *y : *z;
    break;
  default: *y = i % 4 == 0 ? *x : *y; break; /* max, min: finite operands */
  }
  if (!dbl)
    *x = (float)*x, *y = (float)*y, *z = (float)*z;
}

/* Vector i (w components) of p and q: ordinary, huge, tiny, zero,
 * infinite or NaN; dot, cross and the fast_ forms get ordinary ones. */
static void geo_inputs(enum fn f, int dbl, size_t i, int w, double *p, double *q) {
  int plain = f == G_DOT || f == G_CROSS || f >= G_FAST_LENGTH;
  int cls = plain ? 0 : (int)(i % 8);
  static const int fscale[] = {0, 0, 0, 100, 124, -80, -140, 0},
                   dscale[] = {0, 0, 0, 600, 1020, -600, -1060, 0};
  int sc = dbl ? dscale[cls] : fscale[cls];
  for (int k = 0; k < w; k++) {
    p[k] = ldexp(rnd(-3, 1), sc), q[k] = ldexp(rnd(-3, 1), sc);
    if (cls == 7)
      p[k] = 0, q[k] = -0.0 * (k & 1);
    if (!dbl)
      p[k] = (float)p[k], q[k] = (float)q[k];
  }
  if (cls == 2 && i % 3 == 0) /* an infinite component, or two */
    p[i % (size_t)w] = (i & 8) ? -INFINITY : INFINITY, p[0] = (i & 16) ? INFINITY : p[0];
  else if (cls == 2)
    p[w - 1] = NAN;
}

/* ---- Kernels ------------------------------------------------------------- */
static void vec_name(char *buf, size_t len, const char *t, int w) {
  if (w == 1)
    snprintf(buf, len, "%s", t);
  else
    snprintf(buf, len, "%s%d", t, w);
}

/* The forms with scalar arguments next to vectors ('s': the group's first
 * element), e.g. clamp(float4, float, float); NULL: none. */
static const char *const mixed[C_SIGN + 3] = {"vss", NULL, NULL, "vvs", "sv",
                                              "ssv", NULL, "vs", "vs"};

/* k_: o = scalar, ov = width 4, os = width 4 with the mixed form. */
static void emit_common(struct sg_bi *b, enum fn f, int dbl) {
  const char *T = tname[dbl], *N = fns[f].name, *m = mixed[f];
  sg_bi_emit(b,
             "__kernel void k_%s_%s(__global const %s *a, __global const %s *b, "
             "__global const %s *c, __global %s *o, __global %s *ov, __global %s *os) {\n"
             "  size_t j = get_global_id(0);\n  o[j] = %s(",
             N, T, T, T, T, T, T, T, N);
  for (int i = 0; i < fns[f].arity; i++)
    sg_bi_emit(b, "%s%c[j]", i ? ", " : "", "abc"[i]);
  sg_bi_emit(b, ");\n  if (j %% 4 != 0)\n    return;\n  vstore4(%s(", N);
  for (int i = 0; i < fns[f].arity; i++)
    sg_bi_emit(b, "%svload4(0, %c + j)", i ? ", " : "", "abc"[i]);
  sg_bi_emit(b, "), 0, ov + j);\n");
  if (m) {
    sg_bi_emit(b, "  vstore4(%s(", N);
    for (int i = 0; i < fns[f].arity; i++)
      sg_bi_emit(b, m[i] == 's' ? "%s%c[j]" : "%svload4(0, %c + j)", i ? ", " : "", "abc"[i]);
    sg_bi_emit(b, "), 0, os + j);\n");
  }
  sg_bi_emit(b, "}\n");
}

static void emit_geo(struct sg_bi *b, enum fn f, int dbl, int w) {
  const char *T = tname[dbl], *N = fns[f].name;
  char ld[2][32];
  for (int k = 0; k < 2; k++)
    snprintf(ld[k], sizeof(ld[k]), w == 1 ? "%c[j]" : "vload%d(j, %c)", w == 1 ? "ab"[k] : w,
             "ab"[k]);
  if (w == 1)
    snprintf(ld[1], sizeof(ld[1]), "b[j]");
  sg_bi_emit(b,
             "__kernel void g_%s_%s%d(__global const %s *a, __global const %s *b, "
             "__global %s *o) {\n  size_t j = get_global_id(0);\n",
             N, T, w, T, T, T);
  const char *args = fns[f].arity > 1 ? ", " : "";
  if (fns[f].shape == GEO_SCALAR || w == 1)
    sg_bi_emit(b, "  o[j] = %s(%s%s%s);\n}\n", N, ld[0], args, fns[f].arity > 1 ? ld[1] : "");
  else
    sg_bi_emit(b, "  vstore%d(%s(%s%s%s), j, o);\n}\n", w, N, ld[0], args,
               fns[f].arity > 1 ? ld[1] : "");
}

/* ---- Runs ---------------------------------------------------------------- */
static void put(int dbl, void *p, size_t i, double v) {
  if (dbl)
    ((double *)p)[i] = v;
  else
    ((float *)p)[i] = (float)v;
}
static long double get(int dbl, const void *p, size_t i) {
  return dbl ? ((const double *)p)[i] : ((const float *)p)[i];
}

static void check_common(struct sg_bi *b, cl_program p, enum fn f, int dbl) {
  size_t n = NCOMMON, es = dbl ? 8 : 4;
  double *x = calloc(3 * n, sizeof(double));
  void *a = calloc(n, es), *bb = calloc(n, es), *c = calloc(n, es), *o = calloc(n, es),
       *ov = calloc(n, es), *os = calloc(n, es);
  for (size_t i = 0; i < n; i++) {
    common_inputs(f, dbl, i, &x[i], &x[n + i], &x[2 * n + i]);
    put(dbl, a, i, x[i]), put(dbl, bb, i, x[n + i]), put(dbl, c, i, x[2 * n + i]);
  }
  struct sg_bi_arg args[] = {{a, n * es, 0}, {bb, n * es, 0}, {c, n * es, 0},
                             {o, n * es, 1}, {ov, n * es, 1}, {os, n * es, 1}};
  char name[64];
  snprintf(name, sizeof(name), "k_%s_%s", fns[f].name, tname[dbl]);
  sg_bi_run(b, p, name, n, args, 6, NULL, 0);
  unsigned long fails = 0;
  long double worst = 0;
  for (size_t i = 0; i < n; i++) {
    enum kind k;
    long double tol = bound(f, dbl, 1, 0, &k), want = cref(f, x[i], x[n + i], x[2 * n + i]);
    long double got = get(dbl, o, i), gotv = get(dbl, ov, i);
    long double e = err(dbl, k, got, want), ev = err(dbl, K_ZSIGN, gotv, got);
    if (e > worst && k == K_ULP)
      worst = e;
    if ((e > tol || ev > 0) && fails++ < SG_BI_MAX_REPORT)
      printf("  %s(%s %a, %a, %a): got %La (vector lane %La) expected %La\n", fns[f].name,
             tname[dbl], x[i], x[n + i], x[2 * n + i], got, gotv, want);
    if (!mixed[f])
      continue;
    size_t g = i - i % 4, at[3]; /* each argument's element: the group's first, or this one */
    for (int r = 0; r < 3; r++)
      at[r] = r < fns[f].arity && mixed[f][r] == 's' ? g : i;
    want = cref(f, x[at[0]], x[n + at[1]], x[2 * n + at[2]]);
    got = get(dbl, os, i);
    if (err(dbl, k, got, want) > tol && fails++ < SG_BI_MAX_REPORT)
      printf("  %s(%s, mixed %s) lane %zu: got %La expected %La\n", fns[f].name, tname[dbl],
             mixed[f], i % 4, got, want);
  }
  sg_bi_verdict(b, fns[f].name, tname[dbl], fails, (unsigned long)n, (double)worst);
  free(x), free(a), free(bb), free(c), free(o), free(ov), free(os);
}

static void check_geo(struct sg_bi *b, cl_program p, enum fn f, int dbl, int w) {
  size_t n = NGEO, es = dbl ? 8 : 4, ow = fns[f].shape == GEO_VECTOR ? (size_t)w : 1;
  size_t sw = w == 3 ? 3 : (size_t)w; /* vload3 steps by 3 */
  double *x = calloc(2 * n * sw, sizeof(double));
  void *a = calloc(n * sw, es), *bb = calloc(n * sw, es), *o = calloc(n * ow, es);
  for (size_t i = 0; i < n; i++) {
    geo_inputs(f, dbl, i, w, &x[i * sw], &x[(n + i) * sw]);
    for (size_t k = 0; k < sw; k++)
      put(dbl, a, i * sw + k, x[i * sw + k]), put(dbl, bb, i * sw + k, x[(n + i) * sw + k]);
  }
  struct sg_bi_arg args[] = {{a, n * sw * es, 0}, {bb, n * sw * es, 0}, {o, n * ow * es, 1}};
  char name[64], type[16];
  snprintf(name, sizeof(name), "g_%s_%s%d", fns[f].name, tname[dbl], w);
  sg_bi_run(b, p, name, n, args, 3, NULL, 0);
  vec_name(type, sizeof(type), tname[dbl], w);
  unsigned long fails = 0;
  long double worst = 0;
  for (size_t i = 0; i < n; i++) {
    long double pv[4], qv[4], r[4], mx = 0;
    for (int k = 0; k < w; k++) {
      pv[k] = x[i * sw + (size_t)k], qv[k] = x[(n + i) * sw + (size_t)k];
      mx = fmaxl(mx, fmaxl(fabsl(pv[k]), fabsl(qv[k])));
    }
    gref(f, w, pv, qv, r);
    enum kind k;
    long double tol = bound(f, dbl, w, mx, &k);
    for (size_t c = 0; c < ow; c++) {
      long double got = get(dbl, o, i * ow + c), e = err(dbl, k, got, r[c]);
      if (e > worst && k == K_ULP)
        worst = e;
      if (e > tol && fails++ < SG_BI_MAX_REPORT)
        printf("  %s(%s (%a, %a, %a, %a), (%a, ...)) component %zu: got %La expected %La\n",
               fns[f].name, type, (double)pv[0], w > 1 ? (double)pv[1] : 0.0,
               w > 2 ? (double)pv[2] : 0.0, w > 3 ? (double)pv[3] : 0.0, (double)qv[0], c, got,
               r[c]);
    }
  }
  sg_bi_verdict(b, fns[f].name, type, fails, (unsigned long)n, (double)worst);
  free(x), free(a), free(bb), free(o);
}

static int width_ok(enum fn f, int w) {
  return f == G_CROSS ? w >= 3 : 1;
}

int sg_bi_common(struct sg_bi *b) {
  int nd = b->has_fp64 ? 2 : 1;
  for (int pass = 0; pass < 2; pass++) {
    cl_program p = pass ? sg_bi_build(b, "") : NULL;
    for (int d = 0; d < nd; d++)
      for (int f = 0; f < F_COUNT; f++) {
        if (fns[f].float_only && d)
          continue;
        if (fns[f].shape == COMMON) {
          if (pass)
            check_common(b, p, (enum fn)f, d);
          else
            emit_common(b, (enum fn)f, d);
          continue;
        }
        for (int w = 1; w <= 4; w++)
          if (width_ok((enum fn)f, w)) {
            if (pass)
              check_geo(b, p, (enum fn)f, d, w);
            else
              emit_geo(b, (enum fn)f, d, w);
          }
      }
    if (pass)
      clReleaseProgram(p);
  }
  return 0;
}
