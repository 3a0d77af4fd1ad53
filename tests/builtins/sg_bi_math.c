/* SPDX-License-Identifier: MIT */
/* Built-in function conformance, math family (OpenCL C 1.2 s6.12.2, ULP
 * table s7.4, edge cases s7.5): every function for float and double, scalar
 * against a long double host reference within the spec's bound, vectors
 * lane by lane against the scalar results; a relaxed-math subset. */
#define _GNU_SOURCE
#include <float.h>
#include <limits.h>

#include "sg_bi.h"

/* Argument/result shapes: R = T, I = int, P = pointer to T, Q = pointer to int. */
enum sig { S_T, S_TT, S_TTT, S_TI, S_IT, S_TP, S_TQ, S_TTQ };
enum { ZS = 1 /* the sign of a zero result is free (fmin/fmax of zeros) */ };

/* id = the order of this table; bounds are the spec's ulp for float and
 * double (INFINITY: any value; only special values are checked). */
#define SG_MATH_FNS(X)                                                                             \
  X(acos, S_T, 4, 4, 0) X(acosh, S_T, 4, 4, 0) X(acospi, S_T, 5, 5, 0) X(asin, S_T, 4, 4, 0)      \
  X(asinh, S_T, 4, 4, 0) X(asinpi, S_T, 5, 5, 0) X(atan, S_T, 5, 5, 0) X(atan2, S_TT, 6, 6, 0)    \
  X(atanh, S_T, 5, 5, 0) X(atanpi, S_T, 5, 5, 0) X(atan2pi, S_TT, 6, 6, 0)                         \
  X(cbrt, S_T, 2, 2, 0) X(ceil, S_T, 0, 0, 0) X(copysign, S_TT, 0, 0, 0) X(cos, S_T, 4, 4, 0)     \
  X(cosh, S_T, 4, 4, 0) X(cospi, S_T, 4, 4, 0) X(erfc, S_T, 16, 16, 0) X(erf, S_T, 16, 16, 0)     \
  X(exp, S_T, 3, 3, 0) X(exp2, S_T, 3, 3, 0) X(exp10, S_T, 3, 3, 0) X(expm1, S_T, 3, 3, 0)        \
  X(fabs, S_T, 0, 0, 0) X(fdim, S_TT, 0, 0, 0) X(floor, S_T, 0, 0, 0) X(fma, S_TTT, 0, 0, 0)      \
  X(fmax, S_TT, 0, 0, ZS) X(fmin, S_TT, 0, 0, ZS) X(fmod, S_TT, 0, 0, 0) X(fract, S_TP, 0, 0, 0)  \
  X(frexp, S_TQ, 0, 0, 0) X(hypot, S_TT, 4, 4, 0) X(ilogb, S_IT, 0, 0, 0)                          \
  X(ldexp, S_TI, 0, 0, 0) X(lgamma, S_T, INFINITY, INFINITY, 0)                                    \
  X(lgamma_r, S_TQ, INFINITY, INFINITY, 0) X(log, S_T, 3, 3, 0) X(log2, S_T, 3, 3, 0)             \
  X(log10, S_T, 3, 3, 0) X(log1p, S_T, 2, 2, 0) X(logb, S_T, 0, 0, 0)                              \
  X(mad, S_TTT, INFINITY, INFINITY, 0) X(maxmag, S_TT, 0, 0, ZS) X(minmag, S_TT, 0, 0, ZS)         \
  X(modf, S_TP, 0, 0, 0) X(nextafter, S_TT, 0, 0, 0) X(pow, S_TT, 16, 16, 0)                       \
  X(pown, S_TI, 16, 16, 0) X(powr, S_TT, 16, 16, 0) X(remainder, S_TT, 0, 0, 0)                    \
  X(remquo, S_TTQ, 0, 0, 0) X(rint, S_T, 0, 0, 0) X(rootn, S_TI, 16, 16, 0)                        \
  X(round, S_T, 0, 0, 0) X(rsqrt, S_T, 2, 2, 0) X(sin, S_T, 4, 4, 0) X(sincos, S_TP, 4, 4, 0)     \
  X(sinh, S_T, 4, 4, 0) X(sinpi, S_T, 4, 4, 0) X(sqrt, S_T, 3, 0, 0) X(tan, S_T, 5, 5, 0)         \
  X(tanh, S_T, 5, 5, 0) X(tanpi, S_T, 6, 6, 0) X(tgamma, S_T, 16, 16, 0) X(trunc, S_T, 0, 0, 0)   \
  X(sg_divide, S_TT, 2.5, 0, 0)

enum fn_id {
#define X(name, sig, uf, ud, fl) F_##name,
  SG_MATH_FNS(X)
#undef X
      F_COUNT
};
struct fn {
  const char *name;
  enum sig sig;
  double ulp[2]; /* float, double */
  int flags;
};
static const struct fn fns[] = {
#define X(name, sig, uf, ud, fl) {#name, sig, {uf, ud}, fl},
    SG_MATH_FNS(X)
#undef X
};

/* ---- The element types ------------------------------------------------ */
struct fty {
  const char *name;
  int dbl, mant, emin; /* mantissa bits, smallest normal exponent */
  long double max, min, dmin;
};
static const struct fty types[2] = {
    {"float", 0, 24, -126, FLT_MAX, FLT_MIN, FLT_TRUE_MIN},
    {"double", 1, 53, -1022, DBL_MAX, DBL_MIN, DBL_TRUE_MIN},
};

static long double to_t(const struct fty *t, long double x) {
  return t->dbl ? (long double)(double)x : (long double)(float)x;
}

/* |got - ref| in ulps of the reference's binade (OpenCL s7.4 definition). */
static long double ulp_err(const struct fty *t, long double got, long double ref) {
  int e;
  long double a = fabsl(ref) > t->max ? t->max : fabsl(ref);
  frexpl(a, &e); /* a in [2^(e-1), 2^e) */
  if (e - 1 < t->emin)
    e = t->emin + 1;
  return fabsl(got - ref) / ldexpl(1, e - t->mant);
}

/* Error in ulps of got against the unrounded reference; INFINITY when the
 * value or class (NaN, infinity, sign of zero) is wrong. */
static long double value_err(const struct fty *t, long double got, long double ref, int zsign_free) {
  long double rr = to_t(t, ref);
  if (isnan(ref) || isnan(got))
    return isnan(ref) && isnan(got) ? 0 : INFINITY;
  if (got == rr)
    return got == 0 && ref == 0 && !zsign_free && signbit(got) != signbit(ref) ? INFINITY : 0;
  if (isinf(got))
    return INFINITY;
  if (isinf(ref))
    return INFINITY;
  return ulp_err(t, got, ref);
}

/* ---- Host references ---------------------------------------------------- */
static long double sinpi_ref(long double x) {
  if (!isfinite(x))
    return NAN;
  if (x == truncl(x)) /* s7.5: sinpi(+n) = +0, sinpi(-n) = -0 */
    return copysignl(0, x);
  long double r = remainderl(x, 2); /* exact, in [-1, 1] */
  if (r > 0.5L)
    r = 1 - r;
  else if (r < -0.5L)
    r = -1 - r;
  return sinl(M_PIl * r);
}

static long double cospi_ref(long double x) {
  if (!isfinite(x))
    return NAN;
  long double r = fabsl(remainderl(x, 2)); /* [0, 1] */
  return r == 0.5L ? 0 : sinl(M_PIl * (0.5L - r));
}

/* s7.5: tanpi(+-n) = +-0 for even n, -+0 for odd n; tanpi(n + 0.5) is +inf
 * for even n and -inf for odd n. */
static long double tanpi_ref(long double x) {
  if (!isfinite(x))
    return NAN;
  if (x == truncl(x))
    return fmodl(x, 2) == 0 ? copysignl(0, x) : -copysignl(0, x);
  long double f = floorl(x);
  if (x - f == 0.5L)
    return fmodl(f, 2) == 0 ? INFINITY : -INFINITY;
  return sinpi_ref(x) / cospi_ref(x);
}

/* s7.5 powr: pow restricted to x >= 0 with its own special cases. */
static long double powr_ref(long double x, long double y) {
  if (isnan(x) || isnan(y) || x < 0)
    return NAN;
  if (x == 0)
    return y == 0 ? NAN : y < 0 ? INFINITY : 0;
  if (isinf(x) && y == 0)
    return NAN;
  if (x == 1)
    return isinf(y) ? NAN : 1;
  return powl(x, y);
}

static long double rootn_ref(long double x, int n) {
  if (n == 0 || isnan(x) || (x < 0 && n % 2 == 0))
    return NAN;
  long double r = powl(fabsl(x), 1.0L / n);
  return n % 2 ? copysignl(r, x) : r;
}

/* s6.15.2 remquo: the remainder, and the 7 low bits of the integral
 * quotient (glibc's remquo keeps the 3 C99 asks for). fmodl is exact, and
 * reducing |x| modulo 128|y| keeps the quotient modulo 128; what is left
 * of it is below 129, exact in long double. */
static long double remquo_ref(long double x, long double y, int *q) {
  long double r = remainderl(x, y);
  *q = 0;
  if (isnan(r) || isinf(x) || y == 0)
    return r;
  long double ax = fmodl(fabsl(x), 128 * fabsl(y)), ra = signbit(x) ? -r : r;
  int k = (int)rintl((ax - ra) / fabsl(y)) & 127;
  *q = !signbit(x) != !signbit(y) ? -k : k;
  return r;
}

static long double mag_ref(long double x, long double y, int max) {
  long double ax = fabsl(x), ay = fabsl(y);
  if (ax != ay && !isnan(x) && !isnan(y))
    return (ax > ay) == max ? x : y;
  return max ? fmaxl(x, y) : fminl(x, y);
}

/* One value of function id in type t; r2/ri receive pointer results. */
static long double ref(const struct fty *t, enum fn_id id, long double x, long double y,
                       long double z, int n, long double *r2, int *ri) {
  int d = t->dbl;
  switch (id) {
  case F_acos: return acosl(x);
  case F_acosh: return acoshl(x);
  case F_acospi: return acosl(x) / M_PIl;
  case F_asin: return asinl(x);
  case F_asinh: return asinhl(x);
  case F_asinpi: return asinl(x) / M_PIl;
  case F_atan: return atanl(x);
  case F_atan2: return atan2l(x, y);
  case F_atanh: return atanhl(x);
  case F_atanpi: return atanl(x) / M_PIl;
  case F_atan2pi: return atan2l(x, y) / M_PIl;
  case F_cbrt: return cbrtl(x);
  case F_ceil: return ceill(x);
  case F_copysign: return copysignl(x, y);
  case F_cos: return cosl(x);
  case F_cosh: return coshl(x);
  case F_cospi: return cospi_ref(x);
  case F_erfc: return erfcl(x);
  case F_erf: return erfl(x);
  case F_exp: return expl(x);
  case F_exp2: return exp2l(x);
  case F_exp10: return exp10l(x);
  case F_expm1: return expm1l(x);
  case F_fabs: return fabsl(x);
  case F_fdim: return d ? fdim((double)x, (double)y) : fdimf((float)x, (float)y);
  case F_floor: return floorl(x);
  case F_fma: return d ? fma((double)x, (double)y, (double)z) : fmaf((float)x, (float)y, (float)z);
  case F_fmax: return fmaxl(x, y);
  case F_fmin: return fminl(x, y);
  case F_fmod: return fmodl(x, y);
  case F_fract: {
    long double f = floorl(x);
    *r2 = f;
    if (isnan(x))
      return x;
    if (isinf(x))
      return copysignl(0, x);
    if (x == 0)
      return x;
    long double fr = d ? (double)x - (double)f : (float)((float)x - (float)f);
    return fminl(fr, d ? 0x1.fffffffffffffp-1 : 0x1.fffffep-1f);
  }
  case F_frexp: return frexpl(x, ri);
  case F_hypot: return hypotl(x, y);
  case F_ilogb: *ri = isnan(x) || isinf(x) ? INT_MAX : x == 0 ? INT_MIN : ilogbl(x); return 0;
  case F_ldexp: return d ? ldexp((double)x, n) : ldexpf((float)x, n);
  case F_lgamma: return lgammal(x);
  case F_lgamma_r: return lgammal_r(x, ri);
  case F_log: return logl(x);
  case F_log2: return log2l(x);
  case F_log10: return log10l(x);
  case F_log1p: return log1pl(x);
  case F_logb: return logbl(x);
  case F_mad: return d ? fma((double)x, (double)y, (double)z) : fmaf((float)x, (float)y, (float)z);
  case F_maxmag: return mag_ref(x, y, 1);
  case F_minmag: return mag_ref(x, y, 0);
  case F_modf: return modfl(x, r2);
  case F_nextafter: return d ? nextafter((double)x, (double)y) : nextafterf((float)x, (float)y);
  case F_pow: return powl(x, y);
  case F_pown: return powl(x, n);
  case F_powr: return powr_ref(x, y);
  case F_remainder: return remainderl(x, y);
  case F_remquo: return remquo_ref(x, y, ri);
  case F_rint: return rintl(x);
  case F_rootn: return rootn_ref(x, n);
  case F_round: return roundl(x);
  case F_rsqrt: return 1 / sqrtl(x);
  case F_sin: return sinl(x);
  case F_sincos: *r2 = cosl(x); return sinl(x);
  case F_sinh: return sinhl(x);
  case F_sinpi: return sinpi_ref(x);
  case F_sqrt: return d ? sqrt((double)x) : sqrtl(x);
  case F_tan: return tanl(x);
  case F_tanh: return tanhl(x);
  case F_tanpi: return tanpi_ref(x);
  case F_tgamma: return tgammal(x);
  case F_trunc: return truncl(x);
  case F_sg_divide: return d ? (double)x / (double)y : x / y;
  case F_COUNT: break;
  }
  return NAN;
}

/* ---- Inputs ------------------------------------------------------------- */
static long double edge(const struct fty *t, size_t i) {
  const long double e[] = {0,      -0.0L, t->dmin, -t->dmin, t->min - t->dmin, t->min, -t->min,
                           t->max, -t->max, INFINITY, -INFINITY, NAN, 1, -1, 0.5L, -0.5L,
                           0.5L - t->dmin * 0, 2, -2, 1.5L, -1.5L, 2.5L, -2.5L, 3, -3, 0.25L,
                           10, -10, 100.5L, 1e30L, -1e30L, 1e10L, M_PIl, M_PIl / 2, 1e-30L, 0.1L,
                           1e-5L, 88.5L, -103, 710, 0.75L, -0.75L};
  long double v = e[i % (sizeof(e) / sizeof(e[0]))];
  if (i == 16) /* just below and above one half */
    v = t->dbl ? 0x1.fffffffffffffp-2 : 0x1.fffffep-2f;
  else if (i == 17)
    v = t->dbl ? 0x1.0000000000001p-1 : 0x1.000002p-1f;
  return to_t(t, v);
}
enum { NEDGE = 42, NEDGE3 = 12, NRAND = 4096 };

/* Mixed magnitudes: a third near zero..ten, the rest over the whole
 * exponent range, and every fourth an integer or half-integer. */
static long double random_val(const struct fty *t) {
  uint64_t r = sg_bi_rand();
  long double sign = (r & 1) ? -1 : 1;
  long double m = 1 + (long double)(r >> 11) / 0x1p53L;
  int span = t->dbl ? 1100 : 150;
  long double v;
  switch ((r >> 2) % 4) {
  case 0: v = m * ldexpl(1, (int)((r >> 5) % 8) - 4); break;
  case 1: v = floorl(m * 64) / ((r >> 8) & 1 ? 1 : 2); break;
  default: v = ldexpl(m, (int)((r >> 4) % (unsigned)span) - span / 2 - (t->dbl ? 0 : 10));
  }
  return to_t(t, sign * v);
}

static int random_int(int wide) {
  uint64_t r = sg_bi_rand();
  return wide ? (int)(r % 601) - 300 : (int)(r % 41) - 20;
}

static const int edge_ints[] = {0, 1, -1, 2, -2, 3, -3, 4, 5, -5, 7, 10, -10, 100,
                                -100, 128, -150, 1000, -1100, INT_MAX, INT_MIN};

struct inputs {
  size_t n;
  long double *x, *y, *z;
  int *k;
};

static void fill_inputs(const struct fty *t, enum sig sig, int wide_int, struct inputs *in) {
  size_t ne = sizeof(edge_ints) / sizeof(edge_ints[0]), n = 0, cap = NEDGE * NEDGE + NRAND + 64;
  in->x = calloc(cap, sizeof(long double));
  in->y = calloc(cap, sizeof(long double));
  in->z = calloc(cap, sizeof(long double));
  in->k = calloc(cap, sizeof(int));
  if (sig == S_TT || sig == S_TTQ) {
    for (size_t i = 0; i < NEDGE; i++)
      for (size_t j = 0; j < NEDGE; j++, n++)
        in->x[n] = edge(t, i), in->y[n] = edge(t, j);
  } else if (sig == S_TTT) {
    for (size_t i = 0; i < NEDGE3 * NEDGE3 * NEDGE3; i++, n++)
      in->x[n] = edge(t, i % NEDGE3), in->y[n] = edge(t, i / NEDGE3 % NEDGE3),
      in->z[n] = edge(t, i / NEDGE3 / NEDGE3);
  } else if (sig == S_TI) {
    for (size_t i = 0; i < NEDGE; i++)
      for (size_t j = 0; j < ne; j++, n++)
        in->x[n] = edge(t, i), in->k[n] = edge_ints[j];
  } else {
    for (; n < NEDGE; n++)
      in->x[n] = edge(t, n);
  }
  for (size_t i = 0; i < NRAND; i++, n++) {
    in->x[n] = random_val(t);
    in->y[n] = random_val(t);
    in->z[n] = random_val(t);
    in->k[n] = random_int(wide_int);
  }
  while (n % 16) { /* whole width-16 groups for the vector kernel */
    in->x[n] = in->x[n - 1], in->y[n] = in->y[n - 1], in->z[n] = in->z[n - 1];
    in->k[n] = in->k[n - 1];
    n++;
  }
  in->n = n;
}

static void free_inputs(struct inputs *in) {
  free(in->x);
  free(in->y);
  free(in->z);
  free(in->k);
}

/* ---- Kernel text -------------------------------------------------------- */
/* The call for width suffix W ("" for scalars) with loads L(p). */
static void emit_call(struct sg_bi *b, const struct fn *f, const char *T, const char *W, int vec) {
  char a[64], bb[64], c[64], k[64];
  if (vec) {
    snprintf(a, sizeof(a), "vload%s(0, a + j)", W);
    snprintf(bb, sizeof(bb), "vload%s(0, b + j)", W);
    snprintf(c, sizeof(c), "vload%s(0, c + j)", W);
    snprintf(k, sizeof(k), "vload%s(0, k + j)", W);
  } else {
    snprintf(a, sizeof(a), "a[j]");
    snprintf(bb, sizeof(bb), "b[j]");
    snprintf(c, sizeof(c), "c[j]");
    snprintf(k, sizeof(k), "k[j]");
  }
  const char *fn = f->name;
  switch (f->sig) {
  case S_T: sg_bi_emit(b, "  { %s%s r = %s(%s);", T, W, fn, a); break;
  case S_TT: sg_bi_emit(b, "  { %s%s r = %s(%s, %s);", T, W, fn, a, bb); break;
  case S_TTT: sg_bi_emit(b, "  { %s%s r = %s(%s, %s, %s);", T, W, fn, a, bb, c); break;
  case S_TI: sg_bi_emit(b, "  { %s%s r = %s(%s, %s);", T, W, fn, a, k); break;
  case S_IT: sg_bi_emit(b, "  { int%s q = %s(%s);", W, fn, a); break;
  case S_TP: sg_bi_emit(b, "  { %s%s p; %s%s r = %s(%s, &p);", T, W, T, W, fn, a); break;
  case S_TQ: sg_bi_emit(b, "  { int%s q; %s%s r = %s(%s, &q);", W, T, W, fn, a); break;
  case S_TTQ: sg_bi_emit(b, "  { int%s q; %s%s r = %s(%s, %s, &q);", W, T, W, fn, a, bb); break;
  }
}

/* Stores of r, p, q into region `slot` (0: scalar results, 1..5: widths). */
static void emit_stores(struct sg_bi *b, enum sig sig, const char *W, int vec, int slot) {
  const char *fmt = vec ? " vstore%s(%s, 0, %s + %d * n + j);" : " %.0s%s[%d * n + j] = %s;";
  const char *out[3] = {"o", "o2", "oi"}, *val[3] = {"r", "p", "q"};
  int has[3] = {sig != S_IT, sig == S_TP, sig == S_IT || sig == S_TQ || sig == S_TTQ};
  for (int i = 0; i < 3; i++) {
    if (!has[i])
      continue;
    if (vec)
      sg_bi_emit(b, fmt, W, val[i], out[i], slot);
    else
      sg_bi_emit(b, " %s[%d * n + j] = %s;", out[i], slot, val[i]);
  }
  sg_bi_emit(b, " }\n");
}

static const char *const widths[] = {"2", "3", "4", "8", "16"};

/* k_<fn>_<T>: scalar results for every input; v_<fn>_<T>: one group of 16
 * inputs per work-item through every vector width. */
static void emit_kernels(struct sg_bi *b, const struct fn *f, const char *T, const char *pfx,
                         int vectors) {
  const char *args = "(__global const %s *a, __global const %s *b, __global const %s *c, "
                     "__global const int *k, __global %s *o, __global %s *o2, __global int *oi, "
                     "uint n)";
  sg_bi_emit(b, "__kernel void %sk_%s_%s", pfx, f->name, T);
  sg_bi_emit(b, args, T, T, T, T, T);
  sg_bi_emit(b, " {\n  size_t j = get_global_id(0);\n");
  emit_call(b, f, T, "", 0);
  emit_stores(b, f->sig, "", 0, 0);
  sg_bi_emit(b, "}\n");
  if (!vectors)
    return;
  sg_bi_emit(b, "__kernel void v_%s_%s", f->name, T);
  sg_bi_emit(b, args, T, T, T, T, T);
  sg_bi_emit(b, " {\n  size_t j = get_global_id(0) * 16;\n");
  for (int w = 0; w < 5; w++) {
    emit_call(b, f, T, widths[w], 1);
    emit_stores(b, f->sig, widths[w], 1, w + 1);
  }
  sg_bi_emit(b, "}\n");
}

/* x / y is in the ULP table too: sg_divide gives it a function's shape. */
static const char prelude[] =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define SG_DIV(T) T __attribute__((overloadable)) sg_divide(T x, T y) { return x / y; }\n"
    "#define SG_DIVS(T) SG_DIV(T) SG_DIV(T##2) SG_DIV(T##3) SG_DIV(T##4) SG_DIV(T##8) "
    "SG_DIV(T##16)\n"
    "SG_DIVS(float)\n";
static const char prelude_fp64[] = "SG_DIVS(double)\n";

/* ---- Running and checking ----------------------------------------------- */
struct results {
  size_t n;
  void *a, *b, *c, *o, *o2;
  int *k, *oi;
};

static void *to_buffer(const struct fty *t, const long double *v, size_t n, size_t copies) {
  size_t sz = t->dbl ? 8 : 4;
  unsigned char *p = calloc(n * copies, sz);
  for (size_t i = 0; i < n; i++) {
    if (t->dbl)
      ((double *)p)[i] = (double)v[i];
    else
      ((float *)p)[i] = (float)v[i];
  }
  return p;
}

static long double elem(const struct fty *t, const void *p, size_t i) {
  return t->dbl ? ((const double *)p)[i] : ((const float *)p)[i];
}

static void run_fn(struct sg_bi *b, cl_program p, const char *pfx, const struct fty *t,
                   const struct fn *f, const struct inputs *in, struct results *r, int vectors) {
  size_t sz = t->dbl ? 8 : 4, n = in->n;
  r->n = n;
  r->a = to_buffer(t, in->x, n, 1);
  r->b = to_buffer(t, in->y, n, 1);
  r->c = to_buffer(t, in->z, n, 1);
  r->k = in->k;
  r->o = calloc(6 * n, sz);
  r->o2 = calloc(6 * n, sz);
  r->oi = calloc(6 * n, sizeof(int));
  cl_uint nn = (cl_uint)n;
  char name[128];
  struct sg_bi_arg args[] = {
      {r->a, n * sz, 0},          {r->b, n * sz, 0},          {r->c, n * sz, 0},
      {r->k, n * sizeof(int), 0}, {r->o, 6 * n * sz, 1},      {r->o2, 6 * n * sz, 1},
      {r->oi, 6 * n * sizeof(int), 1},
  };
  snprintf(name, sizeof(name), "%sk_%s_%s", pfx, f->name, t->name);
  sg_bi_run(b, p, name, n, args, 7, &nn, sizeof(nn));
  if (vectors) {
    snprintf(name, sizeof(name), "v_%s_%s", f->name, t->name);
    sg_bi_run(b, p, name, n / 16, args, 7, &nn, sizeof(nn));
  }
}

static void free_results(struct results *r) {
  free(r->a);
  free(r->b);
  free(r->c);
  free(r->o);
  free(r->o2);
  free(r->oi);
}

static void print_inputs(const struct fn *f, const struct inputs *in, size_t i) {
  printf("  %s(%La", f->name, in->x[i]);
  if (f->sig == S_TT || f->sig == S_TTT || f->sig == S_TTQ)
    printf(", %La", in->y[i]);
  if (f->sig == S_TTT)
    printf(", %La", in->z[i]);
  if (f->sig == S_TI)
    printf(", %d", in->k[i]);
  printf(")");
}

/* Checks scalar result i; returns its error (INFINITY: wrong). */
static long double check_one(const struct fty *t, const struct fn *f, const struct inputs *in,
                             const struct results *r, size_t i, char *why, size_t whylen) {
  long double r2 = 0, got = elem(t, r->o, i), got2 = elem(t, r->o2, i);
  int ri = 0, gi = r->oi[i];
  long double x = in->x[i], y = in->y[i], z = in->z[i];
  long double want = ref(t, (enum fn_id)(f - fns), x, y, z, in->k[i], &r2, &ri);
  double bound = f->ulp[t->dbl];
  long double err = 0;
  enum fn_id id = (enum fn_id)(f - fns);
  why[0] = 0;
  if (id == F_mad) { /* any value allowed: accept fma or the two roundings */
    long double sep = t->dbl ? (long double)((double)x * (double)y + (double)z)
                             : (long double)((float)x * (float)y + (float)z);
    err = fminl(value_err(t, got, want, 0), value_err(t, got, sep, 0));
    err = isinf(err) && !isnan(got) && isfinite(got) && isfinite(want) ? 0 : err;
    snprintf(why, whylen, "got %La expected %La", got, want);
    return err;
  }
  if (f->sig != S_IT) {
    err = value_err(t, got, want, f->flags & ZS);
    if (isinf(bound) && isfinite(want) && isfinite(got))
      err = 0; /* lgamma: no bound in the spec, classes only */
    snprintf(why, whylen, "got %La expected %La (ref %La)", got, to_t(t, want), want);
    if (err > bound)
      return err;
  }
  switch (id) {
  case F_fract:
  case F_modf:
    if (value_err(t, got2, r2, 0) != 0) {
      snprintf(why, whylen, "iptr got %La expected %La", got2, r2);
      return INFINITY;
    }
    break;
  case F_sincos:
    if (value_err(t, got2, r2, 0) > bound) {
      snprintf(why, whylen, "cos got %La expected %La", got2, r2);
      return INFINITY;
    }
    break;
  case F_frexp:
  case F_ilogb:
    if ((id == F_ilogb || isfinite(x)) && gi != ri) {
      snprintf(why, whylen, "int result got %d expected %d", gi, ri);
      return INFINITY;
    }
    break;
  case F_lgamma_r: /* the sign of gamma(x), where it is defined */
    if (isfinite(x) && !(x <= 0 && x == floorl(x)) && gi != ri) {
      snprintf(why, whylen, "sign got %d expected %d", gi, ri);
      return INFINITY;
    }
    break;
  case F_remquo: /* the 7 low bits of the quotient, with its sign (OpenCL C 6.15.2) */
    if (!isnan(want) &&
        ((abs(gi) & 127) != (abs(ri) & 127) || ((ri & 127) && (gi < 0) != (ri < 0)))) {
      snprintf(why, whylen, "quotient got %d expected %d", gi, ri);
      return INFINITY;
    }
    break;
  default: break;
  }
  return err;
}

/* Vector lane l of width slot s equals the scalar result. */
static int same_bits(const struct fty *t, const void *p, size_t i, size_t j) {
  long double a = elem(t, p, i), c = elem(t, p, j);
  return (isnan(a) && isnan(c)) || (a == c && signbit(a) == signbit(c));
}

static unsigned long check_vectors(const struct fty *t, const struct fn *f, const struct results *r) {
  static const int wn[] = {2, 3, 4, 8, 16};
  unsigned long fails = 0;
  for (int s = 0; s < 5; s++) {
    for (size_t g = 0; g < r->n; g += 16) {
      for (int l = 0; l < wn[s]; l++) {
        size_t i = g + (size_t)l, v = (size_t)(s + 1) * r->n + i;
        int ok = (f->sig == S_IT || same_bits(t, r->o, i, v)) &&
                 (f->sig != S_TP || same_bits(t, r->o2, i, v)) &&
                 (!(f->sig == S_IT || f->sig == S_TQ || f->sig == S_TTQ) || r->oi[i] == r->oi[v]);
        if (!ok && fails++ < SG_BI_MAX_REPORT)
          printf("  %s(%s%d) lane %d of input %zu: got %La expected %La (the scalar result)\n",
                 f->name, t->name, wn[s], l, i, elem(t, r->o, v), elem(t, r->o, i));
      }
    }
  }
  return fails;
}

static void check_fn(struct sg_bi *b, const struct fty *t, const struct fn *f,
                     const struct inputs *in, const struct results *r, int vectors) {
  unsigned long fails = 0;
  long double max_err = 0;
  char why[256];
  for (size_t i = 0; i < in->n; i++) {
    long double err = check_one(t, f, in, r, i, why, sizeof(why));
    if (err > f->ulp[t->dbl] || isnan(err)) {
      if (fails++ < SG_BI_MAX_REPORT) {
        print_inputs(f, in, i);
        printf(" %s: %s, error %Lg ulp > %g\n", t->name, why, err, f->ulp[t->dbl]);
      }
    } else if (err > max_err && isfinite(err)) {
      max_err = err;
    }
  }
  if (vectors)
    fails += check_vectors(t, f, r);
  sg_bi_verdict(b, f->name, t->name, fails, (unsigned long)in->n, (double)max_err);
}

/* ---- Relaxed math (s7.4, -cl-fast-relaxed-math): a float subset ---------- */
struct relaxed {
  enum fn_id id;
  long double lo, hi; /* input range the bound applies to */
};
static const struct relaxed relaxed_fns[] = {
    {F_sin, -M_PIl, M_PIl}, {F_cos, -M_PIl, M_PIl}, {F_exp, -80, 80},
    {F_log, 1e-30L, 1e30L}, {F_sqrt, 0, 1e30L},     {F_sg_divide, -1e18L, 1e18L},
};

static long double relaxed_err(enum fn_id id, long double x, long double got, long double want) {
  const struct fty *t = &types[0];
  switch (id) {
  case F_sin:
  case F_cos: return fabsl(got - want) / 0x1p-11L; /* absolute 2^-11 */
  case F_exp: return ulp_err(t, got, want) / (3 + floorl(fabsl(2 * x)));
  case F_log:
    return x >= 0.5L && x <= 2 ? fabsl(got - want) / 0x1p-21L : ulp_err(t, got, want) / 3;
  case F_sqrt: return ulp_err(t, got, want) / 3;
  default: return ulp_err(t, got, want) / 2.5L;
  }
}

static void run_relaxed(struct sg_bi *b) {
  size_t nr = sizeof(relaxed_fns) / sizeof(relaxed_fns[0]);
  sg_bi_emit(b, "%s", prelude);
  for (size_t i = 0; i < nr; i++)
    emit_kernels(b, &fns[relaxed_fns[i].id], "float", "relaxed_", 0);
  cl_program p = sg_bi_build(b, "-cl-fast-relaxed-math");
  const struct fty *t = &types[0];
  for (size_t i = 0; i < nr; i++) {
    const struct fn *f = &fns[relaxed_fns[i].id];
    struct inputs in;
    struct results r;
    fill_inputs(t, f->sig, 0, &in);
    for (size_t j = 0; j < in.n; j++) { /* keep the inputs in range */
      const struct relaxed *rx = &relaxed_fns[i];
      if (!(in.x[j] >= rx->lo && in.x[j] <= rx->hi))
        in.x[j] = to_t(t, rx->lo + (rx->hi - rx->lo) * (long double)(j % 997) / 997);
      if (f->sig == S_TT && !(fabsl(in.y[j]) >= 0x1p-62L && fabsl(in.y[j]) <= 0x1p62L))
        in.y[j] = 1.5L;
    }
    run_fn(b, p, "relaxed_", t, f, &in, &r, 0);
    unsigned long fails = 0;
    long double max_err = 0;
    for (size_t j = 0; j < in.n; j++) {
      long double r2;
      int ri;
      long double got = elem(t, r.o, j), want = ref(t, f - fns, in.x[j], in.y[j], 0, 0, &r2, &ri);
      long double e = relaxed_err(f - fns, in.x[j], got, want);
      if (!(e <= 1) && fails++ < SG_BI_MAX_REPORT) {
        print_inputs(f, &in, j);
        printf(" relaxed float: got %La expected %La, %Lg times the relaxed bound\n", got, want, e);
      }
      if (e <= 1 && e > max_err)
        max_err = e;
    }
    char name[64];
    snprintf(name, sizeof(name), "%s (relaxed)", f->name);
    sg_bi_verdict(b, name, "float", fails, (unsigned long)in.n, (double)max_err);
    free_results(&r);
    free_inputs(&in);
  }
  clReleaseProgram(p);
}

int sg_bi_math(struct sg_bi *b) {
  int ntypes = b->has_fp64 ? 2 : 1;
  sg_bi_emit(b, "%s%s", prelude, b->has_fp64 ? prelude_fp64 : "");
  for (int ti = 0; ti < ntypes; ti++)
    for (size_t i = 0; i < F_COUNT; i++)
      emit_kernels(b, &fns[i], types[ti].name, "", 1);
  cl_program p = sg_bi_build(b, "");
  for (int ti = 0; ti < ntypes; ti++) {
    for (size_t i = 0; i < F_COUNT; i++) {
      struct inputs in;
      struct results r;
      fill_inputs(&types[ti], fns[i].sig, i == F_ldexp, &in);
      run_fn(b, p, "", &types[ti], &fns[i], &in, &r, 1);
      check_fn(b, &types[ti], &fns[i], &in, &r, 1);
      free_results(&r);
      free_inputs(&in);
    }
  }
  clReleaseProgram(p);
  run_relaxed(b);
  return 0;
}
