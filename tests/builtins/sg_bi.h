/* SPDX-License-Identifier: MIT */
/* Built-in function conformance (DESIGN.md "Tests": every test checks real
 * behaviour against an independent host reference): the harness the family
 * files share. Kernels are generated as text, one program per family, run
 * through the ICD loader; failures name function, type, inputs and error. */
#ifndef SG_BI_H
#define SG_BI_H

#include "../../samples/sg_sample.h"

#include <math.h>
#include <stdint.h>

enum { SG_BI_MAX_REPORT = 8 };

struct sg_bi {
  struct sg_sample s;
  int has_fp64;
  unsigned long checks, failed_fns, passed_fns;
  char *src;   /* the program being generated */
  size_t len, cap;
};

/* One kernel argument: a buffer of bytes; out buffers are read back. */
struct sg_bi_arg {
  void *host;
  size_t bytes;
  int out;
};

/* Appends printf-formatted text to the program source. */
void sg_bi_emit(struct sg_bi *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Builds the generated source with opts; exits with the log on failure. */
cl_program sg_bi_build(struct sg_bi *b, const char *opts);
/* Runs kernel `name` over `global` work-items with the given buffers and,
 * when val is not NULL, one by-value argument after them. */
void sg_bi_run(struct sg_bi *b, cl_program p, const char *name, size_t global,
               const struct sg_bi_arg *args, int nargs, const void *val, size_t valsize);

/* Fixed-seed generator (xorshift64*), so every run sees the same inputs. */
uint64_t sg_bi_rand(void);

/* One function's verdict: counts it and prints the summary line. */
void sg_bi_verdict(struct sg_bi *b, const char *fn, const char *type, unsigned long fails,
                   unsigned long n, double max_ulp);

int sg_bi_math(struct sg_bi *b);
int sg_bi_integer(struct sg_bi *b);
int sg_bi_convert(struct sg_bi *b);
int sg_bi_relational(struct sg_bi *b);
int sg_bi_half(struct sg_bi *b);
int sg_bi_common(struct sg_bi *b);

#endif
