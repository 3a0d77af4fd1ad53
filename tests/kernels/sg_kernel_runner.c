/* SPDX-License-Identifier: MIT */
/* Kernel tests (DESIGN.md "Tests": conformance-style kernel cases): runs one
 * data-driven case, foo.cl + foo.run + foo.ref (format: README.md), through
 * the OpenCL API and the ICD loader, and compares the checked buffers. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <regex.h>
#include <stdint.h>

#include "../../samples/sg_sample.h"

enum { EXIT_OK = 0, EXIT_MISMATCH = 1, EXIT_BAD_CASE = 2, EXIT_SKIP = 77 };
enum { MAX_ARGS = 32, MAX_TOKENS = 1 << 20, MAX_REPORTS = 64, MAX_MESSAGES = 64 };

enum type_class { T_SIGNED, T_UNSIGNED, T_FLOAT };
struct type {
  const char *name;
  size_t size;
  enum type_class cls;
};
static const struct type types[] = {
    {"char", 1, T_SIGNED},     {"uchar", 1, T_UNSIGNED}, {"short", 2, T_SIGNED},
    {"ushort", 2, T_UNSIGNED}, {"int", 4, T_SIGNED},     {"uint", 4, T_UNSIGNED},
    {"long", 8, T_SIGNED},     {"ulong", 8, T_UNSIGNED}, {"half", 2, T_FLOAT},
    {"float", 4, T_FLOAT},     {"double", 8, T_FLOAT},
};

enum arg_kind { ARG_UNSET, ARG_BUFFER, ARG_NULL, ARG_LOCAL, ARG_VALUE };
enum tolerance { TOL_EXACT, TOL_ULP, TOL_ABS };
struct arg {
  enum arg_kind kind;
  const struct type *type; /* buffers */
  size_t count;            /* buffers: elements */
  unsigned char *bytes;    /* buffer initial contents / value bytes */
  size_t size;             /* bytes (local: the __local size) */
  int check, readonly, writeonly;
  enum tolerance tol;
  double tol_value;
  cl_mem mem;
};

enum outcome { EXPECT_PASS, EXPECT_BUILD_FAILURE, EXPECT_ENQUEUE_ERROR, EXPECT_FAULT };
struct test_case {
  char kernel[256];
  char source[PATH_MAX]; /* the .cl file; default: the .run file's name */
  char options[4096];
  cl_uint dim;
  size_t global[3], local[3], offset[3];
  int has_local, has_offset;
  enum outcome expect;
  cl_int expect_code;
  struct arg args[MAX_ARGS];
  cl_uint nargs;
  regex_t report[MAX_REPORTS]; /* SoftGPU's messages: each matches one, each matched */
  char report_text[MAX_REPORTS][512];
  int nreports;
};

/* What the platform said through the context's callback. */
static char *messages[MAX_MESSAGES];
static int nmessages;

static void CL_CALLBACK on_notify(const char *msg, const void *info, size_t size, void *data) {
  (void)info, (void)size, (void)data;
  if (nmessages < MAX_MESSAGES)
    messages[nmessages++] = strdup(msg);
}

/* ---- Diagnostics ------------------------------------------------------- */

static const char *cur_file;
static int cur_line;

static void die_case(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s:%d: ", cur_file, cur_line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(EXIT_BAD_CASE);
}

static void *xmalloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(EXIT_BAD_CASE);
  }
  return p;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: %s\n", path, strerror(errno));
    exit(EXIT_BAD_CASE);
  }
  size_t cap = 4096, len = 0, n;
  char *buf = xmalloc(cap + 1);
  while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
    len += n;
    if (len == cap) {
      cap *= 2;
      buf = realloc(buf, cap + 1);
      if (!buf)
        die_case("out of memory");
    }
  }
  fclose(f);
  buf[len] = '\0';
  return buf;
}

/* ---- Lines and tokens -------------------------------------------------- */

/* The next logical line (comments stripped, `\` continuations joined) split
 * into blank-separated tokens, in place. Returns the token count; -1 at EOF.
 * *rest (if non-NULL) gets the text after the first token, blanks inside it
 * kept (for `options`, `check`, `report`), or NULL if there is none; it is
 * a copy, valid until the next call, since splitting cuts the line. */
static int next_line(char **pos, char **tok, int maxtok, char **rest) {
  static char *rest_copy;
  char *p = *pos;
  if (!*p)
    return -1;
  char *line = p, *w = p;
  int start_line = ++cur_line;
  for (; *p && *p != '\n'; p++) {
    if (*p == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'))) {
      p += p[1] == '\r' ? 2 : 1;
      cur_line++;
      *w++ = ' ';
      continue;
    }
    *w++ = *p;
  }
  *pos = *p ? p + 1 : p;
  *w = '\0';
  char *hash = strchr(line, '#');
  if (hash)
    *hash = '\0';
  free(rest_copy);
  rest_copy = NULL;
  if (rest) {
    const char *blank = " \t\r\f\v";
    const char *r = line + strspn(line, blank);
    r += strcspn(r, blank);
    r += strspn(r, blank);
    size_t len = strlen(r);
    while (len && isspace((unsigned char)r[len - 1]))
      len--;
    if (len && !(rest_copy = strndup(r, len)))
      die_case("out of memory");
    *rest = rest_copy;
  }
  int n = 0;
  char *s = line;
  for (;;) {
    while (isspace((unsigned char)*s))
      s++;
    if (!*s)
      break;
    if (n == maxtok) {
      cur_line = start_line;
      die_case("too many values on one line");
    }
    tok[n++] = s;
    while (*s && !isspace((unsigned char)*s))
      s++;
    if (*s)
      *s++ = '\0';
  }
  return n;
}

static const struct type *find_type(const char *name) {
  for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
    if (!strcmp(types[i].name, name))
      return &types[i];
  return NULL;
}

static uint64_t parse_uint(const char *s, uint64_t max) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end || *s == '-' || v > max)
    die_case("bad number \"%s\"", s);
  return v;
}

/* IEEE binary16 from a float, round to nearest even. */
static uint16_t float_to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sign = (x >> 16) & 0x8000;
  uint32_t mag = x & 0x7fffffff;
  if (mag >= 0x7f800000) /* inf or nan */
    return sign | 0x7c00 | (mag > 0x7f800000 ? 0x200 : 0);
  if (mag >= 0x477ff000) /* rounds past the largest half */
    return sign | 0x7c00;
  int exp = (int)(mag >> 23) - 127 + 15;
  uint32_t mant = (mag & 0x7fffff) | 0x800000;
  int shift = exp > 0 ? 13 : 14 - exp; /* subnormal halves lose more bits */
  if (shift > 24)
    return sign;
  uint32_t half = mant >> shift, rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
  half += rem > mid || (rem == mid && (half & 1));
  /* Normal: replace the implicit bit by the exponent; a mantissa carry
   * correctly bumps the exponent. */
  return sign | (uint16_t)(exp > 0 ? ((uint32_t)exp << 10) + half - 0x400 : half);
}

static float half_to_float(uint16_t h) {
  int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float v = exp == 0    ? ldexpf((float)mant, -24)
            : exp == 31 ? (mant ? NAN : INFINITY)
                        : ldexpf((float)(mant | 0x400), exp - 25);
  return (h & 0x8000) ? -v : v;
}

/* Element i of a typed array, as double (floats) or 64-bit integer. */
static double get_float(const struct type *t, const unsigned char *p) {
  if (t->size == 2) {
    uint16_t h;
    memcpy(&h, p, 2);
    return half_to_float(h);
  }
  if (t->size == 4) {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  double d;
  memcpy(&d, p, 8);
  return d;
}

static void put_float(const struct type *t, unsigned char *p, double v) {
  if (t->size == 2) {
    uint16_t h = float_to_half((float)v);
    memcpy(p, &h, 2);
  } else if (t->size == 4) {
    float f = (float)v;
    memcpy(p, &f, 4);
  } else {
    memcpy(p, &v, 8);
  }
}

static uint64_t get_int(const struct type *t, const unsigned char *p) {
  uint64_t v = 0;
  memcpy(&v, p, t->size); /* little-endian host and device */
  if (t->cls == T_SIGNED && t->size < 8 && (v >> (t->size * 8 - 1)) & 1)
    v |= ~0ull << (t->size * 8);
  return v;
}

static void put_int(const struct type *t, unsigned char *p, uint64_t v) {
  memcpy(p, &v, t->size);
}

/* Parses one value token of type t into p. */
static void put_token(const struct type *t, unsigned char *p, const char *s) {
  char *end;
  errno = 0;
  if (t->cls == T_FLOAT) {
    double v = strtod(s, &end);
    if (*end || end == s)
      die_case("bad %s value \"%s\"", t->name, s);
    put_float(t, p, v);
    return;
  }
  uint64_t v = *s == '-' ? (uint64_t)strtoll(s, &end, 0) : strtoull(s, &end, 0);
  if (*end || end == s || errno)
    die_case("bad %s value \"%s\"", t->name, s);
  put_int(t, p, v);
}

static void put_range(const struct type *t, unsigned char *bytes, size_t count, const char *start,
                      const char *step) {
  unsigned char a[8], b[8];
  put_token(find_type(t->cls == T_FLOAT ? "double" : "long"), a, start);
  put_token(find_type(t->cls == T_FLOAT ? "double" : "long"), b, step);
  for (size_t i = 0; i < count; i++) {
    if (t->cls == T_FLOAT) {
      double d0, d1;
      memcpy(&d0, a, 8);
      memcpy(&d1, b, 8);
      put_float(t, bytes + i * t->size, d0 + (double)i * d1);
    } else {
      uint64_t i0, i1;
      memcpy(&i0, a, 8);
      memcpy(&i1, b, 8);
      put_int(t, bytes + i * t->size, i0 + (uint64_t)i * i1);
    }
  }
}

/* `fill V`, `range START STEP` or `values V...` at tok[0]; returns the
 * number of tokens used, 0 if tok[0] is none of them. */
static int parse_init(const struct type *t, unsigned char *bytes, size_t count, char **tok, int n) {
  if (n >= 2 && !strcmp(tok[0], "fill")) {
    for (size_t i = 0; i < count; i++)
      put_token(t, bytes + i * t->size, tok[1]);
    return 2;
  }
  if (n >= 3 && !strcmp(tok[0], "range")) {
    put_range(t, bytes, count, tok[1], tok[2]);
    return 3;
  }
  if (!strcmp(tok[0], "values")) {
    if ((size_t)(n - 1) < count)
      die_case("values: %zu values needed, %d given", count, n - 1);
    for (size_t i = 0; i < count; i++)
      put_token(t, bytes + i * t->size, tok[1 + i]);
    return 1 + (int)count;
  }
  return 0;
}

/* ---- The .run file ----------------------------------------------------- */

static void parse_buffer(struct arg *a, char **tok, int n) {
  if (n < 2 || !(a->type = find_type(tok[0])))
    die_case("buffer: TYPE COUNT expected");
  a->kind = ARG_BUFFER;
  a->count = parse_uint(tok[1], 1ull << 28);
  a->size = a->count * a->type->size;
  a->bytes = xmalloc(a->size);
  int i = 2;
  if (i < n)
    i += parse_init(a->type, a->bytes, a->count, tok + i, n - i);
  for (; i < n; i++) {
    if (!strcmp(tok[i], "check")) {
      a->check = 1;
    } else if (!strcmp(tok[i], "readonly")) {
      a->readonly = 1;
    } else if (!strcmp(tok[i], "writeonly")) {
      a->writeonly = 1;
    } else if ((!strcmp(tok[i], "ulp") || !strcmp(tok[i], "abs")) && i + 1 < n) {
      a->tol = tok[i][0] == 'u' ? TOL_ULP : TOL_ABS;
      char *end;
      a->tol_value = strtod(tok[++i], &end);
      if (*end || a->tol_value < 0)
        die_case("bad tolerance \"%s\"", tok[i]);
    } else {
      die_case("buffer: unknown word \"%s\"", tok[i]);
    }
  }
}

static void parse_value(struct arg *a, char **tok, int n) {
  const struct type *t = NULL;
  a->kind = ARG_VALUE;
  a->bytes = xmalloc((size_t)n * 64); /* 8 bytes per value, 64 per pad */
  for (int i = 0; i < n; i++) {
    const struct type *nt = find_type(tok[i]);
    if (nt) {
      t = nt;
    } else if (!strcmp(tok[i], "pad") && i + 1 < n) {
      a->size += parse_uint(tok[++i], 64);
    } else if (!t) {
      die_case("value: a TYPE must come before \"%s\"", tok[i]);
    } else {
      put_token(t, a->bytes + a->size, tok[i]);
      a->size += t->size;
    }
  }
  if (!a->size)
    die_case("value: no values");
}

static void parse_arg(struct test_case *tc, char **tok, int n) {
  if (n < 3)
    die_case("arg I KIND ... expected");
  unsigned idx = (unsigned)parse_uint(tok[1], MAX_ARGS - 1);
  struct arg *a = &tc->args[idx];
  if (a->kind != ARG_UNSET)
    die_case("argument %u given twice", idx);
  if (!strcmp(tok[2], "buffer"))
    parse_buffer(a, tok + 3, n - 3);
  else if (!strcmp(tok[2], "null") && n == 3)
    a->kind = ARG_NULL;
  else if (!strcmp(tok[2], "local") && n == 4)
    a->kind = ARG_LOCAL, a->size = parse_uint(tok[3], 1ull << 30);
  else if (!strcmp(tok[2], "value"))
    parse_value(a, tok + 3, n - 3);
  else
    die_case("arg: unknown kind \"%s\"", tok[2]);
  if (idx + 1 > tc->nargs)
    tc->nargs = idx + 1;
}

static cl_uint parse_sizes(size_t *out, char **tok, int n) {
  if (n < 1 || n > 3)
    die_case("1 to 3 sizes expected");
  for (int i = 0; i < n; i++)
    out[i] = parse_uint(tok[i], SIZE_MAX);
  return (cl_uint)n;
}

static cl_int error_code(const char *name);

static void parse_expect(struct test_case *tc, char **tok, int n) {
  if (n == 1 && !strcmp(tok[0], "pass"))
    tc->expect = EXPECT_PASS;
  else if (n == 1 && !strcmp(tok[0], "build_failure"))
    tc->expect = EXPECT_BUILD_FAILURE;
  else if (n == 1 && !strcmp(tok[0], "fault"))
    tc->expect = EXPECT_FAULT;
  else if (n == 2 && !strcmp(tok[0], "enqueue_error"))
    tc->expect = EXPECT_ENQUEUE_ERROR, tc->expect_code = error_code(tok[1]);
  else
    die_case("expect: pass, build_failure, enqueue_error CODE or fault");
}

/* file, relative to the folder of the .run file at run_path. */
static void beside(const char *run_path, const char *file, char *out, size_t len) {
  const char *slash = strrchr(run_path, '/');
  int dirlen = slash ? (int)(slash - run_path) : 1;
  snprintf(out, len, "%.*s/%s", dirlen, slash ? run_path : ".", file);
}

static void set_config(const char *run_path, const char *file) {
  char path[PATH_MAX];
  beside(run_path, file, path, sizeof(path));
  setenv("SOFTGPU_CONFIG", path, 1);
}

static void add_report(struct test_case *tc, const char *regex) {
  if (tc->nreports == MAX_REPORTS)
    die_case("at most %d report lines", MAX_REPORTS);
  snprintf(tc->report_text[tc->nreports], sizeof tc->report_text[0], "%s", regex);
  if (regcomp(&tc->report[tc->nreports], regex, REG_EXTENDED | REG_NOSUB))
    die_case("report: bad regular expression \"%s\"", regex);
  tc->nreports++;
}

static void parse_run(struct test_case *tc, const char *path) {
  static char *tok[MAX_TOKENS];
  char *text = read_file(path), *pos = text, *rest;
  int n, global_dim = 0;
  cur_file = path;
  cur_line = 0;
  while ((n = next_line(&pos, tok, MAX_TOKENS, &rest)) >= 0) {
    if (n == 0)
      continue;
    const char *kw = tok[0];
    if (!strcmp(kw, "kernel") && n == 2)
      snprintf(tc->kernel, sizeof(tc->kernel), "%s", tok[1]);
    else if (!strcmp(kw, "options"))
      snprintf(tc->options, sizeof(tc->options), "%s", rest ? rest : "");
    else if (!strcmp(kw, "global"))
      tc->dim = parse_sizes(tc->global, tok + 1, n - 1), global_dim = 1;
    else if (!strcmp(kw, "local") && n == 2 && !strcmp(tok[1], "none"))
      tc->has_local = 0;
    else if (!strcmp(kw, "local"))
      parse_sizes(tc->local, tok + 1, n - 1), tc->has_local = n - 1;
    else if (!strcmp(kw, "offset"))
      parse_sizes(tc->offset, tok + 1, n - 1), tc->has_offset = n - 1;
    else if (!strcmp(kw, "config") && n == 2)
      set_config(path, tok[1]);
    else if (!strcmp(kw, "check"))
      setenv("SOFTGPU_CHECK", rest ? rest : "", 1);
    else if (!strcmp(kw, "report") && rest)
      add_report(tc, rest);
    else if (!strcmp(kw, "source") && n == 2)
      beside(path, tok[1], tc->source, sizeof(tc->source));
    else if (!strcmp(kw, "expect"))
      parse_expect(tc, tok + 1, n - 1);
    else if (!strcmp(kw, "arg"))
      parse_arg(tc, tok, n);
    else
      die_case("unknown line \"%s\"", kw);
  }
  if (!tc->kernel[0] || !global_dim)
    die_case("`kernel` and `global` are required");
  if ((tc->has_local && (cl_uint)tc->has_local != tc->dim) ||
      (tc->has_offset && (cl_uint)tc->has_offset != tc->dim))
    die_case("local/offset must have as many values as global");
  for (cl_uint i = 0; i < tc->nargs; i++)
    if (tc->args[i].kind == ARG_UNSET)
      die_case("argument %u is not given", i);
  free(text);
}

/* ---- The .ref file ----------------------------------------------------- */

/* Fills expected[i] for each checked buffer from the .ref file. */
static void parse_ref(struct test_case *tc, const char *path, unsigned char **expected) {
  static char *tok[MAX_TOKENS];
  char *text = read_file(path), *pos = text;
  struct arg *cur = NULL;
  size_t filled = 0;
  int n, idx = -1;
  cur_file = path;
  cur_line = 0;
  while ((n = next_line(&pos, tok, MAX_TOKENS, NULL)) >= 0) {
    int i = 0;
    if (n > 0 && !strcmp(tok[0], "buffer")) {
      if (cur && filled != cur->count)
        die_case("buffer %d: %zu values, %zu expected", idx, filled, cur->count);
      idx = n >= 2 ? (int)parse_uint(tok[1], MAX_ARGS - 1) : -1;
      if (idx < 0 || !tc->args[idx].check || expected[idx])
        die_case("buffer I: I must be a checked buffer, given once");
      cur = &tc->args[idx];
      expected[idx] = xmalloc(cur->size);
      filled = 0;
      i = 2;
      if (n > 2 && parse_init(cur->type, expected[idx], cur->count, tok + 2, n - 2) == n - 2) {
        filled = cur->count;
        continue;
      }
    }
    for (; i < n; i++) {
      if (!cur || filled == cur->count)
        die_case("value \"%s\" outside a buffer block or past its count", tok[i]);
      put_token(cur->type, expected[idx] + filled++ * cur->type->size, tok[i]);
    }
  }
  if (cur && filled != cur->count)
    die_case("buffer %d: %zu values, %zu expected", idx, filled, cur->count);
  for (cl_uint i = 0; i < tc->nargs; i++)
    if (tc->args[i].check && !expected[i])
      die_case("no block for checked buffer %u", i);
  free(text);
}

/* ---- Comparing --------------------------------------------------------- */

static double ulp_of(const struct type *t, double e) {
  int exp;
  int mant_bits = t->size == 2 ? 11 : t->size == 4 ? 24 : 53;
  int min_exp = t->size == 2 ? -13 : t->size == 4 ? -125 : -1021; /* frexp convention */
  frexp(e, &exp);
  if (e == 0 || exp < min_exp)
    exp = min_exp;
  return ldexp(1.0, exp - mant_bits);
}

static int float_matches(const struct arg *a, const unsigned char *got, const unsigned char *exp) {
  double g = get_float(a->type, got), e = get_float(a->type, exp);
  if (isnan(e) || isnan(g))
    return isnan(e) && isnan(g);
  if (a->tol == TOL_EXACT || isinf(e) || isinf(g))
    return !memcmp(got, exp, a->type->size) || (g == 0 && e == 0 && a->tol != TOL_EXACT);
  double diff = fabs(g - e);
  return a->tol == TOL_ABS ? diff <= a->tol_value : diff <= a->tol_value * ulp_of(a->type, e);
}

static void print_elem(const struct type *t, const unsigned char *p) {
  if (t->cls == T_FLOAT)
    printf("%.9g", get_float(t, p));
  else if (t->cls == T_SIGNED)
    printf("%lld", (long long)get_int(t, p));
  else
    printf("%llu", (unsigned long long)get_int(t, p));
}

static unsigned long compare(unsigned idx, const struct arg *a, const unsigned char *got,
                             const unsigned char *exp) {
  unsigned long bad = 0;
  for (size_t i = 0; i < a->count; i++) {
    const unsigned char *g = got + i * a->type->size, *e = exp + i * a->type->size;
    int ok = a->type->cls == T_FLOAT ? float_matches(a, g, e) : !memcmp(g, e, a->type->size);
    if (ok)
      continue;
    if (++bad <= 20) {
      printf("buffer %u [%zu]: got ", idx, i);
      print_elem(a->type, g);
      printf(", expected ");
      print_elem(a->type, e);
      printf("\n");
    }
  }
  if (bad > 20)
    printf("buffer %u: %lu mismatches in all\n", idx, bad);
  return bad;
}

/* ---- Running ----------------------------------------------------------- */

#define CL_ERRORS(X)                                                                               \
  X(CL_SUCCESS)                                                                                    \
  X(CL_OUT_OF_RESOURCES) X(CL_OUT_OF_HOST_MEMORY) X(CL_INVALID_VALUE)                              \
      X(CL_INVALID_PROGRAM_EXECUTABLE) X(CL_INVALID_KERNEL) X(CL_INVALID_KERNEL_ARGS)              \
          X(CL_INVALID_WORK_DIMENSION) X(CL_INVALID_WORK_GROUP_SIZE) X(CL_INVALID_WORK_ITEM_SIZE)  \
              X(CL_INVALID_GLOBAL_OFFSET) X(CL_INVALID_GLOBAL_WORK_SIZE) X(CL_INVALID_ARG_SIZE)    \
                  X(CL_INVALID_ARG_VALUE) X(CL_INVALID_MEM_OBJECT)                                 \
                      X(CL_MEM_OBJECT_ALLOCATION_FAILURE)                                          \
                          X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) X(CL_INVALID_OPERATION)

static cl_int error_code(const char *name) {
#define X(c)                                                                                       \
  if (!strcmp(name, #c))                                                                           \
    return c;
  CL_ERRORS(X)
#undef X
  die_case("unknown error code name \"%s\"", name);
  return 0;
}

static const char *error_name(cl_int code) {
#define X(c)                                                                                       \
  if (code == c)                                                                                   \
    return #c;
  CL_ERRORS(X)
#undef X
  return "(other)";
}

static void set_args(struct sg_sample *s, cl_kernel k, struct test_case *tc) {
  for (cl_uint i = 0; i < tc->nargs; i++) {
    struct arg *a = &tc->args[i];
    cl_mem none = NULL;
    switch (a->kind) {
    case ARG_BUFFER:
      a->mem = sg_sample_buffer(s, a->readonly    ? CL_MEM_READ_ONLY
                                 : a->writeonly ? CL_MEM_WRITE_ONLY
                                                : CL_MEM_READ_WRITE, a->size,
                                a->bytes);
      SG_CL(clSetKernelArg(k, i, sizeof(cl_mem), &a->mem));
      break;
    case ARG_NULL: SG_CL(clSetKernelArg(k, i, sizeof(cl_mem), &none)); break;
    case ARG_LOCAL: SG_CL(clSetKernelArg(k, i, a->size, NULL)); break;
    case ARG_VALUE: SG_CL(clSetKernelArg(k, i, a->size, a->bytes)); break;
    case ARG_UNSET: break;
    }
  }
}

/* Launches; returns the first error seen: from the enqueue, the wait or the
 * event's final status. */
static cl_int launch(struct sg_sample *s, cl_kernel k, struct test_case *tc, int *enqueue_failed) {
  cl_event ev;
  cl_int err = clEnqueueNDRangeKernel(s->queue, k, tc->dim, tc->has_offset ? tc->offset : NULL,
                                      tc->global, tc->has_local ? tc->local : NULL, 0, NULL, &ev);
  *enqueue_failed = err != CL_SUCCESS;
  if (err != CL_SUCCESS)
    return err;
  cl_int status = CL_COMPLETE;
  err = clWaitForEvents(1, &ev);
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, NULL);
  clReleaseEvent(ev);
  return err != CL_SUCCESS ? err : status < 0 ? status : CL_SUCCESS;
}

static int build(struct sg_sample *s, struct test_case *tc, const char *cl_path, cl_program *out) {
  cl_int err;
  char *src = read_file(cl_path);
  const char *csrc = src;
  *out = clCreateProgramWithSource(s->context, 1, &csrc, NULL, &err);
  SG_CL(err);
  free(src);
  err = clBuildProgram(*out, 1, &s->device, tc->options, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[32768] = "";
    clGetProgramBuildInfo(*out, s->device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
    printf("build failed (%d):\n%s\n", (int)err, log);
  }
  return err == CL_SUCCESS;
}

/* Every message SoftGPU sent the context must match a `report` line and
 * every `report` line a message: a diagnostic nobody expected is a false
 * positive. Returns the number of mismatches. */
static unsigned long check_messages(const struct test_case *tc) {
  unsigned long bad = 0;
  int matched[MAX_REPORTS] = {0};
  for (int m = 0; m < nmessages; m++) {
    int hit = 0;
    for (int r = 0; r < tc->nreports; r++)
      if (!regexec(&tc->report[r], messages[m], 0, NULL, 0))
        matched[r] = hit = 1;
    if (!hit && tc->expect != EXPECT_FAULT) {
      printf("unexpected report: %s\n", messages[m]);
      bad++;
    }
  }
  for (int r = 0; r < tc->nreports; r++)
    if (!matched[r]) {
      printf("no report matches: %s\n", tc->report_text[r]);
      bad++;
    }
  return bad;
}

/* -d: launch the case whatever it expects and check nothing, so that what
 * another platform or tool (Oclgrind) says about a buggy kernel can be
 * compared with SoftGPU's reports (bench/bugs.sh). */
static int diagnose;

static int run_case(struct test_case *tc, const char *base) {
  char path[PATH_MAX + 8];
  struct sg_sample s;
  cl_program prog;
  sg_sample_init_notify(&s, on_notify, NULL);
  if (tc->expect == EXPECT_FAULT && !sg_sample_is_softgpu(&s) && !diagnose) {
    printf("skipped: platform \"%s\" does not isolate device faults\n", s.platform_name);
    sg_sample_finish(&s);
    return EXIT_SKIP;
  }
  if (tc->nreports && !sg_sample_is_softgpu(&s) && !diagnose) {
    printf("skipped: the case checks SoftGPU's reports of undefined behaviour\n");
    sg_sample_finish(&s);
    return EXIT_SKIP;
  }
  if (tc->source[0])
    snprintf(path, sizeof(path), "%s", tc->source);
  else
    snprintf(path, sizeof(path), "%s.cl", base);
  int built = build(&s, tc, path, &prog);
  if (tc->expect == EXPECT_BUILD_FAILURE || !built) {
    if (tc->expect == EXPECT_BUILD_FAILURE)
      printf("%s\n", built ? "FAILED: the build succeeded" : "ok: the build failed as expected");
    clReleaseProgram(prog);
    sg_sample_finish(&s);
    return built || tc->expect != EXPECT_BUILD_FAILURE ? EXIT_MISMATCH : EXIT_OK;
  }

  unsigned char *expected[MAX_ARGS] = {0};
  snprintf(path, sizeof(path), "%s.ref", base);
  for (cl_uint i = 0; i < tc->nargs; i++)
    if (tc->args[i].check) {
      parse_ref(tc, path, expected);
      break;
    }

  cl_kernel k = sg_sample_kernel(prog, tc->kernel);
  set_args(&s, k, tc);
  int enqueue_failed, status = EXIT_MISMATCH;
  cl_int err = launch(&s, k, tc, &enqueue_failed);
  if (diagnose) {
    printf("launched on \"%s\": %s (%d)\n", s.platform_name, error_name(err), (int)err);
    for (int m = 0; m < nmessages; m++)
      printf("report: %s\n", messages[m]);
    return EXIT_OK;
  }
  int ok;
  switch (tc->expect) {
  case EXPECT_ENQUEUE_ERROR:
    ok = enqueue_failed && err == tc->expect_code;
    printf("enqueue returned %s (%d), expected %s\n", error_name(err), (int)err,
           error_name(tc->expect_code));
    status = ok ? EXIT_OK : EXIT_MISMATCH;
    ok = 0; /* nothing ran: nothing to compare */
    break;
  case EXPECT_FAULT:
    ok = err != CL_SUCCESS;
    printf("launch %s (%d)%s\n", ok ? "failed as expected" : "succeeded", (int)err,
           ok ? "" : ", a fault was expected");
    break;
  default:
    ok = err == CL_SUCCESS;
    if (!ok)
      printf("launch failed: %s (%d)\n", error_name(err), (int)err);
    break;
  }

  if (ok) {
    unsigned long bad = sg_sample_is_softgpu(&s) ? check_messages(tc) : 0;
    for (cl_uint i = 0; i < tc->nargs; i++) {
      struct arg *a = &tc->args[i];
      if (!a->check)
        continue;
      unsigned char *got = xmalloc(a->size);
      sg_sample_read(&s, a->mem, a->size, got);
      bad += compare(i, a, got, expected[i]);
      free(got);
    }
    printf("%s: %lu mismatches on \"%s\"\n", bad ? "FAILED" : "ok", bad, s.platform_name);
    status = bad ? EXIT_MISMATCH : EXIT_OK;
  }
  /* Everything is released on every path, so leak checkers see SoftGPU's
   * leaks only. */
  for (cl_uint i = 0; i < tc->nargs; i++) {
    free(expected[i]);
    if (tc->args[i].mem)
      clReleaseMemObject(tc->args[i].mem);
  }
  clReleaseKernel(k);
  clReleaseProgram(prog);
  sg_sample_finish(&s);
  return status;
}

int main(int argc, char **argv) {
  static struct test_case tc;
  int i = 1;
  for (; i < argc - 1 && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "-p") && i + 2 < argc)
      setenv("SOFTGPU_SAMPLE_PLATFORM", argv[++i], 1);
    else if (!strcmp(argv[i], "-d"))
      diagnose = 1;
    else
      break;
  }
  size_t len = i < argc ? strlen(argv[i]) : 0;
  if (i != argc - 1 || len < 5 || strcmp(argv[i] + len - 4, ".run")) {
    fprintf(stderr, "usage: %s [-p PLATFORM] [-d] CASE.run\n", argv[0]);
    return EXIT_BAD_CASE;
  }
  char base[PATH_MAX];
  snprintf(base, sizeof(base), "%.*s", (int)(len - 4), argv[i]);
  parse_run(&tc, argv[i]);
  return run_case(&tc, base);
}
