/* SPDX-License-Identifier: MIT */
/* compiler/devlib: work-group collective functions (OpenCL C 2.0 s6.13.15,
 * 3.0 s6.15.15). Each warp reduces or scans its part with the sub-group
 * functions (subgroup.cl); the warps' totals meet in a small scratch area
 * in the CTA's local memory (docs/collectives.md). */
#define __opencl_c_work_group_collective_functions 1
#include "sg_devlib.h"

/* One slot per warp and round; CTAs with more warps (small warp sizes)
 * combine their totals in several rounds. */
#define SG_WG_SLOTS 64

/* The scratch lives in the local window: variables of the section .sg.local
 * are placed there like __local ones, per kernel that reaches them
 * (sg_cc_passes.c, overlay_locals; the CTA's own copy). OpenCL C has
 * no program-scope __local, hence the __global spelling: on this target
 * every address space is the same flat pointer. The library is linked
 * lazily, so only programs that use a collective carry it, and it counts in
 * their CL_KERNEL_LOCAL_MEM_SIZE. */
__global ulong sg_wg_scratch[SG_WG_SLOTS] __attribute__((section(".sg.local")));

#define SG_ADD(a, b) ((a) + (b))

/* The sub-group functions without their marks (subgroup.cl): each
 * work-group function marks itself once (sg_devlib.h, SG_MARK*). */
#define SG_SUB_GROUP_DECL(T)                                                 \
  SG_OVL T sg_sub_group_broadcast(T x, uint lane);                           \
  SG_SUB_GROUP_DECL_OP(T, add)                                               \
  SG_SUB_GROUP_DECL_OP(T, min)                                               \
  SG_SUB_GROUP_DECL_OP(T, max)
#define SG_SUB_GROUP_DECL_OP(T, NAME)                                        \
  SG_OVL T sg_sub_group_reduce_##NAME(T x);                                  \
  SG_OVL T sg_sub_group_scan_inclusive_##NAME(T x);                          \
  SG_OVL T sg_sub_group_scan_exclusive_##NAME(T x);
SG_SUB_GROUP_DECL(int)
SG_SUB_GROUP_DECL(uint)
SG_SUB_GROUP_DECL(long)
SG_SUB_GROUP_DECL(ulong)
SG_SUB_GROUP_DECL(float)
SG_SUB_GROUP_DECL(double)
SG_OVL int sg_sub_group_any(int pred);
SG_OVL int sg_sub_group_all(int pred);

/* Combines the warps' parts in warp order: returns the total over the CTA
 * and sets *before to the total of the warps below the caller's. The last
 * barrier keeps the next collective from overwriting slots still read. */
#define SG_WG_COMBINE(T, NAME, OP, ID)                                       \
  static T combine_##NAME##_##T(T part, T *before) {                         \
    __global T *slot = (__global T *)sg_wg_scratch;                          \
    uint w = get_sub_group_id(), nw = get_num_sub_groups();                  \
    T all = (T)(ID), pre = (T)(ID);                                          \
    for (uint base = 0; base < nw; base += SG_WG_SLOTS) {                    \
      if (get_sub_group_local_id() == 0 && w - base < SG_WG_SLOTS)           \
        slot[w - base] = part;                                               \
      barrier(CLK_LOCAL_MEM_FENCE);                                          \
      uint n = min(nw - base, (uint)SG_WG_SLOTS);                            \
      for (uint i = 0; i < n; i++) {                                         \
        pre = base + i < w ? OP(pre, slot[i]) : pre;                         \
        all = OP(all, slot[i]);                                              \
      }                                                                      \
      barrier(CLK_LOCAL_MEM_FENCE);                                          \
    }                                                                        \
    *before = pre;                                                           \
    return all;                                                              \
  }

#define SG_WG_OPS(T, NAME, OP, ID)                                           \
  SG_WG_COMBINE(T, NAME, OP, ID)                                             \
  SG_OVL T work_group_reduce_##NAME(T x) {                                   \
    T pre;                                                                   \
    SG_MARK0(work_group_reduce_##NAME);                                      \
    return combine_##NAME##_##T(sg_sub_group_reduce_##NAME(x), &pre);        \
  }                                                                          \
  SG_OVL T work_group_scan_inclusive_##NAME(T x) {                           \
    SG_MARK0(work_group_scan_inclusive_##NAME);                              \
    T s = sg_sub_group_scan_inclusive_##NAME(x), pre;                        \
    combine_##NAME##_##T(sg_sub_group_broadcast(s, get_sub_group_size() - 1), \
                         &pre);                                              \
    return OP(pre, s);                                                       \
  }                                                                          \
  SG_OVL T work_group_scan_exclusive_##NAME(T x) {                           \
    SG_MARK0(work_group_scan_exclusive_##NAME);                              \
    T s = sg_sub_group_scan_exclusive_##NAME(x), pre;                        \
    combine_##NAME##_##T(sg_sub_group_reduce_##NAME(x), &pre);               \
    return OP(pre, s);                                                       \
  }

/* Broadcast from the work-item with the given local linear id (ids in the
 * CTA's real shape, so a partial group is handled like any other). */
#define SG_WG_BROADCAST(T)                                                   \
  static T broadcast_##T(T x, size_t id) {                                   \
    __global T *slot = (__global T *)sg_wg_scratch;                          \
    SG_MARK1(work_group_broadcast, id);                                      \
    if (get_local_linear_id() == id)                                         \
      slot[0] = x;                                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                            \
    T r = slot[0];                                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                            \
    return r;                                                                \
  }                                                                          \
  SG_OVL T work_group_broadcast(T x, size_t lx) { return broadcast_##T(x, lx); } \
  SG_OVL T work_group_broadcast(T x, size_t lx, size_t ly) {                 \
    return broadcast_##T(x, ly * get_local_size(0) + lx);                    \
  }                                                                          \
  SG_OVL T work_group_broadcast(T x, size_t lx, size_t ly, size_t lz) {      \
    return broadcast_##T(x, (lz * get_local_size(1) + ly) * get_local_size(0) + lx); \
  }

#define SG_WG_TYPE(T, MINID, MAXID)                                          \
  SG_WG_BROADCAST(T)                                                         \
  SG_WG_OPS(T, add, SG_ADD, 0)                                               \
  SG_WG_OPS(T, min, min, MINID)                                              \
  SG_WG_OPS(T, max, max, MAXID)

SG_WG_TYPE(int, INT_MAX, INT_MIN)
SG_WG_TYPE(uint, UINT_MAX, 0)
SG_WG_TYPE(long, LONG_MAX, LONG_MIN)
SG_WG_TYPE(ulong, ULONG_MAX, 0)
SG_WG_TYPE(float, INFINITY, -INFINITY)
SG_WG_TYPE(double, INFINITY, -INFINITY)

/* any/all: each warp votes, the warps' votes are combined with max/min. */
SG_OVL int work_group_any(int pred) {
  int pre;
  SG_MARK0(work_group_any);
  return combine_max_int(sg_sub_group_any(pred), &pre);
}

SG_OVL int work_group_all(int pred) {
  int pre;
  SG_MARK0(work_group_all);
  return combine_min_int(sg_sub_group_all(pred), &pre);
}
