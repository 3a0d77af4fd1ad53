/* SPDX-License-Identifier: MIT */
/* Tests of sim/ reconvergence (DESIGN.md section 4): hand-built programs with
 * if/else, nesting, divergent loops, break, early exit and calls, run with
 * several warp sizes and compared with a host reference; the statistics show
 * that warps reconverge (code after the join runs once per warp). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sg_test_prog.h"

#define NTHREADS 72 /* not a multiple of 64 or 32: partial last warps */
static const unsigned warp_sizes[] = {1, 4, 8, 32, 64};

/* s0 = thread id, s1 = &out[t] (4-byte elements at a0) */
static void prologue(struct prog *p) {
  emit(p, CSRR(S0, SG_CSR_TIDLIN));
  emit(p, SLLI(T0, S0, 2));
  emit(p, ADD(S1, A0, T0));
}

static void store_exit(struct prog *p) {
  emit(p, SW(A1, 0, S1));
  emit(p, SG_EXIT);
}

typedef void build_fn(struct prog *p);
typedef uint32_t ref_fn(uint32_t t);

static struct machine *run(build_fn *build, ref_fn *ref, unsigned ws) {
  struct machine *m = machine_new(NTHREADS, ws);
  struct prog p;
  prog_init(&p);
  build(&p);
  assert_int_equal(machine_run(m, &p, ws, 1000000), SG_OK);
  for (uint32_t t = 0; t < NTHREADS; t++)
    if (data32(m, t) != ref(t))
      fail_msg("warp size %u thread %u: got %u, want %u", ws, t, data32(m, t), ref(t));
  assert_int_equal(m->stats.warps, (NTHREADS + ws - 1) / ws);
  return m;
}

static void run_all(build_fn *build, ref_fn *ref) {
  for (size_t i = 0; i < sizeof(warp_sizes) / sizeof(warp_sizes[0]); i++)
    machine_free(run(build, ref, warp_sizes[i]));
}

/* if (t & 1) v = 3t; else v = t + 100; */
static void build_if_else(struct prog *p) {
  unsigned els = label(p), join = label(p);
  prologue(p);
  emit(p, ANDI(T0, S0, 1));
  br(p, F_BEQ, T0, ZERO, els, (int)join);
  emit(p, LI(T1, 3));
  emit(p, MUL(A1, S0, T1));
  jmp(p, ZERO, join);
  bind(p, els);
  emit(p, ADDI(A1, S0, 100));
  bind(p, join);
  store_exit(p);
}
static uint32_t ref_if_else(uint32_t t) { return t & 1 ? 3 * t : t + 100; }

static void test_if_else(void **state) {
  (void)state;
  run_all(build_if_else, ref_if_else);
  /* Every warp of 2+ lanes diverges once and runs each path and the join
   * once: 3 + 2 + 3 (then) + 1 (else) + 2 (join) warp instructions. */
  for (size_t i = 1; i < sizeof(warp_sizes) / sizeof(warp_sizes[0]); i++) {
    unsigned ws = warp_sizes[i], nw = (NTHREADS + ws - 1) / ws;
    struct machine *m = run(build_if_else, ref_if_else, ws);
    assert_int_equal(m->stats.warp_insns, 11 * nw);
    assert_int_equal(m->stats.divergent_branches, nw);
    assert_int_equal(m->stats.branches, nw);
    assert_int_equal(m->stats.thread_insns, NTHREADS * 7 + (NTHREADS / 2) * 3 + (NTHREADS / 2) * 1);
    assert_int_equal(m->stats.lane_slots, 11 * nw * ws);
    machine_free(m);
  }
}

/* if (t < 16) { if (t & 1) v = 1; else v = 2; } else v = 3; v += t; */
static void build_nested(struct prog *p) {
  unsigned oelse = label(p), ielse = label(p), j1 = label(p), j2 = label(p);
  prologue(p);
  emit(p, SLTI(T0, S0, 16));
  br(p, F_BEQ, T0, ZERO, oelse, (int)j2);
  emit(p, ANDI(T1, S0, 1));
  br(p, F_BEQ, T1, ZERO, ielse, (int)j1);
  emit(p, LI(A1, 1));
  jmp(p, ZERO, j1);
  bind(p, ielse);
  emit(p, LI(A1, 2));
  bind(p, j1);
  jmp(p, ZERO, j2);
  bind(p, oelse);
  emit(p, LI(A1, 3));
  bind(p, j2);
  emit(p, ADD(A1, A1, S0));
  store_exit(p);
}
static uint32_t ref_nested(uint32_t t) { return (t < 16 ? (t & 1 ? 1 : 2) : 3) + t; }
static void test_nested(void **state) {
  (void)state;
  run_all(build_nested, ref_nested);
}

/* s = 0; for (i = 0; i < t % 5; ) s += ++i; */
static void build_loop(struct prog *p) {
  unsigned loop = label(p), done = label(p);
  prologue(p);
  emit(p, LI(T2, 5));
  emit(p, REMU(T3, S0, T2));
  emit(p, LI(A1, 0));
  emit(p, LI(T1, 0));
  bind(p, loop);
  br(p, F_BGE, T1, T3, done, (int)done);
  emit(p, ADDI(T1, T1, 1));
  emit(p, ADD(A1, A1, T1));
  jmp(p, ZERO, loop);
  bind(p, done);
  store_exit(p);
}
static uint32_t ref_loop(uint32_t t) { return (t % 5) * (t % 5 + 1) / 2; }
static void test_divergent_loop(void **state) {
  (void)state;
  run_all(build_loop, ref_loop);
  /* with 8-lane warps every warp reconverges: the store runs once per warp */
  struct machine *m = run(build_loop, ref_loop, 8);
  assert_int_equal(m->stats.warp_insns, 9 * (7 + 5 + 4 * 3 + 2)); /* 5 loop tests, 4 bodies */
  machine_free(m);
}

/* s = 0; for (i = 0; i < 10; i++) { if (i * t > 20) break; s += i; } */
static void build_break(struct prog *p) {
  unsigned loop = label(p), end = label(p);
  prologue(p);
  emit(p, LI(T1, 0));
  emit(p, LI(A1, 0));
  emit(p, LI(T2, 10));
  emit(p, LI(T4, 20));
  bind(p, loop);
  br(p, F_BGE, T1, T2, end, (int)end);
  emit(p, MUL(T3, T1, S0));
  br(p, F_BLT, T4, T3, end, (int)end);
  emit(p, ADD(A1, A1, T1));
  emit(p, ADDI(T1, T1, 1));
  jmp(p, ZERO, loop);
  bind(p, end);
  store_exit(p);
}
static uint32_t ref_break(uint32_t t) {
  uint32_t s = 0;
  for (uint32_t i = 0; i < 10; i++) {
    if (i * t > 20)
      break;
    s += i;
  }
  return s;
}
static void test_break(void **state) {
  (void)state;
  run_all(build_break, ref_break);
}

/* if (t % 3 == 0) { out = 7; exit; } out = 9; -- the branch never rejoins */
static void build_early_exit(struct prog *p) {
  unsigned rest = label(p);
  prologue(p);
  emit(p, LI(T2, 3));
  emit(p, REMU(T0, S0, T2));
  br(p, F_BNE, T0, ZERO, rest, -1);
  emit(p, LI(A1, 7));
  store_exit(p);
  bind(p, rest);
  emit(p, LI(A1, 9));
  store_exit(p);
}
static uint32_t ref_early_exit(uint32_t t) { return t % 3 == 0 ? 7 : 9; }
static void test_early_exit(void **state) {
  (void)state;
  run_all(build_early_exit, ref_early_exit);
}

/* v = f(t & 7) with f(x) { if (x & 2) x += 10; return x; } */
static void build_call(struct prog *p) {
  unsigned fn = label(p), ret = label(p);
  prologue(p);
  emit(p, ANDI(A1, S0, 7));
  jmp(p, RA, fn);
  store_exit(p);
  bind(p, fn);
  emit(p, ANDI(T0, A1, 2));
  br(p, F_BEQ, T0, ZERO, ret, (int)ret);
  emit(p, ADDI(A1, A1, 10));
  bind(p, ret);
  emit(p, JALR(ZERO, RA, 0));
}
static uint32_t ref_call(uint32_t t) { return (t & 7) + (t & 2 ? 10 : 0); }
static void test_call(void **state) {
  (void)state;
  run_all(build_call, ref_call);
}

/* Calls in divergent code: odd lanes call f, whose paths rejoin only by
 * returning (several `ret`s: reconvergence point SG_RECONV_EXIT), one of
 * them through g, which also returns from two places; every lane must then
 * reach the barrier together. f(x) = x & 2 ? x + 10 : x & 4 ? g(x) : 2x,
 * g(x) = x & 1 ? x + 100 : x + 200. */
static void build_call_returns(struct prog *p) {
  unsigned join = label(p), f = label(p), f1 = label(p), f2 = label(p), g = label(p),
           g1 = label(p);
  prologue(p);
  emit(p, ANDI(A1, S0, 7));
  emit(p, ANDI(T0, S0, 1));
  br(p, F_BEQ, T0, ZERO, join, (int)join);
  jmp(p, RA, f);
  bind(p, join);
  emit(p, SG_BARRIER(ZERO));
  store_exit(p);
  bind(p, f);
  emit(p, ANDI(T0, A1, 2));
  br(p, F_BEQ, T0, ZERO, f1, -1);
  emit(p, ADDI(A1, A1, 10));
  emit(p, JALR(ZERO, RA, 0));
  bind(p, f1);
  emit(p, ANDI(T0, A1, 4));
  br(p, F_BEQ, T0, ZERO, f2, -1);
  emit(p, ADDI(SP, SP, -16));
  emit(p, SD(RA, 0, SP));
  jmp(p, RA, g);
  emit(p, LD(RA, 0, SP));
  emit(p, ADDI(SP, SP, 16));
  emit(p, JALR(ZERO, RA, 0));
  bind(p, f2);
  emit(p, SLLI(A1, A1, 1));
  emit(p, JALR(ZERO, RA, 0));
  bind(p, g);
  emit(p, ANDI(T0, A1, 1));
  br(p, F_BEQ, T0, ZERO, g1, -1);
  emit(p, ADDI(A1, A1, 100));
  emit(p, JALR(ZERO, RA, 0));
  bind(p, g1);
  emit(p, ADDI(A1, A1, 200));
  emit(p, JALR(ZERO, RA, 0));
}
static uint32_t ref_call_returns(uint32_t t) {
  uint32_t x = t & 7;
  if (!(t & 1))
    return x;
  return x & 2 ? x + 10 : x & 4 ? x + 100 : 2 * x;
}
static void test_call_returns(void **state) {
  (void)state;
  run_all(build_call_returns, ref_call_returns);
}

/* The same function called once per iteration of a divergent loop: each
 * call's paths wait for their own return, not an earlier or later one.
 * v = sum over k < t % 5 of h(k + t), h(y) = y & 1 ? y : 3y. */
static void build_call_in_loop(struct prog *p) {
  unsigned top = label(p), done = label(p), h = label(p), h1 = label(p);
  prologue(p);
  emit(p, LI(A1, 0));
  emit(p, LI(S2, 0));        /* k */
  emit(p, LI(T1, 5));
  emit(p, REMU(S3, S0, T1)); /* t % 5 */
  bind(p, top);
  br(p, F_BGEU, S2, S3, done, (int)done);
  emit(p, ADD(A2, S2, S0));
  jmp(p, RA, h);
  emit(p, ADD(A1, A1, A2));
  emit(p, ADDI(S2, S2, 1));
  jmp(p, ZERO, top);
  bind(p, done);
  emit(p, SG_BARRIER(ZERO));
  store_exit(p);
  bind(p, h);
  emit(p, ANDI(T0, A2, 1));
  br(p, F_BEQ, T0, ZERO, h1, -1);
  emit(p, JALR(ZERO, RA, 0));
  bind(p, h1);
  emit(p, ADD(T0, A2, A2));
  emit(p, ADD(A2, A2, T0));
  emit(p, JALR(ZERO, RA, 0));
}
static uint32_t ref_call_in_loop(uint32_t t) {
  uint32_t v = 0;
  for (uint32_t k = 0; k < t % 5; k++)
    v += (k + t) & 1 ? k + t : 3 * (k + t);
  return v;
}
static void test_call_in_loop(void **state) {
  (void)state;
  run_all(build_call_in_loop, ref_call_in_loop);
}

/* sg.ballot and sg.shfl see exactly the active lanes of the warp. */
static void build_ballot(struct prog *p) {
  unsigned join = label(p), skip = label(p);
  prologue(p);
  emit(p, ANDI(T0, S0, 3));
  emit(p, LI(A1, 0));
  br(p, F_BEQ, T0, ZERO, skip, (int)join); /* lanes with t % 4 == 0 skip */
  emit(p, ANDI(T1, S0, 1));
  emit(p, SG_BALLOT(A1, T1));
  bind(p, skip);
  bind(p, join);
  store_exit(p);
}
static unsigned ballot_ws;
static uint32_t ref_ballot(uint32_t t) {
  if (t % 4 == 0)
    return 0;
  uint32_t first = t / ballot_ws * ballot_ws, v = 0;
  for (uint32_t u = first; u < first + ballot_ws && u < NTHREADS && u - first < 32; u++)
    if (u % 4 && (u & 1))
      v |= 1u << (u - first);
  return v;
}
static void test_ballot(void **state) {
  (void)state;
  for (ballot_ws = 1; ballot_ws <= 32; ballot_ws *= 2)
    machine_free(run(build_ballot, ref_ballot, ballot_ws));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_if_else),     cmocka_unit_test(test_nested),
      cmocka_unit_test(test_divergent_loop), cmocka_unit_test(test_break),
      cmocka_unit_test(test_early_exit),  cmocka_unit_test(test_call),
      cmocka_unit_test(test_call_returns), cmocka_unit_test(test_call_in_loop),
      cmocka_unit_test(test_ballot),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
