/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), "decode once": sg_insn.def turned into the
 * decoder, the per-op table lookups, and the pre-decoded program (struct
 * sg_code) with its reconvergence table. */
#include "sg_sim_impl.h"

#include <stdlib.h>

struct insn_info {
  uint32_t match, mask;
  uint8_t fmt, unit;
  const char *mnem;
};

static const struct insn_info insns[SG_OP_COUNT] = {
#define SG_INSN(name, m, k, fmt, unit, mnem) \
  [SG_OP_##name] = {m, k, SG_FMT_##fmt, SG_UNIT_##unit, mnem},
#include "sg_insn.def"
#undef SG_INSN
    [SG_OP_ILLEGAL] = {0, 0, SG_FMT_N, SG_UNIT_ALU, "illegal"},
};

const char *sg_op_name(enum sg_op op) { return insns[op < SG_OP_COUNT ? op : SG_OP_ILLEGAL].mnem; }
enum sg_fmt sg_op_fmt(enum sg_op op) { return insns[op < SG_OP_COUNT ? op : SG_OP_ILLEGAL].fmt; }
enum sg_unit sg_op_unit(enum sg_op op) { return insns[op < SG_OP_COUNT ? op : SG_OP_ILLEGAL].unit; }

/* Loads, stores and atomics are the LSU's ops with an address operand; the
 * width is funct3[1:0] as log2 bytes for all of them (RISC-V's encoding
 * tables: lb/lh/lw/ld, flw/fld, the .w and .d atomics). */
enum sg_mem_kind sg_op_access(enum sg_op op, uint32_t *size) {
  const struct insn_info *i = &insns[op < SG_OP_COUNT ? op : SG_OP_ILLEGAL];
  enum sg_mem_kind k = SG_MEM_NONE;
  if (i->unit == SG_UNIT_LSU)
    switch (i->fmt) {
    case SG_FMT_L: case SG_FMT_FL: k = SG_MEM_LOAD; break;
    case SG_FMT_S: case SG_FMT_FS: k = SG_MEM_STORE; break;
    case SG_FMT_A: case SG_FMT_LR: k = SG_MEM_ATOMIC; break;
    default: break;
    }
  *size = k == SG_MEM_NONE ? 0 : 1u << (i->match >> 12 & 3);
  return k;
}

bool sg_op_has_rm(enum sg_op op) {
  const struct insn_info *i = &insns[op < SG_OP_COUNT ? op : SG_OP_ILLEGAL];
  return i->unit == SG_UNIT_FPU && i->mask && !(i->mask & 0x7000);
}

bool sg_op_writes_x(enum sg_op op) {
  switch (sg_op_fmt(op)) {
  case SG_FMT_R: case SG_FMT_I: case SG_FMT_SH: case SG_FMT_L: case SG_FMT_U:
  case SG_FMT_J: case SG_FMT_FX: case SG_FMT_FC: case SG_FMT_A: case SG_FMT_LR:
  case SG_FMT_CSR: case SG_FMT_CSRI: case SG_FMT_X2: case SG_FMT_TX:
    return true;
  default:
    return false;
  }
}

const char *sg_sfu_name(unsigned fn) {
  switch (fn) {
#define SG_SFU(name, num, arity, ffn, dfn) case num: return #name;
#include "sg_sfu.def"
#undef SG_SFU
  default: return NULL;
  }
}

const char *sg_mark_name(unsigned kind) {
  switch (kind) {
#define SG_MARK(name, num, role, args) case num: return #name;
#include "sg_mark.def"
#undef SG_MARK
  default: return NULL;
  }
}

enum sg_mark_role sg_mark_role(unsigned kind) {
  switch (kind) {
#define SG_MARK(name, num, role, args) case num: return SG_MARK_##role;
#include "sg_mark.def"
#undef SG_MARK
  default: return SG_MARK_NONE;
  }
}

unsigned sg_sfu_arity(unsigned fn) {
  switch (fn) {
#define SG_SFU(name, num, arity, ffn, dfn) case num: return arity;
#include "sg_sfu.def"
#undef SG_SFU
  default: return 0;
  }
}

/* Sign extension of a `bits`-wide field without shifting a negative value
 * (undefined in C): flip the sign bit, then subtract its weight. */
static int64_t sext(uint32_t v, unsigned bits) {
  uint32_t sign = 1u << (bits - 1);
  return (int64_t)((v & (2 * sign - 1)) ^ sign) - (int64_t)sign;
}
static int64_t imm_i(uint32_t w) { return sext(w >> 20, 12); }
static int64_t imm_s(uint32_t w) { return sext((w >> 25) << 5 | (w >> 7 & 0x1f), 12); }
static int64_t imm_b(uint32_t w) {
  return sext((w >> 31) << 12 | (w >> 7 & 1) << 11 | (w >> 25 & 0x3f) << 5 | (w >> 8 & 0xf) << 1, 13);
}
static int64_t imm_j(uint32_t w) {
  return sext((w >> 31) << 20 | (w & 0xff000) | (w >> 20 & 1) << 11 | (w >> 21 & 0x3ff) << 1, 21);
}

static int64_t decode_imm(enum sg_fmt fmt, uint32_t w) {
  switch (fmt) {
  case SG_FMT_I: case SG_FMT_L: case SG_FMT_FL: return imm_i(w);
  case SG_FMT_SH: return w >> 20 & 0x3f;
  case SG_FMT_S: case SG_FMT_FS: return imm_s(w);
  case SG_FMT_B: return imm_b(w);
  case SG_FMT_U: return sext(w & 0xfffff000u, 32);
  case SG_FMT_J: return imm_j(w);
  case SG_FMT_CSR: case SG_FMT_CSRI: return w >> 20;
  case SG_FMT_FENCE: return w >> 20 & 0xff;
  default: return 0;
  }
}

static enum sg_op lookup(uint32_t w) {
  for (unsigned op = 0; op < SG_OP_ILLEGAL; op++)
    if ((w & insns[op].mask) == insns[op].match)
      return op;
  return SG_OP_ILLEGAL;
}

void sg_decode(uint32_t w, struct sg_uop *u) {
  enum sg_op op = lookup(w);
  unsigned f7 = w >> 25;
  /* custom-0 is only as large as sg_sfu.def */
  if ((op == SG_OP_SFU_S || op == SG_OP_SFU_D) && !sg_sfu_name(f7))
    op = SG_OP_ILLEGAL;
  /* sg.mark only as large as sg_mark.def */
  if (op == SG_OP_SG_MARK && !sg_mark_name(f7))
    op = SG_OP_ILLEGAL;
  /* texture instructions: funct2 names a kind, rd and rs2 an even pair */
  bool tex = insns[op].unit == SG_UNIT_TEX;
  if (tex && ((f7 & 3) > SG_TEX_KIND_UINT || !sg_pair_reg(w >> 7 & 31) || !sg_pair_reg(w >> 20 & 31)))
    op = SG_OP_ILLEGAL;
  enum sg_fmt fmt = insns[op].fmt;
  u->op = op;
  u->unit = insns[op].unit;
  uint32_t size;
  u->mem = (uint8_t)sg_op_access(op, &size);
  u->size = (uint8_t)size;
  u->rd = w >> 7 & 31;
  u->rs1 = w >> 15 & 31;
  u->rs2 = w >> 20 & 31;
  u->rs3 = w >> 27;
  u->rm = (fmt == SG_FMT_SFU || insns[op].unit == SG_UNIT_SIMT) ? f7
           : tex && op != SG_OP_ILLEGAL                           ? (f7 & 3)
                                                                  : (w >> 12 & 7);
  u->imm = decode_imm(fmt, w);
  u->raw = w;
}

enum sg_flow sg_uop_flow(const struct sg_uop *u) {
  bool link = u->rd != 0 && u->rd != SG_XSINK; /* pre-decoded code writes x0 to the sink */
  switch (u->op) {
  case SG_OP_JAL: return link ? SG_FLOW_CALL : SG_FLOW_JUMP;
  case SG_OP_JALR:
    if (link)
      return SG_FLOW_CALL;
    return (u->rs1 == 1 || u->rs1 == 5) && u->imm == 0 ? SG_FLOW_RETURN : SG_FLOW_LEAVE;
  case SG_OP_SG_EXIT: case SG_OP_ILLEGAL: case SG_OP_ECALL: case SG_OP_EBREAK:
    return SG_FLOW_EXIT;
  default:
    return sg_op_fmt(u->op) == SG_FMT_B ? SG_FLOW_BRANCH : SG_FLOW_NEXT;
  }
}

/* ---- Pre-decoded program ---------------------------------------------- */

static bool in_code(const struct sg_code *c, uint64_t pc) {
  return pc >= c->base && (pc - c->base) / 4 < c->n && (pc & 3) == 0;
}

/* fflags/fcsr readers make per-lane exception flags observable. */
static bool reads_fflags(const struct sg_uop *u) {
  enum sg_fmt fmt = sg_op_fmt(u->op);
  return (fmt == SG_FMT_CSR || fmt == SG_FMT_CSRI) &&
         (u->imm == SG_CSR_FFLAGS || u->imm == SG_CSR_FCSR);
}

/* ---- Registers live at an instruction ----------------------------------- */

/* Registers an instruction reads and writes, by bank (x: bits 0-32 with the
 * x0 sink, f: bits 0-31), from its operand layout. */
static void uop_regs(const struct sg_uop *u, uint64_t *rx, uint64_t *rf, uint64_t *wx,
                     uint64_t *wf) {
  uint64_t s1 = 1ull << u->rs1, s2 = 1ull << u->rs2, s3 = 1ull << (u->rs3 & 31),
           d = 1ull << u->rd;
  *rx = *rf = *wx = *wf = 0;
  switch (sg_op_fmt(u->op)) {
  case SG_FMT_R: case SG_FMT_A: *rx = s1 | s2; *wx = d; break;
  case SG_FMT_I: case SG_FMT_SH: case SG_FMT_L: case SG_FMT_LR: case SG_FMT_CSR:
  case SG_FMT_X2: *rx = s1; *wx = d; break;
  case SG_FMT_S: case SG_FMT_B: *rx = s1 | s2; break;
  case SG_FMT_U: case SG_FMT_J: case SG_FMT_CSRI: *wx = d; break;
  case SG_FMT_FL: *rx = s1; *wf = d; break;
  case SG_FMT_FS: *rx = s1; *rf = s2; break;
  case SG_FMT_R4: *rf = s1 | s2 | s3; *wf = d; break;
  case SG_FMT_FR: case SG_FMT_SFU: *rf = s1 | s2; *wf = d; break;
  case SG_FMT_F1: *rf = s1; *wf = d; break;
  case SG_FMT_FX: *rf = s1; *wx = d; break;
  case SG_FMT_XF: *rx = s1; *wf = d; break;
  case SG_FMT_FC: *rf = s1 | s2; *wx = d; break;
  case SG_FMT_X1: *rx = s1; break;
  case SG_FMT_FENCE: case SG_FMT_N: break;
  case SG_FMT_MARK: *rx = s1 | s2; break;
  /* texture instructions move register pairs; samples also read a sampler */
  case SG_FMT_TX:
    *rx = s1 | s2 | s2 << 1 | (u->op == SG_OP_TEX_SAMPLE || u->op == SG_OP_TEX_SAMPLEI ? s3 : 0);
    *wx = d | d << 1;
    break;
  case SG_FMT_TXS: *rx = s1 | s2 | s2 << 1 | d | d << 1; break;
  }
}

/* Backward liveness over the whole code, per work-item: a register is live
 * at an instruction when some path from there reads it before writing it.
 * A warp only needs the registers live at its entry zeroed (the others are
 * written before any lane reads them), which saves most of the per-warp
 * set-up of short kernels. Returns and unknown jump targets are handled
 * conservatively: a return continues at every call's return address, an
 * indirect jump or call anywhere makes every register live. */
static bool compute_liveness(struct sg_code *c) {
  const uint64_t all = ~0ull;
  size_t n = c->n;
  c->live = calloc(n ? n : 1, sizeof *c->live);
  if (!c->live)
    return false;
  bool changed = true;
  uint64_t ret_x = 0, ret_f = 0; /* live at the return address of some call */
  while (changed) {
    changed = false;
    uint64_t nret_x = 0, nret_f = 0;
    for (size_t i = n; i-- > 0;) {
      const struct sg_uop *u = &c->uops[i];
      uint64_t pc = c->base + 4 * i, ox = 0, of = 0;
#define SUCC(t)                                              \
  do {                                                       \
    if (in_code(c, (t))) {                                   \
      ox |= c->live[((t) - c->base) / 4][0];                 \
      of |= c->live[((t) - c->base) / 4][1];                 \
    } else {                                                 \
      ox = of = all;                                         \
    }                                                        \
  } while (0)
      switch (sg_uop_flow(u)) {
      case SG_FLOW_NEXT: SUCC(pc + 4); break;
      case SG_FLOW_BRANCH: SUCC(pc + 4); SUCC(pc + (uint64_t)u->imm); break;
      case SG_FLOW_JUMP: SUCC(pc + (uint64_t)u->imm); break;
      case SG_FLOW_CALL:
        if (u->op == SG_OP_JAL)
          SUCC(pc + (uint64_t)u->imm);
        else
          ox = of = all;
        if (in_code(c, pc + 4))
          nret_x |= c->live[i + 1][0], nret_f |= c->live[i + 1][1];
        break;
      case SG_FLOW_RETURN: ox = ret_x, of = ret_f; break;
      case SG_FLOW_LEAVE: ox = of = all; break;
      case SG_FLOW_EXIT: break;
      }
#undef SUCC
      uint64_t rx, rf, wx, wf;
      uop_regs(u, &rx, &rf, &wx, &wf);
      uint64_t lx = (ox & ~wx) | rx, lf = (of & ~wf) | rf;
      if ((lx | c->live[i][0]) != c->live[i][0] || (lf | c->live[i][1]) != c->live[i][1]) {
        c->live[i][0] |= lx;
        c->live[i][1] |= lf;
        changed = true;
      }
    }
    if ((nret_x | ret_x) != ret_x || (nret_f | ret_f) != ret_f) {
      ret_x |= nret_x, ret_f |= nret_f;
      changed = true;
    }
  }
  return true;
}

void sg_code_live_in(const struct sg_code *c, uint64_t pc, uint64_t *x, uint64_t *f) {
  if (in_code(c, pc)) {
    *x = c->live[(pc - c->base) / 4][0];
    *f = c->live[(pc - c->base) / 4][1];
  } else {
    *x = c->x_used, *f = c->f_used;
  }
  *x &= (1ull << SG_NXREGS) - 1; /* "every register" is all ones */
  *f &= 0xffffffffull;
}

enum sg_status sg_code_create(const uint32_t *words, size_t nwords, uint64_t base,
                              const struct sg_reconv *table, size_t ntable,
                              struct sg_code **out) {
  *out = NULL;
  if ((base & 3) || nwords > (SIZE_MAX / sizeof(struct sg_uop)) || base + nwords * 4 < base)
    return SG_EINVAL;
  struct sg_code *c = calloc(1, sizeof(*c));
  if (!c)
    return SG_ENOMEM;
  static _Atomic uint64_t ids;
  c->id = ++ids;
  c->base = base;
  c->n = nwords;
  c->uops = malloc((nwords ? nwords : 1) * sizeof(*c->uops));
  c->reconv = malloc((nwords ? nwords : 1) * sizeof(*c->reconv));
  if (!c->uops || !c->reconv) {
    sg_code_destroy(c);
    return SG_ENOMEM;
  }
  for (size_t i = 0; i < nwords; i++) {
    struct sg_uop *u = &c->uops[i];
    sg_decode(words[i], u);
    c->track_fflags |= reads_fflags(u);
    uint64_t regs = 1ull << u->rd | 1ull << u->rs1 | 1ull << u->rs2 | 1ull << (u->rs3 & 31);
    if (sg_op_unit(u->op) == SG_UNIT_TEX) /* the second registers of its pairs */
      regs |= 1ull << (u->rd + 1) | 1ull << (u->rs2 + 1);
    c->x_used |= regs;
    c->f_used |= regs;
    if (u->rd == 0 && sg_op_writes_x(u->op))
      u->rd = SG_XSINK; /* x0 stays zero: results go to a scratch row */
    c->reconv[i] = SG_RECONV_EXIT;
  }
  for (size_t i = 0; i < ntable; i++) {
    const struct sg_reconv *r = &table[i];
    if (!in_code(c, r->branch_pc) || (r->reconv_pc != SG_RECONV_EXIT && !in_code(c, r->reconv_pc)) ||
        sg_op_fmt(c->uops[(r->branch_pc - base) / 4].op) != SG_FMT_B) {
      sg_code_destroy(c);
      return SG_EBINARY;
    }
    c->reconv[(r->branch_pc - base) / 4] = r->reconv_pc;
  }
  if (!compute_liveness(c)) {
    sg_code_destroy(c);
    return SG_ENOMEM;
  }
  /* Paths that would rejoin only to execute sg.exit (a kernel's early
   * return, inlined into its entry wrapper) do not wait for each other:
   * waiting lanes that are about to exit would hold up a barrier that
   * the other lanes reach (they count as arrived once they exit). */
  for (size_t i = 0; i < nwords; i++) {
    uint64_t r = c->reconv[i];
    if (r != SG_RECONV_EXIT && in_code(c, r) && c->uops[(r - base) / 4].op == SG_OP_SG_EXIT)
      c->reconv[i] = SG_RECONV_EXIT;
  }
  if (sg_jit_create(c, words, &c->jit) != SG_OK) {
    sg_code_destroy(c);
    return SG_ENOMEM;
  }
  *out = c;
  return SG_OK;
}

void sg_code_destroy(struct sg_code *c) {
  if (!c)
    return;
  sg_jit_destroy(c->jit);
  free(c->live);
  free(c->uops);
  free(c->reconv);
  free(c);
}

uint64_t sg_code_id(const struct sg_code *c) { return c->id; }

uint32_t sg_code_registers(const struct sg_code *c) {
  return (uint32_t)(__builtin_popcountll(c->x_used & ~1ull) + __builtin_popcountll(c->f_used));
}

bool sg_code_uop(const struct sg_code *c, uint64_t pc, struct sg_uop *out) {
  if (!in_code(c, pc))
    return false;
  sg_decode(c->uops[(pc - c->base) / 4].raw, out);
  return true;
}

uint64_t sg_code_reconv(const struct sg_code *c, uint64_t pc) {
  return in_code(c, pc) ? c->reconv[(pc - c->base) / 4] : SG_RECONV_EXIT;
}
