/* SPDX-License-Identifier: MIT */
/* cli/: `softgpu kernel`, one kernel run from the command line like
 * Oclgrind's oclgrind-kernel, through the OpenCL API on SoftGPU alone:
 * each argument comes from a spec (a value, a buffer filled from a pattern
 * or a file, local memory), checked against the kernel's signature
 * (clGetKernelArgInfo, -cl-kernel-arg-info); buffers marked for output are
 * printed or written after the launch, with the kernel's time. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sg_cli.h"

#define MAX_FILE (1ull << 32)
#define MAX_BUFFER (1ull << 34)

/* ---- Types -------------------------------------------------------------- */

struct scalar_type {
  const char *name;
  unsigned size;
  char cls; /* 'i' signed, 'u' unsigned, 'f' floating point */
};
static const struct scalar_type scalars[] = {
    {"char", 1, 'i'}, {"uchar", 1, 'u'}, {"short", 2, 'i'}, {"ushort", 2, 'u'}, {"int", 4, 'i'},
    {"uint", 4, 'u'}, {"long", 8, 'i'},  {"ulong", 8, 'u'}, {"float", 4, 'f'},  {"double", 8, 'f'},
};
/* Other spellings of those types in kernel signatures. */
static const struct {
  const char *alias, *name;
} aliases[] = {
    {"unsigned char", "uchar"}, {"unsigned short", "ushort"}, {"unsigned int", "uint"},
    {"unsigned long", "ulong"}, {"signed char", "char"},      {"size_t", "ulong"},
    {"uintptr_t", "ulong"},     {"ptrdiff_t", "long"},        {"intptr_t", "long"},
};

/* A scalar or vector type: float, int4, ... (3-element vectors take 4). */
struct cl_type {
  const struct scalar_type *scalar;
  unsigned lanes;   /* 1, 2, 3, 4, 8, 16 */
  unsigned storage; /* elements in memory: lanes, 4 for 3 */
};

static bool parse_type(const char *s, size_t len, struct cl_type *t) {
  char name[48];
  if (len >= sizeof name)
    return false;
  memcpy(name, s, len);
  name[len] = '\0';
  for (unsigned i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
    if (!strcmp(name, aliases[i].alias))
      snprintf(name, sizeof name, "%s", aliases[i].name);
  len = strlen(name);
  size_t base = len;
  while (base && name[base - 1] >= '0' && name[base - 1] <= '9')
    base--;
  unsigned lanes = base < len ? (unsigned)atoi(name + base) : 1;
  if (base < len && lanes != 2 && lanes != 3 && lanes != 4 && lanes != 8 && lanes != 16)
    return false;
  for (unsigned i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
    if (strlen(scalars[i].name) == base && !strncmp(name, scalars[i].name, base)) {
      *t = (struct cl_type){&scalars[i], lanes, lanes == 3 ? 4 : lanes};
      return true;
    }
  return false;
}

static size_t type_size(const struct cl_type *t) {
  return (size_t)t->scalar->size * t->storage;
}

static void type_text(const struct cl_type *t, char *buf, size_t len) {
  if (t->lanes == 1)
    snprintf(buf, len, "%s", t->scalar->name);
  else
    snprintf(buf, len, "%s%u", t->scalar->name, t->lanes);
}

/* One scalar of type t from text into dst (t->scalar->size bytes). */
static bool parse_scalar(const struct scalar_type *t, const char *s, void *dst) {
  char *end;
  errno = 0;
  if (t->cls == 'f') { /* overflow is an error; "inf" and "nan" are values */
    double d = strtod(s, &end);
    if (end == s || *end || (errno == ERANGE && isinf(d)) ||
        (t->size == 4 && isfinite(d) && isinf((float)d)))
      return false;
    if (t->size == 4) {
      float f = (float)d;
      memcpy(dst, &f, 4);
    } else {
      memcpy(dst, &d, 8);
    }
    return true;
  }
  /* Decimal or 0x hex; never octal, so "010" is ten. */
  int base = !strncmp(s + (*s == '-'), "0x", 2) || !strncmp(s + (*s == '-'), "0X", 2) ? 16 : 10;
  uint64_t bits;
  if (t->cls == 'i') {
    long long v = strtoll(s, &end, base);
    long long lim = t->size == 8 ? INT64_MAX : (1ll << (t->size * 8 - 1)) - 1;
    if (end == s || *end || errno || v > lim || v < -lim - 1)
      return false;
    bits = (uint64_t)v;
  } else {
    if (*s == '-')
      return false;
    unsigned long long v = strtoull(s, &end, base);
    if (end == s || *end || errno || (t->size < 8 && v >> (t->size * 8)))
      return false;
    bits = v;
  }
  memcpy(dst, &bits, t->size); /* little-endian host */
  return true;
}

/* Element i of a scalar array as double / 64-bit integer, for patterns. */
static void store_number(const struct scalar_type *t, void *dst, double d, int64_t n) {
  if (t->cls == 'f') {
    if (t->size == 4) {
      float f = (float)d;
      memcpy(dst, &f, 4);
    } else {
      memcpy(dst, &d, 8);
    }
  } else {
    memcpy(dst, &n, t->size);
  }
}

static void print_scalar(const struct scalar_type *t, const void *src) {
  if (t->cls == 'f') {
    double d;
    if (t->size == 4) {
      float f;
      memcpy(&f, src, 4);
      d = f;
      printf("%.9g", d);
    } else {
      memcpy(&d, src, 8);
      printf("%.17g", d);
    }
    return;
  }
  uint64_t u = 0;
  memcpy(&u, src, t->size);
  if (t->cls == 'u') {
    printf("%" PRIu64, u);
  } else {
    unsigned shift = 64 - t->size * 8;
    printf("%" PRId64, (int64_t)(u << shift) >> shift);
  }
}

/* ---- Argument specs ------------------------------------------------------ */

enum spec_kind { SPEC_VALUE, SPEC_BUFFER, SPEC_LOCAL, SPEC_NULL };
enum fill { FILL_ZERO, FILL_VALUE, FILL_RANGE, FILL_RAND, FILL_FILE };

struct spec {
  const char *text;
  enum spec_kind kind;
  struct cl_type type;
  uint64_t count; /* buffer elements; 0 with file=: from the file's size */
  uint64_t local_bytes;
  enum fill fill;
  char *fill_value; /* fill=: the value's text */
  double range_start, range_step;
  uint64_t seed;
  const char *in_path, *out_path;
  bool dump;
  unsigned char *data; /* SPEC_VALUE: the bytes; SPEC_BUFFER: contents */
  size_t size;
  cl_mem mem;
};

static int bad_spec(const struct spec *s, unsigned i, const char *why) {
  return sg_cli_error(SG_EXIT_USAGE, "kernel", "--arg %u '%s': %s", i, s->text, why);
}

static bool parse_double(const char *s, double *out) {
  char *end;
  *out = strtod(s, &end);
  return end != s && !*end;
}

/* TYPE[COUNT] and its ":option" list. */
static int parse_buffer_spec(struct spec *s, unsigned i, const char *bracket) {
  s->kind = SPEC_BUFFER;
  const char *close = strchr(bracket, ']');
  if (!close)
    return bad_spec(s, i, "missing ']' after the element count");
  if (!parse_type(s->text, (size_t)(bracket - s->text), &s->type))
    return bad_spec(s, i,
                    "unknown element type (char, uchar, short, ushort, int, uint, long, "
                    "ulong, float, double, or a vector of them: float4, ...)");
  char count[32] = "";
  if ((size_t)(close - bracket - 1) >= sizeof count)
    return bad_spec(s, i, "element count too long");
  memcpy(count, bracket + 1, (size_t)(close - bracket - 1));
  if (*count && !sg_cli_parse_u64(count, 1, MAX_BUFFER / type_size(&s->type), &s->count))
    return bad_spec(s, i, "the element count must be a number from 1 (at most 16 GiB in all)");
  for (const char *o = close + 1; *o;) {
    if (*o != ':')
      return bad_spec(s, i, "expected ':' after ']' and between options");
    o++;
    size_t n = strcspn(o, ":");
    char opt[4096];
    if (n >= sizeof opt)
      return bad_spec(s, i, "option too long");
    memcpy(opt, o, n);
    opt[n] = '\0';
    o += n;
    char *eq = strchr(opt, '=');
    const char *val = eq ? eq + 1 : NULL;
    if (eq)
      *eq = '\0';
    if (s->fill != FILL_ZERO && (!strcmp(opt, "fill") || !strcmp(opt, "range") ||
                                 !strcmp(opt, "rand") || !strcmp(opt, "file")))
      return bad_spec(s, i, "more than one of fill, range, rand and file");
    if (!strcmp(opt, "fill") && val) {
      s->fill = FILL_VALUE;
      unsigned char tmp[8];
      if (!parse_scalar(s->type.scalar, val, tmp))
        return bad_spec(s, i, "fill= value is not a valid element");
      if (!(s->fill_value = strdup(val)))
        return sg_cli_error(SG_EXIT_INPUT, "kernel", "out of memory");
    } else if (!strcmp(opt, "range")) {
      s->fill = FILL_RANGE;
      s->range_start = 0, s->range_step = 1;
      char *comma = val ? strchr(val, ',') : NULL;
      if (comma)
        *comma = '\0';
      if (val && (!parse_double(val, &s->range_start) ||
                  (comma && !parse_double(comma + 1, &s->range_step))))
        return bad_spec(s, i, "range=START[,STEP] takes numbers");
    } else if (!strcmp(opt, "rand")) {
      s->fill = FILL_RAND;
      s->seed = 1;
      if (val && !sg_cli_parse_u64(val, 0, UINT64_MAX, &s->seed))
        return bad_spec(s, i, "rand=SEED takes an unsigned number");
    } else if (!strcmp(opt, "file") && val && *val) {
      s->fill = FILL_FILE;
      if (!(s->in_path = strdup(val)))
        return sg_cli_error(SG_EXIT_INPUT, "kernel", "out of memory");
    } else if (!strcmp(opt, "dump") && !val) {
      s->dump = true;
    } else if (!strcmp(opt, "out") && val && *val) {
      if (!(s->out_path = strdup(val)))
        return sg_cli_error(SG_EXIT_INPUT, "kernel", "out of memory");
    } else {
      return bad_spec(s, i,
                      "unknown buffer option (fill=V, range[=START[,STEP]], "
                      "rand[=SEED], file=PATH, dump, out=PATH)");
    }
  }
  if (!s->count && s->fill != FILL_FILE)
    return bad_spec(s, i,
                    "give the element count (TYPE[COUNT]), or file=PATH to take it from "
                    "the file");
  return SG_EXIT_OK;
}

static int parse_spec(struct spec *s, unsigned i) {
  const char *t = s->text;
  if (!strcmp(t, "null")) {
    s->kind = SPEC_NULL;
    return SG_EXIT_OK;
  }
  if (!strncmp(t, "local:", 6)) {
    s->kind = SPEC_LOCAL;
    if (!sg_cli_parse_u64(t + 6, 1, UINT32_MAX, &s->local_bytes))
      return bad_spec(s, i, "local:BYTES takes a number of bytes, at least 1");
    return SG_EXIT_OK;
  }
  const char *bracket = strchr(t, '['), *colon = strchr(t, ':');
  if (bracket && (!colon || bracket < colon))
    return parse_buffer_spec(s, i, bracket);
  if (!colon)
    return bad_spec(s, i, "expected TYPE:VALUE, TYPE[COUNT][:OPTIONS], local:BYTES or null");
  s->kind = SPEC_VALUE;
  if (!parse_type(t, (size_t)(colon - t), &s->type))
    return bad_spec(s, i,
                    "unknown type (char, uchar, short, ushort, int, uint, long, ulong, "
                    "float, double, or a vector of them: float4, ...)");
  s->size = type_size(&s->type);
  s->data = calloc(1, s->size);
  if (!s->data)
    return sg_cli_error(SG_EXIT_INPUT, "kernel", "out of memory");
  /* One value for every element, or one per element. */
  char values[4096];
  snprintf(values, sizeof values, "%s", colon + 1);
  unsigned n = 0;
  size_t esize = s->type.scalar->size;
  for (char *v = values, *next; v; v = next, n++) {
    next = strchr(v, ',');
    if (next)
      *next++ = '\0';
    if (n == s->type.lanes)
      return bad_spec(s, i, "more values than vector elements");
    if (!parse_scalar(s->type.scalar, v, s->data + n * esize))
      return bad_spec(s, i, "the value is not a valid number of that type");
  }
  if (n == 1)
    for (unsigned l = 1; l < s->type.lanes; l++)
      memcpy(s->data + l * esize, s->data, esize);
  else if (n != s->type.lanes)
    return bad_spec(s, i, "give one value, or one per vector element");
  return SG_EXIT_OK;
}

/* splitmix64: a fixed, documented sequence, so rand=SEED is reproducible. */
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Fills the host copy of a buffer spec. */
static int fill_buffer(struct spec *s, unsigned i) {
  size_t esize = s->type.scalar->size;
  if (s->fill == FILL_FILE) {
    size_t size;
    char *bytes = sg_cli_read_file(s->in_path, MAX_FILE, &size);
    if (!bytes)
      return sg_cli_error(SG_EXIT_INPUT, "kernel", "--arg %u: cannot read %s: %s", i, s->in_path,
                          strerror(errno));
    size_t want = s->count * type_size(&s->type);
    if (!s->count && (size == 0 || size % type_size(&s->type))) {
      free(bytes);
      return sg_cli_error(SG_EXIT_INPUT, "kernel",
                          "--arg %u: %s has %zu bytes, not a whole number of %zu-byte elements", i,
                          s->in_path, size, type_size(&s->type));
    }
    if (s->count && size != want) {
      free(bytes);
      return sg_cli_error(SG_EXIT_INPUT, "kernel", "--arg %u: %s has %zu bytes, the buffer %zu", i,
                          s->in_path, size, want);
    }
    s->count = size / type_size(&s->type);
    s->data = (unsigned char *)bytes;
    s->size = size;
    return SG_EXIT_OK;
  }
  s->size = s->count * type_size(&s->type);
  s->data = calloc(1, s->size);
  if (!s->data)
    return sg_cli_error(SG_EXIT_INPUT, "kernel", "--arg %u: cannot allocate %zu bytes", i, s->size);
  uint64_t state = s->seed;
  size_t n = s->count * s->type.storage;
  unsigned char value[8];
  if (s->fill == FILL_VALUE)
    parse_scalar(s->type.scalar, s->fill_value, value); /* checked when parsed */
  for (size_t k = 0; k < n; k++) {
    unsigned char *dst = s->data + k * esize;
    double d = s->range_start + (double)k * s->range_step;
    uint64_t r;
    switch (s->fill) {
    case FILL_VALUE: memcpy(dst, value, esize); break;
    case FILL_RANGE: store_number(s->type.scalar, dst, d, (int64_t)d); break;
    case FILL_RAND:
      r = next_random(&state);
      store_number(s->type.scalar, dst, (double)(r >> 11) * 0x1p-53, (int64_t)r);
      break;
    default: break;
    }
  }
  return SG_EXIT_OK;
}

/* ---- Checking specs against the kernel's signature ----------------------- */

struct param {
  char name[128];
  char type_name[128];
  cl_kernel_arg_address_qualifier address;
  cl_kernel_arg_type_qualifier qualifiers;
};

static const char *spec_kind_text(const struct spec *s) {
  static const char *const t[] = {"a value", "a buffer", "local memory", "a null buffer"};
  return t[s->kind];
}

static int check_spec(const struct spec *s, unsigned i, const struct param *p) {
  char want[400], param[320], got[48];
  sg_cli_param_text(param, sizeof param, p->address, CL_KERNEL_ARG_ACCESS_NONE, p->qualifiers,
                    p->type_name, p->name);
  snprintf(want, sizeof want, "argument %u (%s)", i, param);
  size_t n = strlen(p->type_name);
  bool pointer = n && p->type_name[n - 1] == '*';
  struct cl_type kt;
  bool known = parse_type(p->type_name, pointer ? n - 1 : n, &kt);
  char kernel_type[48] = "";
  if (known)
    type_text(&kt, kernel_type, sizeof kernel_type);
  if (s->kind != SPEC_NULL && s->kind != SPEC_LOCAL)
    type_text(&s->type, got, sizeof got);
  switch (p->address) {
  case CL_KERNEL_ARG_ADDRESS_GLOBAL:
  case CL_KERNEL_ARG_ADDRESS_CONSTANT:
    if (s->kind != SPEC_BUFFER && s->kind != SPEC_NULL)
      break;
    /* Pointers to structs, typedefs or void take any element type. */
    if (s->kind == SPEC_BUFFER && known && strcmp(got, kernel_type))
      return sg_cli_error(SG_EXIT_USAGE, "kernel", "--arg %u '%s': %s points to %s, not %s", i,
                          s->text, want, kernel_type, got);
    return SG_EXIT_OK;
  case CL_KERNEL_ARG_ADDRESS_LOCAL:
    if (s->kind != SPEC_LOCAL)
      break;
    return SG_EXIT_OK;
  default:
    if (s->kind != SPEC_VALUE)
      break;
    if (!known)
      return sg_cli_error(SG_EXIT_USAGE, "kernel",
                          "--arg %u '%s': %s has a type the command line cannot give", i, s->text,
                          want);
    if (strcmp(got, kernel_type))
      return sg_cli_error(SG_EXIT_USAGE, "kernel", "--arg %u '%s': %s takes %s, not %s", i, s->text,
                          want, kernel_type, got);
    return SG_EXIT_OK;
  }
  static const char *const needs[] = {"a buffer (TYPE[COUNT]...) or null", "local:BYTES",
                                      "a value (TYPE:VALUE)"};
  int need = p->address == CL_KERNEL_ARG_ADDRESS_LOCAL     ? 1
             : p->address == CL_KERNEL_ARG_ADDRESS_PRIVATE ? 2
                                                           : 0;
  return sg_cli_error(SG_EXIT_USAGE, "kernel", "--arg %u '%s' is %s, but %s takes %s", i, s->text,
                      spec_kind_text(s), want, needs[need]);
}

/* ---- The run ------------------------------------------------------------- */

struct run {
  const char *file, *kernel_name;
  char *only_kernel; /* the program's one kernel, when --kernel is not given */
  cl_uint dims;
  size_t global[3], local[3], offset[3];
  bool has_local, has_offset;
  struct spec *specs;
  unsigned nspecs;
  char **build_words;
  int nbuild;
  struct sg_cli_settings settings;
  struct sg_cli_cl cl;
  cl_program program;
  cl_kernel kernel;
};

/* "X[,Y[,Z]]" into 1-3 sizes. */
static bool parse_sizes(const char *s, size_t out[3], cl_uint *dims) {
  cl_uint d = 0;
  while (d < 3) {
    char num[32];
    size_t n = strcspn(s, ",");
    uint64_t v;
    if (n == 0 || n >= sizeof num)
      return false;
    memcpy(num, s, n);
    num[n] = '\0';
    if (!sg_cli_parse_u64(num, 0, SIZE_MAX, &v))
      return false;
    out[d++] = (size_t)v;
    s += n;
    if (!*s)
      break;
    s++;
  }
  *dims = d;
  return !*s;
}

static int pick_kernel(struct run *r) {
  cl_uint n = 0;
  cl_int err = clCreateKernelsInProgram(r->program, 0, NULL, &n);
  if (err)
    return sg_cli_cl_fail("kernel", "clCreateKernelsInProgram", err);
  char *names = sg_cli_cl_kernel_names(r->program);
  if (!names)
    return sg_cli_error(SG_EXIT_INPUT, "kernel", "out of memory");
  int rc = SG_EXIT_OK;
  if (!r->kernel_name && n != 1)
    rc = sg_cli_error(SG_EXIT_USAGE, "kernel", "%s has %u kernels (%s): choose one with --kernel",
                      r->file, n, *names ? names : "none");
  else if (!r->kernel_name && !(r->kernel_name = r->only_kernel = strdup(names)))
    rc = sg_cli_error(SG_EXIT_INPUT, "kernel", "out of memory");
  if (rc == SG_EXIT_OK) {
    r->kernel = clCreateKernel(r->program, r->kernel_name, &err);
    if (err == CL_INVALID_KERNEL_NAME)
      rc = sg_cli_error(SG_EXIT_USAGE, "kernel", "%s has no kernel '%s' (kernels: %s)", r->file,
                        r->kernel_name, names);
    else if (err)
      rc = sg_cli_cl_fail("kernel", "clCreateKernel", err);
  }
  free(names);
  return rc;
}

static int set_args(struct run *r) {
  cl_uint nargs;
  cl_int err = clGetKernelInfo(r->kernel, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
  if (err)
    return sg_cli_cl_fail("kernel", "clGetKernelInfo", err);
  if (nargs != r->nspecs)
    return sg_cli_error(SG_EXIT_USAGE, "kernel",
                        "kernel '%s' takes %u argument%s, %u given (--arg)", r->kernel_name, nargs,
                        nargs == 1 ? "" : "s", r->nspecs);
  for (unsigned i = 0; i < nargs; i++) {
    struct param p = {0};
    struct spec *s = &r->specs[i];
    if ((err = clGetKernelArgInfo(r->kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof p.address,
                                  &p.address, NULL)) ||
        (err = clGetKernelArgInfo(r->kernel, i, CL_KERNEL_ARG_TYPE_NAME, sizeof p.type_name,
                                  p.type_name, NULL)) ||
        (err = clGetKernelArgInfo(r->kernel, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof p.qualifiers,
                                  &p.qualifiers, NULL)))
      return sg_cli_cl_fail("kernel", "clGetKernelArgInfo", err);
    if (clGetKernelArgInfo(r->kernel, i, CL_KERNEL_ARG_NAME, sizeof p.name, p.name, NULL))
      p.name[0] = '\0'; /* a binary built without -cl-kernel-arg-info */
    int rc = check_spec(s, i, &p);
    if (rc != SG_EXIT_OK)
      return rc;
    if (s->kind == SPEC_BUFFER && (rc = fill_buffer(s, i)) != SG_EXIT_OK)
      return rc;
    switch (s->kind) {
    case SPEC_VALUE: err = clSetKernelArg(r->kernel, i, s->size, s->data); break;
    case SPEC_LOCAL: err = clSetKernelArg(r->kernel, i, (size_t)s->local_bytes, NULL); break;
    case SPEC_NULL: err = clSetKernelArg(r->kernel, i, sizeof(cl_mem), NULL); break;
    case SPEC_BUFFER:
      s->mem = clCreateBuffer(
          r->cl.context,
          (p.address == CL_KERNEL_ARG_ADDRESS_CONSTANT ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE) |
              CL_MEM_COPY_HOST_PTR,
          s->size, s->data, &err);
      if (!err)
        err = clSetKernelArg(r->kernel, i, sizeof s->mem, &s->mem);
      break;
    }
    if (err)
      return sg_cli_error(SG_EXIT_DEVICE, "kernel", "--arg %u '%s': %s", i, s->text,
                          sg_error_name(err));
  }
  return SG_EXIT_OK;
}

static void dump(const struct spec *s, unsigned i) {
  char type[48];
  type_text(&s->type, type, sizeof type);
  printf("arg %u: %s[%" PRIu64 "]\n", i, type, s->count);
  const struct scalar_type *t = s->type.scalar;
  unsigned per_line = s->type.lanes == 1 ? 8 : s->type.lanes >= 8 ? 1 : 8 / s->type.storage;
  for (uint64_t e = 0; e < s->count; e++) {
    if (e % per_line == 0)
      printf("  [%" PRIu64 "]", e);
    const unsigned char *el = s->data + e * type_size(&s->type);
    printf(" %s", s->type.lanes > 1 ? "(" : "");
    for (unsigned l = 0; l < s->type.lanes; l++) {
      if (l)
        putchar(',');
      print_scalar(t, el + (size_t)l * t->size);
    }
    printf("%s", s->type.lanes > 1 ? ")" : "");
    if (e % per_line == per_line - 1 || e + 1 == s->count)
      putchar('\n');
  }
}

static int launch(struct run *r) {
  cl_event ev;
  cl_int err =
      clEnqueueNDRangeKernel(r->cl.queue, r->kernel, r->dims, r->has_offset ? r->offset : NULL,
                             r->global, r->has_local ? r->local : NULL, 0, NULL, &ev);
  if (err)
    return sg_cli_error(SG_EXIT_DEVICE, "kernel", "clEnqueueNDRangeKernel: %s (--debug says why)",
                        sg_error_name(err));
  clWaitForEvents(1, &ev);
  cl_int status;
  cl_ulong start = 0, end = 0;
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
  clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
  clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
  clReleaseEvent(ev);
  if (status < 0)
    return sg_cli_error(SG_EXIT_DEVICE, "kernel", "the launch of '%s' failed: %s", r->kernel_name,
                        sg_error_name(status));
  int rc = SG_EXIT_OK;
  for (unsigned i = 0; i < r->nspecs; i++) {
    struct spec *s = &r->specs[i];
    if (s->kind != SPEC_BUFFER || (!s->dump && !s->out_path))
      continue;
    err = clEnqueueReadBuffer(r->cl.queue, s->mem, CL_TRUE, 0, s->size, s->data, 0, NULL, NULL);
    if (err)
      return sg_cli_cl_fail("kernel", "clEnqueueReadBuffer", err);
    if (s->dump)
      dump(s, i);
    if (s->out_path && !sg_cli_write_file(s->out_path, s->data, s->size))
      rc = sg_cli_error(SG_EXIT_INPUT, "kernel", "--arg %u: cannot write %s: %s", i, s->out_path,
                        strerror(errno));
  }
  char sizes[2][72] = {"", ""}; /* "XxYxZ" of the global and local sizes */
  for (cl_uint d = 0; d < r->dims; d++) {
    snprintf(sizes[0] + strlen(sizes[0]), 24, "%s%zu", d ? "x" : "", r->global[d]);
    if (r->has_local)
      snprintf(sizes[1] + strlen(sizes[1]), 24, "%s%zu", d ? "x" : "", r->local[d]);
  }
  printf("kernel %s: global %s, local %s: %.3f ms\n", r->kernel_name, sizes[0],
         r->has_local ? sizes[1] : "chosen by SoftGPU", (double)(end - start) / 1e6);
  return rc;
}

static void run_free(struct run *r) {
  for (unsigned i = 0; i < r->nspecs; i++) {
    struct spec *s = &r->specs[i];
    if (s->mem)
      clReleaseMemObject(s->mem);
    free(s->data);
    free(s->fill_value);
    free((char *)s->in_path);
    free((char *)s->out_path);
  }
  free(r->specs);
  free(r->only_kernel);
  if (r->kernel)
    clReleaseKernel(r->kernel);
  if (r->program)
    clReleaseProgram(r->program);
  sg_cli_cl_close(&r->cl);
}

enum { OPT_KERNEL, OPT_GLOBAL, OPT_LOCAL, OPT_OFFSET, OPT_ARG };

static int parse_command_line(struct run *r, int argc, char **argv, bool *help) {
  struct sg_cli_parser p;
  sg_cli_parser_init(&p, &sg_cli_cmd_kernel, argc, argv, false);
  const char *value;
  cl_uint dims[3] = {0};
  for (int id; (id = sg_cli_next(&p, &value)) != SG_CLI_END;) {
    int rc = SG_EXIT_OK;
    switch (id) {
    case SG_CLI_BAD: return SG_EXIT_USAGE;
    case SG_CLI_ARG:
      if (r->file)
        return sg_cli_error(SG_EXIT_USAGE, "kernel", "one program at a time ('%s', '%s')", r->file,
                            value);
      r->file = value;
      break;
    case OPT_KERNEL: r->kernel_name = value; break;
    case OPT_GLOBAL:
    case OPT_LOCAL:
    case OPT_OFFSET: {
      size_t *out = id == OPT_GLOBAL ? r->global : id == OPT_LOCAL ? r->local : r->offset;
      if (!parse_sizes(value, out, &dims[id - OPT_GLOBAL]))
        return sg_cli_error(SG_EXIT_USAGE, "kernel", "--%s '%s': expected X[,Y[,Z]]",
                            sg_cli_cmd_kernel.opts[id].name, value);
      r->has_local |= id == OPT_LOCAL;
      r->has_offset |= id == OPT_OFFSET;
      break;
    }
    case OPT_ARG: {
      struct spec *grown = realloc(r->specs, (r->nspecs + 1) * sizeof *grown);
      if (!grown)
        return sg_cli_error(SG_EXIT_INPUT, "kernel", "out of memory");
      r->specs = grown;
      r->specs[r->nspecs] = (struct spec){.text = value};
      rc = parse_spec(&r->specs[r->nspecs], r->nspecs);
      r->nspecs++;
      break;
    }
    default: rc = sg_cli_settings_set(&r->settings, "kernel", id, value); break;
    }
    if (rc != SG_EXIT_OK)
      return rc;
  }
  *help = p.help;
  if (p.help)
    return SG_EXIT_OK;
  r->build_words = argv + p.next;
  r->nbuild = argc - p.next;
  if (!r->file)
    return sg_cli_error(SG_EXIT_USAGE, "kernel", "no program (softgpu kernel FILE.cl ...)");
  if (!dims[0])
    return sg_cli_error(SG_EXIT_USAGE, "kernel", "no --global size");
  r->dims = dims[0];
  for (cl_uint d = 0; d < r->dims; d++)
    if (!r->global[d] || (r->has_local && !r->local[d]))
      return sg_cli_error(SG_EXIT_USAGE, "kernel", "work sizes must not be 0");
  if ((r->has_local && dims[1] != dims[0]) || (r->has_offset && dims[2] != dims[0]))
    return sg_cli_error(SG_EXIT_USAGE, "kernel",
                        "--local and --offset need as many dimensions as --global (%u)", dims[0]);
  return SG_EXIT_OK;
}

static int kernel_main(int argc, char **argv) {
  struct run r = {0};
  bool help = false;
  int rc = parse_command_line(&r, argc, argv, &help);
  if (rc == SG_EXIT_OK && help)
    sg_cli_print_help(&sg_cli_cmd_kernel, stdout, SG_CLI_TEXT);
  else if (rc == SG_EXIT_OK && (rc = sg_cli_cl_open(&r.cl, "kernel", &r.settings)) == SG_EXIT_OK &&
           (rc = sg_cli_cl_build(&r.cl, r.file, "-cl-kernel-arg-info", r.build_words, r.nbuild,
                                 &r.program)) == SG_EXIT_OK &&
           (rc = pick_kernel(&r)) == SG_EXIT_OK && (rc = set_args(&r)) == SG_EXIT_OK)
    rc = launch(&r);
  run_free(&r);
  return rc;
}

static void kernel_more_help(FILE *out, enum sg_cli_format fmt) {
  static const char *const specs[][2] = {
      {"TYPE:V[,V...]", "a value: int:5, uint:0x10, float:1.5, float4:1,2,3,4 (one value sets "
                        "every element)"},
      {"TYPE[N][:OPT...]", "a buffer of N elements of TYPE (a scalar or vector type), zero unless "
                           "an option fills it:"},
      {"  fill=V", "every element V"},
      {"  range[=S[,D]]", "element i is S + i*D (default 0, 1)"},
      {"  rand[=SEED]", "pseudo-random (splitmix64 from SEED, default 1): floats in [0, 1), "
                        "integers over the whole type"},
      {"  file=PATH", "the bytes of PATH (its size must match; TYPE[]:file=PATH takes N from it)"},
      {"  dump", "print the buffer after the kernel ran"},
      {"  out=PATH", "write the buffer's bytes to PATH after the kernel ran"},
      {"local:BYTES", "a __local buffer of BYTES bytes"},
      {"null", "a NULL buffer"},
  };
  static const char rule[] =
      "Each spec must fit the kernel's parameter: a buffer for a __global or __constant pointer "
      "(of the same element type, unless the pointer is to a struct or void), local:BYTES for a "
      "__local pointer, a value of the same type for a value. Build options follow `--`.";
  fputs(fmt == SG_CLI_TEXT ? "argument specs (one --arg per kernel argument, in order):\n"
                           : ".PP\nArgument specs (one \\-\\-arg per kernel argument, in order):\n",
        out);
  for (unsigned i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    if (fmt == SG_CLI_TEXT) {
      fprintf(out, "  %-20s", specs[i][0]);
      sg_cli_put_wrapped(out, specs[i][1], 22, 22);
    } else {
      fputs(".TP\n.B ", out);
      sg_cli_put_text(out, fmt, specs[i][0]);
      fputc('\n', out);
      sg_cli_put_text(out, fmt, specs[i][1]);
      fputc('\n', out);
    }
  }
  if (fmt == SG_CLI_TEXT)
    sg_cli_put_wrapped(out, rule, 0, 0);
  else {
    fputs(".PP\n", out);
    sg_cli_put_text(out, fmt, rule);
    fputc('\n', out);
  }
}

const struct sg_cli_command sg_cli_cmd_kernel = {
    .name = "kernel",
    .synopsis = "FILE.cl|FILE.bin [--kernel NAME] --global X[,Y,Z] [--local X[,Y,Z]] "
                "[--offset X[,Y,Z]] --arg SPEC... [OPTIONS] [-- BUILD-OPTIONS...]",
    .summary = "run one kernel with arguments from the command line",
    .description =
        "Builds FILE.cl (with -cl-kernel-arg-info and BUILD-OPTIONS) or loads the program binary "
        "FILE.bin, and runs kernel NAME (the only kernel when there is one) once over the given "
        "ND-range on SoftGPU alone, like oclgrind-kernel. Each --arg gives one argument, checked "
        "against the kernel's signature; buffers marked `dump` are printed and those marked "
        "`out=PATH` written after the run, then the kernel's time (the profiling start-to-end "
        "time) is printed. The options of `softgpu run` set the machine configuration, the "
        "statistics file and the checks.\n\n"
        "Exit status 0 when the kernel ran, 1 when the source did not build, 2 for a bad command "
        "line or arguments that do not fit the kernel, 3 for unreadable files, 4 when the launch "
        "failed.",
    .opts =
        (const struct sg_cli_opt[]){
            {"kernel", 'k', "NAME", "the kernel to run"},
            {"global", 'g', "X[,Y,Z]", "global work size (1 to 3 dimensions)"},
            {"local", 'l', "X[,Y,Z]", "local work size (default: chosen by SoftGPU)"},
            {"offset", 0, "X[,Y,Z]", "global work offset"},
            {"arg", 'a', "SPEC", "the next kernel argument (see below)"},
            {NULL, 0, NULL, NULL}},
    .env_opts = true,
    .more_help = kernel_more_help,
    .main = kernel_main,
};
