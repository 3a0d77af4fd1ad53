/* SPDX-License-Identifier: MIT */
/* Tests of sim/'s consumer interface (DESIGN.md section 4, "one instruction
 * record, many consumers"): the record of each warp instruction (PC, mask,
 * unit, per-lane addresses, branch outcome, barrier), the core's events,
 * that the fast and the observed loop compute the same, the statistics of
 * both reconvergence policies on seed 002's dual-path kernel, consumers
 * that follow translated blocks, and the text and JSON traces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "sg_test_prog.h"

/* Keeps every record and event. */
#define MAXREC 4096
struct recorder {
  struct sg_hook hook;
  struct sg_insn_record rec[MAXREC];
  struct sg_uop uop[MAXREC]; /* the record's uop points into the code */
  unsigned nrec;
  struct sg_event ev[MAXREC];
  unsigned nev;
};
static void on_insn(struct sg_hook *self, const struct sg_insn_record *r) {
  struct recorder *h = (struct recorder *)self;
  assert_true(h->nrec < MAXREC);
  h->uop[h->nrec] = *r->uop;
  h->rec[h->nrec++] = *r;
}
static void on_event(struct sg_hook *self, const struct sg_event *e) {
  struct recorder *h = (struct recorder *)self;
  assert_true(h->nev < MAXREC);
  h->ev[h->nev++] = *e;
}
static struct recorder recorder; /* large: keep off the stack */

/* Runs p on m with the recorder and the statistics attached (or nothing,
 * with observed false), under policy. */
static enum sg_status run_observed(struct machine *m, struct prog *p, unsigned ws,
                                   enum sg_reconv_policy policy, bool observed) {
  struct sg_sim_config cfg = {.warp_size = ws, .reconv = policy};
  struct sg_core *core;
  struct sg_code *code;
  prog_finish(p);
  m->regions[0] = (struct sg_region){CODE_BASE, 4 * p->n, (uint8_t *)p->w,
                                     SG_PERM_R | SG_PERM_X, "code", SG_SPACE_CONSTANT};
  assert_int_equal(sg_code_create(p->w, p->n, CODE_BASE, p->rc, p->nrc, &code), SG_OK);
  assert_int_equal(sg_core_create(&cfg, 0, &core), SG_OK);
  struct sg_stats_hook stats;
  sg_stats_hook_init(&stats, ws);
  recorder.hook = (struct sg_hook){.insn = on_insn, .event = on_event};
  recorder.nrec = recorder.nev = 0;
  struct sg_hook *hooks[] = {&recorder.hook, &stats.hook};
  if (observed)
    sg_core_set_hooks(core, hooks, 2);
  enum sg_status s = sg_core_run_cta(core, code, &m->cta, &m->map, &m->findings, &m->fault);
  m->stats = stats.stats;
  sg_core_destroy(core);
  sg_code_destroy(code);
  return s;
}

static unsigned count_events(enum sg_event_kind kind) {
  unsigned n = 0;
  for (unsigned i = 0; i < recorder.nev; i++)
    n += recorder.ev[i].kind == kind;
  return n;
}

/* out[t] = t; if (t & 1) out[t] += 100; barrier; exit (8 threads, warps of
 * 4): the records follow the program word by word. */
static void build_small(struct prog *p) {
  unsigned join = label(p);
  emit(p, CSRR(S0, SG_CSR_TIDLIN)); /* 0 */
  emit(p, SLLI(T0, S0, 2));         /* 1 */
  emit(p, ADD(S1, A0, T0));         /* 2 */
  emit(p, SW(S0, 0, S1));           /* 3 */
  emit(p, ANDI(T1, S0, 1));         /* 4 */
  br(p, F_BEQ, T1, ZERO, join, (int)join); /* 5 */
  emit(p, ADDI(T2, S0, 100));       /* 6 */
  emit(p, SW(T2, 0, S1));           /* 7 */
  bind(p, join);
  emit(p, SG_BARRIER(ZERO));        /* 8 */
  emit(p, SG_EXIT);                 /* 9 */
}

static void test_records(void **state) {
  (void)state;
  struct machine *m = machine_new(8, 4);
  struct prog p;
  prog_init(&p);
  build_small(&p);
  assert_int_equal(run_observed(m, &p, 4, SG_RECONV_IPDOM, true), SG_OK);
  /* Per warp: words 0-5, 6-7 for the odd lanes, 8, 9 = 10 instructions. */
  assert_int_equal(recorder.nrec, 2 * 10);
  assert_int_equal(m->stats.warp_insns, 20);
  assert_int_equal(m->stats.thread_insns, 2 * (4 * 8 + 2 * 2));
  assert_int_equal(m->stats.stores, 2 * 2);
  assert_int_equal(m->stats.branches, 2);
  assert_int_equal(m->stats.divergent_branches, 2);
  unsigned stores = 0;
  for (unsigned i = 0; i < recorder.nrec; i++) {
    const struct sg_insn_record *r = &recorder.rec[i];
    uint64_t word = (r->pc - CODE_BASE) / 4;
    assert_int_equal(r->cta, 0);
    assert_true(r->warp < 2);
    assert_int_equal(recorder.uop[i].raw, p.w[word]);
    assert_int_equal(r->unit, sg_op_unit(recorder.uop[i].op));
    assert_int_equal(r->mask, word == 6 || word == 7 ? 0xa : 0xf);
    if (recorder.uop[i].op == SG_OP_SW) {
      stores++;
      assert_int_equal(r->mem, SG_MEM_STORE);
      assert_int_equal(r->space, SG_SPACE_GLOBAL);
      assert_int_equal(r->size, 4);
      for (uint64_t mk = r->mask; mk; mk &= mk - 1) {
        unsigned l = (unsigned)__builtin_ctzll(mk);
        assert_int_equal(r->addr[l], DATA_BASE + 4 * (r->warp * 4 + l));
      }
    } else {
      assert_int_equal(r->mem, SG_MEM_NONE);
    }
    if (word == 5) { /* beq t1, zero: the even lanes take it */
      assert_int_equal(r->taken, 0x5);
      assert_int_equal(r->reconv_pc, CODE_BASE + 8 * 4);
    }
    if (word == 8)
      assert_int_equal(r->barrier, 0);
  }
  assert_int_equal(stores, 4);
  /* Time counts the CTA's warp instructions. */
  for (unsigned i = 0; i < recorder.nrec; i++)
    assert_int_equal(recorder.rec[i].time, i);
  assert_int_equal(count_events(SG_EV_CTA_START), 1);
  assert_int_equal(count_events(SG_EV_CTA_END), 1);
  assert_int_equal(count_events(SG_EV_BARRIER_WAIT), 2);
  assert_int_equal(count_events(SG_EV_BARRIER_RELEASE), 1);
  assert_int_equal(count_events(SG_EV_WARP_END), 2);
  assert_int_equal(count_events(SG_EV_PATHS), 2);
  assert_int_equal(count_events(SG_EV_RECONVERGE), 2); /* the odd lanes, at word 8 */
  assert_int_equal(recorder.ev[0].kind, SG_EV_CTA_START);
  assert_int_equal(recorder.ev[0].arg, 2);
  assert_int_equal(recorder.ev[recorder.nev - 1].kind, SG_EV_CTA_END);
  machine_free(m);
}

/* The fast loop (nothing attached) and the observed one compute the same. */
static void test_fast_equals_observed(void **state) {
  (void)state;
  for (int policy = 0; policy < SG_RECONV_NUM_POLICIES; policy++) {
    struct machine *a = machine_new(8, 4), *b = machine_new(8, 4);
    struct prog p, q;
    prog_init(&p);
    build_small(&p);
    q = p;
    assert_int_equal(run_observed(a, &p, 4, (enum sg_reconv_policy)policy, false), SG_OK);
    assert_int_equal(run_observed(b, &q, 4, (enum sg_reconv_policy)policy, true), SG_OK);
    assert_memory_equal(a->data, b->data, sizeof a->data);
    assert_int_equal(a->stats.warp_insns, 0); /* nothing counted without consumers */
    machine_free(a);
    machine_free(b);
  }
}

/* Seed 002's dual-path kernel on one warp of 4:
 *   if (t % 2 == 0) out[t] = in + 1000;   (the seed adds 10000: too big for addi)
 *   else { out[t] = in + 100; out[t] += 100; out[t] += 100; out[t] += 100; }
 *   out[t] += 1;
 * Both policies split the warp into two paths that rejoin at the last
 * statement; multi-path IPDOM keeps them as two warp splits with one
 * reconvergence table entry, IPDOM as two stack entries over a join entry. */
static void build_dualpath(struct prog *p) {
  unsigned odd = label(p), join = label(p);
  emit(p, CSRR(S0, SG_CSR_TIDLIN));
  emit(p, SLLI(T0, S0, 2));
  emit(p, ADD(S1, A0, T0));
  emit(p, LW(A1, 0, S1));
  emit(p, ANDI(T1, S0, 1));
  br(p, F_BNE, T1, ZERO, odd, (int)join);
  emit(p, LI(T2, 1000));
  emit(p, ADD(A2, A1, T2));
  emit(p, SW(A2, 0, S1));
  jmp(p, ZERO, join);
  bind(p, odd);
  emit(p, ADDI(A2, A1, 100));
  emit(p, SW(A2, 0, S1));
  for (int i = 0; i < 3; i++) {
    emit(p, LW(A2, 0, S1));
    emit(p, ADDI(A2, A2, 100));
    emit(p, SW(A2, 0, S1));
  }
  bind(p, join);
  emit(p, LW(A2, 0, S1));
  emit(p, ADDI(A2, A2, 1));
  emit(p, SW(A2, 0, S1));
  emit(p, SG_EXIT);
}

static void test_dualpath_policies(void **state) {
  (void)state;
  for (int policy = 0; policy < SG_RECONV_NUM_POLICIES; policy++) {
    struct machine *m = machine_new(4, 4);
    for (unsigned t = 0; t < 4; t++)
      memcpy(m->data + 4 * t, &(uint32_t){7 * t}, 4);
    struct prog p;
    prog_init(&p);
    build_dualpath(&p);
    assert_int_equal(run_observed(m, &p, 4, (enum sg_reconv_policy)policy, true), SG_OK);
    for (unsigned t = 0; t < 4; t++)
      assert_int_equal(data32(m, t), 7 * t + (t % 2 == 0 ? 1000 : 400) + 1);
    /* 6 + (3 even) + (11 odd) + 4 warp instructions, whatever the policy. */
    assert_int_equal(m->stats.warp_insns, 6 + 4 + 11 + 4);
    assert_int_equal(m->stats.divergent_branches, 1);
    assert_int_equal(m->stats.paths_created, 2);
    assert_int_equal(m->stats.reconvergences, 2);
    assert_int_equal(m->stats.max_paths, 2);
    assert_int_equal(m->stats.max_reconv_entries, 1);
    assert_int_equal(m->stats.path_switches, 0);
    machine_free(m);
  }
}

/* Lanes 0-2 return early, the others go on to a barrier and take the
 * branch, so they run first: the warp sets them aside at the barrier for the
 * early return (a path switch, under either policy), then arrives. */
static void test_switch_at_barrier(void **state) {
  (void)state;
  for (int policy = 0; policy < SG_RECONV_NUM_POLICIES; policy++) {
    struct machine *m = machine_new(4, 4);
    struct prog p;
    prog_init(&p);
    unsigned bar = label(&p);
    emit(&p, CSRR(S0, SG_CSR_TIDLIN));
    emit(&p, SLTI(T0, S0, 3));
    br(&p, F_BEQ, T0, ZERO, bar, -1);
    emit(&p, SG_EXIT);
    bind(&p, bar);
    emit(&p, SG_BARRIER(ZERO));
    emit(&p, SG_EXIT);
    assert_int_equal(run_observed(m, &p, 4, (enum sg_reconv_policy)policy, true), SG_OK);
    assert_int_equal(m->stats.path_switches, 1);
    assert_int_equal(m->stats.barriers, 1);
    assert_int_equal(count_events(SG_EV_PATH_SWITCH), 1);
    machine_free(m);
  }
}

/* A consumer reports a finding at every store through sg_core_finding:
 * counted per site like the core's own, or, under strict checking, the end
 * of the CTA after that instruction. */
struct reporter {
  struct sg_hook hook;
  struct sg_core *core;
};
static void report_stores(struct sg_hook *self, const struct sg_insn_record *r) {
  struct reporter *h = (struct reporter *)self;
  if (r->mem == SG_MEM_STORE)
    sg_core_finding(h->core, r->warp, (unsigned)__builtin_ctzll(r->mask), r->pc,
                    SG_FAULT_UNMAPPED, r->addr[__builtin_ctzll(r->mask)], r->size,
                    "a store the consumer did not like");
}

static void test_consumer_findings(void **state) {
  (void)state;
  for (int strict = 0; strict < 2; strict++) {
    struct machine *m = machine_new(8, 4);
    struct prog p;
    prog_init(&p);
    build_small(&p);
    prog_finish(&p);
    m->regions[0] = (struct sg_region){CODE_BASE, 4 * p.n, (uint8_t *)p.w,
                                       SG_PERM_R | SG_PERM_X, "code", SG_SPACE_CONSTANT};
    struct sg_code *code;
    struct sg_sim_config cfg = {.warp_size = 4, .reconv = test_policy(), .strict = strict};
    struct reporter rep = {.hook = {report_stores, NULL}};
    struct sg_hook *hooks[] = {&rep.hook};
    assert_int_equal(sg_code_create(p.w, p.n, CODE_BASE, p.rc, p.nrc, &code), SG_OK);
    assert_int_equal(sg_core_create(&cfg, 0, &rep.core), SG_OK);
    sg_core_set_hooks(rep.core, hooks, 1);
    enum sg_status st =
        sg_core_run_cta(rep.core, code, &m->cta, &m->map, &m->findings, &m->fault);
    if (strict) {
      /* The first store (word 3, warp 0) ends the CTA: words 4.. never run. */
      assert_int_equal(st, SG_EFAULT);
      assert_int_equal(m->fault.kind, SG_FAULT_UNMAPPED);
      assert_int_equal(m->fault.pc, CODE_BASE + 3 * 4);
      assert_int_equal(m->fault.warp, 0);
      assert_string_equal(m->fault.what, "a store the consumer did not like");
      assert_int_equal(data32(m, 1), 1); /* the store itself happened */
      assert_int_equal(data32(m, 5), 0); /* warp 1 never ran */
    } else {
      /* Two sites (words 3 and 7), each with its first work-item. */
      assert_int_equal(st, SG_OK);
      assert_int_equal(m->findings.count, 2);
      uint64_t count = 0;
      for (uint32_t i = 0; i < m->findings.count; i++) {
        count += m->findings.site[i].count;
        assert_int_equal(m->findings.site[i].first.warp, 0);
      }
      assert_int_equal(count, 2 + 2); /* each warp's two stores */
      assert_int_equal(data32(m, 5), 105);
    }
    sg_core_destroy(rep.core);
    sg_code_destroy(code);
    machine_free(m);
  }
}

/* A consumer that follows translated blocks (sg_block_ops): the limits it
 * gives, what the blocks tell it, and the records of what they left to the
 * interpreter. */
struct follower {
  struct sg_hook hook;
  struct sg_block_limit lim[8];
  unsigned enters, notes, leaves;
  uint32_t ran[4];
  struct sg_block_access note[4];
  unsigned nrec;
  uint64_t rec_pc[16];
  uint32_t rec_warp[16];
};
static const struct sg_block_limit *follow_enter(struct sg_hook *self, uint32_t warp, uint64_t pc,
                                                 const struct sg_uop *uops, uint32_t len,
                                                 uint64_t time, uint64_t mask) {
  struct follower *f = (struct follower *)self;
  (void)time, (void)mask;
  assert_int_equal(pc, CODE_BASE);
  assert_int_equal(len, 7); /* the exit included */
  assert_int_equal(uops[3].op, SG_OP_SW);
  assert_int_equal(warp, f->enters);
  f->enters++;
  return f->lim;
}
static const struct sg_block_limit *follow_note(struct sg_hook *self,
                                                const struct sg_block_access *a) {
  struct follower *f = (struct follower *)self;
  f->note[f->notes++] = *a;
  return f->lim;
}
static void follow_leave(struct sg_hook *self, uint32_t ran, const struct sg_block_log *log) {
  (void)log;
  struct follower *f = (struct follower *)self;
  f->ran[f->leaves++] = ran;
}
static void follow_insn(struct sg_hook *self, const struct sg_insn_record *r) {
  struct follower *f = (struct follower *)self;
  f->rec_pc[f->nrec] = r->pc;
  f->rec_warp[f->nrec++] = r->warp;
}
static const struct sg_block_ops follow_ops = {
    .enter = follow_enter, .note = follow_note, .leave = follow_leave};

/* Machine m's program for the block consumers: one block of seven
 * instructions, two stores and the exit. */
static struct sg_code *two_stores(struct machine *m, struct prog *p) {
  prog_init(p);
  emit(p, CSRR(S0, SG_CSR_TIDLIN)); /* 0 */
  emit(p, SLLI(T0, S0, 2));         /* 1 */
  emit(p, ADD(S1, A0, T0));         /* 2 */
  emit(p, SW(S0, 0, S1));           /* 3: out[t] = t */
  emit(p, ADDI(T2, S0, 100));       /* 4 */
  emit(p, SW(T2, 256, S1));         /* 5: out[64 + t] = t + 100 */
  emit(p, SG_EXIT);                 /* 6 */
  prog_finish(p);
  m->regions[0] = (struct sg_region){CODE_BASE, 4 * p->n, (uint8_t *)p->w,
                                     SG_PERM_R | SG_PERM_X, "code", SG_SPACE_CONSTANT};
  struct sg_code *code;
  assert_int_equal(sg_code_create(p->w, p->n, CODE_BASE, p->rc, p->nrc, &code), SG_OK);
  return code;
}

/* A core of 4-lane warps that translates at the first launch, with the
 * consumers hooks[0 .. n). */
static struct sg_core *jit_core(struct sg_hook *const *hooks, uint32_t n) {
  struct sg_sim_config cfg = {.warp_size = 4, .reconv = test_policy(), .engine = SG_ENGINE_JIT,
                              .jit_threshold = 0};
  struct sg_core *core;
  assert_int_equal(sg_core_create(&cfg, 0, &core), SG_OK);
  sg_core_set_hooks(core, hooks, n);
  return core;
}

static void test_block_consumer(void **state) {
  (void)state;
  for (int two = 0; two < 2; two++) {
    struct machine *m = machine_new(8, 4);
    struct prog p;
    struct sg_code *code = two_stores(m, &p);
    static struct follower f[2];
    for (int i = 0; i < 2; i++) {
      f[i] = (struct follower){.hook = {.insn = follow_insn, .block = &follow_ops}};
      /* word 3 anywhere in the buffer, with a note; word 5 only where warp
       * 0 writes */
      f[i].lim[3] = (struct sg_block_limit){.lo = DATA_BASE, .span = DATA_SIZE - 4, .align = 3,
                                            .note = 1};
      f[i].lim[5] = (struct sg_block_limit){.lo = DATA_BASE + 256, .span = 12, .align = 3};
    }
    struct sg_hook *hooks[] = {&f[0].hook, &f[1].hook};
    struct sg_core *core = jit_core(hooks, two ? 2 : 1);
    assert_int_equal(sg_core_run_cta(core, code, &m->cta, &m->map, &m->findings, &m->fault),
                     SG_OK);
    for (unsigned t = 0; t < 8; t++) {
      assert_int_equal(data32(m, t), t);
      assert_int_equal(data32(m, 64 + t), t + 100);
    }
    if (two) {
      /* Two of them that both limit the block: each warp's block is
       * entered and left without running, and every instruction is
       * interpreted, with its record. */
      for (int i = 0; i < 2; i++) {
        assert_int_equal(f[i].enters, 2);
        assert_int_equal(f[i].leaves, 2);
        assert_int_equal(f[i].ran[0] + f[i].ran[1], 0);
        assert_int_equal(f[i].nrec, 2 * 7);
      }
    } else {
      /* Warp 0's block ran through, its exit included; warp 1's stopped
       * before word 5, which the interpreter ran with its record, and the
       * exit after it. Word 3 was noted with each warp's addresses. */
      assert_int_equal(f[0].enters, 2);
      assert_int_equal(f[0].leaves, 2);
      assert_int_equal(f[0].ran[0], 7);
      assert_int_equal(f[0].ran[1], 5);
      assert_int_equal(f[0].notes, 2);
      for (unsigned w = 0; w < 2; w++) {
        const struct sg_block_access *a = &f[0].note[w];
        assert_int_equal(a->index, 3);
        assert_int_equal(a->pc, CODE_BASE + 3 * 4);
        assert_int_equal(a->uop->op, SG_OP_SW);
        assert_int_equal(a->lo, DATA_BASE + 16 * w);
        assert_int_equal(a->first, DATA_BASE + 16 * w);
        assert_int_equal(a->hi, DATA_BASE + 16 * w + 12);
      }
      assert_int_equal(f[0].nrec, 2);
      assert_int_equal(f[0].rec_pc[0], CODE_BASE + 5 * 4);
      assert_int_equal(f[0].rec_warp[0], 1);
      assert_int_equal(f[0].rec_pc[1], CODE_BASE + 6 * 4); /* warp 1's exit */
      assert_int_equal(f[0].rec_warp[1], 1);
    }
    sg_core_destroy(core);
    sg_code_destroy(code);
    machine_free(m);
  }
}

/* A consumer that lets every access run and asks for the block's log: it
 * counts blocks and instructions, and keeps the first accesses the logs
 * tell and the PCs of the first records. */
struct logger {
  struct sg_hook hook;
  unsigned enters, leaves, naccess, nrec;
  uint64_t ran, rec_pc[4], mask[8];
  struct sg_block_mem access[8];
};
static const struct sg_block_limit *log_enter(struct sg_hook *self, uint32_t warp, uint64_t pc,
                                              const struct sg_uop *uops, uint32_t len,
                                              uint64_t time, uint64_t mask) {
  (void)warp, (void)pc, (void)uops, (void)len, (void)time;
  struct logger *g = (struct logger *)self;
  g->mask[g->enters++ % 8] = mask;
  return sg_block_unlimited;
}
static void log_leave(struct sg_hook *self, uint32_t ran, const struct sg_block_log *log) {
  struct logger *g = (struct logger *)self;
  g->leaves++;
  g->ran += ran;
  assert_non_null(log);
  for (uint32_t i = 0; i < log->n && g->naccess < 8; i++)
    g->access[g->naccess++] = log->mem[i];
}
static void log_insn(struct sg_hook *self, const struct sg_insn_record *r) {
  struct logger *g = (struct logger *)self;
  if (g->nrec < 4)
    g->rec_pc[g->nrec] = r->pc;
  g->nrec++;
}
static const struct sg_block_ops log_ops = {
    .enter = log_enter, .leave = log_leave, .accesses = true};

/* Two consumers that follow blocks, one with limits and one without: the
 * blocks run under the first one's limits, and the second one hears of
 * every access that ran, with the lanes' addresses and stored values. */
static void test_block_log(void **state) {
  (void)state;
  struct machine *m = machine_new(8, 4);
  struct prog p;
  struct sg_code *code = two_stores(m, &p);
  static struct follower f;
  static struct logger g;
  f = (struct follower){.hook = {.insn = follow_insn, .block = &follow_ops}};
  /* word 5 only where warp 0 writes: warp 1's block stops before it */
  f.lim[3] = (struct sg_block_limit){.lo = DATA_BASE, .span = DATA_SIZE - 4};
  f.lim[5] = (struct sg_block_limit){.lo = DATA_BASE + 256, .span = 12};
  g = (struct logger){.hook = {.insn = log_insn, .block = &log_ops}};
  struct sg_hook *hooks[] = {&f.hook, &g.hook};
  struct sg_core *core = jit_core(hooks, 2);
  assert_int_equal(sg_core_run_cta(core, code, &m->cta, &m->map, &m->findings, &m->fault), SG_OK);
  for (unsigned t = 0; t < 8; t++) {
    assert_int_equal(data32(m, t), t);
    assert_int_equal(data32(m, 64 + t), t + 100);
  }
  assert_int_equal(g.enters, 2);
  assert_int_equal(g.leaves, 2);
  assert_int_equal(g.ran, 7 + 5);
  /* warp 0: words 3 and 5; warp 1: word 3 (the interpreter ran its 5) */
  assert_int_equal(g.naccess, 3);
  const unsigned index[3] = {3, 5, 3}, first[3] = {0, 0, 4};
  const uint64_t offset[3] = {0, 256, 0}, plus[3] = {0, 100, 0};
  for (unsigned i = 0; i < 3; i++) {
    const struct sg_block_mem *a = &g.access[i];
    assert_int_equal(a->index, index[i]);
    assert_int_equal(a->space, SG_SPACE_GLOBAL);
    for (unsigned l = 0; l < 4; l++) {
      unsigned t = first[i] + l;
      assert_int_equal(a->addr[l], DATA_BASE + offset[i] + 4 * t);
      assert_int_equal(a->data[l] & 0xffffffffu, t + plus[i]);
    }
  }
  assert_int_equal(f.nrec, 2); /* warp 1's word 5 and its exit */
  sg_core_destroy(core);
  sg_code_destroy(code);
  machine_free(m);
}

/* A warp whose lanes are not all active (the CTA's last, 2 of its 4
 * lanes) runs its blocks translated too, on those lanes: they store what
 * the interpreter would, the lanes that are not active store nothing, and
 * a consumer hears of the block with the warp's mask and of the active
 * lanes' accesses. The same without a consumer (the fast loop). */
static void test_partial_warp_blocks(void **state) {
  (void)state;
  for (int follow = 0; follow < 2; follow++) {
    struct machine *m = machine_new(6, 4);
    memset(m->data, 0xee, 4 * 128); /* what no lane stores */
    struct prog p;
    struct sg_code *code = two_stores(m, &p);
    static struct logger g;
    g = (struct logger){.hook = {.insn = log_insn, .block = &log_ops}};
    struct sg_hook *hooks[] = {&g.hook};
    struct sg_core *core = jit_core(hooks, follow ? 1 : 0);
    assert_int_equal(sg_core_run_cta(core, code, &m->cta, &m->map, &m->findings, &m->fault),
                     SG_OK);
    for (unsigned t = 0; t < 8; t++) {
      assert_int_equal(data32(m, t), t < 6 ? t : 0xeeeeeeeeu);
      assert_int_equal(data32(m, 64 + t), t < 6 ? t + 100 : 0xeeeeeeeeu);
    }
    if (follow) {
      assert_int_equal(g.enters, 2);
      assert_int_equal(g.mask[0], 0xf);
      assert_int_equal(g.mask[1], 0x3);
      assert_int_equal(g.ran, 2 * 7); /* both blocks ran through, exits included */
      assert_int_equal(g.nrec, 0);
      assert_int_equal(g.naccess, 4);
      const struct sg_block_mem *a = &g.access[3]; /* warp 1's second store */
      assert_int_equal(a->index, 5);
      assert_int_equal(a->lo, DATA_BASE + 256 + 4 * 4);
      assert_int_equal(a->hi, DATA_BASE + 256 + 4 * 5);
      for (unsigned l = 0; l < 2; l++) {
        assert_int_equal(a->addr[l], DATA_BASE + 256 + 4 * (4 + l));
        assert_int_equal(a->data[l] & 0xffffffffu, 4 + l + 100);
      }
    }
    sg_core_destroy(core);
    sg_code_destroy(code);
    machine_free(m);
  }
}

/* Straight-line code longer than one translated block holds runs in
 * blocks from end to end, its exit included: a consumer that follows
 * blocks sees every instruction in them, and no record. */
#define CHAIN 1200
static void test_long_straight_line(void **state) {
  (void)state;
  struct machine *m = machine_new(8, 4); /* two full warps of 4 */
  struct prog p;
  prog_init(&p);
  emit(&p, CSRR(S0, SG_CSR_TIDLIN));
  emit(&p, SLLI(T0, S0, 2));
  emit(&p, ADD(S1, A0, T0));
  for (unsigned i = 0; i < CHAIN; i++)
    emit(&p, ADDI(S0, S0, 1));
  emit(&p, SW(S0, 0, S1)); /* out[t] = t + CHAIN */
  emit(&p, SG_EXIT);
  prog_finish(&p);
  m->regions[0] = (struct sg_region){CODE_BASE, 4 * p.n, (uint8_t *)p.w,
                                     SG_PERM_R | SG_PERM_X, "code", SG_SPACE_CONSTANT};
  struct sg_code *code;
  static struct logger c;
  c = (struct logger){.hook = {.insn = log_insn, .block = &log_ops}};
  struct sg_hook *hooks[] = {&c.hook};
  assert_int_equal(sg_code_create(p.w, p.n, CODE_BASE, p.rc, p.nrc, &code), SG_OK);
  struct sg_core *core = jit_core(hooks, 1);
  assert_int_equal(sg_core_run_cta(core, code, &m->cta, &m->map, &m->findings, &m->fault), SG_OK);
  for (unsigned t = 0; t < 8; t++)
    assert_int_equal(data32(m, t), t + CHAIN);
  /* each warp: all of it in blocks, more than one */
  assert_int_equal(c.ran, 2 * p.n);
  assert_true(c.enters > 2);
  assert_int_equal(c.nrec, 0);
  sg_core_destroy(core);
  sg_code_destroy(code);
  machine_free(m);
}

/* The names of the policies' ops are the names configuration uses. */
static void test_policy_names(void **state) {
  (void)state;
#define X(e, n) assert_string_equal(sg_reconv_policy_name(SG_RECONV_##e), #n);
  SG_RECONV_POLICIES(X)
#undef X
  assert_null(sg_reconv_policy_name(SG_RECONV_NUM_POLICIES));
  struct sg_sim_config bad = {.warp_size = 4, .reconv = SG_RECONV_NUM_POLICIES};
  struct sg_core *core;
  assert_int_equal(sg_core_create(&bad, 0, &core), SG_EINVAL);
}

/* Traces: one text line per instruction and event in CTA order, and JSON
 * spans; a limit drops whole CTAs and says so. */
static void test_traces(void **state) {
  (void)state;
  struct machine *m = machine_new(8, 4);
  struct prog p;
  prog_init(&p);
  build_small(&p);
  prog_finish(&p);
  m->regions[0] = (struct sg_region){CODE_BASE, 4 * p.n, (uint8_t *)p.w,
                                     SG_PERM_R | SG_PERM_X, "code", SG_SPACE_CONSTANT};
  struct sg_code *code;
  struct sg_core *core;
  struct sg_trace *trace;
  struct sg_sim_config cfg = {.warp_size = 4, .reconv = test_policy()};
  assert_int_equal(sg_code_create(p.w, p.n, CODE_BASE, p.rc, p.nrc, &code), SG_OK);
  assert_int_equal(sg_core_create(&cfg, 0, &core), SG_OK);
  assert_int_equal(sg_trace_create(code, 1 << 20, &trace), SG_OK);
  struct sg_hook *hooks[] = {sg_trace_hook(trace)};
  sg_core_set_hooks(core, hooks, 1);
  assert_int_equal(sg_core_run_cta(core, code, &m->cta, &m->map, &m->findings, &m->fault),
                   SG_OK);
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  bool first = true, cut = true;
  uint64_t base = 0;
  uint64_t n = sg_trace_write(&trace, 1, "k", SG_TRACE_TEXT, 1, 1 << 20, &first, &base, out,
                              &cut);
  fclose(out);
  assert_int_equal(n, len);
  assert_false(cut);
  unsigned lines = 0, insns = 0;
  for (char *s = text; (s = strchr(s, '\n')); s++)
    lines++;
  for (char *s = text; (s = strstr(s, " mask 0x")); s++)
    insns++;
  assert_int_equal(insns, 20);
  /* header + 20 instructions + 2 diverge + 2 reconverge + 2 waits + release + 2 done */
  assert_int_equal(lines, 1 + 20 + 2 + 2 + 2 + 1 + 2);
  assert_non_null(strstr(text, "       0 cta 0 warp 0 pc 0x00010000 mask 0x000000000000000f  "
                               "csrr s0, sg.tidlin\n"));
  assert_non_null(strstr(text, "sg.barrier zero"));
  free(text);

  /* JSON: events separated by commas, spans for runs and the barrier. */
  out = open_memstream(&text, &len);
  first = true;
  n = sg_trace_write(&trace, 1, "k", SG_TRACE_JSON, 1, 1 << 20, &first, &base, out, &cut);
  fclose(out);
  assert_false(first);
  assert_int_equal(text[0], '\n');
  /* the CTA on the track of the CTAs whose first warp is slot 0 */
  assert_non_null(strstr(text, "{\"name\":\"k cta 0\",\"ph\":\"X\",\"pid\":0,\"tid\":100000,"
                               "\"ts\":0,\"dur\":20}"));
  assert_non_null(strstr(text, "\"tid\":100000,\"args\":{\"name\":\"CTAs at warp slot 0\"}"));
  assert_non_null(strstr(text, "\"name\":\"barrier\""));
  assert_non_null(strstr(text, "\"name\":\"diverge\""));
  assert_non_null(strstr(text, "\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":2"));
  assert_int_equal(base, 20);
  free(text);

  /* Room for nothing: the CTA does not fit, nothing is written. */
  out = open_memstream(&text, &len);
  first = true;
  n = sg_trace_write(&trace, 1, "k", SG_TRACE_TEXT, 1, 10, &first, &base, out, &cut);
  fclose(out);
  assert_int_equal(n, 0);
  assert_int_equal(len, 0);
  assert_true(cut);
  assert_true(first);
  free(text);
  sg_trace_destroy(trace);

  /* A consumer whose limit is too small for the CTA keeps no part of it. */
  assert_int_equal(sg_trace_create(code, 64, &trace), SG_OK);
  hooks[0] = sg_trace_hook(trace);
  assert_int_equal(sg_core_run_cta(core, code, &m->cta, &m->map, &m->findings, &m->fault),
                   SG_OK);
  out = open_memstream(&text, &len);
  n = sg_trace_write(&trace, 1, "k", SG_TRACE_TEXT, 1, 1 << 20, &first, &base, out, &cut);
  fclose(out);
  assert_int_equal(n, 0);
  assert_true(cut);
  free(text);
  sg_trace_destroy(trace);
  sg_core_destroy(core);
  sg_code_destroy(code);
  machine_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_records),          cmocka_unit_test(test_fast_equals_observed),
      cmocka_unit_test(test_dualpath_policies), cmocka_unit_test(test_switch_at_barrier),
      cmocka_unit_test(test_policy_names),     cmocka_unit_test(test_traces),
      cmocka_unit_test(test_consumer_findings), cmocka_unit_test(test_block_consumer),
      cmocka_unit_test(test_block_log),        cmocka_unit_test(test_partial_warp_blocks),
      cmocka_unit_test(test_long_straight_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
