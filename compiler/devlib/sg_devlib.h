/* SPDX-License-Identifier: MIT */
/* compiler/devlib: private header of the OpenCL C device library (DESIGN.md
 * "The compiler": the library linked into every program). Definition
 * helpers, the SIMT extension as inline asm (docs/isa.md) and the vector
 * expansion macros every family uses. */
#ifndef SG_DEVLIB_H
#define SG_DEVLIB_H

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

/* Every built-in is an overload: its Itanium name must be the one clang
 * gives the call in user code. */
#define SG_OVL __attribute__((overloadable))
#define SG_INL static inline __attribute__((overloadable, always_inline))

#define SG_STR_(x) #x
#define SG_STR(x) SG_STR_(x)

/* The device ABI: address windows (SG_ADDR_*), CSR numbers (SG_CSR_*), the
 * parameter block's field offsets (SG_LI_*) and the SIMT extension's
 * encodings (SG_OPC_/SG_F3_/SG_F7_*), generated from compiler/sg_abi.def,
 * sim/sg_csr.def and sim/sg_insn.def; SG_INSN_R(name) is the start of its
 * .insn directive. */
#include "sg_abi.h"

/* sg.mark (docs/isa.md, sim/sg_mark.def): tells the checkers which work-group
 * or sub-group function the work-item calls, with the arguments that must
 * agree across the group (a no-op otherwise). Volatile with a memory
 * clobber, so it stays where the call is and memory accesses do not move
 * across it (the async copies' own accesses lie between two marks). */
#define SG_MARK2(name, a, b)                                                 \
  __asm__ volatile(".insn r " SG_STR(SG_OPC_SG_MARK) ", " SG_STR(SG_F3_SG_MARK) ", " \
                   SG_STR(SG_MARK_##name) ", x0, %0, %1"                     \
                   : : "r"((ulong)(a)), "r"((ulong)(b)) : "memory")
#define SG_MARK1(name, a)                                                    \
  __asm__ volatile(".insn r " SG_STR(SG_OPC_SG_MARK) ", " SG_STR(SG_F3_SG_MARK) ", " \
                   SG_STR(SG_MARK_##name) ", x0, %0, x0"                     \
                   : : "r"((ulong)(a)) : "memory")
#define SG_MARK0(name)                                                       \
  __asm__ volatile(".insn r " SG_STR(SG_OPC_SG_MARK) ", " SG_STR(SG_F3_SG_MARK) ", " \
                   SG_STR(SG_MARK_##name) ", x0, x0, x0" : : : "memory")

/* CSRs that are constant for a lane's whole life: plain asm (no volatile,
 * no memory clobber), so LLVM may CSE and hoist the reads. */
#define SG_CSRR(csr)                                                         \
  ({                                                                         \
    ulong v_;                                                                \
    __asm__("csrr %0, " SG_STR(csr) : "=r"(v_));                             \
    v_;                                                                      \
  })

/* The launch's parameter block is read-only for the whole launch, so its
 * loads are pure too (the asm hides them from alias analysis). */
#define SG_PARAM_U64(off)                                                    \
  ({                                                                         \
    ulong v_;                                                                \
    __asm__("ld %0, %1(%2)" : "=r"(v_) : "i"(off), "r"(SG_CSRR(SG_CSR_PARAMS))); \
    v_;                                                                      \
  })
#define SG_PARAM_U32(off)                                                    \
  ({                                                                         \
    uint v_;                                                                 \
    __asm__("lwu %0, %1(%2)" : "=r"(v_) : "i"(off), "r"(SG_CSRR(SG_CSR_PARAMS))); \
    v_;                                                                      \
  })

/* ---- Vector expansion ----------------------------------------------------
 * A vector built-in applies its scalar version per component (LLVM
 * re-vectorises nothing here: the target has no vector unit). Halves keep
 * the macros short: n = 8 and 16 are built from n/2. */
#define SG_V3(R, e0, e1, e2) (R##3)(e0, e1, e2)

/* R NAME(T x) */
#define SG_VEC_1(NAME, R, T)                                                 \
  SG_OVL R##2 NAME(T##2 x) { return (R##2)(NAME(x.s0), NAME(x.s1)); }        \
  SG_OVL R##3 NAME(T##3 x) {                                                 \
    return (R##3)(NAME(x.s0), NAME(x.s1), NAME(x.s2));                       \
  }                                                                          \
  SG_OVL R##4 NAME(T##4 x) { return (R##4)(NAME(x.lo), NAME(x.hi)); }        \
  SG_OVL R##8 NAME(T##8 x) { return (R##8)(NAME(x.lo), NAME(x.hi)); }        \
  SG_OVL R##16 NAME(T##16 x) { return (R##16)(NAME(x.lo), NAME(x.hi)); }

/* R NAME(T x, U y), both vectors (U names the second type's scalar). */
#define SG_VEC_2(NAME, R, T, U)                                              \
  SG_OVL R##2 NAME(T##2 x, U##2 y) {                                         \
    return (R##2)(NAME(x.s0, y.s0), NAME(x.s1, y.s1));                       \
  }                                                                          \
  SG_OVL R##3 NAME(T##3 x, U##3 y) {                                         \
    return (R##3)(NAME(x.s0, y.s0), NAME(x.s1, y.s1), NAME(x.s2, y.s2));     \
  }                                                                          \
  SG_OVL R##4 NAME(T##4 x, U##4 y) {                                         \
    return (R##4)(NAME(x.lo, y.lo), NAME(x.hi, y.hi));                       \
  }                                                                          \
  SG_OVL R##8 NAME(T##8 x, U##8 y) {                                         \
    return (R##8)(NAME(x.lo, y.lo), NAME(x.hi, y.hi));                       \
  }                                                                          \
  SG_OVL R##16 NAME(T##16 x, U##16 y) {                                      \
    return (R##16)(NAME(x.lo, y.lo), NAME(x.hi, y.hi));                      \
  }

/* R NAME(T x, U y) with a scalar y. */
#define SG_VEC_2S(NAME, R, T, U)                                             \
  SG_OVL R##2 NAME(T##2 x, U y) { return (R##2)(NAME(x.s0, y), NAME(x.s1, y)); } \
  SG_OVL R##3 NAME(T##3 x, U y) {                                            \
    return (R##3)(NAME(x.s0, y), NAME(x.s1, y), NAME(x.s2, y));              \
  }                                                                          \
  SG_OVL R##4 NAME(T##4 x, U y) { return (R##4)(NAME(x.lo, y), NAME(x.hi, y)); } \
  SG_OVL R##8 NAME(T##8 x, U y) { return (R##8)(NAME(x.lo, y), NAME(x.hi, y)); } \
  SG_OVL R##16 NAME(T##16 x, U y) {                                          \
    return (R##16)(NAME(x.lo, y), NAME(x.hi, y));                            \
  }

/* R NAME(T x, U y, V z), all vectors. */
#define SG_VEC_3(NAME, R, T, U, V)                                           \
  SG_OVL R##2 NAME(T##2 x, U##2 y, V##2 z) {                                 \
    return (R##2)(NAME(x.s0, y.s0, z.s0), NAME(x.s1, y.s1, z.s1));           \
  }                                                                          \
  SG_OVL R##3 NAME(T##3 x, U##3 y, V##3 z) {                                 \
    return (R##3)(NAME(x.s0, y.s0, z.s0), NAME(x.s1, y.s1, z.s1),            \
                  NAME(x.s2, y.s2, z.s2));                                   \
  }                                                                          \
  SG_OVL R##4 NAME(T##4 x, U##4 y, V##4 z) {                                 \
    return (R##4)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));           \
  }                                                                          \
  SG_OVL R##8 NAME(T##8 x, U##8 y, V##8 z) {                                 \
    return (R##8)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));           \
  }                                                                          \
  SG_OVL R##16 NAME(T##16 x, U##16 y, V##16 z) {                             \
    return (R##16)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));          \
  }

/* R NAME(T x, U y, U z) with scalar y and z (clamp). */
#define SG_VEC_3SS(NAME, R, T, U)                                            \
  SG_OVL R##2 NAME(T##2 x, U y, U z) {                                       \
    return (R##2)(NAME(x.s0, y, z), NAME(x.s1, y, z));                       \
  }                                                                          \
  SG_OVL R##3 NAME(T##3 x, U y, U z) {                                       \
    return (R##3)(NAME(x.s0, y, z), NAME(x.s1, y, z), NAME(x.s2, y, z));     \
  }                                                                          \
  SG_OVL R##4 NAME(T##4 x, U y, U z) {                                       \
    return (R##4)(NAME(x.lo, y, z), NAME(x.hi, y, z));                       \
  }                                                                          \
  SG_OVL R##8 NAME(T##8 x, U y, U z) {                                       \
    return (R##8)(NAME(x.lo, y, z), NAME(x.hi, y, z));                       \
  }                                                                          \
  SG_OVL R##16 NAME(T##16 x, U y, U z) {                                     \
    return (R##16)(NAME(x.lo, y, z), NAME(x.hi, y, z));                      \
  }

/* R NAME(T x, T y, U a, U b): two vectors and two scalars (bitfield_insert). */
#define SG_VEC_2SS(NAME, R, T, U)                                            \
  SG_OVL R##2 NAME(T##2 x, T##2 y, U a, U b) {                               \
    return (R##2)(NAME(x.s0, y.s0, a, b), NAME(x.s1, y.s1, a, b));           \
  }                                                                          \
  SG_OVL R##3 NAME(T##3 x, T##3 y, U a, U b) {                               \
    return (R##3)(NAME(x.s0, y.s0, a, b), NAME(x.s1, y.s1, a, b),            \
                  NAME(x.s2, y.s2, a, b));                                   \
  }                                                                          \
  SG_OVL R##4 NAME(T##4 x, T##4 y, U a, U b) {                               \
    return (R##4)(NAME(x.lo, y.lo, a, b), NAME(x.hi, y.hi, a, b));           \
  }                                                                          \
  SG_OVL R##8 NAME(T##8 x, T##8 y, U a, U b) {                               \
    return (R##8)(NAME(x.lo, y.lo, a, b), NAME(x.hi, y.hi, a, b));           \
  }                                                                          \
  SG_OVL R##16 NAME(T##16 x, T##16 y, U a, U b) {                            \
    return (R##16)(NAME(x.lo, y.lo, a, b), NAME(x.hi, y.hi, a, b));          \
  }

/* Mixed scalar/vector arguments of the common functions: scalar first
 * argument (step), two scalar first arguments (smoothstep), scalar last
 * argument (mix). */
#define SG_VEC_S2(NAME, T)                                                   \
  SG_OVL T##2 NAME(T e, T##2 x) { return NAME((T##2)(e), x); }               \
  SG_OVL T##3 NAME(T e, T##3 x) { return NAME((T##3)(e), x); }               \
  SG_OVL T##4 NAME(T e, T##4 x) { return NAME((T##4)(e), x); }               \
  SG_OVL T##8 NAME(T e, T##8 x) { return NAME((T##8)(e), x); }               \
  SG_OVL T##16 NAME(T e, T##16 x) { return NAME((T##16)(e), x); }
#define SG_VEC_SS3(NAME, T)                                                  \
  SG_OVL T##2 NAME(T a, T b, T##2 x) { return NAME((T##2)(a), (T##2)(b), x); } \
  SG_OVL T##3 NAME(T a, T b, T##3 x) { return NAME((T##3)(a), (T##3)(b), x); } \
  SG_OVL T##4 NAME(T a, T b, T##4 x) { return NAME((T##4)(a), (T##4)(b), x); } \
  SG_OVL T##8 NAME(T a, T b, T##8 x) { return NAME((T##8)(a), (T##8)(b), x); } \
  SG_OVL T##16 NAME(T a, T b, T##16 x) {                                     \
    return NAME((T##16)(a), (T##16)(b), x);                                  \
  }
#define SG_VEC_3S(NAME, T)                                                   \
  SG_OVL T##2 NAME(T##2 x, T##2 y, T a) { return NAME(x, y, (T##2)(a)); }    \
  SG_OVL T##3 NAME(T##3 x, T##3 y, T a) { return NAME(x, y, (T##3)(a)); }    \
  SG_OVL T##4 NAME(T##4 x, T##4 y, T a) { return NAME(x, y, (T##4)(a)); }    \
  SG_OVL T##8 NAME(T##8 x, T##8 y, T a) { return NAME(x, y, (T##8)(a)); }    \
  SG_OVL T##16 NAME(T##16 x, T##16 y, T a) { return NAME(x, y, (T##16)(a)); }

/* M(T, I) for a scalar type and every vector width of it. */
#define SG_FOR_WIDTHS(M, T, ...)                                             \
  M(T, __VA_ARGS__)                                                          \
  M(T##2, __VA_ARGS__##2)                                                    \
  M(T##3, __VA_ARGS__##3)                                                    \
  M(T##4, __VA_ARGS__##4)                                                    \
  M(T##8, __VA_ARGS__##8)                                                    \
  M(T##16, __VA_ARGS__##16)

/* R NAME(T x, AS P##n *p): a result and a vector through a pointer. */
#define SG_VEC_PTR(NAME, R, T, P, AS)                                        \
  SG_OVL R##2 NAME(T##2 x, AS P##2 *p) {                                     \
    P a, b;                                                                  \
    R##2 r = (R##2)(NAME(x.s0, &a), NAME(x.s1, &b));                         \
    *p = (P##2)(a, b);                                                       \
    return r;                                                                \
  }                                                                          \
  SG_OVL R##3 NAME(T##3 x, AS P##3 *p) {                                     \
    P a, b, c;                                                               \
    R##3 r = (R##3)(NAME(x.s0, &a), NAME(x.s1, &b), NAME(x.s2, &c));         \
    *p = (P##3)(a, b, c);                                                    \
    return r;                                                                \
  }                                                                          \
  SG_OVL R##4 NAME(T##4 x, AS P##4 *p) {                                     \
    P##2 a, b;                                                               \
    R##4 r = (R##4)(NAME(x.lo, &a), NAME(x.hi, &b));                         \
    *p = (P##4)(a, b);                                                       \
    return r;                                                                \
  }                                                                          \
  SG_OVL R##8 NAME(T##8 x, AS P##8 *p) {                                     \
    P##4 a, b;                                                               \
    R##8 r = (R##8)(NAME(x.lo, &a), NAME(x.hi, &b));                         \
    *p = (P##8)(a, b);                                                       \
    return r;                                                                \
  }                                                                          \
  SG_OVL R##16 NAME(T##16 x, AS P##16 *p) {                                  \
    P##8 a, b;                                                               \
    R##16 r = (R##16)(NAME(x.lo, &a), NAME(x.hi, &b));                       \
    *p = (P##16)(a, b);                                                      \
    return r;                                                                \
  }

/* Same, with a second value argument before the pointer (remquo). */
#define SG_VEC_2PTR(NAME, R, T, P, AS)                                       \
  SG_OVL R##2 NAME(T##2 x, T##2 y, AS P##2 *p) {                             \
    P a, b;                                                                  \
    R##2 r = (R##2)(NAME(x.s0, y.s0, &a), NAME(x.s1, y.s1, &b));             \
    *p = (P##2)(a, b);                                                       \
    return r;                                                                \
  }                                                                          \
  SG_OVL R##3 NAME(T##3 x, T##3 y, AS P##3 *p) {                             \
    P a, b, c;                                                               \
    R##3 r = (R##3)(NAME(x.s0, y.s0, &a), NAME(x.s1, y.s1, &b),              \
                    NAME(x.s2, y.s2, &c));                                   \
    *p = (P##3)(a, b, c);                                                    \
    return r;                                                                \
  }                                                                          \
  SG_OVL R##4 NAME(T##4 x, T##4 y, AS P##4 *p) {                             \
    P##2 a, b;                                                               \
    R##4 r = (R##4)(NAME(x.lo, y.lo, &a), NAME(x.hi, y.hi, &b));             \
    *p = (P##4)(a, b);                                                       \
    return r;                                                                \
  }                                                                          \
  SG_OVL R##8 NAME(T##8 x, T##8 y, AS P##8 *p) {                             \
    P##4 a, b;                                                               \
    R##8 r = (R##8)(NAME(x.lo, y.lo, &a), NAME(x.hi, y.hi, &b));             \
    *p = (P##8)(a, b);                                                       \
    return r;                                                                \
  }                                                                          \
  SG_OVL R##16 NAME(T##16 x, T##16 y, AS P##16 *p) {                         \
    P##8 a, b;                                                               \
    R##16 r = (R##16)(NAME(x.lo, y.lo, &a), NAME(x.hi, y.hi, &b));           \
    *p = (P##16)(a, b);                                                      \
    return r;                                                                \
  }

/* Pointer built-ins exist once per address space a caller can name: the
 * named ones (OpenCL C 1.x, and 3.0 without generic pointers) and
 * __generic (2.0+). Private comes first: the vector versions of the other
 * spaces work on private temporaries. */
#define SG_FOR_PTR_AS(M, ...)                                                \
  M(__private, __VA_ARGS__)                                                  \
  M(__global, __VA_ARGS__)                                                   \
  M(__local, __VA_ARGS__)                                                    \
  M(__generic, __VA_ARGS__)

#endif
