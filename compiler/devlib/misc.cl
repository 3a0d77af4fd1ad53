/* SPDX-License-Identifier: MIT */
/* compiler/devlib: miscellaneous vector functions (shuffle, shuffle2),
 * async copies and prefetch (OpenCL C 1.2 s6.12.10-12), and the generic
 * address space functions (2.0 s6.13.9: to_global/to_local/to_private,
 * get_fence). */
#include "sg_devlib.h"

/* ---- shuffle/shuffle2: only the low bits of each mask component count */
#define SG_SHUFFLE(T, U, N, M)                                               \
  SG_OVL T##N shuffle(T##M x, U##N mask) {                                   \
    T##N r;                                                                  \
    for (int i = 0; i < N; i++)                                              \
      r[i] = x[mask[i] & (M - 1)];                                           \
    return r;                                                                \
  }                                                                          \
  SG_OVL T##N shuffle2(T##M x, T##M y, U##N mask) {                          \
    T##N r;                                                                  \
    for (int i = 0; i < N; i++) {                                            \
      uint k = mask[i] & (2 * M - 1);                                        \
      r[i] = k < M ? x[k] : y[k - M];                                        \
    }                                                                        \
    return r;                                                                \
  }
#define SG_SHUFFLE_N(T, U, N)                                                \
  SG_SHUFFLE(T, U, N, 2) SG_SHUFFLE(T, U, N, 4) SG_SHUFFLE(T, U, N, 8)       \
  SG_SHUFFLE(T, U, N, 16)
#define SG_SHUFFLE_T(T, U)                                                   \
  SG_SHUFFLE_N(T, U, 2) SG_SHUFFLE_N(T, U, 4) SG_SHUFFLE_N(T, U, 8)          \
  SG_SHUFFLE_N(T, U, 16)
SG_SHUFFLE_T(char, uchar)
SG_SHUFFLE_T(uchar, uchar)
SG_SHUFFLE_T(short, ushort)
SG_SHUFFLE_T(ushort, ushort)
SG_SHUFFLE_T(int, uint)
SG_SHUFFLE_T(uint, uint)
SG_SHUFFLE_T(long, ulong)
SG_SHUFFLE_T(ulong, ulong)
SG_SHUFFLE_T(float, uint)
SG_SHUFFLE_T(double, ulong)

/* ---- Async copies: the work-group copies cooperatively, each work-item
 * a strided share; wait_group_events is the barrier that completes it.
 * The event is passed through (there is nothing to track). Marks around
 * each work-item's share tell the checkers the copy's arguments and which
 * accesses are the copy's own (sim/sg_mark.def). */
#define SG_WG_FOR(i, n)                                                      \
  for (size_t i = get_local_linear_id(),                                     \
              step_ = get_local_size(0) * get_local_size(1) * get_local_size(2); \
       i < (n); i += step_)
/* name(d, s, n, stride), the strided side's stride (1: none) and whether
 * it is the destination */
#define SG_ASYNC_COPY(name, T, n, stride, to_strided, copy)                  \
  do {                                                                       \
    SG_MARK2(name, d, s);                                                    \
    SG_MARK2(async_copy_shape, n,                                            \
             sizeof(T) | (ulong)(to_strided) << 15 | (ulong)(stride) << 16); \
    SG_WG_FOR(i, n) copy;                                                    \
    SG_MARK0(async_copy_end);                                                \
  } while (0)
#define SG_ASYNC(T)                                                          \
  SG_OVL event_t async_work_group_copy(__local T *d, const __global T *s,    \
                                       size_t n, event_t e) {                \
    SG_ASYNC_COPY(async_work_group_copy, T, n, 1, 0, d[i] = s[i]);           \
    return e;                                                                \
  }                                                                          \
  SG_OVL event_t async_work_group_copy(__global T *d, const __local T *s,    \
                                       size_t n, event_t e) {                \
    SG_ASYNC_COPY(async_work_group_copy, T, n, 1, 0, d[i] = s[i]);           \
    return e;                                                                \
  }                                                                          \
  SG_OVL event_t async_work_group_strided_copy(                              \
      __local T *d, const __global T *s, size_t n, size_t stride, event_t e) { \
    SG_ASYNC_COPY(async_work_group_strided_copy, T, n, stride, 0,           \
                  d[i] = s[i * stride]);                                     \
    return e;                                                                \
  }                                                                          \
  SG_OVL event_t async_work_group_strided_copy(                              \
      __global T *d, const __local T *s, size_t n, size_t stride, event_t e) { \
    SG_ASYNC_COPY(async_work_group_strided_copy, T, n, stride, 1,           \
                  d[i * stride] = s[i]);                                     \
    return e;                                                                \
  }                                                                          \
  SG_OVL void prefetch(const __global T *p, size_t n) { (void)p, (void)n; }
#define SG_ASYNC_T(T) SG_FOR_WIDTHS(SG_ASYNC_W, T, )
#define SG_ASYNC_W(T, _) SG_ASYNC(T)
SG_ASYNC_T(char)
SG_ASYNC_T(uchar)
SG_ASYNC_T(short)
SG_ASYNC_T(ushort)
SG_ASYNC_T(int)
SG_ASYNC_T(uint)
SG_ASYNC_T(long)
SG_ASYNC_T(ulong)
SG_ASYNC_T(float)
SG_ASYNC_T(double)

#define SG_WAIT_GROUP_EVENTS(AS)                                             \
  SG_OVL void wait_group_events(int n, AS event_t *events) {                 \
    (void)events;                                                            \
    SG_MARK1(wait_group_events, n);                                          \
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                     \
  }
SG_WAIT_GROUP_EVENTS(__private)
SG_WAIT_GROUP_EVENTS(__generic)

/* ---- Generic address space: classified by the device's address map --- */
SG_INL bool sg_is_local(const __generic void *p) {
  ulong a = (ulong)p;
  return a >= SG_ADDR_LOCAL && a < SG_ADDR_PARAMS;
}
SG_INL bool sg_is_private(const __generic void *p) {
  ulong a = (ulong)p;
  return a >= SG_ADDR_STACK && a < SG_ADDR_GLOBAL;
}

/* clang lowers to_global(p) etc. to these (unmangled) calls. */
__global void *__to_global(__generic void *p) {
  return sg_is_local(p) || sg_is_private(p) ? NULL : (__global void *)p;
}
__local void *__to_local(__generic void *p) {
  return sg_is_local(p) ? (__local void *)p : NULL;
}
__private void *__to_private(__generic void *p) {
  return sg_is_private(p) ? (__private void *)p : NULL;
}

SG_OVL cl_mem_fence_flags get_fence(const __generic void *p) {
  return sg_is_local(p) ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE;
}
SG_OVL cl_mem_fence_flags get_fence(__generic void *p) {
  return get_fence((const __generic void *)p);
}
