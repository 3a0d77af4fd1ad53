/* SPDX-License-Identifier: MIT */
/* Tests of sim/ execute (DESIGN.md section 4): F and D semantics against
 * values derived by hand from the RISC-V spec and IEEE 754: NaN boxing,
 * canonical NaN, fmin/fmax with NaNs and signed zeros, every rounding mode
 * (static and dynamic) on fadd and conversions, saturating fcvt, fclass,
 * flags and their accrual. Each case runs on the lane-by-lane path (fflags
 * read) and, where flags are not checked, on the fast path too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sg_test_prog.h"

#define S(bits) (0xffffffff00000000ull | (bits)) /* NaN-boxed single */
#define CANON_S S(0x7fc00000)
#define CANON_D 0x7ff8000000000000ull
#define ONE_S S(0x3f800000)
#define ONE_D 0x3ff0000000000000ull
enum { NX = 1, UF = 2, OF = 4, DZ = 8, NV = 16 };
enum { RNE, RTZ, RDN, RUP, RMM, DYN = 7 };

struct fp_case {
  enum sg_op op;
  unsigned rm;
  uint64_t a, b, c; /* a, b go to both x11/x12 and f11/f12; c to f14 */
  uint64_t want;    /* f16 or x16, whichever the op writes */
  unsigned flags;
};

struct fp_out {
  enum sg_status status;
  uint64_t f, x, flags;
};

/* ld/fld inputs; frm = data[5]; [fflags = data[9]]; OP f16/x16, f11, f12, f14;
 * store f16, x16 [, fflags] */
static struct fp_out run_fp(const struct fp_case *c, unsigned frm, unsigned init_flags, bool flags) {
  struct machine *m = machine_new(4, 4);
  struct prog p;
  uint64_t in[10] = {c->a, c->b, 0, c->c, 0, frm, 0, 0, 0, init_flags};
  memcpy(m->data, in, sizeof(in));
  prog_init(&p);
  emit(&p, LD(A1, 0, A0));
  emit(&p, LD(A2, 8, A0));
  emit(&p, FLD(11, 0, A0));
  emit(&p, FLD(12, 8, A0));
  emit(&p, FLD(14, 24, A0));
  emit(&p, LD(T1, 40, A0));
  emit(&p, CSRW(0x002, T1));
  if (flags) {
    emit(&p, LD(T1, 72, A0));
    emit(&p, CSRW(0x001, T1));
  }
  emit(&p, enc_op(c->op, 16, 11, 12, 14, c->rm));
  emit(&p, FSD(16, 48, A0));
  emit(&p, SD(A6, 56, A0));
  if (flags) {
    emit(&p, CSRR(T2, 0x001));
    emit(&p, SD(T2, 64, A0));
  }
  emit(&p, SG_EXIT);
  struct fp_out o = {machine_run(m, &p, 4, 0), data64(m, 6), data64(m, 7), data64(m, 8)};
  machine_free(m);
  return o;
}

static void check(const struct fp_case *c, unsigned frm) {
  bool xres = sg_op_writes_x(c->op);
  for (int fast = 0; fast < 2; fast++) {
    struct fp_out o = run_fp(c, frm, 0, !fast);
    uint64_t got = xres ? o.x : o.f;
    assert_int_equal(o.status, SG_OK);
    if (got != c->want)
      fail_msg("%s rm %u frm %u (a=0x%llx b=0x%llx)%s: got 0x%llx, want 0x%llx", sg_op_name(c->op),
               c->rm, frm, (unsigned long long)c->a, (unsigned long long)c->b,
               fast ? " fast path" : "", (unsigned long long)got, (unsigned long long)c->want);
    if (!fast && o.flags != c->flags)
      fail_msg("%s rm %u (a=0x%llx b=0x%llx): flags 0x%llx, want 0x%x", sg_op_name(c->op), c->rm,
               (unsigned long long)c->a, (unsigned long long)c->b, (unsigned long long)o.flags, c->flags);
  }
}

static void check_all(const struct fp_case *cases, size_t n) {
  for (size_t i = 0; i < n; i++)
    check(&cases[i], 0);
}

/* A tie: 1 + 2^-24 (single) and 1 + 2^-53 (double), both signs, under every
 * rounding mode, given statically and through frm. */
static void test_rounding_fadd(void **state) {
  (void)state;
  static const uint64_t up_s[5] = {ONE_S, ONE_S, ONE_S, S(0x3f800001), S(0x3f800001)};
  static const uint64_t dn_s[5] = {S(0xbf800000), S(0xbf800000), S(0xbf800001), S(0xbf800000), S(0xbf800001)};
  static const uint64_t up_d[5] = {ONE_D, ONE_D, ONE_D, ONE_D + 1, ONE_D + 1};
  for (unsigned rm = 0; rm < 5; rm++) {
    struct fp_case cs[] = {
        {SG_OP_FADD_S, rm, ONE_S, S(0x33800000), 0, up_s[rm], NX},
        {SG_OP_FADD_S, rm, S(0xbf800000), S(0xb3800000), 0, dn_s[rm], NX},
        {SG_OP_FADD_D, rm, ONE_D, 0x3ca0000000000000ull, 0, up_d[rm], NX},
        {SG_OP_FSUB_D, rm, ONE_D | 1ull << 63, 0x3ca0000000000000ull, 0,
         (up_d[rm == RDN ? RUP : rm == RUP ? RDN : rm]) | 1ull << 63, NX},
    };
    for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
      check(&cs[i], 0);
      struct fp_case dyn = cs[i];
      dyn.rm = DYN;
      check(&dyn, rm);
    }
  }
}

static void test_rounding_fcvt(void **state) {
  (void)state;
  static const uint64_t pos[5] = {2, 2, 2, 3, 3};
  static const int64_t neg[5] = {-2, -2, -3, -2, -3};
  for (unsigned rm = 0; rm < 5; rm++) {
    struct fp_case cs[] = {
        {SG_OP_FCVT_W_S, rm, S(0x40200000), 0, 0, pos[rm], NX},            /* 2.5 */
        {SG_OP_FCVT_L_D, rm, 0xc004000000000000ull, 0, 0, (uint64_t)neg[rm], NX}, /* -2.5 */
        {SG_OP_FCVT_S_W, rm, 16777217, 0, 0, rm == RUP || rm == RMM ? S(0x4b800001) : S(0x4b800000), NX}, /* a tie */
        {SG_OP_FCVT_D_L, rm, (1ull << 53) + 1, 0, 0,
         rm == RUP || rm == RMM ? 0x4340000000000001ull : 0x4340000000000000ull, NX}, /* a tie */
        {SG_OP_FCVT_S_LU, rm, ~0ull, 0, 0, rm == RTZ || rm == RDN ? S(0x5f7fffff) : S(0x5f800000), NX},
        {SG_OP_FCVT_S_D, rm, 0x3ff0000004000000ull, 0, 0, rm == RUP ? S(0x3f800001) : ONE_S, NX},
    };
    for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
      check(&cs[i], 0);
      struct fp_case dyn = cs[i];
      dyn.rm = DYN;
      check(&dyn, rm);
    }
  }
}

static void test_fcvt_saturation(void **state) {
  (void)state;
  static const struct fp_case cs[] = {
      {SG_OP_FCVT_W_S, RNE, S(0x4f32d05e), 0, 0, 0x7fffffff, NV},                 /* 3e9 */
      {SG_OP_FCVT_W_S, RNE, S(0xcf32d05e), 0, 0, 0xffffffff80000000ull, NV},      /* -3e9 */
      {SG_OP_FCVT_W_S, RNE, CANON_S, 0, 0, 0x7fffffff, NV},
      {SG_OP_FCVT_WU_S, RNE, S(0xbf800000), 0, 0, 0, NV},                         /* -1 */
      {SG_OP_FCVT_WU_S, RTZ, S(0xbf000000), 0, 0, 0, NX},                         /* -0.5 */
      {SG_OP_FCVT_WU_S, RNE, S(0x4f6e6b28), 0, 0, 0xffffffffee6b2800ull, 0},      /* 4e9, sign-extended */
      {SG_OP_FCVT_L_D, RNE, 0x43e158e460913d00ull, 0, 0, 0x7fffffffffffffffull, NV}, /* 1e19 */
      {SG_OP_FCVT_LU_D, RNE, 0x43e158e460913d00ull, 0, 0, 10000000000000000000ull, 0},
      {SG_OP_FCVT_LU_D, RNE, CANON_D, 0, 0, ~0ull, NV},
      {SG_OP_FCVT_LU_D, RNE, 0xfff0000000000000ull, 0, 0, 0, NV},                 /* -inf */
      {SG_OP_FCVT_L_S, RNE, S(0xff800000), 0, 0, 0x8000000000000000ull, NV},
      {SG_OP_FCVT_W_D, RNE, 0x41dfffffffc00000ull, 0, 0, 0x7fffffff, 0},          /* 2^31 - 1 */
  };
  check_all(cs, sizeof(cs) / sizeof(cs[0]));
}

static void test_nan(void **state) {
  (void)state;
  static const struct fp_case cs[] = {
      {SG_OP_FADD_S, RNE, S(0x7fc12345), ONE_S, 0, CANON_S, 0},  /* payload dropped */
      {SG_OP_FADD_S, RNE, 0x3f800000, ONE_S, 0, CANON_S, 0},     /* not boxed: a NaN */
      {SG_OP_FADD_S, RNE, S(0x7f800001), ONE_S, 0, CANON_S, NV}, /* signalling */
      {SG_OP_FADD_D, RNE, 0x7ff0000000000001ull, ONE_D, 0, CANON_D, NV},
      {SG_OP_FSQRT_S, RNE, S(0xbf800000), 0, 0, CANON_S, NV},
      {SG_OP_FDIV_S, RNE, ONE_S, S(0), 0, S(0x7f800000), DZ},
      {SG_OP_FDIV_D, RNE, 0, 0, 0, CANON_D, NV},
      {SG_OP_FMUL_S, RNE, S(0x7f7fffff), S(0x40000000), 0, S(0x7f800000), OF | NX},
      {SG_OP_FMUL_D, RNE, 0x0010000000000000ull, 0x3fe0000000000001ull, 0, 0x0008000000000000ull, UF | NX},
      {SG_OP_FSGNJN_S, RNE, 0x3f800000, 0x3f800000, 0, S(0xffc00000), 0}, /* canonical NaN, sign flipped */
      {SG_OP_FSGNJX_S, RNE, ONE_S, S(0x80000000), 0, S(0xbf800000), 0},
      {SG_OP_FSGNJ_D, RNE, ONE_D, 1ull << 63, 0, ONE_D | 1ull << 63, 0},
      {SG_OP_FMV_X_W, RNE, 0x3f800000, 0, 0, 0x3f800000, 0},            /* raw bits, boxed or not */
      {SG_OP_FMV_X_W, RNE, S(0xbf800000), 0, 0, 0xffffffffbf800000ull, 0},
      {SG_OP_FMV_W_X, RNE, 0x12345678bf800000ull, 0, 0, S(0xbf800000), 0},
      {SG_OP_FCVT_S_D, RNE, 0x7ff0000000000001ull, 0, 0, CANON_S, NV},
      {SG_OP_FCVT_D_S, RNE, S(0x7fc12345), 0, 0, CANON_D, 0},
      /* (1 + 2^-30)(1 - 2^-30) - 1 = -2^-60 when fused; 0 if the product were rounded */
      {SG_OP_FMADD_D, RNE, 0x3ff0000000400000ull, 0x3fefffffff800000ull, 0xbff0000000000000ull,
       0xbc30000000000000ull, 0},
      {SG_OP_FNMSUB_S, RNE, ONE_S, S(0x40000000), S(0x40400000), ONE_S, 0}, /* -(1*2)+3 */
      {SG_OP_FNMADD_D, RNE, ONE_D, ONE_D, ONE_D, 0xc000000000000000ull, 0}, /* -(1*1)-1 */
      {SG_OP_FMSUB_S, RNE, S(0x40000000), S(0x40000000), ONE_S, S(0x40400000), 0}, /* 2*2-1 */
  };
  check_all(cs, sizeof(cs) / sizeof(cs[0]));
}

static void test_minmax_compare(void **state) {
  (void)state;
  static const struct fp_case cs[] = {
      {SG_OP_FMIN_S, RNE, S(0x80000000), S(0), 0, S(0x80000000), 0}, /* -0 < +0 */
      {SG_OP_FMIN_S, RNE, S(0), S(0x80000000), 0, S(0x80000000), 0},
      {SG_OP_FMAX_S, RNE, S(0x80000000), S(0), 0, S(0), 0},
      {SG_OP_FMIN_D, RNE, 0, 1ull << 63, 0, 1ull << 63, 0},
      {SG_OP_FMAX_D, RNE, 1ull << 63, 0, 0, 0, 0},
      {SG_OP_FMIN_S, RNE, CANON_S, ONE_S, 0, ONE_S, 0},          /* a number beats a NaN */
      {SG_OP_FMAX_S, RNE, ONE_S, S(0x7f800001), 0, ONE_S, NV},   /* sNaN signals */
      {SG_OP_FMAX_S, RNE, S(0x7fc12345), CANON_S, 0, CANON_S, 0},
      {SG_OP_FMIN_D, RNE, 0x7ff0000000000001ull, 0x7ff8000000000001ull, 0, CANON_D, NV},
      {SG_OP_FMAX_D, RNE, ONE_D, 0x4000000000000000ull, 0, 0x4000000000000000ull, 0},
      {SG_OP_FEQ_S, RNE, CANON_S, ONE_S, 0, 0, 0},    /* quiet */
      {SG_OP_FEQ_S, RNE, S(0x7f800001), ONE_S, 0, 0, NV},
      {SG_OP_FLT_S, RNE, CANON_S, ONE_S, 0, 0, NV},   /* signalling */
      {SG_OP_FLE_S, RNE, ONE_S, ONE_S, 0, 1, 0},
      {SG_OP_FLE_D, RNE, 1ull << 63, 0, 0, 1, 0},     /* -0 <= +0 */
      {SG_OP_FLT_D, RNE, 1ull << 63, 0, 0, 0, 0},
      {SG_OP_FEQ_D, RNE, 1ull << 63, 0, 0, 1, 0},
      {SG_OP_FLT_D, RNE, ONE_D, 0x4000000000000000ull, 0, 1, 0},
  };
  check_all(cs, sizeof(cs) / sizeof(cs[0]));
}

static void test_fclass(void **state) {
  (void)state;
  static const uint32_t s[] = {0xff800000, 0xbf800000, 0x80000001, 0x80000000, 0,
                               1,          0x3f800000, 0x7f800000, 0x7f800001, 0x7fc00000};
  static const uint64_t d[] = {0xfff0000000000000ull, 0xbff0000000000000ull, 0x8000000000000001ull,
                               1ull << 63, 0, 1, ONE_D, 0x7ff0000000000000ull,
                               0x7ff0000000000001ull, CANON_D};
  for (unsigned k = 0; k < 10; k++) {
    struct fp_case cs = {SG_OP_FCLASS_S, 0, S(s[k]), 0, 0, 1u << k, 0};
    struct fp_case cd = {SG_OP_FCLASS_D, 0, d[k], 0, 0, 1u << k, 0};
    check(&cs, 0);
    check(&cd, 0);
  }
  struct fp_case unboxed = {SG_OP_FCLASS_S, 0, 0x3f800000, 0, 0, 1u << 9, 0};
  check(&unboxed, 0);
}

/* fflags accrue: an NV already set stays, the new NX joins it. */
static void test_fflags_accrue(void **state) {
  (void)state;
  struct fp_case c = {SG_OP_FDIV_S, RNE, ONE_S, S(0x40400000), 0, S(0x3eaaaaab), NX};
  struct fp_out o = run_fp(&c, 0, NV, true);
  assert_int_equal(o.status, SG_OK);
  assert_int_equal(o.f, c.want);
  assert_int_equal(o.flags, NV | NX);
}

/* Reserved static rounding modes and an invalid frm are illegal. */
static void test_bad_rounding_mode(void **state) {
  (void)state;
  struct fp_case c = {SG_OP_FADD_S, 5, ONE_S, ONE_S, 0, 0, 0};
  assert_int_equal(run_fp(&c, 0, 0, true).status, SG_EFAULT);
  c.rm = DYN;
  assert_int_equal(run_fp(&c, 6, 0, false).status, SG_EFAULT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rounding_fadd),   cmocka_unit_test(test_rounding_fcvt),
      cmocka_unit_test(test_fcvt_saturation), cmocka_unit_test(test_nan),
      cmocka_unit_test(test_minmax_compare),  cmocka_unit_test(test_fclass),
      cmocka_unit_test(test_fflags_accrue),   cmocka_unit_test(test_bad_rounding_mode),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
