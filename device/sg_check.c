/* SPDX-License-Identifier: MIT */
/* DESIGN.md 4, "device diagnostics": which checks run (SOFTGPU_CHECK, one
 * word per line of sg_check.def), and the per-launch summary of what they
 * found. */
#include <string.h>

#include "sg_device.h"

static const struct {
  const char *word, *help;
  size_t offset;
  bool def, in_all;
} checks[] = {
#define SG_CHECK(field, word, def, all, help)                                                      \
  {word, help, offsetof(struct sg_check, field), def, all},
#include "sg_check.def"
#undef SG_CHECK
};
#define NCHECKS (sizeof checks / sizeof checks[0])

static bool *field(struct sg_check *c, size_t i) {
  return (bool *)((char *)c + checks[i].offset);
}
static bool on(const struct sg_check *c, size_t i) {
  return *(const bool *)((const char *)c + checks[i].offset);
}

void sg_check_parse(const char *spec, struct sg_check *out, FILE *warn) {
  for (size_t i = 0; i < NCHECKS; i++)
    *field(out, i) = checks[i].def;
  while (spec && *spec) {
    size_t n = strcspn(spec, ","), i;
    bool all = n == 3 && !strncmp(spec, "all", 3), none = n == 4 && !strncmp(spec, "none", 4);
    /* "noWORD" turns one check off ("nomemory") */
    bool off = n > 2 && !strncmp(spec, "no", 2) && strncmp(spec, "none", n);
    const char *word = off ? spec + 2 : spec;
    size_t wn = off ? n - 2 : n;
    for (i = 0; i < NCHECKS && !all && !none; i++)
      if (strlen(checks[i].word) == wn && !strncmp(word, checks[i].word, wn))
        break;
    if (all || none) {
      for (size_t j = 0; j < NCHECKS; j++)
        if (none || checks[j].in_all)
          *field(out, j) = all;
    } else if (i < NCHECKS) {
      *field(out, i) = !off;
    } else if (n > 0 && warn) {
      fprintf(warn, "SoftGPU: SOFTGPU_CHECK: unknown check '%.*s' ignored (known: all, none, noWORD",
              (int)n, spec);
      for (size_t j = 0; j < NCHECKS; j++)
        fprintf(warn, ", %s", checks[j].word);
      fputs(")\n", warn);
    }
    spec += n + (spec[n] == ',');
  }
}

void sg_check_help(FILE *out) {
  fputs("all: every check marked *\nnone: no check\nnoWORD: that check off (nomemory)\n", out);
  for (size_t i = 0; i < NCHECKS; i++)
    fprintf(out, "%s%s%s: %s\n", checks[i].word, checks[i].in_all ? "*" : "",
            checks[i].def ? " (default)" : "", checks[i].help);
}

void sg_check_print(const struct sg_check *c, FILE *out) {
  const char *sep = "";
  for (size_t i = 0; i < NCHECKS; i++)
    if (on(c, i)) {
      fprintf(out, "%s%s", sep, checks[i].word);
      sep = ",";
    }
  if (!*sep)
    fputs("none", out);
}
