/* SPDX-License-Identifier: MIT */
/* compiler/devlib: relational functions (OpenCL C 1.2 s6.12.6). Written
 * once with OpenCL C operators, which already give what the spec asks:
 * 1/0 (int) for scalars, -1/0 (same-size integers) per vector component. */
#include "sg_devlib.h"

/* T: float or double type (any width), I: the integer type of its results
 * (int for scalars), S: the same-size signed integer type, MIN: smallest
 * normal value. */
#define SG_RELATIONAL(T, I, S, MIN, INF)                                     \
  SG_OVL I isequal(T x, T y) { return x == y; }                              \
  SG_OVL I isnotequal(T x, T y) { return x != y; }                           \
  SG_OVL I isgreater(T x, T y) { return x > y; }                             \
  SG_OVL I isgreaterequal(T x, T y) { return x >= y; }                       \
  SG_OVL I isless(T x, T y) { return x < y; }                                \
  SG_OVL I islessequal(T x, T y) { return x <= y; }                          \
  SG_OVL I islessgreater(T x, T y) { return x < y || x > y; }                \
  SG_OVL I isfinite(T x) { return fabs(x) < INF; }                           \
  SG_OVL I isinf(T x) { return fabs(x) == INF; }                             \
  SG_OVL I isnan(T x) { return x != x; }                                     \
  SG_OVL I isnormal(T x) { return fabs(x) >= MIN && fabs(x) < INF; }         \
  SG_OVL I isordered(T x, T y) { return x == x && y == y; }                  \
  SG_OVL I isunordered(T x, T y) { return x != x || y != y; }                \
  SG_OVL I signbit(T x) { return as_##S(x) < 0; }



SG_RELATIONAL(float, int, int, FLT_MIN, INFINITY)
SG_RELATIONAL(double, int, long, DBL_MIN, (double)INFINITY)
#define SG_REL_VEC(N)                                                        \
  SG_RELATIONAL(float##N, int##N, int##N, FLT_MIN, INFINITY)                 \
  SG_RELATIONAL(double##N, long##N, long##N, DBL_MIN, (double)INFINITY)
SG_REL_VEC(2)
SG_REL_VEC(3)
SG_REL_VEC(4)
SG_REL_VEC(8)
SG_REL_VEC(16)

/* any/all look at the most significant bit of each component. */
#define SG_ANY_ALL(T)                                                        \
  SG_OVL int any(T x) { return x < 0; }                                      \
  SG_OVL int all(T x) { return x < 0; }                                      \
  SG_OVL int any(T##2 x) { return (x.s0 | x.s1) < 0; }                       \
  SG_OVL int all(T##2 x) { return (x.s0 & x.s1) < 0; }                       \
  SG_OVL int any(T##3 x) { return (x.s0 | x.s1 | x.s2) < 0; }                \
  SG_OVL int all(T##3 x) { return (x.s0 & x.s1 & x.s2) < 0; }                \
  SG_OVL int any(T##4 x) { return any(x.lo | x.hi); }                        \
  SG_OVL int all(T##4 x) { return all(x.lo & x.hi); }                        \
  SG_OVL int any(T##8 x) { return any(x.lo | x.hi); }                        \
  SG_OVL int all(T##8 x) { return all(x.lo & x.hi); }                        \
  SG_OVL int any(T##16 x) { return any(x.lo | x.hi); }                       \
  SG_OVL int all(T##16 x) { return all(x.lo & x.hi); }
SG_ANY_ALL(char)
SG_ANY_ALL(short)
SG_ANY_ALL(int)
SG_ANY_ALL(long)

/* bitselect: each result bit from b where c has a 1, else from a. U is the
 * same-size unsigned integer type. */
#define SG_BITSELECT(T, U)                                                   \
  SG_OVL T bitselect(T a, T b, T c) {                                        \
    return as_##T((U)((as_##U(a) & ~as_##U(c)) | (as_##U(b) & as_##U(c)))); \
  }
#define SG_BITSELECT_ALL(T, U) SG_FOR_WIDTHS(SG_BITSELECT, T, U)
SG_BITSELECT_ALL(char, uchar)
SG_BITSELECT_ALL(uchar, uchar)
SG_BITSELECT_ALL(short, ushort)
SG_BITSELECT_ALL(ushort, ushort)
SG_BITSELECT_ALL(int, uint)
SG_BITSELECT_ALL(uint, uint)
SG_BITSELECT_ALL(long, ulong)
SG_BITSELECT_ALL(ulong, ulong)
SG_BITSELECT_ALL(float, uint)
SG_BITSELECT_ALL(double, ulong)

/* select(a, b, c): scalars take b when c != 0, vectors per component when
 * the component's most significant bit is set. S and U: the signed and
 * unsigned integer types of T's element size. */
#define SG_SELECT_SCALAR(T, S, U)                                            \
  SG_OVL T select(T a, T b, S c) { return c ? b : a; }                       \
  SG_OVL T select(T a, T b, U c) { return c ? b : a; }
#define SG_SELECT_VEC(T, S, U)                                               \
  SG_OVL T select(T a, T b, S c) { return c < (S)0 ? b : a; }                \
  SG_OVL T select(T a, T b, U c) { return as_##S(c) < (S)0 ? b : a; }
#define SG_SELECT(T, S, U)                                                   \
  SG_SELECT_SCALAR(T, S, U)                                                  \
  SG_SELECT_VEC(T##2, S##2, U##2)                                            \
  SG_SELECT_VEC(T##3, S##3, U##3)                                            \
  SG_SELECT_VEC(T##4, S##4, U##4)                                            \
  SG_SELECT_VEC(T##8, S##8, U##8)                                            \
  SG_SELECT_VEC(T##16, S##16, U##16)
SG_SELECT(char, char, uchar)
SG_SELECT(uchar, char, uchar)
SG_SELECT(short, short, ushort)
SG_SELECT(ushort, short, ushort)
SG_SELECT(int, int, uint)
SG_SELECT(uint, int, uint)
SG_SELECT(long, long, ulong)
SG_SELECT(ulong, long, ulong)
SG_SELECT(float, int, uint)
SG_SELECT(double, long, ulong)
