/* SPDX-License-Identifier: MIT */
/* Tests of sim/ execute (DESIGN.md section 4): integer semantics of RV64IM,
 * table-driven (op, inputs, expected result from the RISC-V spec), each run
 * on a full warp and on a partial one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sg_test_prog.h"

#define MIN64 0x8000000000000000ull
#define ALL 0xffffffffffffffffull
#define IMM(v) ((uint32_t)(v) << 20) /* I-type immediate bits */

struct alu_case {
  enum sg_op op;
  uint32_t imm_bits; /* for I-type ops */
  uint64_t a, b, want;
};

static const struct alu_case cases[] = {
    {SG_OP_ADD, 0, ALL, 2, 1},
    {SG_OP_SUB, 0, 0, 1, ALL},
    {SG_OP_SLL, 0, 1, 65, 2}, /* shift amount is rs2[5:0] */
    {SG_OP_SRL, 0, MIN64, 63, 1},
    {SG_OP_SRA, 0, MIN64, 63, ALL},
    {SG_OP_SLT, 0, ALL, 0, 1},
    {SG_OP_SLTU, 0, ALL, 0, 0},
    {SG_OP_XOR, 0, 0xff00, 0x0ff0, 0xf0f0},
    {SG_OP_OR, 0, 0xff00, 0x0ff0, 0xfff0},
    {SG_OP_AND, 0, 0xff00, 0x0ff0, 0x0f00},
    {SG_OP_ADDI, IMM(-1), 0, 0, ALL},
    {SG_OP_SLTI, IMM(-1), MIN64, 0, 1},
    {SG_OP_SLTIU, IMM(-1), 5, 0, 1}, /* the immediate is sign-extended, then unsigned */
    {SG_OP_XORI, IMM(-1), 0x1234, 0, ~0x1234ull},
    {SG_OP_SLLI, IMM(63), 1, 0, MIN64},
    {SG_OP_SRAI, IMM(0x400 | 4), MIN64, 0, 0xf800000000000000ull},
    {SG_OP_SRLI, IMM(4), MIN64, 0, 0x0800000000000000ull},
    /* W ops: 32-bit result, sign-extended */
    {SG_OP_ADDW, 0, 0x7fffffff, 1, 0xffffffff80000000ull},
    {SG_OP_SUBW, 0, 0x100000000ull, 1, ALL},
    {SG_OP_SLLW, 0, 1, 33, 2},  /* shift amount is rs2[4:0] */
    {SG_OP_SLLW, 0, 1, 31, 0xffffffff80000000ull},
    {SG_OP_SRLW, 0, 0xffffffff80000000ull, 0, 0xffffffff80000000ull},
    {SG_OP_SRLW, 0, 0x80000000, 32 + 4, 0x08000000},
    {SG_OP_SRAW, 0, 0x80000000, 4, 0xfffffffff8000000ull},
    {SG_OP_ADDIW, IMM(1), 0x7fffffff, 0, 0xffffffff80000000ull},
    {SG_OP_ADDIW, IMM(0), 0x123456789ull, 0, 0x23456789},
    {SG_OP_SLLIW, IMM(31), 3, 0, 0xffffffff80000000ull},
    {SG_OP_SRLIW, IMM(31), 0x80000000, 0, 1},
    {SG_OP_SRAIW, IMM(0x400 | 31), 0x80000000, 0, ALL},
    /* M */
    {SG_OP_MUL, 0, ALL, ALL, 1},
    {SG_OP_MULH, 0, ALL, ALL, 0},
    {SG_OP_MULH, 0, MIN64, MIN64, 0x4000000000000000ull},
    {SG_OP_MULHU, 0, ALL, ALL, ALL - 1},
    {SG_OP_MULHSU, 0, ALL, ALL, ALL},
    {SG_OP_MULW, 0, 0x10000, 0x8000, 0xffffffff80000000ull},
    {SG_OP_DIV, 0, 7, 0, ALL},            /* x / 0 = -1 */
    {SG_OP_DIV, 0, MIN64, ALL, MIN64},    /* overflow */
    {SG_OP_DIV, 0, (uint64_t)-7, 2, (uint64_t)-3}, /* rounds toward zero */
    {SG_OP_DIVU, 0, 7, 0, ALL},
    {SG_OP_REM, 0, 7, 0, 7},              /* x % 0 = x */
    {SG_OP_REM, 0, MIN64, ALL, 0},
    {SG_OP_REM, 0, (uint64_t)-7, 2, ALL}, /* sign of the dividend */
    {SG_OP_REMU, 0, 7, 0, 7},
    {SG_OP_DIVW, 0, 0x80000000, ALL, 0xffffffff80000000ull},
    {SG_OP_DIVW, 0, 5, 0x100000000ull, ALL}, /* divisor's low word is 0 */
    {SG_OP_DIVUW, 0, 5, 0, ALL},
    {SG_OP_DIVUW, 0, 0xfffffffe, 1, 0xfffffffffffffffeull},
    {SG_OP_REMW, 0, 0x80000000, ALL, 0},
    {SG_OP_REMW, 0, 0x180000000ull, 0, 0xffffffff80000000ull},
    {SG_OP_REMUW, 0, 0x80000000, 0, 0xffffffff80000000ull},
    {SG_OP_REMUW, 0, 7, 5, 2},
};

/* ld a1, 0(a0); ld a2, 8(a0); OP a6, a1, a2; sd a6, 16 + 8 * lane(a0) */
static void run_case(const struct alu_case *c, unsigned ws, unsigned nthreads) {
  struct machine *m = machine_new(nthreads, ws);
  struct prog p;
  prog_init(&p);
  emit(&p, LD(A1, 0, A0));
  emit(&p, LD(A2, 8, A0));
  bool r = sg_op_fmt(c->op) == SG_FMT_R;
  uint32_t w = sg_match[c->op] | A6 << 7 | A1 << 15 | (r ? (uint32_t)A2 << 20 : c->imm_bits);
  emit(&p, w);
  emit(&p, CSRR(T0, SG_CSR_LANE));
  emit(&p, SLLI(T0, T0, 3));
  emit(&p, ADD(T0, T0, A0));
  emit(&p, SD(A6, 16, T0));
  emit(&p, SG_EXIT);
  memcpy(m->data, &c->a, 8);
  memcpy(m->data + 8, &c->b, 8);
  assert_int_equal(machine_run(m, &p, ws, 0), SG_OK);
  for (unsigned l = 0; l < ws; l++) {
    uint64_t want = l < nthreads ? c->want : 0;
    if (data64(m, 2 + l) != want)
      fail_msg("%s(0x%llx, 0x%llx) lane %u: got 0x%llx, want 0x%llx", sg_op_name(c->op),
               (unsigned long long)c->a, (unsigned long long)c->b, l,
               (unsigned long long)data64(m, 2 + l), (unsigned long long)want);
  }
  machine_free(m);
}

static void test_alu_table(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    run_case(&cases[i], 8, 8); /* full mask: the vector path */
    run_case(&cases[i], 8, 5); /* partial mask: lanes 5..7 never run */
    run_case(&cases[i], 1, 1);
  }
}

/* x0 reads as zero even after being written. */
static void test_x0(void **state) {
  (void)state;
  struct machine *m = machine_new(4, 4);
  struct prog p;
  prog_init(&p);
  emit(&p, LI(ZERO, 5));
  emit(&p, ADD(A1, ZERO, ZERO));
  emit(&p, SD(A1, 0, A0));
  emit(&p, SG_EXIT);
  memset(m->data, 0xff, 8);
  assert_int_equal(machine_run(m, &p, 4, 0), SG_OK);
  assert_int_equal(data64(m, 0), 0);
  machine_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_alu_table),
      cmocka_unit_test(test_x0),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
