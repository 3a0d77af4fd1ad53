/* SPDX-License-Identifier: MIT */
/* compiler/devlib: image built-ins (OpenCL C 3.0, "Image Read and Write
 * Functions" and "Built-in Image Query Functions"). Reads and writes are one
 * texture-unit instruction each (tex.c, docs/isa.md): the unit does the
 * addressing, filtering and format conversion. Queries read the image's
 * descriptor (sim/sg_tex.def), whose address an image argument holds. */
#include "sg_devlib.h"

/* The unit's sampler word has the bits of the CLK_* values, so sampler
 * literals need no translation (tex.c). */
_Static_assert(CLK_NORMALIZED_COORDS_TRUE == SG_TEX_NORMALIZED &&
                   CLK_ADDRESS_CLAMP_TO_EDGE == SG_TEX_ADDR_CLAMP_TO_EDGE &&
                   CLK_ADDRESS_CLAMP == SG_TEX_ADDR_CLAMP &&
                   CLK_ADDRESS_REPEAT == SG_TEX_ADDR_REPEAT &&
                   CLK_ADDRESS_MIRRORED_REPEAT == SG_TEX_ADDR_MIRRORED_REPEAT &&
                   CLK_FILTER_NEAREST == SG_TEX_NEAREST && CLK_FILTER_LINEAR == SG_TEX_LINEAR,
               "sampler bits");

/* ---- Images and samplers as the unit's operands (tex.c) ------------------ */

#define SG_DESC_DECL(A, T) SG_OVL ulong sg_desc(A T image) __asm__("sg_image_desc");
#define SG_FOR_ACCESS(M, T) M(read_only, T) M(write_only, T) M(read_write, T)
#define SG_FOR_IMAGES(M)                                                     \
  SG_FOR_ACCESS(M, image1d_t)                                                \
  SG_FOR_ACCESS(M, image1d_buffer_t)                                         \
  SG_FOR_ACCESS(M, image1d_array_t)                                          \
  SG_FOR_ACCESS(M, image2d_t)                                                \
  SG_FOR_ACCESS(M, image2d_array_t)                                          \
  SG_FOR_ACCESS(M, image3d_t)                                                \
  SG_FOR_ACCESS(M, image2d_depth_t)                                          \
  SG_FOR_ACCESS(M, image2d_array_depth_t)
SG_FOR_IMAGES(SG_DESC_DECL)
ulong sg_sampler_word(sampler_t sampler);

ulong2 sg_tex_sample_f(ulong desc, ulong sampler, ulong xy, ulong z);
ulong2 sg_tex_sample_i(ulong desc, ulong sampler, ulong xy, ulong z);
ulong2 sg_tex_sample_u(ulong desc, ulong sampler, ulong xy, ulong z);
ulong2 sg_tex_samplei_f(ulong desc, ulong sampler, ulong xy, ulong z);
ulong2 sg_tex_samplei_i(ulong desc, ulong sampler, ulong xy, ulong z);
ulong2 sg_tex_samplei_u(ulong desc, ulong sampler, ulong xy, ulong z);
ulong2 sg_tex_load_f(ulong desc, ulong sampler, ulong xy, ulong z);
ulong2 sg_tex_load_i(ulong desc, ulong sampler, ulong xy, ulong z);
ulong2 sg_tex_load_u(ulong desc, ulong sampler, ulong xy, ulong z);
ulong2 sg_tex_load_rw_f(ulong desc, ulong sampler, ulong xy, ulong z);
ulong2 sg_tex_load_rw_i(ulong desc, ulong sampler, ulong xy, ulong z);
ulong2 sg_tex_load_rw_u(ulong desc, ulong sampler, ulong xy, ulong z);
void sg_tex_store_f(ulong desc, ulong xy, ulong z, ulong lo, ulong hi);
void sg_tex_store_i(ulong desc, ulong xy, ulong z, ulong lo, ulong hi);
void sg_tex_store_u(ulong desc, ulong xy, ulong z, ulong lo, ulong hi);

/* Coordinates in the unit's pair: x | y << 32 and z (the layer of a 2D
 * array; a 1D array's layer is its y). */
SG_INL ulong sg_pack(uint x, uint y) { return (ulong)x | (ulong)y << 32; }
SG_INL ulong sg_xy(int c) { return (uint)c; }
SG_INL ulong sg_xy(int2 c) { return sg_pack(c.x, c.y); }
SG_INL ulong sg_xy(int4 c) { return sg_pack(c.x, c.y); }
SG_INL ulong sg_xy(float c) { return as_uint(c); }
SG_INL ulong sg_xy(float2 c) { return sg_pack(as_uint(c.x), as_uint(c.y)); }
SG_INL ulong sg_xy(float4 c) { return sg_pack(as_uint(c.x), as_uint(c.y)); }
SG_INL ulong sg_z(int c) { return 0; }
SG_INL ulong sg_z(int2 c) { return 0; }
SG_INL ulong sg_z(int4 c) { return (uint)c.z; }
SG_INL ulong sg_z(float c) { return 0; }
SG_INL ulong sg_z(float2 c) { return 0; }
SG_INL ulong sg_z(float4 c) { return as_uint(c.z); }

/* One read of kind K (f, i, u) by function FN. */
#define SG_TEX(FN, K, img, s, c) FN##_##K(sg_desc(img), s, sg_xy(c), sg_z(c))

/* ---- Reads with a sampler (read_only images) ----------------------------- */

#define SG_READ_SAMPLED(T, CI, CF)                                           \
  SG_OVL float4 read_imagef(read_only T img, sampler_t s, CI c) {            \
    return as_float4(SG_TEX(sg_tex_samplei, f, img, sg_sampler_word(s), c)); \
  }                                                                          \
  SG_OVL float4 read_imagef(read_only T img, sampler_t s, CF c) {            \
    return as_float4(SG_TEX(sg_tex_sample, f, img, sg_sampler_word(s), c));  \
  }                                                                          \
  SG_OVL int4 read_imagei(read_only T img, sampler_t s, CI c) {              \
    return as_int4(SG_TEX(sg_tex_samplei, i, img, sg_sampler_word(s), c));   \
  }                                                                          \
  SG_OVL int4 read_imagei(read_only T img, sampler_t s, CF c) {              \
    return as_int4(SG_TEX(sg_tex_sample, i, img, sg_sampler_word(s), c));    \
  }                                                                          \
  SG_OVL uint4 read_imageui(read_only T img, sampler_t s, CI c) {            \
    return as_uint4(SG_TEX(sg_tex_samplei, u, img, sg_sampler_word(s), c));  \
  }                                                                          \
  SG_OVL uint4 read_imageui(read_only T img, sampler_t s, CF c) {            \
    return as_uint4(SG_TEX(sg_tex_sample, u, img, sg_sampler_word(s), c));   \
  }
SG_READ_SAMPLED(image1d_t, int, float)
SG_READ_SAMPLED(image1d_array_t, int2, float2)
SG_READ_SAMPLED(image2d_t, int2, float2)
SG_READ_SAMPLED(image2d_array_t, int4, float4)
SG_READ_SAMPLED(image3d_t, int4, float4)

#define SG_READ_DEPTH_SAMPLED(T, CI, CF)                                     \
  SG_OVL float read_imagef(read_only T img, sampler_t s, CI c) {             \
    return as_float((uint)SG_TEX(sg_tex_samplei, f, img, sg_sampler_word(s), c).x); \
  }                                                                          \
  SG_OVL float read_imagef(read_only T img, sampler_t s, CF c) {             \
    return as_float((uint)SG_TEX(sg_tex_sample, f, img, sg_sampler_word(s), c).x); \
  }
SG_READ_DEPTH_SAMPLED(image2d_depth_t, int2, float2)
SG_READ_DEPTH_SAMPLED(image2d_array_depth_t, int4, float4)

/* ---- Reads without a sampler (read_only and read_write images) ------------ */

#define SG_READ(A, T, CI, LOAD)                                              \
  SG_OVL float4 read_imagef(A T img, CI c) { return as_float4(SG_TEX(LOAD, f, img, 0, c)); } \
  SG_OVL int4 read_imagei(A T img, CI c) { return as_int4(SG_TEX(LOAD, i, img, 0, c)); }     \
  SG_OVL uint4 read_imageui(A T img, CI c) { return as_uint4(SG_TEX(LOAD, u, img, 0, c)); }
#define SG_READ_DEPTH(A, T, CI, LOAD)                                        \
  SG_OVL float read_imagef(A T img, CI c) {                                  \
    return as_float((uint)SG_TEX(LOAD, f, img, 0, c).x);                     \
  }
/* Reads of a read_write image must see the work-item's earlier writes
 * (after atomic_work_item_fence): they are not merged or moved. */
#define SG_READS(T, CI, READ)                                                \
  READ(read_only, T, CI, sg_tex_load)                                        \
  READ(read_write, T, CI, sg_tex_load_rw)
SG_READS(image1d_t, int, SG_READ)
SG_READS(image1d_buffer_t, int, SG_READ)
SG_READS(image1d_array_t, int2, SG_READ)
SG_READS(image2d_t, int2, SG_READ)
SG_READS(image2d_array_t, int4, SG_READ)
SG_READS(image3d_t, int4, SG_READ)
SG_READS(image2d_depth_t, int2, SG_READ_DEPTH)
SG_READS(image2d_array_depth_t, int4, SG_READ_DEPTH)

/* ---- Writes (write_only and read_write images) ---------------------------- */

#define SG_WRITE(A, T, CI)                                                   \
  SG_OVL void write_imagef(A T img, CI c, float4 v) {                        \
    ulong2 d = as_ulong2(v);                                                 \
    sg_tex_store_f(sg_desc(img), sg_xy(c), sg_z(c), d.x, d.y);               \
  }                                                                          \
  SG_OVL void write_imagei(A T img, CI c, int4 v) {                          \
    ulong2 d = as_ulong2(v);                                                 \
    sg_tex_store_i(sg_desc(img), sg_xy(c), sg_z(c), d.x, d.y);               \
  }                                                                          \
  SG_OVL void write_imageui(A T img, CI c, uint4 v) {                        \
    ulong2 d = as_ulong2(v);                                                 \
    sg_tex_store_u(sg_desc(img), sg_xy(c), sg_z(c), d.x, d.y);               \
  }
#define SG_WRITE_DEPTH(A, T, CI)                                             \
  SG_OVL void write_imagef(A T img, CI c, float depth) {                     \
    sg_tex_store_f(sg_desc(img), sg_xy(c), sg_z(c), as_uint(depth), 0);      \
  }
#define SG_WRITES(T, CI, WRITE) WRITE(write_only, T, CI) WRITE(read_write, T, CI)
SG_WRITES(image1d_t, int, SG_WRITE)
SG_WRITES(image1d_buffer_t, int, SG_WRITE)
SG_WRITES(image1d_array_t, int2, SG_WRITE)
SG_WRITES(image2d_t, int2, SG_WRITE)
SG_WRITES(image2d_array_t, int4, SG_WRITE)
SG_WRITES(image3d_t, int4, SG_WRITE)
SG_WRITES(image2d_depth_t, int2, SG_WRITE_DEPTH)
SG_WRITES(image2d_array_depth_t, int4, SG_WRITE_DEPTH)

/* ---- Queries ----------------------------------------------------------------- */

/* Field off of the descriptor (read-only for the whole launch). */
SG_INL int sg_desc_field(ulong desc, int off) { return *(__constant const int *)(desc + off); }
#define SG_FIELD(img, NAME) sg_desc_field(sg_desc(img), SG_TEXD_##NAME)

#define SG_QUERY_ALL(A, T)                                                   \
  SG_OVL int get_image_width(A T img) { return SG_FIELD(img, WIDTH); }       \
  SG_OVL int get_image_channel_data_type(A T img) { return SG_FIELD(img, TYPE_QUERY); } \
  SG_OVL int get_image_channel_order(A T img) { return SG_FIELD(img, ORDER_QUERY); }
SG_FOR_IMAGES(SG_QUERY_ALL)

#define SG_QUERY_2D(A, T)                                                    \
  SG_OVL int get_image_height(A T img) { return SG_FIELD(img, HEIGHT); }     \
  SG_OVL int2 get_image_dim(A T img) { return (int2)(SG_FIELD(img, WIDTH), SG_FIELD(img, HEIGHT)); }
SG_FOR_ACCESS(SG_QUERY_2D, image2d_t)
SG_FOR_ACCESS(SG_QUERY_2D, image2d_array_t)
SG_FOR_ACCESS(SG_QUERY_2D, image2d_depth_t)
SG_FOR_ACCESS(SG_QUERY_2D, image2d_array_depth_t)

#define SG_QUERY_3D(A, T)                                                    \
  SG_OVL int get_image_height(A T img) { return SG_FIELD(img, HEIGHT); }     \
  SG_OVL int get_image_depth(A T img) { return SG_FIELD(img, DEPTH); }       \
  SG_OVL int4 get_image_dim(A T img) {                                       \
    return (int4)(SG_FIELD(img, WIDTH), SG_FIELD(img, HEIGHT), SG_FIELD(img, DEPTH), 0); \
  }
SG_FOR_ACCESS(SG_QUERY_3D, image3d_t)

#define SG_QUERY_ARRAY(A, T)                                                 \
  SG_OVL size_t get_image_array_size(A T img) { return (uint)SG_FIELD(img, LAYERS); }
SG_FOR_ACCESS(SG_QUERY_ARRAY, image1d_array_t)
SG_FOR_ACCESS(SG_QUERY_ARRAY, image2d_array_t)
SG_FOR_ACCESS(SG_QUERY_ARRAY, image2d_array_depth_t)
