/* SPDX-License-Identifier: MIT */
/* compiler/devlib: common functions (OpenCL C 1.2 s6.12.4) for float and
 * double, scalars and vectors. */
#include "sg_devlib.h"

#define SG_COMMON(T, PI)                                                     \
  SG_OVL T clamp(T x, T lo, T hi) { return fmin(fmax(x, lo), hi); }          \
  SG_OVL T degrees(T r) { return r * (T)(180 / PI); }                        \
  SG_OVL T radians(T d) { return d * (T)(PI / 180); }                        \
  SG_OVL T max(T x, T y) { return fmax(x, y); }                              \
  SG_OVL T min(T x, T y) { return fmin(x, y); }                              \
  SG_OVL T mix(T x, T y, T a) { return x + (y - x) * a; }                    \
  SG_OVL T step(T edge, T x) { return x < edge ? (T)0 : (T)1; }              \
  SG_OVL T smoothstep(T e0, T e1, T x) {                                     \
    T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1);                           \
    return t * t * ((T)3 - (T)2 * t);                                        \
  }                                                                          \
  /* +-0 and NaN map to +-0 and 0 */                                         \
  SG_OVL T sign(T x) {                                                       \
    return x > 0 ? (T)1 : x < 0 ? (T)-1 : __builtin_isnan(x) ? (T)0 : x;     \
  }                                                                          \
  SG_VEC_3(clamp, T, T, T, T)                                                \
  SG_VEC_3SS(clamp, T, T, T)                                                 \
  SG_VEC_1(degrees, T, T)                                                    \
  SG_VEC_1(radians, T, T)                                                    \
  SG_VEC_2(max, T, T, T)                                                     \
  SG_VEC_2S(max, T, T, T)                                                    \
  SG_VEC_2(min, T, T, T)                                                     \
  SG_VEC_2S(min, T, T, T)                                                    \
  SG_VEC_3(mix, T, T, T, T)                                                  \
  SG_VEC_3S(mix, T)                                                          \
  SG_VEC_2(step, T, T, T)                                                    \
  SG_VEC_S2(step, T)                                                         \
  SG_VEC_3(smoothstep, T, T, T, T)                                           \
  SG_VEC_SS3(smoothstep, T)                                                  \
  SG_VEC_1(sign, T, T)

SG_COMMON(float, M_PI)
SG_COMMON(double, M_PI)
