/* SPDX-License-Identifier: MIT */
/* compiler/devlib: integer functions (OpenCL C 1.2 s6.12.3, ctz from 2.0)
 * for every integer type, scalars and vectors, and those of
 * cl_khr_extended_bit_ops and cl_khr_integer_dot_product. */
#include "sg_devlib.h"

/* T: the type, U: its unsigned twin, B: bits, LO/HI: its range, W: a type
 * twice as wide with T's signedness (the products of mul_hi, mad_sat). */
#define SG_INTEGER(T, U, B, LO, HI, W)                                       \
  SG_OVL U abs(T x) { return x < 0 ? (U)0 - (U)x : (U)x; }                   \
  SG_OVL U abs_diff(T x, T y) { return x > y ? (U)x - (U)y : (U)y - (U)x; }  \
  SG_OVL T add_sat(T x, T y) {                                               \
    T r;                                                                     \
    return __builtin_add_overflow(x, y, &r) ? (y > 0 ? HI : LO) : r;         \
  }                                                                          \
  SG_OVL T sub_sat(T x, T y) {                                               \
    T r;                                                                     \
    return __builtin_sub_overflow(x, y, &r) ? (y < 0 ? HI : LO) : r;         \
  }                                                                          \
  /* (x + y) >> 1 and (x + y + 1) >> 1 without the intermediate overflow */  \
  SG_OVL T hadd(T x, T y) { return (T)((x >> 1) + (y >> 1) + (x & y & 1)); } \
  SG_OVL T rhadd(T x, T y) {                                                 \
    return (T)((x >> 1) + (y >> 1) + ((x | y) & 1));                         \
  }                                                                          \
  SG_OVL T min(T x, T y) { return y < x ? y : x; }                           \
  SG_OVL T max(T x, T y) { return x < y ? y : x; }                           \
  SG_OVL T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }            \
  SG_OVL T clz(T x) {                                                        \
    return x == 0 ? B                                                        \
           : B > 32 ? __builtin_clzl((ulong)(U)x)                            \
                    : __builtin_clz((uint)(U)x) - (32 - B);                  \
  }                                                                          \
  SG_OVL T ctz(T x) {                                                        \
    return x == 0 ? B                                                        \
           : B > 32 ? __builtin_ctzl((ulong)(U)x)                            \
                    : __builtin_ctz((uint)(U)x);                             \
  }                                                                          \
  SG_OVL T popcount(T x) {                                                   \
    return B > 32 ? __builtin_popcountl((ulong)(U)x)                         \
                  : __builtin_popcount((uint)(U)x);                          \
  }                                                                          \
  SG_OVL T mul_hi(T x, T y) { return (T)(((W)x * (W)y) >> B); }              \
  SG_OVL T mad_hi(T x, T y, T z) { return (T)((U)mul_hi(x, y) + (U)z); }     \
  SG_OVL T mad_sat(T x, T y, T z) {                                          \
    W r = (W)x * (W)y + (W)z;                                                \
    return r < (W)LO ? LO : r > (W)HI ? HI : (T)r;                           \
  }                                                                          \
  SG_OVL T rotate(T v, T i) {                                                \
    uint n = (uint)(U)i & (B - 1);                                           \
    return (T)(U)(((U)v << n) | ((U)v >> ((B - n) & (B - 1))));              \
  }                                                                          \
  SG_VEC_1(abs, U, T)                                                        \
  SG_VEC_2(abs_diff, U, T, T)                                                \
  SG_VEC_2(add_sat, T, T, T)                                                 \
  SG_VEC_2(sub_sat, T, T, T)                                                 \
  SG_VEC_2(hadd, T, T, T)                                                    \
  SG_VEC_2(rhadd, T, T, T)                                                   \
  SG_VEC_2(min, T, T, T)                                                     \
  SG_VEC_2S(min, T, T, T)                                                    \
  SG_VEC_2(max, T, T, T)                                                     \
  SG_VEC_2S(max, T, T, T)                                                    \
  SG_VEC_3(clamp, T, T, T, T)                                                \
  SG_VEC_3SS(clamp, T, T, T)                                                 \
  SG_VEC_1(clz, T, T)                                                        \
  SG_VEC_1(ctz, T, T)                                                        \
  SG_VEC_1(popcount, T, T)                                                   \
  SG_VEC_2(mul_hi, T, T, T)                                                  \
  SG_VEC_3(mad_hi, T, T, T, T)                                               \
  SG_VEC_3(mad_sat, T, T, T, T)                                              \
  SG_VEC_2(rotate, T, T, T)

SG_INTEGER(char, uchar, 8, CHAR_MIN, CHAR_MAX, int)
SG_INTEGER(uchar, uchar, 8, 0, UCHAR_MAX, uint)
SG_INTEGER(short, ushort, 16, SHRT_MIN, SHRT_MAX, int)
SG_INTEGER(ushort, ushort, 16, 0, USHRT_MAX, uint)
SG_INTEGER(int, uint, 32, INT_MIN, INT_MAX, long)
SG_INTEGER(uint, uint, 32, 0, UINT_MAX, ulong)
SG_INTEGER(long, ulong, 64, LONG_MIN, LONG_MAX, __int128)
SG_INTEGER(ulong, ulong, 64, 0, ULONG_MAX, unsigned __int128)

/* mul24/mad24: operands are 24-bit values by contract, so the full 32-bit
 * product (wrapping) is a valid result. */
#define SG_INT24(T, U)                                                       \
  SG_OVL T mul24(T x, T y) { return (T)((U)x * (U)y); }                      \
  SG_OVL T mad24(T x, T y, T z) { return (T)((U)x * (U)y + (U)z); }          \
  SG_VEC_2(mul24, T, T, T)                                                   \
  SG_VEC_3(mad24, T, T, T, T)
SG_INT24(int, uint)
SG_INT24(uint, uint)

/* upsample(hi, lo) = hi << bits(lo) | lo, in the twice-as-wide type R. */
#define SG_UPSAMPLE(R, T, U, B)                                              \
  SG_OVL R upsample(T hi, U lo) { return (R)(((R)hi << B) | (R)lo); }        \
  SG_VEC_2(upsample, R, T, U)
SG_UPSAMPLE(short, char, uchar, 8)
SG_UPSAMPLE(ushort, uchar, uchar, 8)
SG_UPSAMPLE(int, short, ushort, 16)
SG_UPSAMPLE(uint, ushort, ushort, 16)
SG_UPSAMPLE(long, int, uint, 32)
SG_UPSAMPLE(ulong, uint, uint, 32)

/* cl_khr_extended_bit_ops. S and U: T's signed and unsigned twins, B: its
 * bits. A count of 0 selects no bits (offset may then be B); the (U) casts
 * keep char and short from promoting to a sign-extended int before a shift. */
#define SG_BITOPS(T, S, U, B)                                                \
  SG_OVL T bitfield_insert(T base, T insert, uint offset, uint count) {      \
    if (count == 0)                                                          \
      return base;                                                           \
    U m = (U)((U)((U)~(U)0 >> (B - count)) << offset);                       \
    return (T)(((U)base & (U)~m) | ((U)((U)insert << offset) & m));          \
  }                                                                          \
  SG_OVL S bitfield_extract_signed(T base, uint offset, uint count) {        \
    if (count == 0)                                                          \
      return 0;                                                              \
    return (S)((S)((U)base << (B - count - offset)) >> (B - count));         \
  }                                                                          \
  SG_OVL U bitfield_extract_unsigned(T base, uint offset, uint count) {      \
    if (count == 0)                                                          \
      return 0;                                                              \
    return (U)((U)((U)base >> offset) & (U)((U)~(U)0 >> (B - count)));       \
  }                                                                          \
  SG_OVL T bit_reverse(T x) { return (T)__builtin_bitreverse##B((U)x); }     \
  SG_VEC_2SS(bitfield_insert, T, T, uint)                                    \
  SG_VEC_3SS(bitfield_extract_signed, S, T, uint)                            \
  SG_VEC_3SS(bitfield_extract_unsigned, U, T, uint)                          \
  SG_VEC_1(bit_reverse, T, T)

SG_BITOPS(char, char, uchar, 8)
SG_BITOPS(uchar, char, uchar, 8)
SG_BITOPS(short, short, ushort, 16)
SG_BITOPS(ushort, short, ushort, 16)
SG_BITOPS(int, int, uint, 32)
SG_BITOPS(uint, int, uint, 32)
SG_BITOPS(long, long, ulong, 64)
SG_BITOPS(ulong, long, ulong, 64)

/* cl_khr_integer_dot_product: the sum of four 8-bit products (exact in an
 * int), and with _acc_sat that sum plus acc, saturated to the result type.
 * A packed operand holds component 0 in its low byte (as_uchar4). */
static int dot4(int4 a, int4 b) {
  int4 p = a * b;
  return p.x + p.y + p.z + p.w;
}
#define SG_DOT(R, A, B, LO, HI, SFX)                                         \
  SG_OVL R dot(A##4 a, B##4 b) { return (R)dot4(convert_int4(a), convert_int4(b)); } \
  SG_OVL R dot_acc_sat(A##4 a, B##4 b, R acc) {                              \
    long s = (long)acc + dot4(convert_int4(a), convert_int4(b));             \
    return s < (long)LO ? LO : s > (long)HI ? HI : (R)s;                     \
  }                                                                          \
  SG_OVL R dot_4x8packed_##SFX(uint a, uint b) {                             \
    return dot(as_##A##4(a), as_##B##4(b));                                  \
  }                                                                          \
  SG_OVL R dot_acc_sat_4x8packed_##SFX(uint a, uint b, R acc) {              \
    return dot_acc_sat(as_##A##4(a), as_##B##4(b), acc);                     \
  }

SG_DOT(uint, uchar, uchar, 0, UINT_MAX, uu_uint)
SG_DOT(int, char, char, INT_MIN, INT_MAX, ss_int)
SG_DOT(int, uchar, char, INT_MIN, INT_MAX, us_int)
SG_DOT(int, char, uchar, INT_MIN, INT_MAX, su_int)
