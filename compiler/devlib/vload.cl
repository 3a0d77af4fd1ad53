/* SPDX-License-Identifier: MIT */
/* compiler/devlib: vector data load and store (OpenCL C 1.2 s6.12.7):
 * vloadn/vstoren for every scalar type and vload_half/vstore_half (with the
 * four rounding modes), vloada_half/vstorea_half. Element-wise accesses, so
 * p only needs the element's alignment. Half values are converted with
 * integer code: the target has no half-precision instructions. */
#include "sg_devlib.h"

#define SG_VLOAD(T, AS)                                                      \
  SG_OVL T##2 vload2(size_t i, const AS T *p) {                              \
    p += i * 2;                                                              \
    return (T##2)(p[0], p[1]);                                               \
  }                                                                          \
  SG_OVL T##3 vload3(size_t i, const AS T *p) {                              \
    p += i * 3;                                                              \
    return (T##3)(p[0], p[1], p[2]);                                         \
  }                                                                          \
  SG_OVL T##4 vload4(size_t i, const AS T *p) {                              \
    p += i * 4;                                                              \
    return (T##4)(p[0], p[1], p[2], p[3]);                                   \
  }                                                                          \
  SG_OVL T##8 vload8(size_t i, const AS T *p) {                              \
    return (T##8)(vload4(2 * i, p), vload4(2 * i + 1, p));                   \
  }                                                                          \
  SG_OVL T##16 vload16(size_t i, const AS T *p) {                            \
    return (T##16)(vload8(2 * i, p), vload8(2 * i + 1, p));                  \
  }
#define SG_VSTORE(T, AS)                                                     \
  SG_OVL void vstore2(T##2 v, size_t i, AS T *p) {                           \
    p += i * 2;                                                              \
    p[0] = v.s0, p[1] = v.s1;                                                \
  }                                                                          \
  SG_OVL void vstore3(T##3 v, size_t i, AS T *p) {                           \
    p += i * 3;                                                              \
    p[0] = v.s0, p[1] = v.s1, p[2] = v.s2;                                   \
  }                                                                          \
  SG_OVL void vstore4(T##4 v, size_t i, AS T *p) {                           \
    p += i * 4;                                                              \
    p[0] = v.s0, p[1] = v.s1, p[2] = v.s2, p[3] = v.s3;                      \
  }                                                                          \
  SG_OVL void vstore8(T##8 v, size_t i, AS T *p) {                           \
    vstore4(v.lo, 2 * i, p);                                                 \
    vstore4(v.hi, 2 * i + 1, p);                                             \
  }                                                                          \
  SG_OVL void vstore16(T##16 v, size_t i, AS T *p) {                         \
    vstore8(v.lo, 2 * i, p);                                                 \
    vstore8(v.hi, 2 * i + 1, p);                                             \
  }

#define SG_VLOADSTORE_TYPES(AS, M)                                           \
  M(char, AS) M(uchar, AS) M(short, AS) M(ushort, AS) M(int, AS)             \
  M(uint, AS) M(long, AS) M(ulong, AS) M(float, AS) M(double, AS)
#define SG_VLOADSTORE(AS, _)                                                 \
  SG_VLOADSTORE_TYPES(AS, SG_VLOAD)                                          \
  SG_VLOADSTORE_TYPES(AS, SG_VSTORE)
SG_FOR_PTR_AS(SG_VLOADSTORE, _)
SG_VLOADSTORE_TYPES(__constant, SG_VLOAD)

/* ---- half <-> float/double ------------------------------------------ */
SG_INL float sg_half_to_float(ushort h) {
  uint sign = (uint)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0x1f)
    return as_float(sign | 0x7f800000u | (m << 13));
  if (e == 0) /* zero or subnormal: m * 2^-24, exact */
    return as_float(sign | as_uint((float)m * 0x1p-24f));
  return as_float(sign | ((e + 112) << 23) | (m << 13));
}

/* Rounds |x| to a multiple of the half-precision ulp at its binade (or of
 * 2^-24 below the normal range); the multiple's integer is then the
 * encoding (a carry into the exponent field is the right encoding too).
 * UP: this mode rounds the magnitude away from zero (directed modes
 * depend on the sign). Overflow gives infinity when rounding to nearest or
 * away from zero, else the largest half. */
#define SG_TO_HALF(T, R)                                                     \
  SG_INL ushort sg_to_half##R(T x) {                                         \
    ushort sign = __builtin_signbit(x) ? 0x8000 : 0;                         \
    T a = fabs(x);                                                           \
    if (a != a)                                                              \
      return sign | 0x7e00;                                                  \
    if (__builtin_isinf(a))                                                  \
      return sign | 0x7c00;                                                  \
    int e = a < (T)0x1p-14 ? -14 : ilogb(a);                                 \
    if (e > 15)                                                              \
      return sign | (SG_HALF_UP##R(sign) ? 0x7c00 : 0x7bff);                 \
    T q = SG_HALF_RND##R(ldexp(a, 10 - e), sign);                            \
    uint bits = a < (T)0x1p-14 ? (uint)q : ((uint)(e + 15) << 10) + (uint)q - 1024; \
    if (bits > 0x7bff)                                                       \
      return sign | (SG_HALF_UP##R(sign) ? 0x7c00 : 0x7bff);                 \
    return sign | bits;                                                      \
  }
#define SG_HALF_RND(q, s) rint(q)
#define SG_HALF_RND_rte(q, s) rint(q)
#define SG_HALF_RND_rtz(q, s) trunc(q)
#define SG_HALF_RND_rtp(q, s) ((s) ? trunc(q) : ceil(q))
#define SG_HALF_RND_rtn(q, s) ((s) ? ceil(q) : trunc(q))
#define SG_HALF_UP(s) 1
#define SG_HALF_UP_rte(s) 1
#define SG_HALF_UP_rtz(s) 0
#define SG_HALF_UP_rtp(s) (!(s))
#define SG_HALF_UP_rtn(s) ((s) != 0)
#define SG_TO_HALF_MODES(T)                                                  \
  SG_TO_HALF(T, ) SG_TO_HALF(T, _rte) SG_TO_HALF(T, _rtz)                    \
  SG_TO_HALF(T, _rtp) SG_TO_HALF(T, _rtn)
SG_TO_HALF_MODES(float)
SG_TO_HALF_MODES(double)

/* vload_half / vloada_half: vloada_half3 steps by 4 elements. */
#define SG_VLOAD_HALF_N(P, N, STEP, AS)                                      \
  SG_OVL float##N P##N(size_t i, const AS half *p) {                         \
    const AS ushort *h = (const AS ushort *)p + i * STEP;                    \
    float##N r;                                                              \
    for (int k = 0; k < N; k++)                                              \
      r[k] = sg_half_to_float(h[k]);                                         \
    return r;                                                                \
  }
#define SG_VLOAD_HALF(AS, _)                                                 \
  SG_OVL float vload_half(size_t i, const AS half *p) {                      \
    return sg_half_to_float(((const AS ushort *)p)[i]);                      \
  }                                                                          \
  SG_OVL float vloada_half(size_t i, const AS half *p) { return vload_half(i, p); } \
  SG_VLOAD_HALF_N(vload_half, 2, 2, AS)                                      \
  SG_VLOAD_HALF_N(vload_half, 3, 3, AS)                                      \
  SG_VLOAD_HALF_N(vload_half, 4, 4, AS)                                      \
  SG_VLOAD_HALF_N(vload_half, 8, 8, AS)                                      \
  SG_VLOAD_HALF_N(vload_half, 16, 16, AS)                                    \
  SG_VLOAD_HALF_N(vloada_half, 2, 2, AS)                                     \
  SG_VLOAD_HALF_N(vloada_half, 3, 4, AS)                                     \
  SG_VLOAD_HALF_N(vloada_half, 4, 4, AS)                                     \
  SG_VLOAD_HALF_N(vloada_half, 8, 8, AS)                                     \
  SG_VLOAD_HALF_N(vloada_half, 16, 16, AS)
SG_FOR_PTR_AS(SG_VLOAD_HALF, _)
SG_VLOAD_HALF(__constant, _)

#define SG_VSTORE_HALF_N(P, N, STEP, T, R, AS)                               \
  SG_OVL void P##N##R(T##N v, size_t i, AS half *p) {                        \
    AS ushort *h = (AS ushort *)p + i * STEP;                                \
    for (int k = 0; k < N; k++)                                              \
      h[k] = sg_to_half##R(v[k]);                                            \
  }
#define SG_VSTORE_HALF_R(T, R, AS)                                           \
  SG_OVL void vstore_half##R(T v, size_t i, AS half *p) {                    \
    ((AS ushort *)p)[i] = sg_to_half##R(v);                                  \
  }                                                                          \
  SG_OVL void vstorea_half##R(T v, size_t i, AS half *p) {                   \
    ((AS ushort *)p)[i] = sg_to_half##R(v);                                  \
  }                                                                          \
  SG_VSTORE_HALF_N(vstore_half, 2, 2, T, R, AS)                              \
  SG_VSTORE_HALF_N(vstore_half, 3, 3, T, R, AS)                              \
  SG_VSTORE_HALF_N(vstore_half, 4, 4, T, R, AS)                              \
  SG_VSTORE_HALF_N(vstore_half, 8, 8, T, R, AS)                              \
  SG_VSTORE_HALF_N(vstore_half, 16, 16, T, R, AS)                            \
  SG_VSTORE_HALF_N(vstorea_half, 2, 2, T, R, AS)                             \
  SG_VSTORE_HALF_N(vstorea_half, 3, 4, T, R, AS)                             \
  SG_VSTORE_HALF_N(vstorea_half, 4, 4, T, R, AS)                             \
  SG_VSTORE_HALF_N(vstorea_half, 8, 8, T, R, AS)                             \
  SG_VSTORE_HALF_N(vstorea_half, 16, 16, T, R, AS)
#define SG_VSTORE_HALF_T(T, AS)                                              \
  SG_VSTORE_HALF_R(T, , AS) SG_VSTORE_HALF_R(T, _rte, AS)                    \
  SG_VSTORE_HALF_R(T, _rtz, AS) SG_VSTORE_HALF_R(T, _rtp, AS)                \
  SG_VSTORE_HALF_R(T, _rtn, AS)
#define SG_VSTORE_HALF(AS, _) SG_VSTORE_HALF_T(float, AS) SG_VSTORE_HALF_T(double, AS)
SG_FOR_PTR_AS(SG_VSTORE_HALF, _)
