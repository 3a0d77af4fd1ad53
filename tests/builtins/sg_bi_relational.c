/* SPDX-License-Identifier: MIT */
/* Built-in function conformance, relational family (OpenCL C 1.2 s6.12.6):
 * comparisons and classifications on every pair of special and ordinary
 * values (scalar results 1/0, width-4 results -1/0), any/all, bitselect and
 * select on random bits, against host C operators and bit arithmetic. */
#include <float.h>

#include "sg_bi.h"

enum { NVAL = 24, NRAND = 1024 };
static const char *const ftype[2] = {"float", "double"};
static const char *const vres[2] = {"int", "long"};

/* Relations and classes; (x, y) -> truth. */
enum rel {
  R_EQ,
  R_NE,
  R_GT,
  R_GE,
  R_LT,
  R_LE,
  R_LG,
  R_ORD,
  R_UNORD,
  R_FINITE,
  R_INF,
  R_NAN,
  R_NORMAL,
  R_SIGNBIT,
  R_COUNT
};
static const char *const rnames[] = {
    "isequal",     "isnotequal",    "isgreater", "isgreaterequal", "isless",
    "islessequal", "islessgreater", "isordered", "isunordered",    "isfinite",
    "isinf",       "isnan",         "isnormal",  "signbit"};

/* Truth as 1/0 (glibc's isinf gives -1 for -inf). */
static int rref(enum rel r, int dbl, double x, double y) {
  double mn = dbl ? DBL_MIN : FLT_MIN;
  switch (r) {
  case R_EQ: return x == y;
  case R_NE: return x != y; /* true when unordered */
  case R_GT: return x > y;
  case R_GE: return x >= y;
  case R_LT: return x < y;
  case R_LE: return x <= y;
  case R_LG: return x < y || x > y;
  case R_ORD: return !isnan(x) && !isnan(y);
  case R_UNORD: return isnan(x) || isnan(y);
  case R_FINITE: return isfinite(x);
  case R_INF: return isinf(x) != 0;
  case R_NAN: return isnan(x);
  case R_NORMAL: return isfinite(x) && fabs(x) >= mn;
  case R_SIGNBIT: return signbit(x) != 0;
  case R_COUNT: break;
  }
  return 0;
}

static size_t values(int dbl, double *v) {
  const double base[NVAL] = {0.0,
                             -0.0,
                             1.0,
                             -1.0,
                             0.5,
                             2.0,
                             -2.0,
                             INFINITY,
                             -INFINITY,
                             NAN,
                             -NAN,
                             dbl ? DBL_MIN : FLT_MIN,
                             dbl ? -DBL_MIN : -FLT_MIN,
                             dbl ? DBL_TRUE_MIN : FLT_TRUE_MIN,
                             dbl ? -DBL_TRUE_MIN : -FLT_TRUE_MIN,
                             dbl ? DBL_MAX : FLT_MAX,
                             dbl ? -DBL_MAX : -FLT_MAX,
                             dbl ? DBL_MIN / 2 : FLT_MIN / 2,
                             3.0,
                             1e-3,
                             -1e3,
                             7.25,
                             1.0 + 0x1p-20,
                             1.0 + 0x1p-52};
  for (size_t i = 0; i < NVAL; i++)
    v[i] = dbl ? base[i] : (double)(float)base[i];
  return NVAL;
}

static void emit_rel(struct sg_bi *b, enum rel r, int dbl) {
  const char *T = ftype[dbl], *N = rnames[r];
  int two = r <= R_UNORD;
  sg_bi_emit(b,
             "__kernel void k_%s_%s(__global const %s *a, __global const %s *b, "
             "__global int *o, __global %s *ov) {\n  size_t j = get_global_id(0);\n"
             "  o[j] = %s(a[j]%s);\n",
             N, T, T, T, vres[dbl], N, two ? ", b[j]" : "");
  sg_bi_emit(b, "  if (j %% 4 == 0)\n    vstore4(%s(vload4(0, a + j)%s), 0, ov + j);\n}\n", N,
             two ? ", vload4(0, b + j)" : "");
}

static void check_rel(struct sg_bi *b, cl_program p, enum rel r, int dbl) {
  double v[NVAL];
  size_t nv = values(dbl, v), n = nv * nv, es = dbl ? 8 : 4;
  void *a = calloc(n, es), *bb = calloc(n, es), *ov = calloc(n, 8);
  int *o = calloc(n, sizeof(int));
  for (size_t i = 0; i < n; i++) {
    double x = v[i % nv], y = v[i / nv];
    if (dbl)
      ((double *)a)[i] = x, ((double *)bb)[i] = y;
    else
      ((float *)a)[i] = (float)x, ((float *)bb)[i] = (float)y;
  }
  struct sg_bi_arg args[] = {
      {a, n * es, 0}, {bb, n * es, 0}, {o, n * sizeof(int), 1}, {ov, n * es, 1}};
  char name[64];
  snprintf(name, sizeof(name), "k_%s_%s", rnames[r], ftype[dbl]);
  sg_bi_run(b, p, name, n, args, 4, NULL, 0);
  unsigned long fails = 0;
  for (size_t i = 0; i < n; i++) {
    double x = v[i % nv], y = v[i / nv];
    int want = rref(r, dbl, x, y);
    long long got = o[i], gotv = dbl ? ((int64_t *)ov)[i] : ((int32_t *)ov)[i];
    if ((got != want || gotv != -want) && fails++ < SG_BI_MAX_REPORT)
      printf("  %s(%s %g, %g): got %lld (vector lane %lld) expected %d (vector %d)\n", rnames[r],
             ftype[dbl], x, y, got, gotv, want, -want);
  }
  sg_bi_verdict(b, rnames[r], ftype[dbl], fails, (unsigned long)n, 0);
  free(a), free(bb), free(o), free(ov);
}

/* ---- Integer-typed: any, all, bitselect, select ------------------------ */
struct bty {
  const char *name, *sname, *uname; /* the type, its same-size signed/unsigned */
  int bytes;
};
static const struct bty btypes[] = {
    {"char", "char", "uchar", 1},    {"uchar", "char", "uchar", 1},
    {"short", "short", "ushort", 2}, {"ushort", "short", "ushort", 2},
    {"int", "int", "uint", 4},       {"uint", "int", "uint", 4},
    {"long", "long", "ulong", 8},    {"ulong", "long", "ulong", 8},
    {"float", "int", "uint", 4},     {"double", "long", "ulong", 8},
};
static const int widths[] = {1, 2, 3, 4, 8, 16};

static uint64_t lane(const void *p, int bytes, size_t i) {
  uint64_t v = 0;
  memcpy(&v, (const char *)p + i * (size_t)bytes, (size_t)bytes);
  return v;
}
static int msb(uint64_t v, int bytes) {
  return (int)((v >> (8 * bytes - 1)) & 1);
}

/* any/all over vectors of width w of the signed types. */
static void emit_anyall(struct sg_bi *b, const struct bty *t, int w) {
  char W[12] = "", arg[32] = "a[j]";
  if (w > 1) {
    snprintf(W, sizeof(W), "%d", w);
    snprintf(arg, sizeof(arg), "vload%d(j, a)", w);
  }
  for (int all = 0; all < 2; all++)
    sg_bi_emit(b,
               "__kernel void %s_%s%s(__global const %s *a, __global int *o) {\n"
               "  size_t j = get_global_id(0);\n  o[j] = %s(%s);\n}\n",
               all ? "all" : "any", t->name, W, t->name, all ? "all" : "any", arg);
}
static void check_anyall(struct sg_bi *b, cl_program p, const struct bty *t, int w) {
  size_t n = 512, m = n * (size_t)w;
  uint8_t *a = malloc(m * (size_t)t->bytes);
  int *o = calloc(n, sizeof(int));
  for (size_t i = 0; i < m * (size_t)t->bytes; i++) /* sign bits mostly set: all() varies */
    a[i] = (uint8_t)(sg_bi_rand() | ((sg_bi_rand() & 7) ? 0x80 : 0));
  for (int all = 0; all < 2; all++) {
    struct sg_bi_arg args[] = {{a, m * (size_t)t->bytes, 0}, {o, n * sizeof(int), 1}};
    char name[64], fn[16];
    snprintf(name, sizeof(name), "%s_%s%.0d", all ? "all" : "any", t->name, w > 1 ? w : 0);
    snprintf(fn, sizeof(fn), "%s", all ? "all" : "any");
    sg_bi_run(b, p, name, n, args, 2, NULL, 0);
    unsigned long fails = 0;
    for (size_t i = 0; i < n; i++) {
      int want = all;
      for (int k = 0; k < w; k++) {
        int s = msb(lane(a, t->bytes, i * (size_t)w + (size_t)k), t->bytes);
        want = all ? want && s : want || s;
      }
      if (o[i] != want && fails++ < SG_BI_MAX_REPORT)
        printf("  %s(%s%d) #%zu: got %d expected %d\n", fn, t->name, w, i, o[i], want);
    }
    sg_bi_verdict(b, name, t->name, fails, (unsigned long)n, 0);
  }
  free(a), free(o);
}

/* bitselect and select (signed and unsigned selector), scalar and width 4. */
static void emit_select(struct sg_bi *b, const struct bty *t) {
  const char *T = t->name;
  sg_bi_emit(b,
             "__kernel void sel_%s(__global const %s *a, __global const %s *b, "
             "__global const %s *c, __global %s *o) {\n  size_t j = get_global_id(0);\n"
             "  size_t n = get_global_size(0), v = j * 4;\n"
             "  o[j] = bitselect(a[j], b[j], as_%s(c[j]));\n"
             "  o[n + j] = select(a[j], b[j], c[j]);\n"
             "  o[2 * n + j] = select(a[j], b[j], as_%s(c[j]));\n"
             "  if (v < n) {\n"
             "    vstore4(bitselect(vload4(0, a + v), vload4(0, b + v), as_%s4(vload4(0, c + v))), "
             "0, o + 3 * n + v);\n"
             "    vstore4(select(vload4(0, a + v), vload4(0, b + v), vload4(0, c + v)), 0, o + 4 * "
             "n + v);\n"
             "    vstore4(select(vload4(0, a + v), vload4(0, b + v), as_%s4(vload4(0, c + v))), 0, "
             "o + 5 * n + v);\n"
             "  }\n}\n",
             T, T, T, t->sname, T, T, t->uname, T, t->uname);
}
static void check_select(struct sg_bi *b, cl_program p, const struct bty *t) {
  static const char *const fn[6] = {"bitselect",  "select(signed)",  "select(unsigned)",
                                    "bitselect4", "select4(signed)", "select4(unsigned)"};
  size_t n = 1024, sz = (size_t)t->bytes;
  uint8_t *a = malloc(n * sz), *bb = malloc(n * sz), *c = malloc(n * sz), *o = calloc(6 * n, sz);
  for (size_t i = 0; i < n * sz; i++)
    a[i] = (uint8_t)sg_bi_rand(), bb[i] = (uint8_t)sg_bi_rand(), c[i] = (uint8_t)sg_bi_rand();
  for (size_t i = 0; i < n; i += 3) /* scalar selectors 0, 1 and the msb alone */
    memset(c + i * sz, 0, sz), c[i * sz] = (uint8_t)(i % 2);
  struct sg_bi_arg args[] = {{a, n * sz, 0}, {bb, n * sz, 0}, {c, n * sz, 0}, {o, 6 * n * sz, 1}};
  char name[64];
  snprintf(name, sizeof(name), "sel_%s", t->name);
  sg_bi_run(b, p, name, n, args, 4, NULL, 0);
  for (int f = 0; f < 6; f++) {
    unsigned long fails = 0;
    for (size_t i = 0; i < n; i++) {
      uint64_t x = lane(a, t->bytes, i), y = lane(bb, t->bytes, i), z = lane(c, t->bytes, i);
      uint64_t want = f % 3 == 0 ? (x & ~z) | (y & z)
                      : f < 3    ? (z ? y : x)
                                 : (msb(z, t->bytes) ? y : x);
      uint64_t got = lane(o, t->bytes, (size_t)f * n + i);
      if (sz < 8)
        want &= (1ull << (8 * sz)) - 1;
      if (got != want && fails++ < SG_BI_MAX_REPORT)
        printf("  %s(%s) (%#llx, %#llx, %#llx): got %#llx expected %#llx\n", fn[f], t->name,
               (unsigned long long)x, (unsigned long long)y, (unsigned long long)z,
               (unsigned long long)got, (unsigned long long)want);
    }
    sg_bi_verdict(b, fn[f], t->name, fails, (unsigned long)n, 0);
  }
  free(a), free(bb), free(c), free(o);
}

int sg_bi_relational(struct sg_bi *b) {
  int nd = b->has_fp64 ? 2 : 1;
  size_t nt = b->has_fp64 ? 10 : 9;
  for (int d = 0; d < nd; d++)
    for (int r = 0; r < R_COUNT; r++)
      emit_rel(b, (enum rel)r, d);
  for (size_t t = 0; t < 8; t += 2)
    for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
      emit_anyall(b, &btypes[t], widths[w]);
  for (size_t t = 0; t < nt; t++)
    emit_select(b, &btypes[t]);
  cl_program p = sg_bi_build(b, "");
  for (int d = 0; d < nd; d++)
    for (int r = 0; r < R_COUNT; r++)
      check_rel(b, p, (enum rel)r, d);
  for (size_t t = 0; t < 8; t += 2)
    for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
      check_anyall(b, p, &btypes[t], widths[w]);
  for (size_t t = 0; t < nt; t++)
    check_select(b, p, &btypes[t]);
  clReleaseProgram(p);
  return 0;
}
