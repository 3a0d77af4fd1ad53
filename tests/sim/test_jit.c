/* SPDX-License-Identifier: MIT */
/* Tests of sim/'s translated fast path (docs/engine.md): hand-built
 * programs run by full warps under the interpreter and under engine = jit
 * (every block translated) must leave memory bit-identical: FP compares and
 * truncating conversions on the values where they differ from plain casts
 * (NaN, infinities, out of range, -0), accesses at one address, to
 * consecutive elements and strided ones, sub-word stores, blocks that
 * end in a uniform or a divergent branch, and NaNs made by one FP operation
 * and used by the next, fmin and fmax on NaNs and zeros, AMOs of every
 * kind on one word, on words lanes share and on words of their own, and
 * LR/SC loops whose lanes contend. The local ids a block computes for
 * itself are checked against the host's division over work-groups of many
 * shapes, a long work-group goes on in blocks once its kernel is
 * translated, before it ends, and a released program's translation serves
 * the next program with the same code. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "sg_test_prog.h"

#define FLW(rd, off, a) enc_i(off, a, 2, rd, 0x07)
#define FCVT(op, rd, fs) enc_op(SG_OP_##op, rd, fs, 0, 0, 1) /* rtz */
#define FCMP(op, rd, fa, fb) enc_op(SG_OP_##op, rd, fa, fb, 0, 0)
#define FOP(op, rd, fa, fb) enc_op(SG_OP_##op, rd, fa, fb, 0, 0) /* rne */
#define FSW(rs, off, a) enc_s(off, rs, a, 2, 0x27)
#define SB(rs, off, a) enc_s(off, rs, a, 0, 0x23)
#define SH(rs, off, a) enc_s(off, rs, a, 1, 0x23)
#define OR(rd, a, b) enc_r(0, b, a, 6, rd, 0x33)
enum { FA0 = 10, FA1 = 11, FA2 = 12, FA3 = 13, FA4 = 14 };

/* Runs p on m without consumers under engine (the JIT translating at the
 * first launch). */
static enum sg_status run_engine(struct machine *m, struct prog *p, unsigned ws,
                                 enum sg_engine engine) {
  struct sg_sim_config cfg = {
      .warp_size = ws, .reconv = m->reconv, .engine = engine, .jit_threshold = 0};
  struct sg_core *core;
  struct sg_code *code;
  prog_finish(p);
  m->regions[0] = (struct sg_region){CODE_BASE, 4 * p->n, (uint8_t *)p->w,
                                     SG_PERM_R | SG_PERM_X, "code", SG_SPACE_CONSTANT};
  assert_int_equal(sg_code_create(p->w, p->n, CODE_BASE, p->rc, p->nrc, &code), SG_OK);
  assert_int_equal(sg_core_create(&cfg, 0, &core), SG_OK);
  enum sg_status s = sg_core_run_cta(core, code, &m->cta, &m->map, &m->findings, &m->fault);
  sg_core_destroy(core);
  sg_code_destroy(code);
  return s;
}

/* Runs the program built by build on two machines whose data starts as
 * init, under each engine, and compares their memory. */
static void same_on_both(void (*build)(struct prog *), const uint8_t *init, size_t n,
                         struct machine **jit_out) {
  struct machine *a = machine_new(8, 4), *b = machine_new(8, 4);
  memcpy(a->data, init, n);
  memcpy(b->data, init, n);
  struct prog p, q;
  prog_init(&p);
  build(&p);
  q = p;
  assert_int_equal(run_engine(a, &p, 4, SG_ENGINE_INTERP), SG_OK);
  assert_int_equal(run_engine(b, &q, 4, SG_ENGINE_JIT), SG_OK);
  assert_memory_equal(a->data, b->data, sizeof a->data);
  machine_free(a);
  *jit_out = b;
}

/* Lane t: s1 = the lane's word and s2 its doubleword of the data, fa0 =
 * in[t] and fa1 = in[t + 8] (singles). */
static void fp_operands(struct prog *p) {
  emit(p, CSRR(S0, SG_CSR_TIDLIN));
  emit(p, SLLI(T0, S0, 2));
  emit(p, ADD(S1, A0, T0));
  emit(p, SLLI(T1, S0, 3));
  emit(p, ADD(S2, A0, T1));
  emit(p, FLW(FA0, 0, S1));
  emit(p, FLW(FA1, 32, S1));
}

/* Lane t: a = in[t] (single), compares with in[t + 8], truncations to
 * int32, uint32, int64, uint64. */
static void build_fp(struct prog *p) {
  fp_operands(p);
  emit(p, FCVT(FCVT_W_S, A1, FA0));
  emit(p, SW(A1, 64, S1));
  emit(p, FCVT(FCVT_WU_S, A2, FA0));
  emit(p, SW(A2, 96, S1));
  emit(p, FCVT(FCVT_L_S, A3, FA0));
  emit(p, SD(A3, 128, S2));
  emit(p, FCVT(FCVT_LU_S, A4, FA0));
  emit(p, SD(A4, 192, S2));
  emit(p, FCMP(FEQ_S, A5, FA0, FA1));
  emit(p, FCMP(FLT_S, A6, FA0, FA1));
  emit(p, FCMP(FLE_S, A7, FA0, FA1));
  emit(p, SLLI(A6, A6, 1));
  emit(p, SLLI(A7, A7, 2));
  emit(p, ADD(A5, A5, A6));
  emit(p, ADD(A5, A5, A7));
  emit(p, SW(A5, 256, S1));
  emit(p, SG_EXIT);
}

static void test_fp_edges(void **state) {
  (void)state;
  const float in[16] = {NAN, -INFINITY, INFINITY, -0.0f, 2.5f, -2.5f, 3e9f, -3e19f,
                        NAN, -INFINITY, 1.0f,     0.0f,  2.5f, -3.0f, 3e9f, 1e-30f};
  uint8_t init[64];
  memcpy(init, in, sizeof in);
  struct machine *m;
  same_on_both(build_fp, init, sizeof init, &m);
  /* and what RISC-V says: NaN truncates to the largest value, the rest
   * saturate, the 32-bit results are sign-extended */
  assert_int_equal(data32(m, 16 + 0), INT32_MAX);       /* fcvt.w.s NaN */
  assert_int_equal(data32(m, 16 + 1), (uint32_t)INT32_MIN); /* -inf */
  assert_int_equal(data32(m, 16 + 5), (uint32_t)-2);    /* -2.5 */
  assert_int_equal(data32(m, 24 + 0), UINT32_MAX);      /* fcvt.wu.s NaN */
  assert_int_equal(data32(m, 24 + 5), 0);               /* -2.5 */
  assert_int_equal(data64(m, 16 + 6), 3000000000ull);   /* fcvt.l.s 3e9 */
  assert_int_equal(data64(m, 24 + 7), 0);               /* fcvt.lu.s -3e19 */
  assert_int_equal(data32(m, 64 + 0), 0);               /* NaN compares false */
  assert_int_equal(data32(m, 64 + 1), 1 | 4);           /* -inf == -inf, <= */
  assert_int_equal(data32(m, 64 + 3), 1 | 4);           /* -0 == 0 */
  assert_int_equal(data32(m, 64 + 5), 0);               /* -2.5 and -3 */
  assert_int_equal(data32(m, 64 + 7), 2 | 4);           /* -3e19 < 1e-30 */
  machine_free(m);
}

/* Lane t: fmin, fmax of a = in[t] and b = in[t + 8] in single, and of
 * both widened to double. */
static void build_minmax(struct prog *p) {
  fp_operands(p);
  emit(p, FOP(FMIN_S, FA2, FA0, FA1));
  emit(p, FOP(FMAX_S, FA3, FA0, FA1));
  emit(p, FSW(FA2, 64, S1));
  emit(p, FSW(FA3, 96, S1));
  emit(p, enc_op(SG_OP_FCVT_D_S, FA0, FA0, 0, 0, 0));
  emit(p, enc_op(SG_OP_FCVT_D_S, FA1, FA1, 0, 0, 0));
  emit(p, FOP(FMIN_D, FA2, FA0, FA1));
  emit(p, FOP(FMAX_D, FA3, FA0, FA1));
  emit(p, enc_s(128, FA2, S2, 3, 0x27)); /* fsd */
  emit(p, enc_s(192, FA3, S2, 3, 0x27));
  emit(p, SG_EXIT);
}

static void test_minmax(void **state) {
  (void)state;
  const float in[16] = {NAN, 1.0f, -0.0f, 0.0f,  -INFINITY, NAN,   2.5f, -7.0f,
                        NAN, NAN,  0.0f,  -0.0f, 3.0f,      -1.0f, 2.5f, 7.0f};
  uint8_t init[64];
  memcpy(init, in, sizeof in);
  struct machine *m;
  same_on_both(build_minmax, init, sizeof init, &m);
  /* and what RISC-V says: two NaNs give the canonical NaN, one NaN the
   * other operand, -0 is below +0 */
  assert_int_equal(data32(m, 16 + 0), 0x7fc00000u);     /* fmin.s NaN, NaN */
  assert_int_equal(data32(m, 16 + 1), 0x3f800000u);     /* fmin.s 1, NaN */
  assert_int_equal(data32(m, 16 + 2), 0x80000000u);     /* fmin.s -0, 0 */
  assert_int_equal(data32(m, 24 + 3), 0x00000000u);     /* fmax.s 0, -0 */
  assert_int_equal(data32(m, 24 + 5), 0xbf800000u);     /* fmax.s NaN, -1 */
  assert_int_equal(data64(m, 16 + 0), 0x7ff8000000000000ull); /* fmin.d NaN, NaN */
  assert_int_equal(data64(m, 16 + 2), 0x8000000000000000ull); /* fmin.d -0, 0 */
  assert_int_equal(data64(m, 24 + 7), 0x401c000000000000ull); /* fmax.d -7, 7 */
  machine_free(m);
}

/* Lane t: p = in[t] * in[t + 8], then p + in[t], the sign-inverted p
 * (fsgnjn) and p's bits (fmv.x.w), in one block. */
static void build_nan(struct prog *p) {
  emit(p, CSRR(S0, SG_CSR_TIDLIN));
  emit(p, SLLI(T0, S0, 2));
  emit(p, ADD(S1, A0, T0));
  emit(p, FLW(FA0, 0, S1));
  emit(p, FLW(FA1, 32, S1));
  emit(p, FOP(FMUL_S, FA2, FA0, FA1));
  emit(p, FOP(FADD_S, FA3, FA2, FA0));
  emit(p, FOP(FSGNJN_S, FA4, FA2, FA2));
  emit(p, enc_op(SG_OP_FMV_X_W, A1, FA2, 0, 0, 0));
  emit(p, FSW(FA3, 64, S1));
  emit(p, FSW(FA4, 96, S1));
  emit(p, SW(A1, 128, S1));
  emit(p, SG_EXIT);
}

static void test_nan_chain(void **state) {
  (void)state;
  const uint32_t payload = 0x7fc12345u, neg_payload = 0xffc12345u;
  float in[16] = {0.0f, INFINITY, 0, 0, 1.0f, -INFINITY, 2.0f, 3.0f,
                  INFINITY, 0.0f, 1.0f, 1.0f, 0, INFINITY, -1.0f, 4.0f};
  memcpy(&in[2], &payload, 4);
  memcpy(&in[3], &neg_payload, 4);
  memcpy(&in[12], &payload, 4);
  uint8_t init[64];
  memcpy(init, in, sizeof in);
  struct machine *m;
  same_on_both(build_nan, init, sizeof init, &m);
  /* RISC-V: every NaN an operation makes is the canonical one, whatever
   * the host made (x86: 0xffc00000 for 0 * inf, the input's payload) */
  for (unsigned t = 0; t < 5; t++) {
    assert_int_equal(data32(m, 16 + t), 0x7fc00000u); /* p + in[t] */
    assert_int_equal(data32(m, 24 + t), 0xffc00000u); /* -p */
    assert_int_equal(data32(m, 32 + t), 0x7fc00000u); /* p's bits */
  }
  assert_int_equal(data32(m, 16 + 5), 0xff800000u); /* -inf * inf + -inf */
  assert_int_equal(data32(m, 24 + 5), 0x7f800000u);
  assert_int_equal(data32(m, 16 + 7), 0x41700000u); /* 3 * 4 + 3 = 15 */
  machine_free(m);
}

/* Lane t stores t at one address (the last lane's lands), loads it back,
 * loads a strided word (a gather), stores to consecutive words, shorts at
 * a stride (a scatter) and consecutive bytes; then the odd lanes store
 * more (a divergent branch ends the block), every lane goes on past a
 * branch that none takes. */
static void build_access(struct prog *p) {
  unsigned skip = label(p), on = label(p);
  emit(p, CSRR(S0, SG_CSR_TIDLIN));
  emit(p, SLLI(T0, S0, 2));
  emit(p, ADD(S1, A0, T0));
  emit(p, SW(S0, 1024, A0));
  emit(p, LW(T1, 1024, A0));
  emit(p, SLLI(T2, S0, 3));
  emit(p, ADD(S2, A0, T2));
  emit(p, LW(T3, 0, S2));
  emit(p, ADD(T3, T3, T1));
  emit(p, SW(T3, 1280, S1));
  emit(p, SH(S0, 1536, S1));
  emit(p, ADD(S3, A0, S0));
  emit(p, SB(S0, 1792, S3));
  emit(p, ANDI(T4, S0, 1));
  br(p, F_BEQ, T4, ZERO, skip, (int)skip);
  emit(p, ADDI(T5, S0, 7));
  emit(p, SW(T5, 1856, S1));
  bind(p, skip);
  emit(p, LI(T6, 100));
  br(p, F_BLT, T6, S0, on, (int)on); /* never: t < 100 */
  emit(p, ADDI(T6, T6, 1));
  bind(p, on);
  emit(p, SW(T6, 1920, S1));
  emit(p, SG_EXIT);
}

static void test_accesses(void **state) {
  (void)state;
  uint8_t init[128];
  for (unsigned i = 0; i < sizeof init; i++)
    init[i] = (uint8_t)(3 * i + 1);
  struct machine *m;
  same_on_both(build_access, init, sizeof init, &m);
  assert_int_equal(data32(m, 256), 7); /* the last lane of the last warp */
  for (unsigned t = 0; t < 8; t++) {
    assert_int_equal(m->data[1792 + t], t);
    assert_int_equal(data32(m, 464 + t), t & 1 ? t + 7 : 0);
    assert_int_equal(data32(m, 480 + t), 101);
  }
  machine_free(m);
}

/* Thread t: old = amo(word, operand[t]) on one word for all (amo_spread 0),
 * on the word of t & 1 (1) or of t (2); old to out[t]. */
static unsigned amo_funct5, amo_width, amo_spread;
static void build_amo(struct prog *p) {
  emit(p, CSRR(S0, SG_CSR_TIDLIN));
  emit(p, SLLI(T0, S0, 3));
  emit(p, ADD(S1, A0, T0));
  emit(p, LD(T1, 256, S1));
  emit(p, ANDI(T2, S0, amo_spread == 1 ? 1 : amo_spread == 2 ? 7 : 0));
  emit(p, SLLI(T2, T2, 3));
  emit(p, ADD(T2, T2, A0));
  emit(p, ADDI(T2, T2, 1024));
  emit(p, enc_r(amo_funct5 << 2, T1, T2, amo_width, T3, 0x2f));
  emit(p, SD(T3, 512, S1));
  emit(p, SG_EXIT);
}

/* The data the atomics tests start from: operands and words of every sign
 * and magnitude. */
static uint8_t atomic_init[1088];
static void fill_atomic_init(void) {
  for (unsigned i = 0; i < sizeof atomic_init; i++)
    atomic_init[i] = (uint8_t)(i * 151 + (i >> 3) * 89);
}

static void test_amo(void **state) {
  (void)state;
  static const unsigned ops[] = {0x01, 0x00, 0x04, 0x0c, 0x08, 0x10, 0x14, 0x18, 0x1c};
  fill_atomic_init();
  for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
    for (amo_width = 2; amo_width <= 3; amo_width++)
      for (amo_spread = 0; amo_spread < 3; amo_spread++) {
        amo_funct5 = ops[o];
        struct machine *m;
        same_on_both(build_amo, atomic_init, sizeof atomic_init, &m);
        machine_free(m);
      }
}

/* A consumer that follows blocks and counts what it hears. */
struct counter {
  struct sg_hook hook;
  uint64_t blocks, insns, atomics;
};
static const struct sg_block_limit *count_enter(struct sg_hook *h, uint32_t warp, uint64_t pc,
                                                const struct sg_uop *uops, uint32_t len,
                                                uint64_t time, uint64_t mask) {
  (void)warp, (void)pc, (void)uops, (void)len, (void)time, (void)mask;
  ((struct counter *)h)->blocks++;
  return sg_block_unlimited;
}
static void count_leave(struct sg_hook *h, uint32_t ran, const struct sg_block_log *log) {
  (void)h, (void)ran, (void)log;
}
static void count_insn(struct sg_hook *h, const struct sg_insn_record *r) {
  ((struct counter *)h)->insns++;
  ((struct counter *)h)->atomics += r->mem == SG_MEM_ATOMIC;
}

/* Runs p on m in warps of ws under engine with jit_threshold, a consumer
 * that follows blocks attached, and returns what it heard. */
static struct counter run_counted(struct machine *m, const struct prog *p, unsigned ws,
                                  enum sg_engine engine, uint64_t threshold) {
  static const struct sg_block_ops ops = {.enter = count_enter, .leave = count_leave};
  struct counter n = {.hook = {.insn = count_insn, .block = &ops}};
  struct sg_hook *hooks[] = {&n.hook};
  m->regions[0] = (struct sg_region){CODE_BASE, 4 * p->n, (uint8_t *)p->w, SG_PERM_R | SG_PERM_X,
                                     "code", SG_SPACE_CONSTANT};
  struct sg_sim_config cfg = {
      .warp_size = ws, .reconv = m->reconv, .engine = engine, .jit_threshold = threshold};
  struct sg_core *core;
  struct sg_code *code;
  assert_int_equal(sg_code_create(p->w, p->n, CODE_BASE, p->rc, p->nrc, &code), SG_OK);
  assert_int_equal(sg_core_create(&cfg, 0, &core), SG_OK);
  sg_core_set_hooks(core, hooks, 1);
  assert_int_equal(sg_core_run_cta(core, code, &m->cta, &m->map, &m->findings, &m->fault), SG_OK);
  sg_core_destroy(core);
  sg_code_destroy(code);
  return n;
}

/* The atomics the interpreter ran when the program build makes runs on 8
 * work-items in warps of 4 under engine (translating at once). */
static uint64_t interpreted_atomics(void (*build)(struct prog *), const uint8_t *init, size_t n,
                                    enum sg_engine engine) {
  struct machine *m = machine_new(8, 4);
  memcpy(m->data, init, n);
  struct prog p;
  prog_init(&p);
  build(&p);
  prog_finish(&p);
  uint64_t atomics = run_counted(m, &p, 4, engine, 0).atomics;
  machine_free(m);
  return atomics;
}

/* Thread t adds t + 1 to one word for all (lrsc_spread 0) or the word of
 * t & 1 (1) with an LR/SC loop, and stores the value its successful LR
 * read and how often its SC failed: lanes that share a word fail in lane
 * order, so both engines must agree on every count. */
static unsigned lrsc_width, lrsc_spread;
static void build_lrsc(struct prog *p) {
  unsigned retry = label(p), done = label(p);
  emit(p, CSRR(S0, SG_CSR_TIDLIN));
  emit(p, SLLI(T0, S0, 3));
  emit(p, ADD(S1, A0, T0));
  emit(p, ANDI(T2, S0, lrsc_spread));
  emit(p, SLLI(T2, T2, 3));
  emit(p, ADD(T2, T2, A0));
  emit(p, ADDI(T2, T2, 1024));
  emit(p, ADDI(T4, S0, 1));
  emit(p, ADDI(T5, ZERO, 0));
  bind(p, retry);
  emit(p, enc_r(0x02 << 2, ZERO, T2, lrsc_width, T1, 0x2f)); /* lr t1, (t2) */
  emit(p, ADD(T3, T1, T4));
  emit(p, enc_r(0x03 << 2, T3, T2, lrsc_width, T6, 0x2f)); /* sc t6, t3, (t2) */
  emit(p, ADD(T5, T5, T6));
  br(p, F_BNE, T6, ZERO, retry, (int)done);
  bind(p, done);
  emit(p, SD(T1, 512, S1));
  emit(p, SD(T5, 768, S1));
  emit(p, SG_EXIT);
}

static void test_lr_sc(void **state) {
  (void)state;
  fill_atomic_init();
  for (lrsc_width = 2; lrsc_width <= 3; lrsc_width++)
    for (lrsc_spread = 0; lrsc_spread < 2; lrsc_spread++) {
      struct machine *m;
      same_on_both(build_lrsc, atomic_init, sizeof atomic_init, &m);
      uint64_t want[2];
      memcpy(want, atomic_init + 1024, sizeof want);
      for (unsigned t = 0; t < 8; t++)
        want[lrsc_spread ? t & 1 : 0] += t + 1;
      for (unsigned w = 0; w < 2; w++)
        assert_int_equal(lrsc_width == 3 ? data64(m, 128 + w) : (uint32_t)data64(m, 128 + w),
                         lrsc_width == 3 ? want[w] : (uint32_t)want[w]);
      machine_free(m);
      /* and under engine = jit no LR or SC is left to the interpreter */
      size_t n = sizeof atomic_init;
      assert_int_equal(interpreted_atomics(build_lrsc, atomic_init, n, SG_ENGINE_JIT), 0);
      assert_true(interpreted_atomics(build_lrsc, atomic_init, n, SG_ENGINE_INTERP) > 0);
    }
}

/* Each thread counts to `to` (two instructions an iteration) and stores
 * the count at data[8 t]. */
static void build_count(struct prog *p, unsigned to) {
  prog_init(p);
  unsigned loop = label(p), done = label(p);
  emit(p, CSRR(S0, SG_CSR_TIDLIN));
  emit(p, SLLI(T0, S0, 3));
  emit(p, ADD(S1, A0, T0));
  emit(p, LUI(T1, ((to + 0x800) >> 12) << 12)); /* (addi's immediate is signed) */
  emit(p, ADDI(T1, T1, (int)(to & 0xfff) - (int)(to & 0x800) * 2));
  emit(p, ADDI(T0, ZERO, 0));
  bind(p, loop);
  emit(p, ADDI(T0, T0, 1));
  br(p, F_BNE, T0, T1, loop, (int)done);
  bind(p, done);
  emit(p, SD(T0, 0, S1));
  emit(p, SG_EXIT);
  prog_finish(p);
}

/* Runs the counting program p (to `to`) as one work-group of 128 work-items
 * in warps of ws, with jit_threshold 65536, and returns how many warp
 * instructions ran interpreted (a counter that follows blocks hears them). */
static uint64_t run_count(const struct prog *p, unsigned ws, unsigned to) {
  struct machine *m = machine_new(128, ws);
  uint64_t interpreted = run_counted(m, p, ws, SG_ENGINE_JIT, 65536).insns;
  for (unsigned t = 0; t < 128; t++)
    assert_int_equal(data64(m, t), to);
  machine_free(m);
  return interpreted;
}

/* One work-group counting to 20480 (about 164000 warp instructions): with
 * jit_threshold 65536 the kernel is translated while the group runs, and
 * the rest of the loop runs in blocks, the count the same. */
static void test_translated_mid_cta(void **state) {
  (void)state;
  struct prog p;
  build_count(&p, 20480);
  uint64_t interpreted = run_count(&p, 32, 20480);
  assert_true(interpreted >= 65536);                  /* counted toward the threshold */
  assert_true(interpreted < 4 * 2 * 20480 - 65536);   /* and most of the loop ran in blocks */
}

/* A released program's translation serves a later program with the same
 * code and warp size from its first instruction, and no other: one that
 * counts to another number, or runs in warps of another size, is
 * interpreted until its own threshold. */
static void test_translation_reused(void **state) {
  (void)state;
  struct prog p, other;
  build_count(&p, 20000);
  build_count(&other, 20004);
  assert_true(run_count(&p, 32, 20000) >= 65536);
  uint64_t again = run_count(&p, 32, 20000);
  assert_true(again <= 4 * 4); /* per warp: the loop's first block, sg.exit */
  assert_true(run_count(&other, 32, 20004) >= 65536);
  assert_true(run_count(&p, 16, 20000) >= 65536);
  assert_true(run_count(&p, 32, 20000) <= 4 * 4); /* still there after the others */
}

/* Thread t stores its local id, x | y << 16 | z << 32, at data[8 t]. */
static void build_ids(struct prog *p) {
  emit(p, CSRR(S0, SG_CSR_TIDLIN));
  emit(p, SLLI(T0, S0, 3));
  emit(p, ADD(S1, A0, T0));
  emit(p, CSRR(A1, SG_CSR_TID_X));
  emit(p, CSRR(A2, SG_CSR_TID_Y));
  emit(p, CSRR(A3, SG_CSR_TID_Z));
  emit(p, SLLI(A2, A2, 16));
  emit(p, SLLI(A3, A3, 32));
  emit(p, OR(A1, A1, A2));
  emit(p, OR(A1, A1, A3));
  emit(p, SD(A1, 0, S1));
  emit(p, SG_EXIT);
}

static void test_local_ids(void **state) {
  (void)state;
  static const unsigned shapes[][3] = {{1, 1, 1},  {7, 5, 3},   {3, 3, 3},    {33, 1, 1},
                                       {16, 8, 1}, {5, 7, 11},  {1, 1, 64},   {1024, 1, 1},
                                       {32, 32, 1}, {2, 512, 1}, {13, 17, 4}, {1, 1023, 1}};
  static const unsigned warp_sizes[] = {4, 32, 64};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t k = 0; k < sizeof warp_sizes / sizeof warp_sizes[0]; k++) {
      const unsigned *n = shapes[s], ws = warp_sizes[k], threads = n[0] * n[1] * n[2];
      struct machine *m = machine_new(threads, ws);
      for (int d = 0; d < 3; d++)
        m->cta.ntid[d] = n[d];
      struct prog p;
      prog_init(&p);
      build_ids(&p);
      assert_int_equal(run_engine(m, &p, ws, SG_ENGINE_JIT), SG_OK);
      for (unsigned t = 0; t < threads; t++) {
        uint64_t want = t % n[0] | (uint64_t)(t / n[0] % n[1]) << 16 |
                        (uint64_t)(t / (n[0] * n[1])) << 32;
        if (data64(m, t) != want)
          fail_msg("group %ux%ux%u, warp size %u: thread %u has ids 0x%llx, not 0x%llx", n[0],
                   n[1], n[2], ws, t, (unsigned long long)data64(m, t),
                   (unsigned long long)want);
      }
      machine_free(m);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fp_edges),
      cmocka_unit_test(test_nan_chain),
      cmocka_unit_test(test_minmax),
      cmocka_unit_test(test_accesses),
      cmocka_unit_test(test_amo),
      cmocka_unit_test(test_lr_sc),
      cmocka_unit_test(test_local_ids),
      cmocka_unit_test(test_translated_mid_cta),
      cmocka_unit_test(test_translation_reused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
