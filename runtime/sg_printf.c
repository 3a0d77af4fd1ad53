/* SPDX-License-Identifier: MIT */
/* runtime/: kernel printf on the host (docs/printf.md). After a launch the
 * records the kernel left in its printf buffer are ordered by work-group
 * (then by when they were written) and formatted with the host's printf,
 * reading formats and %s strings from the program's read-only image. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sg_runtime.h"

#define MAX_FIELD 4096 /* clamp for widths and precisions given with '*' */

/* A record's position and the work-group that wrote it. */
struct entry {
  uint32_t ctaid[3];
  uint64_t offset;
};

/* One record being formatted. */
struct rec {
  const uint8_t *bytes;
  const struct sg_printf_desc_arg *args; /* in the read-only image (unaligned) */
  uint32_t num_args, next;
};

/* size bytes at device address addr of the read-only image, or NULL. */
static const uint8_t *ro_at(const struct sg_program_image *img, uint64_t addr, uint64_t size) {
  if (addr < img->ro_base || addr - img->ro_base > img->ro_size ||
      size > img->ro_size - (addr - img->ro_base))
    return NULL;
  return img->ro + (addr - img->ro_base);
}

/* A NUL-terminated string in the read-only image, or NULL. */
static const char *ro_string(const struct sg_program_image *img, uint64_t addr) {
  const uint8_t *p = ro_at(img, addr, 1);
  if (!p)
    return NULL;
  return memchr(p, 0, img->ro_size - (addr - img->ro_base)) ? (const char *)p : NULL;
}

static int by_group_then_order(const void *a, const void *b) {
  const struct entry *x = a, *y = b;
  for (int d = 2; d >= 0; d--)
    if (x->ctaid[d] != y->ctaid[d])
      return x->ctaid[d] < y->ctaid[d] ? -1 : 1;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The descriptor of the record at off, checked against the image and the
 * written bytes; false where the records end. */
static bool load_desc(const struct sg_program_image *img, const uint8_t *recs, uint64_t used,
                      uint64_t off, struct sg_printf_desc *d) {
  struct sg_printf_record r;
  if (used - off < sizeof r)
    return false;
  memcpy(&r, recs + off, sizeof r);
  const uint8_t *p = ro_at(img, r.desc, sizeof *d);
  if (!p)
    return false;
  memcpy(d, p, sizeof *d);
  return d->record_size >= sizeof r && d->record_size % 8 == 0 && d->record_size <= used - off &&
         ro_at(img, r.desc + sizeof *d, (uint64_t)d->num_args * sizeof(struct sg_printf_desc_arg));
}

/* ---- Values ---------------------------------------------------------------- */

static double half_to_double(uint16_t h) {
  int exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  double v = exp == 0    ? man / 1024.0 * (1.0 / 16384) /* subnormal: 2^-14 */
             : exp == 31 ? (man ? __builtin_nan("") : __builtin_inf())
                         : (1 + man / 1024.0) * __builtin_ldexp(1.0, exp - 15);
  return h & 0x8000 ? -v : v;
}

/* Lane `lane` of the next argument (not consumed), as raw bits; *a gets its
 * descriptor. False when the call gave no such argument. */
static bool arg_bits(struct rec *r, uint32_t lane, struct sg_printf_desc_arg *a, uint64_t *bits) {
  if (r->next >= r->num_args)
    return false;
  memcpy(a, &r->args[r->next], sizeof *a);
  uint32_t size = a->elem_size <= 8 ? a->elem_size : 8;
  *bits = 0;
  if (lane < a->lanes)
    memcpy(bits, r->bytes + a->offset + (uint64_t)lane * a->elem_size, size);
  return true;
}

static double as_double(const struct sg_printf_desc_arg *a, uint64_t bits) {
  if (a->kind != SG_PRINTF_FLOAT)
    return (double)(int64_t)bits;
  if (a->elem_size == 2)
    return half_to_double((uint16_t)bits);
  if (a->elem_size == 4) {
    float f;
    memcpy(&f, &bits, 4);
    return f;
  }
  double d;
  memcpy(&d, &bits, 8);
  return d;
}

/* The value truncated to `bits` bits (the conversion's type), sign- or
 * zero-extended. */
static uint64_t as_int(uint64_t v, unsigned bits, bool is_signed) {
  if (bits >= 64)
    return v;
  uint64_t m = (1ull << bits) - 1;
  v &= m;
  return is_signed && (v >> (bits - 1)) ? v | ~m : v;
}

/* Bits of the conversion's integer type: the length modifier, or for
 * vectors the element size the compiler recorded from it. */
static unsigned int_bits(const struct sg_printf_spec *s, const struct sg_printf_desc_arg *a) {
  static const unsigned bits[] = {[SG_PRINTF_LEN_NONE] = 32,
                                  [SG_PRINTF_LEN_HH] = 8,
                                  [SG_PRINTF_LEN_H] = 16,
                                  [SG_PRINTF_LEN_HL] = 32,
                                  [SG_PRINTF_LEN_L] = 64};
  unsigned b = s->vec ? 8u * a->elem_size : bits[s->len];
  return a->kind == SG_PRINTF_INT && 8u * a->elem_size < b ? 8u * a->elem_size : b;
}

/* An int argument for '*'; 0 when missing. */
static int star_value(struct rec *r) {
  struct sg_printf_desc_arg a;
  uint64_t bits;
  if (!arg_bits(r, 0, &a, &bits))
    return 0;
  r->next++;
  int64_t v = (int64_t)as_int(bits, 8u * a.elem_size, true);
  return v > MAX_FIELD ? MAX_FIELD : v < -MAX_FIELD ? -MAX_FIELD : (int)v;
}

/* ---- Conversions ----------------------------------------------------------- */

/* One lane (or a scalar) with the host's printf; hostfmt is "%<flags><width>.<prec>". */
static void put_value(FILE *out, const struct sg_program_image *img, const char *hostfmt,
                      const struct sg_printf_spec *s, const struct sg_printf_desc_arg *a,
                      uint64_t bits) {
  char f[64];
  bool is_signed = s->conv == 'd' || s->conv == 'i';
  switch (sg_printf_class(s)) {
  case SG_PRINTF_FLOAT:
    snprintf(f, sizeof f, "%s%c", hostfmt, s->conv);
    fprintf(out, f, as_double(a, bits));
    return;
  case SG_PRINTF_PTR:
    if (s->conv == 'p') {
      snprintf(f, sizeof f, "%sp", hostfmt);
      fprintf(out, f, (void *)(uintptr_t)bits);
    } else {
      const char *str = ro_string(img, bits);
      snprintf(f, sizeof f, "%ss", hostfmt);
      fprintf(out, f, str ? str : bits ? "(not a constant string)" : "(null)");
    }
    return;
  case SG_PRINTF_INT:
    if (a->kind == SG_PRINTF_FLOAT)
      bits = (uint64_t)(int64_t)as_double(a, bits);
    bits = as_int(bits, int_bits(s, a), is_signed);
    if (s->conv == 'c') {
      snprintf(f, sizeof f, "%sc", hostfmt);
      fprintf(out, f, (int)(unsigned char)bits);
    } else {
      snprintf(f, sizeof f, "%sll%c", hostfmt, s->conv);
      if (is_signed)
        fprintf(out, f, (long long)bits);
      else
        fprintf(out, f, (unsigned long long)bits);
    }
    return;
  }
}

/* One conversion: consumes its '*' arguments and its value; vectors print
 * their lanes with the same specification, separated by commas. */
static void put_conversion(FILE *out, const struct sg_program_image *img, struct rec *r,
                           const struct sg_printf_spec *s) {
  char hostfmt[48];
  int width = s->width == SG_PRINTF_STAR ? star_value(r) : s->width;
  int prec = s->precision == SG_PRINTF_STAR ? star_value(r) : s->precision;
  /* As in C, a negative '*' width is the '-' flag; a negative precision is none. */
  bool left = s->width == SG_PRINTF_STAR && width < 0;
  int n = snprintf(hostfmt, sizeof hostfmt, "%%%s%s", s->flags, left ? "-" : "");
  if (s->width != SG_PRINTF_NONE)
    n += snprintf(hostfmt + n, sizeof hostfmt - (size_t)n, "%d", left ? -width : width);
  if (prec >= 0)
    snprintf(hostfmt + n, sizeof hostfmt - (size_t)n, ".%d", prec);
  struct sg_printf_desc_arg a;
  uint64_t bits;
  uint32_t lanes = s->vec ? s->vec : 1;
  for (uint32_t lane = 0; lane < lanes && arg_bits(r, lane, &a, &bits); lane++) {
    if (lane)
      fputc(',', out);
    put_value(out, img, hostfmt, s, &a, bits);
  }
  r->next++;
}

static void put_record(FILE *out, const struct sg_program_image *img, const char *fmt,
                       struct rec *r) {
  for (const char *p = fmt; *p;) {
    const char *pc = strchr(p, '%');
    size_t lit = pc ? (size_t)(pc - p) : strlen(p);
    fwrite(p, 1, lit, out);
    if (!pc)
      break;
    struct sg_printf_spec s;
    size_t n = sg_printf_parse(pc, &s);
    if (s.conv == '%')
      fputc('%', out);
    else if (s.conv)
      put_conversion(out, img, r, &s);
    else
      fwrite(pc, 1, n, out); /* the compiler rejects these; a foreign binary may not */
    p = pc + n;
  }
}

/* ---- The buffer ------------------------------------------------------------ */

/* The records in write order, with their work-groups; *n gets the count. */
static struct entry *collect(const struct sg_program_image *img, const uint8_t *recs, uint64_t used,
                             size_t *n) {
  size_t cap = 64;
  struct entry *e = malloc(cap * sizeof *e);
  struct sg_printf_desc d;
  *n = 0;
  for (uint64_t off = 0; e && load_desc(img, recs, used, off, &d); off += d.record_size) {
    if (*n == cap) {
      struct entry *more = realloc(e, 2 * cap * sizeof *e);
      if (!more)
        break;
      e = more;
      cap *= 2;
    }
    struct sg_printf_record r;
    memcpy(&r, recs + off, sizeof r);
    e[*n] = (struct entry){.offset = off};
    memcpy(e[*n].ctaid, r.ctaid, sizeof r.ctaid);
    (*n)++;
  }
  return e;
}

void sg_printf_flush(const struct sg_program_image *img, const char *kernel, const uint8_t *buffer,
                     uint64_t size, uint64_t used, uint64_t dropped, FILE *out) {
  const uint8_t *recs = buffer + sizeof(struct sg_printf_header);
  size_t n;
  struct entry *e = collect(img, recs, used, &n);
  if (e)
    qsort(e, n, sizeof *e, by_group_then_order);
  flockfile(out); /* one launch's output stays together */
  for (size_t i = 0; e && i < n; i++) {
    struct sg_printf_record hdr;
    struct sg_printf_desc d;
    memcpy(&hdr, recs + e[i].offset, sizeof hdr);
    load_desc(img, recs, used, e[i].offset, &d);
    struct rec r = {.bytes = recs + e[i].offset,
                    .args = (const void *)ro_at(img, hdr.desc + sizeof d, 0),
                    .num_args = d.num_args};
    const char *fmt = ro_string(img, d.format);
    for (uint32_t a = 0; a < r.num_args; a++) { /* arguments must lie in the record */
      struct sg_printf_desc_arg da;
      memcpy(&da, &r.args[a], sizeof da);
      if ((uint64_t)da.offset + (uint64_t)da.elem_size * da.lanes > d.record_size ||
          da.elem_size > 8 || da.lanes == 0)
        fmt = NULL;
    }
    if (fmt)
      put_record(out, img, fmt, &r);
  }
  fflush(out);
  funlockfile(out);
  free(e);
  if (dropped)
    fprintf(stderr,
            "SoftGPU: kernel %s: the printf buffer (%llu bytes, CL_DEVICE_PRINTF_BUFFER_SIZE) "
            "is full; %llu printf call%s dropped (they returned -1)\n",
            kernel, (unsigned long long)size, (unsigned long long)dropped,
            dropped == 1 ? " was" : "s were");
}
