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
  SG_FLOW_CALL,   /* jal/jalr with a link register: the callee returns to pc + 4 */
  SG_FLOW_RETURN, /* jalr x0, 0(ra) (or t0, the alternate link register) */
  SG_FLOW_LEAVE,  /* other jalr x0: a tail call or indirect jump out of the function
                     (code is built without jump tables, so never within it) */
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

/* Operand layouts (the FMT column of sg_insn.def). x = integer register,
 * f = FP register. */
enum sg_fmt {
  SG_FMT_R,     /* x rd, x rs1, x rs2 */
  SG_FMT_I,     /* x rd, x rs1, imm */
  SG_FMT_SH,    /* x rd, x rs1, shamt */
  SG_FMT_L,     /* x rd, imm(x rs1): integer loads, jalr */
  SG_FMT_S,     /* x rs2, imm(x rs1) */
  SG_FMT_B,     /* x rs1, x rs2, pc + imm */
  SG_FMT_U,     /* x rd, imm[31:12] */
  SG_FMT_J,     /* x rd, pc + imm */
  SG_FMT_FL,    /* f rd, imm(x rs1) */
  SG_FMT_FS,    /* f rs2, imm(x rs1) */
  SG_FMT_R4,    /* f rd, f rs1, f rs2, f rs3 */
  SG_FMT_FR,    /* f rd, f rs1, f rs2 */
  SG_FMT_F1,    /* f rd, f rs1 */
  SG_FMT_FX,    /* x rd, f rs1 */
  SG_FMT_XF,    /* f rd, x rs1 */
  SG_FMT_FC,    /* x rd, f rs1, f rs2 */
  SG_FMT_A,     /* x rd, x rs2, (x rs1) */
  SG_FMT_LR,    /* x rd, (x rs1) */
  SG_FMT_CSR,   /* x rd, csr (imm), x rs1 */
  SG_FMT_CSRI,  /* x rd, csr (imm), uimm (rs1) */
  SG_FMT_FENCE, /* pred, succ (imm) */
  SG_FMT_N,     /* no operands */
  SG_FMT_SFU,   /* f rd, f rs1 [, f rs2]; function number in rm */
  SG_FMT_X1,    /* x rs1 */
  SG_FMT_X2     /* x rd, x rs1 */
};

/* Functional units (the UNIT column of sg_insn.def), for timing mode. */
enum sg_unit {
  SG_UNIT_ALU, SG_UNIT_MUL, SG_UNIT_DIV, SG_UNIT_FPU, SG_UNIT_SFU,
  SG_UNIT_LSU, SG_UNIT_BRANCH, SG_UNIT_CSR, SG_UNIT_SIMT
};

/* Table lookups by op (SG_OP_ILLEGAL included: "illegal", SG_FMT_N, ALU). */
const char *sg_op_name(enum sg_op op);
enum sg_fmt sg_op_fmt(enum sg_op op);
enum sg_unit sg_op_unit(enum sg_op op);
/* Does the op write an integer rd (so rd == x0 discards the result)? */
bool sg_op_writes_x(enum sg_op op);
/* Is bits 14:12 of the op a rounding mode (FP arithmetic and conversions)? */
bool sg_op_has_rm(enum sg_op op);

/* SFU function numbers (funct7 of custom-0, from sg_sfu.def). */
enum sg_sfu_fn {
#define SG_SFU(name, num, arity, ffn, dfn) SG_SFU_##name = num,
#include "sg_sfu.def"
#undef SG_SFU
};
/* Name ("sin") and arity of an SFU function; NULL / 0 when undefined. */
const char *sg_sfu_name(unsigned fn);
unsigned sg_sfu_arity(unsigned fn);

/* SIMT CSRs (docs/isa.md). */
enum {
  SG_CSR_LANE = 0xCC0, SG_CSR_WARP, SG_CSR_WARPSIZE, SG_CSR_NWARP,
  SG_CSR_TID_X, SG_CSR_TID_Y, SG_CSR_TID_Z,
  SG_CSR_NTID_X, SG_CSR_NTID_Y, SG_CSR_NTID_Z,
  SG_CSR_CTAID_X, SG_CSR_CTAID_Y, SG_CSR_CTAID_Z,
  SG_CSR_NCTAID_X, SG_CSR_NCTAID_Y, SG_CSR_NCTAID_Z,
  SG_CSR_PARAMS, SG_CSR_CORE, SG_CSR_TIDLIN
};
/* Name of a CSR the core knows ("fflags", "sg.tid.x"); NULL otherwise. */
const char *sg_csr_name(unsigned csr);

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
/* Decodes the word at pc into *out; false when pc is outside the code. */
bool sg_code_uop(const struct sg_code *code, uint64_t pc, struct sg_uop *out);
/* Reconvergence PC of the branch at pc (SG_RECONV_EXIT when not in the table). */
uint64_t sg_code_reconv(const struct sg_code *code, uint64_t pc);

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
