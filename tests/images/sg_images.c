/* SPDX-License-Identifier: MIT */
/* tests/images: images against the host reference (sg_img_ref.c), through
 * the loader. Each part is one ctest:
 *   formats  the supported lists hold the spec's minimum lists
 *   read     every supported format x image type x sampler the spec defines
 *            (normalized or not, every addressing mode, nearest and linear),
 *            float and integer coordinates, and reads without a sampler
 *   write    write_image{f,i,ui} of every format and type, read back raw
 *   misc     queries, border colors and undefined reads (with the findings
 *            SoftGPU reports), read_write images, images from buffers and
 *            images, depth, fill conversions
 * Usage: sg_images PART. Exit 0 when every check passes. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sg_img_ref.h"

static cl_device_id dev;
static cl_context ctx;
static cl_command_queue q;
static cl_program prog;
static unsigned failures, checks;

static void fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (failures < 50) {
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
  }
  va_end(ap);
  failures++;
}

#define CHECK_CL(call)                                                                             \
  do {                                                                                             \
    cl_int e_ = (call);                                                                            \
    if (e_ != CL_SUCCESS) {                                                                        \
      fprintf(stderr, "%s:%d: %s: %d\n", __FILE__, __LINE__, #call, e_);                           \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

/* Findings SoftGPU reports through the context's callback. */
static char findings[8192];
static void CL_CALLBACK on_notify(const char *msg, const void *info, size_t cb, void *user) {
  (void)info, (void)cb, (void)user;
  size_t n = strlen(findings);
  snprintf(findings + n, sizeof findings - n, "%s\n", msg);
}

/* ---- Random numbers: reproducible --------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}
static float rndf(float lo, float hi) {
  return lo + (hi - lo) * (float)(rnd() % 1000001) / 1e6f;
}

/* ---- Kernels ------------------------------------------------------------- */

/* One kernel per image type and access; results as raw bits (uint4). */
static const char *source =
    "#define C_1d(v) (v).x\n"
    "#define C_1da(v) (v).xy\n"
    "#define C_2d(v) (v).xy\n"
    "#define C_2da(v) (v)\n"
    "#define C_3d(v) (v)\n"
    "#define C_1db(v) (v).x\n"
    "#define SAMPLED(T, N, K, R)\n"
    "#define READS(T, N)\n"
    "#define KINDS(M, T, N) M(T, N, f, float) M(T, N, i, int) M(T, N, ui, uint)\n"
    "#define SMP(T, N, K, R)                                                              \\\n"
    "  kernel void s##K##_##N(read_only T img, sampler_t s, global const float4 *c,       \\\n"
    "                         global uint4 *o) {                                          \\\n"
    "    size_t i = get_global_id(0);                                                      \\\n"
    "    o[i] = as_uint4(read_image##K(img, s, C_##N(c[i])));                              \\\n"
    "  }                                                                                   \\\n"
    "  kernel void n##K##_##N(read_only T img, sampler_t s, global const int4 *c,          \\\n"
    "                         global uint4 *o) {                                          \\\n"
    "    size_t i = get_global_id(0);                                                      \\\n"
    "    o[i] = as_uint4(read_image##K(img, s, C_##N(c[i])));                              \\\n"
    "  }\n"
    "#define LOAD(T, N, K, R)                                                             \\\n"
    "  kernel void l##K##_##N(read_only T img, global const int4 *c, global uint4 *o) {    \\\n"
    "    size_t i = get_global_id(0);                                                      \\\n"
    "    o[i] = as_uint4(read_image##K(img, C_##N(c[i])));                                 \\\n"
    "  }                                                                                   \\\n"
    "  kernel void w##K##_##N(write_only T img, global const int4 *c, global const uint4 *v) { \\\n"
    "    size_t i = get_global_id(0);                                                      \\\n"
    "    write_image##K(img, C_##N(c[i]), as_##R##4(v[i]));                                \\\n"
    "  }\n"
    "KINDS(SMP, image1d_t, 1d) KINDS(SMP, image1d_array_t, 1da) KINDS(SMP, image2d_t, 2d)\n"
    "KINDS(SMP, image2d_array_t, 2da) KINDS(SMP, image3d_t, 3d)\n"
    "KINDS(LOAD, image1d_t, 1d) KINDS(LOAD, image1d_array_t, 1da) KINDS(LOAD, image2d_t, 2d)\n"
    "KINDS(LOAD, image2d_array_t, 2da) KINDS(LOAD, image3d_t, 3d)\n"
    "KINDS(LOAD, image1d_buffer_t, 1db)\n"
    /* Depth images read and write one float. */
    "kernel void sd_2d(read_only image2d_depth_t img, sampler_t s, global const float4 *c,\n"
    "                  global float *o) { o[get_global_id(0)] = read_imagef(img, s, "
    "c[get_global_id(0)].xy); }\n"
    "kernel void sd_2da(read_only image2d_array_depth_t img, sampler_t s, global const float4 *c,\n"
    "                   global float *o) { o[get_global_id(0)] = read_imagef(img, s, "
    "c[get_global_id(0)]); }\n"
    "kernel void wd_2d(write_only image2d_depth_t img, global const int4 *c, global const float "
    "*v) {\n"
    "  write_imagef(img, c[get_global_id(0)].xy, v[get_global_id(0)]);\n"
    "}\n"
    /* Queries of every image type. */
    "#define Q(T, N)                                                                      \\\n"
    "  kernel void q_##N(read_only T img, global int *o) {                                \\\n"
    "    o[0] = get_image_width(img);                                                      \\\n"
    "    o[1] = get_image_channel_data_type(img);                                          \\\n"
    "    o[2] = get_image_channel_order(img);                                              \\\n"
    "  }\n"
    "Q(image1d_t, 1d) Q(image1d_buffer_t, 1db) Q(image1d_array_t, 1da) Q(image2d_t, 2d)\n"
    "Q(image2d_array_t, 2da) Q(image3d_t, 3d)\n"
    "kernel void q_more(read_only image1d_array_t a1, read_only image2d_array_t a2,\n"
    "                   write_only image3d_t v, read_write image2d_t rw, global int *o) {\n"
    "  o[3] = get_image_array_size(a1); o[4] = get_image_height(a2);\n"
    "  o[5] = get_image_array_size(a2); int2 d2 = get_image_dim(a2); o[6] = d2.x; o[7] = d2.y;\n"
    "  int4 d3 = get_image_dim(v); o[8] = d3.x; o[9] = d3.y; o[10] = d3.z; o[11] = d3.w;\n"
    "  o[12] = get_image_depth(v); o[13] = get_image_height(rw); o[14] = get_image_width(rw);\n"
    "}\n"
    /* read_write: each work-item writes, fences and reads its texel back. */
    "kernel void rw_fence(read_write image2d_t img, global float4 *o) {\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  float4 v = read_imagef(img, p);\n"
    "  write_imagef(img, p, v + (float4)(0.25f));\n"
    "  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);\n"
    "  o[p.y * get_image_width(img) + p.x] = read_imagef(img, p);\n"
    "}\n"
    /* A program-scope sampler (__translate_sampler_initializer). */
    "constant sampler_t lit = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT |\n"
    "                         CLK_FILTER_LINEAR;\n"
    "kernel void s_literal(read_only image2d_t img, global const float4 *c, global float4 *o) {\n"
    "  const sampler_t local_one = CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;\n"
    "  size_t i = get_global_id(0);\n"
    "  o[2 * i] = read_imagef(img, lit, c[i].xy);\n"
    "  o[2 * i + 1] = read_imagef(img, local_one, c[i].zw);\n"
    "}\n";

static cl_kernel kernel(const char *name) {
  cl_int err;
  cl_kernel k = clCreateKernel(prog, name, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "no kernel %s: %d\n", name, err);
    exit(1);
  }
  return k;
}

/* ---- Image types ------------------------------------------------------------ */

static const struct type {
  cl_mem_object_type type;
  const char *suffix;
  size_t w, h, d, layers; /* test sizes: 1 where unused */
  unsigned dims;          /* texel dimensions */
  bool array;
} types[] = {
    {CL_MEM_OBJECT_IMAGE1D, "1d", 13, 1, 1, 1, 1, false},
    {CL_MEM_OBJECT_IMAGE1D_ARRAY, "1da", 11, 1, 1, 4, 1, true},
    {CL_MEM_OBJECT_IMAGE2D, "2d", 7, 5, 1, 1, 2, false},
    {CL_MEM_OBJECT_IMAGE2D_ARRAY, "2da", 5, 4, 1, 3, 2, true},
    {CL_MEM_OBJECT_IMAGE3D, "3d", 5, 4, 3, 1, 3, false},
    {CL_MEM_OBJECT_IMAGE1D_BUFFER, "1db", 17, 1, 1, 1, 1, false},
};
#define NTYPES (sizeof types / sizeof types[0])

static const char *order_name(cl_channel_order o) {
  switch (o) {
#define N(x)                                                                                       \
  case x: return #x;
    N(CL_R)
    N(CL_A) N(CL_RG) N(CL_RA) N(CL_RGB) N(CL_RGBA) N(CL_BGRA) N(CL_ARGB) N(CL_ABGR) N(CL_INTENSITY)
        N(CL_LUMINANCE) N(CL_DEPTH) N(CL_sRGBA) N(CL_sBGRA) N(CL_Rx) N(CL_RGx) N(CL_RGBx) N(CL_sRGB)
            N(CL_sRGBx) default : return "?";
  }
}
static const char *type_name(cl_channel_type t) {
  switch (t) {
    N(CL_SNORM_INT8)
    N(CL_SNORM_INT16) N(CL_UNORM_INT8) N(CL_UNORM_INT16) N(CL_UNORM_SHORT_565) N(CL_UNORM_SHORT_555)
        N(CL_UNORM_INT_101010) N(CL_UNORM_INT_101010_2) N(CL_SIGNED_INT8) N(CL_SIGNED_INT16)
            N(CL_SIGNED_INT32) N(CL_UNSIGNED_INT8) N(CL_UNSIGNED_INT16) N(CL_UNSIGNED_INT32)
                N(CL_HALF_FLOAT) N(CL_FLOAT)
#undef N
                    default : return "?";
  }
}

/* Random texel bytes for f: finite values for the float types (their
 * linear filtering is undefined on infinities and NaNs). */
static void fill_random(const cl_image_format *f, uint8_t *p, size_t n) {
  cl_channel_type t = f->image_channel_data_type;
  for (size_t i = 0; i < n; i++)
    p[i] = (uint8_t)rnd();
  if (t == CL_FLOAT)
    for (size_t i = 0; i + 4 <= n; i += 4) {
      float v = rndf(-100, 100);
      memcpy(p + i, &v, 4);
    }
  if (t == CL_HALF_FLOAT)
    for (size_t i = 0; i + 2 <= n; i += 2) {
      _Float16 h = (_Float16)rndf(-60000, 60000);
      memcpy(p + i, &h, 2);
    }
}

/* An image of type t and format f holding random texels (in *host, with
 * the reference's view of it). 2D images get a padded row pitch through
 * CL_MEM_USE_HOST_PTR, to show pitches are honoured. */
static cl_mem make_image(const struct type *t, const cl_image_format *f, cl_mem_flags access,
                         uint8_t **host, struct ref_image *ref, cl_mem *buffer) {
  size_t elem = ref_elem_size(f);
  size_t row = t->w * elem + (t->type == CL_MEM_OBJECT_IMAGE2D ? 3 * elem : 0);
  size_t slice = t->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? row : row * t->h;
  size_t n = t->array ? t->layers : t->d;
  size_t bytes = slice * n;
  *host = malloc(bytes);
  fill_random(f, *host, bytes);
  *ref = (struct ref_image){t->type, *f, t->w, t->h, t->d, t->layers, row, slice, *host};
  cl_image_desc d = {.image_type = t->type,
                     .image_width = t->w,
                     .image_height = t->h,
                     .image_depth = t->d,
                     .image_array_size = t->layers};
  cl_int err;
  *buffer = NULL;
  if (t->type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    *buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, *host, &err);
    CHECK_CL(err);
    d.buffer = *buffer;
    cl_mem m = clCreateImage(ctx, access, f, &d, NULL, &err);
    CHECK_CL(err);
    return m;
  }
  bool use = t->type == CL_MEM_OBJECT_IMAGE2D;
  d.image_row_pitch = row;
  d.image_slice_pitch = t->array || t->dims == 3 ? slice : 0;
  cl_mem m = clCreateImage(ctx, access | (use ? CL_MEM_USE_HOST_PTR : CL_MEM_COPY_HOST_PTR), f, &d,
                           *host, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clCreateImage %s %s %s: %d\n", t->suffix, order_name(f->image_channel_order),
            type_name(f->image_channel_data_type), err);
    exit(1);
  }
  return m;
}

static cl_mem buffer(size_t bytes, const void *init) {
  cl_int err;
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                            (void *)init, &err);
  CHECK_CL(err);
  return b;
}

static cl_uint supported(cl_mem_object_type type, cl_mem_flags flags, cl_image_format *list,
                         cl_uint cap) {
  cl_uint n = 0;
  CHECK_CL(clGetSupportedImageFormats(ctx, flags, type, cap, list, &n));
  return n < cap ? n : cap;
}

/* ---- formats ----------------------------------------------------------------- */

static bool listed(const cl_image_format *list, cl_uint n, cl_channel_order o, cl_channel_type t) {
  for (cl_uint i = 0; i < n; i++)
    if (list[i].image_channel_order == o && list[i].image_channel_data_type == t)
      return true;
  return false;
}

/* The minimum lists (API 5.3.2.1): for reading or writing (the 3.0 list,
 * and the 2.0 one, which SoftGPU also meets), and for reading and writing
 * in one kernel. */
static void part_formats(void) {
  static const cl_channel_type all12[] = {CL_UNORM_INT8,     CL_UNORM_INT16,   CL_SNORM_INT8,
                                          CL_SNORM_INT16,    CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                          CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                          CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
  static const cl_channel_type rw9[] = {CL_UNORM_INT8,     CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                        CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                        CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
  cl_image_format list[512];
  for (size_t ti = 0; ti < NTYPES; ti++) {
    cl_mem_object_type type = types[ti].type;
    const cl_mem_flags flags[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE,
                                  CL_MEM_KERNEL_READ_AND_WRITE};
    for (size_t fi = 0; fi < 4; fi++) {
      cl_uint n = supported(type, flags[fi], list, 512);
      for (size_t i = 0; i < 12; i++) {
        checks++;
        if (!listed(list, n, CL_RGBA, all12[i]) ||
            (fi < 2 && (!listed(list, n, CL_R, all12[i]) || !listed(list, n, CL_RG, all12[i]))))
          fail("formats: %s missing for image type 0x%x", type_name(all12[i]), type);
      }
      for (size_t i = 0; i < 9 && fi == 3; i++)
        if (!listed(list, n, CL_R, rw9[i]) || !listed(list, n, CL_RGBA, rw9[i]))
          fail("formats: read-write %s missing for image type 0x%x", type_name(rw9[i]), type);
      checks += 3;
      if (!listed(list, n, CL_BGRA, CL_UNORM_INT8))
        fail("formats: CL_BGRA CL_UNORM_INT8 missing for 0x%x", type);
      bool depth = type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
      if (depth &&
          (!listed(list, n, CL_DEPTH, CL_UNORM_INT16) || !listed(list, n, CL_DEPTH, CL_FLOAT)))
        fail("formats: CL_DEPTH missing for 0x%x", type);
      if (type != CL_MEM_OBJECT_IMAGE1D_BUFFER && !listed(list, n, CL_sRGBA, CL_UNORM_INT8))
        fail("formats: CL_sRGBA missing for 0x%x", type);
      /* Each format listed can be created. */
      for (cl_uint i = 0; i < n; i++) {
        uint8_t *host;
        struct ref_image ref;
        cl_mem b;
        cl_mem m = make_image(&types[ti], &list[i], CL_MEM_READ_WRITE, &host, &ref, &b);
        clReleaseMemObject(m);
        if (b)
          clReleaseMemObject(b);
        free(host);
        checks++;
      }
    }
  }
}

/* ---- read ------------------------------------------------------------------- */

#define NPOINTS 96

/* The bits of got against want: exact, or (float results of linear
 * filtering and sRGB decoding) within a relative 2^-16. */
static bool close_enough(const union ref_val *got, const union ref_val *want, bool approx,
                         bool depth) {
  for (int c = 0; c < (depth ? 1 : 4); c++) {
    if (got->u[c] == want->u[c])
      continue;
    if (!approx)
      return false;
    double g = got->f[c], w = want->f[c];
    if (!(fabs(g - w) <= fmax(1.0, fabs(w)) / 65536.0))
      return false;
  }
  return true;
}

/* Coordinates for dimension of n texels: inside, near and on the edges,
 * texel centers and boundaries, far outside; the NONE addressing mode
 * (whose reads outside the image are undefined) keeps inside, and its
 * linear reads keep their footprint inside. */
static float coord(long n, cl_addressing_mode addr, cl_filter_mode filter, unsigned i) {
  float u;
  static const float special[] = {0.0f, 0.5f, 1.0f, -0.5f, -1.0f, 1.5f, 0.25f, -3.75f};
  if (addr == CL_ADDRESS_NONE)
    u = filter == CL_FILTER_LINEAR ? rndf(0.5f, (float)n - 0.5f) : rndf(0.0f, (float)n - 0.001f);
  else if (i < 8)
    u = special[i];
  else if (i < 16)
    u = (float)n + special[i - 8];
  else if (i % 3 == 0)
    u = (float)(long)rndf(-3, (float)n + 3) + 0.5f; /* a texel center */
  else
    u = rndf(-2.5f * (float)n, 3.5f * (float)n);
  return u;
}

struct launch {
  cl_kernel k;
  cl_mem img, sampler_or_null, coords, out;
};

static void run(cl_kernel k, cl_mem img, cl_sampler s, cl_mem coords, cl_mem out, size_t n) {
  cl_uint a = 0;
  CHECK_CL(clSetKernelArg(k, a++, sizeof img, &img));
  if (s)
    CHECK_CL(clSetKernelArg(k, a++, sizeof s, &s));
  CHECK_CL(clSetKernelArg(k, a++, sizeof coords, &coords));
  CHECK_CL(clSetKernelArg(k, a++, sizeof out, &out));
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
}

static const char *kind_suffix(enum ref_class c) {
  return c == REF_INT ? "i" : c == REF_UINT ? "ui" : "f";
}

/* Every sampler the spec defines for the image: float coordinates with all
 * of them, integer coordinates with the unnormalized nearest ones. */
static void read_format(const struct type *t, const cl_image_format *f) {
  uint8_t *host;
  struct ref_image ref;
  cl_mem buf;
  cl_mem img = make_image(t, f, CL_MEM_READ_ONLY, &host, &ref, &buf);
  enum ref_class cls = ref_class_of(f);
  bool depth = f->image_channel_order == CL_DEPTH;
  char name[32];
  snprintf(name, sizeof name, "%s%s_%s", depth ? "sd" : "s", depth ? "" : kind_suffix(cls),
           t->suffix);
  cl_kernel ks = kernel(name);
  cl_kernel ki = NULL, kl = NULL;
  if (!depth) {
    snprintf(name, sizeof name, "n%s_%s", kind_suffix(cls), t->suffix);
    ki = kernel(name);
    snprintf(name, sizeof name, "l%s_%s", kind_suffix(cls), t->suffix);
    kl = kernel(name);
  }
  long size[3] = {(long)t->w, (long)t->h, (long)t->d};
  static const cl_addressing_mode addrs[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE,
                                             CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                             CL_ADDRESS_MIRRORED_REPEAT};
  float fc[NPOINTS][4];
  int ic[NPOINTS][4];
  union ref_val got[NPOINTS];
  cl_mem cbuf = buffer(sizeof fc, NULL), out = buffer(sizeof got, NULL);
  for (int norm = 0; norm < 2; norm++)
    for (int ai = 0; ai < 5; ai++)
      for (int li = 0; li < 2; li++) {
        cl_addressing_mode addr = addrs[ai];
        cl_filter_mode filter = li ? CL_FILTER_LINEAR : CL_FILTER_NEAREST;
        if (!norm && (addr == CL_ADDRESS_REPEAT || addr == CL_ADDRESS_MIRRORED_REPEAT))
          continue; /* undefined */
        if (li && cls != REF_FLOAT)
          continue; /* undefined: read_image{i,ui} take nearest samplers only */
        cl_int err;
        cl_sampler s = clCreateSampler(ctx, norm, addr, filter, &err);
        CHECK_CL(err);
        for (unsigned p = 0; p < NPOINTS; p++) {
          for (unsigned d = 0; d < 3; d++) {
            float u = d < t->dims ? coord(size[d], addr, filter, (p + 5 * d) % NPOINTS) : 0.0f;
            fc[p][d] = norm && d < t->dims ? u / (float)size[d] : u;
          }
          if (t->array) /* the layer: never normalized, rounded to nearest even */
            fc[p][t->dims] = (float)(int)rndf(-2, (float)t->layers + 2) + (p % 2 ? 0.5f : 0.0f);
          fc[p][3] = 0;
        }
        CHECK_CL(clEnqueueWriteBuffer(q, cbuf, CL_TRUE, 0, sizeof fc, fc, 0, NULL, NULL));
        run(ks, img, s, cbuf, out, NPOINTS);
        CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, depth ? NPOINTS * 4 : sizeof got, got, 0,
                                     NULL, NULL));
        for (unsigned p = 0; p < NPOINTS; p++) {
          union ref_val want, g = got[p];
          if (depth)
            memcpy(&g, (const char *)got + 4 * p, 4);
          ref_sample(&ref, norm, addr, filter, fc[p], &want);
          checks++;
          if (!close_enough(&g, &want, li || ref_is_srgb(f), depth))
            fail("read %s %s %s: sampler (%s, 0x%x, %s) at (%g, %g, %g): got (%g %g %g %g | "
                 "0x%x 0x%x 0x%x 0x%x), want (%g %g %g %g | 0x%x 0x%x 0x%x 0x%x)",
                 t->suffix, order_name(f->image_channel_order),
                 type_name(f->image_channel_data_type), norm ? "normalized" : "unnormalized", addr,
                 li ? "linear" : "nearest", fc[p][0], fc[p][1], fc[p][2], g.f[0], g.f[1], g.f[2],
                 g.f[3], g.u[0], g.u[1], g.u[2], g.u[3], want.f[0], want.f[1], want.f[2], want.f[3],
                 want.u[0], want.u[1], want.u[2], want.u[3]);
        }
        /* Integer coordinates: only unnormalized nearest samplers without
         * repeat, and NONE only inside the image. */
        if (!norm && !li && ki) {
          for (unsigned p = 0; p < NPOINTS; p++) {
            for (unsigned d = 0; d < 3; d++) {
              long lo = addr == CL_ADDRESS_NONE ? 0 : -3,
                   hi = size[d] + (addr == CL_ADDRESS_NONE ? 0 : 3);
              ic[p][d] = d < t->dims ? (int)(lo + (long)(rnd() % (unsigned long)(hi - lo))) : 0;
            }
            if (t->array)
              ic[p][t->dims] = (int)(rnd() % (t->layers + 4)) - 2;
            ic[p][3] = 0;
          }
          CHECK_CL(clEnqueueWriteBuffer(q, cbuf, CL_TRUE, 0, sizeof ic, ic, 0, NULL, NULL));
          run(ki, img, s, cbuf, out, NPOINTS);
          CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
          for (unsigned p = 0; p < NPOINTS; p++) {
            union ref_val want;
            ref_read_int(&ref, true, addr, ic[p], &want);
            checks++;
            if (!close_enough(&got[p], &want, ref_is_srgb(f), false))
              fail("read %s %s %s: int coords, address 0x%x at (%d, %d, %d): got 0x%x 0x%x "
                   "0x%x 0x%x, want 0x%x 0x%x 0x%x 0x%x",
                   t->suffix, order_name(f->image_channel_order),
                   type_name(f->image_channel_data_type), addr, ic[p][0], ic[p][1], ic[p][2],
                   got[p].u[0], got[p].u[1], got[p].u[2], got[p].u[3], want.u[0], want.u[1],
                   want.u[2], want.u[3]);
          }
        }
        clReleaseSampler(s);
      }
  /* Without a sampler: every texel. */
  if (kl) {
    size_t n = t->w * t->h * t->d * t->layers;
    int(*all)[4] = calloc(n, sizeof *all);
    union ref_val *res = calloc(n, sizeof *res);
    for (size_t i = 0; i < n; i++) {
      all[i][0] = (int)(i % t->w);
      all[i][1] = (int)(i / t->w % (t->array && t->dims == 1 ? t->layers : t->h));
      all[i][2] = (int)(i / (t->w * t->h) % (t->array ? t->layers : t->d));
    }
    cl_mem cb = buffer(n * sizeof *all, all), ob = buffer(n * sizeof *res, NULL);
    run(kl, img, NULL, cb, ob, n);
    CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, n * sizeof *res, res, 0, NULL, NULL));
    for (size_t i = 0; i < n; i++) {
      union ref_val want;
      ref_read_int(&ref, false, CL_ADDRESS_NONE, all[i], &want);
      checks++;
      if (!close_enough(&res[i], &want, ref_is_srgb(f), false))
        fail("read %s %s %s without sampler at (%d, %d, %d): got 0x%x 0x%x 0x%x 0x%x, want "
             "0x%x 0x%x 0x%x 0x%x",
             t->suffix, order_name(f->image_channel_order), type_name(f->image_channel_data_type),
             all[i][0], all[i][1], all[i][2], res[i].u[0], res[i].u[1], res[i].u[2], res[i].u[3],
             want.u[0], want.u[1], want.u[2], want.u[3]);
    }
    clReleaseMemObject(cb), clReleaseMemObject(ob);
    free(all), free(res);
  }
  clReleaseMemObject(cbuf), clReleaseMemObject(out), clReleaseMemObject(img);
  if (buf)
    clReleaseMemObject(buf);
  clReleaseKernel(ks);
  if (ki)
    clReleaseKernel(ki), clReleaseKernel(kl);
  free(host);
}

static void part_read(void) {
  cl_image_format list[512];
  for (size_t ti = 0; ti < NTYPES; ti++) {
    cl_uint n = supported(types[ti].type, CL_MEM_READ_ONLY, list, 512);
    for (cl_uint i = 0; i < n; i++) {
      if (types[ti].type == CL_MEM_OBJECT_IMAGE1D_BUFFER) { /* sampler-less only */
        uint8_t *host;
        struct ref_image ref;
        cl_mem b;
        cl_mem img = make_image(&types[ti], &list[i], CL_MEM_READ_ONLY, &host, &ref, &b);
        char name[16];
        snprintf(name, sizeof name, "l%s_1db", kind_suffix(ref_class_of(&list[i])));
        cl_kernel k = kernel(name);
        int c[17][4] = {{0}};
        union ref_val res[17];
        for (int x = 0; x < 17; x++)
          c[x][0] = x;
        cl_mem cb = buffer(sizeof c, c), ob = buffer(sizeof res, NULL);
        run(k, img, NULL, cb, ob, 17);
        CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof res, res, 0, NULL, NULL));
        for (int x = 0; x < 17; x++) {
          union ref_val want;
          ref_read_int(&ref, false, CL_ADDRESS_NONE, c[x], &want);
          checks++;
          if (!close_enough(&res[x], &want, false, false))
            fail("read 1db %s %s at %d", order_name(list[i].image_channel_order),
                 type_name(list[i].image_channel_data_type), x);
        }
        clReleaseMemObject(cb), clReleaseMemObject(ob), clReleaseMemObject(img),
            clReleaseMemObject(b), clReleaseKernel(k);
        free(host);
        continue;
      }
      read_format(&types[ti], &list[i]);
    }
  }
}

/* ---- write ------------------------------------------------------------------ */

/* A value to write in component c of a texel of class cls: floats around
 * and beyond the normalized range (and half's), integers of every size. */
static void random_value(const cl_image_format *f, union ref_val *v) {
  for (int c = 0; c < 4; c++) {
    switch (ref_class_of(f)) {
    case REF_FLOAT:
      v->f[c] = f->image_channel_data_type == CL_FLOAT ? rndf(-1e6f, 1e6f)
                : f->image_channel_data_type == CL_HALF_FLOAT
                    ? rndf(-70000, 70000) * (rnd() % 2 ? 1 : 1e-5f)
                    : rndf(-1.25f, 1.25f);
      if (rnd() % 16 == 0) /* exact values of 8 bits */
        v->f[c] = (float)(rnd() % 256) / 255.0f;
      if (f->image_channel_data_type == CL_HALF_FLOAT && rnd() % 4 == 0) {
        /* halfway between two halves: rounds to the even one */
        uint16_t h = (uint16_t)(rnd() % 0x7bff);
        _Float16 lo, hi;
        memcpy(&lo, &h, 2);
        h++;
        memcpy(&hi, &h, 2);
        v->f[c] = ((float)lo + (float)hi) / 2;
      }
      break;
    default: v->u[c] = rnd() % 4 ? rnd() : (rnd() % 70000) - 35000; break;
    }
  }
}

static void write_format(const struct type *t, const cl_image_format *f) {
  size_t elem = ref_elem_size(f);
  size_t n = t->w * t->h * t->d * t->layers;
  cl_image_desc d = {.image_type = t->type,
                     .image_width = t->w,
                     .image_height = t->h,
                     .image_depth = t->d,
                     .image_array_size = t->layers};
  cl_int err;
  cl_mem b = NULL;
  if (t->type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    b = buffer(n * elem, NULL);
    d.buffer = b;
  }
  cl_mem img = clCreateImage(ctx, CL_MEM_WRITE_ONLY, f, &d, NULL, &err);
  CHECK_CL(err);
  bool depth = f->image_channel_order == CL_DEPTH;
  char name[16];
  snprintf(name, sizeof name, depth ? "wd_%s" : "w%s_%s",
           depth ? t->suffix : kind_suffix(ref_class_of(f)), t->suffix);
  cl_kernel k = kernel(name);
  int(*c)[4] = calloc(n, sizeof *c);
  union ref_val *v = calloc(n, sizeof *v);
  float *dv = calloc(n, sizeof *dv);
  for (size_t i = 0; i < n; i++) {
    c[i][0] = (int)(i % t->w);
    size_t rows = t->array && t->dims == 1 ? t->layers : t->h;
    c[i][1] = (int)(i / t->w % rows);
    c[i][2] = (int)(i / (t->w * rows));
    random_value(f, &v[i]);
    dv[i] = v[i].f[0];
  }
  cl_mem cb = buffer(n * sizeof *c, c), vb = depth ? buffer(n * 4, dv) : buffer(n * sizeof *v, v);
  CHECK_CL(clSetKernelArg(k, 0, sizeof img, &img));
  CHECK_CL(clSetKernelArg(k, 1, sizeof cb, &cb));
  CHECK_CL(clSetKernelArg(k, 2, sizeof vb, &vb));
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  uint8_t *got = calloc(n, elem);
  size_t origin[3] = {0, 0, 0};
  size_t region[3] = {t->w, t->array && t->dims == 1 ? t->layers : t->h,
                      t->array && t->dims == 2 ? t->layers : t->d};
  CHECK_CL(clEnqueueReadImage(q, img, CL_TRUE, origin, region, 0, 0, got, 0, NULL, NULL));
  for (size_t i = 0; i < n; i++) {
    uint8_t want[16];
    union ref_val in = v[i];
    if (depth)
      in.f[1] = in.f[2] = in.f[3] = 0;
    ref_encode(f, &in, want);
    checks++;
    bool ok = !memcmp(got + i * elem, want, elem);
    if (!ok && ref_is_srgb(f)) /* the spec allows 0.6 of a step in sRGB encoding */
      for (size_t ch = 0; ch < elem; ch++)
        ok = abs((int)got[i * elem + ch] - (int)want[ch]) <= 1 && (ch == 0 || ok);
    if (!ok)
      fail("write %s %s %s texel %zu of (%g %g %g %g | 0x%x 0x%x 0x%x 0x%x): got %02x%02x%02x%02x, "
           "want %02x%02x%02x%02x",
           t->suffix, order_name(f->image_channel_order), type_name(f->image_channel_data_type), i,
           v[i].f[0], v[i].f[1], v[i].f[2], v[i].f[3], v[i].u[0], v[i].u[1], v[i].u[2], v[i].u[3],
           got[i * elem], elem > 1 ? got[i * elem + 1] : 0, elem > 2 ? got[i * elem + 2] : 0,
           elem > 3 ? got[i * elem + 3] : 0, want[0], elem > 1 ? want[1] : 0,
           elem > 2 ? want[2] : 0, elem > 3 ? want[3] : 0);
  }
  clReleaseMemObject(cb), clReleaseMemObject(vb), clReleaseMemObject(img), clReleaseKernel(k);
  if (b)
    clReleaseMemObject(b);
  free(c), free(v), free(dv), free(got);
}

static void part_write(void) {
  cl_image_format list[512];
  for (size_t ti = 0; ti < NTYPES; ti++) {
    cl_uint n = supported(types[ti].type, CL_MEM_WRITE_ONLY, list, 512);
    for (cl_uint i = 0; i < n; i++)
      if (list[i].image_channel_order != CL_DEPTH || types[ti].type == CL_MEM_OBJECT_IMAGE2D)
        write_format(&types[ti], &list[i]);
  }
}

/* ---- misc ------------------------------------------------------------------- */

static void expect(bool ok, const char *what) {
  checks++;
  if (!ok)
    fail("misc: %s", what);
}

static void part_misc(void);

int main(int argc, char **argv) {
  const char *part = argc > 1 ? argv[1] : "";
  cl_platform_id plat;
  cl_int err;
  CHECK_CL(clGetPlatformIDs(1, &plat, NULL));
  CHECK_CL(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
  ctx = clCreateContext(NULL, 1, &dev, on_notify, NULL, &err);
  CHECK_CL(err);
  q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK_CL(err);
  prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  CHECK_CL(err);
  err = clBuildProgram(prog, 1, &dev, "-cl-std=CL3.0", NULL, NULL);
  if (err != CL_SUCCESS) {
    static char log[65536];
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed:\n%s\n", log);
    return 1;
  }
  if (!strcmp(part, "formats"))
    part_formats();
  else if (!strcmp(part, "read"))
    part_read();
  else if (!strcmp(part, "write"))
    part_write();
  else if (!strcmp(part, "misc"))
    part_misc();
  else {
    fprintf(stderr, "usage: sg_images formats|read|write|misc\n");
    return 2;
  }
  printf("%s: %u checks, %u failures\n", part, checks, failures);
  return failures ? 1 : 0;
}

/* Runs kernel name over n work-items with the arguments given as
 * (size, pointer) pairs, and waits. */
static void launch(const char *name, size_t n, unsigned nargs, ...) {
  cl_kernel k = kernel(name);
  va_list ap;
  va_start(ap, nargs);
  for (unsigned i = 0; i < nargs; i++) {
    size_t size = va_arg(ap, size_t);
    const void *value = va_arg(ap, const void *);
    CHECK_CL(clSetKernelArg(k, i, size, value));
  }
  va_end(ap);
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  CHECK_CL(clFinish(q));
  clReleaseKernel(k);
}
#define ARG(v) sizeof(v), (const void *)&(v)

static cl_mem image(cl_mem_object_type type, cl_channel_order o, cl_channel_type t, size_t w,
                    size_t h, size_t d, size_t layers, cl_mem_flags flags, void *host) {
  cl_image_format f = {o, t};
  cl_image_desc desc = {.image_type = type,
                        .image_width = w,
                        .image_height = h,
                        .image_depth = d,
                        .image_array_size = layers};
  cl_int err;
  cl_mem m = clCreateImage(ctx, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), &f, &desc, host, &err);
  CHECK_CL(err);
  return m;
}

/* What kernels learn of images: the queries of each type. */
static void misc_queries(void) {
  int out[16];
  cl_mem ob = buffer(sizeof out, NULL);
  cl_mem buf = buffer(64 * 4, NULL);
  for (size_t ti = 0; ti < NTYPES; ti++) {
    const struct type *t = &types[ti];
    cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc d = {.image_type = t->type,
                       .image_width = t->w,
                       .image_height = t->h,
                       .image_depth = t->d,
                       .image_array_size = t->layers,
                       .buffer = NULL};
    if (t->type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
      d.buffer = buf;
    cl_int err;
    cl_mem img = clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &d, NULL, &err);
    CHECK_CL(err);
    char name[16];
    snprintf(name, sizeof name, "q_%s", t->suffix);
    launch(name, 1, 2, ARG(img), ARG(ob));
    CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, 3 * sizeof(int), out, 0, NULL, NULL));
    expect(out[0] == (int)t->w, "get_image_width");
    expect(out[1] == CL_UNSIGNED_INT8, "get_image_channel_data_type (CLK_UNSIGNED_INT8)");
    expect(out[2] == CL_RGBA, "get_image_channel_order (CLK_RGBA)");
    clReleaseMemObject(img);
  }
  cl_mem a1 =
      image(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_R, CL_FLOAT, 9, 1, 1, 7, CL_MEM_READ_ONLY, NULL);
  cl_mem a2 =
      image(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_R, CL_FLOAT, 9, 6, 1, 5, CL_MEM_READ_ONLY, NULL);
  cl_mem v = image(CL_MEM_OBJECT_IMAGE3D, CL_R, CL_FLOAT, 4, 3, 2, 1, CL_MEM_WRITE_ONLY, NULL);
  cl_mem rw = image(CL_MEM_OBJECT_IMAGE2D, CL_R, CL_FLOAT, 11, 10, 1, 1, CL_MEM_READ_WRITE, NULL);
  launch("q_more", 1, 5, ARG(a1), ARG(a2), ARG(v), ARG(rw), ARG(ob));
  CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  static const int want[] = {7, 6, 5, 9, 6, 4, 3, 2, 0, 2, 10, 11};
  for (int i = 0; i < 12; i++)
    expect(out[3 + i] == want[i], "get_image_array_size / _height / _dim / _depth");
  clReleaseMemObject(a1), clReleaseMemObject(a2), clReleaseMemObject(v), clReleaseMemObject(rw);
  clReleaseMemObject(ob), clReleaseMemObject(buf);
}

/* Undefined accesses get SoftGPU's documented result and a finding. */
static void misc_findings(void) {
  uint8_t texels[4 * 4 * 4];
  for (int i = 0; i < 64; i++)
    texels[i] = (uint8_t)(i + 1);
  cl_mem img =
      image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNSIGNED_INT8, 4, 4, 1, 1, CL_MEM_READ_ONLY, texels);
  int c[2][4] = {{5, 1, 0, 0}, {1, 1, 0, 0}};
  uint32_t got[2][4];
  cl_mem cb = buffer(sizeof c, c), ob = buffer(sizeof got, NULL);
  cl_int err;
  /* A read without sampler outside the image: the border (0, 0, 0, 0). */
  findings[0] = 0;
  launch("lui_2d", 2, 3, ARG(img), ARG(cb), ARG(ob));
  CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  expect(!got[0][0] && !got[0][1] && !got[0][2] && !got[0][3],
         "an out-of-range read gives the border");
  expect(got[1][0] == 21 && got[1][3] == 24, "the in-range read beside it reads its texel");
  expect(strstr(findings, "outside the 4x4x1 image") && strstr(findings, "sg.tex.load"),
         "an out-of-range read without sampler is reported");
  /* CLK_ADDRESS_CLAMP outside: the border, defined, no finding. */
  cl_sampler clamp = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  CHECK_CL(err);
  findings[0] = 0;
  launch("nui_2d", 2, 4, ARG(img), ARG(clamp), ARG(cb), ARG(ob));
  CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  expect(!got[0][0] && !got[0][3] && got[1][0] == 21, "CLK_ADDRESS_CLAMP reads the border");
  expect(!findings[0], "CLK_ADDRESS_CLAMP outside the image is no finding");
  /* CLK_ADDRESS_NONE outside: undefined; the border, and a finding. */
  cl_sampler none = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err);
  CHECK_CL(err);
  findings[0] = 0;
  launch("nui_2d", 2, 4, ARG(img), ARG(none), ARG(cb), ARG(ob));
  CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  expect(!got[0][0] && got[1][0] == 21, "CLK_ADDRESS_NONE outside reads the border");
  expect(strstr(findings, "CLK_ADDRESS_NONE") != NULL, "CLK_ADDRESS_NONE outside is reported");
  /* Linear filtering of an integer image: nearest, and a finding. */
  cl_sampler lin = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, &err);
  CHECK_CL(err);
  float fc[2][4] = {{1.5f, 1.5f, 0, 0}, {2.9f, 0.1f, 0, 0}};
  cl_mem fb = buffer(sizeof fc, fc);
  findings[0] = 0;
  launch("sui_2d", 2, 4, ARG(img), ARG(lin), ARG(fb), ARG(ob));
  CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  expect(got[0][0] == 21 && got[1][0] == 9, "linear filtering of an integer image reads nearest");
  expect(strstr(findings, "linear filtering of an integer image") != NULL,
         "linear filtering of an integer image is reported");
  /* read_imagef of an integer image. */
  findings[0] = 0;
  launch("lf_2d", 2, 3, ARG(img), ARG(cb), ARG(ob));
  expect(strstr(findings, "read with float values of an image of channel type UNSIGNED_INT8") !=
             NULL,
         "read_imagef of an integer image is reported");
  /* A write outside the image is dropped and reported. */
  cl_mem w = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNSIGNED_INT8, 4, 4, 1, 1, CL_MEM_WRITE_ONLY,
                   texels);
  uint32_t vals[2][4] = {{200, 201, 202, 203}, {100, 101, 102, 103}};
  cl_mem vb = buffer(sizeof vals, vals);
  findings[0] = 0;
  launch("wui_2d", 2, 3, ARG(w), ARG(cb), ARG(vb));
  uint8_t back[64];
  size_t o[3] = {0, 0, 0}, r[3] = {4, 4, 1};
  CHECK_CL(clEnqueueReadImage(q, w, CL_TRUE, o, r, 0, 0, back, 0, NULL, NULL));
  bool untouched = true;
  for (int i = 0; i < 64; i++)
    untouched &= (i >= 20 && i < 24) ? back[i] == 100 + i - 20 : back[i] == i + 1;
  expect(untouched, "a write outside the image changes nothing; the one inside lands");
  expect(strstr(findings, "image write at (5, 1, 0) outside") != NULL,
         "a write outside the image is reported");
  clReleaseSampler(clamp), clReleaseSampler(none), clReleaseSampler(lin);
  clReleaseMemObject(img), clReleaseMemObject(w), clReleaseMemObject(cb), clReleaseMemObject(ob),
      clReleaseMemObject(fb), clReleaseMemObject(vb);
}

/* read_write: a work-item sees its own write after atomic_work_item_fence. */
static void misc_read_write(void) {
  float init[6 * 3 * 4];
  for (int i = 0; i < 72; i++)
    init[i] = (float)i;
  cl_mem img = image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 6, 3, 1, 1, CL_MEM_READ_WRITE, init);
  float out[72];
  cl_mem ob = buffer(sizeof out, NULL);
  cl_kernel k = kernel("rw_fence");
  CHECK_CL(clSetKernelArg(k, 0, sizeof img, &img));
  CHECK_CL(clSetKernelArg(k, 1, sizeof ob, &ob));
  size_t g[2] = {6, 3};
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  bool ok = true;
  for (int i = 0; i < 72; i++)
    ok &= out[i] == init[i] + 0.25f;
  expect(ok, "read_write image: the write is visible after the fence");
  clReleaseKernel(k), clReleaseMemObject(img), clReleaseMemObject(ob);
}

/* A 2D image over a buffer (with a row pitch) and an sRGB view of an RGBA
 * image read what the buffer and the image hold. */
static void misc_views(void) {
  size_t w = 5, h = 3, pitch = 8 * 4; /* 8 texels of CL_RGBA CL_UNORM_INT8 per row */
  uint8_t bytes[3 * 32];
  for (size_t i = 0; i < sizeof bytes; i++)
    bytes[i] = (uint8_t)(i * 7 + 3);
  cl_mem buf = buffer(sizeof bytes, bytes);
  cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                     .image_width = w,
                     .image_height = h,
                     .image_row_pitch = pitch,
                     .buffer = buf};
  cl_int err;
  cl_mem img = clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &d, NULL, &err);
  CHECK_CL(err);
  cl_image_format sf = {CL_sRGBA, CL_UNORM_INT8};
  cl_image_desc sd = {
      .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h, .buffer = img};
  cl_mem srgb = clCreateImage(ctx, CL_MEM_READ_ONLY, &sf, &sd, NULL, &err);
  CHECK_CL(err);
  int c[15][4];
  for (int i = 0; i < 15; i++)
    c[i][0] = i % 5, c[i][1] = i / 5, c[i][2] = c[i][3] = 0;
  union ref_val got[15];
  cl_mem cb = buffer(sizeof c, c), ob = buffer(sizeof got, NULL);
  struct ref_image ref = {CL_MEM_OBJECT_IMAGE2D, f, w, h, 1, 1, pitch, 0, bytes};
  for (int view = 0; view < 2; view++) {
    cl_mem which = view ? srgb : img;
    launch("lf_2d", 15, 3, ARG(which), ARG(cb), ARG(ob));
    CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    ref.fmt = view ? sf : f;
    bool ok = true;
    for (int i = 0; i < 15; i++) {
      union ref_val want;
      ref_read_int(&ref, false, CL_ADDRESS_NONE, c[i], &want);
      ok &= close_enough(&got[i], &want, view == 1, false);
    }
    expect(ok, view ? "an sRGB view of an image decodes its texels"
                    : "a 2D image over a buffer reads the buffer with its row pitch");
  }
  clReleaseMemObject(srgb), clReleaseMemObject(img), clReleaseMemObject(buf),
      clReleaseMemObject(cb), clReleaseMemObject(ob);
}

/* Program-scope and function-scope sampler literals. */
static void misc_literal_samplers(void) {
  uint8_t bytes[6 * 4 * 4];
  cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
  fill_random(&f, bytes, sizeof bytes);
  cl_mem img =
      image(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 6, 4, 1, 1, CL_MEM_READ_ONLY, bytes);
  float c[32][4];
  for (int i = 0; i < 32; i++)
    c[i][0] = rndf(-3, 3), c[i][1] = rndf(-3, 3), c[i][2] = rndf(-2, 8), c[i][3] = rndf(-2, 6);
  union ref_val got[64];
  cl_mem cb = buffer(sizeof c, c), ob = buffer(sizeof got, NULL);
  launch("s_literal", 32, 3, ARG(img), ARG(cb), ARG(ob));
  CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  struct ref_image ref = {CL_MEM_OBJECT_IMAGE2D, f, 6, 4, 1, 1, 24, 0, bytes};
  bool ok = true;
  for (int i = 0; i < 32; i++) {
    union ref_val want;
    ref_sample(&ref, true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR, c[i], &want);
    ok &= close_enough(&got[2 * i], &want, true, false);
    ref_sample(&ref, false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, c[i] + 2, &want);
    ok &= close_enough(&got[2 * i + 1], &want, false, false);
  }
  expect(ok, "sampler literals (program scope and function scope) sample as their bits say");
  clReleaseMemObject(img), clReleaseMemObject(cb), clReleaseMemObject(ob);
}

/* clEnqueueFillImage converts its color as a kernel's write would. */
static void misc_fill(void) {
  static const cl_image_format fmts[] = {
      {CL_RGBA, CL_UNORM_INT8},     {CL_BGRA, CL_UNORM_INT8},         {CL_RG, CL_SNORM_INT16},
      {CL_R, CL_HALF_FLOAT},        {CL_RGBA, CL_SIGNED_INT8},        {CL_RA, CL_UNSIGNED_INT16},
      {CL_RGB, CL_UNORM_SHORT_565}, {CL_RGBA, CL_UNORM_INT_101010_2}, {CL_sRGBA, CL_UNORM_INT8},
      {CL_LUMINANCE, CL_FLOAT},
  };
  for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
    cl_mem img = image(CL_MEM_OBJECT_IMAGE2D, fmts[i].image_channel_order,
                       fmts[i].image_channel_data_type, 5, 4, 1, 1, CL_MEM_READ_WRITE, NULL);
    union ref_val color;
    random_value(&fmts[i], &color);
    size_t o[3] = {1, 1, 0}, r[3] = {3, 2, 1}, all[3] = {5, 4, 1};
    CHECK_CL(clEnqueueFillImage(q, img, &color, o, r, 0, NULL, NULL));
    size_t elem = ref_elem_size(&fmts[i]);
    uint8_t got[5 * 4 * 16], want[16], zero[16] = {0};
    CHECK_CL(
        clEnqueueReadImage(q, img, CL_TRUE, (size_t[3]){0, 0, 0}, all, 0, 0, got, 0, NULL, NULL));
    ref_encode(&fmts[i], &color, want);
    bool ok = true;
    for (size_t y = 0; y < 4; y++)
      for (size_t x = 0; x < 5; x++) {
        bool in = x >= 1 && x < 4 && y >= 1 && y < 3;
        const uint8_t *t = got + (y * 5 + x) * elem;
        bool same = !memcmp(t, in ? want : zero, elem);
        if (!same && in && ref_is_srgb(&fmts[i]))
          for (size_t b = 0; b < elem; b++)
            same = abs((int)t[b] - (int)want[b]) <= 1 && (b == 0 || same);
        ok &= same;
      }
    char what[96];
    snprintf(what, sizeof what, "fill of %s %s", order_name(fmts[i].image_channel_order),
             type_name(fmts[i].image_channel_data_type));
    expect(ok, what);
    clReleaseMemObject(img);
  }
}

static void part_misc(void) {
  misc_queries();
  misc_findings();
  misc_read_write();
  misc_views();
  misc_literal_samplers();
  misc_fill();
}
