/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), FP semantics of the F and D extensions
 * that the host FPU does not give in its default mode: directed rounding with
 * exact per-lane flags, round-to-nearest-max-magnitude, fmin/fmax, compares,
 * fclass and saturating conversions to integers. */
#define _GNU_SOURCE
#include "sg_fp.h"

#include <fenv.h>
#include <math.h>

#define EVAL(NAME, T, SQRT, FMA)                                                          \
  __attribute__((noinline)) static T NAME(unsigned op, T a, T b, T c, long double src) { \
    switch (op) {                                                                         \
    case SG_FOP_ADD: return a + b;                                                        \
    case SG_FOP_SUB: return a - b;                                                        \
    case SG_FOP_MUL: return a * b;                                                        \
    case SG_FOP_DIV: return a / b;                                                        \
    case SG_FOP_SQRT: return SQRT(a);                                                     \
    case SG_FOP_FMA: return FMA(a, b, c);                                                 \
    default: return (T)src;                                                               \
    }                                                                                     \
  }
EVAL(eval32, float, sqrtf, fmaf)
EVAL(eval64, double, sqrt, fma)
EVAL(evalx, long double, sqrtl, fmal)

static unsigned rv_flags(int ex) {
  return (ex & FE_INVALID ? SG_FF_NV : 0) | (ex & FE_DIVBYZERO ? SG_FF_DZ : 0) |
         (ex & FE_OVERFLOW ? SG_FF_OF : 0) | (ex & FE_UNDERFLOW ? SG_FF_UF : 0) |
         (ex & FE_INEXACT ? SG_FF_NX : 0);
}

static int host_rm(unsigned rm) {
  switch (rm) {
  case SG_RTZ: return FE_TOWARDZERO;
  case SG_RDN: return FE_DOWNWARD;
  case SG_RUP: return FE_UPWARD;
  default: return FE_TONEAREST; /* RNE, and the first step of RMM */
  }
}

/* RMM differs from RNE only on an exact tie that RNE broke toward zero, so
 * then r equals the truncated result t. The exact value is known when the
 * wider long double evaluation is exact; a tie needs only one bit more than
 * T, so an inexact wide result is never a tie. */
#define SLOW(NAME, T, EVALT, NEXT)                                                         \
  T NAME(unsigned op, unsigned rm, T a, T b, T c, long double src, unsigned *flags) {     \
    fesetround(host_rm(rm));                                                               \
    feclearexcept(FE_ALL_EXCEPT);                                                          \
    T r = EVALT(op, a, b, c, src);                                                         \
    int ex = fetestexcept(FE_ALL_EXCEPT);                                                  \
    if (rm == SG_RMM && (ex & FE_INEXACT)) {                                               \
      fesetround(FE_TOWARDZERO);                                                           \
      T t = EVALT(op, a, b, c, src);                                                       \
      feclearexcept(FE_INEXACT);                                                           \
      long double x = evalx(op, a, b, c, src);                                             \
      if (t == r && !fetestexcept(FE_INEXACT)) {                                           \
        T away = NEXT(t, signbit(t) ? -INFINITY : INFINITY);                               \
        long double gap = isinf(away) ? (long double)t - NEXT(t, 0) : (long double)away - t; \
        if (fabsl(x - t) * 2 == fabsl(gap))                                                \
          r = away;                                                                        \
      }                                                                                    \
    }                                                                                      \
    fesetround(FE_TONEAREST);                                                              \
    *flags |= rv_flags(ex);                                                                \
    return r;                                                                              \
  }
SLOW(sg_fp_slow32, float, eval32, nextafterf)
SLOW(sg_fp_slow64, double, eval64, nextafter)

/* IEEE 754-2019 minimumNumber/maximumNumber: a NaN loses to a number, two
 * NaNs give the canonical NaN, -0 < +0; signalling NaNs raise NV. */
#define MINMAX(NAME, T, GET, PUT, SNAN, CANON)                       \
  uint64_t NAME(uint64_t x, uint64_t y, bool max, unsigned *flags) { \
    T a = GET(x), b = GET(y);                                        \
    if (SNAN(x) || SNAN(y))                                          \
      *flags |= SG_FF_NV;                                            \
    if (isnan(a) && isnan(b))                                        \
      return CANON;                                                  \
    if (isnan(a) || isnan(b))                                        \
      return PUT(isnan(a) ? b : a);                                  \
    if (a == b)                                                      \
      return PUT((signbit(a) != 0) == max ? b : a);                  \
    return PUT((a < b) != max ? a : b);                              \
  }
MINMAX(sg_fminmax32, float, sg_f32, sg_box32, sg_snan32, SG_CANON32)
MINMAX(sg_fminmax64, double, sg_f64, sg_bits64, sg_snan64, SG_CANON64)

uint64_t sg_fcmp(double a, double b, bool snan, unsigned cmp, unsigned *flags) {
  if (isnan(a) || isnan(b)) {
    if (snan || cmp != 0)
      *flags |= SG_FF_NV;
    return 0;
  }
  return cmp == 0 ? a == b : cmp == 1 ? a < b : a <= b;
}

/* fclass bits: 0 -inf, 1 -normal, 2 -subnormal, 3 -0, 4 +0, 5 +subnormal,
 * 6 +normal, 7 +inf, 8 sNaN, 9 qNaN. */
static uint64_t fclass(bool neg, bool inf, bool nan, bool snan, bool zero, bool sub) {
  if (nan)
    return snan ? 1u << 8 : 1u << 9;
  unsigned k = inf ? 0 : zero ? 3 : sub ? 2 : 1;
  return 1u << (neg ? k : 7 - k);
}

uint64_t sg_fclass32(uint64_t v) {
  uint32_t b = sg_unbox(v), e = b >> 23 & 0xff, m = b & 0x7fffff;
  return fclass(b >> 31, e == 0xff && !m, e == 0xff && m, sg_snan32(v), !e && !m, !e && m);
}

uint64_t sg_fclass64(uint64_t b) {
  uint64_t e = b >> 52 & 0x7ff, m = b & 0xfffffffffffffull;
  return fclass(b >> 63, e == 0x7ff && !m, e == 0x7ff && m, sg_snan64(b), !e && !m, !e && m);
}

static long double round_rm(long double v, unsigned rm) {
  switch (rm) {
  case SG_RTZ: return truncl(v);
  case SG_RDN: return floorl(v);
  case SG_RUP: return ceill(v);
  case SG_RMM: return roundl(v);
  default: return roundevenl(v);
  }
}

uint64_t sg_fcvt_int(long double v, unsigned rm, bool is_signed, unsigned bits, unsigned *flags) {
  long double lo = is_signed ? -ldexpl(1, (int)bits - 1) : 0;
  long double hi = is_signed ? ldexpl(1, (int)bits - 1) - 1 : ldexpl(1, (int)bits) - 1;
  long double r = isnan(v) ? hi : round_rm(v, rm);
  uint64_t out;
  if (isnan(v) || r < lo || r > hi) {
    *flags |= SG_FF_NV;
    r = r < lo ? lo : hi;
  } else if (r != v) {
    *flags |= SG_FF_NX;
  }
  out = is_signed ? (uint64_t)(int64_t)r : (uint64_t)r;
  return bits == 32 ? (uint64_t)(int64_t)(int32_t)(uint32_t)out : out;
}
