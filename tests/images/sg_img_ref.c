/* SPDX-License-Identifier: MIT */
/* tests/images: the host reference (sg_img_ref.h), written from the specs
 * alone. Half floats go through the host compiler's _Float16 (round to
 * nearest even both ways). */
#include "sg_img_ref.h"

#include <math.h>
#include <string.h>

/* ---- Formats (API 5.3.1.1) ------------------------------------------------- */

/* Channels in memory order: r g b a, i (intensity: all four), l (luminance:
 * r g b). */
static const char *channels(cl_channel_order o) {
  switch (o) {
  case CL_R:
  case CL_DEPTH: return "r";
  case CL_A: return "a";
  case CL_RG: return "rg";
  case CL_RA: return "ra";
  case CL_RGB: return "rgb";
  case CL_RGBA:
  case CL_sRGBA: return "rgba";
  case CL_BGRA:
  case CL_sBGRA: return "bgra";
  case CL_ARGB: return "argb";
  case CL_ABGR: return "abgr";
  case CL_INTENSITY: return "i";
  case CL_LUMINANCE: return "l";
  default: return "";
  }
}

static size_t channel_bytes(cl_channel_type t) {
  switch (t) {
  case CL_SNORM_INT8:
  case CL_UNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8: return 1;
  case CL_SNORM_INT16:
  case CL_UNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT: return 2;
  default: return 4;
  }
}

static bool packed(cl_channel_type t) {
  return t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010 ||
         t == CL_UNORM_INT_101010_2;
}

size_t ref_elem_size(const cl_image_format *f) {
  cl_channel_type t = f->image_channel_data_type;
  if (t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555)
    return 2;
  if (packed(t))
    return 4;
  return strlen(channels(f->image_channel_order)) * channel_bytes(t);
}

enum ref_class ref_class_of(const cl_image_format *f) {
  switch (f->image_channel_data_type) {
  case CL_SIGNED_INT8:
  case CL_SIGNED_INT16:
  case CL_SIGNED_INT32: return REF_INT;
  case CL_UNSIGNED_INT8:
  case CL_UNSIGNED_INT16:
  case CL_UNSIGNED_INT32: return REF_UINT;
  default: return REF_FLOAT;
  }
}

bool ref_is_srgb(const cl_image_format *f) {
  return f->image_channel_order == CL_sRGBA || f->image_channel_order == CL_sBGRA;
}

/* ---- Reading (environment spec, "Conversion Rules") --------------------- */

static uint32_t le(const uint8_t *p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; i++)
    v |= (uint32_t)p[i] << (8 * i);
  return v;
}

static float half_bits_to_float(uint16_t h) {
  _Float16 x;
  memcpy(&x, &h, 2);
  return (float)x;
}

/* normalized_float_value and the integer rules, per channel. */
static union ref_val channel_value(cl_channel_type t, const uint8_t *p) {
  union ref_val v = {{0}};
  uint32_t raw = le(p, channel_bytes(t));
  switch (t) {
  case CL_UNORM_INT8: v.f[0] = (float)raw / 255.0f; break;
  case CL_UNORM_INT16: v.f[0] = (float)raw / 65535.0f; break;
  case CL_SNORM_INT8: v.f[0] = fmaxf(-1.0f, (float)(int8_t)raw / 127.0f); break;
  case CL_SNORM_INT16: v.f[0] = fmaxf(-1.0f, (float)(int16_t)raw / 32767.0f); break;
  case CL_HALF_FLOAT: v.f[0] = half_bits_to_float((uint16_t)raw); break;
  case CL_FLOAT: memcpy(&v.f[0], &raw, 4); break;
  case CL_SIGNED_INT8: v.i[0] = (int8_t)raw; break;
  case CL_SIGNED_INT16: v.i[0] = (int16_t)raw; break;
  default: v.u[0] = raw; break; /* 32-bit and unsigned */
  }
  return v;
}

static float srgb_decode(float r) {
  return r <= 0.04045f ? (float)(r / 12.92) : (float)pow((r + 0.055) / 1.055, 2.4);
}

void ref_border(const cl_image_format *f, union ref_val *out) {
  cl_channel_order o = f->image_channel_order;
  bool alpha_one = o == CL_R || o == CL_RG || o == CL_RGB || o == CL_LUMINANCE || o == CL_DEPTH;
  memset(out, 0, sizeof *out);
  if (alpha_one) {
    if (ref_class_of(f) == REF_FLOAT)
      out->f[3] = 1.0f;
    else
      out->u[3] = 1;
  }
}

static void decode(const cl_image_format *f, const uint8_t *p, union ref_val *out) {
  cl_channel_type t = f->image_channel_data_type;
  bool flt = ref_class_of(f) == REF_FLOAT;
  memset(out, 0, sizeof *out);
  if (flt)
    out->f[3] = 1.0f;
  else
    out->u[3] = 1;
  if (packed(t)) {
    uint32_t v = le(p, ref_elem_size(f));
    if (t == CL_UNORM_SHORT_565) {
      out->f[0] = (float)(v >> 11) / 31.0f;
      out->f[1] = (float)((v >> 5) & 0x3f) / 63.0f;
      out->f[2] = (float)(v & 0x1f) / 31.0f;
    } else if (t == CL_UNORM_SHORT_555) {
      out->f[0] = (float)((v >> 10) & 0x1f) / 31.0f;
      out->f[1] = (float)((v >> 5) & 0x1f) / 31.0f;
      out->f[2] = (float)(v & 0x1f) / 31.0f;
    } else if (t == CL_UNORM_INT_101010) {
      out->f[0] = (float)((v >> 20) & 0x3ff) / 1023.0f;
      out->f[1] = (float)((v >> 10) & 0x3ff) / 1023.0f;
      out->f[2] = (float)(v & 0x3ff) / 1023.0f;
    } else {
      out->f[0] = (float)(v >> 22) / 1023.0f;
      out->f[1] = (float)((v >> 12) & 0x3ff) / 1023.0f;
      out->f[2] = (float)((v >> 2) & 0x3ff) / 1023.0f;
      out->f[3] = (float)(v & 3) / 3.0f;
    }
    return;
  }
  const char *ch = channels(f->image_channel_order);
  size_t cb = channel_bytes(t);
  for (size_t c = 0; ch[c]; c++) {
    uint32_t v = channel_value(t, p + c * cb).u[0];
    switch (ch[c]) {
    case 'r': out->u[0] = v; break;
    case 'g': out->u[1] = v; break;
    case 'b': out->u[2] = v; break;
    case 'a': out->u[3] = v; break;
    case 'i': out->u[0] = out->u[1] = out->u[2] = out->u[3] = v; break;
    case 'l': out->u[0] = out->u[1] = out->u[2] = v; break;
    }
  }
  if (ref_is_srgb(f))
    for (int c = 0; c < 3; c++)
      out->f[c] = srgb_decode(out->f[c]);
}

static bool is_array(cl_mem_object_type t) {
  return t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

void ref_texel(const struct ref_image *im, long x, long y, long z, union ref_val *out) {
  long zmax = (long)(is_array(im->type) ? im->layers : im->d);
  if (x < 0 || y < 0 || z < 0 || x >= (long)im->w || y >= (long)im->h || z >= zmax) {
    ref_border(&im->fmt, out);
    return;
  }
  size_t off = (size_t)x * ref_elem_size(&im->fmt) + (size_t)z * im->slice;
  /* A 1D array's layers are its slices; other images step rows by y. */
  off += (size_t)y * im->row;
  decode(&im->fmt, im->data + off, out);
}

/* ---- Sampling (environment spec, "Addressing and Filter Modes") -------- */

static unsigned texel_dims(cl_mem_object_type t) {
  switch (t) {
  case CL_MEM_OBJECT_IMAGE2D:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY: return 2;
  case CL_MEM_OBJECT_IMAGE3D: return 3;
  default: return 1;
  }
}

static long clampl(long v, long lo, long hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* floor of a float as a long, far values held far outside any image. */
static long lfloor(float v) {
  double f = floor((double)v);
  return f < -1e9 ? -1000000000L : f > 1e9 ? 1000000000L : (long)f;
}

/* address_mode() for CLAMP_TO_EDGE, CLAMP and NONE. */
static long address_mode(cl_addressing_mode m, long v, long n) {
  if (m == CL_ADDRESS_CLAMP_TO_EDGE)
    return clampl(v, 0, n - 1);
  if (m == CL_ADDRESS_CLAMP)
    return clampl(v, -1, n);
  return v;
}

/* Texel indices and the weight a of coordinate s in one dimension of n
 * texels, the formulas of the spec's three addressing sections. */
static void locate(bool normalized, cl_addressing_mode m, bool linear, float s, long n, long *i0,
                   long *i1, float *a) {
  float u;
  if (m == CL_ADDRESS_REPEAT) {
    u = (s - floorf(s)) * (float)n;
    if (!linear) {
      *i0 = lfloor(u);
      if (*i0 > n - 1)
        *i0 -= n;
      *i1 = *i0;
      *a = 0;
      return;
    }
    *i0 = lfloor(u - 0.5f);
    *i1 = *i0 + 1;
    if (*i0 < 0)
      *i0 += n;
    if (*i1 > n - 1)
      *i1 -= n;
  } else if (m == CL_ADDRESS_MIRRORED_REPEAT) {
    float sp = 2.0f * rintf(0.5f * s);
    sp = fabsf(s - sp);
    u = sp * (float)n;
    if (!linear) {
      *i0 = lfloor(u);
      if (*i0 > n - 1)
        *i0 = n - 1;
      *i1 = *i0;
      *a = 0;
      return;
    }
    *i0 = lfloor(u - 0.5f);
    *i1 = *i0 + 1;
    if (*i0 < 0)
      *i0 = 0;
    if (*i1 > n - 1)
      *i1 = n - 1;
  } else {
    u = normalized ? s * (float)n : s;
    if (!linear) {
      *i0 = *i1 = address_mode(m, lfloor(u), n);
      *a = 0;
      return;
    }
    *i0 = address_mode(m, lfloor(u - 0.5f), n);
    *i1 = address_mode(m, lfloor(u - 0.5f) + 1, n);
  }
  float x = u - 0.5f;
  *a = x - floorf(x);
}

void ref_sample(const struct ref_image *im, bool normalized, cl_addressing_mode addr,
                cl_filter_mode filter, const float c[3], union ref_val *out) {
  unsigned dims = texel_dims(im->type);
  bool linear = filter == CL_FILTER_LINEAR;
  long size[3] = {(long)im->w, (long)im->h, (long)im->d};
  long i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
  float a[3] = {0, 0, 0};
  for (unsigned d = 0; d < dims; d++)
    locate(normalized, addr, linear, c[d], size[d], &i0[d], &i1[d], &a[d]);
  long layer = 0;
  if (is_array(im->type)) { /* layer = clamp(rint(w), 0, d_t - 1) */
    float w = c[dims];
    layer = clampl(w != w ? 0 : lfloor(rintf(w)), 0, (long)im->layers - 1);
  }
  /* The slice/layer index: z of 3D images, the layer of arrays. */
  long z0 = dims == 3 ? i0[2] : layer, z1 = dims == 3 ? i1[2] : layer;
  if (!linear) {
    ref_texel(im, i0[0], i0[1], z0, out);
    return;
  }
  double sum[4] = {0, 0, 0, 0};
  for (int k = 0; k < 8; k++) {
    int bx = k & 1, by = k >> 1 & 1, bz = k >> 2 & 1;
    if ((dims < 2 && by) || (dims < 3 && bz))
      continue;
    double wx = bx ? a[0] : 1.0 - a[0];
    double wy = dims >= 2 ? (by ? a[1] : 1.0 - a[1]) : 1.0;
    double wz = dims == 3 ? (bz ? a[2] : 1.0 - a[2]) : 1.0;
    union ref_val t;
    ref_texel(im, bx ? i1[0] : i0[0], by ? i1[1] : i0[1], bz ? z1 : z0, &t);
    for (int ch = 0; ch < 4; ch++)
      sum[ch] += wx * wy * wz * t.f[ch];
  }
  for (int ch = 0; ch < 4; ch++)
    out->f[ch] = (float)sum[ch];
}

void ref_read_int(const struct ref_image *im, bool sampled, cl_addressing_mode addr, const int c[3],
                  union ref_val *out) {
  unsigned dims = texel_dims(im->type);
  long size[3] = {(long)im->w, (long)im->h, (long)im->d}, t[3] = {0, 0, 0};
  for (unsigned d = 0; d < dims; d++)
    t[d] = sampled ? address_mode(addr, c[d], size[d]) : c[d];
  long z = dims == 3 ? t[2] : 0;
  if (is_array(im->type))
    z = sampled ? clampl(c[dims], 0, (long)im->layers - 1) : c[dims];
  ref_texel(im, t[0], t[1], z, out);
}

/* ---- Writing (environment spec, "Conversion Rules") --------------------- */

/* round_to_nearest_even of max(lo, min(hi, scale * x)); NaN gives 0. */
static uint32_t norm(float x, double scale, double lo, double hi) {
  if (isnan(x))
    return 0;
  double v = fmin(hi, fmax(lo, scale * (double)x));
  return (uint32_t)(int32_t)rint(v); /* the default rounding mode: to nearest even */
}

static float srgb_encode(float y) {
  if (isnan(y) || y < 0)
    return 0;
  if (y < 0.0031308f)
    return (float)(12.92 * y);
  if (y > 1)
    return 1;
  return (float)(1.055 * pow(y, 1 / 2.4) - 0.055);
}

static void put(uint8_t *p, uint32_t v, size_t n) {
  for (size_t i = 0; i < n; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t sat(int64_t v, int64_t lo, int64_t hi) {
  return (uint32_t)(v < lo ? lo : v > hi ? hi : v);
}

static uint32_t encode_channel(cl_channel_type t, const union ref_val *v, int c) {
  float x = v->f[c];
  switch (t) {
  case CL_UNORM_INT8: return norm(x, 255, 0, 255);
  case CL_UNORM_INT16: return norm(x, 65535, 0, 65535);
  case CL_SNORM_INT8: return norm(x, 127, -128, 127) & 0xff;
  case CL_SNORM_INT16: return norm(x, 32767, -32768, 32767) & 0xffff;
  case CL_HALF_FLOAT: {
    _Float16 h = (_Float16)x;
    uint16_t b;
    memcpy(&b, &h, 2);
    return b;
  }
  case CL_FLOAT: return v->u[c];
  case CL_SIGNED_INT8: return sat(v->i[c], -128, 127) & 0xff;
  case CL_SIGNED_INT16: return sat(v->i[c], -32768, 32767) & 0xffff;
  case CL_SIGNED_INT32: return v->u[c];
  case CL_UNSIGNED_INT8: return sat(v->u[c], 0, 255);
  case CL_UNSIGNED_INT16: return sat(v->u[c], 0, 65535);
  default: return v->u[c];
  }
}

void ref_encode(const cl_image_format *f, const union ref_val *in, uint8_t *texel) {
  cl_channel_type t = f->image_channel_data_type;
  union ref_val v = *in;
  if (ref_is_srgb(f))
    for (int c = 0; c < 3; c++)
      v.f[c] = srgb_encode(v.f[c]);
  if (packed(t)) {
    uint32_t w;
    if (t == CL_UNORM_SHORT_565)
      w = norm(v.f[0], 31, 0, 31) << 11 | norm(v.f[1], 63, 0, 63) << 5 | norm(v.f[2], 31, 0, 31);
    else if (t == CL_UNORM_SHORT_555)
      w = norm(v.f[0], 31, 0, 31) << 10 | norm(v.f[1], 31, 0, 31) << 5 | norm(v.f[2], 31, 0, 31);
    else if (t == CL_UNORM_INT_101010)
      w = norm(v.f[0], 1023, 0, 1023) << 20 | norm(v.f[1], 1023, 0, 1023) << 10 |
          norm(v.f[2], 1023, 0, 1023);
    else
      w = norm(v.f[0], 1023, 0, 1023) << 22 | norm(v.f[1], 1023, 0, 1023) << 12 |
          norm(v.f[2], 1023, 0, 1023) << 2 | norm(v.f[3], 3, 0, 3);
    put(texel, w, ref_elem_size(f));
    return;
  }
  const char *ch = channels(f->image_channel_order);
  size_t cb = channel_bytes(t);
  for (size_t c = 0; ch[c]; c++) {
    int comp = ch[c] == 'g' ? 1 : ch[c] == 'b' ? 2 : ch[c] == 'a' ? 3 : 0; /* i, l: red */
    put(texel + c * cb, encode_channel(t, &v, comp), cb);
  }
}
