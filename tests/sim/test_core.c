/* SPDX-License-Identifier: MIT */
/* Tests of sim/ warp scheduling, barriers and faults (DESIGN.md section 4):
 * values written before a barrier are seen after it by other warps, partial
 * barriers and memory errors fault with the right pc, lane and address, the
 * watchdog stops infinite loops, and AMOs from many lanes, warps and host
 * threads are exact, each lane's result as if the lanes went in lane order
 * when they all name one word. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>

#include "sg_test_prog.h"

static void prologue(struct prog *p) {
  emit(p, CSRR(S0, SG_CSR_TIDLIN));
  emit(p, SLLI(T0, S0, 2));
  emit(p, ADD(S1, A0, T0));
}

/* out[t] = t + 1; barrier; out[16 + t] = out[(t + 1) % 16] */
static void test_barrier(void **state) {
  (void)state;
  struct machine *m = machine_new(16, 4);
  struct prog p;
  prog_init(&p);
  prologue(&p);
  emit(&p, ADDI(T1, S0, 1));
  emit(&p, SW(T1, 0, S1));
  emit(&p, SG_BARRIER(ZERO));
  emit(&p, ADDI(T2, S0, 1));
  emit(&p, ANDI(T2, T2, 15));
  emit(&p, SLLI(T2, T2, 2));
  emit(&p, ADD(T2, A0, T2));
  emit(&p, LW(T3, 0, T2));
  emit(&p, SW(T3, 64, S1));
  emit(&p, SG_EXIT);
  assert_int_equal(machine_run(m, &p, 4, 0), SG_OK);
  for (unsigned t = 0; t < 16; t++)
    assert_int_equal(data32(m, 16 + t), (t + 1) % 16 + 1);
  assert_int_equal(m->stats.barriers, 1);
  assert_int_equal(m->stats.warps, 4);
  assert_int_equal(m->stats.ctas, 1);
  machine_free(m);
}

/* Threads 0..2 return early (the branch to the exit block, as compilers lay
 * out `if (t < 3) return;`, so the exiting path runs first); the barrier
 * waits only for the others. */
static void test_exit_then_barrier(void **state) {
  (void)state;
  struct machine *m = machine_new(16, 4);
  struct prog p;
  prog_init(&p);
  unsigned out = label(&p);
  prologue(&p);
  emit(&p, SLTI(T0, S0, 3));
  br(&p, F_BNE, T0, ZERO, out, -1);
  emit(&p, SG_BARRIER(ZERO));
  emit(&p, LI(T1, 5));
  emit(&p, SW(T1, 0, S1));
  bind(&p, out);
  emit(&p, SG_EXIT);
  assert_int_equal(machine_run(m, &p, 4, 0), SG_OK);
  for (unsigned t = 0; t < 16; t++)
    assert_int_equal(data32(m, t), t < 3 ? 0 : 5);
  assert_int_equal(m->stats.barriers, 1);
  /* Undefined behaviour all the same: reported once, naming thread 0. */
  const struct sg_finding_site *f = only_site(m);
  assert_int_equal(f->first.kind, SG_FAULT_BARRIER_EXITED);
  assert_int_equal(f->first.pc, CODE_BASE + 5 * 4);
  assert_int_equal(f->first.thread, 0);
  assert_int_equal(f->count, 1);
  machine_free(m);
}

/* The opposite layout: the lanes that go on to the barrier take the branch
 * and run first; the barrier sets them aside until their sibling path (the
 * early return) has run, then waits only for the lanes still alive. */
static void test_barrier_then_exit(void **state) {
  (void)state;
  struct machine *m = machine_new(16, 4);
  struct prog p;
  prog_init(&p);
  unsigned bar = label(&p);
  prologue(&p);
  emit(&p, SLTI(T0, S0, 3));
  br(&p, F_BEQ, T0, ZERO, bar, -1);
  emit(&p, SG_EXIT);
  bind(&p, bar);
  emit(&p, SG_BARRIER(ZERO));
  emit(&p, LI(T1, 5));
  emit(&p, SW(T1, 0, S1));
  emit(&p, SG_EXIT);
  assert_int_equal(machine_run(m, &p, 4, 0), SG_OK);
  for (unsigned t = 0; t < 16; t++)
    assert_int_equal(data32(m, t), t < 3 ? 0 : 5);
  assert_int_equal(m->stats.barriers, 1);
  assert_int_equal(only_site(m)->first.kind, SG_FAULT_BARRIER_EXITED);
  machine_free(m);
  /* Under strict checking the same is a fault. */
  m = machine_new(16, 4);
  m->strict = true;
  assert_int_equal(machine_run(m, &p, 4, 0), SG_EFAULT);
  assert_int_equal(m->fault.kind, SG_FAULT_BARRIER_EXITED);
  machine_free(m);
}

/* A barrier inside a divergent branch whose other lanes wait at the join
 * (not an exit): under IPDOM neither can go on, a deadlock that ends the
 * CTA even when not strict. */
static void test_barrier_divergence(void **state) {
  (void)state;
  struct machine *m = machine_new(8, 8);
  struct prog p;
  prog_init(&p);
  unsigned skip = label(&p);
  prologue(&p);
  emit(&p, ANDI(T0, S0, 1));
  br(&p, F_BEQ, T0, ZERO, skip, (int)skip);
  emit(&p, SG_BARRIER(ZERO)); /* word 5 */
  bind(&p, skip);
  emit(&p, SW(T0, 0, S1)); /* the even lanes wait here for the odd ones */
  emit(&p, SG_EXIT);
  assert_int_equal(machine_run(m, &p, 8, 0), SG_EFAULT);
  assert_int_equal(m->fault.kind, SG_FAULT_BARRIER_DEADLOCK);
  assert_int_equal(m->fault.pc, CODE_BASE + 5 * 4);
  assert_int_equal(m->fault.warp, 0);
  assert_int_equal(m->fault.lane, 0); /* the first lane that did not arrive */
  machine_free(m);
}

/* Lanes 0..4 load from the buffer, lanes 5.. from address 0; each stores
 * what it read + 1 at out[16 + t]. */
static void build_null_load(struct prog *p) {
  prologue(p);
  emit(p, SLTI(T1, S0, 5));
  emit(p, MUL(T2, A0, T1));
  emit(p, LW(T3, 0, T2)); /* word 5 */
  emit(p, ADDI(T3, T3, 1));
  emit(p, SW(T3, 64, S1));
  emit(p, SG_EXIT);
}

/* The rule: the null loads read zero and the lanes go on; the site is
 * reported once with its count and first lane. */
static void test_null_load(void **state) {
  (void)state;
  struct machine *m = machine_new(16, 8);
  struct prog p;
  prog_init(&p);
  m->data[0] = 41;
  build_null_load(&p);
  assert_int_equal(machine_run(m, &p, 8, 0), SG_OK);
  for (unsigned t = 0; t < 16; t++)
    assert_int_equal(data32(m, 16 + t), t < 5 ? 42 : 1);
  const struct sg_finding_site *f = only_site(m);
  assert_int_equal(f->first.kind, SG_FAULT_UNMAPPED);
  assert_int_equal(f->first.pc, CODE_BASE + 5 * 4);
  assert_int_equal(f->first.thread, 5);
  assert_int_equal(f->count, 11);
  assert_non_null(strstr(f->first.what, "null page"));
  machine_free(m);
}

static void test_null_fault(void **state) {
  (void)state;
  struct machine *m = machine_new(16, 8);
  struct prog p;
  prog_init(&p);
  m->strict = true;
  build_null_load(&p);
  assert_int_equal(machine_run(m, &p, 8, 0), SG_EFAULT);
  assert_int_equal(m->fault.kind, SG_FAULT_UNMAPPED);
  assert_int_equal(m->fault.pc, CODE_BASE + 5 * 4);
  assert_int_equal(m->fault.lane, 5);
  assert_int_equal(m->fault.thread, 5);
  assert_int_equal(m->fault.tid[0], 5);
  assert_int_equal(m->fault.addr, 0);
  assert_int_equal(m->fault.size, 4);
  assert_non_null(strstr(m->fault.what, "unmapped"));
  machine_free(m);
}

/* An 8-byte store that straddles the end of the buffer: dropped and
 * reported (nothing of it lands), or in strict mode a fault. */
static void test_past_end_fault(void **state) {
  (void)state;
  struct machine *m = machine_new(4, 4);
  struct prog p;
  prog_init(&p);
  emit(&p, LUI(T0, DATA_SIZE));
  emit(&p, ADD(T0, T0, A0));
  emit(&p, LI(T1, -1));
  emit(&p, SD(T1, -4, T0));
  emit(&p, SG_EXIT);
  assert_int_equal(machine_run(m, &p, 4, 0), SG_OK);
  assert_int_equal(data32(m, DATA_SIZE / 4 - 1), 0);
  assert_int_equal(only_site(m)->count, 4);
  assert_int_equal(only_site(m)->first.kind, SG_FAULT_UNMAPPED);
  machine_free(m);
  m = machine_new(4, 4);
  m->strict = true;
  assert_int_equal(machine_run(m, &p, 4, 0), SG_EFAULT);
  assert_int_equal(m->fault.kind, SG_FAULT_UNMAPPED);
  assert_int_equal(m->fault.addr, DATA_BASE + DATA_SIZE - 4);
  assert_int_equal(m->fault.size, 8);
  assert_int_equal(m->fault.pc, CODE_BASE + 12);
  machine_free(m);
}

/* Stores to read-only memory (code, constants) are dropped and reported;
 * strict mode faults. A buffer the host made read-only takes the store
 * (as GPUs do), reported all the same. */
static void test_read_only(void **state) {
  (void)state;
  for (int code = 0; code < 2; code++) {
    struct machine *m = machine_new(4, 4);
    struct prog p;
    prog_init(&p);
    emit(&p, LUI(T0, code ? (int32_t)CODE_BASE : (int32_t)RO_BASE));
    emit(&p, LI(T1, 7));
    emit(&p, SW(T1, 8, T0));
    emit(&p, SG_EXIT);
    assert_int_equal(machine_run(m, &p, 4, 0), SG_OK);
    uint32_t v;
    memcpy(&v, code ? (const uint8_t *)p.w + 8 : m->ro + 8, 4);
    assert_int_not_equal(v, 7);
    assert_int_equal(only_site(m)->first.kind, SG_FAULT_READ_ONLY);
    assert_int_equal(only_site(m)->count, 4);
    machine_free(m);
  }
  struct machine *m = machine_new(4, 4);
  struct prog p;
  prog_init(&p);
  m->regions[3].perm = SG_PERM_R | SG_PERM_STORE_REPORTED;
  emit(&p, LI(T1, 7));
  emit(&p, CSRR(S0, SG_CSR_TIDLIN));
  emit(&p, SLLI(S0, S0, 2));
  emit(&p, ADD(T0, A0, S0));
  emit(&p, SW(T1, 0, T0));
  emit(&p, AMOADD_W(ZERO, T1, T0));
  emit(&p, SG_EXIT);
  assert_int_equal(machine_run(m, &p, 4, 0), SG_OK);
  for (unsigned t = 0; t < 4; t++)
    assert_int_equal(data32(m, t), 14);
  assert_int_equal(m->findings.count, 2); /* the store and the atomic */
  assert_int_equal(m->findings.site[0].first.kind, SG_FAULT_READ_ONLY_BUFFER);
  assert_int_equal(m->findings.site[0].count, 4);
  machine_free(m);
}

static void test_read_only_fault(void **state) {
  (void)state;
  for (int code = 0; code < 2; code++) {
    struct machine *m = machine_new(4, 4);
    struct prog p;
    prog_init(&p);
    m->strict = true;
    emit(&p, LUI(T0, code ? (int32_t)CODE_BASE : (int32_t)RO_BASE));
    emit(&p, LW(T1, 0, T0)); /* reading is fine */
    emit(&p, SW(T1, 4, T0));
    emit(&p, SG_EXIT);
    assert_int_equal(machine_run(m, &p, 4, 0), SG_EFAULT);
    assert_int_equal(m->fault.kind, SG_FAULT_READ_ONLY);
    assert_int_equal(m->fault.addr, (code ? CODE_BASE : RO_BASE) + 4);
    assert_int_equal(m->fault.pc, CODE_BASE + 8);
    assert_int_equal(m->fault.lane, 0);
    machine_free(m);
  }
}

/* Each lane stores just below its own stack slot: into its neighbour's
 * stack (lane 0: below all stacks). Reported, dropped, nothing changes. */
static void test_stack_overflow(void **state) {
  (void)state;
  struct machine *m = machine_new(4, 4);
  struct prog p;
  prog_init(&p);
  emit(&p, LI(T1, -1));
  emit(&p, SW(T1, -STACK_SIZE - 4, SP)); /* sp is the top of the lane's slot */
  emit(&p, SG_EXIT);
  assert_int_equal(machine_run(m, &p, 4, 0), SG_OK);
  for (size_t i = 0; i < sizeof m->stack; i++)
    assert_int_equal(m->stack[i], 0);
  const struct sg_finding_site *f = only_site(m);
  assert_int_equal(f->first.kind, SG_FAULT_STACK_OVERFLOW);
  assert_int_equal(f->count, 4);
  assert_int_equal(f->first.thread, 0);
  assert_non_null(strstr(f->first.what, "below the private stacks"));
  machine_free(m);
}

/* Odd lanes wait at one barrier, even lanes at another: the warp has
 * arrived (reported as undefined), and both paths go on after it. */
static void test_barrier_split(void **state) {
  (void)state;
  struct machine *m = machine_new(8, 8);
  struct prog p;
  prog_init(&p);
  unsigned even = label(&p), join = label(&p);
  prologue(&p);
  emit(&p, ANDI(T0, S0, 1));
  br(&p, F_BEQ, T0, ZERO, even, (int)join);
  emit(&p, SG_BARRIER(ZERO)); /* word 5 */
  emit(&p, LI(T1, 100));
  jmp(&p, ZERO, join);
  bind(&p, even);
  emit(&p, SG_BARRIER(ZERO)); /* word 8 */
  emit(&p, LI(T1, 200));
  bind(&p, join);
  emit(&p, ADD(T1, T1, S0));
  emit(&p, SW(T1, 0, S1));
  emit(&p, SG_EXIT);
  assert_int_equal(machine_run(m, &p, 8, 0), SG_OK);
  for (unsigned t = 0; t < 8; t++)
    assert_int_equal(data32(m, t), t + (t & 1 ? 100 : 200));
  assert_int_equal(m->stats.barriers, 1);
  assert_int_equal(only_site(m)->first.kind, SG_FAULT_BARRIER_SPLIT);
  machine_free(m);
}

/* Warp 0 waits at one barrier, warp 1 at another: released together (as
 * hardware counting arrivals does) and reported. */
static void test_barrier_mismatch(void **state) {
  (void)state;
  struct machine *m = machine_new(8, 4);
  struct prog p;
  prog_init(&p);
  unsigned second = label(&p), join = label(&p);
  prologue(&p);
  emit(&p, CSRR(T0, SG_CSR_WARP));
  br(&p, F_BNE, T0, ZERO, second, (int)join);
  emit(&p, SG_BARRIER(ZERO)); /* word 5 */
  jmp(&p, ZERO, join);
  bind(&p, second);
  emit(&p, SG_BARRIER(ZERO)); /* word 7 */
  bind(&p, join);
  emit(&p, SW(S0, 0, S1));
  emit(&p, SG_EXIT);
  assert_int_equal(machine_run(m, &p, 4, 0), SG_OK);
  for (unsigned t = 0; t < 8; t++)
    assert_int_equal(data32(m, t), t);
  const struct sg_finding_site *f = only_site(m);
  assert_int_equal(f->first.kind, SG_FAULT_BARRIER_MISMATCH);
  assert_int_equal(f->first.pc, CODE_BASE + 5 * 4);
  assert_non_null(strstr(f->first.what, "warp 1"));
  machine_free(m);
}

/* unimp (what __builtin_trap compiles to) ends the CTA, strict or not. */
static void test_trap(void **state) {
  (void)state;
  struct machine *m = machine_new(4, 4);
  struct prog p;
  prog_init(&p);
  emit(&p, 0xc0001073u);
  emit(&p, SG_EXIT);
  assert_int_equal(machine_run(m, &p, 4, 0), SG_EFAULT);
  assert_int_equal(m->fault.kind, SG_FAULT_TRAP);
  assert_non_null(strstr(m->fault.what, "__builtin_trap"));
  machine_free(m);
}

static void test_misaligned_amo(void **state) {
  (void)state;
  struct machine *m = machine_new(4, 4);
  struct prog p;
  prog_init(&p);
  emit(&p, ADDI(T0, A0, 2));
  emit(&p, AMOADD_W(ZERO, S0, T0));
  emit(&p, SG_EXIT);
  assert_int_equal(machine_run(m, &p, 4, 0), SG_EFAULT);
  assert_int_equal(m->fault.kind, SG_FAULT_MISALIGNED);
  assert_int_equal(m->fault.addr, DATA_BASE + 2);
  assert_int_equal(m->fault.pc, CODE_BASE + 4);
  machine_free(m);
}

static void test_watchdog(void **state) {
  (void)state;
  struct machine *m = machine_new(64, 32);
  struct prog p;
  prog_init(&p);
  unsigned loop = label(&p);
  bind(&p, loop);
  jmp(&p, ZERO, loop);
  assert_int_equal(machine_run(m, &p, 32, 100000), SG_EFAULT);
  assert_int_equal(m->fault.kind, SG_FAULT_WATCHDOG);
  assert_int_equal(m->fault.pc, CODE_BASE);
  assert_int_equal(m->stats.warp_insns, 100000);
  machine_free(m);
}

static void test_illegal_and_fetch(void **state) {
  (void)state;
  static const uint32_t bad[] = {
      0x00000073,                      /* ecall */
      0,                               /* undecodable */
      0xcc451073,                      /* csrw sg.tid.x, a0 */
      0xc0051073,                      /* csrw cycle, a0 */
      0x7c002573,                      /* csrr of an unknown CSR */
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    struct machine *m = machine_new(4, 4);
    struct prog p;
    prog_init(&p);
    emit(&p, LI(A1, 1));
    emit(&p, bad[i]);
    emit(&p, SG_EXIT);
    assert_int_equal(machine_run(m, &p, 4, 0), SG_EFAULT);
    assert_int_equal(m->fault.kind, SG_FAULT_ILLEGAL_INSN);
    assert_int_equal(m->fault.pc, CODE_BASE + 4);
    machine_free(m);
  }
  struct machine *m = machine_new(4, 4);
  struct prog p;
  prog_init(&p);
  emit(&p, JALR(ZERO, ZERO, 0x40)); /* to 0x40: not code */
  assert_int_equal(machine_run(m, &p, 4, 0), SG_EFAULT);
  assert_int_equal(m->fault.kind, SG_FAULT_FETCH);
  assert_int_equal(m->fault.pc, 0x40);
  machine_free(m);
}

/* jalr whose target depends on the lane */
static void test_divergent_jump(void **state) {
  (void)state;
  struct machine *m = machine_new(4, 4);
  struct prog p;
  prog_init(&p);
  emit(&p, CSRR(S0, SG_CSR_LANE));
  emit(&p, SLLI(T0, S0, 2));
  emit(&p, LUI(T1, (int32_t)CODE_BASE));
  emit(&p, ADD(T1, T1, T0));
  emit(&p, JALR(ZERO, T1, 20));
  emit(&p, SG_EXIT);
  emit(&p, SG_EXIT);
  emit(&p, SG_EXIT);
  emit(&p, SG_EXIT);
  assert_int_equal(machine_run(m, &p, 4, 0), SG_EFAULT);
  assert_int_equal(m->fault.kind, SG_FAULT_DIVERGENT_JUMP);
  assert_int_equal(m->fault.pc, CODE_BASE + 16);
  assert_int_equal(m->fault.lane, 1);
  machine_free(m);
}

/* amoadd.w (a0), t + 1 from every thread of a 1024-thread CTA */
static void build_amo(struct prog *p) {
  prog_init(p);
  emit(p, CSRR(S0, SG_CSR_TIDLIN));
  emit(p, ADDI(T1, S0, 1));
  emit(p, AMOADD_W(T2, T1, A0));
  emit(p, SG_EXIT);
}

static void test_amo_sum(void **state) {
  (void)state;
  struct machine *m = machine_new(1024, 32);
  struct prog p;
  build_amo(&p);
  assert_int_equal(machine_run(m, &p, 32, 0), SG_OK);
  assert_int_equal(data32(m, 0), 1024 * 1025 / 2);
  machine_free(m);
}

static void *run_thread(void *arg) {
  struct machine *m = arg;
  struct prog p;
  for (int i = 0; i < 20; i++) {
    build_amo(&p);
    if (machine_run(m, &p, 8, 0) != SG_OK)
      return m;
  }
  return NULL;
}

/* Every AMO, .w and .d, by the lanes of a warp (all of them, or the odd
 * ones) on one word, rd the operand's register or another: each lane gets
 * what the word held after the lanes before it, and the word ends as after
 * the last, as this sequential reference has it. */
enum { AMO_SRC = 256, AMO_OUT = 512, AMO_WORD = 1024 };
static uint64_t amo_reference(unsigned f5, bool word, uint64_t m, uint64_t s) {
  int64_t ms = word ? (int32_t)m : (int64_t)m, ss = word ? (int32_t)s : (int64_t)s;
  uint64_t mu = word ? (uint32_t)m : m, su = word ? (uint32_t)s : s, r;
  switch (f5) {
  case 0x01: r = s; break;
  case 0x00: r = m + s; break;
  case 0x04: r = m ^ s; break;
  case 0x0c: r = m & s; break;
  case 0x08: r = m | s; break;
  case 0x10: r = ss < ms ? s : m; break;
  case 0x14: r = ss > ms ? s : m; break;
  case 0x18: r = su < mu ? s : m; break;
  default: r = su > mu ? s : m; break;
  }
  return word ? (uint32_t)r : r;
}

static void test_amo_one_word(void **state) {
  (void)state;
  static const unsigned ops[] = {0x01, 0x00, 0x04, 0x0c, 0x08, 0x10, 0x14, 0x18, 0x1c};
  for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
    for (int word = 0; word < 2; word++)
      for (int odd = 0; odd < 2; odd++)
        for (int alias = 0; alias < 2; alias++) {
          struct machine *m = machine_new(32, 32);
          uint64_t init = 0x8000000180000003ull, src[32];
          for (unsigned l = 0; l < 32; l++) { /* both signs, both halves */
            src[l] = (l * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)(l & 3) << 62) ^ (l << 31);
            memcpy(m->data + AMO_SRC + 8 * l, &src[l], 8);
          }
          memcpy(m->data + AMO_WORD, &init, 8);
          unsigned rd = alias ? T1 : T3;
          struct prog p;
          prog_init(&p);
          emit(&p, CSRR(S0, SG_CSR_TIDLIN));
          emit(&p, SLLI(T0, S0, 3));
          emit(&p, ADD(S1, A0, T0));
          emit(&p, LD(T1, AMO_SRC, S1));
          emit(&p, ADDI(T2, A0, AMO_WORD));
          unsigned skip = label(&p);
          if (odd) { /* the even lanes skip it */
            emit(&p, ANDI(T0, S0, 1));
            br(&p, F_BEQ, T0, ZERO, skip, (int)skip);
          }
          emit(&p, enc_r(ops[o] << 2, T1, T2, word ? 2 : 3, rd, 0x2f));
          emit(&p, SD(rd, AMO_OUT, S1));
          bind(&p, skip);
          emit(&p, SG_EXIT);
          assert_int_equal(machine_run(m, &p, 32, 0), SG_OK);
          uint64_t held = word ? (uint32_t)init : init;
          for (unsigned l = odd; l < 32; l += 1 + odd) {
            uint64_t want = word ? (uint64_t)(int64_t)(int32_t)held : held, got;
            memcpy(&got, m->data + AMO_OUT + 8 * l, 8);
            if (got != want)
              fail_msg("op %#x%s, lane %u: rd 0x%llx, not 0x%llx", ops[o], word ? ".w" : ".d",
                       l, (unsigned long long)got, (unsigned long long)want);
            held = amo_reference(ops[o], word, held, src[l]);
          }
          uint64_t end, want_end = word ? (init & ~0xffffffffull) | held : held;
          memcpy(&end, m->data + AMO_WORD, 8);
          assert_int_equal(end, want_end);
          machine_free(m);
        }
}

/* CTAs on two host threads add into the same word: host atomics. */
static void test_amo_threads(void **state) {
  (void)state;
  struct machine *a = machine_new(1024, 8), *b = machine_new(1024, 8);
  b->regions[3].host = a->data;
  pthread_t ta, tb;
  void *ra, *rb;
  pthread_create(&ta, NULL, run_thread, a);
  pthread_create(&tb, NULL, run_thread, b);
  pthread_join(ta, &ra);
  pthread_join(tb, &rb);
  assert_null(ra);
  assert_null(rb);
  assert_int_equal(data32(a, 0), 2u * 20 * (1024 * 1025 / 2));
  free(a);
  free(b);
}

/* The SIMT CSRs of a 3-D CTA: tid x fastest, then y, then z. */
static void test_simt_csrs(void **state) {
  (void)state;
  struct machine *m = machine_new(24, 8);
  m->cta.ntid[0] = 4, m->cta.ntid[1] = 3, m->cta.ntid[2] = 2;
  m->cta.ctaid[1] = 7;
  struct prog p;
  prog_init(&p);
  prologue(&p);
  emit(&p, CSRR(T1, SG_CSR_TID_X));
  emit(&p, CSRR(T2, SG_CSR_TID_Y));
  emit(&p, SLLI(T2, T2, 4));
  emit(&p, ADD(T1, T1, T2));
  emit(&p, CSRR(T2, SG_CSR_TID_Z));
  emit(&p, SLLI(T2, T2, 8));
  emit(&p, ADD(T1, T1, T2));
  emit(&p, CSRR(T2, SG_CSR_CTAID_Y));
  emit(&p, SLLI(T2, T2, 12));
  emit(&p, ADD(T1, T1, T2));
  emit(&p, CSRR(T2, SG_CSR_WARP));
  emit(&p, SLLI(T2, T2, 16));
  emit(&p, ADD(T1, T1, T2));
  emit(&p, SW(T1, 0, S1));
  emit(&p, SG_EXIT);
  assert_int_equal(machine_run(m, &p, 8, 0), SG_OK);
  for (unsigned t = 0; t < 24; t++)
    assert_int_equal(data32(m, t), t % 4 | (t / 4 % 3) << 4 | (t / 12) << 8 | 7 << 12 | (t / 8) << 16);
  machine_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_barrier),         cmocka_unit_test(test_exit_then_barrier),
      cmocka_unit_test(test_barrier_then_exit),
      cmocka_unit_test(test_barrier_divergence), cmocka_unit_test(test_null_load),
      cmocka_unit_test(test_null_fault),          cmocka_unit_test(test_read_only),
      cmocka_unit_test(test_stack_overflow),      cmocka_unit_test(test_barrier_split),
      cmocka_unit_test(test_barrier_mismatch),    cmocka_unit_test(test_trap),
      cmocka_unit_test(test_past_end_fault),  cmocka_unit_test(test_read_only_fault),
      cmocka_unit_test(test_misaligned_amo),  cmocka_unit_test(test_watchdog),
      cmocka_unit_test(test_illegal_and_fetch), cmocka_unit_test(test_divergent_jump),
      cmocka_unit_test(test_amo_sum),         cmocka_unit_test(test_amo_threads),
      cmocka_unit_test(test_amo_one_word),
      cmocka_unit_test(test_simt_csrs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
