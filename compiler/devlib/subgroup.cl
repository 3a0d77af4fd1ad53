/* SPDX-License-Identifier: MIT */
/* compiler/devlib: sub-group functions (cl_khr_subgroups, OpenCL C 3.0
 * s6.15.16, cl_khr_subgroup_ballot, cl_khr_subgroup_shuffle,
 * cl_khr_subgroup_shuffle_relative, cl_khr_subgroup_non_uniform_vote,
 * cl_khr_subgroup_rotate). A sub-group is
 * one warp of the CTA (the last one may be partial); everything is built on
 * the warp instructions sg.vote, sg.ballot and sg.shfl (docs/isa.md,
 * docs/collectives.md). */
#define cl_khr_subgroup_ballot 1
#define cl_khr_subgroup_shuffle 1
#define cl_khr_subgroup_shuffle_relative 1
#define cl_khr_subgroup_non_uniform_vote 1
#define cl_khr_subgroup_rotate 1
#include "sg_devlib.h"

#define SG_LANE() ((uint)SG_CSRR(SG_CSR_LANE))
#define SG_WARPSIZE() ((uint)SG_CSRR(SG_CSR_WARPSIZE))

/* The warp instructions are volatile so that LLVM neither drops nor sinks
 * them into a branch: they read other lanes, so the set of lanes executing
 * them is part of their meaning (clang also marks them convergent). */
static ulong shfl64(ulong v, uint lane) {
  ulong r;
  __asm__ volatile(SG_INSN_R(SG_SHFL) ", %0, %1, %2" : "=r"(r) : "r"(v), "r"((ulong)lane));
  return r;
}

static ulong vote_any(int pred) {
  ulong r;
  __asm__ volatile(SG_INSN_R(SG_VOTE_ANY) ", %0, %1, x0" : "=r"(r) : "r"((long)pred));
  return r;
}

static ulong vote_all(int pred) {
  ulong r;
  __asm__ volatile(SG_INSN_R(SG_VOTE_ALL) ", %0, %1, x0" : "=r"(r) : "r"((long)pred));
  return r;
}

static ulong ballot64(int pred) {
  ulong r;
  __asm__ volatile(SG_INSN_R(SG_BALLOT) ", %0, %1, x0" : "=r"(r) : "r"((long)pred));
  return r;
}

/* ---- Sizes and ids ---------------------------------------------------- */

static uint enqueued_linear_size(void) {
  return (uint)(SG_PARAM_U64(SG_LI_ENQUEUED_LOCAL_SIZE) *
                SG_PARAM_U64(SG_LI_ENQUEUED_LOCAL_SIZE + 8) *
                SG_PARAM_U64(SG_LI_ENQUEUED_LOCAL_SIZE + 16));
}

/* Real work-items of this warp: only the CTA's last warp can be short. */
SG_OVL uint get_sub_group_size(void) {
  uint n = (uint)(SG_CSRR(SG_CSR_NTID_X) * SG_CSRR(SG_CSR_NTID_Y) * SG_CSRR(SG_CSR_NTID_Z));
  uint first = (uint)SG_CSRR(SG_CSR_WARP) * SG_WARPSIZE();
  return min(SG_WARPSIZE(), n - first);
}

SG_OVL uint get_max_sub_group_size(void) {
  return min(SG_WARPSIZE(), enqueued_linear_size());
}

SG_OVL uint get_num_sub_groups(void) { return (uint)SG_CSRR(SG_CSR_NWARP); }

SG_OVL uint get_enqueued_num_sub_groups(void) {
  return (enqueued_linear_size() + SG_WARPSIZE() - 1) / SG_WARPSIZE();
}

SG_OVL uint get_sub_group_id(void) { return (uint)SG_CSRR(SG_CSR_WARP); }

SG_OVL uint get_sub_group_local_id(void) { return SG_LANE(); }

/* A warp runs in lockstep and every lane of the sub-group must reach the
 * barrier, so it only has to keep the compiler from moving memory
 * accesses across it (the mark does), and tell the checkers that it
 * orders the sub-group's accesses. */
SG_OVL void sub_group_barrier(cl_mem_fence_flags flags) { SG_MARK1(sub_group_barrier, flags); }

SG_OVL void sub_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  (void)scope;
  sub_group_barrier(flags);
}

/* The sg_sub_group_* forms are the work-group functions' (workgroup.cl):
 * the same without a mark, which would name the sub-group function where
 * the user called a work-group one. */
SG_OVL int sg_sub_group_any(int pred) { return (int)vote_any(pred); }
SG_OVL int sg_sub_group_all(int pred) { return (int)vote_all(pred); }
SG_OVL int sub_group_any(int pred) {
  SG_MARK0(sub_group_any);
  return (int)vote_any(pred);
}
SG_OVL int sub_group_all(int pred) {
  SG_MARK0(sub_group_all);
  return (int)vote_all(pred);
}

/* ---- Shuffles --------------------------------------------------------- */

/* sg_shfl(v, lane): v of that lane, through its bits in a 64-bit register. */
#define SG_SHFL(T, U)                                                        \
  SG_INL T sg_shfl(T v, uint lane) {                                         \
    return as_##T((U)shfl64((ulong)as_##U(v), lane));                        \
  }
SG_SHFL(char, uchar)
SG_SHFL(uchar, uchar)
SG_SHFL(short, ushort)
SG_SHFL(ushort, ushort)
SG_SHFL(int, uint)
SG_SHFL(uint, uint)
SG_SHFL(long, ulong)
SG_SHFL(ulong, ulong)
SG_SHFL(float, uint)
SG_SHFL(double, ulong)

/* ---- Broadcast, reductions and scans (cl_khr_subgroups) --------------- */

#define SG_ADD(a, b) ((a) + (b))

/* Inclusive scan in log2(size) shuffle steps (Hillis-Steele). Lane l only
 * reads lanes below it, which are real work-items, so the masked tail of a
 * partial warp never contributes. */
#define SG_SUB_GROUP_OPS(T, NAME, OP, ID)                                    \
  SG_INL T sg_scan_##NAME(T x) {                                             \
    uint lane = SG_LANE(), n = get_sub_group_size();                         \
    for (uint d = 1; d < n; d <<= 1) {                                       \
      T o = sg_shfl(x, lane >= d ? lane - d : lane);                         \
      x = lane >= d ? OP(o, x) : x;                                          \
    }                                                                        \
    return x;                                                                \
  }                                                                          \
  SG_OVL T sg_sub_group_scan_inclusive_##NAME(T x) { return sg_scan_##NAME(x); } \
  SG_OVL T sg_sub_group_scan_exclusive_##NAME(T x) {                         \
    uint lane = SG_LANE();                                                   \
    T o = sg_shfl(sg_scan_##NAME(x), lane ? lane - 1 : 0);                   \
    return lane ? o : (T)(ID);                                               \
  }                                                                          \
  SG_OVL T sg_sub_group_reduce_##NAME(T x) {                                 \
    return sg_shfl(sg_scan_##NAME(x), get_sub_group_size() - 1);             \
  }                                                                          \
  SG_OVL T sub_group_scan_inclusive_##NAME(T x) {                            \
    SG_MARK0(sub_group_scan_inclusive_##NAME);                               \
    return sg_sub_group_scan_inclusive_##NAME(x);                            \
  }                                                                          \
  SG_OVL T sub_group_scan_exclusive_##NAME(T x) {                            \
    SG_MARK0(sub_group_scan_exclusive_##NAME);                               \
    return sg_sub_group_scan_exclusive_##NAME(x);                            \
  }                                                                          \
  SG_OVL T sub_group_reduce_##NAME(T x) {                                    \
    SG_MARK0(sub_group_reduce_##NAME);                                       \
    return sg_sub_group_reduce_##NAME(x);                                    \
  }

#define SG_SUB_GROUP_TYPE(T, MINID, MAXID)                                   \
  SG_OVL T sg_sub_group_broadcast(T x, uint lane) { return sg_shfl(x, lane); } \
  SG_OVL T sub_group_broadcast(T x, uint lane) {                             \
    SG_MARK1(sub_group_broadcast, lane);                                     \
    return sg_shfl(x, lane);                                                 \
  }                                                                          \
  SG_SUB_GROUP_OPS(T, add, SG_ADD, 0)                                        \
  SG_SUB_GROUP_OPS(T, min, min, MINID)                                       \
  SG_SUB_GROUP_OPS(T, max, max, MAXID)

SG_SUB_GROUP_TYPE(int, INT_MAX, INT_MIN)
SG_SUB_GROUP_TYPE(uint, UINT_MAX, 0)
SG_SUB_GROUP_TYPE(long, LONG_MAX, LONG_MIN)
SG_SUB_GROUP_TYPE(ulong, ULONG_MAX, 0)
SG_SUB_GROUP_TYPE(float, INFINITY, -INFINITY)
SG_SUB_GROUP_TYPE(double, INFINITY, -INFINITY)

/* ---- cl_khr_subgroup_shuffle ------------------------------------------ */

#define SG_SHUFFLES(T)                                                       \
  SG_OVL T sub_group_shuffle(T x, uint lane) { return sg_shfl(x, lane); }    \
  SG_OVL T sub_group_shuffle_xor(T x, uint mask) {                           \
    return sg_shfl(x, SG_LANE() ^ mask);                                     \
  }
SG_SHUFFLES(char)
SG_SHUFFLES(uchar)
SG_SHUFFLES(short)
SG_SHUFFLES(ushort)
SG_SHUFFLES(int)
SG_SHUFFLES(uint)
SG_SHUFFLES(long)
SG_SHUFFLES(ulong)
SG_SHUFFLES(float)
SG_SHUFFLES(double)

/* ---- cl_khr_subgroup_shuffle_relative --------------------------------- */

/* A lane outside the sub-group (undefined by the extension) reads the
 * caller's own value: sg.shfl's rule for a lane that is not active. */
#define SG_SHUFFLES_RELATIVE(T)                                              \
  SG_OVL T sub_group_shuffle_up(T x, uint delta) {                           \
    return sg_shfl(x, SG_LANE() - delta);                                    \
  }                                                                          \
  SG_OVL T sub_group_shuffle_down(T x, uint delta) {                         \
    return sg_shfl(x, SG_LANE() + delta);                                    \
  }
SG_SHUFFLES_RELATIVE(char)
SG_SHUFFLES_RELATIVE(uchar)
SG_SHUFFLES_RELATIVE(short)
SG_SHUFFLES_RELATIVE(ushort)
SG_SHUFFLES_RELATIVE(int)
SG_SHUFFLES_RELATIVE(uint)
SG_SHUFFLES_RELATIVE(long)
SG_SHUFFLES_RELATIVE(ulong)
SG_SHUFFLES_RELATIVE(float)
SG_SHUFFLES_RELATIVE(double)

/* ---- cl_khr_subgroup_rotate ------------------------------------------- */

/* The lane delta further on, modulo the maximum sub-group size (or within
 * the lane's cluster); delta may be negative, and sizes need not be powers
 * of two. */
static uint rotated(uint first, uint lane, int delta, uint size) {
  long r = ((long)lane + delta) % (long)size;
  return first + (uint)(r < 0 ? r + size : r);
}
#define SG_ROTATE(T)                                                         \
  SG_OVL T sub_group_rotate(T x, int delta) {                                \
    return sg_shfl(x, rotated(0, SG_LANE(), delta, get_max_sub_group_size())); \
  }                                                                          \
  SG_OVL T sub_group_clustered_rotate(T x, int delta, uint clustersize) {    \
    uint lane = SG_LANE(), first = lane - lane % clustersize;                \
    return sg_shfl(x, rotated(first, lane - first, delta, clustersize));     \
  }
SG_ROTATE(char)
SG_ROTATE(uchar)
SG_ROTATE(short)
SG_ROTATE(ushort)
SG_ROTATE(int)
SG_ROTATE(uint)
SG_ROTATE(long)
SG_ROTATE(ulong)
SG_ROTATE(float)
SG_ROTATE(double)

/* ---- cl_khr_subgroup_non_uniform_vote --------------------------------- */

/* Over the active lanes only: sg.vote and sg.ballot see just those, and the
 * lowest of them is the one elected and the one all_equal compares with
 * (== on floating types: NaN equals nothing). */
static uint first_active(void) { return (uint)__builtin_ctzl(ballot64(1)); }
SG_OVL int sub_group_elect(void) { return SG_LANE() == first_active(); }
SG_OVL int sub_group_non_uniform_all(int pred) { return (int)vote_all(pred); }
SG_OVL int sub_group_non_uniform_any(int pred) { return (int)vote_any(pred); }
#define SG_ALL_EQUAL(T)                                                      \
  SG_OVL int sub_group_non_uniform_all_equal(T x) {                          \
    return (int)vote_all(x == sg_shfl(x, first_active()));                   \
  }
SG_ALL_EQUAL(char)
SG_ALL_EQUAL(uchar)
SG_ALL_EQUAL(short)
SG_ALL_EQUAL(ushort)
SG_ALL_EQUAL(int)
SG_ALL_EQUAL(uint)
SG_ALL_EQUAL(long)
SG_ALL_EQUAL(ulong)
SG_ALL_EQUAL(float)
SG_ALL_EQUAL(double)

/* ---- cl_khr_subgroup_ballot ------------------------------------------- */

/* Warps have at most 64 lanes: a ballot fills .x and .y of the uint4. */
static uint4 mask4(ulong m) { return (uint4)((uint)m, (uint)(m >> 32), 0, 0); }
static ulong mask64(uint4 v) { return (ulong)v.x | (ulong)v.y << 32; }

/* Only active lanes of the warp take part: sg.shfl reads an inactive lane
 * as the caller's own value, so the first active lane is found by ballot. */
#define SG_BALLOT_BCAST(T)                                                \
  SG_OVL T sub_group_non_uniform_broadcast(T x, uint lane) {                 \
    return sg_shfl(x, lane);                                                 \
  }                                                                          \
  SG_OVL T sub_group_broadcast_first(T x) {                                  \
    return sg_shfl(x, (uint)__builtin_ctzl(ballot64(1)));                    \
  }                                                                          \
  SG_VEC_2S(sub_group_non_uniform_broadcast, T, T, uint)
SG_BALLOT_BCAST(char)
SG_BALLOT_BCAST(uchar)
SG_BALLOT_BCAST(short)
SG_BALLOT_BCAST(ushort)
SG_BALLOT_BCAST(int)
SG_BALLOT_BCAST(uint)
SG_BALLOT_BCAST(long)
SG_BALLOT_BCAST(ulong)
SG_BALLOT_BCAST(float)
SG_BALLOT_BCAST(double)

SG_OVL uint4 sub_group_ballot(int pred) { return mask4(ballot64(pred)); }

SG_OVL int sub_group_inverse_ballot(uint4 value) {
  return (int)(mask64(value) >> SG_LANE() & 1);
}

SG_OVL int sub_group_ballot_bit_extract(uint4 value, uint index) {
  return index < 64 && (mask64(value) >> index & 1);
}

/* The bit operations consider the bits that can stand for work-items of a
 * sub-group: below get_max_sub_group_size(), also in a partial last
 * sub-group (the CTS's subgroups/subgroup_functions_ballot reads the
 * cl_khr_subgroup_ballot wording so, for the bit counts, scans, find_lsb/msb
 * and the ge/gt/le masks alike). */
static ulong valid(uint4 value) {
  uint n = get_max_sub_group_size();
  return mask64(value) & (n >= 64 ? ~0ul : (1ul << n) - 1);
}

SG_OVL uint sub_group_ballot_bit_count(uint4 value) { return popcount(valid(value)); }

SG_OVL uint sub_group_ballot_inclusive_scan(uint4 value) {
  return popcount(valid(value) & ((2ul << SG_LANE()) - 1)); /* 0 - 1 at lane 63 */
}

SG_OVL uint sub_group_ballot_exclusive_scan(uint4 value) {
  return popcount(valid(value) & ((1ul << SG_LANE()) - 1));
}

SG_OVL uint sub_group_ballot_find_lsb(uint4 value) {
  ulong m = valid(value);
  return m ? (uint)__builtin_ctzl(m) : ~0u;
}

SG_OVL uint sub_group_ballot_find_msb(uint4 value) {
  ulong m = valid(value);
  return m ? 63 - (uint)__builtin_clzl(m) : ~0u;
}

/* Masks of lanes relative to the caller's lane, over the bits valid()
 * keeps. */
static ulong lanes(void) { return valid((uint4)(~0u, ~0u, 0, 0)); }
SG_OVL uint4 get_sub_group_eq_mask(void) { return mask4(1ul << SG_LANE()); }
SG_OVL uint4 get_sub_group_ge_mask(void) { return mask4(lanes() & ~((1ul << SG_LANE()) - 1)); }
SG_OVL uint4 get_sub_group_gt_mask(void) { return mask4(lanes() & ~((2ul << SG_LANE()) - 1)); }
SG_OVL uint4 get_sub_group_le_mask(void) { return mask4(lanes() & ((2ul << SG_LANE()) - 1)); }
SG_OVL uint4 get_sub_group_lt_mask(void) { return mask4((1ul << SG_LANE()) - 1); }
