/* SPDX-License-Identifier: MIT */
/* Built-in function conformance, integer family (OpenCL C 1.2 s6.12.3, and
 * cl_khr_extended_bit_ops, cl_khr_integer_dot_product): every function for
 * all 8 integer types against exact host computations in 128-bit arithmetic
 * (bit by bit for the bit operations, byte by byte for the dot products);
 * width-16 vectors lane by lane against the scalar. */
#include <limits.h>

#include "sg_bi.h"

typedef __int128 i128;

struct ity {
  const char *name;
  int bits, sgn;
};
static const struct ity itypes[] = {
    {"char", 8, 1}, {"uchar", 8, 0},  {"short", 16, 1}, {"ushort", 16, 0},
    {"int", 32, 1}, {"uint", 32, 0},  {"long", 64, 1},  {"ulong", 64, 0},
};

/* v wrapped to type t (two's complement), as a 128-bit value. */
static i128 wrap(const struct ity *t, i128 v) {
  unsigned __int128 m = ((unsigned __int128)1 << t->bits) - 1, u = (unsigned __int128)v & m;
  if (t->sgn && (u >> (t->bits - 1)))
    return (i128)u - ((i128)1 << t->bits);
  return (i128)u;
}
static i128 tmin(const struct ity *t) { return t->sgn ? -((i128)1 << (t->bits - 1)) : 0; }
static i128 tmax(const struct ity *t) {
  return t->sgn ? ((i128)1 << (t->bits - 1)) - 1 : ((i128)1 << t->bits) - 1;
}
static i128 sat(const struct ity *t, i128 v) { return v < tmin(t) ? tmin(t) : v > tmax(t) ? tmax(t) : v; }
static i128 fdiv2(i128 v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); } /* floor(v / 2) */
static i128 umag(const struct ity *t, i128 v) { return (unsigned __int128)v & (((unsigned __int128)1 << t->bits) - 1); }

/* The high half of the 2b-bit product (an arithmetic shift when signed). */
static i128 hi_product(const struct ity *t, i128 x, i128 y) {
  if (t->bits == 64 && !t->sgn)
    return (i128)(((unsigned __int128)x * (unsigned __int128)y) >> 64);
  return (x * y) >> t->bits;
}

enum ifn { I_ABS, I_ABS_DIFF, I_ADD_SAT, I_SUB_SAT, I_HADD, I_RHADD, I_CLZ, I_POPCOUNT,
           I_MUL_HI, I_MAD_HI, I_MAD_SAT, I_ROTATE, I_MIN, I_MAX, I_CLAMP, I_UPSAMPLE, I_MUL24,
           I_MAD24, I_COUNT };
static const char *const inames[] = {"abs", "abs_diff", "add_sat", "sub_sat", "hadd", "rhadd",
                                     "clz", "popcount", "mul_hi", "mad_hi", "mad_sat",
                                     "rotate", "min", "max", "clamp", "upsample", "mul24", "mad24"};
static const int iarity[] = {1, 2, 2, 2, 2, 2, 1, 1, 2, 3, 3, 2, 2, 2, 3, 2, 2, 3};

static int applies(enum ifn f, const struct ity *t) {
  if (f == I_UPSAMPLE)
    return t->bits < 64;
  if (f == I_MUL24 || f == I_MAD24)
    return t->bits == 32;
  return 1;
}

/* Reference of f on type t; upsample's result is twice as wide. */
static i128 iref(enum ifn f, const struct ity *t, i128 x, i128 y, i128 z) {
  int b = t->bits;
  switch (f) {
  case I_ABS: return x < 0 ? -x : x;
  case I_ABS_DIFF: return x > y ? x - y : y - x;
  case I_ADD_SAT: return sat(t, x + y);
  case I_SUB_SAT: return sat(t, x - y);
  case I_HADD: return fdiv2(x + y);
  case I_RHADD: return fdiv2(x + y + 1);
  case I_CLZ:
  case I_POPCOUNT: {
    i128 u = umag(t, x), n = 0;
    for (int i = 0; i < b; i++) {
      int bit = (int)((u >> (f == I_CLZ ? b - 1 - i : i)) & 1);
      if (f == I_POPCOUNT)
        n += bit;
      else if (bit)
        return i;
    }
    return f == I_POPCOUNT ? n : b;
  }
  case I_MUL_HI: return wrap(t, hi_product(t, x, y));
  case I_MAD_HI: return wrap(t, hi_product(t, x, y) + z);
  case I_MAD_SAT:
    if (b == 64 && !t->sgn) { /* the ulong product needs all 128 bits unsigned */
      unsigned __int128 pr = (unsigned __int128)x * (unsigned __int128)y, s = pr + (unsigned __int128)z;
      return s < pr || s > (unsigned __int128)tmax(t) ? tmax(t) : (i128)s;
    }
    return sat(t, x * y + z);
  case I_ROTATE: {
    int n = (int)(umag(t, y) % b);
    i128 u = umag(t, x);
    return wrap(t, (u << n) | (u >> ((b - n) % b)) * (n != 0));
  }
  case I_MIN: return x < y ? x : y;
  case I_MAX: return x > y ? x : y;
  case I_CLAMP: return x < y ? y : x > z ? z : x;
  case I_UPSAMPLE: return x * ((i128)1 << b) + umag(t, y);
  case I_MUL24: return wrap(t, x * y);
  case I_MAD24: return wrap(t, x * y + z);
  case I_COUNT: break;
  }
  return 0;
}

static const char *result_type(enum ifn f, const struct ity *t, char *buf, size_t len) {
  static const char *const up[] = {"short", "ushort", "int", "uint", "long", "ulong"};
  int k = (int)(t - itypes);
  if (f == I_UPSAMPLE)
    return up[k];
  if (f == I_ABS || f == I_ABS_DIFF)
    snprintf(buf, len, "%s%s", t->sgn ? "u" : "", t->name);
  else
    snprintf(buf, len, "%s", t->name);
  return buf;
}

static i128 rand_val(const struct ity *t) {
  uint64_t r = sg_bi_rand();
  if ((r & 3) == 0) /* small magnitudes, and mul24's 24-bit range */
    return wrap(t, (i128)(int64_t)(r >> 2) % ((t->bits == 32 && (r & 4)) ? (1 << 23) : 300));
  return wrap(t, (i128)sg_bi_rand());
}

static i128 edge_val(const struct ity *t, size_t i) {
  const i128 e[] = {0, 1, -1, 2, -2, 3, tmin(t), tmax(t), tmin(t) + 1, tmax(t) - 1,
                    (i128)0x5555555555555555ull, 7, 8, 63, 64, 100};
  return wrap(t, e[i % (sizeof(e) / sizeof(e[0]))]);
}
enum { IEDGE = 16, IRAND = 4096 };

static void put(const struct ity *t, void *p, size_t i, i128 v) {
  switch (t->bits) {
  case 8: ((int8_t *)p)[i] = (int8_t)v; break;
  case 16: ((int16_t *)p)[i] = (int16_t)v; break;
  case 32: ((int32_t *)p)[i] = (int32_t)v; break;
  default: ((int64_t *)p)[i] = (int64_t)v;
  }
}
static i128 get(int bits, int sgn, const void *p, size_t i) {
  if (bits == 8)
    return sgn ? (i128)((const int8_t *)p)[i] : (i128)((const uint8_t *)p)[i];
  if (bits == 16)
    return sgn ? (i128)((const int16_t *)p)[i] : (i128)((const uint16_t *)p)[i];
  if (bits == 32)
    return sgn ? (i128)((const int32_t *)p)[i] : (i128)((const uint32_t *)p)[i];
  return sgn ? (i128)((const int64_t *)p)[i] : (i128)((const uint64_t *)p)[i];
}

static void emit_kernels(struct sg_bi *b, enum ifn f, const struct ity *t) {
  char rb[32];
  const char *R = result_type(f, t, rb, sizeof(rb)), *T = t->name;
  const char *B = f == I_UPSAMPLE ? (t->sgn ? "u" : "") : "", *args[3] = {"a", "b", "c"};
  for (int vec = 0; vec < 2; vec++) {
    sg_bi_emit(b, "__kernel void %s_%s_%s(__global const %s *a, __global const %s%s *b, "
                  "__global const %s *c, __global %s *o) {\n",
               vec ? "v" : "k", inames[f], T, T, B, T, T, R);
    if (vec)
      sg_bi_emit(b, "  size_t j = get_global_id(0) * 16;\n  vstore16(%s(", inames[f]);
    else
      sg_bi_emit(b, "  size_t j = get_global_id(0);\n  o[j] = %s(", inames[f]);
    for (int i = 0; i < iarity[f]; i++)
      sg_bi_emit(b, vec ? "%svload16(0, %s + j)" : "%s%s[j]", i ? ", " : "", args[i]);
    sg_bi_emit(b, vec ? "), 0, o + j);\n}\n" : ");\n}\n");
  }
}

static void run_check(struct sg_bi *b, cl_program p, enum ifn f, const struct ity *t) {
  size_t n = IEDGE * IEDGE + IRAND, sz = (size_t)t->bits / 8;
  int rbits = f == I_UPSAMPLE ? 2 * t->bits : t->bits;
  int rsgn = f == I_UPSAMPLE ? t->sgn : (f == I_ABS || f == I_ABS_DIFF) ? 0 : t->sgn;
  size_t rsz = (size_t)rbits / 8;
  i128 *x = calloc(n, sizeof(i128)), *y = calloc(n, sizeof(i128)), *z = calloc(n, sizeof(i128));
  void *a = calloc(n, sz), *bb = calloc(n, sz), *c = calloc(n, sz);
  void *o = calloc(n, rsz), *ov = calloc(n, rsz);
  const struct ity ut = {t->name, t->bits, 0};
  for (size_t i = 0; i < n; i++) {
    int e = i < IEDGE * IEDGE;
    x[i] = e ? edge_val(t, i % IEDGE) : rand_val(t);
    y[i] = e ? edge_val(t, i / IEDGE) : rand_val(t);
    z[i] = e ? edge_val(t, i * 7 % IEDGE) : rand_val(t);
    if (f == I_UPSAMPLE) /* lo is the unsigned twin */
      y[i] = wrap(&ut, y[i]);
    if (f == I_MUL24 || f == I_MAD24) { /* 24-bit operands, else undefined */
      const struct ity t24 = {t->name, 24, t->sgn};
      x[i] = wrap(&t24, x[i]), y[i] = wrap(&t24, y[i]);
    }
    if (f == I_CLAMP && y[i] > z[i]) { /* min <= max, else undefined */
      i128 s = y[i];
      y[i] = z[i], z[i] = s;
    }
    put(t, a, i, x[i]), put(t, bb, i, y[i]), put(t, c, i, z[i]);
  }
  struct sg_bi_arg args[] = {{a, n * sz, 0}, {bb, n * sz, 0}, {c, n * sz, 0}, {o, n * rsz, 1}};
  char name[96];
  snprintf(name, sizeof(name), "k_%s_%s", inames[f], t->name);
  sg_bi_run(b, p, name, n, args, 4, NULL, 0);
  args[3].host = ov;
  snprintf(name, sizeof(name), "v_%s_%s", inames[f], t->name);
  sg_bi_run(b, p, name, n / 16, args, 4, NULL, 0);
  unsigned long fails = 0;
  for (size_t i = 0; i < n; i++) {
    const struct ity rt = {t->name, rbits, rsgn};
    i128 want = wrap(&rt, iref(f, t, x[i], y[i], z[i]));
    i128 got = get(rbits, rsgn, o, i), gotv = get(rbits, rsgn, ov, i);
    if ((got != want || gotv != got) && fails++ < SG_BI_MAX_REPORT)
      printf("  %s(%s) (%lld, %lld, %lld): got %lld (vector lane %lld) expected %lld\n",
             inames[f], t->name, (long long)x[i], (long long)y[i], (long long)z[i],
             (long long)got, (long long)gotv, (long long)want);
  }
  sg_bi_verdict(b, inames[f], t->name, fails, (unsigned long)n, 0);
  free(x), free(y), free(z), free(a), free(bb), free(c), free(o), free(ov);
}

/* cl_khr_extended_bit_ops: a bitfield is `count` bits from bit `offset`,
 * offset + count <= bits; every 16 consecutive items share one offset and
 * count, as the lanes of one width-16 vector call do. */
enum bfn { B_INSERT, B_EXTRACT_SIGNED, B_EXTRACT_UNSIGNED, B_REVERSE, B_COUNT };
static const char *const bnames[] = {"bitfield_insert", "bitfield_extract_signed",
                                     "bitfield_extract_unsigned", "bit_reverse"};

/* The result, bit by bit, as an unsigned value of t's width. */
static unsigned __int128 bref(enum bfn f, const struct ity *t, i128 x, i128 y, unsigned off,
                              unsigned cnt) {
  unsigned __int128 ux = (unsigned __int128)umag(t, x), uy = (unsigned __int128)umag(t, y), r = 0;
  unsigned b = (unsigned)t->bits;
  for (unsigned i = 0; i < b; i++) {
    unsigned __int128 bit;
    if (f == B_INSERT)
      bit = i >= off && i < off + cnt ? uy >> (i - off) : ux >> i;
    else if (f == B_REVERSE)
      bit = ux >> (b - 1 - i);
    else if (i < cnt)
      bit = ux >> (off + i);
    else /* above the field: the sign (the field's top bit) or zero */
      bit = f == B_EXTRACT_SIGNED && cnt > 0 ? ux >> (off + cnt - 1) : 0;
    r |= (bit & 1) << i;
  }
  return r;
}

static void emit_bitops(struct sg_bi *b, enum bfn f, const struct ity *t) {
  const char *T = t->name, *R = T, *pre = f == B_INSERT ? "a[j], b[j], " : "a[j], ";
  const char *vpre = f == B_INSERT ? "vload16(0, a + j), vload16(0, b + j), " : "vload16(0, a + j), ";
  char rb[16];
  if (f == B_EXTRACT_SIGNED || f == B_EXTRACT_UNSIGNED) {
    snprintf(rb, sizeof(rb), "%s%s", f == B_EXTRACT_UNSIGNED ? "u" : "", T + (T[0] == 'u'));
    R = rb;
  }
  const char *post = f == B_REVERSE ? "" : "off[j / 16], cnt[j / 16]";
  const char *vpost = f == B_REVERSE ? "" : "off[i], cnt[i]";
  sg_bi_emit(b, "__kernel void k_%s_%s(__global const %s *a, __global const %s *b, "
                "__global const uint *off, __global const uint *cnt, __global %s *o) {\n"
                "  size_t j = get_global_id(0);\n  o[j] = %s(%s%s);\n}\n",
             bnames[f], T, T, T, R, bnames[f], f == B_REVERSE ? "a[j]" : pre, post);
  sg_bi_emit(b, "__kernel void v_%s_%s(__global const %s *a, __global const %s *b, "
                "__global const uint *off, __global const uint *cnt, __global %s *o) {\n"
                "  size_t i = get_global_id(0), j = i * 16;\n  vstore16(%s(%s%s), 0, o + j);\n}\n",
             bnames[f], T, T, T, R, bnames[f], f == B_REVERSE ? "vload16(0, a + j)" : vpre, vpost);
}

static void run_bitops(struct sg_bi *b, cl_program p, enum bfn f, const struct ity *t) {
  size_t n = IEDGE * IEDGE + IRAND, nv = n / 16, sz = (size_t)t->bits / 8;
  int rsgn = f == B_EXTRACT_SIGNED || ((f == B_INSERT || f == B_REVERSE) && t->sgn);
  i128 *x = calloc(n, sizeof(i128)), *y = calloc(n, sizeof(i128));
  void *a = calloc(n, sz), *bb = calloc(n, sz), *o = calloc(n, sz), *ov = calloc(n, sz);
  cl_uint *off = calloc(nv, sizeof(cl_uint)), *cnt = calloc(nv, sizeof(cl_uint));
  for (size_t i = 0; i < n; i++) {
    int e = i < IEDGE * IEDGE;
    x[i] = e ? edge_val(t, i % IEDGE) : rand_val(t);
    y[i] = e ? edge_val(t, i / IEDGE) : rand_val(t);
    put(t, a, i, x[i]), put(t, bb, i, y[i]);
  }
  /* The first fields are the edges: empty at bit 0 and past the top, whole,
   * the top bit alone. */
  unsigned bits = (unsigned)t->bits;
  const unsigned edge[4][2] = {{0, 0}, {bits, 0}, {0, bits}, {bits - 1, 1}}; /* offset, count */
  for (size_t v = 0; v < nv; v++) {
    if (v < 4) {
      off[v] = edge[v][0], cnt[v] = edge[v][1];
    } else {
      cnt[v] = (unsigned)(sg_bi_rand() % (bits + 1));
      off[v] = (unsigned)(sg_bi_rand() % (bits - cnt[v] + 1));
    }
  }
  struct sg_bi_arg args[] = {{a, n * sz, 0},   {bb, n * sz, 0}, {off, nv * sizeof(cl_uint), 0},
                             {cnt, nv * sizeof(cl_uint), 0}, {o, n * sz, 1}};
  char name[96];
  snprintf(name, sizeof(name), "k_%s_%s", bnames[f], t->name);
  sg_bi_run(b, p, name, n, args, 5, NULL, 0);
  args[4].host = ov;
  snprintf(name, sizeof(name), "v_%s_%s", bnames[f], t->name);
  sg_bi_run(b, p, name, nv, args, 5, NULL, 0);
  unsigned long fails = 0;
  const struct ity rt = {t->name, t->bits, rsgn};
  for (size_t i = 0; i < n; i++) {
    i128 want = wrap(&rt, (i128)bref(f, t, x[i], y[i], off[i / 16], cnt[i / 16]));
    i128 got = get(t->bits, rsgn, o, i), gotv = get(t->bits, rsgn, ov, i);
    if ((got != want || gotv != got) && fails++ < SG_BI_MAX_REPORT)
      printf("  %s(%s) (%lld, %lld, offset %u, count %u): got %lld (vector lane %lld) expected %lld\n",
             bnames[f], t->name, (long long)x[i], (long long)y[i], off[i / 16], cnt[i / 16],
             (long long)got, (long long)gotv, (long long)want);
  }
  sg_bi_verdict(b, bnames[f], t->name, fails, (unsigned long)n, 0);
  free(x), free(y), free(a), free(bb), free(o), free(ov), free(off), free(cnt);
}

static void bitops(struct sg_bi *b) {
  for (size_t t = 0; t < 8; t++)
    for (int f = 0; f < B_COUNT; f++)
      emit_bitops(b, (enum bfn)f, &itypes[t]);
  cl_program p = sg_bi_build(b, "");
  for (size_t t = 0; t < 8; t++)
    for (int f = 0; f < B_COUNT; f++)
      run_bitops(b, p, (enum bfn)f, &itypes[t]);
  clReleaseProgram(p);
}

/* cl_khr_integer_dot_product: each operand is 4 bytes, given as one uint
 * (component 0 in the low byte), signed or not; one kernel per form. */
static const struct {
  int sa, sb; /* the operands' signedness */
  const char *ta, *tb, *r, *sfx;
} dots[] = {{0, 0, "uchar", "uchar", "uint", "uu_uint"},
            {1, 1, "char", "char", "int", "ss_int"},
            {0, 1, "uchar", "char", "int", "us_int"},
            {1, 0, "char", "uchar", "int", "su_int"}};
enum { DOT_N = 4096 };

static int64_t dot_ref(int sa, int sb, uint32_t a, uint32_t b) {
  int64_t s = 0;
  for (int k = 0; k < 4; k++) {
    int x = (int)((a >> 8 * k) & 0xff), y = (int)((b >> 8 * k) & 0xff);
    s += (int64_t)(sa && x > 127 ? x - 256 : x) * (sb && y > 127 ? y - 256 : y);
  }
  return s;
}

static void integer_dot(struct sg_bi *b) {
  for (size_t d = 0; d < 4; d++) {
    const char *ta = dots[d].ta, *tb = dots[d].tb, *r = dots[d].r, *sfx = dots[d].sfx;
    sg_bi_emit(b, "__kernel void dot_%s(__global const uint *a, __global const uint *b, "
                  "__global const %s *c, __global %s *o) {\n  size_t j = get_global_id(0);\n"
                  "  o[4 * j] = dot(as_%s4(a[j]), as_%s4(b[j]));\n"
                  "  o[4 * j + 1] = dot_acc_sat(as_%s4(a[j]), as_%s4(b[j]), c[j]);\n"
                  "  o[4 * j + 2] = dot_4x8packed_%s(a[j], b[j]);\n"
                  "  o[4 * j + 3] = dot_acc_sat_4x8packed_%s(a[j], b[j], c[j]);\n}\n",
               sfx, r, r, ta, tb, ta, tb, sfx, sfx);
  }
  cl_program p = sg_bi_build(b, "");
  static uint32_t a[DOT_N], bb[DOT_N], c[DOT_N], o[4 * DOT_N];
  /* Edges first: bytes 0x00, 0x7f, 0x80, 0xff against each other, with
   * accumulators at both ends of int and uint. */
  const uint32_t bytes[] = {0x00000000, 0x7f7f7f7f, 0x80808080, 0xffffffff};
  const uint32_t accs[] = {0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x7ffc0000, 0x80040000, 0xfffc0000};
  for (size_t i = 0; i < DOT_N; i++) {
    int e = i < 4 * 4 * 8;
    a[i] = e ? bytes[i % 4] : (uint32_t)sg_bi_rand();
    bb[i] = e ? bytes[i / 4 % 4] : (uint32_t)sg_bi_rand();
    c[i] = e ? accs[i / 16 % 8] : (uint32_t)sg_bi_rand();
  }
  struct sg_bi_arg args[] = {{a, sizeof a, 0}, {bb, sizeof bb, 0}, {c, sizeof c, 0}, {o, sizeof o, 1}};
  static const char *const forms[] = {"dot", "dot_acc_sat", "dot_4x8packed", "dot_acc_sat_4x8packed"};
  for (size_t d = 0; d < 4; d++) {
    char name[64];
    snprintf(name, sizeof(name), "dot_%s", dots[d].sfx);
    sg_bi_run(b, p, name, DOT_N, args, 4, NULL, 0);
    int is_uint = d == 0;
    int64_t lo = is_uint ? 0 : INT32_MIN, hi = is_uint ? (int64_t)UINT32_MAX : INT32_MAX;
    for (int f = 0; f < 4; f++) {
      unsigned long fails = 0;
      for (size_t i = 0; i < DOT_N; i++) {
        int64_t want = dot_ref(dots[d].sa, dots[d].sb, a[i], bb[i]);
        if (f & 1) { /* + acc, saturated */
          want += is_uint ? (int64_t)c[i] : (int64_t)(int32_t)c[i];
          want = want < lo ? lo : want > hi ? hi : want;
        }
        int64_t got = is_uint ? (int64_t)o[4 * i + f] : (int64_t)(int32_t)o[4 * i + f];
        if (got != want && fails++ < SG_BI_MAX_REPORT)
          printf("  %s_%s (0x%08x, 0x%08x, acc 0x%08x): got %lld expected %lld\n", forms[f],
                 dots[d].sfx, a[i], bb[i], c[i], (long long)got, (long long)want);
      }
      sg_bi_verdict(b, forms[f], dots[d].sfx, fails, DOT_N, 0);
    }
  }
  clReleaseProgram(p);
}

int sg_bi_integer(struct sg_bi *b) {
  for (size_t t = 0; t < 8; t++)
    for (int f = 0; f < I_COUNT; f++)
      if (applies((enum ifn)f, &itypes[t]))
        emit_kernels(b, (enum ifn)f, &itypes[t]);
  cl_program p = sg_bi_build(b, "");
  for (size_t t = 0; t < 8; t++)
    for (int f = 0; f < I_COUNT; f++)
      if (applies((enum ifn)f, &itypes[t]))
        run_check(b, p, (enum ifn)f, &itypes[t]);
  clReleaseProgram(p);
  bitops(b);
  integer_dot(b);
  return 0;
}
