/* SPDX-License-Identifier: MIT */
/* Tests for the SOFTGPU_CHECK switch (device/sg_check.c, sg_check.def): the
 * defaults, every word, "all" and "none" in order, unknown words named and
 * ignored, and the printed form the per-launch summary shows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sg_device.h"

/* spec parsed, then printed; *warned gets what was said about it. */
static char *parse(const char *spec, struct sg_check *c, char **warned) {
  size_t len = 0;
  char *text = NULL;
  FILE *w = open_memstream(warned, &len);
  sg_check_parse(spec, c, w);
  fclose(w);
  FILE *f = open_memstream(&text, &len);
  sg_check_print(c, f);
  fclose(f);
  return text;
}

static void check(const char *spec, const char *want, const char *warning) {
  struct sg_check c;
  char *warned, *got = parse(spec, &c, &warned);
  assert_string_equal(got, want);
  if (warning ? !strstr(warned, warning) : warned[0] != 0)
    fail_msg("SOFTGPU_CHECK=%s warned: %s", spec ? spec : "(unset)", warned);
  free(got);
  free(warned);
}

static void test_words(void **state) {
  (void)state;
  check(NULL, "memory", NULL); /* memory checking is on by default */
  check("", "memory", NULL);
  check("races", "memory,races", NULL);
  check("sync,strict", "memory,sync,strict", NULL);
  check("races,same-value", "memory,races,same-value", NULL);
  check("all", "memory,races,sync,uninit", NULL);
  check("all,strict", "memory,races,sync,uninit,strict", NULL);
  check("none", "none", NULL);
  check("none,races", "races", NULL);
  check("all,none", "none", NULL);
  check(",,races,", "memory,races", NULL); /* empty words are nothing */
}

static void test_fields(void **state) {
  (void)state;
  struct sg_check c;
  char *warned;
  free(parse("uninit,strict", &c, &warned));
  assert_true(c.memory && c.uninit && c.strict);
  assert_false(c.races || c.sync || c.same_value);
  free(warned);
}

/* A typo must not turn checking off silently: it is named, with the words
 * that exist, and the rest of the value still counts. */
static void test_unknown_word(void **state) {
  (void)state;
  check("race,sync", "memory,sync",
        "unknown check 'race' ignored (known: all, none, noWORD, memory, races");
  check("nomemory", "none", NULL); /* noWORD turns one check off */
  check("all,nomemory,nostrict", "races,sync,uninit", NULL);
  check("nosuch", "memory", "unknown check 'nosuch'");
  check("STRICT", "memory", "unknown check 'STRICT'");
}

static void test_help(void **state) {
  (void)state;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  sg_check_help(f);
  fclose(f);
  assert_non_null(strstr(text, "all: "));
  assert_non_null(strstr(text, "memory* (default): "));
  assert_non_null(strstr(text, "same-value: "));
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_words),
      cmocka_unit_test(test_fields),
      cmocka_unit_test(test_unknown_word),
      cmocka_unit_test(test_help),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
