/* SPDX-License-Identifier: MIT */
/* Tests of sim/: a tiny RISC-V encoder and assembler with labels, and a
 * harness that runs a hand-built program on one CTA over a small memory map
 * (code, a read-only page, a data buffer, stacks). */
#ifndef SG_TEST_PROG_H
#define SG_TEST_PROG_H

#include "sg_sim.h"

#include <stdlib.h>
#include <string.h>

/* MATCH of each op, from the table under test (its encodings are checked
 * against llvm-mc words in test_decode.c). */
static const uint32_t sg_match[SG_OP_COUNT] = {
#define SG_INSN(name, m, k, fmt, unit, mnem) [SG_OP_##name] = m,
#include "sg_insn.def"
#undef SG_INSN
};
static const uint32_t sg_mask[SG_OP_COUNT] = {
#define SG_INSN(name, m, k, fmt, unit, mnem) [SG_OP_##name] = k,
#include "sg_insn.def"
#undef SG_INSN
};

/* ---- Encoders ---------------------------------------------------------- */

static inline uint32_t enc_r(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd, unsigned op) {
  return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
static inline uint32_t enc_i(int32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op) {
  return (uint32_t)imm << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
static inline uint32_t enc_s(int32_t imm, unsigned rs2, unsigned rs1, unsigned f3, unsigned op) {
  uint32_t u = (uint32_t)imm;
  return (u >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 31) << 7 | op;
}
static inline uint32_t enc_b(int32_t imm, unsigned rs2, unsigned rs1, unsigned f3) {
  uint32_t u = (uint32_t)imm;
  return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
         (u >> 1 & 0xf) << 8 | (u >> 11 & 1) << 7 | 0x63;
}
static inline uint32_t enc_u(int32_t imm, unsigned rd, unsigned op) { return ((uint32_t)imm & 0xfffff000u) | rd << 7 | op; }
static inline uint32_t enc_j(int32_t imm, unsigned rd) {
  uint32_t u = (uint32_t)imm;
  return (u >> 20 & 1) << 31 | (u >> 1 & 0x3ff) << 21 | (u >> 11 & 1) << 20 | (u >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}
/* A word for op from the table: operand fields go where its MASK leaves
 * bits free (rm into bits 14:12). */
static inline uint32_t enc_op(unsigned op, unsigned rd, unsigned rs1, unsigned rs2, unsigned rs3, unsigned rm) {
  return sg_match[op] | ((rd << 7 | rm << 12 | rs1 << 15 | rs2 << 20 | rs3 << 27) & ~sg_mask[op]);
}

enum { ZERO, RA, SP, GP, TP, T0, T1, T2, S0, S1, A0, A1, A2, A3, A4, A5, A6, A7, S2, S3, S4, S5,
       S6, S7, S8, S9, S10, S11, T3, T4, T5, T6 };

#define ADD(rd, a, b) enc_r(0, b, a, 0, rd, 0x33)
#define SUB(rd, a, b) enc_r(0x20, b, a, 0, rd, 0x33)
#define MUL(rd, a, b) enc_r(1, b, a, 0, rd, 0x33)
#define REMU(rd, a, b) enc_r(1, b, a, 7, rd, 0x33)
#define AND(rd, a, b) enc_r(0, b, a, 7, rd, 0x33)
#define SLT(rd, a, b) enc_r(0, b, a, 2, rd, 0x33)
#define ADDI(rd, a, imm) enc_i(imm, a, 0, rd, 0x13)
#define ANDI(rd, a, imm) enc_i(imm, a, 7, rd, 0x13)
#define SLTI(rd, a, imm) enc_i(imm, a, 2, rd, 0x13)
#define SLLI(rd, a, sh) enc_i(sh, a, 1, rd, 0x13)
#define LI(rd, imm) ADDI(rd, ZERO, imm)
#define LUI(rd, imm) enc_u(imm, rd, 0x37)
#define LW(rd, off, a) enc_i(off, a, 2, rd, 0x03)
#define LD(rd, off, a) enc_i(off, a, 3, rd, 0x03)
#define SW(rs, off, a) enc_s(off, rs, a, 2, 0x23)
#define SD(rs, off, a) enc_s(off, rs, a, 3, 0x23)
#define FLD(rd, off, a) enc_i(off, a, 3, rd, 0x07)
#define FSD(rs, off, a) enc_s(off, rs, a, 3, 0x27)
#define JALR(rd, a, off) enc_i(off, a, 0, rd, 0x67)
#define CSRR(rd, csr) enc_i(csr, ZERO, 2, rd, 0x73)
#define CSRW(csr, rs) enc_i(csr, rs, 1, ZERO, 0x73)
#define AMOADD_W(rd, rs2, a) enc_r(0, rs2, a, 2, rd, 0x2f)
#define SG_BARRIER(a) enc_r(0, 0, a, 0, 0, 0x2b)
#define SG_EXIT enc_r(1, 0, 0, 0, 0, 0x2b)
#define SG_BALLOT(rd, a) enc_r(4, 0, a, 0, rd, 0x2b)
#define SG_SHFL(rd, a, b) enc_r(5, b, a, 0, rd, 0x2b)
enum { F_BEQ = 0, F_BNE = 1, F_BLT = 4, F_BGE = 5, F_BLTU = 6, F_BGEU = 7 };

/* ---- Assembler with labels -------------------------------------------- */

#define CODE_BASE 0x10000ull
struct fixup {
  unsigned at, label, jal, f3, a, b;
};
struct prog {
  uint32_t w[2048]; /* room for straight-line code longer than a translated block */
  unsigned n;
  int64_t label[64]; /* word index */
  unsigned nlabels;
  struct fixup fix[128];
  unsigned nfix;
  struct sg_reconv rc[64];
  unsigned rclabel[64];
  unsigned nrc;
};

static inline void prog_init(struct prog *p) { memset(p, 0, sizeof(*p)); }
static inline unsigned label(struct prog *p) { return p->nlabels++; }
static inline void bind(struct prog *p, unsigned l) { p->label[l] = p->n; }
static inline void emit(struct prog *p, uint32_t w) { p->w[p->n++] = w; }
/* Conditional branch to label `to`; `reconv` is the label of its immediate
 * post-dominator, or -1 for none (SG_RECONV_EXIT). */
static inline void br(struct prog *p, unsigned f3, unsigned a, unsigned b, unsigned to, int reconv) {
  p->fix[p->nfix++] = (struct fixup){p->n, to, 0, f3, a, b};
  if (reconv >= 0) {
    p->rc[p->nrc].branch_pc = CODE_BASE + 4 * p->n;
    p->rclabel[p->nrc++] = (unsigned)reconv;
  }
  emit(p, 0);
}
static inline void jmp(struct prog *p, unsigned rd, unsigned to) {
  p->fix[p->nfix++] = (struct fixup){p->n, to, 1, 0, rd, 0};
  emit(p, 0);
}
static inline void prog_finish(struct prog *p) {
  for (unsigned i = 0; i < p->nfix; i++) {
    const struct fixup *f = &p->fix[i];
    int32_t off = (int32_t)(p->label[f->label] - (int64_t)f->at) * 4;
    p->w[f->at] = f->jal ? enc_j(off, f->a) : enc_b(off, f->b, f->a, f->f3);
  }
  for (unsigned i = 0; i < p->nrc; i++)
    p->rc[i].reconv_pc = CODE_BASE + 4 * (uint64_t)p->label[p->rclabel[i]];
}

/* ---- Running one CTA ---------------------------------------------------- */

#define DATA_BASE 0x100000000ull
#define DATA_SIZE 65536
#define RO_BASE 0x20000ull
#define STACK_BASE 0x60000000ull
#define STACK_SIZE 256

struct machine {
  uint8_t ro[4096];
  uint8_t data[DATA_SIZE];
  uint8_t stack[SG_MAX_CTA_THREADS * STACK_SIZE];
  struct sg_region regions[4];
  struct sg_memmap map;
  struct sg_cta_desc cta;
  struct sg_stats stats;
  struct sg_fault fault;
  struct sg_findings findings; /* survivable findings (unless strict) */
  bool strict;                 /* every finding ends the CTA */
  enum sg_reconv_policy reconv;
};

/* The reconvergence policy the tests run under: SG_TEST_RECONV names one
 * ("ipdom", the default, or "mpipdom"), so ctest runs them under each. */
static inline enum sg_reconv_policy test_policy(void) {
  const char *name = getenv("SG_TEST_RECONV");
  for (int p = 0; name && p < SG_RECONV_NUM_POLICIES; p++)
    if (!strcmp(name, sg_reconv_policy_name((enum sg_reconv_policy)p)))
      return (enum sg_reconv_policy)p;
  if (name)
    abort(); /* a typo would silently test the default */
  return SG_RECONV_IPDOM;
}

/* A machine whose data buffer is at a0 (= sg.params) for every thread. */
static inline struct machine *machine_new(unsigned nthreads, unsigned warp_size) {
  struct machine *m = calloc(1, sizeof(*m));
  if (!m)
    abort();
  m->reconv = test_policy();
  /* regions[0] is the code, filled in by machine_run */
  m->regions[1] = (struct sg_region){RO_BASE, sizeof(m->ro), m->ro, SG_PERM_R, "constants",
                                     SG_SPACE_CONSTANT};
  m->regions[2] = (struct sg_region){STACK_BASE, sizeof(m->stack), m->stack,
                                     SG_PERM_R | SG_PERM_W | SG_PERM_PRIVATE, "stack",
                                     SG_SPACE_PRIVATE};
  m->regions[3] = (struct sg_region){DATA_BASE, DATA_SIZE, m->data, SG_PERM_R | SG_PERM_W,
                                     "buffer", SG_SPACE_GLOBAL};
  m->map = (struct sg_memmap){.regions = m->regions, .count = 4};
  struct sg_cta_desc *d = &m->cta;
  d->entry_pc = CODE_BASE;
  d->ntid[0] = nthreads, d->ntid[1] = d->ntid[2] = 1;
  d->nctaid[0] = d->nctaid[1] = d->nctaid[2] = 1;
  d->num_threads = nthreads;
  d->num_warps = (nthreads + warp_size - 1) / warp_size;
  for (unsigned t = 0; t < nthreads; t++)
    d->init_mask[t / warp_size] |= 1ull << (t % warp_size);
  d->params_addr = DATA_BASE;
  d->stack_base = STACK_BASE;
  d->stack_size = STACK_SIZE;
  return m;
}

/* Runs the program; the code is also mapped read-only at CODE_BASE. */
static inline enum sg_status machine_run(struct machine *m, struct prog *p, unsigned warp_size,
                                         uint64_t watchdog) {
  struct sg_sim_config cfg = {.warp_size = warp_size,
                              .watchdog_insns = watchdog,
                              .strict = m->strict,
                              .reconv = m->reconv};
  struct sg_core *core;
  struct sg_code *code;
  prog_finish(p);
  m->regions[0] = (struct sg_region){CODE_BASE, 4 * p->n, (uint8_t *)p->w,
                                     SG_PERM_R | SG_PERM_X, "code", SG_SPACE_CONSTANT};
  if (sg_code_create(p->w, p->n, CODE_BASE, p->rc, p->nrc, &code) != SG_OK ||
      sg_core_create(&cfg, 0, &core) != SG_OK)
    abort(); /* the test's own program or config is wrong */
  struct sg_stats_hook stats;
  sg_stats_hook_init(&stats, warp_size);
  struct sg_hook *hooks[] = {&stats.hook};
  sg_core_set_hooks(core, hooks, 1);
  enum sg_status s = sg_core_run_cta(core, code, &m->cta, &m->map, &m->findings, &m->fault);
  m->stats = stats.stats;
  sg_core_destroy(core);
  sg_code_destroy(code);
  return s;
}

static inline void machine_free(struct machine *m) {
  sg_findings_free(&m->findings);
  free(m);
}

/* The one finding site of the run (the test fails otherwise). */
static inline const struct sg_finding_site *only_site(const struct machine *m) {
  if (m->findings.count != 1)
    fail_msg("%u finding sites, 1 expected", m->findings.count);
  return &m->findings.site[0];
}

static inline uint32_t data32(const struct machine *m, unsigned i) {
  uint32_t v;
  memcpy(&v, m->data + 4 * i, 4);
  return v;
}
static inline uint64_t data64(const struct machine *m, unsigned i) {
  uint64_t v;
  memcpy(&v, m->data + 8 * i, 8);
  return v;
}

#endif
