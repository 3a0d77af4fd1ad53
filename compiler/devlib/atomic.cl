/* SPDX-License-Identifier: MIT */
/* compiler/devlib: atomic functions. OpenCL C 1.x atomic_* and the
 * cl_khr_{global,local}_int{32,64}_{base,extended}_atomics atom_* on global
 * and local memory, and the OpenCL C 2.0+ C11-style atomics on global,
 * local and generic memory. They compile to RISC-V AMOs (LR/SC loops for
 * compare-and-swap, exchange of floating-point values via their bits). */
#include "sg_devlib.h"

/* ---- OpenCL C 1.x: relaxed read-modify-write operations -------------- */
#define SG_RLX __ATOMIC_RELAXED
#define SG_ATOM_1X(P, T, AS)                                                 \
  SG_OVL T P##_add(volatile AS T *p, T v) { return __atomic_fetch_add(p, v, SG_RLX); } \
  SG_OVL T P##_sub(volatile AS T *p, T v) { return __atomic_fetch_sub(p, v, SG_RLX); } \
  SG_OVL T P##_xchg(volatile AS T *p, T v) { return __atomic_exchange_n(p, v, SG_RLX); } \
  SG_OVL T P##_inc(volatile AS T *p) { return __atomic_fetch_add(p, (T)1, SG_RLX); } \
  SG_OVL T P##_dec(volatile AS T *p) { return __atomic_fetch_sub(p, (T)1, SG_RLX); } \
  SG_OVL T P##_cmpxchg(volatile AS T *p, T cmp, T v) {                       \
    __atomic_compare_exchange_n(p, &cmp, v, 0, SG_RLX, SG_RLX);              \
    return cmp;                                                              \
  }                                                                          \
  SG_OVL T P##_min(volatile AS T *p, T v) { return __atomic_fetch_min(p, v, SG_RLX); } \
  SG_OVL T P##_max(volatile AS T *p, T v) { return __atomic_fetch_max(p, v, SG_RLX); } \
  SG_OVL T P##_and(volatile AS T *p, T v) { return __atomic_fetch_and(p, v, SG_RLX); } \
  SG_OVL T P##_or(volatile AS T *p, T v) { return __atomic_fetch_or(p, v, SG_RLX); } \
  SG_OVL T P##_xor(volatile AS T *p, T v) { return __atomic_fetch_xor(p, v, SG_RLX); }

#define SG_ATOM_1X_AS(AS)                                                    \
  SG_ATOM_1X(atomic, int, AS)                                                \
  SG_ATOM_1X(atomic, uint, AS)                                               \
  SG_ATOM_1X(atom, int, AS)                                                  \
  SG_ATOM_1X(atom, uint, AS)                                                 \
  SG_ATOM_1X(atom, long, AS)                                                 \
  SG_ATOM_1X(atom, ulong, AS)                                                \
  SG_OVL float atomic_xchg(volatile AS float *p, float v) {                  \
    return as_float(__atomic_exchange_n((volatile AS uint *)p, as_uint(v), SG_RLX)); \
  }
SG_ATOM_1X_AS(__global)
SG_ATOM_1X_AS(__local)

/* ---- OpenCL C 2.0+: C11-style atomics --------------------------------
 * Each operation in three forms: implicit (seq_cst, device scope),
 * _explicit(order) and _explicit(order, scope). */
#define SG_SC memory_order_seq_cst
#define SG_DEV memory_scope_device

/* NAME(obj ARGS) for R, with the builtin call BODY(ARGS..., order, scope). */
#define SG_C11_FORMS(R, NAME, AS, A, PARAMS, ARGS, BI)                       \
  SG_OVL R NAME(volatile AS A *o PARAMS) { return BI(o ARGS, SG_SC, SG_DEV); } \
  SG_OVL R NAME##_explicit(volatile AS A *o PARAMS, memory_order m) {        \
    return BI(o ARGS, m, SG_DEV);                                            \
  }                                                                          \
  SG_OVL R NAME##_explicit(volatile AS A *o PARAMS, memory_order m,          \
                           memory_scope s) {                                 \
    return BI(o ARGS, m, s);                                                 \
  }

#define SG_COMMA ,
#define SG_C11_FETCH(AS, A, T, V)                                            \
  SG_C11_FORMS(T, atomic_fetch_add, AS, A, SG_COMMA V v, SG_COMMA v, __opencl_atomic_fetch_add) \
  SG_C11_FORMS(T, atomic_fetch_sub, AS, A, SG_COMMA V v, SG_COMMA v, __opencl_atomic_fetch_sub) \
  SG_C11_FORMS(T, atomic_fetch_or, AS, A, SG_COMMA V v, SG_COMMA v, __opencl_atomic_fetch_or) \
  SG_C11_FORMS(T, atomic_fetch_xor, AS, A, SG_COMMA V v, SG_COMMA v, __opencl_atomic_fetch_xor) \
  SG_C11_FORMS(T, atomic_fetch_and, AS, A, SG_COMMA V v, SG_COMMA v, __opencl_atomic_fetch_and)
#define SG_C11_MINMAX(AS, A, T, V)                                           \
  SG_C11_FORMS(T, atomic_fetch_min, AS, A, SG_COMMA V v, SG_COMMA v, __opencl_atomic_fetch_min) \
  SG_C11_FORMS(T, atomic_fetch_max, AS, A, SG_COMMA V v, SG_COMMA v, __opencl_atomic_fetch_max)

/* Atomic loads and stores are AMOs (amoor with zero, amoswap), where LLVM
 * would emit plain loads and stores: the race checker tells atomic
 * accesses from ordinary ones by their instruction (docs/races.md). The
 * simulator's memory is sequentially consistent, so a full compiler fence
 * honours every order and scope. */
#define SG_C11_LOAD_STORE(AS, A, T)                                          \
  SG_INL T sg_amo_load(volatile AS A *o, memory_order m, memory_scope s) {   \
    union { T t; ulong u; } x;                                               \
    (void)m, (void)s;                                                        \
    if (sizeof(T) == 4)                                                      \
      __asm__ volatile("amoor.w %0, zero, (%1)" : "=r"(x.u) : "r"(o) : "memory"); \
    else                                                                     \
      __asm__ volatile("amoor.d %0, zero, (%1)" : "=r"(x.u) : "r"(o) : "memory"); \
    return x.t;                                                              \
  }                                                                          \
  SG_INL void sg_amo_store(volatile AS A *o, T v, memory_order m, memory_scope s) { \
    union { T t; ulong u; } x = {.u = 0};                                    \
    (void)m, (void)s;                                                        \
    x.t = v;                                                                 \
    if (sizeof(T) == 4)                                                      \
      __asm__ volatile("amoswap.w zero, %0, (%1)" : : "r"(x.u), "r"(o) : "memory"); \
    else                                                                     \
      __asm__ volatile("amoswap.d zero, %0, (%1)" : : "r"(x.u), "r"(o) : "memory"); \
  }
#define SG_C11_ANY(AS, A, T)                                                 \
  SG_C11_LOAD_STORE(AS, A, T)                                                \
  SG_OVL void atomic_init(volatile AS A *o, T v) { __opencl_atomic_init(o, v); } \
  SG_C11_FORMS(void, atomic_store, AS, A, SG_COMMA T v, SG_COMMA v, sg_amo_store) \
  SG_C11_FORMS(T, atomic_load, AS, A, , , sg_amo_load)                       \
  SG_C11_FORMS(T, atomic_exchange, AS, A, SG_COMMA T v, SG_COMMA v, __opencl_atomic_exchange)

/* compare_exchange: `expected` may point to any space the object's space
 * can be paired with (EAS). */
#define SG_C11_CAS1(AS, A, T, EAS, KIND)                                     \
  SG_OVL bool atomic_compare_exchange_##KIND(volatile AS A *o, EAS T *e, T d) { \
    return __opencl_atomic_compare_exchange_##KIND(o, e, d, SG_SC, SG_SC, SG_DEV); \
  }                                                                          \
  SG_OVL bool atomic_compare_exchange_##KIND##_explicit(                     \
      volatile AS A *o, EAS T *e, T d, memory_order ms, memory_order mf) {   \
    return __opencl_atomic_compare_exchange_##KIND(o, e, d, ms, mf, SG_DEV); \
  }                                                                          \
  SG_OVL bool atomic_compare_exchange_##KIND##_explicit(                     \
      volatile AS A *o, EAS T *e, T d, memory_order ms, memory_order mf,     \
      memory_scope s) {                                                      \
    return __opencl_atomic_compare_exchange_##KIND(o, e, d, ms, mf, s);      \
  }
#define SG_C11_CAS(AS, A, T, EAS)                                            \
  SG_C11_CAS1(AS, A, T, EAS, strong)                                         \
  SG_C11_CAS1(AS, A, T, EAS, weak)

#define SG_C11_TYPE(AS, A, T)                                                \
  SG_C11_ANY(AS, A, T)                                                       \
  SG_C11_CAS_FOR_##AS(A, T)
#define SG_C11_CAS_FOR___generic(A, T) SG_C11_CAS(__generic, A, T, __generic)
#define SG_C11_CAS_FOR___global(A, T)                                        \
  SG_C11_CAS(__global, A, T, __global)                                       \
  SG_C11_CAS(__global, A, T, __local)                                        \
  SG_C11_CAS(__global, A, T, __private)
#define SG_C11_CAS_FOR___local(A, T)                                         \
  SG_C11_CAS(__local, A, T, __global)                                        \
  SG_C11_CAS(__local, A, T, __local)                                         \
  SG_C11_CAS(__local, A, T, __private)

/* atomic_flag: set means non-zero. */
#define SG_C11_FLAG_SET(o, m, s) (__opencl_atomic_exchange(o, 1, m, s) != 0)
#define SG_C11_FLAG_CLEAR(o, m, s) sg_amo_store_flag(o)

#define SG_C11_AS(AS)                                                        \
  SG_INL void sg_amo_store_flag(volatile AS atomic_flag *o) {                \
    __asm__ volatile("amoswap.w zero, zero, (%0)" : : "r"(o) : "memory");    \
  }                                                                          \
  SG_C11_TYPE(AS, atomic_int, int)                                           \
  SG_C11_TYPE(AS, atomic_uint, uint)                                         \
  SG_C11_TYPE(AS, atomic_long, long)                                         \
  SG_C11_TYPE(AS, atomic_ulong, ulong)                                       \
  SG_C11_TYPE(AS, atomic_float, float)                                       \
  SG_C11_TYPE(AS, atomic_double, double)                                     \
  SG_C11_FETCH(AS, atomic_int, int, int)                                     \
  SG_C11_FETCH(AS, atomic_uint, uint, uint)                                  \
  SG_C11_FETCH(AS, atomic_long, long, long)                                  \
  SG_C11_FETCH(AS, atomic_ulong, ulong, ulong)                               \
  SG_C11_FETCH(AS, atomic_ulong, ulong, long) /* uintptr_t += ptrdiff_t */   \
  SG_C11_FETCH(AS, atomic_long, long, ulong) /* intptr_t op uintptr_t */     \
  SG_C11_MINMAX(AS, atomic_int, int, int)                                    \
  SG_C11_MINMAX(AS, atomic_uint, uint, uint)                                 \
  SG_C11_MINMAX(AS, atomic_long, long, long)                                 \
  SG_C11_MINMAX(AS, atomic_ulong, ulong, ulong)                              \
  SG_C11_MINMAX(AS, atomic_long, long, ulong)                                \
  SG_C11_MINMAX(AS, atomic_ulong, ulong, long)                               \
  SG_C11_FORMS(bool, atomic_flag_test_and_set, AS, atomic_flag, , , SG_C11_FLAG_SET) \
  SG_C11_FORMS(void, atomic_flag_clear, AS, atomic_flag, , , SG_C11_FLAG_CLEAR)

SG_C11_AS(__global)
SG_C11_AS(__local)
SG_C11_AS(__generic)
