/* SPDX-License-Identifier: MIT */
/* sim/: the SIMT core. Runs a pre-decoded RV64IMAFD + SIMT-extension program
 * on one CTA at a time. Knows nothing about OpenCL: it sees code, a memory map
 * of host-backed regions, and the ids the device built for each lane. */
#ifndef SG_SIM_H
#define SG_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Status codes used below runtime/ (mapped to CL codes only in runtime/). */
enum sg_status {
  SG_OK = 0,
  SG_ENOMEM,   /* host allocation failed */
  SG_EINVAL,   /* bad argument or configuration */
  SG_EFAULT,   /* the kernel faulted; details in struct sg_fault */
  SG_EBINARY,  /* malformed program binary */
  SG_EBUILD,   /* compilation failed; details in the build log */
  SG_EOPTIONS, /* bad build options */
  SG_ELINK,    /* unresolved symbols or link failure */
  SG_ERESOURCES /* launch needs more than the machine has */
};

/* Largest warp and CTA the sim supports (masks are uint64_t). */
#define SG_MAX_WARP_SIZE 64
#define SG_MAX_CTA_THREADS 1024
#define SG_MAX_CTA_WARPS SG_MAX_CTA_THREADS /* warp size 1 */

/* ---- Instructions ------------------------------------------------------ */

/* One enum entry per line of sg_insn.def (SG_INSN(NAME, MATCH, MASK, FMT,
 * UNIT, "mnemonic")). */
enum sg_op {
#define SG_INSN(name, match, mask, fmt, unit, mnem) SG_OP_##name,
#include "sg_insn.def"
#undef SG_INSN
  SG_OP_ILLEGAL,
  SG_OP_COUNT
};

/* How an instruction moves the PC; what the reconvergence analysis needs. */
enum sg_flow {
  SG_FLOW_NEXT,   /* falls through to pc + 4 */
  SG_FLOW_BRANCH, /* conditional: pc + imm or pc + 4 */
  SG_FLOW_JUMP,   /* jal x0: pc + imm */
  SG_FLOW_CALL,   /* jal ra, callee returns to pc + 4 */
  SG_FLOW_RETURN, /* jalr (return / indirect) */
  SG_FLOW_EXIT    /* sg.exit, or an illegal instruction */
};

struct sg_uop {
  uint16_t op; /* enum sg_op */
  uint8_t rd, rs1, rs2, rs3;
  uint8_t rm;   /* rounding-mode field for FP ops, funct7/3 for custom ops */
  int64_t imm;  /* sign-extended immediate; branch/jal offsets in bytes */
  uint32_t raw; /* the instruction word */
};

/* Decode one word. Unknown encodings give SG_OP_ILLEGAL (never fails). */
void sg_decode(uint32_t word, struct sg_uop *out);
enum sg_flow sg_uop_flow(const struct sg_uop *u);
/* Disassemble into buf ("addi a0, a0, 4", "sg.barrier a0"); returns buf. */
const char *sg_disasm(const struct sg_uop *u, uint64_t pc, char *buf, size_t len);

/* ---- Program ----------------------------------------------------------- */

/* Branch PC -> reconvergence PC (immediate post-dominator). SG_RECONV_EXIT
 * means the branch's post-dominator is the function exit: the paths never
 * rejoin before the lanes exit or return. */
#define SG_RECONV_EXIT UINT64_MAX
struct sg_reconv {
  uint64_t branch_pc;
  uint64_t reconv_pc;
};

struct sg_code; /* pre-decoded program: uops + reconvergence table */

/* words: the code bytes (little-endian 32-bit words) loaded at device
 * address base. The table is copied; entries must name conditional branches
 * inside the code (else SG_EBINARY). */
enum sg_status sg_code_create(const uint32_t *words, size_t nwords, uint64_t base,
                              const struct sg_reconv *table, size_t ntable,
                              struct sg_code **out);
void sg_code_destroy(struct sg_code *code);

/* ---- Memory ------------------------------------------------------------ */

enum { SG_PERM_R = 1, SG_PERM_W = 2, SG_PERM_X = 4 };

/* A device address window backed by host memory. */
struct sg_region {
  uint64_t base, size;
  uint8_t *host;
  uint32_t perm;     /* SG_PERM_* */
  const char *name;  /* "local", "stack", "buffer arg 2", ... for fault text */
};

/* Regions sorted by base, non-overlapping. Address 0 is never mapped. */
struct sg_memmap {
  const struct sg_region *regions;
  uint32_t count;
};

/* ---- Launching one CTA ------------------------------------------------- */

/* Values of the SIMT CSRs (docs/isa.md) and initial state of one CTA, built
 * by device/ (ids x fastest, then y, then z; warp w holds threads
 * w*warp_size .. w*warp_size+warp_size-1). */
struct sg_cta_desc {
  uint64_t entry_pc;
  uint32_t ctaid[3], nctaid[3];
  uint32_t ntid[3];       /* this CTA's local size (partial groups: smaller) */
  uint32_t num_threads;   /* ntid[0]*ntid[1]*ntid[2] */
  uint32_t num_warps;     /* ceil(num_threads / warp_size) */
  uint64_t init_mask[SG_MAX_CTA_WARPS]; /* per warp: lanes that run; others never execute */
  uint64_t params_addr;   /* CSR sg.params */
  uint64_t stack_base;    /* thread t: sp = stack_base + (t + 1) * stack_size */
  uint32_t stack_size;    /* bytes per thread, multiple of 16 */
  uint32_t core_id;
};

/* What the sim needs of the machine configuration. */
struct sg_sim_config {
  uint32_t warp_size;        /* 1..64 */
  uint64_t watchdog_insns;   /* warp instructions per CTA before a watchdog fault; 0 = none */
};

struct sg_stats {
  uint64_t warp_insns;        /* warp instructions issued */
  uint64_t thread_insns;      /* sum of active lanes over issued instructions */
  uint64_t lane_slots;        /* warp_insns * warp_size */
  uint64_t branches;          /* conditional branches executed (per warp) */
  uint64_t divergent_branches;/* of which the active lanes disagreed */
  uint64_t barriers;          /* CTA-wide barrier releases */
  uint64_t ctas, warps;       /* launched */
};
void sg_stats_add(struct sg_stats *into, const struct sg_stats *from);

enum sg_fault_kind {
  SG_FAULT_NONE,
  SG_FAULT_UNMAPPED,      /* load/store/AMO outside any region (null page included) */
  SG_FAULT_READ_ONLY,     /* store/AMO to a region without SG_PERM_W */
  SG_FAULT_MISALIGNED,    /* misaligned atomic (plain loads/stores may be misaligned) */
  SG_FAULT_ILLEGAL_INSN,  /* undecodable word, ecall/ebreak, CSR write, ... */
  SG_FAULT_FETCH,         /* PC outside the code */
  SG_FAULT_DIVERGENT_JUMP,/* jalr whose active lanes disagree on the target */
  SG_FAULT_BARRIER_DIVERGENCE, /* barrier reached by part of a warp / CTA */
  SG_FAULT_WATCHDOG       /* ran past sg_sim_config.watchdog_insns */
};

struct sg_fault {
  enum sg_fault_kind kind;
  uint64_t pc;
  uint64_t addr;      /* faulting data address (memory faults) */
  uint32_t size;      /* access size in bytes (memory faults) */
  uint32_t warp, lane;
  uint32_t thread;    /* linear thread id in the CTA: warp * warp_size + lane */
  uint32_t tid[3];    /* the thread's local id */
  char what[160];     /* one sentence: "store of 4 bytes to unmapped address 0x0" */
};

/* Per-host-thread scratch state (warps, registers, SIMT stacks) for CTAs of
 * up to SG_MAX_CTA_THREADS threads; reused across CTAs. */
struct sg_core;
enum sg_status sg_core_create(const struct sg_sim_config *cfg, struct sg_core **out);
void sg_core_destroy(struct sg_core *core);

/* Runs one CTA to completion. Returns SG_OK, or SG_EFAULT with *fault filled
 * (the first fault stops the CTA). Adds to *stats (ctas, warps included). */
enum sg_status sg_core_run_cta(struct sg_core *core, const struct sg_code *code,
                               const struct sg_cta_desc *cta,
                               const struct sg_memmap *mem, struct sg_stats *stats,
                               struct sg_fault *fault);

#endif
