/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), the translated fast path (config key
 * `engine = jit`, docs/engine.md): the basic blocks of a pre-decoded program
 * that hold only instructions without control flow or side effects beyond
 * registers and checked memory become host functions through LLVM's ORC JIT,
 * one module per program, with the warp's lanes as LLVM vectors. The
 * interpreter (sg_execute.c) stays the reference: a block runs on the warp's
 * active lanes (the mask a parameter: the others' registers and memory
 * untouched) when nothing observes the core or every consumer follows blocks
 * (sg_block_ops), memory goes through the interpreter's own span check (a
 * block leaves to the interpreter before any access that check does not
 * clear), and whatever a block cannot express stays interpreted. A
 * translation that fails leaves the whole program interpreted. */
#include "sg_fp.h"
#include "sg_sim_impl.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_JIT_WORDS 200000  /* larger programs stay interpreted */
#define ROW (SG_MAX_WARP_SIZE * 8)

/* A kernel entry: the warp instructions its CTAs ran interpreted and its
 * launches, until it is translated (sg_sim_config.jit_threshold). */
struct kernel {
  uint64_t entry_pc, insns, launches;
  bool translated;
};

/* What a program's code has been translated to, for one warp size: the
 * kernels' counts, the translated blocks and the LLJIT that holds them. */
struct translation {
  bool failed;                /* a translation failed: the program is interpreted */
  LLVMOrcLLJITRef lljit;
  LLVMTargetMachineRef tm;    /* the host's, for the optimisation passes */
  char *layout, *triple;
  struct kernel *kernels;     /* the entries launched so far */
  uint32_t nkernels;
  struct sg_jit_entry *entry; /* per word; fn NULL: interpret */
  double compile_ms;
  uint32_t blocks, insns;
};

struct sg_jit {
  pthread_mutex_t lock; /* translation happens under it, once per kernel entry */
  unsigned ws;          /* the warp size it is made for (0: not used yet) */
  struct translation t;
  /* The code it translates (what blocks hold and where they end): a
   * released program's translation serves another with the same. */
  uint64_t base;
  size_t n;
  uint32_t *words;
  uint64_t *reconv;
};

/* ---- Which instructions a block holds ----------------------------------- */

enum kind { K_NONE, K_ALU, K_FP, K_FCMP, K_LOAD, K_STORE, K_AMO, K_CSR, K_BRANCH, K_JUMP, K_EXIT };

static bool fp_rm_ok(const struct sg_uop *u) { return u->rm == SG_RNE || u->rm == SG_RM_DYN; }

/* What the translator does with u (K_NONE: the block ends before it). FP
 * arithmetic only where the interpreter takes its plain path: flags never
 * read (code->track_fflags) and round-to-nearest (a dynamic rounding mode is
 * checked when the block is entered). */
static enum kind kind_of(const struct sg_code *code, const struct sg_uop *u) {
  switch ((enum sg_op)u->op) {
  case SG_OP_LUI: case SG_OP_AUIPC: case SG_OP_ADDI: case SG_OP_SLTI: case SG_OP_SLTIU:
  case SG_OP_XORI: case SG_OP_ORI: case SG_OP_ANDI: case SG_OP_SLLI: case SG_OP_SRLI:
  case SG_OP_SRAI: case SG_OP_ADD: case SG_OP_SUB: case SG_OP_SLL: case SG_OP_SLT:
  case SG_OP_SLTU: case SG_OP_XOR: case SG_OP_SRL: case SG_OP_SRA: case SG_OP_OR:
  case SG_OP_AND: case SG_OP_ADDIW: case SG_OP_SLLIW: case SG_OP_SRLIW: case SG_OP_SRAIW:
  case SG_OP_ADDW: case SG_OP_SUBW: case SG_OP_SLLW: case SG_OP_SRLW: case SG_OP_SRAW:
  case SG_OP_MUL: case SG_OP_MULH: case SG_OP_MULHSU: case SG_OP_MULHU: case SG_OP_MULW:
  case SG_OP_DIV: case SG_OP_DIVU: case SG_OP_REM: case SG_OP_REMU: case SG_OP_DIVW:
  case SG_OP_DIVUW: case SG_OP_REMW: case SG_OP_REMUW:
  case SG_OP_FSGNJ_S: case SG_OP_FSGNJN_S: case SG_OP_FSGNJX_S: case SG_OP_FSGNJ_D:
  case SG_OP_FSGNJN_D: case SG_OP_FSGNJX_D: case SG_OP_FMV_X_W: case SG_OP_FMV_W_X:
  case SG_OP_FMV_X_D: case SG_OP_FMV_D_X:
    return K_ALU;
  case SG_OP_FADD_S: case SG_OP_FSUB_S: case SG_OP_FMUL_S: case SG_OP_FDIV_S:
  case SG_OP_FSQRT_S: case SG_OP_FADD_D: case SG_OP_FSUB_D: case SG_OP_FMUL_D:
  case SG_OP_FDIV_D: case SG_OP_FSQRT_D: case SG_OP_FMADD_S: case SG_OP_FMSUB_S:
  case SG_OP_FNMSUB_S: case SG_OP_FNMADD_S: case SG_OP_FMADD_D: case SG_OP_FMSUB_D:
  case SG_OP_FNMSUB_D: case SG_OP_FNMADD_D: case SG_OP_FCVT_S_W: case SG_OP_FCVT_S_WU:
  case SG_OP_FCVT_S_L: case SG_OP_FCVT_S_LU: case SG_OP_FCVT_D_W: case SG_OP_FCVT_D_WU:
  case SG_OP_FCVT_D_L: case SG_OP_FCVT_D_LU:
    return !code->track_fflags && fp_rm_ok(u) ? K_FP : K_NONE;
  case SG_OP_FEQ_S: case SG_OP_FLT_S: case SG_OP_FLE_S: case SG_OP_FEQ_D: case SG_OP_FLT_D:
  case SG_OP_FLE_D: /* (funct3 is the comparison, not a rounding mode) */
    return !code->track_fflags ? K_FCMP : K_NONE;
  case SG_OP_FMIN_S: case SG_OP_FMAX_S: case SG_OP_FMIN_D: case SG_OP_FMAX_D: /* (nor here) */
    return !code->track_fflags ? K_FP : K_NONE;
  case SG_OP_FCVT_W_S: case SG_OP_FCVT_WU_S: case SG_OP_FCVT_L_S: case SG_OP_FCVT_LU_S:
  case SG_OP_FCVT_W_D: case SG_OP_FCVT_WU_D: case SG_OP_FCVT_L_D: case SG_OP_FCVT_LU_D:
    /* C's casts truncate: the static round-toward-zero only */
    return !code->track_fflags && u->rm == SG_RTZ ? K_FCMP : K_NONE;
  case SG_OP_LB: case SG_OP_LH: case SG_OP_LW: case SG_OP_LD: case SG_OP_LBU:
  case SG_OP_LHU: case SG_OP_LWU: case SG_OP_FLW: case SG_OP_FLD:
    return K_LOAD;
  case SG_OP_SB: case SG_OP_SH: case SG_OP_SW: case SG_OP_SD: case SG_OP_FSW: case SG_OP_FSD:
    return K_STORE;
  case SG_OP_BEQ: case SG_OP_BNE: case SG_OP_BLT: case SG_OP_BGE: case SG_OP_BLTU: case SG_OP_BGEU:
    return K_BRANCH; /* ends its block; the block leaves a divergent one to the interpreter */
  case SG_OP_JAL:
    return u->rd == SG_XSINK ? K_JUMP : K_NONE; /* a jump, not a call */
  case SG_OP_SG_EXIT: /* ends its block; the caller retires the lanes */
    return K_EXIT;
  case SG_OP_CSRRS: case SG_OP_CSRRC: case SG_OP_CSRRSI: case SG_OP_CSRRCI: {
    /* plain reads of the SIMT CSRs (their values do not change in a block) */
    unsigned csr = (unsigned)u->imm;
    return u->rs1 == 0 && csr >= SG_CSR_LANE && sg_csr_name(csr) ? K_CSR : K_NONE;
  }
  default: { /* the AMOs and LR/SC, as sg_insn.def names them */
    uint32_t size;
    return sg_op_access((enum sg_op)u->op, &size) == SG_MEM_ATOMIC ? K_AMO : K_NONE;
  }
  }
}

/* Block starts: the first word, targets of branches and jumps, reconvergence
 * points and whatever follows an instruction a block cannot hold. Blocks end
 * at the next start, so a reconvergence point is never inside one. */
static bool *leaders(const struct sg_code *code) {
  bool *lead = calloc(code->n + 1, 1);
  if (!lead)
    return NULL;
  lead[0] = true;
  for (size_t i = 0; i < code->n; i++) {
    const struct sg_uop *u = &code->uops[i];
    uint64_t pc = code->base + 4 * i;
    enum sg_flow flow = sg_uop_flow(u);
    if (flow == SG_FLOW_BRANCH || flow == SG_FLOW_JUMP || (flow == SG_FLOW_CALL && u->op == SG_OP_JAL)) {
      uint64_t t = pc + (uint64_t)u->imm;
      if (t >= code->base && (t - code->base) / 4 < code->n && !(t & 3))
        lead[(t - code->base) / 4] = true;
    }
    if (kind_of(code, u) == K_NONE || flow != SG_FLOW_NEXT) /* a branch or jump ends a block */
      lead[i + 1] = true;
    uint64_t r = code->reconv[i];
    if (r != SG_RECONV_EXIT && r >= code->base && (r - code->base) / 4 < code->n)
      lead[(r - code->base) / 4] = true;
  }
  return lead;
}

/* Does a branch, jump or call of the code, or the reconvergence table,
 * lead to word w? */
static bool targeted(const struct sg_code *code, size_t w) {
  uint64_t pc = code->base + 4 * w;
  for (size_t i = 0; i < code->n; i++) {
    const struct sg_uop *u = &code->uops[i];
    bool direct = u->op == SG_OP_JAL || sg_uop_flow(u) == SG_FLOW_BRANCH;
    if ((direct && code->base + 4 * i + (uint64_t)u->imm == pc) || code->reconv[i] == pc)
      return true;
  }
  return false;
}

/* ---- IR ----------------------------------------------------------------- */

struct gen {
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMBuilderRef b;
  LLVMValueRef fn, core, warp;
  /* the warp's active lanes: as bits (i64), as <ws x i1>, the lowest and
   * highest (i32), and whether it is every lane (i1) */
  LLVMValueRef mask, lanes, first_lane, last_lane, full;
  LLVMValueRef lim; /* alloca: the consumer's limits (sg_block_limit *), NULL without one */
  LLVMValueRef log; /* where its accesses go (sg_block_log *), NULL when no consumer asks */
  uint32_t nmem;    /* memory instructions of the block so far */
  LLVMTypeRef i8, i16, i32, i64, i128, f32, f64, ptr, vi64, vi32, vf32, vf64;
  LLVMTypeRef span_ty, value_ty, note_ty, amo_ty;
  LLVMValueRef amo_rows; /* alloca: an AMO's addresses, operands and results (sg_exec_amo) */
  LLVMValueRef iota;           /* <0, 1, .. ws - 1> as i64 */
  uint32_t slots;              /* memory instructions so far: their hit[] slots */
  LLVMValueRef iota_bytes[9];  /* <0, n, 2n, ..> for n = 1, 2, 4, 8 */
  LLVMValueRef iota_half[9];   /* the same, restarting at each half of the warp */
  LLVMValueRef halves_first;   /* shuffle: each lane the first lane of its half */
  LLVMValueRef half_lanes[2];  /* shuffle: the lanes of one half */
  LLVMValueRef both_halves;    /* shuffle: two halves back into one vector */
  unsigned ws;
  /* Per register (x, f): its value in the block so far (NULL: not read
   * yet, load its row), and when every lane holds the same, that value as
   * a scalar: address arithmetic on kernel arguments and ids of the group
   * then stays scalar, and an access through a uniform address is one
   * scalar access with no reductions over the lanes. */
  LLVMValueRef val[2][SG_NXREGS], uni[2][SG_NXREGS];
  uint64_t dirty[2];   /* registers set in the block so far, not yet in their rows */
  /* Per f register set by FP arithmetic in the block: the result before
   * canonicalisation (a float or double vector), which FP arithmetic
   * reads (fp_operand), so the NaN check is not on the path from one
   * operation to the next. */
  LLVMValueRef raw[32];
  const struct sg_code *code;
  size_t first;        /* the block's first word */
};

static LLVMValueRef c64(struct gen *g, uint64_t v) { return LLVMConstInt(g->i64, v, false); }
static LLVMValueRef c32(struct gen *g, uint64_t v) { return LLVMConstInt(g->i32, v, false); }
static LLVMValueRef splat(struct gen *g, LLVMTypeRef vt, LLVMValueRef s) {
  LLVMValueRef *e = malloc(g->ws * sizeof *e);
  for (unsigned l = 0; l < g->ws; l++)
    e[l] = s;
  LLVMValueRef v = LLVMConstVector(e, g->ws);
  (void)vt;
  free(e);
  return v;
}
/* A vector of ws copies of a computed value. */
static LLVMValueRef vsplat(struct gen *g, LLVMTypeRef vt, LLVMValueRef v) {
  LLVMValueRef one = LLVMBuildInsertElement(g->b, LLVMGetUndef(vt), v, c32(g, 0), "");
  LLVMValueRef zeros = LLVMConstNull(LLVMVectorType(g->i32, g->ws));
  return LLVMBuildShuffleVector(g->b, one, LLVMGetUndef(vt), zeros, "");
}
static LLVMValueRef s64(struct gen *g, uint64_t v) { return splat(g, g->vi64, c64(g, v)); }
static LLVMValueRef s32(struct gen *g, uint64_t v) { return splat(g, g->vi32, c32(g, v)); }

static LLVMValueRef row_ptr(struct gen *g, bool fp, unsigned r) {
  size_t off = (fp ? offsetof(struct sg_warp, f) : offsetof(struct sg_warp, x)) + (size_t)r * ROW;
  LLVMValueRef idx = c64(g, off);
  return LLVMBuildGEP2(g->b, g->i8, g->warp, &idx, 1, "");
}
static LLVMValueRef get(struct gen *g, bool fp, unsigned r) {
  if (!fp && r == 0)
    return LLVMConstNull(g->vi64);
  if (!g->val[fp][r]) {
    g->val[fp][r] = LLVMBuildLoad2(g->b, g->vi64, row_ptr(g, fp, r), "");
    LLVMSetAlignment(g->val[fp][r], 8);
  }
  return g->val[fp][r];
}
/* The scalar every lane of register r holds, or NULL when not known. */
static LLVMValueRef uni(struct gen *g, bool fp, unsigned r) {
  return !fp && r == 0 ? c64(g, 0) : g->uni[fp][r];
}
/* Registers live in the block's values until it returns: then those that
 * some path from where it returns to reads before writing (sg_code.live)
 * go to their rows, so the interpreter goes on with the registers it
 * needs, and a warp's dead values cost nothing. */
static void set(struct gen *g, bool fp, unsigned r, LLVMValueRef v) {
  g->val[fp][r] = v;
  g->uni[fp][r] = NULL;
  if (fp)
    g->raw[r & 31] = NULL;
  g->dirty[fp] |= 1ull << r;
}
/* Rows take the values of the active lanes only: the others keep theirs
 * (what the block computed for them is never stored). */
static void store_row(struct gen *g, bool fp, unsigned r) {
  LLVMTypeRef tys[2] = {g->vi64, g->ptr};
  unsigned id = LLVMLookupIntrinsicID("llvm.masked.store", 17);
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(g->mod, id, tys, 2);
  LLVMValueRef args[] = {g->val[fp][r], row_ptr(g, fp, r), c32(g, 8), g->lanes};
  LLVMBuildCall2(g->b, LLVMIntrinsicGetType(g->ctx, id, tys, 2), f, args, 4, "");
}
/* Stores the registers live at word w (the end of the code: all). */
static void flush(struct gen *g, size_t w) {
  for (int fp = 0; fp < 2; fp++) {
    uint64_t live = w < g->code->n ? g->code->live[w][fp] : ~0ull;
    for (uint64_t m = g->dirty[fp] & live; m; m &= m - 1)
      store_row(g, fp, (unsigned)__builtin_ctzll(m));
  }
}
/* The block's return before its instruction i (i: as many as ran), with
 * the registers stored that the interpreter reads from there. */
static void ret_at(struct gen *g, uint32_t i, uint32_t flags) {
  flush(g, g->first + i);
  LLVMBuildRet(g->b, c32(g, i | flags));
}
/* A block that returns to `out` before instruction i: out's code, made
 * while the values so far are those to store. */
static LLVMBasicBlockRef exit_before(struct gen *g, uint32_t i) {
  LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
  LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMPositionBuilderAtEnd(g->b, out);
  ret_at(g, i, 0);
  LLVMPositionBuilderAtEnd(g->b, here);
  return out;
}
static void set_uni(struct gen *g, bool fp, unsigned r, LLVMValueRef scalar) {
  set(g, fp, r, vsplat(g, g->vi64, scalar));
  g->uni[fp][r] = scalar;
}
#define X(r) get(g, false, (r))
#define F(r) get(g, true, (r))

static LLVMValueRef sext32(struct gen *g, LLVMValueRef v64) {
  return LLVMBuildSExt(g->b, LLVMBuildTrunc(g->b, v64, g->vi32, ""), g->vi64, "");
}
static LLVMValueRef lo32(struct gen *g, LLVMValueRef v64) {
  return LLVMBuildTrunc(g->b, v64, g->vi32, "");
}

/* sg_f32: a NaN-boxed single, anything else the canonical NaN. */
static LLVMValueRef unbox(struct gen *g, LLVMValueRef v) {
  LLVMValueRef boxed = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildLShr(g->b, v, s64(g, 32), ""),
                                     s64(g, 0xffffffffu), "");
  LLVMValueRef bits = LLVMBuildSelect(g->b, boxed, lo32(g, v), s32(g, 0x7fc00000u), "");
  return LLVMBuildBitCast(g->b, bits, g->vf32, "");
}
/* sg_canon32 / sg_canon64: any NaN becomes the canonical NaN. */
static LLVMValueRef canon32(struct gen *g, LLVMValueRef f) {
  LLVMValueRef isnan = LLVMBuildFCmp(g->b, LLVMRealUNO, f, f, "");
  LLVMValueRef bits = LLVMBuildZExt(g->b, LLVMBuildBitCast(g->b, f, g->vi32, ""), g->vi64, "");
  bits = LLVMBuildOr(g->b, bits, s64(g, 0xffffffff00000000ull), "");
  return LLVMBuildSelect(g->b, isnan, s64(g, SG_CANON32), bits, "");
}
static LLVMValueRef canon64(struct gen *g, LLVMValueRef d) {
  LLVMValueRef isnan = LLVMBuildFCmp(g->b, LLVMRealUNO, d, d, "");
  return LLVMBuildSelect(g->b, isnan, s64(g, SG_CANON64), LLVMBuildBitCast(g->b, d, g->vi64, ""),
                         "");
}
static LLVMValueRef d64(struct gen *g, LLVMValueRef v) { return LLVMBuildBitCast(g->b, v, g->vf64, ""); }

static LLVMValueRef intrinsic(struct gen *g, const char *name, LLVMTypeRef t, LLVMValueRef *args,
                              unsigned n) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(g->mod, id, &t, 1);
  return LLVMBuildCall2(g->b, LLVMIntrinsicGetType(g->ctx, id, &t, 1), f, args, n, "");
}

/* High 64 bits of a 128-bit product; sa/sb: sign-extend a / b. */
static LLVMValueRef mulh(struct gen *g, LLVMValueRef a, LLVMValueRef b, bool sa, bool sb) {
  LLVMTypeRef v128 = LLVMVectorType(g->i128, g->ws);
  LLVMValueRef wa = sa ? LLVMBuildSExt(g->b, a, v128, "") : LLVMBuildZExt(g->b, a, v128, "");
  LLVMValueRef wb = sb ? LLVMBuildSExt(g->b, b, v128, "") : LLVMBuildZExt(g->b, b, v128, "");
  LLVMValueRef p = LLVMBuildMul(g->b, wa, wb, "");
  p = LLVMBuildLShr(g->b, p, splat(g, v128, LLVMConstInt(g->i128, 64, false)), "");
  return LLVMBuildTrunc(g->b, p, g->vi64, "");
}

/* RISC-V division (no traps): x/0 = -1 (unsigned: all ones), x%0 = x,
 * MIN/-1 = MIN, MIN%-1 = 0; w: 32-bit, sign-extended results. */
static LLVMValueRef divide(struct gen *g, LLVMValueRef a, LLVMValueRef b, bool sgn, bool rem,
                           bool w) {
  LLVMTypeRef vt = w ? g->vi32 : g->vi64;
  if (w)
    a = lo32(g, a), b = lo32(g, b);
  LLVMValueRef zero = splat(g, vt, LLVMConstInt(w ? g->i32 : g->i64, 0, false));
  LLVMValueRef one = splat(g, vt, LLVMConstInt(w ? g->i32 : g->i64, 1, false));
  LLVMValueRef ones = splat(g, vt, LLVMConstInt(w ? g->i32 : g->i64, ~0ull, false));
  LLVMValueRef min = splat(g, vt, LLVMConstInt(w ? g->i32 : g->i64, w ? 0x80000000ull : 1ull << 63, false));
  LLVMValueRef bz = LLVMBuildICmp(g->b, LLVMIntEQ, b, zero, "");
  LLVMValueRef ovf = sgn ? LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, a, min, ""),
                                        LLVMBuildICmp(g->b, LLVMIntEQ, b, ones, ""), "")
                         : NULL;
  LLVMValueRef bad = ovf ? LLVMBuildOr(g->b, bz, ovf, "") : bz;
  LLVMValueRef sb = LLVMBuildSelect(g->b, bad, one, b, "");
  LLVMValueRef r = rem ? (sgn ? LLVMBuildSRem(g->b, a, sb, "") : LLVMBuildURem(g->b, a, sb, ""))
                       : (sgn ? LLVMBuildSDiv(g->b, a, sb, "") : LLVMBuildUDiv(g->b, a, sb, ""));
  if (rem) {
    r = LLVMBuildSelect(g->b, bz, a, r, "");
    if (ovf)
      r = LLVMBuildSelect(g->b, ovf, zero, r, "");
  } else {
    r = LLVMBuildSelect(g->b, bz, ones, r, "");
    if (ovf)
      r = LLVMBuildSelect(g->b, ovf, min, r, "");
  }
  return w ? LLVMBuildSExt(g->b, r, g->vi64, "") : r;
}

static LLVMValueRef shamt(struct gen *g, LLVMValueRef v, unsigned mask) {
  return LLVMBuildAnd(g->b, v, s64(g, mask), "");
}

/* An integer or register-move instruction: rd = f(rs1, rs2, imm). */
static void gen_alu(struct gen *g, const struct sg_uop *u, uint64_t pc) {
  LLVMBuilderRef b = g->b;
  LLVMValueRef imm = s64(g, (uint64_t)u->imm), r = NULL;
  LLVMValueRef (*sh)(LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *) = NULL;
  switch ((enum sg_op)u->op) {
  case SG_OP_LUI: r = imm; break;
  case SG_OP_AUIPC: r = s64(g, pc + (uint64_t)u->imm); break;
  case SG_OP_ADDI: r = LLVMBuildAdd(b, X(u->rs1), imm, ""); break;
  case SG_OP_SLTI: r = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntSLT, X(u->rs1), imm, ""), g->vi64, ""); break;
  case SG_OP_SLTIU: r = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntULT, X(u->rs1), imm, ""), g->vi64, ""); break;
  case SG_OP_XORI: r = LLVMBuildXor(b, X(u->rs1), imm, ""); break;
  case SG_OP_ORI: r = LLVMBuildOr(b, X(u->rs1), imm, ""); break;
  case SG_OP_ANDI: r = LLVMBuildAnd(b, X(u->rs1), imm, ""); break;
  case SG_OP_SLLI: r = LLVMBuildShl(b, X(u->rs1), shamt(g, imm, 63), ""); break;
  case SG_OP_SRLI: r = LLVMBuildLShr(b, X(u->rs1), shamt(g, imm, 63), ""); break;
  case SG_OP_SRAI: r = LLVMBuildAShr(b, X(u->rs1), shamt(g, imm, 63), ""); break;
  case SG_OP_ADD: r = LLVMBuildAdd(b, X(u->rs1), X(u->rs2), ""); break;
  case SG_OP_SUB: r = LLVMBuildSub(b, X(u->rs1), X(u->rs2), ""); break;
  case SG_OP_SLL: r = LLVMBuildShl(b, X(u->rs1), shamt(g, X(u->rs2), 63), ""); break;
  case SG_OP_SRL: r = LLVMBuildLShr(b, X(u->rs1), shamt(g, X(u->rs2), 63), ""); break;
  case SG_OP_SRA: r = LLVMBuildAShr(b, X(u->rs1), shamt(g, X(u->rs2), 63), ""); break;
  case SG_OP_SLT: r = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntSLT, X(u->rs1), X(u->rs2), ""), g->vi64, ""); break;
  case SG_OP_SLTU: r = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntULT, X(u->rs1), X(u->rs2), ""), g->vi64, ""); break;
  case SG_OP_XOR: r = LLVMBuildXor(b, X(u->rs1), X(u->rs2), ""); break;
  case SG_OP_OR: r = LLVMBuildOr(b, X(u->rs1), X(u->rs2), ""); break;
  case SG_OP_AND: r = LLVMBuildAnd(b, X(u->rs1), X(u->rs2), ""); break;
  case SG_OP_ADDIW: r = sext32(g, LLVMBuildAdd(b, X(u->rs1), imm, "")); break;
  case SG_OP_ADDW: r = sext32(g, LLVMBuildAdd(b, X(u->rs1), X(u->rs2), "")); break;
  case SG_OP_SUBW: r = sext32(g, LLVMBuildSub(b, X(u->rs1), X(u->rs2), "")); break;
  case SG_OP_MULW: r = sext32(g, LLVMBuildMul(b, X(u->rs1), X(u->rs2), "")); break;
  case SG_OP_SLLIW: sh = LLVMBuildShl; goto shift_w_imm;
  case SG_OP_SRLIW: sh = LLVMBuildLShr; goto shift_w_imm;
  case SG_OP_SRAIW: sh = LLVMBuildAShr;
  shift_w_imm:
    r = LLVMBuildSExt(b, sh(b, lo32(g, X(u->rs1)), s32(g, (uint64_t)u->imm & 31), ""), g->vi64, "");
    break;
  case SG_OP_SLLW: sh = LLVMBuildShl; goto shift_w;
  case SG_OP_SRLW: sh = LLVMBuildLShr; goto shift_w;
  case SG_OP_SRAW: sh = LLVMBuildAShr;
  shift_w:
    r = LLVMBuildSExt(b, sh(b, lo32(g, X(u->rs1)), lo32(g, shamt(g, X(u->rs2), 31)), ""), g->vi64, "");
    break;
  case SG_OP_MUL: r = LLVMBuildMul(b, X(u->rs1), X(u->rs2), ""); break;
  case SG_OP_MULH: r = mulh(g, X(u->rs1), X(u->rs2), true, true); break;
  case SG_OP_MULHSU: r = mulh(g, X(u->rs1), X(u->rs2), true, false); break;
  case SG_OP_MULHU: r = mulh(g, X(u->rs1), X(u->rs2), false, false); break;
  case SG_OP_DIV: r = divide(g, X(u->rs1), X(u->rs2), true, false, false); break;
  case SG_OP_DIVU: r = divide(g, X(u->rs1), X(u->rs2), false, false, false); break;
  case SG_OP_REM: r = divide(g, X(u->rs1), X(u->rs2), true, true, false); break;
  case SG_OP_REMU: r = divide(g, X(u->rs1), X(u->rs2), false, true, false); break;
  case SG_OP_DIVW: r = divide(g, X(u->rs1), X(u->rs2), true, false, true); break;
  case SG_OP_DIVUW: r = divide(g, X(u->rs1), X(u->rs2), false, false, true); break;
  case SG_OP_REMW: r = divide(g, X(u->rs1), X(u->rs2), true, true, true); break;
  case SG_OP_REMUW: r = divide(g, X(u->rs1), X(u->rs2), false, true, true); break;
  case SG_OP_FSGNJ_S: case SG_OP_FSGNJN_S: case SG_OP_FSGNJX_S: {
    /* on the unboxed bits: a non-boxed input reads as the canonical NaN */
    LLVMValueRef a = LLVMBuildZExt(b, LLVMBuildBitCast(b, unbox(g, F(u->rs1)), g->vi32, ""), g->vi64, "");
    LLVMValueRef c = LLVMBuildZExt(b, LLVMBuildBitCast(b, unbox(g, F(u->rs2)), g->vi32, ""), g->vi64, "");
    LLVMValueRef sign = s64(g, 0x80000000u);
    if (u->op == SG_OP_FSGNJ_S)
      r = LLVMBuildOr(b, LLVMBuildAnd(b, a, s64(g, 0x7fffffffu), ""), LLVMBuildAnd(b, c, sign, ""), "");
    else if (u->op == SG_OP_FSGNJN_S)
      r = LLVMBuildOr(b, LLVMBuildAnd(b, a, s64(g, 0x7fffffffu), ""),
                      LLVMBuildAnd(b, LLVMBuildNot(b, c, ""), sign, ""), "");
    else
      r = LLVMBuildXor(b, a, LLVMBuildAnd(b, c, sign, ""), "");
    set(g, true, u->rd & 31, LLVMBuildOr(b, r, s64(g, 0xffffffff00000000ull), ""));
    return;
  }
  case SG_OP_FSGNJ_D: case SG_OP_FSGNJN_D: case SG_OP_FSGNJX_D: {
    LLVMValueRef a = F(u->rs1), c = F(u->rs2), sign = s64(g, 1ull << 63);
    if (u->op == SG_OP_FSGNJ_D)
      r = LLVMBuildOr(b, LLVMBuildAnd(b, a, s64(g, ~(1ull << 63)), ""), LLVMBuildAnd(b, c, sign, ""), "");
    else if (u->op == SG_OP_FSGNJN_D)
      r = LLVMBuildOr(b, LLVMBuildAnd(b, a, s64(g, ~(1ull << 63)), ""),
                      LLVMBuildAnd(b, LLVMBuildNot(b, c, ""), sign, ""), "");
    else
      r = LLVMBuildXor(b, a, LLVMBuildAnd(b, c, sign, ""), "");
    set(g, true, u->rd & 31, r);
    return;
  }
  case SG_OP_FMV_X_W: r = sext32(g, F(u->rs1)); break;
  case SG_OP_FMV_X_D: r = F(u->rs1); break;
  case SG_OP_FMV_W_X:
    set(g, true, u->rd & 31,
        LLVMBuildOr(b, LLVMBuildZExt(b, lo32(g, X(u->rs1)), g->vi64, ""), s64(g, 0xffffffff00000000ull), ""));
    return;
  case SG_OP_FMV_D_X: set(g, true, u->rd & 31, X(u->rs1)); return;
  default: return;
  }
  set(g, false, u->rd, r);
}

/* An operand of FP arithmetic from f register r, as a single or a double:
 * the raw result of the arithmetic that set r in this block when it has
 * that type, else the register's value. The two differ only in the
 * payload of a NaN, and arithmetic on any NaN gives a NaN, which is
 * canonicalised when its result is set. */
static LLVMValueRef fp_operand(struct gen *g, unsigned r, bool single) {
  LLVMValueRef raw = g->raw[r & 31];
  if (raw && LLVMTypeOf(raw) == (single ? g->vf32 : g->vf64))
    return raw;
  return single ? unbox(g, F(r)) : d64(g, F(r));
}
#define FS(r) fp_operand(g, (r), true)
#define FD(r) fp_operand(g, (r), false)

/* RISC-V's fmin/fmax (IEEE 754-2019 minimumNumber, maximumNumber): a NaN
 * operand gives the other one (two give a NaN, made canonical after), and
 * -0 is below +0 (equal operands: the or of their bits for the minimum,
 * the and for the maximum, which only tells the zeros apart). */
static LLVMValueRef fminmax(struct gen *g, LLVMValueRef a, LLVMValueRef b, bool max) {
  LLVMBuilderRef bl = g->b;
  LLVMTypeRef ft = LLVMTypeOf(a), it = ft == g->vf32 ? g->vi32 : g->vi64;
  LLVMValueRef ai = LLVMBuildBitCast(bl, a, it, ""), bi = LLVMBuildBitCast(bl, b, it, "");
  LLVMValueRef zeros =
      LLVMBuildBitCast(bl, max ? LLVMBuildAnd(bl, ai, bi, "") : LLVMBuildOr(bl, ai, bi, ""), ft, "");
  LLVMValueRef r = LLVMBuildSelect(bl, LLVMBuildFCmp(bl, LLVMRealOEQ, a, b, ""), zeros, b, "");
  r = LLVMBuildSelect(bl, LLVMBuildFCmp(bl, max ? LLVMRealOGT : LLVMRealOLT, a, b, ""), a, r, "");
  r = LLVMBuildSelect(bl, LLVMBuildFCmp(bl, LLVMRealUNO, b, b, ""), a, r, "");
  return LLVMBuildSelect(bl, LLVMBuildFCmp(bl, LLVMRealUNO, a, a, ""), b, r, "");
}

/* FP arithmetic as the interpreter's plain path: host IEEE operations in
 * round-to-nearest, results canonicalised. */
static void gen_fp(struct gen *g, const struct sg_uop *u) {
  LLVMBuilderRef b = g->b;
  LLVMValueRef r = NULL;
  bool single = true;
  switch ((enum sg_op)u->op) {
  case SG_OP_FMIN_S: r = fminmax(g, FS(u->rs1), FS(u->rs2), false); break;
  case SG_OP_FMAX_S: r = fminmax(g, FS(u->rs1), FS(u->rs2), true); break;
  case SG_OP_FADD_S: r = LLVMBuildFAdd(b, FS(u->rs1), FS(u->rs2), ""); break;
  case SG_OP_FSUB_S: r = LLVMBuildFSub(b, FS(u->rs1), FS(u->rs2), ""); break;
  case SG_OP_FMUL_S: r = LLVMBuildFMul(b, FS(u->rs1), FS(u->rs2), ""); break;
  case SG_OP_FDIV_S: r = LLVMBuildFDiv(b, FS(u->rs1), FS(u->rs2), ""); break;
  case SG_OP_FSQRT_S: {
    LLVMValueRef a = FS(u->rs1);
    r = intrinsic(g, "llvm.sqrt", g->vf32, &a, 1);
    break;
  }
  case SG_OP_FMADD_S: case SG_OP_FMSUB_S: case SG_OP_FNMSUB_S: case SG_OP_FNMADD_S: {
    LLVMValueRef a[3] = {FS(u->rs1), FS(u->rs2), FS(u->rs3)};
    if (u->op == SG_OP_FNMSUB_S || u->op == SG_OP_FNMADD_S)
      a[0] = LLVMBuildFNeg(b, a[0], "");
    if (u->op == SG_OP_FMSUB_S || u->op == SG_OP_FNMADD_S)
      a[2] = LLVMBuildFNeg(b, a[2], "");
    r = intrinsic(g, "llvm.fma", g->vf32, a, 3);
    break;
  }
  case SG_OP_FCVT_S_W: r = LLVMBuildSIToFP(b, lo32(g, X(u->rs1)), g->vf32, ""); break;
  case SG_OP_FCVT_S_WU: r = LLVMBuildUIToFP(b, lo32(g, X(u->rs1)), g->vf32, ""); break;
  case SG_OP_FCVT_S_L: r = LLVMBuildSIToFP(b, X(u->rs1), g->vf32, ""); break;
  case SG_OP_FCVT_S_LU: r = LLVMBuildUIToFP(b, X(u->rs1), g->vf32, ""); break;
  default: single = false; break;
  }
  if (!single) {
    switch ((enum sg_op)u->op) {
    case SG_OP_FMIN_D: r = fminmax(g, FD(u->rs1), FD(u->rs2), false); break;
    case SG_OP_FMAX_D: r = fminmax(g, FD(u->rs1), FD(u->rs2), true); break;
    case SG_OP_FADD_D: r = LLVMBuildFAdd(b, FD(u->rs1), FD(u->rs2), ""); break;
    case SG_OP_FSUB_D: r = LLVMBuildFSub(b, FD(u->rs1), FD(u->rs2), ""); break;
    case SG_OP_FMUL_D: r = LLVMBuildFMul(b, FD(u->rs1), FD(u->rs2), ""); break;
    case SG_OP_FDIV_D: r = LLVMBuildFDiv(b, FD(u->rs1), FD(u->rs2), ""); break;
    case SG_OP_FSQRT_D: {
      LLVMValueRef a = FD(u->rs1);
      r = intrinsic(g, "llvm.sqrt", g->vf64, &a, 1);
      break;
    }
    case SG_OP_FMADD_D: case SG_OP_FMSUB_D: case SG_OP_FNMSUB_D: case SG_OP_FNMADD_D: {
      LLVMValueRef a[3] = {FD(u->rs1), FD(u->rs2), FD(u->rs3)};
      if (u->op == SG_OP_FNMSUB_D || u->op == SG_OP_FNMADD_D)
        a[0] = LLVMBuildFNeg(b, a[0], "");
      if (u->op == SG_OP_FMSUB_D || u->op == SG_OP_FNMADD_D)
        a[2] = LLVMBuildFNeg(b, a[2], "");
      r = intrinsic(g, "llvm.fma", g->vf64, a, 3);
      break;
    }
    case SG_OP_FCVT_D_W: r = LLVMBuildSIToFP(b, lo32(g, X(u->rs1)), g->vf64, ""); break;
    case SG_OP_FCVT_D_WU: r = LLVMBuildUIToFP(b, lo32(g, X(u->rs1)), g->vf64, ""); break;
    case SG_OP_FCVT_D_L: r = LLVMBuildSIToFP(b, X(u->rs1), g->vf64, ""); break;
    case SG_OP_FCVT_D_LU: r = LLVMBuildUIToFP(b, X(u->rs1), g->vf64, ""); break;
    default: return;
    }
  }
  set(g, true, u->rd & 31, single ? canon32(g, r) : canon64(g, r));
  g->raw[u->rd & 31] = r;
}
#undef FS
#undef FD

/* The value of type t at byte offset `at` of p. */
static LLVMValueRef load_at(struct gen *g, LLVMValueRef p, size_t at, LLVMTypeRef t) {
  LLVMValueRef idx = c64(g, at);
  return LLVMBuildLoad2(g->b, t, LLVMBuildGEP2(g->b, g->i8, p, &idx, 1, ""), "");
}

/* The host address of a full-warp access of size bytes per lane whose
 * lanes lie in [lo, hi], with permissions perm: the CTA's last region
 * (the interpreter's translation cache, xlate) when it covers the span
 * and is not the private stacks, else the interpreter's span check
 * (sg_exec_span: the region, its permissions, each lane in its own stack
 * slot), whose NULL sends the block to `out`. */
static LLVMValueRef gen_span(struct gen *g, const struct sg_uop *u, unsigned size, uint32_t perm,
                            LLVMValueRef lo, LLVMValueRef hi, LLVMBasicBlockRef out) {
  LLVMBuilderRef b = g->b;
  uint32_t slot = g->slots++ % SG_JIT_SLOTS;
  LLVMValueRef cs = load_at(g, g->warp, offsetof(struct sg_warp, cta), g->ptr);
  LLVMValueRef r = load_at(g, cs, offsetof(struct sg_cta_slot, hit) + slot * sizeof(void *), g->ptr);
  LLVMBasicBlockRef known = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef check = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, r, ""), check, known);
  LLVMPositionBuilderAtEnd(b, known);
  LLVMValueRef base = load_at(g, r, offsetof(struct sg_region, base), g->i64);
  LLVMValueRef rsize = load_at(g, r, offsetof(struct sg_region, size), g->i64);
  LLVMValueRef rperm = load_at(g, r, offsetof(struct sg_region, perm), g->i32);
  LLVMValueRef off = LLVMBuildSub(b, lo, base, "");
  LLVMValueRef width = LLVMBuildSub(b, hi, lo, "");
  LLVMValueRef in = LLVMBuildAnd(
      b, LLVMBuildICmp(b, LLVMIntULT, off, rsize, ""),
      LLVMBuildICmp(b, LLVMIntUGE, LLVMBuildSub(b, rsize, off, ""),
                    LLVMBuildAdd(b, width, c64(g, size), ""), ""), "");
  in = LLVMBuildAnd(b, in, LLVMBuildICmp(b, LLVMIntULE, width, c64(g, UINT32_MAX), ""), "");
  in = LLVMBuildAnd(b, in, LLVMBuildICmp(b, LLVMIntEQ,
                                         LLVMBuildAnd(b, rperm, c32(g, perm | SG_PERM_PRIVATE), ""),
                                         c32(g, perm), ""), "");
  LLVMBasicBlockRef cached = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef checked = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBuildCondBr(b, in, cached, check);
  LLVMPositionBuilderAtEnd(b, cached);
  LLVMValueRef host = load_at(g, r, offsetof(struct sg_region, host), g->ptr);
  LLVMValueRef h1 = LLVMBuildGEP2(b, g->i8, host, &off, 1, "");
  LLVMBuildBr(b, join);
  LLVMPositionBuilderAtEnd(b, check);
  if (g->dirty[0] >> u->rs1 & 1) /* the span check reads the base's row (own stack slots) */
    store_row(g, false, u->rs1);
  LLVMValueRef args[] = {g->core, g->warp, c32(g, u->rs1), c64(g, (uint64_t)u->imm), c32(g, size),
                         c32(g, perm), lo, hi, c32(g, slot), g->mask};
  LLVMValueRef span_fn = LLVMConstIntToPtr(c64(g, (uint64_t)(uintptr_t)sg_exec_span), g->ptr);
  LLVMValueRef h2 = LLVMBuildCall2(b, g->span_ty, span_fn, args, 10, "");
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, h2, ""), out, checked);
  LLVMPositionBuilderAtEnd(b, checked);
  LLVMBuildBr(b, join);
  LLVMPositionBuilderAtEnd(b, join);
  LLVMValueRef h = LLVMBuildPhi(b, g->ptr, "");
  LLVMValueRef hv[] = {h1, h2};
  LLVMBasicBlockRef hb[] = {cached, checked};
  LLVMAddIncoming(h, hv, hb, 2);
  return h;
}

/* The consumer's limit for memory instruction `done` of the block (with a
 * consumer attached, sg_block_ops): the active lanes' addresses (lo .. hi,
 * their or `bits`, the lowest lane's `first`) must lie in the limit's range
 * with none of its align bits set, else the block returns to `out`; a limit
 * that asks for a note calls the consumer (sg_exec_note), whose answer gives
 * the limits from there on (NULL: out). */
static void gen_limit(struct gen *g, uint64_t pc, uint32_t done, LLVMValueRef lo, LLVMValueRef hi,
                      LLVMValueRef bits, LLVMValueRef first, LLVMBasicBlockRef out) {
  LLVMBuilderRef b = g->b;
  LLVMBasicBlockRef check = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef note = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMValueRef lim = LLVMBuildLoad2(b, g->ptr, g->lim, "");
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, lim, ""), go, check);
  LLVMPositionBuilderAtEnd(b, check);
  size_t at = done * sizeof(struct sg_block_limit);
#define FIELD(t, f)                                                                  \
  LLVMBuildLoad2(b, t,                                                                 \
                 LLVMBuildGEP2(b, g->i8, lim,                                          \
                               (LLVMValueRef[]){c64(g, at + offsetof(struct sg_block_limit, f))}, \
                               1, ""),                                                 \
                 "")
  LLVMValueRef base = FIELD(g->i64, lo), span = FIELD(g->i64, span), align = FIELD(g->i64, align);
  LLVMValueRef wants = LLVMBuildIsNotNull(b, FIELD(g->i32, note), "");
  LLVMValueRef quiet = FIELD(g->i64, quiet);
#undef FIELD
  wants = LLVMBuildAnd(b, wants,
                       LLVMBuildNot(b, LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, lo, quiet, ""),
                                                    LLVMBuildICmp(b, LLVMIntEQ, hi, quiet, ""), ""),
                                    ""),
                       "");
  LLVMValueRef in = LLVMBuildAnd(
      b, LLVMBuildICmp(b, LLVMIntULE, LLVMBuildSub(b, lo, base, ""), span, ""),
      LLVMBuildICmp(b, LLVMIntULE, LLVMBuildSub(b, hi, base, ""), span, ""), "");
  in = LLVMBuildAnd(b, in, LLVMBuildIsNull(b, LLVMBuildAnd(b, bits, align, ""), ""), "");
  LLVMBuildCondBr(b, in, note, out);
  LLVMPositionBuilderAtEnd(b, note);
  LLVMBuildCondBr(b, wants, call, go);
  LLVMPositionBuilderAtEnd(b, call);
  LLVMValueRef args[] = {g->core, c64(g, pc), c32(g, done), lo, hi, g->first_lane, first};
  LLVMValueRef fn = LLVMConstIntToPtr(c64(g, (uint64_t)(uintptr_t)sg_exec_note), g->ptr);
  LLVMValueRef next = LLVMBuildCall2(b, g->note_ty, fn, args, 7, "");
  LLVMBuildStore(b, next, g->lim);
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, next, ""), out, go);
  LLVMPositionBuilderAtEnd(b, go);
}

/* FP compares and truncating conversions to integers, into an x register:
 * compares are false on a NaN (a single that is not NaN-boxed reads as
 * one); conversions saturate, a NaN giving the largest value, and the
 * 32-bit ones are sign-extended (fcvt.wu too), as sg_fcvt_int. */
static void gen_fcmp(struct gen *g, const struct sg_uop *u) {
  LLVMBuilderRef b = g->b;
  enum sg_op op = (enum sg_op)u->op;
  bool single = op == SG_OP_FEQ_S || op == SG_OP_FLT_S || op == SG_OP_FLE_S ||
                op == SG_OP_FCVT_W_S || op == SG_OP_FCVT_WU_S || op == SG_OP_FCVT_L_S ||
                op == SG_OP_FCVT_LU_S;
  LLVMValueRef a = single ? unbox(g, F(u->rs1)) : d64(g, F(u->rs1)), r;
  switch (op) {
  case SG_OP_FEQ_S: case SG_OP_FLT_S: case SG_OP_FLE_S: case SG_OP_FEQ_D: case SG_OP_FLT_D:
  case SG_OP_FLE_D: {
    LLVMValueRef c = single ? unbox(g, F(u->rs2)) : d64(g, F(u->rs2));
    LLVMRealPredicate p = op == SG_OP_FEQ_S || op == SG_OP_FEQ_D   ? LLVMRealOEQ
                          : op == SG_OP_FLT_S || op == SG_OP_FLT_D ? LLVMRealOLT
                                                                   : LLVMRealOLE;
    r = LLVMBuildZExt(b, LLVMBuildFCmp(b, p, a, c, ""), g->vi64, "");
    break;
  }
  default: {
    bool sgn = op == SG_OP_FCVT_W_S || op == SG_OP_FCVT_L_S || op == SG_OP_FCVT_W_D ||
               op == SG_OP_FCVT_L_D;
    bool w = op == SG_OP_FCVT_W_S || op == SG_OP_FCVT_WU_S || op == SG_OP_FCVT_W_D ||
             op == SG_OP_FCVT_WU_D;
    LLVMTypeRef it = w ? g->vi32 : g->vi64;
    LLVMTypeRef tys[2] = {it, LLVMTypeOf(a)};
    const char *name = sgn ? "llvm.fptosi.sat" : "llvm.fptoui.sat";
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(g->mod, id, tys, 2);
    r = LLVMBuildCall2(b, LLVMIntrinsicGetType(g->ctx, id, tys, 2), f, &a, 1, "");
    uint64_t hi = sgn ? (w ? INT32_MAX : INT64_MAX) : (w ? UINT32_MAX : UINT64_MAX);
    r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNO, a, a, ""),
                        splat(g, it, LLVMConstInt(w ? g->i32 : g->i64, hi, false)), r, "");
    if (w)
      r = LLVMBuildSExt(b, r, g->vi64, "");
    break;
  }
  }
  set(g, false, u->rd, r);
}

/* <0, step, 2 step, ..> as i64. */
static LLVMValueRef iota_by(struct gen *g, uint64_t step) {
  LLVMValueRef lane[SG_MAX_WARP_SIZE];
  for (unsigned l = 0; l < g->ws; l++)
    lane[l] = c64(g, l * step);
  return LLVMConstVector(lane, g->ws);
}

/* A load (val NULL: returns the lanes' values) or store of elements of
 * type t, k elements apart from the lowest lane's at h: one masked access
 * to the ws * k elements with every k-th enabled, instead of a gather or
 * scatter. Masked-off elements are not touched (no fault, no write), so
 * the access covers what the span check cleared and no more. */
static LLVMValueRef strided(struct gen *g, LLVMTypeRef t, unsigned k, LLVMValueRef h,
                            LLVMValueRef val) {
  LLVMBuilderRef b = g->b;
  unsigned n = g->ws * k;
  LLVMTypeRef wide = LLVMVectorType(t, n), bit = LLVMInt1TypeInContext(g->ctx);
  LLVMValueRef on[4 * SG_MAX_WARP_SIZE], at[4 * SG_MAX_WARP_SIZE]; /* k is 2 or 4 */
  for (unsigned e = 0; e < n; e++) {
    on[e] = LLVMConstInt(bit, e % k == 0, false);
    at[e] = e % k == 0 ? c32(g, e / k) : LLVMGetUndef(g->i32); /* lane -> element */
  }
  LLVMValueRef mask = LLVMConstVector(on, n), spread = LLVMConstVector(at, n);
  for (unsigned l = 0; l < g->ws; l++)
    at[l] = c32(g, l * k); /* element -> lane */
  LLVMValueRef pick = LLVMConstVector(at, g->ws);
  LLVMTypeRef tys[2] = {wide, g->ptr};
  const char *name = val ? "llvm.masked.store" : "llvm.masked.load";
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(g->mod, id, tys, 2);
  LLVMTypeRef ft = LLVMIntrinsicGetType(g->ctx, id, tys, 2);
  if (val) {
    LLVMValueRef args[] = {LLVMBuildShuffleVector(b, val, LLVMGetUndef(LLVMTypeOf(val)), spread, ""),
                           h, c32(g, 1), mask};
    LLVMBuildCall2(b, ft, f, args, 4, "");
    return NULL;
  }
  LLVMValueRef args[] = {h, c32(g, 1), mask, LLVMGetPoison(wide)};
  LLVMValueRef v = LLVMBuildCall2(b, ft, f, args, 4, "");
  return LLVMBuildShuffleVector(b, v, LLVMGetPoison(wide), pick, "");
}

/* A warp's access to consecutive or strided elements is most often
 * followed by the next warps' accesses to the bytes after it (a kernel
 * indexed by get_global_id(0)): the `bytes` (the span of the access) two
 * warps ahead of h are fetched, for writing for a store.
 * Hardware prefetchers do not follow masked accesses: copying float4s
 * took twice as long without. A prefetch never faults. */
static void prefetch_ahead(struct gen *g, LLVMValueRef h, uint64_t bytes, bool write) {
  LLVMTypeRef pt = g->ptr;
  unsigned id = LLVMLookupIntrinsicID("llvm.prefetch", 13);
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(g->mod, id, &pt, 1);
  LLVMTypeRef ft = LLVMIntrinsicGetType(g->ctx, id, &pt, 1);
  for (uint64_t o = 2 * bytes; o < 3 * bytes; o += 64) {
    LLVMValueRef at = c64(g, o);
    LLVMValueRef args[] = {LLVMBuildGEP2(g->b, g->i8, h, &at, 1, ""), c32(g, write),
                           c32(g, 3), c32(g, 1)}; /* keep in every cache level; data */
    LLVMBuildCall2(g->b, ft, f, args, 4, "");
  }
}

/* With a consumer that asks (g->log), the access of memory instruction
 * `done` that just ran goes to the next entry of the core's log: the
 * lanes' addresses, their lowest and highest, and the values stored or
 * loaded (sg_block_log). */
static void gen_log(struct gen *g, uint32_t done, LLVMValueRef lo, LLVMValueRef hi,
                    LLVMValueRef addr, LLVMValueRef data) {
  LLVMBuilderRef b = g->b;
  LLVMBasicBlockRef put = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, g->log, ""), go, put);
  LLVMPositionBuilderAtEnd(b, put);
  size_t at = offsetof(struct sg_block_log, mem) + g->nmem * sizeof(struct sg_block_mem);
  LLVMValueRef idx = c64(g, at + offsetof(struct sg_block_mem, index));
  LLVMBuildStore(b, c32(g, done), LLVMBuildGEP2(b, g->i8, g->log, &idx, 1, ""));
  idx = c64(g, at + offsetof(struct sg_block_mem, lo));
  LLVMBuildStore(b, lo, LLVMBuildGEP2(b, g->i8, g->log, &idx, 1, ""));
  idx = c64(g, at + offsetof(struct sg_block_mem, hi));
  LLVMBuildStore(b, hi, LLVMBuildGEP2(b, g->i8, g->log, &idx, 1, ""));
  idx = c64(g, at + offsetof(struct sg_block_mem, addr));
  LLVMSetAlignment(LLVMBuildStore(b, addr, LLVMBuildGEP2(b, g->i8, g->log, &idx, 1, "")), 8);
  idx = c64(g, at + offsetof(struct sg_block_mem, data));
  LLVMSetAlignment(LLVMBuildStore(b, data, LLVMBuildGEP2(b, g->i8, g->log, &idx, 1, "")), 8);
  idx = c64(g, offsetof(struct sg_block_log, n));
  LLVMBuildStore(b, c32(g, ++g->nmem), LLVMBuildGEP2(b, g->i8, g->log, &idx, 1, ""));
  LLVMBuildBr(b, go);
  LLVMPositionBuilderAtEnd(b, go);
}

/* The lowest, highest and or of the active lanes' addresses: over every
 * lane when every lane is active (where LLVM works them out from how the
 * addresses were computed, base + lane * size), else over the active ones. */
static void active_span(struct gen *g, LLVMValueRef addr, LLVMValueRef *lo, LLVMValueRef *hi,
                        LLVMValueRef *bits) {
  LLVMBuilderRef b = g->b;
  LLVMBasicBlockRef from = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef part = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMValueRef all[3] = {intrinsic(g, "llvm.vector.reduce.umin", g->vi64, &addr, 1),
                         intrinsic(g, "llvm.vector.reduce.umax", g->vi64, &addr, 1),
                         intrinsic(g, "llvm.vector.reduce.or", g->vi64, &addr, 1)};
  LLVMBuildCondBr(b, g->full, join, part);
  LLVMPositionBuilderAtEnd(b, part);
  LLVMValueRef high = LLVMBuildSelect(b, g->lanes, addr, s64(g, ~0ull), "");
  LLVMValueRef low = LLVMBuildSelect(b, g->lanes, addr, s64(g, 0), "");
  LLVMValueRef some[3] = {intrinsic(g, "llvm.vector.reduce.umin", g->vi64, &high, 1),
                          intrinsic(g, "llvm.vector.reduce.umax", g->vi64, &low, 1),
                          intrinsic(g, "llvm.vector.reduce.or", g->vi64, &low, 1)};
  LLVMBuildBr(b, join);
  LLVMPositionBuilderAtEnd(b, join);
  LLVMValueRef *out[3] = {lo, hi, bits};
  for (int i = 0; i < 3; i++) {
    *out[i] = LLVMBuildPhi(b, g->i64, "");
    LLVMValueRef v[2] = {all[i], some[i]};
    LLVMBasicBlockRef bb[2] = {from, part};
    LLVMAddIncoming(*out[i], v, bb, 2);
  }
}

/* A load or store: the interpreter's span check for the warp (one region,
 * the right permissions, each lane in its own stack slot) gives the host
 * address of the lowest lane; when it does not clear the access (or a
 * consumer's limit does not, gen_limit) the block returns the number of
 * instructions it ran, and the interpreter runs this one lane by lane with
 * its findings. Through a base register every lane holds the same value in
 * (uni), the access is one scalar access. */
static void gen_mem(struct gen *g, const struct sg_uop *u, uint64_t pc, enum kind k,
                    uint32_t done) {
  LLVMBuilderRef b = g->b;
  unsigned size = 8;
  LLVMTypeRef t = g->i64;
  bool sign = false, fp = false;
  switch ((enum sg_op)u->op) {
  case SG_OP_LB: sign = true; /* fall through */
  case SG_OP_LBU: case SG_OP_SB: size = 1, t = g->i8; break;
  case SG_OP_LH: sign = true; /* fall through */
  case SG_OP_LHU: case SG_OP_SH: size = 2, t = g->i16; break;
  case SG_OP_LW: sign = true; /* fall through */
  case SG_OP_LWU: case SG_OP_SW: size = 4, t = g->i32; break;
  case SG_OP_FLW: case SG_OP_FSW: size = 4, t = g->i32, fp = true; break;
  case SG_OP_FLD: case SG_OP_FSD: fp = true; break;
  default: break;
  }
  uint32_t perm = k == K_LOAD ? SG_PERM_R : SG_PERM_W;
  LLVMBasicBlockRef out = exit_before(g, done);
  unsigned vr = fp ? (u->rs2 & 31u) : u->rs2, dr = fp ? (u->rd & 31u) : u->rd;
  LLVMValueRef base = uni(g, false, u->rs1);
  if (base) {
    LLVMValueRef a = LLVMBuildAdd(b, base, c64(g, (uint64_t)u->imm), "");
    LLVMValueRef h = gen_span(g, u, size, perm, a, a, out);
    gen_limit(g, pc, done, a, a, a, a, out);
    if (k == K_STORE) { /* the last active lane's value lands, as lane by lane */
      LLVMValueRef v = uni(g, fp, vr);
      if (!v)
        v = LLVMBuildExtractElement(b, get(g, fp, vr), g->last_lane, "");
      LLVMSetAlignment(LLVMBuildStore(b, size < 8 ? LLVMBuildTrunc(b, v, t, "") : v, h), 1);
    } else {
      LLVMValueRef v = LLVMBuildLoad2(b, t, h, "");
      LLVMSetAlignment(v, 1);
      if (size < 8)
        v = sign ? LLVMBuildSExt(b, v, g->i64, "") : LLVMBuildZExt(b, v, g->i64, "");
      if (fp && size == 4) /* flw: NaN-boxed */
        v = LLVMBuildOr(b, v, c64(g, 0xffffffff00000000ull), "");
      set_uni(g, fp, dr, v);
    }
    gen_log(g, done, a, a, vsplat(g, g->vi64, a), get(g, fp, k == K_STORE ? vr : dr));
    return;
  }
  LLVMValueRef addr = LLVMBuildAdd(b, X(u->rs1), s64(g, (uint64_t)u->imm), "");
  LLVMValueRef lo, hi, bits;
  active_span(g, addr, &lo, &hi, &bits);
  LLVMValueRef h = gen_span(g, u, size, perm, lo, hi, out);
  gen_limit(g, pc, done, lo, hi, bits, LLVMBuildExtractElement(b, addr, g->first_lane, ""), out);
  /* The lanes' addresses: one (a uniform pointer, a kernel argument),
   * consecutive elements (the usual a[get_global_id(0)]), two runs of
   * them, elements two or four apart, or anything. Only one address
   * (among the active lanes) or anything when some lanes are not active:
   * the others may hold any address, which must not be touched. */
  LLVMTypeRef vt = LLVMVectorType(t, g->ws);
  LLVMValueRef off = LLVMBuildSub(b, addr, vsplat(g, g->vi64, lo), "");
  LLVMValueRef uniform = LLVMBuildICmp(b, LLVMIntEQ, lo, hi, "");
  LLVMValueRef steps = LLVMBuildICmp(b, LLVMIntEQ, off, g->iota_bytes[size], "");
  LLVMValueRef contiguous = intrinsic(g, "llvm.vector.reduce.and",
                                      LLVMVectorType(LLVMInt1TypeInContext(g->ctx), g->ws),
                                      &steps, 1);
  LLVMBasicBlockRef one = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef notone = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef row = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef nothalves = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef halves = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef any = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef done_bb = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMValueRef val = k == K_STORE ? get(g, fp, vr) : NULL;
  if (val && size < 8)
    val = LLVMBuildTrunc(b, val, vt, "");
  LLVMBuildCondBr(b, uniform, one, notone);
  LLVMPositionBuilderAtEnd(b, notone);
  LLVMBuildCondBr(b, LLVMBuildAnd(b, contiguous, g->full, ""), row, nothalves);
  /* Each half of the warp on consecutive elements: a 2-D work-group 16
   * wide (warps of 32 take two rows of it). */
  unsigned half = g->ws / 2;
  LLVMPositionBuilderAtEnd(b, nothalves);
  LLVMValueRef firsts = LLVMBuildShuffleVector(b, off, LLVMGetUndef(g->vi64), g->halves_first, "");
  LLVMValueRef hsteps = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildSub(b, off, firsts, ""),
                                      g->iota_half[size], "");
  LLVMValueRef by_halves = intrinsic(g, "llvm.vector.reduce.and",
                                     LLVMVectorType(LLVMInt1TypeInContext(g->ctx), g->ws),
                                     &hsteps, 1);
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBuildCondBr(b, half >= 2 && g->ws % 2 == 0 ? LLVMBuildAnd(b, by_halves, g->full, "")
                                                 : LLVMConstInt(LLVMInt1TypeInContext(g->ctx), 0, false),
                  halves, next);
  /* Lanes two or four elements apart: a field of a vector or struct per
   * work-item (the x of a float4). */
  LLVMValueRef vals[6];
  LLVMBasicBlockRef from[6] = {one, row, any, halves};
  for (unsigned i = 0; i < 2; i++) {
    unsigned k = i ? 4 : 2;
    LLVMPositionBuilderAtEnd(b, next);
    LLVMValueRef ksteps = LLVMBuildICmp(b, LLVMIntEQ, off, iota_by(g, k * size), "");
    LLVMValueRef by_k = intrinsic(g, "llvm.vector.reduce.and",
                                  LLVMVectorType(LLVMInt1TypeInContext(g->ctx), g->ws), &ksteps, 1);
    from[4 + i] = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
    next = i ? any : LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
    LLVMBuildCondBr(b, LLVMBuildAnd(b, by_k, g->full, ""), from[4 + i], next);
    LLVMPositionBuilderAtEnd(b, from[4 + i]);
    prefetch_ahead(g, h, (uint64_t)g->ws * k * size, val != NULL);
    vals[4 + i] = strided(g, t, k, h, val);
    LLVMBuildBr(b, done_bb);
  }
  /* one address: a scalar access (stores: the last lane's value lands, as
   * lane by lane) */
  LLVMPositionBuilderAtEnd(b, one);
  if (k == K_STORE) {
    LLVMValueRef v = LLVMBuildExtractElement(b, val, g->last_lane, "");
    LLVMSetAlignment(LLVMBuildStore(b, v, h), 1);
  } else {
    LLVMValueRef v = LLVMBuildLoad2(b, t, h, "");
    LLVMSetAlignment(v, 1);
    vals[0] = vsplat(g, vt, v);
  }
  LLVMBuildBr(b, done_bb);
  /* consecutive: one vector access */
  LLVMPositionBuilderAtEnd(b, row);
  prefetch_ahead(g, h, (uint64_t)g->ws * size, k == K_STORE);
  if (k == K_STORE) {
    LLVMSetAlignment(LLVMBuildStore(b, val, h), 1);
  } else {
    vals[1] = LLVMBuildLoad2(b, vt, h, "");
    LLVMSetAlignment(vals[1], 1);
  }
  LLVMBuildBr(b, done_bb);
  /* anything else: a gather or scatter, by 32-bit offsets (the span is
   * at most 4 GiB, gen_span), which take half the instructions of 64-bit
   * pointers */
  LLVMPositionBuilderAtEnd(b, any);
  LLVMValueRef off32 = LLVMBuildTrunc(b, off, g->vi32, "");
  LLVMValueRef ptrs = LLVMBuildGEP2(b, g->i8, h, &off32, 1, "");
  LLVMValueRef all = g->lanes;
  LLVMTypeRef tys[2] = {vt, LLVMVectorType(g->ptr, g->ws)};
  if (k == K_STORE) {
    unsigned id = LLVMLookupIntrinsicID("llvm.masked.scatter", 19);
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(g->mod, id, tys, 2);
    LLVMValueRef args[] = {val, ptrs, c32(g, 1), all};
    LLVMBuildCall2(b, LLVMIntrinsicGetType(g->ctx, id, tys, 2), f, args, 4, "");
  } else {
    unsigned id = LLVMLookupIntrinsicID("llvm.masked.gather", 18);
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(g->mod, id, tys, 2);
    LLVMValueRef args[] = {ptrs, c32(g, 1), all, LLVMGetUndef(vt)};
    vals[2] = LLVMBuildCall2(b, LLVMIntrinsicGetType(g->ctx, id, tys, 2), f, args, 4, "");
  }
  LLVMBuildBr(b, done_bb);
  /* two halves: two vector accesses */
  LLVMPositionBuilderAtEnd(b, halves);
  LLVMTypeRef ht = LLVMVectorType(t, half ? half : 1);
  LLVMValueRef hp[2];
  for (unsigned i = 0; i < 2; i++) {
    LLVMValueRef o = LLVMBuildExtractElement(b, off, c32(g, i * half), "");
    hp[i] = LLVMBuildGEP2(b, g->i8, h, &o, 1, "");
  }
  if (k == K_STORE) {
    for (unsigned i = 0; i < 2; i++) {
      LLVMValueRef part = LLVMBuildShuffleVector(b, val, LLVMGetUndef(vt), g->half_lanes[i], "");
      LLVMSetAlignment(LLVMBuildStore(b, part, hp[i]), 1);
    }
  } else {
    LLVMValueRef part[2];
    for (unsigned i = 0; i < 2; i++) {
      part[i] = LLVMBuildLoad2(b, ht, hp[i], "");
      LLVMSetAlignment(part[i], 1);
    }
    vals[3] = LLVMBuildShuffleVector(b, part[0], part[1], g->both_halves, "");
  }
  LLVMBuildBr(b, done_bb);
  LLVMPositionBuilderAtEnd(b, done_bb);
  if (k == K_LOAD) {
    val = LLVMBuildPhi(b, vt, "");
    LLVMAddIncoming(val, vals, from, 6);
    if (size < 8)
      val = sign ? LLVMBuildSExt(b, val, g->vi64, "") : LLVMBuildZExt(b, val, g->vi64, "");
    if (fp && size == 4) /* flw: NaN-boxed */
      val = LLVMBuildOr(b, val, s64(g, 0xffffffff00000000ull), "");
    set(g, fp, dr, val);
  }
  gen_log(g, done, lo, hi, addr, get(g, fp, k == K_STORE ? vr : dr));
}

/* An AMO, LR or SC: the span check and the consumer's limit as for a load
 * or store, the lanes aligned, then the interpreter's own atomics on the
 * lanes' host addresses (sg_exec_amo: one for the warp where an AMO's lanes
 * name one word; LR and SC lane by lane, with the lanes' reservations). A
 * consumer that asks for the accesses (g->log) gets this one from the
 * interpreter: the block returns before it. */
static void gen_amo(struct gen *g, const struct sg_uop *u, uint64_t pc, uint32_t done) {
  LLVMBuilderRef b = g->b;
  uint32_t size;
  sg_op_access((enum sg_op)u->op, &size);
  LLVMBasicBlockRef out = exit_before(g, done);
  LLVMBasicBlockRef unlogged = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBasicBlockRef aligned = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, g->log, ""), unlogged, out);
  LLVMPositionBuilderAtEnd(b, unlogged);
  LLVMValueRef addr = X(u->rs1), lo, hi, bits; /* (an AMO has no offset) */
  active_span(g, addr, &lo, &hi, &bits);
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, LLVMBuildAnd(b, bits, c64(g, size - 1), ""), ""), aligned,
                  out);
  LLVMPositionBuilderAtEnd(b, aligned);
  LLVMValueRef h = gen_span(g, u, size, SG_PERM_R | SG_PERM_W, lo, hi, out);
  gen_limit(g, pc, done, lo, hi, bits, LLVMBuildExtractElement(b, addr, g->first_lane, ""), out);
  LLVMValueRef row[3];
  for (unsigned i = 0; i < 3; i++) {
    LLVMValueRef at = c64(g, (uint64_t)i * g->ws * 8);
    row[i] = LLVMBuildGEP2(b, g->i8, g->amo_rows, &at, 1, "");
  }
  LLVMSetAlignment(LLVMBuildStore(b, addr, row[0]), 8);
  LLVMSetAlignment(LLVMBuildStore(b, X(u->rs2), row[1]), 8);
  LLVMValueRef args[] = {g->warp, c32(g, u->op), g->mask, row[0], row[1], row[2], h, lo,
                         c32(g, size)};
  LLVMValueRef fn = LLVMConstIntToPtr(c64(g, (uint64_t)(uintptr_t)sg_exec_amo), g->ptr);
  LLVMBuildCall2(b, g->amo_ty, fn, args, 9, "");
  LLVMValueRef v = LLVMBuildLoad2(b, g->vi64, row[2], "");
  LLVMSetAlignment(v, 8);
  set(g, false, u->rd, v);
}

/* The CTA descriptor's field at offset `at` (a value every lane shares). */
static LLVMValueRef desc_field(struct gen *g, size_t at, LLVMTypeRef t) {
  LLVMValueRef cs = load_at(g, g->warp, offsetof(struct sg_warp, cta), g->ptr);
  LLVMValueRef d = load_at(g, cs, offsetof(struct sg_cta_slot, desc), g->ptr);
  return load_at(g, d, at, t);
}

/* a / n for lanes a and a divisor n every lane shares, both small (a * n <
 * 2^31: thread numbers and work-group sizes): (a * m) >> 31 with m =
 * ceil(2^31 / n) (the CTA slot's ntid_recip, worked out once per CTA), one
 * 32 x 32-bit multiply per lane. It is exact: with m = (2^31 + e) / n,
 * 0 <= e < n, the error a * e / (n * 2^31) stays below 1 / n, the least
 * distance from a / n to the next integer above it. */
_Static_assert((uint64_t)(SG_MAX_CTA_THREADS + SG_MAX_WARP_SIZE) * SG_MAX_CTA_THREADS < 1ull << 31,
               "thread numbers and group sizes in small_quotient's range");
static LLVMValueRef small_quotient(struct gen *g, LLVMValueRef a, unsigned d) {
  LLVMBuilderRef b = g->b;
  LLVMValueRef cs = load_at(g, g->warp, offsetof(struct sg_warp, cta), g->ptr);
  LLVMValueRef m = load_at(g, cs, offsetof(struct sg_cta_slot, ntid_recip) + 4 * d, g->i32);
  m = LLVMBuildZExt(b, m, g->i64, "");
  LLVMValueRef low = s64(g, 0xffffffffull); /* (both below 2^32: a pmuludq) */
  LLVMValueRef p = LLVMBuildMul(b, LLVMBuildAnd(b, a, low, ""), vsplat(g, g->vi64, m), "");
  return LLVMBuildLShr(b, p, s64(g, 31), "");
}

/* A CSR read: the lane number, the local ids and the linear thread id
 * computed in the block, the rest (the same for every lane) read from the
 * CTA's descriptor and broadcast. */
static void gen_csr(struct gen *g, const struct sg_uop *u) {
  LLVMBuilderRef b = g->b;
  unsigned csr = (unsigned)u->imm;
  LLVMValueRef v = NULL, one = NULL; /* per lane, or the same for every lane */
  LLVMValueRef wid = load_at(g, g->warp, offsetof(struct sg_warp, id), g->i32);
  /* the warp's first thread */
  LLVMValueRef t0 = LLVMBuildMul(b, LLVMBuildZExt(b, wid, g->i64, ""), c64(g, g->ws), "");
  switch (csr) {
  case SG_CSR_LANE: v = g->iota; break;
  case SG_CSR_TIDLIN: v = LLVMBuildAdd(b, vsplat(g, g->vi64, t0), g->iota, ""); break;
  case SG_CSR_WARP: one = LLVMBuildZExt(b, wid, g->i64, ""); break;
  case SG_CSR_WARPSIZE: one = c64(g, g->ws); break;
  case SG_CSR_NWARP: case SG_CSR_NTID_X: case SG_CSR_NTID_Y: case SG_CSR_NTID_Z:
  case SG_CSR_CTAID_X: case SG_CSR_CTAID_Y: case SG_CSR_CTAID_Z: case SG_CSR_NCTAID_X:
  case SG_CSR_NCTAID_Y: case SG_CSR_NCTAID_Z: case SG_CSR_CORE: {
    size_t at = csr == SG_CSR_NWARP  ? offsetof(struct sg_cta_desc, num_warps)
                : csr == SG_CSR_CORE ? offsetof(struct sg_cta_desc, core_id)
                : csr <= SG_CSR_NTID_Z
                    ? offsetof(struct sg_cta_desc, ntid) + 4 * (csr - SG_CSR_NTID_X)
                : csr <= SG_CSR_CTAID_Z
                    ? offsetof(struct sg_cta_desc, ctaid) + 4 * (csr - SG_CSR_CTAID_X)
                    : offsetof(struct sg_cta_desc, nctaid) + 4 * (csr - SG_CSR_NCTAID_X);
    one = LLVMBuildZExt(b, desc_field(g, at, g->i32), g->i64, "");
    break;
  }
  case SG_CSR_PARAMS: one = desc_field(g, offsetof(struct sg_cta_desc, params_addr), g->i64); break;
  case SG_CSR_TID_X: case SG_CSR_TID_Y: case SG_CSR_TID_Z: {
    /* Thread t = t0 + lane: x = t mod ntid.x, y = t / ntid.x mod ntid.y,
     * z = t / (ntid.x * ntid.y) (t and the sizes at most
     * SG_MAX_CTA_THREADS and a warp: small_quotient's range). */
    LLVMValueRef t = LLVMBuildAdd(b, vsplat(g, g->vi64, t0), g->iota, "");
    LLVMValueRef n0 = LLVMBuildZExt(b, desc_field(g, offsetof(struct sg_cta_desc, ntid), g->i32),
                                    g->i64, "");
    LLVMValueRef n1 = LLVMBuildZExt(
        b, desc_field(g, offsetof(struct sg_cta_desc, ntid) + 4, g->i32), g->i64, "");
    LLVMValueRef v0 = vsplat(g, g->vi64, n0), v1 = vsplat(g, g->vi64, n1);
    LLVMValueRef q = small_quotient(g, t, 0);
    if (csr == SG_CSR_TID_X)
      v = LLVMBuildSub(b, t, LLVMBuildMul(b, q, v0, ""), "");
    else if (csr == SG_CSR_TID_Y)
      v = LLVMBuildSub(b, q, LLVMBuildMul(b, small_quotient(g, q, 1), v1, ""), "");
    else
      v = small_quotient(g, q, 1);
    break;
  }
  default: { /* a CSR the translator has no shortcut for: the interpreter's value */
    LLVMValueRef args[] = {g->core, g->warp, c32(g, csr)};
    LLVMValueRef fn = LLVMConstIntToPtr(c64(g, (uint64_t)(uintptr_t)sg_exec_csr_value), g->ptr);
    one = LLVMBuildCall2(b, g->value_ty, fn, args, 3, "");
    break;
  }
  }
  if (one)
    set_uni(g, false, u->rd, one);
  else
    set(g, false, u->rd, v);
}

/* A block's last instruction, a conditional branch at index i: when every
 * lane agrees the block returns with it run (SG_JIT_TAKEN when they take
 * it), else without it, for the interpreter to split the warp. */
static void gen_branch(struct gen *g, const struct sg_uop *u, uint32_t i) {
  LLVMBuilderRef b = g->b;
  LLVMIntPredicate pred = u->op == SG_OP_BEQ   ? LLVMIntEQ
                          : u->op == SG_OP_BNE ? LLVMIntNE
                          : u->op == SG_OP_BLT ? LLVMIntSLT
                          : u->op == SG_OP_BGE ? LLVMIntSGE
                          : u->op == SG_OP_BLTU ? LLVMIntULT
                                                : LLVMIntUGE;
  LLVMValueRef cond = LLVMBuildICmp(b, pred, X(u->rs1), X(u->rs2), "");
  LLVMTypeRef vb = LLVMVectorType(LLVMInt1TypeInContext(g->ctx), g->ws);
  LLVMValueRef taken = LLVMBuildAnd(b, cond, g->lanes, ""); /* of the active lanes */
  LLVMValueRef not_taken = LLVMBuildAnd(b, LLVMBuildNot(b, cond, ""), g->lanes, "");
  LLVMValueRef any = intrinsic(g, "llvm.vector.reduce.or", vb, &taken, 1);
  LLVMValueRef all = LLVMBuildNot(b, intrinsic(g, "llvm.vector.reduce.or", vb, &not_taken, 1), "");
  LLVMValueRef ran = LLVMBuildSelect(b, LLVMBuildXor(b, all, any, ""), c32(g, i), c32(g, i + 1), "");
  /* the registers live at the branch: those of both ways on */
  flush(g, g->first + i);
  LLVMBuildRet(b, LLVMBuildOr(b, ran, LLVMBuildSelect(b, all, c32(g, SG_JIT_TAKEN), c32(g, 0), ""),
                              ""));
}

/* One function per block: i32 blk(ptr core, ptr warp, ptr limits, i64
 * mask), returning how many of its instructions ran (with SG_JIT_TAKEN
 * when it ended with a branch or jump taken) on the lanes of mask. */
/* The registers u reads, as bits of the x and the f bank. */
static void reads(const struct sg_uop *u, uint64_t *x, uint64_t *f) {
  uint64_t r1 = 1ull << u->rs1, r2 = 1ull << u->rs2, r3 = 1ull << u->rs3;
  *x = *f = 0;
  switch (sg_op_fmt((enum sg_op)u->op)) {
  case SG_FMT_R: case SG_FMT_S: case SG_FMT_B: *x = r1 | r2; break;
  case SG_FMT_I: case SG_FMT_SH: case SG_FMT_L: case SG_FMT_FL: case SG_FMT_XF: *x = r1; break;
  case SG_FMT_FS: *x = r1, *f = r2; break;
  case SG_FMT_R4: *f = r1 | r2 | r3; break;
  case SG_FMT_FR: case SG_FMT_FC: *f = r1 | r2; break;
  case SG_FMT_F1: case SG_FMT_FX: *f = r1; break;
  default: break; /* U, J: none; CSR reads are handled by gen_csr */
  }
}

/* entry_block: the block at a kernel's entry, which only a warp's start
 * runs. */
static void gen_block(struct gen *g, const struct sg_code *code, size_t first, uint32_t len,
                      const char *name, bool entry_block) {
  LLVMTypeRef params[] = {g->ptr, g->ptr, g->ptr, g->i64};
  LLVMTypeRef ft = LLVMFunctionType(g->i32, params, 4, false);
  g->fn = LLVMAddFunction(g->mod, name, ft);
  g->core = LLVMGetParam(g->fn, 0);
  g->warp = LLVMGetParam(g->fn, 1);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "");
  LLVMPositionBuilderAtEnd(g->b, entry);
  g->mask = LLVMGetParam(g->fn, 3);
  g->lanes = LLVMBuildBitCast(
      g->b, LLVMBuildTruncOrBitCast(g->b, g->mask, LLVMIntTypeInContext(g->ctx, g->ws), ""),
      LLVMVectorType(LLVMInt1TypeInContext(g->ctx), g->ws), "");
  g->full = LLVMBuildICmp(g->b, LLVMIntEQ, g->mask,
                          c64(g, g->ws == 64 ? ~0ull : (1ull << g->ws) - 1), "");
  LLVMValueRef no_zero = LLVMConstInt(LLVMInt1TypeInContext(g->ctx), 1, false);
  LLVMValueRef cttz_args[] = {g->mask, no_zero};
  g->first_lane = LLVMBuildTrunc(g->b, intrinsic(g, "llvm.cttz", g->i64, cttz_args, 2), g->i32, "");
  g->last_lane = LLVMBuildSub(
      g->b, c32(g, 63),
      LLVMBuildTrunc(g->b, intrinsic(g, "llvm.ctlz", g->i64, cttz_args, 2), g->i32, ""), "");
  g->lim = LLVMBuildAlloca(g->b, g->ptr, "");
  LLVMBuildStore(g->b, LLVMGetParam(g->fn, 2), g->lim);
  g->amo_rows = LLVMBuildAlloca(g->b, LLVMArrayType(g->vi64, 3), "");
  /* the core's log, for consumers (lim given) that ask for accesses */
  g->log = LLVMBuildSelect(g->b, LLVMBuildIsNull(g->b, LLVMGetParam(g->fn, 2), ""),
                           LLVMConstNull(g->ptr),
                           load_at(g, g->core, offsetof(struct sg_core, block_log), g->ptr), "");
  g->nmem = 0;
  memset(g->val, 0, sizeof g->val);
  memset(g->uni, 0, sizeof g->uni);
  memset(g->raw, 0, sizeof g->raw);
  g->dirty[0] = g->dirty[1] = 0;
  g->code = code;
  g->first = first;
  if (entry_block) /* warps start with a0 = the parameter block in every lane */
    g->uni[0][10] = LLVMBuildExtractElement(g->b, get(g, false, 10), g->first_lane, "");
  for (uint32_t i = 0; i < len; i++) {
    const struct sg_uop *u = &code->uops[first + i];
    enum kind k = kind_of(code, u);
    /* arithmetic on values every lane holds the same gives one too */
    bool same = k == K_ALU || k == K_FP || k == K_FCMP;
    uint64_t rx, rf;
    reads(u, &rx, &rf);
    for (unsigned r = 0; same && r < 32; r++)
      same = (!(rx >> r & 1) || uni(g, false, r)) && (!(rf >> r & 1) || uni(g, true, r));
    switch (k) {
    case K_ALU: gen_alu(g, u, code->base + 4 * (first + i)); break;
    case K_FP: gen_fp(g, u); break;
    case K_FCMP: gen_fcmp(g, u); break;
    case K_LOAD: case K_STORE: gen_mem(g, u, code->base + 4 * (first + i), k, i); break;
    case K_AMO: gen_amo(g, u, code->base + 4 * (first + i), i); break;
    case K_CSR: gen_csr(g, u); break;
    case K_BRANCH: gen_branch(g, u, i); return;
    case K_JUMP: /* what is live at the jump is what its target reads */
      flush(g, g->first + i);
      LLVMBuildRet(g->b, c32(g, (i + 1) | SG_JIT_TAKEN));
      return;
    case K_EXIT: /* (the lanes' registers stored as at any block's end) */
      ret_at(g, i + 1, 0);
      return;
    case K_NONE: break;
    }
    if (same) {
      bool fp = !sg_op_writes_x((enum sg_op)u->op);
      unsigned rd = fp ? u->rd & 31u : u->rd;
      g->uni[fp][rd] = LLVMBuildExtractElement(g->b, g->val[fp][rd], c32(g, 0), "");
    }
  }
  ret_at(g, len, 0);
}

/* ---- Translating a program ----------------------------------------------- */

static void debug(const struct sg_core *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void debug(const struct sg_core *c, const char *fmt, ...) {
  if (!c->cfg.debug)
    return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "SoftGPU: jit: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static char *take_error(LLVMErrorRef e) {
  char *m = LLVMGetErrorMessage(e), *s = strdup(m ? m : "?");
  LLVMDisposeErrorMessage(m);
  return s;
}

static LLVMTargetMachineRef host_machine(char **err) {
  char *triple = LLVMGetDefaultTargetTriple(), *cpu = LLVMGetHostCPUName(),
       *features = LLVMGetHostCPUFeatures();
  LLVMTargetRef target;
  LLVMTargetMachineRef tm = NULL;
  if (!LLVMGetTargetFromTriple(triple, &target, err))
    tm = LLVMCreateTargetMachine(target, triple, cpu, features, LLVMCodeGenLevelLess,
                                 LLVMRelocDefault, LLVMCodeModelJITDefault);
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  return tm;
}

static void init_llvm(void) {
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
}

/* Words reachable from the entry at word e (calls followed, returns to
 * every call's next word; indirect jumps lead nowhere known, so what only
 * they reach stays interpreted). */
static bool *reachable(const struct sg_code *code, size_t e) {
  bool *seen = calloc(code->n + 1, 1);
  size_t *stack = malloc((code->n + 1) * sizeof *stack), top = 0;
  if (!seen || !stack) {
    free(seen);
    free(stack);
    return NULL;
  }
#define PUSH(t)                                                         \
  do {                                                                  \
    uint64_t t_ = (t);                                                  \
    if (t_ >= code->base && (t_ - code->base) / 4 < code->n && !(t_ & 3) && \
        !seen[(t_ - code->base) / 4]) {                                 \
      seen[(t_ - code->base) / 4] = true;                               \
      stack[top++] = (t_ - code->base) / 4;                             \
    }                                                                   \
  } while (0)
  PUSH(code->base + 4 * e);
  while (top) {
    size_t i = stack[--top];
    const struct sg_uop *u = &code->uops[i];
    uint64_t pc = code->base + 4 * i;
    switch (sg_uop_flow(u)) {
    case SG_FLOW_NEXT: PUSH(pc + 4); break;
    case SG_FLOW_BRANCH: PUSH(pc + 4); PUSH(pc + (uint64_t)u->imm); break;
    case SG_FLOW_JUMP: PUSH(pc + (uint64_t)u->imm); break;
    case SG_FLOW_CALL:
      if (u->op == SG_OP_JAL)
        PUSH(pc + (uint64_t)u->imm);
      PUSH(pc + 4);
      break;
    default: break;
    }
  }
#undef PUSH
  free(stack);
  return seen;
}

static bool make_lljit(struct sg_jit *j, char **why) {
  char *err = NULL;
  LLVMTargetMachineRef tm = host_machine(&err);
  if (!tm) {
    *why = strdup(err ? err : "no target machine for the host");
    LLVMDisposeMessage(err);
    return false;
  }
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  j->t.layout = LLVMCopyStringRepOfTargetData(td);
  LLVMDisposeTargetData(td);
  j->t.triple = LLVMGetTargetMachineTriple(tm);
  j->t.tm = tm;
  LLVMOrcLLJITBuilderRef jb = LLVMOrcCreateLLJITBuilder();
  LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
      jb, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(host_machine(&err)));
  LLVMErrorRef e = LLVMOrcCreateLLJIT(&j->t.lljit, jb);
  if (e) {
    *why = take_error(e);
    j->t.lljit = NULL;
    return false;
  }
  /* libm and compiler-rt calls the back end may emit (fma without FMA
   * hardware, for one) resolve in this process. */
  LLVMOrcDefinitionGeneratorRef dg = NULL;
  if (!(e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
            &dg, LLVMOrcLLJITGetGlobalPrefix(j->t.lljit), NULL, NULL)))
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(j->t.lljit), dg);
  else
    LLVMConsumeError(e);
  return true;
}

/* Translates the blocks of two or more instructions reachable from the
 * entry at word e that are not translated yet: one module, optimised for
 * the host, added to the program's LLJIT; fills their j->t.entry. */
static bool translate(const struct sg_code *code, struct sg_jit *j, size_t e, char **why) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, init_llvm);
  if (!j->t.entry && !(j->t.entry = calloc(code->n ? code->n : 1, sizeof *j->t.entry))) {
    *why = strdup("out of memory");
    return false;
  }
  if (!j->t.lljit && !make_lljit(j, why))
    return false;
  bool *lead = leaders(code), *reach = reachable(code, e);
  if (!lead || !reach) {
    free(lead);
    free(reach);
    *why = strdup("out of memory");
    return false;
  }
  LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
  struct gen g = {.ctx = LLVMOrcThreadSafeContextGetContext(tsc), .ws = j->ws};
  g.mod = LLVMModuleCreateWithNameInContext("sg_jit", g.ctx);
  g.b = LLVMCreateBuilderInContext(g.ctx);
  g.i8 = LLVMInt8TypeInContext(g.ctx), g.i16 = LLVMInt16TypeInContext(g.ctx);
  g.i32 = LLVMInt32TypeInContext(g.ctx), g.i64 = LLVMInt64TypeInContext(g.ctx);
  g.i128 = LLVMInt128TypeInContext(g.ctx);
  g.f32 = LLVMFloatTypeInContext(g.ctx), g.f64 = LLVMDoubleTypeInContext(g.ctx);
  g.ptr = LLVMPointerTypeInContext(g.ctx, 0);
  g.vi64 = LLVMVectorType(g.i64, g.ws), g.vi32 = LLVMVectorType(g.i32, g.ws);
  g.vf32 = LLVMVectorType(g.f32, g.ws), g.vf64 = LLVMVectorType(g.f64, g.ws);
  LLVMTypeRef span_args[] = {g.ptr, g.ptr, g.i32, g.i64, g.i32, g.i32, g.i64, g.i64, g.i32, g.i64};
  g.span_ty = LLVMFunctionType(g.ptr, span_args, 10, false);
  LLVMTypeRef note_args[] = {g.ptr, g.i64, g.i32, g.i64, g.i64, g.i32, g.i64};
  g.note_ty = LLVMFunctionType(g.ptr, note_args, 7, false);
  LLVMValueRef lane[SG_MAX_WARP_SIZE];
  unsigned half = g.ws / 2 ? g.ws / 2 : 1;
  for (unsigned n = 0; n <= 8; n++) {
    for (unsigned l = 0; l < g.ws; l++)
      lane[l] = c64(&g, (uint64_t)l * (n ? n : 1));
    if (n == 0)
      g.iota = LLVMConstVector(lane, g.ws);
    else
      g.iota_bytes[n] = LLVMConstVector(lane, g.ws);
    for (unsigned l = 0; n && l < g.ws; l++)
      lane[l] = c64(&g, (uint64_t)(l % half) * n);
    if (n)
      g.iota_half[n] = LLVMConstVector(lane, g.ws);
  }
  for (unsigned l = 0; l < g.ws; l++)
    lane[l] = c32(&g, l / half * half);
  g.halves_first = LLVMConstVector(lane, g.ws);
  for (unsigned i = 0; i < 2; i++) {
    for (unsigned l = 0; l < half; l++)
      lane[l] = c32(&g, i * half + l);
    g.half_lanes[i] = LLVMConstVector(lane, half);
  }
  for (unsigned l = 0; l < g.ws; l++)
    lane[l] = c32(&g, l < 2 * half ? l : 0);
  g.both_halves = LLVMConstVector(lane, g.ws);
  LLVMTypeRef value_args[] = {g.ptr, g.ptr, g.i32};
  g.value_ty = LLVMFunctionType(g.i64, value_args, 3, false);
  LLVMTypeRef amo_args[] = {g.ptr, g.i32, g.i64, g.ptr, g.ptr, g.ptr, g.ptr, g.i64, g.i32};
  g.amo_ty = LLVMFunctionType(LLVMVoidTypeInContext(g.ctx), amo_args, 9, false);
  LLVMSetDataLayout(g.mod, j->t.layout);
  LLVMSetTarget(g.mod, j->t.triple);
  uint32_t blocks = 0;
  for (size_t i = 0; i < code->n;) {
    uint32_t len = 0;
    /* (an sg.exit alone is no block: entering one costs the consumers as
     * much as its record) */
    while (i + len < code->n && len < SG_BLOCK_MAX && kind_of(code, &code->uops[i + len]) != K_NONE &&
           (len == 0 ? code->uops[i].op != SG_OP_SG_EXIT : !lead[i + len]))
      len++;
    if (len >= 1 && lead[i] && reach[i] && !j->t.entry[i].len) {
      char name[32];
      snprintf(name, sizeof name, "b%zu", i);
      gen_block(&g, code, i, len, name, i == e && !targeted(code, e));
      j->t.entry[i].len = len;
      for (uint32_t k = 0; k < len; k++)
        j->t.entry[i].dyn_rm |=
            kind_of(code, &code->uops[i + k]) == K_FP && code->uops[i + k].rm == SG_RM_DYN;
      blocks++;
      j->t.insns += len;
    }
    if (len == SG_BLOCK_MAX && i + len < code->n) /* longer straight-line code goes on in a block of its own */
      lead[i + len] = true;
    i += len ? len : 1;
  }
  free(lead);
  free(reach);
  LLVMDisposeBuilder(g.b);
  j->t.blocks += blocks;
  bool ok = false;
  LLVMErrorRef err = NULL;
  char *verr = NULL;
  if (blocks == 0) {
    ok = true; /* nothing new to translate */
    LLVMDisposeModule(g.mod);
    goto done;
  }
  if (LLVMVerifyModule(g.mod, LLVMReturnStatusAction, &verr)) {
    *why = strdup(verr ? verr : "invalid IR");
    LLVMDisposeMessage(verr);
    LLVMDisposeModule(g.mod);
    goto done;
  }
  LLVMDisposeMessage(verr);
  /* Blocks are straight-line code: combining and common subexpressions
   * (the same register row loaded by several instructions) is what pays;
   * the loop and inlining pipelines of O2 would only cost compile time. */
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  static const char passes[] = "function(mem2reg,instcombine<no-verify-fixpoint>,early-cse,dse,"
                               "instcombine<no-verify-fixpoint>)";
  err = LLVMRunPasses(g.mod, passes, j->t.tm, po);
  LLVMDisposePassBuilderOptions(po);
  if (err) {
    *why = take_error(err);
    LLVMDisposeModule(g.mod);
    goto done;
  }
  LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(g.mod, tsc);
  if ((err =
           LLVMOrcLLJITAddLLVMIRModule(j->t.lljit, LLVMOrcLLJITGetMainJITDylib(j->t.lljit), tsm))) {
    *why = take_error(err);
    LLVMOrcDisposeThreadSafeModule(tsm);
    goto done;
  }
  ok = true;
  for (size_t i = 0; i < code->n && ok; i++) {
    if (!j->t.entry[i].len || j->t.entry[i].fn)
      continue;
    char name[32];
    snprintf(name, sizeof name, "b%zu", i);
    LLVMOrcExecutorAddress addr = 0;
    if ((err = LLVMOrcLLJITLookup(j->t.lljit, &addr, name))) {
      *why = take_error(err);
      ok = false;
    } else {
      j->t.entry[i].fn = (uint32_t(*)(struct sg_core *, struct sg_warp *,
                                      const struct sg_block_limit *, uint64_t))(uintptr_t)addr;
    }
  }
done:
  LLVMOrcDisposeThreadSafeContext(tsc);
  if (!ok) /* blocks without a function are not run */
    for (size_t i = 0; i < code->n; i++)
      if (!j->t.entry[i].fn)
        j->t.entry[i].len = 0;
  return ok;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* ---- A program's translation, and its reuse ------------------------------ */

enum sg_status sg_jit_create(const struct sg_code *code, const uint32_t *words,
                             struct sg_jit **out) {
  struct sg_jit *j = calloc(1, sizeof *j);
  size_t n = code->n ? code->n : 1;
  if (!j || !(j->words = malloc(n * sizeof *j->words)) ||
      !(j->reconv = malloc(n * sizeof *j->reconv))) {
    if (j)
      free(j->words);
    free(j);
    return SG_ENOMEM;
  }
  pthread_mutex_init(&j->lock, NULL);
  j->base = code->base;
  j->n = code->n;
  memcpy(j->words, words, code->n * sizeof *j->words);
  memcpy(j->reconv, code->reconv, code->n * sizeof *j->reconv);
  *out = j;
  return SG_OK;
}

static void translation_free(struct translation *t) {
  if (t->lljit) {
    LLVMErrorRef e = LLVMOrcDisposeLLJIT(t->lljit);
    if (e)
      LLVMConsumeError(e);
  }
  if (t->tm)
    LLVMDisposeTargetMachine(t->tm);
  LLVMDisposeMessage(t->layout);
  LLVMDisposeMessage(t->triple);
  free(t->kernels);
  free(t->entry);
}

static void jit_free(struct sg_jit *j) {
  if (!j)
    return;
  translation_free(&j->t);
  free(j->words);
  free(j->reconv);
  pthread_mutex_destroy(&j->lock);
  free(j);
}

/* Translations outlive their program: the CTS, and applications, build
 * the same program again and again (c11_atomics translated 16 programs
 * 443 times in a minute), and what one program's code was translated to
 * serves any program with the same code and warp size. The last
 * RETIRED_MAX released ones wait here for such a twin, the oldest going
 * first. */
#define RETIRED_MAX 16
static pthread_mutex_t retired_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sg_jit *retired[RETIRED_MAX];
static unsigned nretired;

void sg_jit_destroy(struct sg_jit *j) {
  if (!j || !j->t.lljit || j->t.failed) {
    jit_free(j);
    return;
  }
  struct sg_jit *oldest = NULL;
  pthread_mutex_lock(&retired_lock);
  if (nretired == RETIRED_MAX) {
    oldest = retired[0];
    memmove(retired, retired + 1, --nretired * sizeof *retired);
  }
  retired[nretired++] = j;
  pthread_mutex_unlock(&retired_lock);
  jit_free(oldest);
}

static bool same_code(const struct sg_jit *a, const struct sg_jit *b) {
  return a->base == b->base && a->n == b->n &&
         !memcmp(a->words, b->words, a->n * sizeof *a->words) &&
         !memcmp(a->reconv, b->reconv, a->n * sizeof *a->reconv);
}

/* A program's first use, at warp size ws (under j->lock): a released
 * program's translation of the same code for ws, if one waits, becomes
 * this one's, with its kernels' counts (so a kernel translated there is
 * translated here from its first CTA). */
static void first_use(struct sg_jit *j, unsigned ws) {
  if (j->ws)
    return;
  j->ws = ws;
  struct sg_jit *twin = NULL;
  pthread_mutex_lock(&retired_lock);
  for (unsigned i = nretired; i-- > 0;)
    if (retired[i]->ws == ws && same_code(retired[i], j)) {
      twin = retired[i];
      memmove(&retired[i], &retired[i + 1], (--nretired - i) * sizeof *retired);
      break;
    }
  pthread_mutex_unlock(&retired_lock);
  if (!twin)
    return;
  struct translation mine = j->t;
  j->t = twin->t;
  twin->t = mine;
  jit_free(twin);
}

/* The record of a kernel entry (created when new; NULL without memory). */
static struct kernel *kernel_of(struct sg_jit *j, uint64_t entry_pc) {
  for (uint32_t i = 0; i < j->t.nkernels; i++)
    if (j->t.kernels[i].entry_pc == entry_pc)
      return &j->t.kernels[i];
  struct kernel *k = realloc(j->t.kernels, (j->t.nkernels + 1) * sizeof *k);
  if (!k)
    return NULL;
  j->t.kernels = k;
  k[j->t.nkernels] = (struct kernel){.entry_pc = entry_pc};
  return &k[j->t.nkernels++];
}

static void translate_kernel(struct sg_core *c, const struct sg_code *code, struct sg_jit *j,
                             struct kernel *k) {
  char *why = NULL;
  double t0 = now_ms();
  uint32_t before = j->t.blocks, insns = j->t.insns;
  k->translated = true;
  if (code->n > MAX_JIT_WORDS) {
    j->t.failed = true;
    debug(c, "program of %zu instructions left to the interpreter (limit %d)", code->n,
          MAX_JIT_WORDS);
  } else if (!translate(code, j, (k->entry_pc - code->base) / 4, &why)) {
    j->t.failed = true;
    debug(c, "translation failed, the program runs in the interpreter: %s", why ? why : "?");
  } else {
    double ms = now_ms() - t0;
    j->t.compile_ms += ms;
    debug(c,
          "kernel at 0x%llx: translated %u blocks (%u instructions) in %.1f ms; program: %u "
          "blocks, %u of %zu instructions, %.1f ms",
          (unsigned long long)k->entry_pc, j->t.blocks - before, j->t.insns - insns, ms,
          j->t.blocks, j->t.insns, code->n, j->t.compile_ms);
  }
  free(why);
}

/* Is it time to translate kernel k? Once the warp instructions it ran in
 * the interpreter, times its launches, reach the threshold: a kernel
 * launched again and again is likely to be launched again, so what its
 * launches cost so far predicts more of the same (a kernel run twice for
 * half the threshold is translated at its second launch, one launched
 * hundreds of times with little work each time after a few dozen), while
 * one launched once pays for translation only when it runs long. */
static bool time_to_translate(const struct sg_core *c, const struct kernel *k) {
  return k->insns >= c->cfg.jit_threshold / (k->launches > 1 ? k->launches : 1);
}

const struct sg_jit_entry *sg_jit_entries(struct sg_core *c, const struct sg_code *code,
                                          uint64_t entry_pc) {
  struct sg_jit *j = code->jit;
  if (!j || entry_pc < code->base || (entry_pc - code->base) / 4 >= code->n || (entry_pc & 3))
    return NULL;
  /* Translating costs milliseconds: a thread that finds another one at it
   * interprets meanwhile. */
  if (pthread_mutex_trylock(&j->lock))
    return NULL;
  first_use(j, c->cfg.warp_size);
  struct kernel *k = kernel_of(j, entry_pc);
  if (!j->t.failed && k && !k->translated && j->ws == c->cfg.warp_size && time_to_translate(c, k))
    translate_kernel(c, code, j, k);
  /* Only a translated kernel gets the entries: another kernel of the
   * program goes on counting toward its own translation (sg_jit_ran). */
  bool usable = !j->t.failed && j->ws == c->cfg.warp_size && j->t.lljit && k && k->translated;
  pthread_mutex_unlock(&j->lock);
  return usable ? j->t.entry : NULL;
}

void sg_jit_ran(const struct sg_code *code, unsigned ws, uint64_t entry_pc, uint64_t insns,
                bool first_cta) {
  struct sg_jit *j = code->jit;
  if (!j)
    return;
  pthread_mutex_lock(&j->lock);
  first_use(j, ws);
  struct kernel *k = kernel_of(j, entry_pc);
  if (k) {
    k->insns += insns;
    k->launches += first_cta;
  }
  pthread_mutex_unlock(&j->lock);
}
