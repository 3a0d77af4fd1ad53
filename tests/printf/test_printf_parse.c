/* SPDX-License-Identifier: MIT */
/* The printf format parser the compiler and the host formatter share
 * (docs/printf.md): each specification's fields, and the combinations
 * OpenCL C 1.2 6.12.13.2 rules out, checked against hand-derived values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "sg_compiler.h"

struct spec_case {
  const char *text; /* the specification, then text that must not be consumed */
  size_t len;
  const char *flags;
  int width, precision;
  uint32_t vec;
  enum sg_printf_len length;
  char conv;
};

#define N SG_PRINTF_NONE
#define S SG_PRINTF_STAR
static const struct spec_case valid[] = {
    {"%d|", 2, "", N, N, 0, SG_PRINTF_LEN_NONE, 'd'},
    {"%-+ #0x|", 7, "-+ #0", N, N, 0, SG_PRINTF_LEN_NONE, 'x'},
    {"%08.3f|", 6, "0", 8, 3, 0, SG_PRINTF_LEN_NONE, 'f'},
    {"%*.*d|", 5, "", S, S, 0, SG_PRINTF_LEN_NONE, 'd'},
    {"%.f|", 3, "", N, 0, 0, SG_PRINTF_LEN_NONE, 'f'},
    {"%hhu|", 4, "", N, N, 0, SG_PRINTF_LEN_HH, 'u'},
    {"%hX|", 3, "", N, N, 0, SG_PRINTF_LEN_H, 'X'},
    {"%lo|", 3, "", N, N, 0, SG_PRINTF_LEN_L, 'o'},
    {"%lf|", 3, "", N, N, 0, SG_PRINTF_LEN_L, 'f'},
    {"%v4hlf|", 6, "", N, N, 4, SG_PRINTF_LEN_HL, 'f'},
    {"%5.1v2hlf|", 9, "", 5, 1, 2, SG_PRINTF_LEN_HL, 'f'},
    {"%v16hhd|", 7, "", N, N, 16, SG_PRINTF_LEN_HH, 'd'},
    {"%#v8hx|", 6, "#", N, N, 8, SG_PRINTF_LEN_H, 'x'},
    {"%v3lA|", 5, "", N, N, 3, SG_PRINTF_LEN_L, 'A'},
    {"%v2hf|", 5, "", N, N, 2, SG_PRINTF_LEN_H, 'f'},
    {"%v4f|", 4, "", N, N, 4, SG_PRINTF_LEN_NONE, 'f'},
    {"%-10s|", 5, "-", 10, N, 0, SG_PRINTF_LEN_NONE, 's'},
    {"%.3s|", 4, "", N, 3, 0, SG_PRINTF_LEN_NONE, 's'},
    {"%c|", 2, "", N, N, 0, SG_PRINTF_LEN_NONE, 'c'},
    {"%p|", 2, "", N, N, 0, SG_PRINTF_LEN_NONE, 'p'},
    {"%%|", 2, "", N, N, 0, SG_PRINTF_LEN_NONE, '%'},
};

static void test_valid(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
    const struct spec_case *c = &valid[i];
    struct sg_printf_spec s;
    assert_int_equal(sg_printf_parse(c->text, &s), c->len);
    assert_string_equal(s.flags, c->flags);
    assert_int_equal(s.width, c->width);
    assert_int_equal(s.precision, c->precision);
    assert_int_equal(s.vec, c->vec);
    assert_int_equal(s.len, c->length);
    assert_int_equal(s.conv, c->conv);
  }
}

/* Malformed: vector sizes, hl without v, lengths on c/s/p, vectors of
 * c/s/p, h/hh on scalar floats, hh on float vectors, %% with anything,
 * unknown conversions, a missing conversion, absurd widths. */
static void test_invalid(void **state) {
  (void)state;
  static const char *const bad[] = {
      "%v5d", "%v1d", "%v32d", "%vd", "%hld",    "%hlf",     "%lc", "%ls", "%hp",
      "%v4s", "%v2c", "%v4p",  "%hf", "%hhf",    "%v4hhf",   "%5%", "%-%", "%q",
      "%ll",  "%lld", "%",     "%5",  "%99999d", "%.99999f", "%k",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    struct sg_printf_spec s;
    size_t n = sg_printf_parse(bad[i], &s);
    if (s.conv)
      fail_msg("'%s' parsed as valid conversion '%c'", bad[i], s.conv);
    assert_true(n >= 1 && n <= strlen(bad[i]));
  }
}

static void test_classes(void **state) {
  (void)state;
  static const struct {
    const char *text;
    enum sg_printf_kind kind;
    uint32_t elem;
  } cases[] = {
      {"%d", SG_PRINTF_INT, 4},      {"%c", SG_PRINTF_INT, 4},       {"%s", SG_PRINTF_PTR, 4},
      {"%p", SG_PRINTF_PTR, 4},      {"%g", SG_PRINTF_FLOAT, 4},     {"%v2hhx", SG_PRINTF_INT, 1},
      {"%v4hd", SG_PRINTF_INT, 2},   {"%v8hlu", SG_PRINTF_INT, 4},   {"%v2ld", SG_PRINTF_INT, 8},
      {"%v2hf", SG_PRINTF_FLOAT, 2}, {"%v3hle", SG_PRINTF_FLOAT, 4}, {"%v16la", SG_PRINTF_FLOAT, 8},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct sg_printf_spec s;
    sg_printf_parse(cases[i].text, &s);
    assert_int_equal(sg_printf_class(&s), cases[i].kind);
    assert_int_equal(sg_printf_vec_elem_size(&s), cases[i].elem);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid),
      cmocka_unit_test(test_invalid),
      cmocka_unit_test(test_classes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
