/* SPDX-License-Identifier: MIT */
/* compiler/devlib: geometric functions (OpenCL C 1.2 s6.12.5) for float and
 * double scalars and 2-, 3-, 4-vectors. */
#include "sg_devlib.h"

SG_INL float sg_dot(float x, float y) { return x * y; }
SG_INL float sg_dot(float2 x, float2 y) { return x.s0 * y.s0 + x.s1 * y.s1; }
SG_INL float sg_dot(float3 x, float3 y) {
  return x.s0 * y.s0 + x.s1 * y.s1 + x.s2 * y.s2;
}
SG_INL float sg_dot(float4 x, float4 y) {
  return x.s0 * y.s0 + x.s1 * y.s1 + x.s2 * y.s2 + x.s3 * y.s3;
}
SG_INL double sg_dot(double x, double y) { return x * y; }
SG_INL double sg_dot(double2 x, double2 y) { return x.s0 * y.s0 + x.s1 * y.s1; }
SG_INL double sg_dot(double3 x, double3 y) {
  return x.s0 * y.s0 + x.s1 * y.s1 + x.s2 * y.s2;
}
SG_INL double sg_dot(double4 x, double4 y) {
  return x.s0 * y.s0 + x.s1 * y.s1 + x.s2 * y.s2 + x.s3 * y.s3;
}

/* length without spurious overflow or underflow: when the sum of squares
 * leaves the normal range, the vector is scaled by a power of two (exact)
 * first. BIG/SMALL: the scales; MIN: smallest normal of the type. */
#define SG_GEOMETRIC(V, T, BIG, SMALL, MIN)                                  \
  SG_OVL T dot(V x, V y) { return sg_dot(x, y); }                            \
  SG_OVL T length(V p) {                                                     \
    T d = sg_dot(p, p);                                                      \
    if (__builtin_isinf(d))                                                  \
      return sqrt(sg_dot(p * (T)(1 / BIG), p * (T)(1 / BIG))) * (T)BIG;      \
    if (d < MIN)                                                             \
      return sqrt(sg_dot(p * (T)(1 / SMALL), p * (T)(1 / SMALL))) * (T)SMALL; \
    return sqrt(d);                                                          \
  }                                                                          \
  SG_OVL T distance(V p, V q) { return length(p - q); }                      \
  /* Infinite components become +-1 and the others +-0 first. A tiny      \
   * vector is scaled up (exactly) first: its length may be subnormal, and \
   * dividing by it would keep only that length's few bits. */             \
  SG_OVL V normalize(V p) {                                                  \
    T l = length(p);                                                         \
    if (l == 0)                                                              \
      return p;                                                              \
    if (__builtin_isinf(l)) {                                                \
      p = copysign(isinf(p) ? (V)(1) : (V)(0), p);                           \
      l = length(p);                                                         \
    } else if (sg_dot(p, p) < MIN) {                                         \
      p *= (T)(1 / SMALL);                                                   \
      l = length(p);                                                         \
    }                                                                        \
    return p / l;                                                            \
  }

SG_GEOMETRIC(float, float, 0x1p66, 0x1p-100, FLT_MIN)
SG_GEOMETRIC(float2, float, 0x1p66, 0x1p-100, FLT_MIN)
SG_GEOMETRIC(float3, float, 0x1p66, 0x1p-100, FLT_MIN)
SG_GEOMETRIC(float4, float, 0x1p66, 0x1p-100, FLT_MIN)
SG_GEOMETRIC(double, double, 0x1p514, 0x1p-600, DBL_MIN)
SG_GEOMETRIC(double2, double, 0x1p514, 0x1p-600, DBL_MIN)
SG_GEOMETRIC(double3, double, 0x1p514, 0x1p-600, DBL_MIN)
SG_GEOMETRIC(double4, double, 0x1p514, 0x1p-600, DBL_MIN)

/* fast_*: the same results (the full-precision ones are fast enough). */
#define SG_FAST(V)                                                           \
  SG_OVL float fast_length(V p) { return length(p); }                        \
  SG_OVL float fast_distance(V p, V q) { return distance(p, q); }            \
  SG_OVL V fast_normalize(V p) { return normalize(p); }
SG_FAST(float)
SG_FAST(float2)
SG_FAST(float3)
SG_FAST(float4)

#define SG_CROSS(T)                                                          \
  SG_OVL T##3 cross(T##3 a, T##3 b) {                                        \
    return (T##3)(a.s1 * b.s2 - a.s2 * b.s1, a.s2 * b.s0 - a.s0 * b.s2,       \
                  a.s0 * b.s1 - a.s1 * b.s0);                                \
  }                                                                          \
  SG_OVL T##4 cross(T##4 a, T##4 b) {                                        \
    return (T##4)(cross(a.xyz, b.xyz), 0);                                   \
  }
SG_CROSS(float)
SG_CROSS(double)
