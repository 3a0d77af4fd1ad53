/* SPDX-License-Identifier: MIT */
/* compiler/devlib: synchronisation (OpenCL C 1.2 s6.12.8-9, 2.0 s6.13.8-9).
 * The work-group barrier is the sg.barrier instruction (docs/isa.md); memory
 * is sequentially consistent in the simulator, so fences only need to stop
 * the compiler from moving memory accesses across them. */
#include "sg_devlib.h"

SG_OVL void barrier(cl_mem_fence_flags flags) {
  __asm__ volatile(SG_INSN_R(SG_BARRIER) ", x0, %0, x0" : : "r"(flags) : "memory");
}

SG_OVL void work_group_barrier(cl_mem_fence_flags flags) { barrier(flags); }

SG_OVL void work_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  (void)scope;
  barrier(flags);
}

#define SG_FENCE(name)                                                       \
  SG_OVL void name(cl_mem_fence_flags flags) {                               \
    (void)flags;                                                             \
    __asm__ volatile("" : : : "memory");                                     \
  }
SG_FENCE(mem_fence)
SG_FENCE(read_mem_fence)
SG_FENCE(write_mem_fence)

SG_OVL void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order,
                                   memory_scope scope) {
  (void)flags, (void)order, (void)scope;
  __asm__ volatile("" : : : "memory");
}
