/* SPDX-License-Identifier: MIT */
/* Tests of sim/'s texture unit (sg_tex.c) at the instruction level: register
 * pairs in and out, the descriptor in device memory, and what the record
 * tells a consumer (unit, kind of access, every texel's address per lane,
 * nothing for border texels); a bad descriptor ends the CTA. The formats,
 * addressing and filtering are checked against a host reference through
 * OpenCL in tests/images. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <cmocka.h>

#include "sg_test_prog.h"

#define DESC 0x000    /* the descriptor, at a0 = DATA_BASE */
#define COORDS 0x100  /* per lane: xy, z (16 bytes) */
#define RESULTS 0x400 /* per lane: the result pair */
#define TEXELS 0x1000 /* a 4 x 3 CL_RGBA CL_FLOAT image, rows of 64 bytes */
#define ROW 64

/* Keeps the records of the texture instructions. */
#define MAXREC 16
static struct recorder {
  struct sg_hook hook;
  struct sg_insn_record rec[MAXREC];
  unsigned n;
} recorder;
static void on_insn(struct sg_hook *self, const struct sg_insn_record *r) {
  struct recorder *h = (struct recorder *)self;
  if (r->unit == SG_UNIT_TEX && h->n < MAXREC)
    h->rec[h->n++] = *r;
}

static void put64(struct machine *m, unsigned off, uint64_t v) {
  memcpy(m->data + off, &v, 8);
}
static uint64_t fpair(float x, float y) {
  uint32_t a, b;
  memcpy(&a, &x, 4), memcpy(&b, &y, 4);
  return a | (uint64_t)b << 32;
}

/* Texel (x, y) holds (x, y, x + y, 1). */
static void setup_image(struct machine *m, uint32_t format, uint32_t width) {
  struct sg_tex_desc d = {.base = DATA_BASE + TEXELS,
                          .row_pitch = ROW,
                          .slice_pitch = 3 * ROW,
                          .width = width,
                          .height = 3,
                          .depth = 1,
                          .layers = 1,
                          .geometry = SG_TEX_GEOM_2D,
                          .format = format};
  memcpy(m->data + DESC, &d, sizeof d);
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 4; x++) {
      float t[4] = {(float)x, (float)y, (float)(x + y), 1.0f};
      memcpy(m->data + TEXELS + y * ROW + x * 16, t, 16);
    }
}

static uint32_t tex(unsigned op, unsigned kind, unsigned rd, unsigned rs1, unsigned rs2,
                    unsigned rs3) {
  return enc_op(op, rd, rs1, rs2, rs3, 0) | kind << 25;
}

/* Each lane: its coordinate pair, the instruction, its result pair out. */
static void program(struct prog *p, uint32_t insn) {
  emit(p, CSRR(T0, SG_CSR_LANE));
  emit(p, SLLI(T1, T0, 4));
  emit(p, ADD(T1, T1, A0));
  emit(p, LD(A2, COORDS, T1));
  emit(p, LD(A3, COORDS + 8, T1));
  emit(p, insn);
  emit(p, SD(A6, RESULTS, T1));
  emit(p, SD(A7, RESULTS + 8, T1));
  emit(p, SG_EXIT);
}

static enum sg_status run(struct machine *m, struct prog *p) {
  recorder = (struct recorder){.hook = {on_insn, NULL}};
  struct sg_sim_config cfg = {.warp_size = 4, .reconv = m->reconv};
  struct sg_core *core;
  struct sg_code *code;
  prog_finish(p);
  m->regions[0] = (struct sg_region){
      CODE_BASE, 4 * p->n, (uint8_t *)p->w, SG_PERM_R | SG_PERM_X, "code", SG_SPACE_CONSTANT};
  if (sg_code_create(p->w, p->n, CODE_BASE, p->rc, p->nrc, &code) != SG_OK ||
      sg_core_create(&cfg, 0, &core) != SG_OK)
    abort();
  struct sg_hook *hooks[] = {&recorder.hook};
  sg_core_set_hooks(core, hooks, 1);
  enum sg_status s = sg_core_run_cta(core, code, &m->cta, &m->map, &m->findings, &m->fault);
  sg_core_destroy(core);
  sg_code_destroy(code);
  return s;
}

static float result(const struct machine *m, unsigned lane, unsigned c) {
  float f;
  memcpy(&f, m->data + RESULTS + 16 * lane + 4 * c, 4);
  return f;
}

/* Bilinear reads: the filtered value, and the four texels of each lane's
 * footprint in the record (none outside the image under CLAMP). */
static void test_bilinear_record(void **state) {
  (void)state;
  struct machine *m = machine_new(4, 4);
  setup_image(m, SG_TEX_TYPE_FLOAT | SG_TEX_ORDER_RGBA << 8, 4);
  /* Unnormalized: (1.75, 1.5) blends texels (1,1) (2,1) (1,0)... */
  static const float at[4][2] = {{1.75f, 1.5f}, {0.5f, 0.5f}, {3.25f, 2.75f}, {-2.0f, 1.0f}};
  for (int l = 0; l < 4; l++)
    put64(m, COORDS + 16 * l, fpair(at[l][0], at[l][1]));
  struct prog p;
  prog_init(&p);
  emit(&p, LI(A5, SG_TEX_ADDR_CLAMP | SG_TEX_LINEAR));
  program(&p, tex(SG_OP_TEX_SAMPLE, SG_TEX_KIND_FLOAT, A6, A0, A2, A5));
  assert_int_equal(run(m, &p), SG_OK);
  assert_int_equal(recorder.n, 1);
  const struct sg_insn_record *r = &recorder.rec[0];
  assert_int_equal(r->mem, SG_MEM_LOAD);
  assert_int_equal(r->size, 16);
  assert_int_equal(r->mask, 0xf);
  /* Lane 0: u - 0.5 = 1.25, v - 0.5 = 1.0: texels (1,1) (2,1) (1,2) (2,2)
   * with a = 0.25, b = 0: x = 1.25, y = 1. */
  assert_true(result(m, 0, 0) == 1.25f && result(m, 0, 1) == 1.0f && result(m, 0, 3) == 1.0f);
  assert_int_equal(r->texels[0], 2); /* b = 0: the second row has no weight */
  assert_int_equal(r->texel_addr[0][0], DATA_BASE + TEXELS + ROW + 16);
  assert_int_equal(r->texel_addr[0][1], DATA_BASE + TEXELS + ROW + 32);
  assert_int_equal(r->addr[0], DATA_BASE + TEXELS + ROW + 16);
  /* Lane 1: a texel center, one texel. */
  assert_int_equal(r->texels[1], 1);
  assert_true(result(m, 1, 0) == 0.0f && result(m, 1, 1) == 0.0f);
  /* Lane 2: (3.25, 2.75): texels (2,2) (3,2) (2,3) (3,3); y = 3 is the
   * border (0, 0, 0, 0) under CLAMP and costs no access. */
  assert_int_equal(r->texels[2], 2);
  assert_int_equal(r->texel_addr[2][0], DATA_BASE + TEXELS + 2 * ROW + 32);
  assert_int_equal(r->texel_addr[2][1], DATA_BASE + TEXELS + 2 * ROW + 48);
  assert_true(fabsf(result(m, 2, 3) - 0.75f) < 1e-6f); /* alpha: 3/4 of the texels inside */
  /* Lane 3: all outside: the border, nothing read. */
  assert_int_equal(r->texels[3], 0);
  assert_true(result(m, 3, 0) == 0.0f && result(m, 3, 3) == 0.0f);
  assert_int_equal(m->findings.count, 0);
  machine_free(m);
}

/* A store: one texel per lane, converted (float to unorm 8-bit), and its
 * address in the record; the data pair comes from the rd field. */
static void test_store(void **state) {
  (void)state;
  struct machine *m = machine_new(4, 4);
  setup_image(m, SG_TEX_TYPE_UNORM_INT8 | SG_TEX_ORDER_BGRA << 8, 4);
  for (int l = 0; l < 4; l++)
    put64(m, COORDS + 16 * l, (uint64_t)l | (uint64_t)(l % 3) << 32);
  struct prog p;
  prog_init(&p);
  /* a6:a7 = (1.0, 0.5, 0.0, -1.0) */
  emit(&p, LUI(A6, 0x3f800000));
  emit(&p, LUI(T2, 0x3f000000));
  emit(&p, SLLI(T2, T2, 32));
  emit(&p, ADD(A6, A6, T2));
  emit(&p, LI(A7, 0));
  emit(&p, LUI(T2, (int32_t)0xbf800000)); /* -1.0, sign-extended */
  emit(&p, SLLI(T2, T2, 32));
  emit(&p, ADD(A7, A7, T2));
  emit(&p, CSRR(T0, SG_CSR_LANE));
  emit(&p, SLLI(T1, T0, 4));
  emit(&p, ADD(T1, T1, A0));
  emit(&p, LD(A2, COORDS, T1));
  emit(&p, tex(SG_OP_TEX_STORE, SG_TEX_KIND_FLOAT, A6, A0, A2, 0));
  emit(&p, SG_EXIT);
  assert_int_equal(run(m, &p), SG_OK);
  const struct sg_insn_record *r = &recorder.rec[0];
  assert_int_equal(r->mem, SG_MEM_STORE);
  assert_int_equal(r->size, 4);
  for (int l = 0; l < 4; l++) {
    uint64_t a = DATA_BASE + TEXELS + (uint64_t)(l % 3) * ROW + 4 * (uint64_t)l;
    assert_int_equal(r->texels[l], 1);
    assert_int_equal(r->texel_addr[l][0], a);
    /* BGRA in memory: b = 0, g = 128 (0.5 * 255 = 127.5, to even), r = 255, a = 0 */
    const uint8_t *t = m->data + (a - DATA_BASE);
    assert_int_equal(t[0], 0);
    assert_int_equal(t[1], 128);
    assert_int_equal(t[2], 255);
    assert_int_equal(t[3], 0);
  }
  machine_free(m);
}

/* Every 8-bit value of the normalized types reads as the environment
 * spec's conversion gives it: UNORM c / 255, SNORM max(-1, c / 127), and
 * through every channel of an RGBA texel. */
static void test_norm8_values(void **state) {
  (void)state;
  static const struct {
    uint32_t type;
    bool snorm;
  } types[] = {{SG_TEX_TYPE_UNORM_INT8, false}, {SG_TEX_TYPE_SNORM_INT8, true}};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
    for (unsigned y = 0; y < 4; y++) { /* texels of 16 lanes x 4 rows x 4 channels: 256 */
      struct machine *m = machine_new(16, 4);
      struct sg_tex_desc d = {.base = DATA_BASE + TEXELS,
                              .row_pitch = ROW,
                              .slice_pitch = 4 * ROW,
                              .width = 16,
                              .height = 4,
                              .depth = 1,
                              .layers = 1,
                              .geometry = SG_TEX_GEOM_2D,
                              .format = types[k].type | SG_TEX_ORDER_RGBA << 8};
      memcpy(m->data + DESC, &d, sizeof d);
      for (unsigned v = 0; v < 256; v++)
        m->data[TEXELS + v] = (uint8_t)v; /* rows of 64 bytes: texel (x, y) at 64y + 4x */
      for (unsigned l = 0; l < 16; l++)
        put64(m, COORDS + 16 * l, l | (uint64_t)y << 32);
      struct prog p; /* as program(), by work-item: four warps of four */
      prog_init(&p);
      emit(&p, CSRR(T0, SG_CSR_TIDLIN));
      emit(&p, SLLI(T1, T0, 4));
      emit(&p, ADD(T1, T1, A0));
      emit(&p, LD(A2, COORDS, T1));
      emit(&p, tex(SG_OP_TEX_LOAD, SG_TEX_KIND_FLOAT, A6, A0, A2, 0));
      emit(&p, SD(A6, RESULTS, T1));
      emit(&p, SD(A7, RESULTS + 8, T1));
      emit(&p, SG_EXIT);
      assert_int_equal(run(m, &p), SG_OK);
      for (unsigned l = 0; l < 16; l++)
        for (unsigned c = 0; c < 4; c++) {
          unsigned v = 64 * y + 4 * l + c;
          float want = types[k].snorm ? fmaxf(-1.0f, (float)(int8_t)v / 127.0f) : (float)v / 255.0f;
          if (memcmp(&(float){result(m, l, c)}, &want, 4))
            fail_msg("type %u, byte %u: read %a, not %a", types[k].type, v, result(m, l, c), want);
        }
      machine_free(m);
    }
}

/* A sampler-less read outside the image: the border, a finding, no
 * access; and the result pair may be the coordinate pair. */
static void test_load_outside(void **state) {
  (void)state;
  struct machine *m = machine_new(4, 4);
  setup_image(m, SG_TEX_TYPE_FLOAT | SG_TEX_ORDER_RGBA << 8, 4);
  for (int l = 0; l < 4; l++)
    put64(m, COORDS + 16 * l, (uint64_t)(uint32_t)(l == 2 ? 4 : l) | (uint64_t)1 << 32);
  struct prog p;
  prog_init(&p);
  emit(&p, CSRR(T0, SG_CSR_LANE));
  emit(&p, SLLI(T1, T0, 4));
  emit(&p, ADD(T1, T1, A0));
  emit(&p, LD(A2, COORDS, T1));
  emit(&p, LD(A3, COORDS + 8, T1));
  emit(&p, tex(SG_OP_TEX_LOAD, SG_TEX_KIND_FLOAT, A2, A0, A2, 0)); /* into the coordinates */
  emit(&p, SD(A2, RESULTS, T1));
  emit(&p, SD(A3, RESULTS + 8, T1));
  emit(&p, SG_EXIT);
  assert_int_equal(run(m, &p), SG_OK);
  const struct sg_insn_record *r = &recorder.rec[0];
  assert_int_equal(r->texels[2], 0);
  assert_int_equal(r->texels[3], 1);
  assert_true(result(m, 3, 0) == 3.0f && result(m, 3, 1) == 1.0f && result(m, 3, 2) == 4.0f);
  assert_true(result(m, 2, 0) == 0.0f && result(m, 2, 3) == 0.0f); /* RGBA: border alpha 0 */
  const struct sg_finding_site *s = only_site(m);
  assert_int_equal(s->first.kind, SG_FAULT_IMAGE_BOUNDS);
  assert_int_equal(s->first.lane, 2);
  machine_free(m);
}

/* A descriptor that is no image ends the CTA (an illegal operand). */
static void test_bad_descriptor(void **state) {
  (void)state;
  struct machine *m = machine_new(4, 4);
  setup_image(m, 0xff | SG_TEX_ORDER_RGBA << 8, 4); /* no channel type 0xff */
  struct prog p;
  prog_init(&p);
  program(&p, tex(SG_OP_TEX_LOAD, SG_TEX_KIND_FLOAT, A6, A0, A2, 0));
  assert_int_equal(run(m, &p), SG_EFAULT);
  assert_int_equal(m->fault.kind, SG_FAULT_IMAGE_DESC);
  assert_non_null(strstr(m->fault.what, "not valid"));
  /* A descriptor address outside memory: the usual finding, zeros. */
  machine_free(m);
  m = machine_new(4, 4);
  prog_init(&p);
  emit(&p, LI(A4, 16));
  program(&p, tex(SG_OP_TEX_LOAD, SG_TEX_KIND_FLOAT, A6, A4, A2, 0));
  assert_int_equal(run(m, &p), SG_OK);
  assert_int_equal(only_site(m)->first.kind, SG_FAULT_UNMAPPED);
  assert_true(result(m, 0, 0) == 0.0f);
  machine_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bilinear_record), cmocka_unit_test(test_store),
      cmocka_unit_test(test_norm8_values),    cmocka_unit_test(test_load_outside),
      cmocka_unit_test(test_bad_descriptor),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
