/* SPDX-License-Identifier: MIT */
/* sim/: the SIMT core. Runs a pre-decoded RV64IMAFD + SIMT-extension program
 * on one CTA at a time. Knows nothing about OpenCL: it sees code, a memory map
 * of host-backed regions, and the ids the device built for each lane. */
#ifndef SG_SIM_H
#define SG_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

/* ---- Environment (sg_env.def: SG_ENV(NAME, "option", "ARG", kind, "help")) */

/* What a variable's value is, so tools can check it before setting it. */
enum sg_env_kind {
  SG_ENV_KIND_CONFIG, /* a configuration spec, as sg_config_load takes */
  SG_ENV_KIND_COUNT,  /* a number 1..1024 */
  SG_ENV_KIND_TEXT,   /* anything: the library explains what it ignores */
  SG_ENV_KIND_FLAG    /* set ("1") or not */
};
enum sg_env_var {
#define SG_ENV(name, option, arg, kind, help) SG_ENV_##name,
#include "sg_env.def"
#undef SG_ENV
  SG_ENV_NUM
};
/* getenv of SOFTGPU_<NAME>: every variable the library reads goes through
 * here, so sg_env.def is the whole list. */
static inline const char *sg_env_get(enum sg_env_var var) {
  static const char *const names[] = {
#define SG_ENV(name, option, arg, kind, help) "SOFTGPU_" #name,
#include "sg_env.def"
#undef SG_ENV
  };
  return getenv(names[var]);
}

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
  uint8_t unit; /* enum sg_unit: sg_op_unit(op), which every record names */
  uint8_t mem, size; /* its access, sg_op_access(op): enum sg_mem_kind, bytes per lane */
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
  SG_FMT_X2,    /* x rd, x rs1 */
  SG_FMT_MARK,  /* mark (funct7, in rm), x rs1, x rs2 */
  SG_FMT_TX,    /* x rd:rd+1, x rs1, x rs2:rs2+1 [, x rs3]: texture reads (pairs: even, not x0) */
  SG_FMT_TXS    /* x rd:rd+1 (read), x rs1, x rs2:rs2+1: texture stores */
};

/* Functional units (the UNIT column of sg_insn.def), for timing mode. */
enum sg_unit {
  SG_UNIT_ALU, SG_UNIT_MUL, SG_UNIT_DIV, SG_UNIT_FPU, SG_UNIT_SFU,
  SG_UNIT_LSU, SG_UNIT_BRANCH, SG_UNIT_CSR, SG_UNIT_SIMT, SG_UNIT_TEX
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

/* What an sg.mark marks (funct7 of custom-1 funct3 1, from sg_mark.def). */
enum sg_mark_kind {
#define SG_MARK(name, num, role, args) SG_MARK_##name = num,
#include "sg_mark.def"
#undef SG_MARK
};
enum sg_mark_role { SG_MARK_NONE, SG_MARK_WG, SG_MARK_SG, SG_MARK_MORE, SG_MARK_END };
/* Name ("work_group_reduce_add") and role of a mark; NULL / SG_MARK_NONE
 * when undefined. */
const char *sg_mark_name(unsigned kind);
enum sg_mark_role sg_mark_role(unsigned kind);

/* CSR numbers (sg_csr.def, docs/isa.md). */
enum {
#define SG_CSR(name, num, text, per_lane) SG_CSR_##name = num,
#include "sg_csr.def"
#undef SG_CSR
};
/* Name of a CSR the core knows ("fflags", "sg.tid.x"); NULL otherwise. */
const char *sg_csr_name(unsigned csr);

/* ---- Texture unit (sg_tex.c, sg_tex.def, docs/isa.md) -------------------- */

/* The image descriptor an image instruction's rs1 points to. */
#define SG_TEX_FIELD_U32 uint32_t
#define SG_TEX_FIELD_U64 uint64_t
struct sg_tex_desc {
#define SG_TEX_DESC(name, type, what) SG_TEX_FIELD_##type name;
#include "sg_tex.def"
#undef SG_TEX_DESC
};
enum sg_tex_geom {
#define SG_TEX_GEOM(name, dims, layer) SG_TEX_GEOM_##name,
#include "sg_tex.def"
#undef SG_TEX_GEOM
  SG_TEX_NUM_GEOMS
};
enum sg_tex_type {
#define SG_TEX_TYPE(name, bytes, cls) SG_TEX_TYPE_##name,
#include "sg_tex.def"
#undef SG_TEX_TYPE
  SG_TEX_NUM_TYPES
};
enum sg_tex_order {
#define SG_TEX_ORDER(name, layout, border_alpha, srgb) SG_TEX_ORDER_##name,
#include "sg_tex.def"
#undef SG_TEX_ORDER
  SG_TEX_NUM_ORDERS
};
/* The sampler word (rs3 of sg.tex.sample/samplei; docs/isa.md): bit 0
 * normalized coordinates, bits 3:1 the addressing mode, bits 5:4 the
 * filter. The same bits as OpenCL C's CLK_* sampler values. */
enum {
  SG_TEX_NORMALIZED = 0x01,
  SG_TEX_ADDR_NONE = 0x00,
  SG_TEX_ADDR_CLAMP_TO_EDGE = 0x02,
  SG_TEX_ADDR_CLAMP = 0x04,
  SG_TEX_ADDR_REPEAT = 0x06,
  SG_TEX_ADDR_MIRRORED_REPEAT = 0x08,
  SG_TEX_ADDR_MASK = 0x0e,
  SG_TEX_NEAREST = 0x10,
  SG_TEX_LINEAR = 0x20,
  SG_TEX_FILTER_MASK = 0x30
};
/* What an image instruction's register pair holds (funct2): four 32-bit
 * floats, signed or unsigned integers. */
enum sg_tex_kind { SG_TEX_KIND_FLOAT, SG_TEX_KIND_INT, SG_TEX_KIND_UINT };
/* Texels one lane of one instruction touches at most (linear filtering of a
 * 3D image). */
#define SG_TEX_MAX_TEXELS 8
/* Can register r start a pair (rd:rd+1, rs2:rs2+1)? Even, and not x0. */
static inline bool sg_pair_reg(unsigned r) { return r != 0 && (r & 1) == 0; }
/* Bytes of one texel of format (type | order << 8); 0 for a combination the
 * unit does not know. */
uint32_t sg_tex_texel_size(uint32_t format);
/* Writes value (R, G, B, A: the bits of floats, or 32-bit integers, as the
 * format's channel type takes them) as one texel of format, converted as
 * sg.tex.store converts it. Returns the texel's size (0: no such format,
 * nothing written). */
uint32_t sg_tex_encode(uint32_t format, const uint32_t value[4], uint8_t *texel);

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
/* Registers a lane needs for this code: the x and f registers any of its
 * instructions names (x0 aside). */
uint32_t sg_code_registers(const struct sg_code *code);
/* A number no other program created in this process has (a program built
 * at the address of a released one included). */
uint64_t sg_code_id(const struct sg_code *code);

/* ---- Memory ------------------------------------------------------------ */

enum {
  SG_PERM_R = 1,
  SG_PERM_W = 2,
  SG_PERM_X = 4,
  /* A store without SG_PERM_W lands all the same, and is reported (a buffer
   * the host created read-only: GPUs perform the write). */
  SG_PERM_STORE_REPORTED = 8,
  /* Private stacks: one slot per work-item of the CTA (sg_cta_desc.stack_*);
   * a lane touching outside its own slot is a stack overflow. */
  SG_PERM_PRIVATE = 16,
  /* A load without SG_PERM_R reads all the same, and is reported (a buffer
   * the host created write-only: GPUs do not enforce it). */
  SG_PERM_LOAD_REPORTED = 32
};

/* What a region holds, for the consumers of instruction records (timing
 * sends each to its own path through the memory hierarchy). */
enum sg_space {
  SG_SPACE_NONE,     /* unmapped */
  SG_SPACE_GLOBAL,   /* global buffers, program-scope variables */
  SG_SPACE_CONSTANT, /* code, read-only data, the parameter block */
  SG_SPACE_LOCAL,    /* the CTA's local memory */
  SG_SPACE_PRIVATE   /* the work-items' stacks */
};

/* A device address window backed by host memory. */
struct sg_region {
  uint64_t base, size;
  uint8_t *host;
  uint32_t perm;     /* SG_PERM_* */
  const char *name;  /* "local", "stack", "buffer arg 2", ... for fault text */
  enum sg_space space;
};

/* Regions sorted by base, non-overlapping. Address 0 is never mapped.
 * gen: a number no other map (or other contents of the same array) has, so
 * the core may keep what it looked up in it from one CTA to the next; 0
 * when the map does not say. */
struct sg_memmap {
  const struct sg_region *regions;
  uint32_t count;
  uint64_t gen;
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

/* Reconvergence policies (DESIGN.md section 4), chosen by configuration
 * (config key `reconv`): the IPDOM SIMT stack (GPGPU-Sim, Vortex, seeds 001
 * and 003) and multi-path IPDOM (seed 002; ElTantawy et al., HPCA 2014).
 * X(ENUM, name): one line per policy; the order is the config value. */
#define SG_RECONV_POLICIES(X) X(IPDOM, ipdom) X(MPIPDOM, mpipdom)
enum sg_reconv_policy {
#define X(e, n) SG_RECONV_##e,
  SG_RECONV_POLICIES(X)
#undef X
  SG_RECONV_NUM_POLICIES
};

/* Warp scheduling policies of the timing mode (config key `sched`):
 * loose round robin, greedy then oldest, two-level, Vortex's masks. */
#define SG_SCHED_POLICIES(X) X(LRR, lrr) X(GTO, gto) X(TWO_LEVEL, two_level) X(VORTEX, vortex)
enum sg_sched_policy {
#define X(e, n) SG_SCHED_##e,
  SG_SCHED_POLICIES(X)
#undef X
  SG_SCHED_NUM
};

/* "lrr", "gto", ...; NULL for a value that is not a policy. */
const char *sg_sched_policy_name(uint32_t policy);

/* "ipdom", "mpipdom"; NULL for a value that is not a policy. */
const char *sg_reconv_policy_name(enum sg_reconv_policy policy);

/* Functional-mode engines (config key `engine`, docs/engine.md): the
 * interpreter, and translated blocks (LLVM ORC JIT) with the interpreter
 * for the rest. Same results, same findings. */
#define SG_ENGINES(X) X(INTERP, interp) X(JIT, jit)
enum sg_engine {
#define X(e, n) SG_ENGINE_##e,
  SG_ENGINES(X)
#undef X
  SG_NUM_ENGINES
};

/* What the sim needs of the machine configuration. */
struct sg_sim_config {
  uint32_t warp_size;        /* 1..64 */
  uint64_t watchdog_insns;   /* warp instructions per CTA before a watchdog fault; 0 = none */
  bool strict;               /* every finding ends the CTA, as fatal faults do */
  enum sg_reconv_policy reconv;
  /* Timing mode: warp and CTA slots of a core (0: as many as one CTA needs,
   * one CTA at a time), and atomics on global memory performed later, at
   * the memory model's L2 (sg_core_atomic_complete), not when they issue. */
  uint32_t warp_slots, cta_slots;
  bool defer_global_atomics;
  enum sg_sched_policy sched; /* timing mode */
  enum sg_engine engine;     /* used by the fast loop only: consumers see the interpreter */
  uint64_t jit_threshold;    /* warp instructions a kernel runs interpreted before translation */
  bool debug;                /* SOFTGPU_DEBUG: the JIT says what it translated, or why not */
};

/* ---- Statistics (sg_stats.def) ----------------------------------------- */

struct sg_stats {
#define SG_STAT(name, kind, help) uint64_t name;
#include "sg_stats.def"
#undef SG_STAT
};
/* Adds from into into (MAX counters: the larger). */
void sg_stats_add(struct sg_stats *into, const struct sg_stats *from);
/* The counters as JSON members ("warp_insns":12,...), with simd_efficiency
 * derived; no braces, so callers can add their own members. */
void sg_stats_print_json(const struct sg_stats *s, FILE *out);

/* ---- Observing the core: one record per warp instruction ---------------- */

/* Everything a consumer (statistics, traces, checkers, the timing model)
 * learns about one executed warp instruction. Filled only when a consumer
 * is attached (the execute loop is built twice: with and without). */
enum sg_mem_kind { SG_MEM_NONE, SG_MEM_LOAD, SG_MEM_STORE, SG_MEM_ATOMIC };
/* What op does to memory, and *size: the bytes per lane (0 when nothing). */
enum sg_mem_kind sg_op_access(enum sg_op op, uint32_t *size);
struct sg_insn_record {
  uint64_t time;             /* the core's clock: warp instructions it ran (functional) */
  uint64_t cta;              /* linear CTA index (x fastest) */
  uint32_t core, warp;       /* simulated core; warp index in the CTA */
  uint64_t pc;
  const struct sg_uop *uop;
  uint64_t mask;             /* lanes that executed it */
  enum sg_unit unit;
  /* memory instructions */
  enum sg_mem_kind mem;
  enum sg_space space;       /* region of the lowest active lane's address */
  uint32_t size;             /* bytes per lane */
  uint64_t addr[SG_MAX_WARP_SIZE]; /* per active lane */
  uint64_t lo, hi, bits;     /* the lowest and highest of addr[], and all of them or-ed */
  /* Per active lane: the value a load read or a store wrote (size bytes,
   * zero-extended; atomics: deferred ones their operand, see below);
   * sg.barrier: its fence flags (rs1), when a consumer asks for them
   * (sg_hook.fence_flags); sg.mark: its two arguments (rs1, rs2). */
  uint64_t data[SG_MAX_WARP_SIZE], data2[SG_MAX_WARP_SIZE];
  /* conditional branches */
  uint64_t taken;            /* lanes that took it */
  uint64_t reconv_pc;        /* when they diverged: where they rejoin (SG_RECONV_EXIT: never) */
  /* sg.barrier */
  uint32_t barrier;          /* the barrier: the CTA's slot on the core */
  /* atomics on global memory under defer_global_atomics: checked, not yet
   * performed; data holds each lane's operand (rs2) */
  bool deferred;
  /* the texture unit (SG_UNIT_TEX): every texel each active lane read or
   * wrote, for a texture cache (mem, size and addr above give the first
   * one); lanes that read only the border color touch none */
  uint8_t texels[SG_MAX_WARP_SIZE];
  uint64_t texel_addr[SG_MAX_WARP_SIZE][SG_TEX_MAX_TEXELS];
};

/* What happens between instructions. */
enum sg_event_kind {
  SG_EV_CTA_START,   /* arg: warps of the CTA; arg2: its first warp slot on the core */
  SG_EV_CTA_END,     /* arg: 1 when a fault ended it */
  SG_EV_WARP_END,    /* every lane of the warp exited */
  SG_EV_BARRIER_WAIT,    /* a warp arrived at barrier `arg` (pc: the barrier) */
  SG_EV_BARRIER_RELEASE, /* barrier `arg` released every warp waiting at it (warp: -1) */
  SG_EV_PATHS,       /* a divergent branch at pc made arg new paths (mask: the lanes) */
  SG_EV_RECONVERGE,  /* lanes `mask` rejoined others at pc */
  SG_EV_PATH_SWITCH, /* the warp set its running path aside for the one at pc (mask) */
  SG_EV_PATH_COUNT   /* the warp now has arg paths and arg2 reconvergence entries */
};
struct sg_event {
  enum sg_event_kind kind;
  uint64_t time;
  uint64_t cta;
  uint32_t core, warp;
  uint64_t pc, mask, arg, arg2;
  const struct sg_cta_desc *desc; /* SG_EV_CTA_START: the CTA's ids and shape */
};

/* ---- Following translated blocks (docs/engine.md) ------------------------ */

/* A consumer whose view of an instruction does not depend on its lanes'
 * values (only on its operands' registers, its active lanes and where its
 * memory accesses fall) can follow the translated fast path a
 * block at a time instead of a record per instruction: it offers
 * sg_block_ops, and the core then runs translated blocks with it attached.
 *
 * A block is straight-line code run by a warp's active lanes (docs/
 * engine.md, "What a block is"). Before each of its memory instructions
 * the block has the lowest and highest address of those lanes; the
 * consumer's limit for the instruction says whether that is enough for it. */
struct sg_block_limit {
  /* The instruction runs in the block only when every active lane's
   * address lies in [lo, lo + span] and none has a bit of align set;
   * otherwise the block stops before it and the observed interpreter runs
   * it, with its record. */
  uint64_t lo, span, align;
  /* Non-zero: call note first, unless every lane's address is quiet (an
   * address the consumer has seen; 0, in the unmapped null page, is none). */
  uint32_t note;
  uint64_t quiet;
};
struct sg_hook;
/* A memory instruction of a block whose limit asks for a note. */
struct sg_block_access {
  uint64_t pc;
  const struct sg_uop *uop;
  uint32_t index;          /* in the block */
  uint64_t lo, hi;         /* the lowest and highest address of the active lanes */
  uint32_t lane;           /* the lowest active lane, and its address: */
  uint64_t first;
};
/* Blocks hold at most this many instructions (docs/engine.md). */
#define SG_BLOCK_MAX 512
/* The limits of a consumer that lets every access of a block run (enter
 * may return them). */
extern const struct sg_block_limit sg_block_unlimited[SG_BLOCK_MAX];
/* What a block's memory instructions did, for consumers that follow blocks
 * and ask for it (sg_block_ops.accesses): the accesses that ran, in order,
 * by the lanes the block ran (sg_block_ops.enter's mask; the others' slots
 * hold anything). */
struct sg_block_mem {
  uint32_t index;         /* the instruction's index in the block */
  enum sg_space space;    /* region of its lowest address */
  uint64_t lo, hi;        /* the lowest and highest of the active lanes' addresses */
  uint64_t addr[SG_MAX_WARP_SIZE];
  uint64_t data[SG_MAX_WARP_SIZE]; /* the register stored, or loaded: its low bytes */
};
struct sg_block_log {
  uint32_t n;
  struct sg_block_mem mem[SG_BLOCK_MAX];
};
struct sg_block_ops {
  /* Block uops[0 .. len) at pc is about to run on the lanes of mask of
   * warp `warp` of the resident CTA, its first instruction at `time`
   * (sg_insn_record.time; the others follow one by one). Returns the
   * limits of its memory instructions, indexed by their index in the block
   * (NULL: the block does not run; the interpreter takes its first
   * instruction). Of several consumers, one at most may limit a block
   * (return other limits than sg_block_unlimited); when two do, the
   * interpreter runs it with its records. Every enter has its leave. */
  const struct sg_block_limit *(*enter)(struct sg_hook *self, uint32_t warp, uint64_t pc,
                                        const struct sg_uop *uops, uint32_t len, uint64_t time,
                                        uint64_t mask);
  /* The block is at memory instruction a->index, within its limit, whose
   * limit asked for a note: returns the limits from there on (NULL: stop
   * the block before the instruction). */
  const struct sg_block_limit *(*note)(struct sg_hook *self, const struct sg_block_access *a);
  /* The block ran its first `ran` instructions (0: it did not run); the
   * next, if any, runs in the interpreter. log: its memory accesses, for a
   * consumer that asks (NULL otherwise). */
  void (*leave)(struct sg_hook *self, uint32_t ran, const struct sg_block_log *log);
  bool accesses; /* leave wants the log */
};

/* A consumer embeds this as its first member; the core calls insn for every
 * warp instruction and event for every event, on the host thread running the
 * core. Either may be NULL. events: the kinds of event it wants, as bits
 * (SG_EV_BIT); 0 for all. block: NULL for a consumer that needs the record
 * of every instruction (with one attached, the core runs no translated
 * code; with every consumer following blocks, it runs them). */
#define SG_EV_BIT(kind) (1u << (kind))
struct sg_hook {
  void (*insn)(struct sg_hook *self, const struct sg_insn_record *r);
  void (*event)(struct sg_hook *self, const struct sg_event *e);
  const struct sg_block_ops *block;
  uint32_t events;
  bool fence_flags; /* reads an sg.barrier record's data (filled only then) */
};

/* The statistics consumer: counts into stats. */
struct sg_stats_hook {
  struct sg_hook hook;
  uint32_t warp_size;
  struct sg_stats stats;
};
void sg_stats_hook_init(struct sg_stats_hook *h, uint32_t warp_size);

/* ---- Device findings (sg_fault.def) -------------------------------------- */

enum sg_fault_kind {
#define SG_FAULT(name, fatal, what) SG_FAULT_##name,
#include "sg_fault.def"
#undef SG_FAULT
  SG_FAULT_COUNT
};
/* Does a GPU survive this kind of finding (sg_fault.def)? Name ("UNMAPPED")
 * and description of a kind. */
bool sg_fault_fatal(enum sg_fault_kind kind);
const char *sg_fault_name(enum sg_fault_kind kind);
const char *sg_fault_text(enum sg_fault_kind kind);

struct sg_fault {
  enum sg_fault_kind kind;
  uint64_t pc;
  uint64_t addr;      /* faulting data address (memory faults) */
  uint32_t size;      /* access size in bytes (memory faults) */
  uint32_t warp, lane;
  uint32_t thread;    /* linear thread id in the CTA: warp * warp_size + lane */
  uint32_t tid[3];    /* the thread's local id */
  /* A finding about two accesses (a data race) names the other one too:
   * its instruction and work-item. pc 0 when there is none (no code lies
   * at address 0). Reports describe it like the first (sg_cta_dispatch.c). */
  struct sg_fault_other {
    uint64_t pc;
    uint32_t ctaid[3], tid[3];
  } other;
  char what[256];     /* one sentence: "store of 4 bytes to unmapped address 0x0" */
};

/* Findings that did not end the CTA, one site per (kind, PC, other PC) with how often
 * it happened and its first work-item: the lowest CTA (linear index), then
 * the lowest thread, so the report does not depend on which host thread ran
 * what. At most SG_FINDINGS_MAX sites; later sites are only counted. */
#define SG_FINDINGS_MAX 256
struct sg_finding_site {
  struct sg_fault first;
  uint32_t ctaid[3];  /* CTA of `first` */
  uint64_t cta;       /* its linear index (x fastest) */
  uint64_t count;
};
struct sg_findings {
  struct sg_finding_site *site;
  uint32_t count, cap;
  uint64_t lost; /* occurrences at sites past SG_FINDINGS_MAX */
};
/* The site of (kind, pc, other_pc), created when new (NULL when the table
 * is full or out of memory: the occurrence goes to `lost`). */
struct sg_finding_site *sg_findings_site(struct sg_findings *f, enum sg_fault_kind kind,
                                         uint64_t pc, uint64_t other_pc);
/* Adds src->count occurrences at the site of src->first (src becomes the
 * site's first work-item when it comes earlier). */
void sg_findings_add(struct sg_findings *f, const struct sg_finding_site *src);
/* Adds every site of from into into (keeping the lower first work-item). */
void sg_findings_merge(struct sg_findings *into, const struct sg_findings *from);
/* Sorts the sites by first work-item, then PC. */
void sg_findings_sort(struct sg_findings *f);
void sg_findings_clear(struct sg_findings *f); /* keeps the storage */
void sg_findings_free(struct sg_findings *f);

/* ---- The simulated core ------------------------------------------------- */

/* A simulated core (compute unit): warp slots, the CTAs resident on it with
 * their barriers, the reconvergence state of each warp, and the consumers
 * attached to it. Not thread-safe: one host thread runs a core at a time. */
struct sg_core;
/* id: the core's number (consumers see it in records). */
enum sg_status sg_core_create(const struct sg_sim_config *cfg, uint32_t id,
                              struct sg_core **out);
void sg_core_destroy(struct sg_core *core);
/* Attaches consumers (NULL, 0: none). With none the core runs its fast
 * loop, which fills no records; with any, the observed loop. The array must
 * outlive the runs. */
void sg_core_set_hooks(struct sg_core *core, struct sg_hook *const *hooks, uint32_t count);

/* A consumer's finding about the CTA the core is running (warp and lane
 * of that CTA, pc of the instruction or event it concerns), under the
 * diagnostics rule (sg_fault.def) like the core's own: a survivable one is
 * counted at its site with its first work-item and true is returned; a
 * fatal one, or any one under strict checking, fills the CTA's fault and
 * returns false, and the core stops the CTA after the current instruction
 * (sg_core_run_cta then returns SG_EFAULT). Call it from a hook. */
bool sg_core_finding(struct sg_core *core, uint32_t warp, unsigned lane, uint64_t pc,
                     enum sg_fault_kind kind, uint64_t addr, uint32_t size, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
/* The same for a finding about two accesses (a data race): the site is
 * (kind, pc, other->pc), so each pair of instructions is reported once. */
bool sg_core_finding_pair(struct sg_core *core, uint32_t warp, unsigned lane, uint64_t pc,
                          const struct sg_fault_other *other, enum sg_fault_kind kind,
                          uint64_t addr, uint32_t size, const char *fmt, ...)
    __attribute__((format(printf, 9, 10)));

/* The core runs its CTAs in the default FP environment (round to nearest,
 * no traps) and gives the host thread its own back after each; a caller
 * that runs many may hold it around them instead (the environment is a few
 * hundred cycles to save and restore, as much as a small CTA). */
void sg_core_hold_fp(struct sg_core *core);
void sg_core_release_fp(struct sg_core *core);

/* Runs one CTA to completion on the core (functional mode). Findings a GPU
 * survives go to *findings (the lanes go on: loads read zero, stores are
 * dropped); a fatal one, or any one when findings is NULL or the config is
 * strict, stops the CTA: SG_EFAULT with *fault filled. */
enum sg_status sg_core_run_cta(struct sg_core *core, const struct sg_code *code,
                               const struct sg_cta_desc *cta,
                               const struct sg_memmap *mem, struct sg_findings *findings,
                               struct sg_fault *fault);

/* ---- Driving the core one warp instruction at a time (timing mode) ------- */

/* A timing model keeps several CTAs resident on a core (cta_slots, each a
 * run of free warp slots out of warp_slots) and decides when each warp
 * issues; the core executes the instruction when it does (functional
 * first, as Vortex SimX) and hands its record to the consumers, the timing
 * model being one. Warp slots are numbered 0 .. warp_slots - 1. */
enum sg_warp_status {
  SG_WS_FREE,    /* no CTA's warp in this slot */
  SG_WS_READY,   /* has an instruction to run */
  SG_WS_BARRIER, /* waits at its CTA's barrier */
  SG_WS_DONE,    /* every lane exited; its CTA still runs */
  SG_WS_FAULT    /* a fault ended its CTA (sg_core_bind's fault) */
};
struct sg_next_insn {
  uint64_t pc, mask;
  const struct sg_uop *uop;
};

/* For a launch: the code, where findings go (NULL: every finding is fatal)
 * and the fault that ends a CTA. */
void sg_core_bind(struct sg_core *core, const struct sg_code *code,
                  struct sg_findings *findings, struct sg_fault *fault);
/* Places CTA cta (with its view of memory, mem; both must outlive the CTA)
 * in a free CTA slot and free warp slots, and returns the CTA slot; -1
 * when there is no room; SG_EINVAL-like misuse (a bad descriptor) gives
 * -2. The descriptor's warps take warp slots first_warp .. + num_warps. */
int32_t sg_core_cta_place(struct sg_core *core, const struct sg_cta_desc *cta,
                          const struct sg_memmap *mem, uint32_t *first_warp);
/* The core's clock for the records and events consumers see. */
void sg_core_set_time(struct sg_core *core, uint64_t now);
/* What warp slot w runs next (settling reconvergence first). */
enum sg_warp_status sg_core_warp_next(struct sg_core *core, uint32_t w, struct sg_next_insn *next);
/* Runs warp slot w's next instruction; consumers get its record. */
enum sg_warp_status sg_core_warp_step(struct sg_core *core, uint32_t w);
/* Multi-path IPDOM: sets w's running path aside for another that can run;
 * false when there is none (IPDOM: paths run one at a time). */
bool sg_core_warp_yield(struct sg_core *core, uint32_t w);
/* Ends the launch at warp slot w's next instruction with a fault of `kind`
 * saying `what` (the timing model's watchdog). */
void sg_core_warp_stop(struct sg_core *core, uint32_t w, enum sg_fault_kind kind,
                       const char *what);
/* Barrier table: CTA slot s's barrier has every running warp waiting;
 * release it (false: a finding about it ended the CTA). */
bool sg_core_cta_barrier_full(const struct sg_core *core, uint32_t s);
bool sg_core_cta_release(struct sg_core *core, uint32_t s);
/* CTA slot s: every warp done? Then the slot and its warps are freed. */
bool sg_core_cta_finish(struct sg_core *core, uint32_t s);
/* Performs a deferred atomic (record r of warp slot w) lane by lane, in
 * lane order, and writes the lanes' rd. */
void sg_core_atomic_complete(struct sg_core *core, uint32_t w, const struct sg_insn_record *r);

/* ---- Timing mode (sg_timing_config.def, sg_timing_stats.def) ------------ */

struct sg_timing_config {
#define SG_TCFG(name, type, def, help) type name;
#include "sg_timing_config.def"
#undef SG_TCFG
};
/* Is the machine consistent? NULL if so; else the name of the offending
 * key, with why in `why` ("zero latency", "an L1 line smaller than a
 * sector", "more schedulers than warps", ...). warp_slots: the warps a core
 * holds in timing mode (0: not checked against the schedulers). */
const char *sg_timing_config_check(const struct sg_timing_config *t, uint32_t warp_size,
                                   uint32_t warp_slots, char *why, size_t len);

enum sg_stall {
#define SG_STALL(name, text) SG_STALL_##name,
#include "sg_timing_stats.def"
#undef SG_STALL
  SG_NUM_STALLS
};
const char *sg_stall_name(enum sg_stall s); /* "ISSUED", "RAW_MEM", ... */

struct sg_timing_stats {
#define SG_TSTAT(name, kind, help) uint64_t name;
#include "sg_timing_stats.def"
#undef SG_TSTAT
  uint64_t stalls[SG_NUM_STALLS]; /* scheduler slots by what they did */
};
/* Adds from into into (MAX counters: the larger). */
void sg_timing_stats_add(struct sg_timing_stats *into, const struct sg_timing_stats *from);

/* What a timed launch measured: the totals, each core's counters, the
 * occupancy and a time series sampled every sample_cycles. */
struct sg_timing_result {
  struct sg_timing_stats total;
  struct sg_timing_stats *core; /* cores entries */
  uint32_t cores, sched_per_core, dram_channels;
  uint32_t ctas_per_core;       /* CTAs one core held at once at most */
  const char *occupancy_limit;  /* what bounded it: "cta_slots", "warp slots", ... */
  uint64_t host_cpu_ns;         /* CPU time the host threads spent simulating it */
  uint32_t sample_cycles, nsamples;
  uint32_t *sample_issued;      /* warp instructions issued in each interval, all cores */
  uint32_t *sample_warps;       /* warps resident at the end of each interval, all cores */
};
void sg_timing_result_free(struct sg_timing_result *r);
/* The result as JSON members ("cycles":..., "ipc":..., "stalls":{...},
 * "cores":[...], "samples":{...}); no braces. */
void sg_timing_result_print_json(const struct sg_timing_result *r, FILE *out);

/* The timed machine: cores with their pipelines, the L2 and DRAM. */
struct sg_gpu;
enum sg_status sg_gpu_create(const struct sg_sim_config *sim, const struct sg_timing_config *t,
                             uint32_t cores, struct sg_gpu **out);
void sg_gpu_destroy(struct sg_gpu *g);

/* One launch. A dispatcher gives the CTAs in order to the cores with room
 * (each core holds at most ctas_per_core resident and as many waiting),
 * between quanta, so a core that finishes early takes more. cta() gives
 * CTA `index` to run on `core` in its CTA slot `slot`: its descriptor and
 * its view of memory (local window and stacks of that core and slot); it is
 * called from the host thread running that core, and what it returns must
 * stay valid until the CTA ends. */
struct sg_gpu_launch {
  const struct sg_code *code;
  uint64_t num_ctas;
  uint32_t ctas_per_core;
  const char *occupancy_limit;
  void (*cta)(void *ctx, uint64_t index, uint32_t core, uint32_t slot,
              const struct sg_cta_desc **desc, const struct sg_memmap **mem);
  void *ctx;
  struct sg_hook *const *const *hooks; /* per core: its consumers (NULL: none) */
  const uint32_t *nhooks;
  struct sg_findings *findings;        /* per core (NULL: every finding is fatal) */
  /* Called between quanta, from one thread (NULL: none): how far it got. */
  void (*progress)(void *ctx, const struct sg_gpu *g);
};
uint64_t sg_gpu_cycles(const struct sg_gpu *g);     /* simulated so far */
uint64_t sg_gpu_ctas_done(const struct sg_gpu *g);
/* Occupancy: CTAs of threads_per_cta work-items using local_per_cta bytes
 * of local memory (out of local_per_core) that one core can hold, and what
 * limits it. */
uint32_t sg_gpu_occupancy(const struct sg_gpu *g, const struct sg_code *code,
                          uint32_t threads_per_cta, uint64_t local_per_cta,
                          uint64_t local_per_core, const char **limit);
/* The most work-items, in whole warps of warp_size, of one CTA of code
 * whose registers fit a core's register file (t->regs_per_core): 0 when
 * not one warp does, UINT32_MAX when the code names no register. */
uint32_t sg_timing_max_cta_threads(const struct sg_timing_config *t, uint32_t warp_size,
                                   const struct sg_code *code);
/* Runs a launch on `threads` host threads: sg_gpu_start, then every one of
 * them calls sg_gpu_work(g, k) (k = 0 .. threads - 1) and returns when the
 * launch is done, then sg_gpu_finish gives the result: SG_OK, SG_EFAULT
 * with the fault of the lowest faulting CTA (*fault_cta) of the first
 * quantum in which any CTA faulted, or SG_ENOMEM when the host had no
 * memory for the model's queues. Cycles do not depend on `threads`. */
enum sg_status sg_gpu_start(struct sg_gpu *g, const struct sg_gpu_launch *l, uint32_t threads);
void sg_gpu_work(struct sg_gpu *g, uint32_t thread);
enum sg_status sg_gpu_finish(struct sg_gpu *g, struct sg_timing_result *res,
                             struct sg_fault *fault, uint64_t *fault_cta);
/* ---- Checkers (docs/checking.md) ----------------------------------------- */

/* Memory an access is meant to stay in: a buffer argument, a __local
 * argument or a __local array. */
struct sg_check_object {
  uint64_t base, size;
  const char *name;  /* "buffer argument 1 `in`", "__local array `tile`" */
  bool local;        /* in the local window: "at offset N of SIZE" */
};
/* What the memory checker knows of a launch (shared by its consumers). */
struct sg_check_launch {
  const struct sg_check_object *objects; /* sorted by base */
  uint32_t num_objects;
  const uint64_t *slot_addr;     /* parameter-block words holding a pointer ... */
  const uint32_t *slot_object;   /* ... to this object */
  uint32_t num_slots;
  const struct sg_region *regions; /* the launch's map: unmapped accesses are the core's */
  uint32_t num_regions;
  uint64_t stack_base;           /* private stacks: thread t's slot at base + t * size */
  uint32_t stack_size;
  uint64_t code;                 /* the program (sg_code_id) */
};

/* The precise memory checker: follows which object each register's pointer
 * came from (per warp, through moves, pointer arithmetic and private-stack
 * spills) and reports an access through it that leaves the object but
 * lands in mapped memory (another buffer, a sub-buffer's parent, the next
 * __local array), and misaligned loads and stores. Findings go to the core
 * it is attached to (sg_core_finding). */
struct sg_check_memory;
enum sg_status sg_check_memory_create(struct sg_core *core, uint32_t warp_size,
                                      struct sg_check_memory **out);
/* The launch the next CTAs belong to (l must outlive them). */
enum sg_status sg_check_memory_launch(struct sg_check_memory *m, const struct sg_check_launch *l,
                                      uint32_t max_warps);
struct sg_hook *sg_check_memory_hook(struct sg_check_memory *m);
void sg_check_memory_destroy(struct sg_check_memory *m);

/* The uninitialized-value checker (SOFTGPU_CHECK=uninit): a shadow bit per
 * byte of every register lane and of private and __local memory; reports a
 * branch, a jump or an address that depends on uninitialized bytes, and a
 * store to global memory of a value none of whose bytes were initialized. */
struct sg_check_uninit;
enum sg_status sg_check_uninit_create(struct sg_core *core, uint32_t warp_size,
                                      struct sg_check_uninit **out);
/* max_threads: work-items a CTA may have; the local window is
 * [local_base, local_base + local_size). */
enum sg_status sg_check_uninit_launch(struct sg_check_uninit *u, const struct sg_check_launch *l,
                                      uint32_t max_threads, uint64_t local_base,
                                      uint64_t local_size);
struct sg_hook *sg_check_uninit_hook(struct sg_check_uninit *u);
void sg_check_uninit_destroy(struct sg_check_uninit *u);

/* ---- Checkers (SOFTGPU_CHECK; docs/races.md) ----------------------------- */

/* The race checker: conflicting accesses (one at least a write) to __local
 * or __global memory from different work-items that no barrier or atomic
 * orders. Within a CTA it shadows the memory the CTA touches (per 4-byte
 * granule, per byte where accesses are narrower: the barrier interval, the
 * last writer and up to two readers of each) and reports as the CTA runs,
 * once per pair of instructions, naming the races only warp-synchronous
 * execution orders; across CTAs it keeps a summary of each CTA's __global
 * accesses, checked at the end of the launch (sg_races_across) in CTA
 * order, so the report does not depend on how many host threads ran the
 * CTAs. One per host thread, its hook attached to that thread's core. */
struct sg_races_config {
  uint32_t warp_size;
  bool same_value;       /* also report writes that leave memory as it was */
  bool async_elsewhere;  /* the sync checker reports accesses that race with an
                            async copy: leave those pairs to it */
  uint64_t memory_limit; /* bytes of shadow and summaries; past it the checker
                            stops with one CHECK_LIMIT finding */
};
struct sg_races;
enum sg_status sg_races_create(struct sg_core *core, const struct sg_races_config *cfg,
                               struct sg_races **out);
struct sg_hook *sg_races_hook(struct sg_races *r);
void sg_races_destroy(struct sg_races *r);
/* Forgets the summaries of the last launch. */
void sg_races_launch(struct sg_races *r);
/* Races between CTAs in the summaries of checkers[0..n) (every host
 * thread's, after the launch), added to *findings; nctaid is the grid (for
 * the CTAs' ids). SG_ENOMEM when the summaries cannot be sorted. */
enum sg_status sg_races_across(struct sg_races *const *checkers, uint32_t n,
                               const uint32_t nctaid[3], struct sg_findings *findings);

/* The synchronisation checker: barriers whose work-items pass different
 * fence flags, work-group and sub-group functions and async copies (the
 * device library marks them with sg.mark, sg_mark.def) that some
 * work-items of the group call and others do not, or call in another
 * order or with other arguments, and accesses to an async copy's memory
 * before wait_group_events. One per host thread. */
struct sg_sync;
enum sg_status sg_sync_create(struct sg_core *core, uint32_t warp_size, struct sg_sync **out);
struct sg_hook *sg_sync_hook(struct sg_sync *s);
void sg_sync_destroy(struct sg_sync *s);

/* ---- Traces -------------------------------------------------------------- */

/* A trace consumer records the instructions and events of the CTAs it sees
 * (compactly, per CTA) until `limit` bytes of records; sg_trace_write puts
 * the CTAs of several consumers (one per host thread) in CTA order into a
 * text trace (one line per warp instruction, as in seed 000) or a Chrome /
 * Perfetto trace-event JSON (one track per core and warp). */
enum sg_trace_format { SG_TRACE_TEXT, SG_TRACE_JSON };
struct sg_trace;
enum sg_status sg_trace_create(const struct sg_code *code, uint64_t limit,
                               struct sg_trace **out);
struct sg_hook *sg_trace_hook(struct sg_trace *t);
/* The records' times are cycles of the launch (timing mode): the writer
 * puts them on the time axis as they are. */
void sg_trace_set_cycles(struct sg_trace *t);
void sg_trace_destroy(struct sg_trace *t);
/* Writes the traces of one launch, CTA by CTA in CTA order, each only if
 * it fits in `room` bytes; returns the bytes written. *cut is set when the
 * trace ends before the launch does (a consumer hit its limit, or room ran
 * out). JSON: events separated by commas (*first: nothing written before
 * them; the caller writes what encloses the events of all launches); each
 * core runs its CTAs one after another from *time_base, one time unit per
 * warp instruction, and *time_base moves past the launch's end. */
uint64_t sg_trace_write(struct sg_trace *const *traces, uint32_t count, const char *kernel,
                        enum sg_trace_format format, uint32_t cores, uint64_t room,
                        bool *first, uint64_t *time_base, FILE *out, bool *cut);

#endif
