/* SPDX-License-Identifier: MIT */
/* Tests of sim/ decode (DESIGN.md section 4): the instruction table has no
 * overlapping encodings, every MATCH decodes to its own op, words assembled
 * by llvm-mc decode to the right instruction, disassembly, illegal words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "sg_sim.h"

struct entry {
  const char *name;
  uint32_t match, mask;
};
static const struct entry table[] = {
#define SG_INSN(name, m, k, fmt, unit, mnem) {#name, m, k},
#include "sg_insn.def"
#undef SG_INSN
};
#define NTABLE (sizeof(table) / sizeof(table[0]))

/* Like Spike's check-opcode-overlap: two entries overlap when some word
 * matches both, i.e. they agree on every bit both masks fix. */
static void test_no_overlap(void **state) {
  (void)state;
  for (size_t i = 0; i < NTABLE; i++)
    for (size_t j = i + 1; j < NTABLE; j++) {
      uint32_t both = table[i].mask & table[j].mask;
      if (!((table[i].match ^ table[j].match) & both))
        fail_msg("%s and %s overlap", table[i].name, table[j].name);
    }
}

static void test_match_decodes_to_itself(void **state) {
  (void)state;
  for (size_t i = 0; i < NTABLE; i++) {
    struct sg_uop u;
    assert_int_equal(table[i].match & ~table[i].mask, 0);
    /* A texture instruction names register pairs, never x0: a2:a3. */
    uint32_t w = table[i].match;
    if (sg_op_unit((enum sg_op)i) == SG_UNIT_TEX)
      w |= 12u << 7 | 12u << 20;
    sg_decode(w, &u);
    assert_int_equal(u.op, (int)i);
    assert_int_equal(u.raw, w);
  }
}

/* Words from llvm-mc -triple=riscv64 -mattr=+m,+a,+f,+d (the SIMT ones from
 * `.insn r`), one or more per table entry, with llvm-objdump's mnemonic. */
static const struct {
  uint32_t word;
  const char *mnem;
} known[] = {
    {0x12345537, "lui"},
    {0x00001597, "auipc"},
    {0x008000ef, "jal"},
    {0x004500e7, "jalr"},
    {0x00b50863, "beq"},
    {0xfeb518e3, "bne"},
    {0x00b54863, "blt"},
    {0x00b55863, "bge"},
    {0x00b56863, "bltu"},
    {0x00b57863, "bgeu"},
    {0xfff58503, "lb"},
    {0x00259503, "lh"},
    {0x0045a503, "lw"},
    {0x0085b503, "ld"},
    {0x0015c503, "lbu"},
    {0x0025d503, "lhu"},
    {0x0045e503, "lwu"},
    {0xfea58fa3, "sb"},
    {0x00a59123, "sh"},
    {0x00a5a223, "sw"},
    {0xfea13c23, "sd"},
    {0xffb58513, "addi"},
    {0x0035a513, "slti"},
    {0x0035b513, "sltiu"},
    {0xfff5c513, "xori"},
    {0x0035e513, "ori"},
    {0x0035f513, "andi"},
    {0x03f59513, "slli"},
    {0x0215d513, "srli"},
    {0x4285d513, "srai"},
    {0x00a58533, "add"},
    {0x40c58533, "sub"},
    {0x00c59533, "sll"},
    {0x00c5a533, "slt"},
    {0x00c5b533, "sltu"},
    {0x00c5c533, "xor"},
    {0x00c5d533, "srl"},
    {0x40c5d533, "sra"},
    {0x00c5e533, "or"},
    {0x00c5f533, "and"},
    {0x0075851b, "addiw"},
    {0x01f5951b, "slliw"},
    {0x01f5d51b, "srliw"},
    {0x41f5d51b, "sraiw"},
    {0x00c5853b, "addw"},
    {0x40c5853b, "subw"},
    {0x00c5953b, "sllw"},
    {0x00c5d53b, "srlw"},
    {0x40c5d53b, "sraw"},
    {0x0330000f, "fence"},
    {0x0000100f, "fence.i"},
    {0x00000073, "ecall"},
    {0x00100073, "ebreak"},
    {0x00359573, "csrrw"},
    {0x0015a573, "csrrs"},
    {0x0025b573, "csrrc"},
    {0x0031d573, "csrrwi"},
    {0x0011e573, "csrrsi"},
    {0x0021f573, "csrrci"},
    {0xcc402573, "csrrs"},
    {0x02c58533, "mul"},
    {0x02c59533, "mulh"},
    {0x02c5a533, "mulhsu"},
    {0x02c5b533, "mulhu"},
    {0x02c5c533, "div"},
    {0x02c5d533, "divu"},
    {0x02c5e533, "rem"},
    {0x02c5f533, "remu"},
    {0x02c5853b, "mulw"},
    {0x02c5c53b, "divw"},
    {0x02c5d53b, "divuw"},
    {0x02c5e53b, "remw"},
    {0x02c5f53b, "remuw"},
    {0x1005a52f, "lr.w"},
    {0x18c5a52f, "sc.w"},
    {0x08c5a52f, "amoswap.w"},
    {0x06c5a52f, "amoadd.w"},
    {0x20c5a52f, "amoxor.w"},
    {0x60c5a52f, "amoand.w"},
    {0x40c5a52f, "amoor.w"},
    {0x80c5a52f, "amomin.w"},
    {0xa0c5a52f, "amomax.w"},
    {0xc0c5a52f, "amominu.w"},
    {0xe0c5a52f, "amomaxu.w"},
    {0x1405b52f, "lr.d"},
    {0x1ac5b52f, "sc.d"},
    {0x08c5b52f, "amoswap.d"},
    {0x00c5b52f, "amoadd.d"},
    {0x20c5b52f, "amoxor.d"},
    {0x60c5b52f, "amoand.d"},
    {0x40c5b52f, "amoor.d"},
    {0x80c5b52f, "amomin.d"},
    {0xa0c5b52f, "amomax.d"},
    {0xc0c5b52f, "amominu.d"},
    {0xe0c5b52f, "amomaxu.d"},
    {0x0085a507, "flw"},
    {0x00a5a427, "fsw"},
    {0x68c5f543, "fmadd.s"},
    {0x68c59547, "fmsub.s"},
    {0x68c5f54b, "fnmsub.s"},
    {0x68c5f54f, "fnmadd.s"},
    {0x00c5b553, "fadd.s"},
    {0x08c5f553, "fsub.s"},
    {0x10c5f553, "fmul.s"},
    {0x18c5f553, "fdiv.s"},
    {0x5805f553, "fsqrt.s"},
    {0x20c58553, "fsgnj.s"},
    {0x20c59553, "fsgnjn.s"},
    {0x20c5a553, "fsgnjx.s"},
    {0x28c58553, "fmin.s"},
    {0x28c59553, "fmax.s"},
    {0xc0059553, "fcvt.w.s"},
    {0xc015f553, "fcvt.wu.s"},
    {0xc025f553, "fcvt.l.s"},
    {0xc035f553, "fcvt.lu.s"},
    {0xd005f553, "fcvt.s.w"},
    {0xd015f553, "fcvt.s.wu"},
    {0xd025f553, "fcvt.s.l"},
    {0xd035f553, "fcvt.s.lu"},
    {0xa0c5a553, "feq.s"},
    {0xa0c59553, "flt.s"},
    {0xa0c58553, "fle.s"},
    {0xe0059553, "fclass.s"},
    {0xe0058553, "fmv.x.w"},
    {0xf0058553, "fmv.w.x"},
    {0x0085b507, "fld"},
    {0x00a5b427, "fsd"},
    {0x6ac5f543, "fmadd.d"},
    {0x6ac59547, "fmsub.d"},
    {0x6ac5f54b, "fnmsub.d"},
    {0x6ac5f54f, "fnmadd.d"},
    {0x02c5b553, "fadd.d"},
    {0x0ac5f553, "fsub.d"},
    {0x12c5f553, "fmul.d"},
    {0x1ac5f553, "fdiv.d"},
    {0x5a05f553, "fsqrt.d"},
    {0x22c58553, "fsgnj.d"},
    {0x22c59553, "fsgnjn.d"},
    {0x22c5a553, "fsgnjx.d"},
    {0x2ac58553, "fmin.d"},
    {0x2ac59553, "fmax.d"},
    {0xc2059553, "fcvt.w.d"},
    {0xc215f553, "fcvt.wu.d"},
    {0xc225f553, "fcvt.l.d"},
    {0xc235f553, "fcvt.lu.d"},
    {0xd2058553, "fcvt.d.w"},
    {0xd2158553, "fcvt.d.wu"},
    {0xd225f553, "fcvt.d.l"},
    {0xd235f553, "fcvt.d.lu"},
    {0xa2c5a553, "feq.d"},
    {0xa2c59553, "flt.d"},
    {0xa2c58553, "fle.d"},
    {0xe2059553, "fclass.d"},
    {0xe2058553, "fmv.x.d"},
    {0xf2058553, "fmv.d.x"},
    {0x4015f553, "fcvt.s.d"},
    {0x42058553, "fcvt.d.s"},
    {0x0005050b, "sg.sfu.s"},
    {0x40c5950b, "sg.sfu.d"},
    {0x0005002b, "sg.barrier"},
    {0x0200002b, "sg.exit"},
    {0x0405852b, "sg.vote.any"},
    {0x0605852b, "sg.vote.all"},
    {0x0805852b, "sg.ballot"},
    {0x0ac5852b, "sg.shfl"},
    {0x00b5102b, "sg.mark"},
    {0x78c7055b, "sg.tex.sample"},  /* .insn r4 0x5b, 0, 0, a0, a4, a2, a5 */
    {0x7ac7155b, "sg.tex.samplei"}, /* .insn r4 0x5b, 1, 1, a0, a4, a2, a5 */
    {0x04c7255b, "sg.tex.load"},    /* .insn r4 0x5b, 2, 2, a0, a4, a2, zero */
    {0x00c7355b, "sg.tex.store"},   /* .insn r4 0x5b, 3, 0, a0, a4, a2, zero */
};

static void test_known_words(void **state) {
  (void)state;
  bool seen[SG_OP_COUNT] = {0};
  for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
    struct sg_uop u;
    sg_decode(known[i].word, &u);
    if (strcmp(sg_op_name(u.op), known[i].mnem))
      fail_msg("0x%08x decodes to %s, not %s", known[i].word, sg_op_name(u.op), known[i].mnem);
    seen[u.op] = true;
  }
  for (size_t i = 0; i < NTABLE; i++)
    if (!seen[i])
      fail_msg("%s has no known word", table[i].name);
}

static void check_dis(uint32_t word, uint64_t pc, const char *want) {
  struct sg_uop u;
  char buf[96];
  sg_decode(word, &u);
  assert_string_equal(sg_disasm(&u, pc, buf, sizeof(buf)), want);
}

static void test_disasm(void **state) {
  (void)state;
  check_dis(0x00a58533, 0, "add a0, a1, a0");
  check_dis(0xffb50513, 0, "addi a0, a0, -5");
  check_dis(0xff853583, 0, "ld a1, -8(a0)");
  check_dis(0x00b53423, 0, "sd a1, 8(a0)");
  check_dis(0x00b50863, 0x1000, "beq a0, a1, 0x1010");
  check_dis(0xfeb518e3, 0x1000, "bne a0, a1, 0xff0");
  check_dis(0x12345537, 0, "lui a0, 0x12345");
  check_dis(0x000500e7, 0, "jalr ra, 0(a0)");
  check_dis(0xcc402573, 0, "csrr a0, sg.tid.x");
  check_dis(0xcd202573, 0, "csrr a0, sg.tidlin");
  check_dis(0x00302573, 0, "csrr a0, fcsr");
  check_dis(0x0005002b, 0, "sg.barrier a0");
  check_dis(0x0200002b, 0, "sg.exit");
  check_dis(0x0805852b, 0, "sg.ballot a0, a1");
  check_dis(0x0ac5852b, 0, "sg.shfl a0, a1, a2");
  check_dis(0x00b5102b, 0, "sg.mark work_group_reduce_add, a0, a1");
  check_dis(0x5800102b, 0, "sg.mark sub_group_barrier, zero, zero");
  check_dis(0x0005050b, 0, "sg.sin.s fa0, fa0");
  check_dis(0x40c5950b, 0, "sg.pow.d fa0, fa1, fa2");
  check_dis(0x00c5f553, 0, "fadd.s fa0, fa1, fa2");       /* dyn: no suffix */
  check_dis(0x00c5b553, 0, "fadd.s fa0, fa1, fa2, rup");
  check_dis(0x00000000, 0, "illegal 0x00000000");
  check_dis(0x78c7055b, 0, "sg.tex.sample.f a0, a4, a2, a5");
  check_dis(0x7ac7155b, 0, "sg.tex.samplei.i a0, a4, a2, a5");
  check_dis(0x04c7255b, 0, "sg.tex.load.u a0, a4, a2");
  check_dis(0x00c7355b, 0, "sg.tex.store.f a0, a4, a2");
  check_dis(0x00c5a52f, 0, "amoadd.w a0, a2, (a1)");
  check_dis(0x0ff0000f, 0, "fence iorw, iorw");
}

static void test_illegal(void **state) {
  (void)state;
  static const uint32_t bad[] = {
      0x00000000, 0xffffffff,
      0x0000007b,             /* custom-3 */
      0x3c00050b,             /* custom-0, SFU function 30: not in sg_sfu.def */
      0x0c00002b,             /* custom-1 funct7 6 */
      0xfe00102b,             /* sg.mark of an undefined kind (funct7 127) */
      0x0200112b,             /* sg.mark with rd != 0 */
      0x8200101b,             /* slliw with shamt[5] set */
      0x2200551b,             /* srliw with a bad funct7 */
      0x0600006b,             /* reserved major opcode */
      0x7ec7055b,             /* sg.tex.sample with funct2 (the kind) 3 */
      0x78c705db,             /* sg.tex.sample into a1: not a register pair */
      0x7807055b,             /* sg.tex.sample with coordinates in x0:x1 */
      0x78c7255b,             /* sg.tex.load with a sampler (rs3 must be x0) */
      0x00c7355b | 1u << 27,  /* sg.tex.store with rs3 not x0 */
  };
  struct sg_uop u;
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    sg_decode(bad[i], &u);
    if (u.op != SG_OP_ILLEGAL)
      fail_msg("0x%08x decodes to %s", bad[i], sg_op_name(u.op));
    assert_int_equal(sg_uop_flow(&u), SG_FLOW_EXIT);
  }
}

static void test_flow_and_imm(void **state) {
  (void)state;
  struct sg_uop u;
  sg_decode(0x008000ef, &u); /* jal ra, +8 */
  assert_int_equal(sg_uop_flow(&u), SG_FLOW_CALL);
  assert_int_equal(u.imm, 8);
  sg_decode(0xffdff06f, &u); /* j -4 */
  assert_int_equal(sg_uop_flow(&u), SG_FLOW_JUMP);
  assert_int_equal(u.imm, -4);
  sg_decode(0x00008067, &u); /* ret */
  assert_int_equal(sg_uop_flow(&u), SG_FLOW_RETURN);
  sg_decode(0x00028067, &u); /* jr t0: a return through the alternate link register */
  assert_int_equal(sg_uop_flow(&u), SG_FLOW_RETURN);
  sg_decode(0x000300e7, &u); /* jalr ra, 0(t1): a call (auipc + jalr) */
  assert_int_equal(sg_uop_flow(&u), SG_FLOW_CALL);
  sg_decode(0x000302e7, &u); /* jalr t0, 0(t1): a call with the alternate link register */
  assert_int_equal(sg_uop_flow(&u), SG_FLOW_CALL);
  sg_decode(0x00030067, &u); /* jr t1: a tail call or indirect jump */
  assert_int_equal(sg_uop_flow(&u), SG_FLOW_LEAVE);
  sg_decode(0x00408067, &u); /* jalr x0, 4(ra): not a plain return */
  assert_int_equal(sg_uop_flow(&u), SG_FLOW_LEAVE);
  sg_decode(0xfeb518e3, &u); /* bne -16 */
  assert_int_equal(sg_uop_flow(&u), SG_FLOW_BRANCH);
  assert_int_equal(u.imm, -16);
  sg_decode(0x0200002b, &u);
  assert_int_equal(sg_uop_flow(&u), SG_FLOW_EXIT);
  sg_decode(0x00a58533, &u);
  assert_int_equal(sg_uop_flow(&u), SG_FLOW_NEXT);
  sg_decode(0xfeb53c23, &u); /* sd a1, -8(a0) */
  assert_int_equal(u.imm, -8);
  assert_int_equal(sg_op_unit(u.op), SG_UNIT_LSU);
}

/* The extremes of every immediate format. Negative ones are sign-extended
 * without left-shifting a negative value (undefined behaviour, which the
 * sim_test_decode_ubsan build of this file turns into a failure). */
static void test_imm_extremes(void **state) {
  (void)state;
  static const struct {
    uint32_t word;
    int64_t imm;
  } cases[] = {
      {0x80000093, -2048},       /* addi ra, zero, -2048 (I) */
      {0x7ff00093, 2047},        /* addi ra, zero, 2047 */
      {0x80003023, -2048},       /* sd zero, -2048(zero) (S) */
      {0x7e003fa3, 2047},        /* sd zero, 2047(zero) */
      {0x80000063, -4096},       /* beq zero, zero, -4096 (B) */
      {0x7e000fe3, 4094},        /* beq zero, zero, +4094 */
      {0x8000006f, -1048576},    /* j -1048576 (J) */
      {0x7ffff06f, 1048574},     /* j +1048574 */
      {0x800000b7, -2147483648}, /* lui ra, 0x80000 (U) */
      {0x7ffff0b7, 0x7ffff000},  /* lui ra, 0x7ffff */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct sg_uop u;
    sg_decode(cases[i].word, &u);
    if (u.imm != cases[i].imm)
      fail_msg("0x%08x: imm %lld, want %lld", cases[i].word, (long long)u.imm,
               (long long)cases[i].imm);
  }
}

/* What each load, store and atomic accesses (sg_op_access): the kind and
 * width the RISC-V specification gives them, and nothing for the rest. */
static void test_access(void **state) {
  (void)state;
  static const struct {
    enum sg_op op;
    enum sg_mem_kind kind;
    uint32_t size;
  } known[] = {
      {SG_OP_LB, SG_MEM_LOAD, 1},       {SG_OP_LHU, SG_MEM_LOAD, 2},
      {SG_OP_LW, SG_MEM_LOAD, 4},       {SG_OP_LWU, SG_MEM_LOAD, 4},
      {SG_OP_LD, SG_MEM_LOAD, 8},       {SG_OP_FLW, SG_MEM_LOAD, 4},
      {SG_OP_FLD, SG_MEM_LOAD, 8},      {SG_OP_SB, SG_MEM_STORE, 1},
      {SG_OP_SH, SG_MEM_STORE, 2},      {SG_OP_SW, SG_MEM_STORE, 4},
      {SG_OP_SD, SG_MEM_STORE, 8},      {SG_OP_FSW, SG_MEM_STORE, 4},
      {SG_OP_FSD, SG_MEM_STORE, 8},     {SG_OP_LR_W, SG_MEM_ATOMIC, 4},
      {SG_OP_SC_D, SG_MEM_ATOMIC, 8},   {SG_OP_AMOADD_W, SG_MEM_ATOMIC, 4},
      {SG_OP_AMOMAXU_D, SG_MEM_ATOMIC, 8}, {SG_OP_ADD, SG_MEM_NONE, 0},
      {SG_OP_JALR, SG_MEM_NONE, 0},     {SG_OP_FENCE, SG_MEM_NONE, 0},
      {SG_OP_TEX_LOAD, SG_MEM_NONE, 0}, {SG_OP_ILLEGAL, SG_MEM_NONE, 0},
  };
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    uint32_t size = 99;
    assert_int_equal(sg_op_access(known[i].op, &size), known[i].kind);
    assert_int_equal(size, known[i].size);
  }
  /* Every LSU op but the fences has an access, every other op none. */
  for (int op = 0; op < SG_OP_COUNT; op++) {
    uint32_t size;
    bool access = sg_op_access((enum sg_op)op, &size) != SG_MEM_NONE;
    assert_int_equal(access, sg_op_unit((enum sg_op)op) == SG_UNIT_LSU && op != SG_OP_FENCE &&
                                 op != SG_OP_FENCE_I);
    assert_true(access ? size == 1 || size == 2 || size == 4 || size == 8 : size == 0);
  }
}

static void test_code_create(void **state) {
  (void)state;
  const uint32_t words[] = {0x00b50863, 0x00a58533, 0x00a58533, 0x0200002b};
  struct sg_reconv ok = {0x1000, 0x1008}, notbranch = {0x1004, 0x1008}, outside = {0x2000, 0x1008};
  struct sg_code *c;
  struct sg_uop u;
  assert_int_equal(sg_code_create(words, 4, 0x1000, &ok, 1, &c), SG_OK);
  assert_true(sg_code_uop(c, 0x1004, &u));
  assert_int_equal(u.op, SG_OP_ADD);
  assert_false(sg_code_uop(c, 0x1010, &u));
  assert_int_equal(sg_code_reconv(c, 0x1000), 0x1008);
  assert_int_equal(sg_code_reconv(c, 0x1004), SG_RECONV_EXIT);
  sg_code_destroy(c);
  /* Paths that would rejoin only at sg.exit do not wait for each other. */
  struct sg_reconv at_exit = {0x1000, 0x100c};
  assert_int_equal(sg_code_create(words, 4, 0x1000, &at_exit, 1, &c), SG_OK);
  assert_int_equal(sg_code_reconv(c, 0x1000), SG_RECONV_EXIT);
  sg_code_destroy(c);
  assert_int_equal(sg_code_create(words, 4, 0x1000, &notbranch, 1, &c), SG_EBINARY);
  assert_int_equal(sg_code_create(words, 4, 0x1000, &outside, 1, &c), SG_EBINARY);
  assert_null(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_no_overlap),    cmocka_unit_test(test_match_decodes_to_itself),
      cmocka_unit_test(test_known_words),   cmocka_unit_test(test_disasm),
      cmocka_unit_test(test_illegal),       cmocka_unit_test(test_flow_and_imm),
      cmocka_unit_test(test_imm_extremes),
      cmocka_unit_test(test_code_create),   cmocka_unit_test(test_access),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
