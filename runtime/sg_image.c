/* SPDX-License-Identifier: MIT */
/* runtime/ images (DESIGN.md 5; OpenCL 3.0 API 5.3): image objects on the
 * memory object of sg_mem.c, their formats (the texture unit's tables in
 * sim/sg_tex.def, by the API's names), creation with the spec's checks in
 * its order, queries, and what kernel arguments and image commands need.
 * docs/images.md says what SoftGPU chose where the spec leaves a choice. */
#include <stdlib.h>
#include <string.h>

#include "sg_runtime.h"

/* ---- Formats ------------------------------------------------------------- */

/* The unit's channel type and order of an API value; -1 when the unit has
 * none. The names are the API's (sim/sg_tex.def). */
static int tex_type(cl_channel_type t) {
  switch (t) {
#define SG_TEX_TYPE(name, bytes, cls)                                                              \
  case CL_##name:                                                                                  \
    return SG_TEX_TYPE_##name;
#include "sg_tex.def"
#undef SG_TEX_TYPE
  default: return -1;
  }
}

static int tex_order(cl_channel_order o) {
  switch (o) {
#define SG_TEX_ORDER(name, layout, border_alpha, srgb)                                             \
  case CL_##name:                                                                                  \
    return SG_TEX_ORDER_##name;
#include "sg_tex.def"
#undef SG_TEX_ORDER
  default: return -1;
  }
}

static bool is_8bit(cl_channel_type t) {
  return t == CL_UNORM_INT8 || t == CL_SNORM_INT8 || t == CL_SIGNED_INT8 || t == CL_UNSIGNED_INT8;
}
static bool is_packed(cl_channel_type t) {
  return t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010 ||
         t == CL_UNORM_INT_101010_2;
}

/* Does the API allow this pair (5.3.1.1, "Image Format Descriptor")? Both
 * values known, a combination the channel order and data type tables
 * allow, and a power-of-two number of bits per texel. */
static bool format_valid(const cl_image_format *f) {
  cl_channel_order o = f->image_channel_order;
  cl_channel_type t = f->image_channel_data_type;
  if (o == CL_DEPTH_STENCIL) /* cl_khr_gl_depth_images: valid, not supported */
    return t == CL_UNORM_INT24 || t == CL_FLOAT;
  int ty = tex_type(t), or = tex_order(o);
  if (ty < 0 || or < 0)
    return false;
  bool ok;
  switch (o) {
  case CL_RGB:
  case CL_RGBx: ok = t != CL_UNORM_INT_101010_2 && is_packed(t); break;
  case CL_RGBA: ok = !is_packed(t) || t == CL_UNORM_INT_101010_2; break;
  case CL_BGRA:
  case CL_ARGB:
  case CL_ABGR: ok = is_8bit(t); break;
  case CL_INTENSITY:
  case CL_LUMINANCE:
    ok = t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 || t == CL_SNORM_INT16 ||
         t == CL_HALF_FLOAT || t == CL_FLOAT;
    break;
  case CL_sRGB:
  case CL_sRGBx:
  case CL_sRGBA:
  case CL_sBGRA: ok = t == CL_UNORM_INT8; break;
  case CL_DEPTH: ok = t == CL_UNORM_INT16 || t == CL_FLOAT; break;
  default: ok = !is_packed(t); break; /* R A RG RA Rx RGx */
  }
  uint32_t bytes = sg_tex_texel_size((uint32_t)ty | (uint32_t) or << 8);
  return ok && bytes && (bytes & (bytes - 1)) == 0;
}

/* Does SoftGPU offer a valid format for images of type? Not the orders
 * with an ignored channel (Rx, RGx, RGBx, sRGBx: their border color is
 * disputed between the spec and the conformance tests), nor depth/stencil;
 * depth only for 2D images and 2D arrays, sRGB not for 1D image buffers
 * (both as the minimum lists' footnotes allow). */
static bool format_offered(const cl_image_format *f, cl_mem_object_type type) {
  switch (f->image_channel_order) {
  case CL_Rx:
  case CL_RGx:
  case CL_RGBx:
  case CL_sRGBx:
  case CL_DEPTH_STENCIL: return false;
  case CL_DEPTH: return type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  case CL_sRGBA:
  case CL_sBGRA: return type != CL_MEM_OBJECT_IMAGE1D_BUFFER;
  default: return true;
  }
}

static uint32_t tex_format(const cl_image_format *f) {
  return (uint32_t)tex_type(f->image_channel_data_type) |
         (uint32_t)tex_order(f->image_channel_order) << 8;
}

/* ---- Image types ----------------------------------------------------------- */

static const struct {
  cl_mem_object_type type;
  enum sg_tex_geom geom;
  unsigned dims; /* of texels; arrays add a layer */
  bool array;
} kinds[] = {
    {CL_MEM_OBJECT_IMAGE1D, SG_TEX_GEOM_1D, 1, false},
    {CL_MEM_OBJECT_IMAGE1D_BUFFER, SG_TEX_GEOM_1D, 1, false},
    {CL_MEM_OBJECT_IMAGE1D_ARRAY, SG_TEX_GEOM_1D_ARRAY, 1, true},
    {CL_MEM_OBJECT_IMAGE2D, SG_TEX_GEOM_2D, 2, false},
    {CL_MEM_OBJECT_IMAGE2D_ARRAY, SG_TEX_GEOM_2D_ARRAY, 2, true},
    {CL_MEM_OBJECT_IMAGE3D, SG_TEX_GEOM_3D, 3, false},
};
#define NUM_KINDS (sizeof kinds / sizeof kinds[0])

static int kind_of(cl_mem_object_type type) {
  for (unsigned i = 0; i < NUM_KINDS; i++)
    if (kinds[i].type == type)
      return (int)i;
  return -1;
}

bool sg_image_fits_arg(cl_mem m, enum sg_image_type t) {
  static const cl_mem_object_type want[SG_IMAGE_NUM_TYPES] = {
      [SG_IMAGE_1D] = CL_MEM_OBJECT_IMAGE1D,
      [SG_IMAGE_1D_BUFFER] = CL_MEM_OBJECT_IMAGE1D_BUFFER,
      [SG_IMAGE_1D_ARRAY] = CL_MEM_OBJECT_IMAGE1D_ARRAY,
      [SG_IMAGE_2D] = CL_MEM_OBJECT_IMAGE2D,
      [SG_IMAGE_2D_ARRAY] = CL_MEM_OBJECT_IMAGE2D_ARRAY,
      [SG_IMAGE_3D] = CL_MEM_OBJECT_IMAGE3D,
      [SG_IMAGE_2D_DEPTH] = CL_MEM_OBJECT_IMAGE2D,
      [SG_IMAGE_2D_ARRAY_DEPTH] = CL_MEM_OBJECT_IMAGE2D_ARRAY,
  };
  bool depth = t == SG_IMAGE_2D_DEPTH || t == SG_IMAGE_2D_ARRAY_DEPTH;
  return t < SG_IMAGE_NUM_TYPES && sg_is_image(m) && m->type == want[t] &&
         depth == (m->format.image_channel_order == CL_DEPTH);
}

/* ---- Device limits (CL_DEVICE_IMAGE*) --------------------------------------- */

size_t sg_device_image_limit(cl_device_id dev, cl_device_info what) {
  switch (what) {
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT: return 16384;
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: return 2048;
  /* Texels of the largest format (16 bytes) that fit one allocation. */
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: return (size_t)(sg_device_max_alloc(dev) / 16);
  default: return 0;
  }
}

/* ---- Creation --------------------------------------------------------------- */

static bool orders_compatible(cl_channel_order view, cl_channel_order stored) {
  static const cl_channel_order pairs[][2] = {
      {CL_sBGRA, CL_BGRA}, {CL_BGRA, CL_sBGRA}, {CL_sRGBA, CL_RGBA},
      {CL_RGBA, CL_sRGBA}, {CL_sRGB, CL_RGB},   {CL_RGB, CL_sRGB},
      {CL_sRGBx, CL_RGBx}, {CL_RGBx, CL_sRGBx}, {CL_DEPTH, CL_R},
  };
  if (view == stored)
    return true;
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
    if (pairs[i][0] == view && pairs[i][1] == stored)
      return true;
  return false;
}

/* Sizes against the device limits (CL_INVALID_IMAGE_SIZE). */
static cl_int check_size(cl_context ctx, const cl_image_desc *d, bool legacy3d) {
  cl_int err = CL_SUCCESS;
  cl_device_id dev = ctx->device;
  size_t w2 = sg_device_image_limit(dev, CL_DEVICE_IMAGE2D_MAX_WIDTH),
         h2 = sg_device_image_limit(dev, CL_DEVICE_IMAGE2D_MAX_HEIGHT),
         w3 = sg_device_image_limit(dev, CL_DEVICE_IMAGE3D_MAX_WIDTH),
         h3 = sg_device_image_limit(dev, CL_DEVICE_IMAGE3D_MAX_HEIGHT),
         d3 = sg_device_image_limit(dev, CL_DEVICE_IMAGE3D_MAX_DEPTH),
         arr = sg_device_image_limit(dev, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE),
         buf = sg_device_image_limit(dev, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE);
  size_t maxw = d->image_type == CL_MEM_OBJECT_IMAGE3D          ? w3
                : d->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? buf
                                                                : w2;
  SG_CHECK(d->image_width >= 1 && d->image_width <= maxw, CL_INVALID_IMAGE_SIZE,
           "image_width %zu is not in [1, %zu]", d->image_width, maxw);
  if (d->image_type == CL_MEM_OBJECT_IMAGE2D || d->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
    SG_CHECK(d->image_height >= 1 && d->image_height <= h2, CL_INVALID_IMAGE_SIZE,
             "image_height %zu is not in [1, %zu]", d->image_height, h2);
  if (d->image_type == CL_MEM_OBJECT_IMAGE3D) {
    SG_CHECK(d->image_height >= 1 && d->image_height <= h3, CL_INVALID_IMAGE_SIZE,
             "image_height %zu is not in [1, %zu]", d->image_height, h3);
    SG_CHECK(d->image_depth >= (legacy3d ? 2u : 1u) && d->image_depth <= d3, CL_INVALID_IMAGE_SIZE,
             "image_depth %zu is not in [%d, %zu]", d->image_depth, legacy3d ? 2 : 1, d3);
  }
  if (d->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY || d->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
    SG_CHECK(d->image_array_size >= 1 && d->image_array_size <= arr, CL_INVALID_IMAGE_SIZE,
             "image_array_size %zu is not in [1, %zu]", d->image_array_size, arr);
fail:
  return err;
}

/* Resolves the pitches of d (0: the tight ones) and checks them; *bytes
 * is the size of the image's storage. pitch_err: the code for a bad pitch
 * (CL_INVALID_IMAGE_DESCRIPTOR; the 1.x calls say CL_INVALID_IMAGE_SIZE). */
static cl_int layout(cl_image_desc *d, size_t elem, bool pitches_allowed, cl_int pitch_err,
                     size_t *bytes) {
  cl_int err = CL_SUCCESS;
  int k = kind_of(d->image_type);
  bool has_slice = kinds[k].array || kinds[k].dims == 3;
  size_t tight, rows = kinds[k].dims >= 2 ? d->image_height : 1;
  SG_CHECK(pitches_allowed || (!d->image_row_pitch && !d->image_slice_pitch), pitch_err,
           "image_row_pitch and image_slice_pitch must be 0 without host_ptr");
  SG_CHECK(!__builtin_mul_overflow(d->image_width, elem, &tight), CL_INVALID_IMAGE_SIZE,
           "image too large");
  if (!d->image_row_pitch)
    d->image_row_pitch = tight;
  SG_CHECK(d->image_row_pitch >= tight && d->image_row_pitch % elem == 0, pitch_err,
           "image_row_pitch %zu is less than image_width x %zu or not a multiple of %zu",
           d->image_row_pitch, elem, elem);
  size_t plane;
  SG_CHECK(!__builtin_mul_overflow(d->image_row_pitch, rows, &plane), CL_INVALID_IMAGE_SIZE,
           "image too large");
  if (has_slice) {
    if (!d->image_slice_pitch)
      d->image_slice_pitch = plane;
    SG_CHECK(d->image_slice_pitch >= plane && d->image_slice_pitch % d->image_row_pitch == 0,
             pitch_err,
             "image_slice_pitch %zu is less than %zu or not a multiple of image_row_pitch %zu",
             d->image_slice_pitch, plane, d->image_row_pitch);
    size_t n = kinds[k].array ? d->image_array_size : d->image_depth;
    SG_CHECK(!__builtin_mul_overflow(d->image_slice_pitch, n, bytes), CL_INVALID_IMAGE_SIZE,
             "image too large");
  } else {
    *bytes = plane;
  }
fail:
  return err;
}

static void set_tex(cl_mem m) {
  const cl_image_desc *d = &m->desc;
  int k = kind_of(d->image_type);
  m->tex = (struct sg_tex_desc){
      .base = m->buf.addr,
      .row_pitch = d->image_row_pitch,
      .slice_pitch = d->image_slice_pitch,
      .width = (uint32_t)d->image_width,
      .height = kinds[k].dims >= 2 ? (uint32_t)d->image_height : 1,
      .depth = kinds[k].dims == 3 ? (uint32_t)d->image_depth : 1,
      .layers = kinds[k].array ? (uint32_t)d->image_array_size : 1,
      .geometry = kinds[k].geom,
      .format = tex_format(&m->format),
      .order_query = m->format.image_channel_order,
      .type_query = m->format.image_channel_data_type,
  };
}

/* The checks that apply to mem_object (5.3.1.2), before sizes: a buffer for
 * 1D image buffers and 2D images, a 2D image for 2D images. */
static cl_int check_source(const cl_image_desc *d, const cl_image_format *f, cl_context ctx) {
  cl_int err = CL_SUCCESS;
  cl_mem src = d->mem_object;
  if (d->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
    SG_CHECK(src, CL_INVALID_IMAGE_DESCRIPTOR, "a 1D image buffer needs a buffer in mem_object");
  if (!src)
    return CL_SUCCESS;
  SG_CHECK(sg_valid(src, SG_KIND_MEM) && src->context == ctx, CL_INVALID_IMAGE_DESCRIPTOR,
           "mem_object is not a valid memory object of the context");
  if (!sg_is_image(src)) {
    SG_CHECK(d->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
                 d->image_type == CL_MEM_OBJECT_IMAGE2D,
             CL_INVALID_IMAGE_DESCRIPTOR,
             "only 1D image buffers and 2D images can be made from a buffer");
    return CL_SUCCESS;
  }
  SG_CHECK(d->image_type == CL_MEM_OBJECT_IMAGE2D && src->type == CL_MEM_OBJECT_IMAGE2D,
           CL_INVALID_IMAGE_DESCRIPTOR, "only a 2D image can be made from an image (a 2D one)");
  const cl_image_desc *s = &src->desc;
  SG_CHECK(d->image_width == s->image_width && d->image_height == s->image_height &&
               (!d->image_row_pitch || d->image_row_pitch == s->image_row_pitch) &&
               !d->image_slice_pitch && !d->image_depth && !d->image_array_size,
           CL_INVALID_IMAGE_DESCRIPTOR, "the descriptor does not match mem_object's");
  SG_CHECK(f->image_channel_data_type == src->format.image_channel_data_type &&
               orders_compatible(f->image_channel_order, src->format.image_channel_order),
           CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
           "the format is not a view of mem_object's (same data type, compatible order)");
fail:
  return err;
}

/* Binds m's storage to mem_object's: the buffer's bytes (checked against
 * the image's extent and the alignment rules), or the image's. */
static cl_int bind_source(cl_mem m, size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_mem src = m->desc.mem_object;
  if (sg_is_image(src)) {
    m->desc.image_row_pitch = src->desc.image_row_pitch;
    m->desc.image_slice_pitch = src->desc.image_slice_pitch;
    bytes = src->size;
  } else {
    SG_CHECK(bytes <= src->size, CL_INVALID_IMAGE_SIZE,
             "the image needs %zu bytes; the buffer has %zu", bytes, src->size);
    SG_CHECK(m->type != CL_MEM_OBJECT_IMAGE2D ||
                 m->desc.image_row_pitch % (m->elem_size * SG_IMAGE_PITCH_ALIGNMENT) == 0,
             CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
             "image_row_pitch is not a multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT texels");
    SG_CHECK(!src->host_ptr ||
                 (uintptr_t)src->host_ptr % (m->elem_size * SG_IMAGE_BASE_ADDRESS_ALIGNMENT) == 0,
             CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
             "the buffer's host_ptr is not aligned to CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT "
             "texels");
  }
  m->parent = src;
  sg_retain_internal(src);
  m->host_ptr = src->host_ptr;
  m->buf = src->buf;
  m->buf.size = bytes;
  m->buf.read_only = (m->flags & CL_MEM_READ_ONLY) != 0;
  m->size = bytes;
fail:
  return err;
}

/* Own storage: the application's (CL_MEM_USE_HOST_PTR), or a copy. */
static cl_int allocate(cl_mem m, void *host_ptr, size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_context ctx = m->context;
  cl_ulong max = sg_device_max_alloc(ctx->device);
  SG_CHECK(bytes <= max, CL_INVALID_IMAGE_SIZE,
           "the image needs %zu bytes, more than CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu)", bytes,
           (unsigned long long)max);
  m->size = m->buf.size = bytes;
  m->reserved = sg_device_reserve(ctx->device, bytes);
  SG_CHECK(m->reserved, CL_MEM_OBJECT_ALLOCATION_FAILURE,
           "%zu bytes do not fit in the device's global memory", bytes);
  if (m->flags & CL_MEM_USE_HOST_PTR) {
    m->host_ptr = m->buf.host = host_ptr;
  } else {
    m->buf.host = calloc(1, bytes);
    SG_CHECK(m->buf.host, CL_MEM_OBJECT_ALLOCATION_FAILURE, "cannot allocate %zu bytes", bytes);
    if (m->flags & CL_MEM_COPY_HOST_PTR)
      memcpy(m->buf.host, host_ptr, bytes);
  }
  m->buf.addr = sg_device_alloc_address(ctx->device->machine, bytes);
  SG_CHECK(m->buf.addr, CL_MEM_OBJECT_ALLOCATION_FAILURE,
           "the device's address space is exhausted");
fail:
  return err;
}

/* clCreateImage and the 1.x calls; pitch_err is the code for bad pitches. */
static cl_mem image_create(cl_context ctx, const cl_mem_properties *props, cl_mem_flags flags,
                           const cl_image_format *format, const cl_image_desc *desc, void *host_ptr,
                           cl_int pitch_err, bool legacy3d, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_mem m = NULL;
  SG_CHECK(sg_valid(ctx, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not a valid context");
  if (props)
    SG_CHECK(props[0] == 0, CL_INVALID_PROPERTY, "unsupported image property 0x%llx",
             (unsigned long long)props[0]);
  cl_mem src = desc && sg_valid(desc->mem_object, SG_KIND_MEM) ? desc->mem_object : NULL;
  if (src) {
    if ((err = sg_mem_inherit_flags(src, &flags)) != CL_SUCCESS)
      goto fail;
  } else if ((err = sg_mem_check_flags(flags)) != CL_SUCCESS) {
    goto fail;
  }
  SG_CHECK(format && format_valid(format), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
           "image_format is NULL or not a valid format");
  SG_CHECK(desc, CL_INVALID_IMAGE_DESCRIPTOR, "image_desc is NULL");
  SG_CHECK(kind_of(desc->image_type) >= 0, CL_INVALID_IMAGE_DESCRIPTOR,
           "image_type 0x%x is not an image type", desc->image_type);
  SG_CHECK(desc->num_mip_levels == 0 && desc->num_samples == 0, CL_INVALID_IMAGE_DESCRIPTOR,
           "num_mip_levels and num_samples must be 0 (no mipmaps, no multi-sampling)");
  if ((err = check_source(desc, format, ctx)) != CL_SUCCESS ||
      (err = check_size(ctx, desc, legacy3d)) != CL_SUCCESS)
    goto fail;
  bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  SG_CHECK(src || wants_ptr == (host_ptr != NULL), CL_INVALID_HOST_PTR,
           wants_ptr ? "host_ptr is NULL with CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR"
                     : "host_ptr is not NULL but neither CL_MEM_USE_HOST_PTR nor "
                       "CL_MEM_COPY_HOST_PTR is set");
  SG_CHECK(!src || !host_ptr, CL_INVALID_HOST_PTR,
           "host_ptr must be NULL for an image made from mem_object");
  SG_CHECK(format_offered(format, desc->image_type), CL_IMAGE_FORMAT_NOT_SUPPORTED,
           "the format is not supported for this image type (clGetSupportedImageFormats)");
  if (!(flags & SG_MEM_ACCESS_FLAGS))
    flags |= CL_MEM_READ_WRITE;
  m = sg_mem_new(ctx, flags, 0);
  SG_CHECK(m, CL_OUT_OF_HOST_MEMORY, "no memory for the image object");
  m->type = desc->image_type;
  m->format = *format;
  m->desc = *desc;
  m->desc.mem_object = src;
  m->elem_size = sg_tex_texel_size(tex_format(format));
  /* The descriptor's unused sizes read as 0, as clGetImageInfo returns. */
  int k = kind_of(desc->image_type);
  if (kinds[k].dims < 2)
    m->desc.image_height = 0;
  if (kinds[k].dims < 3)
    m->desc.image_depth = 0;
  if (!kinds[k].array)
    m->desc.image_array_size = 0;
  /* Pitches describe host_ptr's layout, or the buffer's an image is made
   * from: a 2D image's rows, and a 1D image buffer's one row (the CTS gives
   * it a pitch past its width, which then fits in the buffer too). */
  bool pitched = host_ptr || (src && !sg_is_image(src) && (m->type == CL_MEM_OBJECT_IMAGE2D ||
                                                           m->type == CL_MEM_OBJECT_IMAGE1D_BUFFER));
  size_t bytes = 0;
  if (!src || !sg_is_image(src))
    err = layout(&m->desc, m->elem_size, pitched, pitch_err, &bytes);
  if (err == CL_SUCCESS)
    err = src ? bind_source(m, bytes) : allocate(m, host_ptr, bytes);
  if (err == CL_SUCCESS)
    err = sg_mem_copy_properties(m, props);
  if (err != CL_SUCCESS)
    goto fail;
  /* A 1D image or 2D image keeps the slice pitch the application gave with
   * its host_ptr (clGetImageInfo returns it); arrays and 3D resolved it. */
  if (!kinds[k].array && kinds[k].dims < 3 && !(host_ptr && desc->image_slice_pitch))
    m->desc.image_slice_pitch = 0;
  set_tex(m);
  SG_SET_ERR(errcode_ret, CL_SUCCESS);
  return m;
fail:
  if (m)
    sg_release(m);
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context ctx, cl_mem_flags flags,
                                              const cl_image_format *image_format,
                                              const cl_image_desc *image_desc, void *host_ptr,
                                              cl_int *errcode_ret) {
  return image_create(ctx, NULL, flags, image_format, image_desc, host_ptr,
                      CL_INVALID_IMAGE_DESCRIPTOR, false, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context ctx,
                                                            const cl_mem_properties *properties,
                                                            cl_mem_flags flags,
                                                            const cl_image_format *image_format,
                                                            const cl_image_desc *image_desc,
                                                            void *host_ptr, cl_int *errcode_ret) {
  return image_create(ctx, properties, flags, image_format, image_desc, host_ptr,
                      CL_INVALID_IMAGE_DESCRIPTOR, false, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context ctx, cl_mem_flags flags,
                                                const cl_image_format *image_format,
                                                size_t image_width, size_t image_height,
                                                size_t image_row_pitch, void *host_ptr,
                                                cl_int *errcode_ret) {
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                     .image_width = image_width,
                     .image_height = image_height,
                     .image_row_pitch = image_row_pitch};
  return image_create(ctx, NULL, flags, image_format, &d, host_ptr, CL_INVALID_IMAGE_SIZE, false,
                      errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context ctx, cl_mem_flags flags,
                                                const cl_image_format *image_format,
                                                size_t image_width, size_t image_height,
                                                size_t image_depth, size_t image_row_pitch,
                                                size_t image_slice_pitch, void *host_ptr,
                                                cl_int *errcode_ret) {
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D,
                     .image_width = image_width,
                     .image_height = image_height,
                     .image_depth = image_depth,
                     .image_row_pitch = image_row_pitch,
                     .image_slice_pitch = image_slice_pitch};
  return image_create(ctx, NULL, flags, image_format, &d, host_ptr, CL_INVALID_IMAGE_SIZE, true,
                      errcode_ret);
}

/* ---- Queries ---------------------------------------------------------------- */

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context ctx, cl_mem_flags flags,
                                                           cl_mem_object_type image_type,
                                                           cl_uint num_entries,
                                                           cl_image_format *image_formats,
                                                           cl_uint *num_image_formats) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(ctx, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not a valid context");
  cl_mem_flags plain = flags & ~(cl_mem_flags)CL_MEM_KERNEL_READ_AND_WRITE;
  if ((err = sg_mem_check_flags(plain)) != CL_SUCCESS)
    goto fail;
  SG_CHECK(kind_of(image_type) >= 0, CL_INVALID_VALUE, "image_type 0x%x is not an image type",
           image_type);
  SG_CHECK(!(num_entries == 0 && image_formats), CL_INVALID_VALUE,
           "num_entries is 0 but image_formats is not NULL");
  /* Every valid pair of the unit's tables that SoftGPU offers, for reading
   * and writing alike: the unit does both for every format. */
  static const cl_channel_order orders[] = {
#define SG_TEX_ORDER(name, layout, border_alpha, srgb) CL_##name,
#include "sg_tex.def"
#undef SG_TEX_ORDER
  };
  static const cl_channel_type types[] = {
#define SG_TEX_TYPE(name, bytes, cls) CL_##name,
#include "sg_tex.def"
#undef SG_TEX_TYPE
  };
  cl_uint n = 0;
  for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++)
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
      cl_image_format f = {orders[o], types[t]};
      if (!format_valid(&f) || !format_offered(&f, image_type))
        continue;
      if (image_formats && n < num_entries)
        image_formats[n] = f;
      n++;
    }
  if (num_image_formats)
    *num_image_formats = n;
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name,
                                               size_t param_value_size, void *param_value,
                                               size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(image, SG_KIND_MEM) && sg_is_image(image), CL_INVALID_MEM_OBJECT,
           "image is not a valid image object");
  const cl_image_desc *d = &image->desc;
  switch (param_name) {
  case CL_IMAGE_FORMAT: SG_INFO_VAL(cl_image_format, image->format);
  case CL_IMAGE_ELEMENT_SIZE: SG_INFO_VAL(size_t, image->elem_size);
  case CL_IMAGE_ROW_PITCH: SG_INFO_VAL(size_t, d->image_row_pitch);
  case CL_IMAGE_SLICE_PITCH: SG_INFO_VAL(size_t, d->image_slice_pitch);
  case CL_IMAGE_WIDTH: SG_INFO_VAL(size_t, d->image_width);
  case CL_IMAGE_HEIGHT: SG_INFO_VAL(size_t, d->image_height);
  case CL_IMAGE_DEPTH: SG_INFO_VAL(size_t, d->image_depth);
  case CL_IMAGE_ARRAY_SIZE: SG_INFO_VAL(size_t, d->image_array_size);
  case CL_IMAGE_BUFFER:
    SG_INFO_VAL(cl_mem, image->type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? image->parent : NULL);
  case CL_IMAGE_NUM_MIP_LEVELS: SG_INFO_VAL(cl_uint, 0);
  case CL_IMAGE_NUM_SAMPLES: SG_INFO_VAL(cl_uint, 0);
  }
  SG_CHECK(false, CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
fail:
  return err;
}

/* ---- For image commands ------------------------------------------------------- */

cl_int sg_image_box(const char *api, cl_mem m, const size_t *origin, const size_t *region,
                    size_t *offset, size_t bytes[3], size_t pitch[2]) {
  cl_int err = CL_SUCCESS;
  const cl_image_desc *d = &m->desc;
  int k = kind_of(m->type);
  unsigned dims = kinds[k].dims + kinds[k].array; /* components that address something */
  SG_CHECK(origin && region, CL_INVALID_VALUE, "%s: origin or region is NULL", api);
  size_t lim[3] = {d->image_width, 1, 1};
  if (kinds[k].dims >= 2)
    lim[1] = d->image_height;
  if (kinds[k].dims == 3)
    lim[2] = d->image_depth;
  if (kinds[k].array)
    lim[kinds[k].dims] = d->image_array_size;
  for (unsigned i = 0; i < 3; i++) {
    SG_CHECK(region[i] >= 1, CL_INVALID_VALUE, "%s: region[%u] is 0", api, i);
    SG_CHECK(i < dims || (origin[i] == 0 && region[i] == 1), CL_INVALID_VALUE,
             "%s: origin[%u] must be 0 and region[%u] 1 for this image type", api, i, i);
    SG_CHECK(origin[i] <= lim[i] && region[i] <= lim[i] - origin[i], CL_INVALID_VALUE,
             "%s: origin[%u] + region[%u] (%zu + %zu) is past the image's %zu", api, i, i,
             origin[i], region[i], lim[i]);
  }
  /* A 1D array's second component steps through layers. */
  size_t p1 = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? d->image_slice_pitch : d->image_row_pitch;
  *offset = origin[0] * m->elem_size + origin[1] * p1 + origin[2] * d->image_slice_pitch;
  bytes[0] = region[0] * m->elem_size;
  bytes[1] = region[1];
  bytes[2] = region[2];
  pitch[0] = p1;
  pitch[1] = d->image_slice_pitch ? d->image_slice_pitch : p1 * region[1];
fail:
  return err;
}

void sg_image_pack(cl_mem m, const void *color, uint8_t *texel) {
  uint32_t v[4];
  memcpy(v, color, sizeof v);
  sg_tex_encode(m->tex.format, v, texel);
}
