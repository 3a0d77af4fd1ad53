/* SPDX-License-Identifier: MIT */
/* compiler/devlib: work-item functions (OpenCL C 1.2 s6.12.1, 2.0 s6.13.1).
 * Ids and sizes of the CTA come from the SIMT CSRs; the ND-range's global
 * shape from the launch's parameter block (docs/isa.md). */
#include "sg_devlib.h"

/* Picks one of three per-dimension values, or `other` when dim > 2. */
#define SG_DIM(dim, x, y, z, other)                                          \
  ((dim) == 0 ? (x) : (dim) == 1 ? (y) : (dim) == 2 ? (z) : (other))

#define SG_CSR_DIM(dim, base, other)                                         \
  SG_DIM(dim, SG_CSRR(base##_X), SG_CSRR(base##_Y), SG_CSRR(base##_Z), other)

#define SG_PARAM_DIM(dim, off, other)                                        \
  SG_DIM(dim, SG_PARAM_U64(off), SG_PARAM_U64(off + 8),                      \
         SG_PARAM_U64(off + 16), other)

SG_OVL uint get_work_dim(void) { return SG_PARAM_U32(SG_LI_WORK_DIM); }

SG_OVL size_t get_global_size(uint dim) {
  return SG_PARAM_DIM(dim, SG_LI_GLOBAL_SIZE, 1);
}

SG_OVL size_t get_global_offset(uint dim) {
  return SG_PARAM_DIM(dim, SG_LI_GLOBAL_OFFSET, 0);
}

SG_OVL size_t get_enqueued_local_size(uint dim) {
  return SG_PARAM_DIM(dim, SG_LI_ENQUEUED_LOCAL_SIZE, 1);
}

/* The CTA's real size: smaller than the enqueued one in a partial group. */
SG_OVL size_t get_local_size(uint dim) { return SG_CSR_DIM(dim, SG_CSR_NTID, 1); }

SG_OVL size_t get_local_id(uint dim) { return SG_CSR_DIM(dim, SG_CSR_TID, 0); }

SG_OVL size_t get_group_id(uint dim) { return SG_CSR_DIM(dim, SG_CSR_CTAID, 0); }

SG_OVL size_t get_num_groups(uint dim) { return SG_CSR_DIM(dim, SG_CSR_NCTAID, 1); }

SG_OVL size_t get_global_id(uint dim) {
  return get_group_id(dim) * get_enqueued_local_size(dim) + get_local_id(dim) +
         get_global_offset(dim);
}

/* Work-items of a CTA are numbered x fastest, then y, then z, and warps are
 * cut from that order, so sg.tidlin is the local linear id. */
SG_OVL size_t get_local_linear_id(void) { return SG_CSRR(SG_CSR_TIDLIN); }

SG_OVL size_t get_global_linear_id(void) {
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t z = get_global_id(2) - get_global_offset(2);
  return (z * get_global_size(1) + y) * get_global_size(0) + x;
}
