/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), the texture unit (seed 003: Vortex samples
 * points and bilinear footprints in its unit): image reads through a sampler
 * (addressing, format conversion, nearest and linear filtering as the OpenCL
 * environment spec's "Image Addressing and Filtering" defines them),
 * sampler-less reads, and writes (format conversion, sRGB encoding), on the
 * image descriptors of sg_tex.def. Texels are read and written through the
 * core's checked memory access, so an image is as safe as a buffer. */
#include "sg_sim_impl.h"

#include <math.h>
#include <string.h>

/* ---- Formats --------------------------------------------------------------- */

enum cls { CLS_UNORM, CLS_SNORM, CLS_PACKED, CLS_FLOAT, CLS_SINT, CLS_UINT };

static const struct {
  uint8_t bytes, cls;
} types[SG_TEX_NUM_TYPES] = {
#define SG_TEX_TYPE(name, bytes, cls) [SG_TEX_TYPE_##name] = {bytes, CLS_##cls},
#include "sg_tex.def"
#undef SG_TEX_TYPE
};

static const char *const type_names[SG_TEX_NUM_TYPES] = {
#define SG_TEX_TYPE(name, bytes, cls) [SG_TEX_TYPE_##name] = #name,
#include "sg_tex.def"
#undef SG_TEX_TYPE
};

static const struct {
  const char *layout;
  uint8_t border_alpha, srgb;
} orders[SG_TEX_NUM_ORDERS] = {
#define SG_TEX_ORDER(name, layout, border_alpha, srgb)                                             \
  [SG_TEX_ORDER_##name] = {layout, border_alpha, srgb},
#include "sg_tex.def"
#undef SG_TEX_ORDER
};

static const struct {
  uint8_t dims, layer;
} geoms[SG_TEX_NUM_GEOMS] = {
#define SG_TEX_GEOM(name, dims, layer) [SG_TEX_GEOM_##name] = {dims, layer},
#include "sg_tex.def"
#undef SG_TEX_GEOM
};

/* The components (R G B) a packed type holds, and whether it holds alpha. */
static unsigned packed_rgb(const char *layout) {
  return (unsigned)(strchr(layout, 'R') && strchr(layout, 'G') && strchr(layout, 'B'));
}

uint32_t sg_tex_texel_size(uint32_t format) {
  unsigned type = format & 0xff, order = format >> 8;
  if (type >= SG_TEX_NUM_TYPES || order >= SG_TEX_NUM_ORDERS)
    return 0;
  const char *layout = orders[order].layout;
  size_t n = strlen(layout);
  if (orders[order].srgb && type != SG_TEX_TYPE_UNORM_INT8)
    return 0;
  if (types[type].cls == CLS_PACKED) /* RGB(x) for the 3-channel ones, RGBA for 101010_2 */
    return packed_rgb(layout) &&
                   (type == SG_TEX_TYPE_UNORM_INT_101010_2) == (n == 4 && layout[3] == 'A')
               ? types[type].bytes
               : 0;
  return (uint32_t)n * types[type].bytes;
}

/* A descriptor, checked and decoded. */
struct image {
  uint64_t base, pitch[3]; /* bytes per step in x, y, z (z: slices or layers) */
  int64_t size[3];         /* texels in x, y, z (z: slices or layers); 1 where unused */
  int64_t layers;
  unsigned dims, layered; /* coordinates that address texels; one more picks a layer */
  unsigned type, cls, nch, cbytes, elem;
  const char *layout;
  int8_t from[4]; /* per stored channel: the component (R G B A) it holds, -1: none */
  bool srgb;
  float border_alpha;
};

/* The format part of im; false for an unknown format. */
static bool decode_format(uint32_t format, struct image *im) {
  unsigned type = format & 0xff, order = format >> 8 & 0xff;
  uint32_t elem = sg_tex_texel_size(format);
  if (!elem || format >> 16)
    return false;
  im->type = type;
  im->cls = types[type].cls;
  im->cbytes = types[type].bytes;
  im->elem = elem;
  im->layout = orders[order].layout;
  im->nch = (unsigned)strlen(im->layout);
  for (unsigned i = 0; i < im->nch; i++) { /* I and L: from R; x: nothing */
    const char *at = strchr("RGBA", im->layout[i]);
    im->from[i] = (int8_t)(at ? at - "RGBA" : im->layout[i] == 'x' ? -1 : 0);
  }
  im->srgb = orders[order].srgb;
  im->border_alpha = orders[order].border_alpha;
  return true;
}

static bool decode_desc(const struct sg_tex_desc *d, struct image *im) {
  if (d->geometry >= SG_TEX_NUM_GEOMS || !decode_format(d->format, im) || !d->width || !d->height ||
      !d->depth || !d->layers)
    return false;
  im->base = d->base;
  im->dims = geoms[d->geometry].dims;
  im->layered = geoms[d->geometry].layer;
  im->pitch[0] = im->elem;
  im->pitch[1] = d->row_pitch;
  im->pitch[2] = d->slice_pitch;
  im->size[0] = d->width;
  im->size[1] = im->dims >= 2 ? d->height : 1;
  im->size[2] = im->dims == 3 ? d->depth : im->layered ? d->layers : 1; /* slices or layers */
  im->layers = im->layered ? d->layers : 1;
  return true;
}

/* ---- Conversions (environment spec, "Conversion Rules") ------------------- */

static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = h >> 10 & 31, man = h & 0x3ff, bits;
  if (exp == 31)
    bits = sign | 0x7f800000u | man << 13;
  else if (exp)
    bits = sign | (exp + 112) << 23 | man << 13;
  else if (man) { /* subnormal: normalize */
    exp = 113;
    while (!(man & 0x400))
      man <<= 1, exp--;
    bits = sign | exp << 23 | (man & 0x3ff) << 13;
  } else
    bits = sign;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

/* Round to nearest even (the spec's preferred rounding), overflow to
 * infinity, NaN kept NaN. */
static uint16_t float_to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sign = (uint16_t)(x >> 16 & 0x8000);
  uint32_t a = x & 0x7fffffffu;
  if (a > 0x7f800000u)
    return sign | 0x7e00 | (uint16_t)(a >> 13 & 0x1ff);
  if (a >= 0x477ff000u) /* rounds to 65520 or more: infinity */
    return sign | 0x7c00;
  if (a < 0x38800000u) { /* below the smallest normal half: subnormal or zero */
    if (a < 0x33000000u) /* below half the smallest subnormal */
      return sign;
    uint32_t man = (a & 0x7fffff) | 0x800000, shift = 126 - (a >> 23);
    uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
    h += rem > half || (rem == half && (h & 1));
    return sign | (uint16_t)h;
  }
  uint32_t h = (a >> 13) - (112u << 10), rem = a & 0x1fff;
  h += rem > 0x1000 || (rem == 0x1000 && (h & 1));
  return sign | (uint16_t)h;
}

/* round_to_nearest_even of a finite value already clamped to the type (a
 * small integer's range: floor is the truncation, one less below zero). */
static int64_t rne(double v) {
  int64_t r = (int64_t)v;
  r -= (double)r > v;
  double d = v - (double)r;
  return r + (d > 0.5 || (d == 0.5 && (r & 1)));
}

/* f(x) = max(0, min(n, n * x)), rounded to nearest even; NaN -> 0 (n * x is
 * exact in a double). */
static uint32_t to_norm(float x, double n) {
  if (x != x)
    return 0;
  double v = (double)x * n;
  return (uint32_t)rne(v < 0 ? 0 : v > n ? n : v);
}

static float srgb_to_linear(float r) {
  double v = r <= 0.04045f ? r / 12.92 : pow((r + 0.055) / 1.055, 2.4);
  return (float)v;
}

static float linear_to_srgb(float y) {
  if (!(y >= 0.0f)) /* negative or NaN */
    return 0.0f;
  if (y < 0.0031308f)
    return (float)(12.92 * y);
  return y <= 1.0f ? (float)(1.055 * pow(y, 1.0 / 2.4) - 0.055) : 1.0f;
}

/* (the hosts are little-endian, as the device; one load or store of each
 * size: a memcpy of a variable size was a call, and a 4-byte read of what
 * it wrote a byte at a time stalled, a third of an image read's time) */
static uint32_t load_le(const uint8_t *p, unsigned bytes) {
  uint16_t h;
  uint32_t w;
  switch (bytes) {
  case 1: return *p;
  case 2: memcpy(&h, p, 2); return h;
  default: memcpy(&w, p, 4); return w;
  }
}

static void store_le(uint8_t *p, uint32_t v, unsigned bytes) {
  uint16_t h = (uint16_t)v;
  switch (bytes) {
  case 1: *p = (uint8_t)v; break;
  case 2: memcpy(p, &h, 2); break;
  default: memcpy(p, &v, 4); break;
  }
}

/* The 8-bit normalized values, v / 255.0f and max(-1, (int8_t)v / 127.0f):
 * constant expressions, rounded as the division at run time would be, read
 * instead of dividing (the division's latency was another third). */
#define SG_R4(f, i) f(i), f(i + 1), f(i + 2), f(i + 3)
#define SG_R16(f, i) SG_R4(f, i), SG_R4(f, i + 4), SG_R4(f, i + 8), SG_R4(f, i + 12)
#define SG_R64(f, i) SG_R16(f, i), SG_R16(f, i + 16), SG_R16(f, i + 32), SG_R16(f, i + 48)
#define SG_UNORM8(i) ((float)(i) / 255.0f)
#define SG_SNORM8(i) ((i) == 128 ? -1.0f : (float)((i) < 128 ? (i) : (i) - 256) / 127.0f)
static const float unorm8[256] = {SG_R64(SG_UNORM8, 0), SG_R64(SG_UNORM8, 64),
                                  SG_R64(SG_UNORM8, 128), SG_R64(SG_UNORM8, 192)};
static const float snorm8[256] = {SG_R64(SG_SNORM8, 0), SG_R64(SG_SNORM8, 64),
                                  SG_R64(SG_SNORM8, 128), SG_R64(SG_SNORM8, 192)};

/* One channel of a non-packed texel, as a float (UNORM, SNORM, FLOAT
 * classes) or as the bits of a 32-bit integer (SINT, UINT). */
static uint32_t read_channel(const struct image *im, const uint8_t *p) {
  uint32_t v = load_le(p, im->cbytes);
  float f;
  switch (im->type) {
  case SG_TEX_TYPE_UNORM_INT8: f = unorm8[v]; break;
  case SG_TEX_TYPE_UNORM_INT16: f = (float)v / 65535.0f; break;
  case SG_TEX_TYPE_SNORM_INT8: f = snorm8[v]; break;
  case SG_TEX_TYPE_SNORM_INT16: f = fmaxf(-1.0f, (float)(int16_t)v / 32767.0f); break;
  case SG_TEX_TYPE_HALF_FLOAT: f = half_to_float((uint16_t)v); break;
  case SG_TEX_TYPE_SIGNED_INT8: return (uint32_t)(int32_t)(int8_t)v;
  case SG_TEX_TYPE_SIGNED_INT16: return (uint32_t)(int32_t)(int16_t)v;
  default: return v; /* FLOAT, SIGNED_INT32, UNSIGNED_* */
  }
  memcpy(&v, &f, 4);
  return v;
}

static uint32_t fbits(float f) {
  uint32_t v;
  memcpy(&v, &f, 4);
  return v;
}
static float bitsf(uint32_t v) {
  float f;
  memcpy(&f, &v, 4);
  return f;
}

/* The texel at p as four components (R, G, B, A): float bits for the
 * float classes, integer bits otherwise. */
static void read_texel(const struct image *im, const uint8_t *p, uint32_t out[4]) {
  bool ints = im->cls == CLS_SINT || im->cls == CLS_UINT;
  out[0] = out[1] = out[2] = 0;
  out[3] = ints ? 1 : fbits(1.0f);
  if (im->cls == CLS_PACKED) {
    uint32_t v = load_le(p, im->elem);
    switch (im->type) {
    case SG_TEX_TYPE_UNORM_SHORT_565:
      out[0] = fbits((float)(v >> 11 & 31) / 31.0f);
      out[1] = fbits((float)(v >> 5 & 63) / 63.0f);
      out[2] = fbits((float)(v & 31) / 31.0f);
      break;
    case SG_TEX_TYPE_UNORM_SHORT_555:
      for (int c = 0; c < 3; c++)
        out[c] = fbits((float)(v >> (10 - 5 * c) & 31) / 31.0f);
      break;
    case SG_TEX_TYPE_UNORM_INT_101010:
      for (int c = 0; c < 3; c++)
        out[c] = fbits((float)(v >> (20 - 10 * c) & 1023) / 1023.0f);
      break;
    default: /* UNORM_INT_101010_2 */
      for (int c = 0; c < 3; c++)
        out[c] = fbits((float)(v >> (22 - 10 * c) & 1023) / 1023.0f);
      out[3] = fbits((float)(v & 3) / 3.0f);
      break;
    }
    return;
  }
  for (unsigned i = 0; i < im->nch; i++) {
    uint32_t v = read_channel(im, p + i * im->cbytes);
    switch (im->layout[i]) {
    case 'R': out[0] = v; break;
    case 'G': out[1] = v; break;
    case 'B': out[2] = v; break;
    case 'A': out[3] = v; break;
    case 'I': out[0] = out[1] = out[2] = out[3] = v; break;
    case 'L': out[0] = out[1] = out[2] = v; break;
    default: break; /* x: ignored */
    }
  }
  if (im->srgb)
    for (int c = 0; c < 3; c++)
      out[c] = fbits(srgb_to_linear(bitsf(out[c])));
}

/* One channel of value v (float or integer bits, per the image's class). */
static void write_channel(const struct image *im, uint8_t *p, uint32_t v) {
  float f = bitsf(v);
  int32_t s = (int32_t)v;
  uint32_t r;
  switch (im->type) {
  case SG_TEX_TYPE_UNORM_INT8: r = to_norm(f, 255.0); break;
  case SG_TEX_TYPE_UNORM_INT16: r = to_norm(f, 65535.0); break;
  case SG_TEX_TYPE_SNORM_INT8:
    r = (uint32_t)(f != f ? 0 : rne(fmax(-128, fmin(127, 127.0 * f))));
    break;
  case SG_TEX_TYPE_SNORM_INT16:
    r = (uint32_t)(f != f ? 0 : rne(fmax(-32768, fmin(32767, 32767.0 * f))));
    break;
  case SG_TEX_TYPE_HALF_FLOAT: r = float_to_half(f); break;
  case SG_TEX_TYPE_SIGNED_INT8: r = (uint32_t)(s < -128 ? -128 : s > 127 ? 127 : s); break;
  case SG_TEX_TYPE_SIGNED_INT16: r = (uint32_t)(s < -32768 ? -32768 : s > 32767 ? 32767 : s); break;
  case SG_TEX_TYPE_UNSIGNED_INT8: r = v > 255 ? 255 : v; break;
  case SG_TEX_TYPE_UNSIGNED_INT16: r = v > 65535 ? 65535 : v; break;
  default: r = v; break; /* FLOAT, SIGNED_INT32, UNSIGNED_INT32 */
  }
  store_le(p, r, im->cbytes);
}

/* Stores components in[4] (R, G, B, A) as the texel at p. */
static void write_texel(const struct image *im, uint8_t *p, const uint32_t in[4]) {
  uint32_t c[4] = {in[0], in[1], in[2], in[3]};
  if (im->srgb)
    for (int i = 0; i < 3; i++)
      c[i] = fbits(linear_to_srgb(bitsf(c[i])));
  if (im->cls == CLS_PACKED) {
    uint32_t v;
    float r = bitsf(c[0]), g = bitsf(c[1]), b = bitsf(c[2]);
    switch (im->type) {
    case SG_TEX_TYPE_UNORM_SHORT_565:
      v = to_norm(r, 31) << 11 | to_norm(g, 63) << 5 | to_norm(b, 31);
      break;
    case SG_TEX_TYPE_UNORM_SHORT_555:
      v = to_norm(r, 31) << 10 | to_norm(g, 31) << 5 | to_norm(b, 31);
      break;
    case SG_TEX_TYPE_UNORM_INT_101010:
      v = to_norm(r, 1023) << 20 | to_norm(g, 1023) << 10 | to_norm(b, 1023);
      break;
    default: /* UNORM_INT_101010_2 */
      v = to_norm(r, 1023) << 22 | to_norm(g, 1023) << 12 | to_norm(b, 1023) << 2 |
          to_norm(bitsf(c[3]), 3);
      break;
    }
    store_le(p, v, im->elem);
    return;
  }
  for (unsigned i = 0; i < im->nch; i++)
    write_channel(im, p + i * im->cbytes, im->from[i] < 0 ? 0 : c[im->from[i]]);
}

uint32_t sg_tex_encode(uint32_t format, const uint32_t value[4], uint8_t *texel) {
  struct image im;
  if (!decode_format(format, &im))
    return 0;
  write_texel(&im, texel, value);
  return im.elem;
}

/* ---- One lane's access ------------------------------------------------------ */

/* The unit working on one lane of one instruction. */
struct lane_op {
  struct sg_core *c;
  struct sg_warp *w;
  uint64_t pc;
  unsigned lane;
  bool stop;                  /* the CTA must end */
  struct sg_insn_record *rec; /* NULL in the fast loop */
};

/* Reports a finding about this lane; false when the CTA must end. */
#define REPORT(op, kind, ...)                                                                      \
  (sg_core_report((op)->c, (op)->w, SG_FAULT_##kind, (op)->pc, (op)->lane, 0, 0, __VA_ARGS__)      \
       ? true                                                                                      \
       : ((op)->stop = true, false))

static void note_texel(struct lane_op *op, uint64_t a) {
  struct sg_insn_record *r = op->rec;
  if (!r)
    return;
  uint8_t *n = &r->texels[op->lane];
  if (*n == 0)
    r->addr[op->lane] = a;
  if (*n < SG_TEX_MAX_TEXELS)
    r->texel_addr[op->lane][(*n)++] = a;
}

/* Texel (x, y, z) of im, where z is the slice or layer: its host address
 * for perm (NULL when the access is a finding: skipped). */
static uint8_t *texel_ptr(struct lane_op *op, const struct image *im, int64_t x, int64_t y,
                          int64_t z, uint32_t perm) {
  uint64_t a = im->base + (uint64_t)x * im->pitch[0] + (uint64_t)y * im->pitch[1] +
               (uint64_t)z * im->pitch[2];
  note_texel(op, a);
  bool stop = false;
  uint8_t *h = sg_core_access(op->c, op->w, op->pc, op->lane, a, im->elem, perm,
                              perm & SG_PERM_W ? "image write" : "image read", &stop);
  op->stop |= stop;
  return h;
}

static bool inside(const struct image *im, const int64_t t[3]) {
  for (unsigned d = 0; d < 3; d++)
    if (t[d] < 0 || t[d] >= im->size[d])
      return false;
  return true;
}

/* The texel at t (x, y, z; the layer already in z for arrays), or the
 * border color outside the image. */
static void fetch(struct lane_op *op, const struct image *im, const int64_t t[3], uint32_t out[4]) {
  bool ints = im->cls == CLS_SINT || im->cls == CLS_UINT;
  if (!inside(im, t)) {
    out[0] = out[1] = out[2] = 0;
    out[3] = ints ? (uint32_t)im->border_alpha : fbits(im->border_alpha);
    return;
  }
  const uint8_t *p = texel_ptr(op, im, t[0], t[1], t[2], SG_PERM_R);
  if (p)
    read_texel(im, p, out);
  else
    memset(out, 0, 4 * sizeof *out);
}

/* floor(x) as an integer, saturated far outside any image (NaN: 0). */
static int64_t ifloor(float x) {
  if (x != x)
    return 0;
  float f = floorf(x);
  return f < -1e12f ? -(1ll << 40) : f > 1e12f ? 1ll << 40 : (int64_t)f;
}

/* address_mode(coord) of the clamp modes (NONE leaves it). */
static int64_t clamp_mode(unsigned addr, int64_t v, int64_t n) {
  if (addr == SG_TEX_ADDR_CLAMP_TO_EDGE)
    return v < 0 ? 0 : v > n - 1 ? n - 1 : v;
  if (addr == SG_TEX_ADDR_CLAMP)
    return v < -1 ? -1 : v > n ? n : v;
  return v;
}

/* Texel indices i0, i1 and weight a of one coordinate s over n texels
 * (environment spec, "Addressing and Filter Modes"). Nearest: i0 only. */
static void address(unsigned smp, bool linear, float s, int64_t n, int64_t *i0, int64_t *i1,
                    float *a) {
  unsigned addr = smp & SG_TEX_ADDR_MASK;
  float fn = (float)n, u;
  if (addr == SG_TEX_ADDR_REPEAT) {
    u = (s - floorf(s)) * fn;
    if (!linear) {
      *i0 = ifloor(u);
      *i0 -= *i0 > n - 1 ? n : 0;
      return;
    }
    *i0 = ifloor(u - 0.5f);
    *i1 = *i0 + 1;
    *i0 += *i0 < 0 ? n : 0;
    *i1 -= *i1 > n - 1 ? n : 0;
  } else if (addr == SG_TEX_ADDR_MIRRORED_REPEAT) {
    float sp = fabsf(s - 2.0f * rintf(0.5f * s));
    u = sp * fn;
    if (!linear) {
      *i0 = ifloor(u);
      *i0 = *i0 > n - 1 ? n - 1 : *i0;
      return;
    }
    *i0 = ifloor(u - 0.5f);
    *i1 = *i0 + 1;
    *i0 = *i0 < 0 ? 0 : *i0;
    *i1 = *i1 > n - 1 ? n - 1 : *i1;
  } else {
    u = (smp & SG_TEX_NORMALIZED) ? s * fn : s;
    if (!linear) {
      *i0 = clamp_mode(addr, ifloor(u), n);
      return;
    }
    int64_t f = ifloor(u - 0.5f);
    *i0 = clamp_mode(addr, f, n);
    *i1 = clamp_mode(addr, f + 1, n);
  }
  float x = u - 0.5f;
  *a = x - floorf(x);
}

/* The layer an array read picks: the coordinate rounded to nearest even
 * and clamped to the array (the layer coordinate is never addressed). */
static int64_t pick_layer(float v, int64_t layers) {
  int64_t l = v != v ? 0 : (int64_t)fmaxf(-1.0f, fminf(rintf(v), 1e9f));
  return l < 0 ? 0 : l >= layers ? layers - 1 : l;
}

/* A sampled read with float coordinates f (x, y, z). */
static void sample_float(struct lane_op *op, const struct image *im, unsigned smp, const float f[3],
                         uint32_t out[4]) {
  bool linear = (smp & SG_TEX_FILTER_MASK) == SG_TEX_LINEAR;
  unsigned addr = smp & SG_TEX_ADDR_MASK;
  if (linear && (im->cls == CLS_SINT || im->cls == CLS_UINT)) {
    if (!REPORT(op, IMAGE_SAMPLER,
                "linear filtering of an integer image (read_imagei/ui need "
                "CLK_FILTER_NEAREST): read with nearest filtering"))
      return;
    linear = false;
  }
  if (!(smp & SG_TEX_NORMALIZED) &&
      (addr == SG_TEX_ADDR_REPEAT || addr == SG_TEX_ADDR_MIRRORED_REPEAT) &&
      !REPORT(op, IMAGE_SAMPLER,
              "%s addressing without normalized coordinates: the "
              "coordinates are wrapped as if normalized",
              addr == SG_TEX_ADDR_REPEAT ? "repeat" : "mirrored repeat"))
    return;
  int64_t i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
  float a[3] = {0, 0, 0};
  for (unsigned d = 0; d < im->dims; d++)
    address(smp, linear, f[d], im->size[d], &i0[d], &i1[d], &a[d]);
  if (im->layered)
    i0[2] = i1[2] = pick_layer(f[im->dims], im->layers);
  if (!linear) {
    if (addr == SG_TEX_ADDR_NONE && !inside(im, i0) &&
        !REPORT(op, IMAGE_BOUNDS,
                "image read at texel (%lld, %lld, %lld) outside the "
                "%lldx%lldx%lld image with CLK_ADDRESS_NONE: the border color",
                (long long)i0[0], (long long)i0[1], (long long)i0[2], (long long)im->size[0],
                (long long)im->size[1], (long long)im->size[2]))
      return;
    fetch(op, im, i0, out);
    return;
  }
  /* The 2, 4 or 8 texels of the footprint, weighted as the spec's sum. */
  double sum[4] = {0, 0, 0, 0};
  unsigned corners = 1u << im->dims;
  bool reported = false;
  for (unsigned k = 0; k < corners && !op->stop; k++) {
    int64_t t[3] = {i0[0], i0[1], i0[2]};
    double wgt = 1.0;
    for (unsigned d = 0; d < im->dims; d++) {
      bool hi = k >> d & 1;
      t[d] = hi ? i1[d] : i0[d];
      wgt *= hi ? (double)a[d] : 1.0 - (double)a[d];
    }
    if (wgt == 0.0) /* a texel without weight is not read */
      continue;
    if (addr == SG_TEX_ADDR_NONE && !inside(im, t) && !reported) {
      reported = true;
      if (!REPORT(op, IMAGE_BOUNDS,
                  "linear image read whose footprint leaves the image at "
                  "texel (%lld, %lld, %lld) with CLK_ADDRESS_NONE: "
                  "the border color there",
                  (long long)t[0], (long long)t[1], (long long)t[2]))
        return;
    }
    uint32_t v[4];
    fetch(op, im, t, v);
    for (int c = 0; c < 4; c++)
      sum[c] += wgt * (double)bitsf(v[c]);
  }
  for (int c = 0; c < 4; c++)
    out[c] = fbits((float)sum[c]);
}

/* Is the sampler one the spec defines for integer coordinates
 * (unnormalized, nearest, none / clamp-to-edge / clamp)? */
static bool int_coords_ok(unsigned smp) {
  unsigned addr = smp & SG_TEX_ADDR_MASK;
  return !(smp & SG_TEX_NORMALIZED) && (smp & SG_TEX_FILTER_MASK) == SG_TEX_NEAREST &&
         addr <= SG_TEX_ADDR_CLAMP;
}

/* A read with integer coordinates c: through a sampler (op SAMPLEI) or
 * without one (LOAD: in-range coordinates only). */
static void read_int(struct lane_op *op, const struct image *im, unsigned smp, bool sampled,
                     const int32_t c[3], uint32_t out[4]) {
  int64_t t[3] = {0, 0, 0};
  unsigned addr = smp & SG_TEX_ADDR_MASK;
  for (unsigned d = 0; d < im->dims; d++)
    t[d] = sampled ? clamp_mode(addr, c[d], im->size[d]) : c[d];
  if (im->layered) { /* a sampler clamps the layer; without one it must be in range */
    int64_t l = c[im->dims];
    t[2] = sampled ? (l < 0 ? 0 : l >= im->layers ? im->layers - 1 : l) : l;
  }
  if ((!sampled || addr == SG_TEX_ADDR_NONE) && !inside(im, t) &&
      !REPORT(op, IMAGE_BOUNDS,
              "image read at (%d, %d, %d) outside the %lldx%lldx%lld image %s: "
              "the border color",
              c[0], c[1], c[2], (long long)im->size[0], (long long)im->size[1],
              (long long)im->size[2],
              sampled ? "with CLK_ADDRESS_NONE" : "(a read without sampler)"))
    return;
  fetch(op, im, t, out);
}

/* A write of data to integer coordinates c; outside the image it is
 * dropped. */
static void write_int(struct lane_op *op, const struct image *im, const int32_t c[3],
                      const uint32_t data[4]) {
  int64_t t[3] = {0, 0, 0};
  for (unsigned d = 0; d < im->dims + im->layered; d++)
    t[d < im->dims ? d : 2] = c[d];
  if (!inside(im, t)) {
    (void)REPORT(op, IMAGE_BOUNDS,
                 "image write at (%d, %d, %d) outside the %lldx%lldx%lld "
                 "image: dropped",
                 c[0], c[1], c[2], (long long)im->size[0], (long long)im->size[1],
                 (long long)im->size[2]);
    return;
  }
  uint8_t *p = texel_ptr(op, im, t[0], t[1], t[2], SG_PERM_W);
  if (p)
    write_texel(im, p, data);
}

/* ---- The instruction -------------------------------------------------------- */

static const char *const kind_names[] = {"float", "int", "uint"};

/* Does the register kind match the image's channel type? */
static bool kind_matches(unsigned kind, unsigned cls) {
  return kind == SG_TEX_KIND_INT    ? cls == CLS_SINT
         : kind == SG_TEX_KIND_UINT ? cls == CLS_UINT
                                    : cls != CLS_SINT && cls != CLS_UINT;
}

/* Reads and checks the descriptor at a; false when the lane is skipped
 * (a finding) or the CTA ends (op->stop). */
static bool load_image(struct lane_op *op, uint64_t a, struct image *im) {
  bool stop = false;
  const uint8_t *p = sg_core_access(op->c, op->w, op->pc, op->lane, a, sizeof(struct sg_tex_desc),
                                    SG_PERM_R, "image descriptor read", &stop);
  op->stop |= stop;
  if (!p)
    return false;
  struct sg_tex_desc d;
  memcpy(&d, p, sizeof d);
  if (decode_desc(&d, im))
    return true;
  (void)REPORT(op, IMAGE_DESC,
               "the image descriptor at 0x%llx is not valid (geometry %u, format 0x%x, "
               "%ux%ux%u, %u layers)",
               (unsigned long long)a, d.geometry, d.format, d.width, d.height, d.depth, d.layers);
  return false;
}

/* The sampler word, checked: an invalid one reads as nearest, unnormalized,
 * no addressing. */
static bool check_sampler(struct lane_op *op, unsigned *smp) {
  unsigned s = *smp, filter = s & SG_TEX_FILTER_MASK;
  if (!(s >> 6) && (s & SG_TEX_ADDR_MASK) <= SG_TEX_ADDR_MIRRORED_REPEAT &&
      (filter == SG_TEX_NEAREST || filter == SG_TEX_LINEAR))
    return true;
  *smp = SG_TEX_NEAREST;
  return REPORT(op, IMAGE_SAMPLER,
                "invalid sampler word 0x%x: read as unnormalized, nearest, "
                "CLK_ADDRESS_NONE",
                s);
}

/* One lane: the instruction's work between its operands and its result. */
static void exec_lane(struct lane_op *op, const struct sg_uop *u, const struct image *im,
                      const uint64_t *coord, uint64_t sampler, uint64_t data[2]) {
  unsigned kind = u->rm, smp = (uint32_t)sampler;
  int32_t ic[3] = {(int32_t)coord[0], (int32_t)(coord[0] >> 32), (int32_t)coord[1]};
  float fc[3] = {bitsf((uint32_t)coord[0]), bitsf((uint32_t)(coord[0] >> 32)),
                 bitsf((uint32_t)coord[1])};
  uint32_t v[4] = {(uint32_t)data[0], (uint32_t)(data[0] >> 32), (uint32_t)data[1],
                   (uint32_t)(data[1] >> 32)};
  if (!kind_matches(kind, im->cls) &&
      !REPORT(op, IMAGE_TYPE, "%s with %s values of an image of channel type %s",
              u->op == SG_OP_TEX_STORE ? "write" : "read", kind_names[kind], type_names[im->type]))
    return;
  switch (u->op) {
  case SG_OP_TEX_STORE: write_int(op, im, ic, v); return;
  case SG_OP_TEX_LOAD: read_int(op, im, SG_TEX_NEAREST, false, ic, v); break;
  case SG_OP_TEX_SAMPLEI:
    if (!check_sampler(op, &smp))
      return;
    if (int_coords_ok(smp)) {
      read_int(op, im, smp, true, ic, v);
      break;
    }
    if (!REPORT(op, IMAGE_SAMPLER,
                "integer coordinates with a sampler that is not "
                "unnormalized, nearest and none/clamp/clamp-to-edge: read "
                "as float coordinates"))
      return;
    for (int d = 0; d < 3; d++)
      fc[d] = (float)ic[d];
    sample_float(op, im, smp, fc, v);
    break;
  default: /* TEX_SAMPLE */
    if (!check_sampler(op, &smp))
      return;
    sample_float(op, im, smp, fc, v);
    break;
  }
  data[0] = v[0] | (uint64_t)v[1] << 32;
  data[1] = v[2] | (uint64_t)v[3] << 32;
}

bool sg_tex_exec(struct sg_core *c, struct sg_warp *w, const struct sg_uop *u, uint64_t pc,
                 uint64_t mask, struct sg_insn_record *rec) {
  struct lane_op op = {.c = c, .w = w, .pc = pc, .rec = rec};
  struct image im;
  uint64_t desc = 0;
  bool have = false, store = u->op == SG_OP_TEX_STORE;
  if (rec) {
    rec->mem = store ? SG_MEM_STORE : SG_MEM_LOAD;
    rec->space = SG_SPACE_GLOBAL;
    rec->size = 0;
  }
  for (uint64_t m = mask; m && !op.stop; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    op.lane = l;
    if (rec) {
      rec->texels[l] = 0;
      rec->addr[l] = 0;
    }
    /* Operands first: the result pair may overlap them. */
    uint64_t a = w->x[u->rs1][l], coord[2] = {w->x[u->rs2][l], w->x[u->rs2 + 1][l]};
    uint64_t sampler = w->x[u->rs3][l], data[2] = {0, 0};
    if (store) {
      data[0] = w->x[u->rd][l];
      data[1] = w->x[u->rd + 1][l];
    }
    if (!have || a != desc) { /* the warp's lanes usually share one image */
      have = load_image(&op, a, &im);
      desc = a;
    }
    if (have) { /* else the lane reads zeros */
      if (rec)
        rec->size = im.elem;
      exec_lane(&op, u, &im, coord, sampler, data);
    }
    if (!store && !op.stop) {
      w->x[u->rd][l] = data[0];
      w->x[u->rd + 1][l] = data[1];
    }
  }
  if (rec)
    sg_record_span(rec, mask);
  return !op.stop;
}
