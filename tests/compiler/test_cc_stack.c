/* SPDX-License-Identifier: MIT */
/* Private memory per kernel (compiler/sg_cc_reconv.c, sg_cc_stack_sizes) on
 * hand-assembled RV64 programs whose frames are derived by hand: prologues
 * after an early return, frame sizes built by lui/addiw/slli chains (2 GiB
 * and more), realignment, call and tail-call chains per kernel, and what
 * cannot be bounded (recursion, indirect calls, sp from memory or moving in
 * a loop, unbalanced returns). Then the same through sg_build on OpenCL C. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sg_cc_internal.h"

/* ---- A tiny assembler ------------------------------------------------------ */

enum { ZERO = 0, RA = 1, SP = 2, T0 = 5, S0 = 8, A0 = 10, A1 = 11, A5 = 15 };

static uint32_t i_type(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op)
{
  return (uint32_t)(imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
static uint32_t r_type(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t rd)
{
  return f7 << 25 | rs2 << 20 | rs1 << 15 | rd << 7 | 0x33;
}
#define ADDI(rd, rs1, imm) i_type(imm, rs1, 0, rd, 0x13)
#define ADDIW(rd, rs1, imm) i_type(imm, rs1, 0, rd, 0x1b)
#define ANDI(rd, rs1, imm) i_type(imm, rs1, 7, rd, 0x13)
#define SLLI(rd, rs1, sh) i_type(sh, rs1, 1, rd, 0x13)
#define LD(rd, rs1, imm) i_type(imm, rs1, 3, rd, 0x03)
#define JALR(rd, rs1, imm) i_type(imm, rs1, 0, rd, 0x67)
#define RET JALR(ZERO, RA, 0)
#define ADD(rd, a, b) r_type(0, b, a, rd)
#define SUB(rd, a, b) r_type(0x20, b, a, rd)
#define LUI(rd, hi20) ((uint32_t)(hi20) << 12 | (rd) << 7 | 0x37)
#define AUIPC(rd, hi20) ((uint32_t)(hi20) << 12 | (rd) << 7 | 0x17)
#define SD(rs2, rs1, imm) \
  ((uint32_t)((imm) >> 5 & 0x7f) << 25 | (rs2) << 20 | (rs1) << 15 | 3u << 12 | ((imm) & 31) << 7 | 0x23)
#define SG_EXIT 0x0200002bu

static uint32_t b_type(uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t off)
{
  uint32_t o = (uint32_t)off;
  return (o >> 12 & 1) << 31 | (o >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
         (o >> 1 & 0xf) << 8 | (o >> 11 & 1) << 7 | 0x63;
}
static uint32_t jal(uint32_t rd, int32_t off)
{
  uint32_t o = (uint32_t)off;
  return (o >> 20 & 1) << 31 | (o >> 1 & 0x3ff) << 21 | (o >> 11 & 1) << 20 | (o >> 12 & 0xff) << 12 |
         rd << 7 | 0x6f;
}

/* A program being assembled: code words and function symbols. */
struct prog {
  uint32_t w[512];
  uint32_t n;
  struct sg_cc_symbol sym[16];
  uint32_t nsym;
};

static void emit(struct prog *p, uint32_t w) { p->w[p->n++] = w; }
static uint64_t here(const struct prog *p) { return SG_ADDR_CODE + 4ull * p->n; }

static void begin(struct prog *p, const char *name)
{
  p->sym[p->nsym] = (struct sg_cc_symbol){.name = (char *)name, .addr = here(p), .is_func = true};
}
static void end(struct prog *p) { p->sym[p->nsym].size = here(p) - p->sym[p->nsym].addr, p->nsym++; }

/* auipc ra + jalr ra, as the linker leaves calls. */
static void call(struct prog *p, uint64_t target)
{
  int64_t off = (int64_t)(target - here(p));
  int64_t hi = (off + 0x800) >> 12;
  emit(p, AUIPC(RA, (uint32_t)hi & 0xfffff));
  emit(p, JALR(RA, RA, (int32_t)(off - (hi << 12))));
}

static uint64_t fn(const struct prog *p, const char *name)
{
  for (uint32_t i = 0; i < p->nsym; i++)
    if (!strcmp(p->sym[i].name, name))
      return p->sym[i].addr;
  fail_msg("no function %s", name);
  return 0;
}

/* Runs the analysis for kernels named after their entry functions. */
static enum sg_status analyse_limit(struct prog *p, const char **names, uint32_t nk,
                                    uint64_t limit, struct sg_kernel_info *k, char **log)
{
  struct sg_linked l = {.ro = (uint8_t *)p->w, .ro_size = 4ull * p->n, .text_size = 4ull * p->n,
                        .num_symbols = p->nsym, .symbols = p->sym};
  struct sg_text text = {0};
  for (uint32_t i = 0; i < nk; i++)
    k[i] = (struct sg_kernel_info){.name = (char *)names[i], .entry_pc = fn(p, names[i])};
  enum sg_status st = sg_cc_stack_sizes(&l, k, nk, limit, &text);
  *log = sg_text_take(&text);
  return st;
}

static enum sg_status analyse(struct prog *p, const char **names, uint32_t nk,
                              struct sg_kernel_info *k, char **log)
{
  return analyse_limit(p, names, nk, UINT64_MAX, k, log);
}

static uint64_t one(struct prog *p, const char *name, uint32_t *uses)
{
  struct sg_kernel_info k;
  char *log;
  assert_int_equal(analyse(p, &name, 1, &k, &log), SG_OK);
  if (uses)
    *uses = k.uses;
  else
    assert_string_equal(log, "");
  free(log);
  return k.private_size;
}

/* ---- Frames -------------------------------------------------------------- */

/* Finding 6: LLVM moves a 20 KB prologue past an early return. The frame is
 * 0x5000 - 0x1d0 = 20016 bytes (lui 5, addiw -464), in a callee reached at
 * depth 16. */
static void test_shrink_wrapped(void **state)
{
  (void)state;
  struct prog p = {0};
  begin(&p, "helper");
  emit(&p, b_type(4, A1, ZERO, 11 * 4)); /* bltz a1, early */
  emit(&p, LUI(A1, 5));
  emit(&p, ADDIW(A1, A1, -464));
  emit(&p, SUB(SP, SP, A1));
  emit(&p, ADDI(A0, SP, 16));
  emit(&p, ADDI(A0, A0, 4));
  emit(&p, b_type(1, A0, A1, -4));       /* bne a0, a1: a loop over the array */
  emit(&p, LUI(A1, 5));
  emit(&p, ADDIW(A1, A1, -464));
  emit(&p, ADD(SP, SP, A1));
  emit(&p, RET);
  emit(&p, ADDI(A0, ZERO, 0));           /* early: */
  emit(&p, RET);
  end(&p);
  begin(&p, "k");
  emit(&p, ADDI(SP, SP, -16));
  emit(&p, SD(RA, SP, 8));
  call(&p, fn(&p, "helper"));
  emit(&p, ADDI(SP, SP, 16));
  emit(&p, SG_EXIT);
  end(&p);
  assert_int_equal(one(&p, "k", NULL), 16 + 20016);
}

/* Finding 6: frames of 2 GiB and more were counted as 16 bytes. */
static void test_huge_frames(void **state)
{
  (void)state;
  struct prog p = {0};
  begin(&p, "two_gib"); /* li a0, 2^31 + 16: addi 1; slli 31; addi 16 */
  emit(&p, ADDI(A0, ZERO, 1));
  emit(&p, SLLI(A0, A0, 31));
  emit(&p, ADDI(A0, A0, 16));
  emit(&p, SUB(SP, SP, A0));
  emit(&p, SG_EXIT);
  end(&p);
  begin(&p, "three_gib"); /* what LLVM emits for char a[3u << 30] */
  emit(&p, ADDI(A1, ZERO, 3));
  emit(&p, SLLI(A1, A1, 30));
  emit(&p, ADDI(A1, A1, 16));
  emit(&p, SUB(SP, SP, A1));
  emit(&p, SG_EXIT);
  end(&p);
  begin(&p, "wide"); /* lui 0x12345; addiw 0x678; slli 4: 0x123456780, above 4 GiB */
  emit(&p, LUI(T0, 0x12345));
  emit(&p, ADDIW(T0, T0, 0x678));
  emit(&p, SLLI(T0, T0, 4));
  emit(&p, SUB(SP, SP, T0));
  emit(&p, SG_EXIT);
  end(&p);
  begin(&p, "negative"); /* add sp, sp, -0x80000000 (lui 0x80000 sign-extends) */
  emit(&p, LUI(T0, 0x80000));
  emit(&p, ADD(SP, SP, T0));
  emit(&p, SG_EXIT);
  end(&p);
  assert_int_equal(one(&p, "two_gib", NULL), (1ull << 31) + 16);
  assert_int_equal(one(&p, "three_gib", NULL), (3ull << 30) + 16);
  assert_int_equal(one(&p, "wide", NULL), 0x123456780ull);
  assert_int_equal(one(&p, "negative", NULL), 0x80000000ull);
}

/* A frame over-aligned to 256 bytes: 64 bytes, then andi may drop up to
 * 256 - 16 more (sp is 16-byte aligned); the epilogue restores through s0. */
static void test_realigned(void **state)
{
  (void)state;
  struct prog p = {0};
  begin(&p, "leaf");
  emit(&p, ADDI(SP, SP, -32));
  emit(&p, ADDI(SP, SP, 32));
  emit(&p, RET);
  end(&p);
  begin(&p, "k");
  emit(&p, ADDI(SP, SP, -64));
  emit(&p, ADDI(S0, SP, 64));
  emit(&p, ANDI(SP, SP, -256));
  call(&p, fn(&p, "leaf"));
  emit(&p, ADDI(SP, S0, -64));
  emit(&p, ADDI(SP, SP, 64));
  emit(&p, SG_EXIT);
  end(&p);
  assert_int_equal(one(&p, "k", NULL), 64 + 240 + 32);
}

/* ---- Call graphs ----------------------------------------------------------- */

/* Finding 5: each kernel counts its own call chains, not every function of
 * the program. k1 calls g at depth 32; k2 calls g at depth 1040 and h (a
 * tail call, after its frame is gone); k3 calls nothing. */
static void test_per_kernel(void **state)
{
  (void)state;
  struct prog p = {0};
  begin(&p, "g");
  emit(&p, ADDI(SP, SP, -1600));
  emit(&p, ADDI(SP, SP, 1600));
  emit(&p, RET);
  end(&p);
  begin(&p, "h");
  emit(&p, LUI(T0, 3)); /* 12288 */
  emit(&p, SUB(SP, SP, T0));
  emit(&p, ADD(SP, SP, T0));
  emit(&p, RET);
  end(&p);
  begin(&p, "k1");
  emit(&p, ADDI(SP, SP, -32));
  call(&p, fn(&p, "g"));
  emit(&p, ADDI(SP, SP, 32));
  emit(&p, SG_EXIT);
  end(&p);
  begin(&p, "k2");
  emit(&p, ADDI(SP, SP, -1040));
  call(&p, fn(&p, "g"));
  emit(&p, ADDI(SP, SP, 1040));
  emit(&p, jal(ZERO, (int32_t)(fn(&p, "h") - here(&p)))); /* tail call */
  end(&p);
  begin(&p, "k3");
  emit(&p, ADDI(SP, SP, -48));
  emit(&p, SG_EXIT);
  end(&p);
  const char *names[] = {"k1", "k2", "k3"};
  struct sg_kernel_info k[3];
  char *log;
  assert_int_equal(analyse(&p, names, 3, k, &log), SG_OK);
  assert_string_equal(log, "");
  free(log);
  assert_int_equal(k[0].private_size, 32 + 1600);
  assert_int_equal(k[1].private_size, 12288); /* deeper than 1040 + 1600 */
  assert_int_equal(k[2].private_size, 48);
  for (int i = 0; i < 3; i++)
    assert_false(k[i].uses & SG_USES_UNBOUNDED_STACK);
  /* A chain deeper than the device's limit fails the build; the others
   * still get their sizes. */
  assert_int_equal(analyse_limit(&p, names, 3, 12287, k, &log), SG_EBUILD);
  assert_non_null(strstr(log, "error: kernel 'k2' needs 12288 bytes of private memory per "
                              "work-item (its deepest call chain); the device has 12287"));
  assert_null(strstr(log, "'k1'"));
  assert_int_equal(k[0].private_size, 32 + 1600);
  free(log);
}

/* Recursion and calls through a register are followed as far as they go,
 * flagged and explained in the log. */
static void test_unbounded(void **state)
{
  (void)state;
  struct prog p = {0};
  begin(&p, "rec");
  emit(&p, ADDI(SP, SP, -48));
  emit(&p, SD(RA, SP, 40));
  call(&p, SG_ADDR_CODE); /* itself */
  emit(&p, ADDI(SP, SP, 48));
  emit(&p, RET);
  end(&p);
  begin(&p, "k_rec");
  emit(&p, ADDI(SP, SP, -16));
  call(&p, fn(&p, "rec"));
  emit(&p, SG_EXIT);
  end(&p);
  begin(&p, "k_ind");
  emit(&p, ADDI(SP, SP, -16));
  emit(&p, LD(A5, A0, 0));
  emit(&p, JALR(RA, A5, 0));
  emit(&p, SG_EXIT);
  end(&p);
  begin(&p, "k_mid"); /* a call into the middle of a function */
  emit(&p, ADDI(SP, SP, -16));
  call(&p, fn(&p, "rec") + 4);
  emit(&p, SG_EXIT);
  end(&p);
  const char *names[] = {"k_rec", "k_ind", "k_mid"};
  struct sg_kernel_info k[3];
  char *log;
  assert_int_equal(analyse(&p, names, 3, k, &log), SG_OK);
  for (int i = 0; i < 3; i++)
    assert_true(k[i].uses & SG_USES_UNBOUNDED_STACK);
  assert_int_equal(k[0].private_size, 16 + 48); /* one level of the recursion */
  assert_int_equal(k[1].private_size, 16);
  assert_non_null(strstr(log, "warning: kernel 'k_rec': its private memory cannot be bounded "
                              "(recursion: 'rec' calls 'rec'"));
  assert_non_null(strstr(log, "kernel 'k_ind'"));
  assert_non_null(strstr(log, "an indirect call in 'k_ind'"));
  assert_non_null(strstr(log, "which is not the start of a function"));
  free(log);
}

/* What no bound can be given for is a build error naming the function, the
 * PC and the instruction; a function no kernel reaches does not matter. */
static void expect_error(struct prog *p, const char *kernel, const char *words)
{
  struct sg_kernel_info k;
  char *log;
  assert_int_equal(analyse(p, &kernel, 1, &k, &log), SG_EBUILD);
  if (!strstr(log, words))
    fail_msg("log \"%s\" lacks \"%s\"", log, words);
  free(log);
}

static void test_cannot_bound(void **state)
{
  (void)state;
  struct prog p = {0};
  begin(&p, "from_memory");
  emit(&p, LD(SP, A0, 0));
  emit(&p, SG_EXIT);
  end(&p);
  begin(&p, "loop"); /* sp -= 16 on every trip */
  emit(&p, ADDI(SP, SP, -16));
  emit(&p, b_type(1, A0, ZERO, -4));
  emit(&p, SG_EXIT);
  end(&p);
  begin(&p, "dynamic"); /* alloca(a0) */
  emit(&p, SUB(SP, SP, A0));
  emit(&p, SG_EXIT);
  end(&p);
  begin(&p, "leaks");
  emit(&p, ADDI(SP, SP, -16));
  emit(&p, RET);
  end(&p);
  begin(&p, "caller");
  call(&p, fn(&p, "leaks"));
  emit(&p, SG_EXIT);
  end(&p);
  begin(&p, "fine");
  emit(&p, ADDI(SP, SP, -32));
  emit(&p, SG_EXIT);
  end(&p);
  expect_error(&p, "from_memory", "function 'from_memory' sets the stack pointer to a value "
                                  "known only at run time (PC 0x10000: ld sp, 0(a0))");
  expect_error(&p, "loop", "the stack pointer of function 'loop' keeps moving in a loop");
  expect_error(&p, "dynamic", "function 'dynamic' sets the stack pointer to a value known only");
  expect_error(&p, "caller", "function 'leaks' returns with the stack pointer 16 bytes below");
  assert_int_equal(one(&p, "fine", NULL), 32);
}

/* ---- Through the compiler --------------------------------------------------- */

static struct sg_program_image *build(const char *src, struct sg_build_result *res)
{
  struct sg_build_request req = {.source = src};
  enum sg_status st = sg_build(&req, res);
  if (st != SG_OK)
    fail_msg("build failed: %s", res->log);
  struct sg_program_image *img = NULL;
  char err[256];
  assert_int_equal(sg_program_load(res->binary, res->binary_size, &img, err, sizeof err), SG_OK);
  return img;
}

/* A frame is the array plus a few saved registers and alignment. */
static void assert_frame(const struct sg_program_image *img, const char *name, uint64_t array)
{
  const struct sg_kernel_info *k = sg_program_find_kernel(img, name);
  assert_non_null(k);
  if (k->private_size < array || k->private_size > array + 256)
    fail_msg("kernel %s: private_size %llu for a %llu-byte array", name,
             (unsigned long long)k->private_size, (unsigned long long)array);
  assert_false(k->uses & SG_USES_UNBOUNDED_STACK);
}

/* Two kernels with 10 KB arrays, one with 1 KB, one with 20 KB in a helper
 * behind an early return, one with 200 MiB: each its own size, stored in
 * the binary exactly. */
static void test_build(void **state)
{
  (void)state;
  static const char src[] =
      "kernel void ten_a(global int *o, int n) {\n"
      "  volatile int a[2560]; for (int i = 0; i < 2560; i++) a[i] = i; o[0] = a[n]; }\n"
      "kernel void ten_b(global int *o, int n) {\n"
      "  volatile int b[2560]; for (int i = 0; i < 2560; i++) b[i] = -i; o[1] = b[n]; }\n"
      "kernel void one(global int *o, int n) {\n"
      "  volatile int c[256]; for (int i = 0; i < 256; i++) c[i] = i; o[2] = c[n]; }\n"
      "__attribute__((noinline)) int helper(global int *o, int n) {\n"
      "  int big[5000];\n"
      "  if (n < 0) return 0;\n"
      "  for (int i = 0; i < 5000; i++) big[i] = o[i] + n;\n"
      "  return big[n % 5000];\n"
      "}\n"
      "kernel void wrapped(global int *o, int n) { o[3] = helper(o, n); }\n"
      "kernel void huge(global char *o, long n) {\n"
      "  volatile char a[200ul << 20]; a[n] = 1; o[0] = a[n + 1]; }\n";
  struct sg_build_result res;
  struct sg_program_image *img = build(src, &res);
  assert_frame(img, "ten_a", 10240);
  assert_frame(img, "ten_b", 10240);
  assert_frame(img, "one", 1024);
  assert_frame(img, "wrapped", 20000);
  assert_frame(img, "huge", 200ull << 20);
  sg_program_image_free(img);
  sg_build_result_free(&res);
}

/* A frame of 2 GiB or more is refused with the kernel named (the back end
 * cannot address it at -cl-opt-disable; no work-group could run it). */
static void test_build_too_big(void **state)
{
  (void)state;
  static const char src[] = "kernel void huge(global char *o, long n) {\n"
                            "  volatile char a[3ul << 30]; a[n] = 1; o[0] = a[n + 1]; }\n";
  struct sg_build_request req = {.source = src};
  struct sg_build_result res;
  assert_int_equal(sg_build(&req, &res), SG_EBUILD);
  if (!strstr(res.log, "kernel 'huge' needs 3221225472 bytes of private memory per work-item"))
    fail_msg("log: %s", res.log);
  sg_build_result_free(&res);
}

/* Recursion compiles (clang accepts it), with a warning in the build log. */
static void test_build_recursion(void **state)
{
  (void)state;
  static const char src[] = "int depth(int n) { volatile int pad[16]; pad[n & 15] = n;\n"
                            "  return n <= 0 ? pad[0] : depth(n - 1) + pad[n & 15]; }\n"
                            "kernel void rec(global int *o, int n) { o[0] = depth(n); }\n";
  struct sg_build_result res;
  struct sg_program_image *img = build(src, &res);
  assert_non_null(strstr(res.log, "warning: kernel 'rec': its private memory cannot be bounded "
                                  "(recursion: 'depth' calls 'depth'"));
  assert_true(img->kernels[0].uses & SG_USES_UNBOUNDED_STACK);
  assert_true(img->kernels[0].private_size >= 64);
  sg_program_image_free(img);
  sg_build_result_free(&res);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shrink_wrapped), cmocka_unit_test(test_huge_frames),
      cmocka_unit_test(test_realigned),      cmocka_unit_test(test_per_kernel),
      cmocka_unit_test(test_unbounded),      cmocka_unit_test(test_cannot_bound),
      cmocka_unit_test(test_build),          cmocka_unit_test(test_build_too_big),
      cmocka_unit_test(test_build_recursion),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
