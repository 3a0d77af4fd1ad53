/* SPDX-License-Identifier: MIT */
/* Built-in function conformance, conversions (OpenCL C 1.2 s6.2.3):
 * convert_<dst>[_sat][_<mode>] between all scalar types on edge values,
 * against exact host conversions (every source value is exact in long
 * double; fesetround picks the mode); width 4 lane by lane. */
#define _GNU_SOURCE
#include <fenv.h>
#include <float.h>

#include "sg_bi.h"

typedef __int128 i128;

struct cty {
  const char *name;
  int bits, sgn, fp;
};
static const struct cty ctypes[] = {
    {"char", 8, 1, 0},   {"uchar", 8, 0, 0},   {"short", 16, 1, 0}, {"ushort", 16, 0, 0},
    {"int", 32, 1, 0},   {"uint", 32, 0, 0},   {"long", 64, 1, 0},  {"ulong", 64, 0, 0},
    {"float", 32, 1, 1}, {"double", 64, 1, 1},
};
enum { NTYPES = 10, NMODES = 5, NRAND = 512, VW = 4 };
static const char *const modes[NMODES] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
static const int fe_modes[NMODES] = {FE_TONEAREST, FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD,
                                     FE_DOWNWARD};

static long double tmin(const struct cty *t) {
  return t->sgn ? -ldexpl(1, t->bits - 1) : 0;
}
static long double tmax(const struct cty *t) {
  return t->sgn ? ldexpl(1, t->bits - 1) - 1 : ldexpl(1, t->bits) - 1;
}

/* x (exact, any value) as a value of source type s: integers wrap, floating
 * point rounds to nearest. */
static long double to_src(const struct cty *s, long double x) {
  if (s->fp)
    return s->bits == 32 ? (long double)(float)x : (long double)(double)x;
  if (!isfinite(x))
    return 0;
  unsigned __int128 u = (unsigned __int128)(i128)truncl(fmodl(x, ldexpl(1, 120)));
  u &= ((unsigned __int128)1 << s->bits) - 1;
  i128 v = (s->sgn && (u >> (s->bits - 1))) ? (i128)u - ((i128)1 << s->bits) : (i128)u;
  return (long double)v;
}

/* Edge values: every integer type's range ends and their neighbours, ties,
 * large integers whose float rounding depends on the mode, specials. */
static size_t edges(long double *e) {
  size_t n = 0;
  static const long double fixed[] = {0.0L,
                                      -0.0L,
                                      0.5L,
                                      -0.5L,
                                      1.5L,
                                      -1.5L,
                                      2.5L,
                                      -2.5L,
                                      0.49999997L,
                                      1.0L,
                                      -1.0L,
                                      3.7L,
                                      -3.7L,
                                      16777217.0L,
                                      16777219.0L,
                                      -16777217.0L,
                                      33554435.0L,
                                      9007199254740993.0L,
                                      -9007199254740993.0L,
                                      0x1.fffffffffffff8p+62L,
                                      1e30L,
                                      -1e30L,
                                      1e300L,
                                      0x1p-149L,
                                      0x1p-1074L,
                                      -0x1p-149L,
                                      0x1.000001p0L,
                                      0x1.0000003p0L,
                                      -0x1.0000003p0L,
                                      0x1.fffffffp127L,
                                      0x1.ffffffp127L,
                                      0x1.000000000000001p0L,
                                      1.0L / 3,
                                      -1.0L / 3,
                                      0x1p-130L};
  for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
    e[n++] = fixed[i];
  e[n++] = NAN, e[n++] = INFINITY, e[n++] = -INFINITY;
  for (int t = 0; t < 8; t++) { /* each integer range's ends, inside and out */
    static const long double d[] = {-1, -0.5L, 0, 0.5L, 1, 1.5L};
    for (size_t k = 0; k < 6; k++) {
      e[n++] = tmax(&ctypes[t]) + d[k];
      if (ctypes[t].sgn)
        e[n++] = tmin(&ctypes[t]) - d[k];
    }
  }
  return n;
}

/* The exact conversion of x to d under mode m (0 = the default); 0 when
 * the result is undefined (out-of-range or NaN without _sat). */
static int ref(const struct cty *s, const struct cty *d, long double x, int sat, int m,
               long double *out) {
  if (d->fp) {
    volatile long double vx = x;
    volatile double r;
    fesetround(fe_modes[m]);
    if (d->bits == 32)
      r = (float)vx;
    else
      r = (double)vx;
    fesetround(FE_TONEAREST);
    *out = r;
    return 1;
  }
  if (isnan(x)) {
    *out = 0;
    return sat;
  }
  long double r = x;
  if (s->fp) {
    switch (m) {
    case 1: r = rintl(x); break;
    case 3: r = ceill(x); break;
    case 4: r = floorl(x); break;
    default: r = truncl(x);
    }
  }
  if (r < tmin(d) || r > tmax(d)) {
    if (!sat && s->fp)
      return 0;
    r = sat ? (r < tmin(d) ? tmin(d) : tmax(d)) : to_src(d, r);
  }
  *out = r;
  return 1;
}

static void put(const struct cty *t, void *p, size_t i, long double v) {
  if (t->fp && t->bits == 32)
    ((float *)p)[i] = (float)v;
  else if (t->fp)
    ((double *)p)[i] = (double)v;
  else if (t->bits == 8)
    ((int8_t *)p)[i] = (int8_t)(i128)v;
  else if (t->bits == 16)
    ((int16_t *)p)[i] = (int16_t)(i128)v;
  else if (t->bits == 32)
    ((int32_t *)p)[i] = (int32_t)(i128)v;
  else
    ((int64_t *)p)[i] = t->sgn ? (int64_t)v : (int64_t)(uint64_t)v;
}
static long double get(const struct cty *t, const void *p, size_t i) {
  if (t->fp)
    return t->bits == 32 ? ((const float *)p)[i] : ((const double *)p)[i];
  if (t->sgn) /* separate arms: a mixed ?: would make the signed ones unsigned */
    switch (t->bits) {
    case 8: return ((const int8_t *)p)[i];
    case 16: return ((const int16_t *)p)[i];
    case 32: return ((const int32_t *)p)[i];
    default: return ((const int64_t *)p)[i];
    }
  switch (t->bits) {
  case 8: return ((const uint8_t *)p)[i];
  case 16: return ((const uint16_t *)p)[i];
  case 32: return ((const uint32_t *)p)[i];
  default: return ((const uint64_t *)p)[i];
  }
}

static int nvariants(const struct cty *d) {
  return d->fp ? NMODES : 2 * NMODES;
}
static void variant(const struct cty *d, int v, char *buf, size_t len, const char *w) {
  snprintf(buf, len, "convert_%s%s%s%s", d->name, w, v >= NMODES ? "_sat" : "", modes[v % NMODES]);
}

/* k_S_D: each variant of one scalar; v_S_D: the same over VW-wide vectors. */
static void emit_pair(struct sg_bi *b, const struct cty *s, const struct cty *d) {
  char fn[64];
  for (int vec = 0; vec < 2; vec++) {
    sg_bi_emit(b, "__kernel void %s_%s_%s(__global const %s *a, __global %s *o, uint n) {\n",
               vec ? "v" : "k", s->name, d->name, s->name, d->name);
    sg_bi_emit(b, "  size_t j = get_global_id(0)%s;\n", vec ? " * 4" : "");
    for (int v = 0; v < nvariants(d); v++) {
      variant(d, v, fn, sizeof(fn), vec ? "4" : "");
      if (vec)
        sg_bi_emit(b, "  vstore4(%s(vload4(0, a + j)), 0, o + %d * n + j);\n", fn, v);
      else
        sg_bi_emit(b, "  o[%d * n + j] = %s(a[j]);\n", v, fn);
    }
    sg_bi_emit(b, "}\n");
  }
}

/* Integer results have no signed zero; floating-point ones must keep it. */
static int same(const struct cty *d, long double got, long double want) {
  if (isnan(want))
    return isnan(got);
  return got == want && (!d->fp || signbit(got) == signbit(want));
}

static void run_pair(struct sg_bi *b, cl_program p, const struct cty *s, const struct cty *d,
                     const long double *x, size_t n) {
  size_t ss = (size_t)s->bits / 8, ds = (size_t)d->bits / 8;
  int nv = nvariants(d);
  void *a = calloc(n, ss), *o = calloc(n * (size_t)nv, ds), *ov = calloc(n * (size_t)nv, ds);
  long double *xs = calloc(n, sizeof(long double));
  for (size_t i = 0; i < n; i++) {
    xs[i] = to_src(s, x[i]);
    put(s, a, i, xs[i]);
  }
  struct sg_bi_arg args[] = {{a, n * ss, 0}, {o, n * (size_t)nv * ds, 1}};
  cl_uint cn = (cl_uint)n;
  char name[64];
  snprintf(name, sizeof(name), "k_%s_%s", s->name, d->name);
  sg_bi_run(b, p, name, n, args, 2, &cn, sizeof(cn));
  args[1].host = ov;
  name[0] = 'v';
  sg_bi_run(b, p, name, n / VW, args, 2, &cn, sizeof(cn));
  for (int v = 0; v < nv; v++) {
    unsigned long fails = 0, checked = 0;
    char fn[64];
    variant(d, v, fn, sizeof(fn), "");
    for (size_t i = 0; i < n; i++) {
      long double want = 0, got = get(d, o, (size_t)v * n + i),
                  gotv = get(d, ov, (size_t)v * n + i);
      int defined = ref(s, d, xs[i], v >= NMODES, v % NMODES, &want);
      checked++;
      if ((defined ? !same(d, got, want) : 0) || !same(d, gotv, got)) {
        if (fails++ < SG_BI_MAX_REPORT)
          printf("  %s(%s %.21Lg): got %.21Lg (vector lane %.21Lg) expected %.21Lg\n", fn, s->name,
                 xs[i], got, gotv, want);
      }
    }
    sg_bi_verdict(b, fn, s->name, fails, checked, 0);
  }
  free(a), free(o), free(ov), free(xs);
}

int sg_bi_convert(struct sg_bi *b) {
  size_t nt = b->has_fp64 ? NTYPES : NTYPES - 1;
  long double *x = calloc(512 + NRAND, sizeof(long double));
  size_t n = edges(x);
  while (n % VW || n < 256 + NRAND) { /* random magnitudes across every range */
    uint64_t r = sg_bi_rand();
    long double m = ldexpl((long double)(r >> 11), -53 + (int)(sg_bi_rand() % 70) - 3);
    x[n++] = (r & 1) ? -m : (r & 2) ? truncl(m) + 0.5L : m;
  }
  for (size_t si = 0; si < nt; si++)
    for (size_t di = 0; di < nt; di++)
      emit_pair(b, &ctypes[si], &ctypes[di]);
  cl_program p = sg_bi_build(b, "");
  for (size_t si = 0; si < nt; si++)
    for (size_t di = 0; di < nt; di++)
      run_pair(b, p, &ctypes[si], &ctypes[di], x, n);
  clReleaseProgram(p);
  free(x);
  return 0;
}
