/* SPDX-License-Identifier: MIT */
/* Kernel printf end to end (docs/printf.md), through the real loader: each
 * kernel's stdout is captured and compared with what the host's snprintf
 * makes of the same formats and values; also return values, ordering over
 * many work-items and a full buffer. */
#include <math.h>
#include <unistd.h>

#include "sg_api_fixture.h"

/* ---- Capturing stdout and stderr ------------------------------------------ */

struct capture {
  int fd, saved;
  FILE *tmp;
};

static void capture_start(struct capture *c, FILE *stream) {
  fflush(stream);
  c->fd = fileno(stream);
  c->tmp = tmpfile();
  assert_non_null(c->tmp);
  c->saved = dup(c->fd);
  dup2(fileno(c->tmp), c->fd);
}

/* Restores the stream; returns what was written (malloc'd). */
static char *capture_end(struct capture *c, FILE *stream) {
  fflush(stream);
  dup2(c->saved, c->fd);
  close(c->saved);
  off_t n = lseek(fileno(c->tmp), 0, SEEK_END);
  char *s = calloc(1, (size_t)n + 1);
  assert_non_null(s);
  assert_int_equal(pread(fileno(c->tmp), s, (size_t)n, 0), n);
  fclose(c->tmp);
  return s;
}

/* Runs kernel name of src over gws work-items (groups of lws, 0 = runtime's
 * choice) with args set by the caller, and returns its stdout. */
static char *run_captured(struct fx *f, cl_kernel k, size_t gws, size_t lws, char **err_out) {
  struct capture out, err;
  capture_start(&out, stdout);
  capture_start(&err, stderr);
  cl_int e = clEnqueueNDRangeKernel(f->q, k, 1, NULL, &gws, lws ? &lws : NULL, 0, NULL, NULL);
  cl_int fin = clFinish(f->q);
  char *errs = capture_end(&err, stderr);
  char *s = capture_end(&out, stdout);
  assert_int_equal(e, CL_SUCCESS);
  assert_int_equal(fin, CL_SUCCESS);
  if (err_out)
    *err_out = errs;
  else
    free(errs);
  return s;
}

/* A growing expected text. */
struct text {
  char buf[1 << 16];
  size_t len;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  t->len += (size_t)vsnprintf(t->buf + t->len, sizeof t->buf - t->len, fmt, ap);
  va_end(ap);
  assert_true(t->len < sizeof t->buf);
}

static void assert_text(const char *got, const struct text *want) {
  if (strcmp(got, want->buf))
    fprintf(stderr, "got:\n%s\nwant:\n%s\n", got, want->buf);
  assert_string_equal(got, want->buf);
}

/* The kernel writes each printf's return value into ret; all must be 0. */
static void assert_returns(struct fx *f, cl_mem ret, size_t n, int want) {
  int *r = calloc(n, sizeof *r);
  fx_read(f, ret, n * sizeof *r, r);
  for (size_t i = 0; i < n; i++)
    assert_int_equal(r[i], want);
  free(r);
}

/* ---- Scalars: every conversion, flags, width and precision ---------------- */

/* The same list builds the kernel's printf calls and the host's reference. */
#define INT_FORMATS(X)                                                                             \
  X("%d")                                                                                          \
  X("%i")                                                                                          \
  X("[%5d]") X("[%-5d]") X("%+d") X("% d") X("[%05d]") X("%.3d") X("[%8.3d]") X("%u") X("%o")      \
      X("%#o") X("%x") X("%#x") X("%X") X("[%#010X]") X("%hd") X("%hu") X("%hhd") X("%hhu")        \
          X("%hhx") X("[%-+6d]") X("%.0d")
#define LONG_FORMATS(X) X("%ld") X("%lu") X("%lx") X("%#lo") X("[%+22ld]") X("%lX")
#define FLOAT_FORMATS(X)                                                                           \
  X("%f")                                                                                          \
  X("%F")                                                                                          \
  X("%.2f") X("[%10.3f]") X("[%-10.1f]") X("%+f") X("% f") X("[%010.2f]") X("%e") X("%E")          \
      X("%.3e") X("[%+12.4E]") X("%g") X("%G") X("%#g") X("%.3g") X("%a") X("%A") X("%.2a")        \
          X("%#.0f") X("%.0e")

#define CALL(fmt) "  r[n++] = printf(\"" fmt "\\n\", x);\n"
static const char *scalar_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void ints(global const int *v, int count, global int *r) {\n"
    "  int n = 0;\n"
    "  for (int i = 0; i < count; i++) { int x = v[i];\n" INT_FORMATS(
        CALL) "  }\n}\n"
              "kernel void longs(global const long *v, int count, global int *r) {\n"
              "  int n = 0;\n"
              "  for (int i = 0; i < count; i++) { long x = v[i];\n" LONG_FORMATS(
                  CALL) "  }\n}\n"
                        "kernel void floats(global const float *v, int count, global int *r) {\n"
                        "  int n = 0;\n"
                        "  for (int i = 0; i < count; i++) { float x = v[i];\n" FLOAT_FORMATS(
                            CALL) "  }\n}\n"
                                  "kernel void doubles(global const double *v, int count, global "
                                  "int *r) {\n"
                                  "  int n = 0;\n"
                                  "  for (int i = 0; i < count; i++) { double x = "
                                  "v[i];\n" FLOAT_FORMATS(CALL) "  }\n}\n";
#define COUNT(fmt) +1

static const int int_values[] = {0,   1,     -1,        42,        -42,      255,
                                 256, 65535, 123456789, INT32_MAX, INT32_MIN};
static const int64_t long_values[] = {0, -1, 1234567890123ll, INT64_MAX, INT64_MIN};
static const float float_values[] = {0.0f,  -0.0f,           1.0f,      -1.5f, 3.14159265f,
                                     1e10f, 1.17549435e-38f, -123.456f, 0.1f,  65504.0f};
static const double double_values[] = {0.0, 1.0 / 3.0, -2.5e-300, 1.7976931348623157e308,
                                       123456.789};

/* Runs kernel name over the n values (elem bytes each); calls printf
 * per_value times per value. */
static char *run_values(struct fx *f, cl_program p, const char *name, const void *values, size_t n,
                        size_t elem, int per_value) {
  cl_kernel k = fx_kernel(p, name);
  cl_mem v = fx_buffer(f, n * elem, values);
  cl_mem r = fx_buffer(f, n * (size_t)per_value * sizeof(int), NULL);
  cl_int count = (cl_int)n;
  fx_arg(k, 0, sizeof v, &v);
  fx_arg(k, 1, sizeof count, &count);
  fx_arg(k, 2, sizeof r, &r);
  char *out = run_captured(f, k, 1, 1, NULL);
  assert_returns(f, r, n * (size_t)per_value, 0);
  clReleaseMemObject(v);
  clReleaseMemObject(r);
  clReleaseKernel(k);
  return out;
}

static void test_scalars(void **state) {
  struct fx *f = *state;
  cl_program p = fx_build(f, scalar_src, NULL);
  static struct text want;
  want.len = 0;
#define ADD(fmt) add(&want, fmt "\n", x);
  for (size_t i = 0; i < sizeof int_values / sizeof int_values[0]; i++) {
    int x = int_values[i];
    INT_FORMATS(ADD)
  }
  char *got = run_values(f, p, "ints", int_values, sizeof int_values / sizeof int_values[0],
                         sizeof(int), 0 INT_FORMATS(COUNT));
  assert_text(got, &want);
  free(got);

  want.len = 0;
  for (size_t i = 0; i < sizeof long_values / sizeof long_values[0]; i++) {
    long x = (long)long_values[i];
    LONG_FORMATS(ADD)
  }
  got = run_values(f, p, "longs", long_values, sizeof long_values / sizeof long_values[0],
                   sizeof(int64_t), 0 LONG_FORMATS(COUNT));
  assert_text(got, &want);
  free(got);

  want.len = 0;
  for (size_t i = 0; i < sizeof float_values / sizeof float_values[0]; i++) {
    double x = float_values[i];
    FLOAT_FORMATS(ADD)
  }
  got = run_values(f, p, "floats", float_values, sizeof float_values / sizeof float_values[0],
                   sizeof(float), 0 FLOAT_FORMATS(COUNT));
  assert_text(got, &want);
  free(got);

  want.len = 0;
  for (size_t i = 0; i < sizeof double_values / sizeof double_values[0]; i++) {
    double x = double_values[i];
    FLOAT_FORMATS(ADD)
  }
  got = run_values(f, p, "doubles", double_values, sizeof double_values / sizeof double_values[0],
                   sizeof(double), 0 FLOAT_FORMATS(COUNT));
  assert_text(got, &want);
  free(got);
  clReleaseProgram(p);
}

/* ---- %c, %s, %%, '*', infinities, %p ---------------------------------------- */

static const char *misc_src =
    "kernel void misc(global int *r, global const float *inf, int w, int prec) {\n"
    "  r[0] = printf(\"%c|%3c|%-3c|%%|100%%\\n\", 'A', 'b', 'c');\n"
    "  r[1] = printf(\"%s|%10s|%-10s|%.3s|%6.2s|\\n\", \"hello\", \"hi\", \"left\", \"truncate\", "
    "\"xyz\");\n"
    "  r[2] = printf(\"[%*d][%-*d][%.*d][%*.*f]\\n\", w, 42, w, 42, prec, 7, w, prec, 2.5f);\n"
    "  r[3] = printf(\"[%*d][%.*f]\\n\", -w, 5, -1, 1.25f);\n"
    "  r[4] = printf(\"%f %F %e %g %f %+f\\n\", inf[0], inf[0], inf[1], inf[0], inf[2], inf[1]);\n"
    "  r[5] = printf(\"no conversions\\n\");\n"
    "  r[6] = printf(\"%p|%s\\n\", r, \"end\");\n"
    "}\n";

static void test_misc(void **state) {
  struct fx *f = *state;
  cl_program p = fx_build(f, misc_src, NULL);
  cl_kernel k = fx_kernel(p, "misc");
  cl_mem r = fx_buffer(f, 7 * sizeof(int), NULL);
  float infs[3] = {INFINITY, -INFINITY, NAN};
  cl_mem inf = fx_buffer(f, sizeof infs, infs);
  cl_int w = 7, prec = 3;
  fx_arg(k, 0, sizeof r, &r);
  fx_arg(k, 1, sizeof inf, &inf);
  fx_arg(k, 2, sizeof w, &w);
  fx_arg(k, 3, sizeof prec, &prec);
  char *got = run_captured(f, k, 1, 1, NULL);
  static struct text want;
  want.len = 0;
  add(&want, "%c|%3c|%-3c|%%|100%%\n", 'A', 'b', 'c');
  add(&want, "%s|%10s|%-10s|%.3s|%6.2s|\n", "hello", "hi", "left", "truncate", "xyz");
  add(&want, "[%*d][%-*d][%.*d][%*.*f]\n", w, 42, w, 42, prec, 7, w, prec, 2.5);
  add(&want, "[%*d][%.*f]\n", -w, 5, -1, 1.25);
  add(&want, "%f %F %e %g %f %+f\n", (double)infs[0], (double)infs[0], (double)infs[1],
      (double)infs[0], (double)infs[2], (double)infs[1]);
  add(&want, "no conversions\n");
  /* %p: the shape of the host's %p (the device address is not known here). */
  char *last = strrchr(got, '\n');
  assert_non_null(last);
  *last = 0;
  char *line = strrchr(got, '\n') + 1;
  assert_true(line[0] == '0' && line[1] == 'x');
  size_t hex = strspn(line + 2, "0123456789abcdef");
  assert_true(hex > 0);
  assert_string_equal(line + 2 + hex, "|end");
  *line = 0;
  assert_text(got, &want);
  assert_returns(f, r, 7, 0);
  free(got);
  clReleaseMemObject(r);
  clReleaseMemObject(inf);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* ---- Vectors ------------------------------------------------------------------ */

static const char *vector_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "kernel void vec(global const float *fv, global const int *iv, global int *r) {\n"
    "  float4 f4 = vload4(0, fv); float8 f8 = vload8(0, fv); float3 f3 = vload3(0, fv);\n"
    "  int2 i2 = vload2(0, iv); int16 i16 = vload16(0, iv);\n"
    "  r[0] = printf(\"%v4hlf\\n\", f4);\n"
    "  r[1] = printf(\"%v2hld|%v2hlx\\n\", i2, i2);\n"
    "  r[2] = printf(\"%v8hhx\\n\", convert_uchar8(vload8(0, iv)));\n"
    "  r[3] = printf(\"%v3hlf\\n\", f3);\n"
    "  r[4] = printf(\"%v16hld\\n\", i16);\n"
    "  r[5] = printf(\"%v2lf\\n\", convert_double2(f4.s01));\n"
    "  r[6] = printf(\"%v4hd\\n\", convert_short4(vload4(0, iv)));\n"
    "  r[7] = printf(\"%v2ld\\n\", convert_long2(i2) * 1000000000000l);\n"
    "  r[8] = printf(\"[%8.2v4hlf]\\n\", f4);\n"
    "  r[9] = printf(\"%#v4hlx\\n\", vload4(0, iv));\n"
    "  r[10] = printf(\"%v8hle\\n\", f8);\n"
    "  r[11] = printf(\"%v16hhd\\n\", convert_char16(i16));\n"
    "  r[12] = printf(\"%v4f\\n\", f4);\n"
    /* no cl_khr_fp16: half lanes given as their bits */
    "  r[13] = printf(\"%v2hf\\n\", (ushort2)(0x3C00, 0xC500));\n"
    "}\n";

static void add_lanes(struct text *t, const char *elem_fmt, const double *v, int n) {
  for (int i = 0; i < n; i++) {
    if (i)
      add(t, ",");
    add(t, elem_fmt, v[i]);
  }
}

static void add_ilanes(struct text *t, const char *elem_fmt, const long long *v, int n) {
  for (int i = 0; i < n; i++) {
    if (i)
      add(t, ",");
    add(t, elem_fmt, v[i]);
  }
}

static double half_bits_to_double(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v = e ? ldexp(1 + m / 1024.0, e - 15) : ldexp(m / 1024.0, -14);
  return h & 0x8000 ? -v : v;
}

static void test_vectors(void **state) {
  struct fx *f = *state;
  cl_program p = fx_build(f, vector_src, NULL);
  cl_kernel k = fx_kernel(p, "vec");
  float fv[8] = {1.5f, -2.25f, 3.0f, 1e6f, 0.125f, -7.0f, 8.5f, 100.0f};
  int iv[16] = {1, -2, 300, -40000, 5, 6, 7, 255, -1, 10, 11, 12, 13, 14, 15, 2147483647};
  cl_mem fm = fx_buffer(f, sizeof fv, fv), im = fx_buffer(f, sizeof iv, iv);
  cl_mem r = fx_buffer(f, 14 * sizeof(int), NULL);
  fx_arg(k, 0, sizeof fm, &fm);
  fx_arg(k, 1, sizeof im, &im);
  fx_arg(k, 2, sizeof r, &r);
  char *got = run_captured(f, k, 1, 1, NULL);

  static struct text want;
  want.len = 0;
  double d[16];
  long long l[16];
  for (int i = 0; i < 8; i++)
    d[i] = fv[i];
  add_lanes(&want, "%f", d, 4), add(&want, "\n");
  for (int i = 0; i < 16; i++)
    l[i] = iv[i];
  add_ilanes(&want, "%lld", l, 2), add(&want, "|");
  for (int i = 0; i < 2; i++)
    l[i] = (unsigned)iv[i];
  add_ilanes(&want, "%llx", l, 2), add(&want, "\n");
  for (int i = 0; i < 8; i++)
    l[i] = (unsigned char)iv[i];
  add_ilanes(&want, "%llx", l, 8), add(&want, "\n");
  add_lanes(&want, "%f", d, 3), add(&want, "\n");
  for (int i = 0; i < 16; i++)
    l[i] = iv[i];
  add_ilanes(&want, "%lld", l, 16), add(&want, "\n");
  add_lanes(&want, "%f", d, 2), add(&want, "\n");
  for (int i = 0; i < 4; i++)
    l[i] = (short)iv[i];
  add_ilanes(&want, "%lld", l, 4), add(&want, "\n");
  for (int i = 0; i < 2; i++)
    l[i] = iv[i] * 1000000000000ll;
  add_ilanes(&want, "%lld", l, 2), add(&want, "\n");
  add(&want, "["), add_lanes(&want, "%8.2f", d, 4), add(&want, "]\n");
  for (int i = 0; i < 4; i++)
    l[i] = (unsigned)iv[i];
  add_ilanes(&want, "%#llx", l, 4), add(&want, "\n");
  add_lanes(&want, "%e", d, 8), add(&want, "\n");
  for (int i = 0; i < 16; i++)
    l[i] = (signed char)iv[i];
  add_ilanes(&want, "%lld", l, 16), add(&want, "\n");
  add_lanes(&want, "%f", d, 4), add(&want, "\n");
  double hd[2] = {half_bits_to_double(0x3C00), half_bits_to_double(0xC500)};
  add_lanes(&want, "%f", hd, 2), add(&want, "\n");

  assert_text(got, &want);
  assert_returns(f, r, 14, 0);
  free(got);
  clReleaseMemObject(fm);
  clReleaseMemObject(im);
  clReleaseMemObject(r);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* ---- Many work-items: program order, grouping, determinism ------------------ */

static const char *many_src =
    "kernel void many(global int *r) {\n"
    "  int g = get_global_id(0);\n"
    "  r[2 * g] = printf(\"a %d %d\\n\", g, (int)get_group_id(0));\n"
    "  if (g % 3 == 0)\n"
    "    r[2 * g + 1] = printf(\"b %d %d\\n\", g, (int)get_group_id(0));\n"
    "  else\n"
    "    r[2 * g + 1] = 0;\n"
    "}\n";

static void test_many_work_items(void **state) {
  struct fx *f = *state;
  enum { N = 1000, L = 40 }; /* 25 groups of 40: warps partly masked */
  cl_program p = fx_build(f, many_src, NULL);
  cl_kernel k = fx_kernel(p, "many");
  cl_mem r = fx_buffer(f, 2 * N * sizeof(int), NULL);
  fx_arg(k, 0, sizeof r, &r);
  char *first = run_captured(f, k, N, L, NULL);
  /* Every line once; a work-item's "a" before its "b"; groups in order. */
  static int seen_a[N], seen_b[N];
  memset(seen_a, 0, sizeof seen_a);
  memset(seen_b, 0, sizeof seen_b);
  int last_group = 0, lines = 0;
  for (char *s = first; *s; s = strchr(s, '\n') + 1, lines++) {
    char kind;
    int g, grp;
    assert_int_equal(sscanf(s, "%c %d %d", &kind, &g, &grp), 3);
    assert_true(g >= 0 && g < N);
    assert_int_equal(grp, g / L);
    assert_true(grp >= last_group);
    last_group = grp;
    if (kind == 'a') {
      assert_int_equal(seen_a[g]++, 0);
    } else {
      assert_int_equal(kind, 'b');
      assert_int_equal(seen_a[g], 1);
      assert_int_equal(seen_b[g]++, 0);
    }
  }
  assert_int_equal(lines, N + (N + 2) / 3);
  assert_returns(f, r, 2 * N, 0);
  /* The same output again, whatever the host threads did. */
  char *second = run_captured(f, k, N, L, NULL);
  assert_string_equal(first, second);
  free(first);
  free(second);
  clReleaseMemObject(r);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* ---- A full buffer -------------------------------------------------------------- */

static const char *full_src = "kernel void full(global int *r) {\n"
                              "  int g = get_global_id(0);\n"
                              "  r[g] = printf(\"item %d\\n\", g);\n"
                              "}\n";

static void test_full_buffer(void **state) {
  struct fx *f = *state;
  size_t size = 0;
  assert_int_equal(
      clGetDeviceInfo(f->device, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof size, &size, NULL),
      CL_SUCCESS);
  assert_true(size >= 1024 * 1024); /* the OpenCL 1.2 full-profile minimum */
  /* More calls than the buffer can hold: each record is at least its
   * argument and a format address. */
  size_t n = size / 16 + 1000;
  cl_program p = fx_build(f, full_src, NULL);
  cl_kernel k = fx_kernel(p, "full");
  cl_mem r = fx_buffer(f, n * sizeof(int), NULL);
  fx_arg(k, 0, sizeof r, &r);
  char *errs;
  char *got = run_captured(f, k, n, 0, &errs);
  int *ret = calloc(n, sizeof *ret);
  char *printed = calloc(n, 1);
  fx_read(f, r, n * sizeof *ret, ret);
  size_t lines = 0, failed = 0;
  for (char *s = got; *s; s = strchr(s, '\n') + 1, lines++) {
    unsigned g;
    assert_int_equal(sscanf(s, "item %u", &g), 1);
    assert_true(g < n);
    assert_int_equal(ret[g], 0);
    assert_int_equal(printed[g]++, 0);
  }
  for (size_t i = 0; i < n; i++) {
    assert_true(ret[i] == 0 || ret[i] == -1);
    failed += ret[i] == -1;
    assert_int_equal(printed[i], ret[i] == 0); /* every successful call printed */
  }
  assert_true(failed > 0);
  assert_int_equal(lines + failed, n);
  char want[128];
  snprintf(want, sizeof want, "%zu printf calls were dropped", failed);
  if (!strstr(errs, want))
    fprintf(stderr, "stderr: %s\n", errs);
  assert_non_null(strstr(errs, want));
  const char *once = strstr(errs, "dropped");
  assert_null(strstr(once + 1, "dropped"));
  free(got);
  free(errs);
  free(ret);
  free(printed);
  clReleaseMemObject(r);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

/* ---- printf in helpers, __constant strings, separate compilation ------------ */

static const char *lib_src = "constant char greeting[] = \"from a constant array\";\n"
                             "int say(int x) { return printf(\"%s %d\\n\", greeting, x); }\n";
static const char *user_src =
    "int say(int x);\n"
    "kernel void user(global int *r) { r[0] = say(7); r[1] = say(-7); }\n";

/* Runs kernel "user" of p and checks its output and return values. */
static void check_user(struct fx *f, cl_program p) {
  cl_kernel k = fx_kernel(p, "user");
  cl_mem r = fx_buffer(f, 2 * sizeof(int), NULL);
  fx_arg(k, 0, sizeof r, &r);
  char *got = run_captured(f, k, 1, 1, NULL);
  assert_string_equal(got, "from a constant array 7\nfrom a constant array -7\n");
  assert_returns(f, r, 2, 0);
  free(got);
  clReleaseMemObject(r);
  clReleaseKernel(k);
}

static void test_helpers_and_linking(void **state) {
  struct fx *f = *state;
  char src[1024];
  snprintf(src, sizeof src, "%s%s", lib_src, user_src);
  cl_program whole = fx_build(f, src, NULL);
  check_user(f, whole);
  clReleaseProgram(whole);
  /* printf in a separately compiled object: lowered when the link builds. */
  cl_int err;
  cl_program objs[2];
  const char *srcs[2] = {lib_src, user_src};
  for (int i = 0; i < 2; i++) {
    objs[i] = clCreateProgramWithSource(f->ctx, 1, &srcs[i], NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clCompileProgram(objs[i], 1, &f->device, NULL, 0, NULL, NULL, NULL, NULL),
                     CL_SUCCESS);
  }
  cl_program linked = clLinkProgram(f->ctx, 1, &f->device, NULL, 2, objs, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  check_user(f, linked);
  clReleaseProgram(linked);
  clReleaseProgram(objs[0]);
  clReleaseProgram(objs[1]);
}

/* ---- Build errors ---------------------------------------------------------------- */

static void test_bad_formats(void **state) {
  struct fx *f = *state;
  static const char *bad[] = {
      "kernel void k(global int *r) { float4 v = 0; r[0] = printf(\"%v5hlf\\n\", v); }",
      "kernel void k(global int *r) { r[0] = printf(\"%d %d\\n\", 1); }",
      "kernel void k(global int *r) { float2 v = 0; r[0] = printf(\"%v16hlf\\n\", v); }",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cl_int err;
    cl_program p = clCreateProgramWithSource(f->ctx, 1, &bad[i], NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clBuildProgram(p, 0, NULL, "-w", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[4096] = "";
    clGetProgramBuildInfo(p, f->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    assert_non_null(strstr(log, "printf"));
    clReleaseProgram(p);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scalars),
      cmocka_unit_test(test_misc),
      cmocka_unit_test(test_vectors),
      cmocka_unit_test(test_many_work_items),
      cmocka_unit_test(test_full_buffer),
      cmocka_unit_test(test_bad_formats),
      cmocka_unit_test(test_helpers_and_linking),
  };
  return cmocka_run_group_tests(tests, fx_setup, fx_teardown);
}
