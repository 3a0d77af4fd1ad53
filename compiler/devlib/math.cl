/* SPDX-License-Identifier: MIT */
/* compiler/devlib: math functions (OpenCL C 1.2 s6.12.2) for float and
 * double, scalars and vectors. Transcendentals run on the special function
 * unit (docs/isa.md, sim/sg_sfu.def); the exactly rounded ones use RISC-V
 * F/D instructions or bit manipulation: the device has no libm. */
#include "sg_devlib.h"

/* ---- SFU wrappers, one per line of sg_sfu.def: sg_sfu_SIN(x) ... ------ */
#define SG_SFU_1(NAME, F7)                                                   \
  SG_INL float sg_sfu_##NAME(float x) {                                      \
    float r;                                                                 \
    __asm__(".insn r " SG_STR(SG_OPC_SFU_S) ", " SG_STR(SG_F3_SFU_S) ", " #F7 ", %0, %1, %1" : "=f"(r) : "f"(x));      \
    return r;                                                                \
  }                                                                          \
  SG_INL double sg_sfu_##NAME(double x) {                                    \
    double r;                                                                \
    __asm__(".insn r " SG_STR(SG_OPC_SFU_D) ", " SG_STR(SG_F3_SFU_D) ", " #F7 ", %0, %1, %1" : "=f"(r) : "f"(x));      \
    return r;                                                                \
  }
#define SG_SFU_2(NAME, F7)                                                   \
  SG_INL float sg_sfu_##NAME(float x, float y) {                             \
    float r;                                                                 \
    __asm__(".insn r " SG_STR(SG_OPC_SFU_S) ", " SG_STR(SG_F3_SFU_S) ", " #F7 ", %0, %1, %2" : "=f"(r) : "f"(x), "f"(y)); \
    return r;                                                                \
  }                                                                          \
  SG_INL double sg_sfu_##NAME(double x, double y) {                          \
    double r;                                                                \
    __asm__(".insn r " SG_STR(SG_OPC_SFU_D) ", " SG_STR(SG_F3_SFU_D) ", " #F7 ", %0, %1, %2" : "=f"(r) : "f"(x), "f"(y)); \
    return r;                                                                \
  }
#define SG_SFU(NAME, F7, ARITY, FF, DF) SG_SFU_##ARITY(NAME, F7)
#include "sg_sfu.def"
#undef SG_SFU

/* Both element types, every vector width. */
#define SG_VF1(NAME) SG_VEC_1(NAME, float, float) SG_VEC_1(NAME, double, double)
#define SG_VF2(NAME)                                                         \
  SG_VEC_2(NAME, float, float, float) SG_VEC_2(NAME, double, double, double)
#define SG_VF3(NAME)                                                         \
  SG_VEC_3(NAME, float, float, float, float)                                 \
  SG_VEC_3(NAME, double, double, double, double)

#define SG_MATH_SFU1(name, OP)                                               \
  SG_OVL float name(float x) { return sg_sfu_##OP(x); }                      \
  SG_OVL double name(double x) { return sg_sfu_##OP(x); }                    \
  SG_VF1(name)
#define SG_MATH_SFU2(name, OP)                                               \
  SG_OVL float name(float x, float y) { return sg_sfu_##OP(x, y); }          \
  SG_OVL double name(double x, double y) { return sg_sfu_##OP(x, y); }       \
  SG_VF2(name)

SG_MATH_SFU1(sin, SIN)
SG_MATH_SFU1(cos, COS)
SG_MATH_SFU1(tan, TAN)
SG_MATH_SFU1(asin, ASIN)
SG_MATH_SFU1(acos, ACOS)
SG_MATH_SFU1(atan, ATAN)
SG_MATH_SFU1(sinh, SINH)
SG_MATH_SFU1(cosh, COSH)
SG_MATH_SFU1(tanh, TANH)
SG_MATH_SFU1(asinh, ASINH)
SG_MATH_SFU1(acosh, ACOSH)
SG_MATH_SFU1(atanh, ATANH)
SG_MATH_SFU1(exp, EXP)
SG_MATH_SFU1(exp2, EXP2)
SG_MATH_SFU1(exp10, EXP10)
SG_MATH_SFU1(expm1, EXPM1)
SG_MATH_SFU1(log, LOG)
SG_MATH_SFU1(log2, LOG2)
SG_MATH_SFU1(log10, LOG10)
SG_MATH_SFU1(log1p, LOG1P)
SG_MATH_SFU1(cbrt, CBRT)
SG_MATH_SFU1(rsqrt, RSQRT)
SG_MATH_SFU1(erf, ERF)
SG_MATH_SFU1(erfc, ERFC)
SG_MATH_SFU1(tgamma, TGAMMA)
SG_MATH_SFU1(lgamma, LGAMMA)
SG_MATH_SFU1(sinpi, SINPI)
SG_MATH_SFU1(cospi, COSPI)
SG_MATH_SFU1(tanpi, TANPI)
SG_MATH_SFU1(logb, LOGB)
SG_MATH_SFU2(pow, POW)
SG_MATH_SFU2(atan2, ATAN2)
SG_MATH_SFU2(hypot, HYPOT)
SG_MATH_SFU2(fmod, FMOD)
SG_MATH_SFU2(remainder, REMAINDER)
SG_MATH_SFU2(nextafter, NEXTAFTER)
SG_MATH_SFU2(fdim, FDIM)

/* ---- Exact: one RISC-V instruction or LLVM's fcvt-based expansion ----- */
#define SG_MATH_BI1(name, bf, bd)                                            \
  SG_OVL float name(float x) { return bf(x); }                               \
  SG_OVL double name(double x) { return bd(x); }                             \
  SG_VF1(name)
SG_MATH_BI1(sqrt, __builtin_sqrtf, __builtin_sqrt)
SG_MATH_BI1(fabs, __builtin_fabsf, __builtin_fabs)
SG_MATH_BI1(floor, __builtin_floorf, __builtin_floor)
SG_MATH_BI1(ceil, __builtin_ceilf, __builtin_ceil)
SG_MATH_BI1(trunc, __builtin_truncf, __builtin_trunc)
SG_MATH_BI1(round, __builtin_roundf, __builtin_round)
SG_MATH_BI1(rint, __builtin_roundevenf, __builtin_roundeven)

/* fmin/fmax: RISC-V fmin/fmax return the non-NaN operand, as OpenCL asks. */
#define SG_MATH_BI2(name, bf, bd)                                            \
  SG_OVL float name(float x, float y) { return bf(x, y); }                   \
  SG_OVL double name(double x, double y) { return bd(x, y); }                \
  SG_VF2(name)
SG_MATH_BI2(copysign, __builtin_copysignf, __builtin_copysign)
SG_MATH_BI2(fmin, __builtin_fminf, __builtin_fmin)
SG_MATH_BI2(fmax, __builtin_fmaxf, __builtin_fmax)
SG_VEC_2S(fmin, float, float, float)
SG_VEC_2S(fmin, double, double, double)
SG_VEC_2S(fmax, float, float, float)
SG_VEC_2S(fmax, double, double, double)

SG_OVL float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
SG_OVL double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
SG_VF3(fma)
SG_OVL float mad(float a, float b, float c) { return a * b + c; }
SG_OVL double mad(double a, double b, double c) { return a * b + c; }
SG_VF3(mad)

/* ---- Composed from the above, per element type T --------------------- */
#define SG_MATH_COMPOSED(T)                                                  \
  SG_OVL T maxmag(T x, T y) {                                                \
    T ax = fabs(x), ay = fabs(y);                                            \
    return ax > ay ? x : ay > ax ? y : fmax(x, y);                           \
  }                                                                          \
  SG_OVL T minmag(T x, T y) {                                                \
    T ax = fabs(x), ay = fabs(y);                                            \
    return ax < ay ? x : ay < ax ? y : fmin(x, y);                           \
  }                                                                          \
  /* s7.5: NaN in, x < 0, 0^0, inf^0 and 1^inf give NaN; a zero x gives  \
   * +inf or +0 whatever its sign (pow would keep -0's sign for odd y). */  \
  SG_OVL T powr(T x, T y) {                                                  \
    if (__builtin_isnan(x) || __builtin_isnan(y) || x < 0 ||                 \
        (__builtin_isinf(x) && y == 0) || (x == 1 && __builtin_isinf(y)))    \
      return (T)NAN;                                                         \
    if (x == 0)                                                              \
      return y == 0 ? (T)NAN : y < 0 ? (T)INFINITY : (T)0;                   \
    return pow(x, y);                                                        \
  }                                                                          \
  SG_OVL T asinpi(T x) { return (T)(asin((double)x) / M_PI); }               \
  SG_OVL T acospi(T x) { return (T)(acos((double)x) / M_PI); }               \
  SG_OVL T atanpi(T x) { return (T)(atan((double)x) / M_PI); }               \
  SG_OVL T atan2pi(T y, T x) { return (T)(atan2((double)y, (double)x) / M_PI); } \
  SG_OVL T pown(T x, int n) { return (T)pow((double)x, (double)n); }         \
  SG_OVL T rootn(T x, int n) {                                               \
    if (n == 0 || (x < 0 && (n & 1) == 0))                                   \
      return (T)NAN;                                                         \
    double r = sg_rootn_abs(fabs((double)x), n);                             \
    return (T)((n & 1) ? copysign(r, (double)x) : r);                        \
  }                                                                          \
  SG_OVL T ldexp(T x, int n) { return sg_scalbn(x, n); }                     \
  SG_OVL int ilogb(T x) {                                                    \
    if (__builtin_isnan(x))                                                  \
      return FP_ILOGBNAN;                                                    \
    if (x == 0)                                                              \
      return FP_ILOGB0;                                                      \
    if (__builtin_isinf(x))                                                  \
      return INT_MAX;                                                        \
    int e;                                                                   \
    sg_frexp(x, &e);                                                         \
    return e - 1;                                                            \
  }                                                                          \
  SG_VEC_2(maxmag, T, T, T)                                                  \
  SG_VEC_2(minmag, T, T, T)                                                  \
  SG_VEC_2(powr, T, T, T)                                                    \
  SG_VEC_1(asinpi, T, T)                                                     \
  SG_VEC_1(acospi, T, T)                                                     \
  SG_VEC_1(atanpi, T, T)                                                     \
  SG_VEC_2(atan2pi, T, T, T)                                                            \
  SG_VEC_2(pown, T, T, int)                                                  \
  SG_VEC_2(rootn, T, T, int)                                                 \
  SG_VEC_2(ldexp, T, T, int)                                                 \
  SG_VEC_2S(ldexp, T, T, int)                                                \
  SG_VEC_1(ilogb, int, T)

/* frexp for finite non-zero x: mantissa in [0.5, 1) and exponent; zero, inf
 * and NaN come back unchanged with exponent 0. Subnormals are scaled into
 * the normal range first. */
SG_INL float sg_frexp(float x, __private int *e) {
  uint u = as_uint(x);
  int ex = (u >> 23) & 0xff, adj = 0;
  if (ex == 0xff || x == 0) {
    *e = 0;
    return x;
  }
  if (ex == 0) {
    u = as_uint(x * 0x1p64f);
    ex = (u >> 23) & 0xff;
    adj = 64;
  }
  *e = ex - 126 - adj;
  return as_float((u & 0x807fffffu) | 0x3f000000u);
}

SG_INL double sg_frexp(double x, __private int *e) {
  ulong u = as_ulong(x);
  int ex = (u >> 52) & 0x7ff, adj = 0;
  if (ex == 0x7ff || x == 0) {
    *e = 0;
    return x;
  }
  if (ex == 0) {
    u = as_ulong(x * 0x1p64);
    ex = (u >> 52) & 0x7ff;
    adj = 64;
  }
  *e = ex - 1022 - adj;
  return as_double((u & 0x800ffffffffffffful) | 0x3fe0000000000000ul);
}

/* x * 2^n with one final rounding: large |n| is applied in steps that stay
 * exact, and the step into the subnormal range keeps 24 (53) guard bits so
 * the last multiplication is the only inexact one. */
SG_INL float sg_scalbn(float x, int n) {
  if (n > 127) {
    x *= 0x1p127f;
    n -= 127;
    if (n > 127) {
      x *= 0x1p127f;
      n -= 127;
      n = n > 127 ? 127 : n;
    }
  } else if (n < -126) {
    x *= 0x1p-126f * 0x1p24f;
    n += 126 - 24;
    if (n < -126) {
      x *= 0x1p-126f * 0x1p24f;
      n += 126 - 24;
      n = n < -126 ? -126 : n;
    }
  }
  return x * as_float((uint)(0x7f + n) << 23);
}

SG_INL double sg_scalbn(double x, int n) {
  if (n > 1023) {
    x *= 0x1p1023;
    n -= 1023;
    if (n > 1023) {
      x *= 0x1p1023;
      n -= 1023;
      n = n > 1023 ? 1023 : n;
    }
  } else if (n < -1022) {
    x *= 0x1p-1022 * 0x1p53;
    n += 1022 - 53;
    if (n < -1022) {
      x *= 0x1p-1022 * 0x1p53;
      n += 1022 - 53;
      n = n < -1022 ? -1022 : n;
    }
  }
  return x * as_double((ulong)(0x3ff + n) << 52);
}

/* |x|^(1/n) for x >= 0: with x = m 2^e and e = q|n| + r, 0 <= r < |n|, the
 * root is 2^(+-q) (m 2^r)^(1/n). The rounding error of 1/n is scaled by
 * log(m 2^r) < |n| log 2 instead of log(x), which reaches 744 for small
 * doubles; past |n| = 64 that error is small anyway. */
SG_INL double sg_rootn_abs(double x, int n) {
  long an = n < 0 ? -(long)n : n;
  if (an > 64 || x == 0 || __builtin_isinf(x))
    return pow(x, 1.0 / n);
  int e;
  double m = sg_frexp(x, &e);
  long q = e >= 0 ? e / an : -((an - 1 - e) / an); /* floor(e / |n|) */
  double v = pow(sg_scalbn(m, (int)(e - q * an)), 1.0 / n);
  return sg_scalbn(v, (int)(n < 0 ? -q : q));
}

SG_MATH_COMPOSED(float)
SG_MATH_COMPOSED(double)

/* ---- Built-ins with a pointer argument, per address space ------------ */
#define SG_MATH_PTR(AS, T)                                                   \
  SG_OVL T fract(T x, AS T *ip) {                                            \
    T f = floor(x);                                                          \
    *ip = f;                                                                 \
    if (__builtin_isnan(x) || __builtin_isinf(x) || x == 0)                 \
      return __builtin_isnan(x) ? x : copysign((T)0, x);                     \
    return fmin(x - f, sg_below_one(x));                                     \
  }                                                                          \
  SG_OVL T modf(T x, AS T *ip) {                                             \
    T i = trunc(x);                                                          \
    *ip = i;                                                                 \
    return copysign(__builtin_isinf(x) ? (T)0 : x - i, x);                   \
  }                                                                          \
  SG_OVL T sincos(T x, AS T *c) {                                            \
    *c = cos(x);                                                             \
    return sin(x);                                                           \
  }                                                                          \
  SG_OVL T frexp(T x, AS int *e) {                                           \
    int ex;                                                                  \
    T m = sg_frexp(x, &ex);                                                  \
    *e = ex;                                                                 \
    return m;                                                                \
  }                                                                          \
  SG_OVL T lgamma_r(T x, AS int *s) {                                        \
    T f = floor(x);                                                          \
    *s = (x < 0 && x != f && ((long)f & 1)) || (x == 0 && __builtin_signbit(x)) \
             ? -1                                                            \
             : 1;                                                            \
    return lgamma(x);                                                        \
  }                                                                          \
  SG_OVL T remquo(T x, T y, AS int *q) {                                     \
    int n;                                                                   \
    T r = sg_remquo(x, y, &n);                                               \
    *q = n;                                                                  \
    return r;                                                                \
  }                                                                          \
  SG_VEC_PTR(fract, T, T, T, AS)                                             \
  SG_VEC_PTR(modf, T, T, T, AS)                                              \
  SG_VEC_PTR(sincos, T, T, T, AS)                                            \
  SG_VEC_PTR(frexp, T, T, int, AS)                                           \
  SG_VEC_PTR(lgamma_r, T, T, int, AS)                                        \
  SG_VEC_2PTR(remquo, T, T, int, AS)

SG_INL float sg_below_one(float x) { (void)x; return 0x1.fffffep-1f; }
SG_INL double sg_below_one(double x) { (void)x; return 0x1.fffffffffffffp-1; }

/* remquo: the remainder from the SFU; the quotient's low 7 bits (OpenCL C
 * 6.15.2 asks for seven, C99 for at least three) from |x| reduced modulo
 * 128|y| (fmod is exact), whose quotient by |y| is then a small integer that
 * the remainder makes exact. */
#define SG_REMQUO(T, W)                                                      \
  SG_INL T sg_remquo(T x, T y, __private int *q) {                           \
    T r = remainder(x, y);                                                   \
    *q = 0;                                                                  \
    if (__builtin_isnan(r) || __builtin_isinf(x) || y == 0)                  \
      return r;                                                              \
    W ax = fabs((W)x), ay = fabs((W)y), m = 128 * ay;                        \
    if (!__builtin_isinf(m))                                                 \
      ax = fmod(ax, m);                                                      \
    W ra = __builtin_signbit(x) ? -(W)r : (W)r;                              \
    int n = (int)rint((ax - ra) / ay) & 127;                                \
    *q = (__builtin_signbit(x) != __builtin_signbit(y)) ? -n : n;            \
    return r;                                                                \
  }
SG_REMQUO(float, double)
SG_REMQUO(double, double)

SG_FOR_PTR_AS(SG_MATH_PTR, float)
SG_FOR_PTR_AS(SG_MATH_PTR, double)

/* ---- nan(code) -------------------------------------------------------- */
SG_OVL float nan(uint c) { return as_float(0x7fc00000u | (c & 0x3fffffu)); }
SG_OVL double nan(ulong c) {
  return as_double(0x7ff8000000000000ul | (c & 0x7fffffffffffful));
}
SG_VEC_1(nan, float, uint)
SG_VEC_1(nan, double, ulong)

/* ---- native_* and half_*: the ful-precision functions ----------------- */
#define SG_ALIAS1(alias, name)                                               \
  SG_OVL float alias(float x) { return name(x); }                            \
  SG_VEC_1(alias, float, float)
#define SG_ALIAS2(alias, name)                                               \
  SG_OVL float alias(float x, float y) { return name(x, y); }                \
  SG_VEC_2(alias, float, float, float)
SG_INL float sg_recip(float x) { return 1.0f / x; }
SG_INL float sg_divide(float x, float y) { return x / y; }

#define SG_REDUCED(P)                                                        \
  SG_ALIAS1(P##cos, cos)                                                     \
  SG_ALIAS1(P##sin, sin)                                                     \
  SG_ALIAS1(P##tan, tan)                                                     \
  SG_ALIAS1(P##exp, exp)                                                     \
  SG_ALIAS1(P##exp2, exp2)                                                   \
  SG_ALIAS1(P##exp10, exp10)                                                 \
  SG_ALIAS1(P##log, log)                                                     \
  SG_ALIAS1(P##log2, log2)                                                   \
  SG_ALIAS1(P##log10, log10)                                                 \
  SG_ALIAS1(P##recip, sg_recip)                                              \
  SG_ALIAS1(P##rsqrt, rsqrt)                                                 \
  SG_ALIAS1(P##sqrt, sqrt)                                                   \
  SG_ALIAS2(P##divide, sg_divide)                                            \
  SG_ALIAS2(P##powr, powr)
SG_REDUCED(native_)
SG_REDUCED(half_)
