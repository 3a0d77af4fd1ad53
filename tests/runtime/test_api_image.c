/* SPDX-License-Identifier: MIT */
/* API tests for images and samplers (OpenCL 3.0 API 5.3, 5.7; DESIGN.md
 * "Tests"), through the real loader: each entry point's success path and
 * every error code the spec gives it, in the spec's order where several
 * apply; hostile sizes never crash. Sampling itself: tests/images. */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS /* clCreateImage2D, clCreateImage3D */
#include <stdbool.h>

#include "sg_api_fixture.h"
#include "sg_info_table.h"

static struct fx *F;
#define ctx (F->ctx)
#define q (F->q)

static int setup(void **state) {
  fx_setup(state);
  F = *state;
  return 0;
}

static const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};

static cl_image_desc desc_of(cl_mem_object_type t, size_t w, size_t h, size_t d, size_t n) {
  return (cl_image_desc){.image_type = t,
                         .image_width = w,
                         .image_height = h,
                         .image_depth = d,
                         .image_array_size = n};
}

static cl_mem image2d(cl_mem_flags flags, size_t w, size_t h) {
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, w, h, 0, 0);
  cl_int err;
  cl_mem m = clCreateImage(ctx, flags, &rgba8, &d, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  return m;
}

/* clCreateImage's code for (flags, format, desc, host_ptr). */
static cl_int create_err(cl_mem_flags flags, const cl_image_format *f, const cl_image_desc *d,
                         void *host) {
  cl_int err = 12345;
  cl_mem m = clCreateImage(ctx, flags, f, d, host, &err);
  if (m) {
    assert_int_equal(err, CL_SUCCESS);
    clReleaseMemObject(m);
  } else {
    assert_int_not_equal(err, CL_SUCCESS);
  }
  return err;
}

/* ---- Device limits -------------------------------------------------------- */

static void test_device_limits(void **state) {
  (void)state;
  cl_device_id d = F->device;
  cl_bool b;
  assert_int_equal(clGetDeviceInfo(d, CL_DEVICE_IMAGE_SUPPORT, sizeof b, &b, NULL), CL_SUCCESS);
  assert_true(b);
  /* FULL_PROFILE minimums (API 4.2, "Device Queries"). */
  static const struct {
    cl_device_info name;
    size_t min;
    bool uint;
  } mins[] = {
      {CL_DEVICE_MAX_READ_IMAGE_ARGS, 128, true},
      {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, 64, true},
      {CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, 64, true},
      {CL_DEVICE_MAX_SAMPLERS, 16, true},
      {CL_DEVICE_IMAGE2D_MAX_WIDTH, 16384, false},
      {CL_DEVICE_IMAGE2D_MAX_HEIGHT, 16384, false},
      {CL_DEVICE_IMAGE3D_MAX_WIDTH, 2048, false},
      {CL_DEVICE_IMAGE3D_MAX_HEIGHT, 2048, false},
      {CL_DEVICE_IMAGE3D_MAX_DEPTH, 2048, false},
      {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, 65536, false},
      {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, 2048, false},
  };
  for (size_t i = 0; i < sizeof mins / sizeof mins[0]; i++) {
    size_t v = 0;
    cl_uint u = 0;
    if (mins[i].uint) {
      assert_int_equal(clGetDeviceInfo(d, mins[i].name, sizeof u, &u, NULL), CL_SUCCESS);
      v = u;
    } else {
      assert_int_equal(clGetDeviceInfo(d, mins[i].name, sizeof v, &v, NULL), CL_SUCCESS);
    }
    if (v < mins[i].min)
      fail_msg("device query 0x%x: %zu is below the minimum %zu", mins[i].name, v, mins[i].min);
  }
  /* Powers of two (2D images from buffers are supported). */
  cl_uint pitch, base;
  assert_int_equal(clGetDeviceInfo(d, CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof pitch, &pitch, NULL),
                   CL_SUCCESS);
  assert_int_equal(
      clGetDeviceInfo(d, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, sizeof base, &base, NULL),
      CL_SUCCESS);
  assert_true(pitch && !(pitch & (pitch - 1)) && base && !(base & (base - 1)));
  char ext[4096];
  assert_int_equal(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
  assert_non_null(strstr(ext, "cl_khr_image2d_from_buffer"));
  assert_non_null(strstr(ext, "cl_khr_3d_image_writes"));
  assert_non_null(strstr(ext, "cl_khr_depth_images"));
}

/* ---- Formats ---------------------------------------------------------------- */

static void test_supported_formats(void **state) {
  (void)state;
  cl_uint n = 0, n2 = 0;
  assert_int_equal(
      clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
      CL_SUCCESS);
  assert_true(n >= 11);
  cl_image_format list[3];
  assert_int_equal(
      clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 3, list, &n2),
      CL_SUCCESS);
  assert_int_equal(n2, n); /* the count of all, though only 3 fit */
  assert_int_equal(clGetSupportedImageFormats(ctx, CL_MEM_KERNEL_READ_AND_WRITE,
                                              CL_MEM_OBJECT_IMAGE3D, 3, list, NULL),
                   CL_SUCCESS);
  /* CL_DEPTH: 2D images and 2D arrays only. */
  cl_image_format all[512];
  assert_int_equal(
      clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE3D, 512, all, &n),
      CL_SUCCESS);
  for (cl_uint i = 0; i < n; i++)
    assert_int_not_equal(all[i].image_channel_order, CL_DEPTH);
  /* Errors. */
  assert_int_equal(
      clGetSupportedImageFormats(NULL, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
      CL_INVALID_CONTEXT);
  assert_int_equal(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                              CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
                   CL_INVALID_VALUE);
  assert_int_equal(
      clGetSupportedImageFormats(ctx, (cl_mem_flags)1 << 40, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
      CL_INVALID_VALUE);
  assert_int_equal(
      clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 0, NULL, &n),
      CL_INVALID_VALUE);
  assert_int_equal(
      clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, list, &n),
      CL_INVALID_VALUE);
}

/* ---- Creation ---------------------------------------------------------------- */

static void test_create(void **state) {
  (void)state;
  static const struct {
    cl_mem_object_type type;
    size_t w, h, d, n, bytes;
  } ok[] = {
      {CL_MEM_OBJECT_IMAGE1D, 7, 0, 0, 0, 28},  {CL_MEM_OBJECT_IMAGE1D_ARRAY, 7, 0, 0, 3, 84},
      {CL_MEM_OBJECT_IMAGE2D, 7, 5, 0, 0, 140}, {CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 5, 0, 2, 280},
      {CL_MEM_OBJECT_IMAGE3D, 7, 5, 3, 0, 420},
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    cl_image_desc d = desc_of(ok[i].type, ok[i].w, ok[i].h, ok[i].d, ok[i].n);
    cl_int err;
    cl_mem m = clCreateImage(ctx, 0, &rgba8, &d, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem_object_type t;
    size_t size;
    cl_mem_flags flags;
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
    assert_int_equal(t, ok[i].type);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL), CL_SUCCESS);
    assert_int_equal(size, ok[i].bytes);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof flags, &flags, NULL), CL_SUCCESS);
    assert_int_equal(flags, CL_MEM_READ_WRITE); /* the default */
    clReleaseMemObject(m);
  }
  /* With properties: the empty list, which CL_MEM_PROPERTIES returns as
   * given; no list (NULL, or clCreateImage) returns nothing. */
  cl_mem_properties none[] = {0}, bad[] = {0x1234, 0, 0}, got[2] = {7, 7};
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0);
  cl_int err;
  size_t size;
  cl_mem m = clCreateImageWithProperties(ctx, none, 0, &rgba8, &d, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, sizeof got, got, &size), CL_SUCCESS);
  assert_int_equal(size, sizeof none);
  assert_int_equal(got[0], 0);
  clReleaseMemObject(m);
  m = clCreateImageWithProperties(ctx, NULL, 0, &rgba8, &d, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &size), CL_SUCCESS);
  assert_int_equal(size, 0);
  clReleaseMemObject(m);
  assert_null(clCreateImageWithProperties(ctx, bad, 0, &rgba8, &d, NULL, &err));
  assert_int_equal(err, CL_INVALID_PROPERTY);
  /* The 1.x calls. */
  uint8_t host[4 * 4 * 4 * 3] = {0};
  m = clCreateImage2D(ctx, CL_MEM_COPY_HOST_PTR, &rgba8, 4, 4, 16, host, &err);
  assert_int_equal(err, CL_SUCCESS);
  clReleaseMemObject(m);
  m = clCreateImage3D(ctx, CL_MEM_COPY_HOST_PTR, &rgba8, 4, 4, 3, 0, 0, host, &err);
  assert_int_equal(err, CL_SUCCESS);
  clReleaseMemObject(m);
  /* Their pitch and size errors are CL_INVALID_IMAGE_SIZE. */
  assert_null(clCreateImage2D(ctx, CL_MEM_COPY_HOST_PTR, &rgba8, 4, 4, 15, host, &err));
  assert_int_equal(err, CL_INVALID_IMAGE_SIZE);
  assert_null(clCreateImage3D(ctx, 0, &rgba8, 4, 4, 1, 0, 0, NULL, &err));
  assert_int_equal(err, CL_INVALID_IMAGE_SIZE); /* depth must be > 1 */
  assert_null(clCreateImage2D(ctx, 0, &rgba8, 0, 4, 0, NULL, &err));
  assert_int_equal(err, CL_INVALID_IMAGE_SIZE);
  assert_null(clCreateImage2D(NULL, 0, &rgba8, 4, 4, 0, NULL, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
}

/* Every error of clCreateImage, in the spec's order where several apply. */
static void test_create_errors(void **state) {
  (void)state;
  cl_image_desc d2 = desc_of(CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0);
  uint8_t host[4096] = {0};
  cl_int err;
  assert_null(clCreateImage(NULL, 0, &rgba8, &d2, NULL, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
  assert_null(clCreateImage(ctx, 0, NULL, &d2, NULL, NULL)); /* errcode_ret may be NULL */
  /* CL_INVALID_VALUE: flags (before the format and descriptor). */
  assert_int_equal(create_err(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, NULL, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(create_err(CL_MEM_KERNEL_READ_AND_WRITE, &rgba8, &d2, NULL), CL_INVALID_VALUE);
  assert_int_equal(create_err(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, &rgba8, &d2, host),
                   CL_INVALID_VALUE);
  /* CL_INVALID_IMAGE_FORMAT_DESCRIPTOR. */
  static const cl_image_format bad_fmts[] = {
      {0x1234, CL_UNORM_INT8},         {CL_RGBA, 0x1234},         {CL_RGBA, CL_UNORM_SHORT_565},
      {CL_RGB, CL_UNORM_INT8},         {CL_BGRA, CL_UNORM_INT16}, {CL_INTENSITY, CL_SIGNED_INT8},
      {CL_RGB, CL_UNORM_INT_101010_2}, {CL_DEPTH, CL_UNORM_INT8}, {CL_sRGBA, CL_UNORM_INT16},
  };
  assert_int_equal(create_err(0, NULL, &d2, NULL), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  for (size_t i = 0; i < sizeof bad_fmts / sizeof bad_fmts[0]; i++)
    assert_int_equal(create_err(0, &bad_fmts[i], &d2, NULL), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  assert_int_equal(create_err(0, &bad_fmts[0], NULL, NULL), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  /* CL_INVALID_IMAGE_DESCRIPTOR. */
  assert_int_equal(create_err(0, &rgba8, NULL, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc d = d2;
  d.image_type = CL_MEM_OBJECT_BUFFER;
  assert_int_equal(create_err(0, &rgba8, &d, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
  d = d2, d.num_mip_levels = 2;
  assert_int_equal(create_err(0, &rgba8, &d, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
  d = d2, d.num_samples = 4;
  assert_int_equal(create_err(0, &rgba8, &d, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
  d = d2, d.image_row_pitch = 64; /* a pitch without host_ptr */
  assert_int_equal(create_err(0, &rgba8, &d, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
  d = d2, d.image_row_pitch = 12; /* less than width x 4 bytes */
  assert_int_equal(create_err(CL_MEM_COPY_HOST_PTR, &rgba8, &d, host), CL_INVALID_IMAGE_DESCRIPTOR);
  d = d2, d.image_row_pitch = 18; /* not a multiple of the element */
  assert_int_equal(create_err(CL_MEM_COPY_HOST_PTR, &rgba8, &d, host), CL_INVALID_IMAGE_DESCRIPTOR);
  d = desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 2, 0);
  d.image_row_pitch = 16, d.image_slice_pitch = 48; /* less than 4 rows */
  assert_int_equal(create_err(CL_MEM_COPY_HOST_PTR, &rgba8, &d, host), CL_INVALID_IMAGE_DESCRIPTOR);
  d.image_slice_pitch = 72; /* not a multiple of the row pitch */
  assert_int_equal(create_err(CL_MEM_COPY_HOST_PTR, &rgba8, &d, host), CL_INVALID_IMAGE_DESCRIPTOR);
  d = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 4, 0, 0, 0); /* no buffer */
  assert_int_equal(create_err(0, &rgba8, &d, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
  cl_mem buf = fx_buffer(F, 256, NULL);
  d = desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 2, 0), d.buffer = buf; /* 3D from a buffer */
  assert_int_equal(create_err(0, &rgba8, &d, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
  cl_mem q_as_mem = (cl_mem)q;
  d = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 4, 0, 0, 0), d.buffer = q_as_mem;
  assert_int_equal(create_err(0, &rgba8, &d, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
  /* CL_INVALID_IMAGE_SIZE: zero, over the device limits, past the buffer. */
  static const struct {
    cl_mem_object_type t;
    size_t w, h, dd, n;
  } bad_sizes[] = {
      {CL_MEM_OBJECT_IMAGE2D, 0, 4, 0, 0},
      {CL_MEM_OBJECT_IMAGE2D, 4, 0, 0, 0},
      {CL_MEM_OBJECT_IMAGE2D, 16385, 1, 0, 0},
      {CL_MEM_OBJECT_IMAGE1D, 16385, 0, 0, 0},
      {CL_MEM_OBJECT_IMAGE3D, 4, 4, 0, 0},
      {CL_MEM_OBJECT_IMAGE3D, 2049, 1, 1, 0},
      {CL_MEM_OBJECT_IMAGE3D, 1, 1, 2049, 0},
      {CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, 0},
      {CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 0, 0, 2049},
      {CL_MEM_OBJECT_IMAGE2D, SIZE_MAX, SIZE_MAX, 0, 0},
  };
  for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
    d = desc_of(bad_sizes[i].t, bad_sizes[i].w, bad_sizes[i].h, bad_sizes[i].dd, bad_sizes[i].n);
    assert_int_equal(create_err(0, &rgba8, &d, NULL), CL_INVALID_IMAGE_SIZE);
  }
  d = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 65, 0, 0, 0), d.buffer = buf; /* 260 > 256 bytes */
  assert_int_equal(create_err(0, &rgba8, &d, NULL), CL_INVALID_IMAGE_SIZE);
  /* Hostile pitches whose products overflow: an error, no crash. */
  d = desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 2, 0);
  d.image_row_pitch = SIZE_MAX / 4 * 4, d.image_slice_pitch = 0;
  assert_int_not_equal(create_err(CL_MEM_USE_HOST_PTR, &rgba8, &d, host), CL_SUCCESS);
  /* CL_INVALID_HOST_PTR. */
  assert_int_equal(create_err(CL_MEM_COPY_HOST_PTR, &rgba8, &d2, NULL), CL_INVALID_HOST_PTR);
  assert_int_equal(create_err(CL_MEM_USE_HOST_PTR, &rgba8, &d2, NULL), CL_INVALID_HOST_PTR);
  assert_int_equal(create_err(0, &rgba8, &d2, host), CL_INVALID_HOST_PTR);
  /* CL_IMAGE_FORMAT_NOT_SUPPORTED: valid formats SoftGPU does not offer. */
  static const cl_image_format unsupported[] = {
      {CL_Rx, CL_UNORM_INT8}, {CL_RGBx, CL_UNORM_SHORT_565}, {CL_DEPTH_STENCIL, CL_UNORM_INT24}};
  for (size_t i = 0; i < 3; i++)
    assert_int_equal(create_err(0, &unsupported[i], &d2, NULL), CL_IMAGE_FORMAT_NOT_SUPPORTED);
  cl_image_format depth = {CL_DEPTH, CL_FLOAT};
  d = desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 2, 0);
  assert_int_equal(create_err(0, &depth, &d, NULL), CL_IMAGE_FORMAT_NOT_SUPPORTED);
  clReleaseMemObject(buf);
}

/* USE_HOST_PTR images are the application's memory with its pitches;
 * COPY_HOST_PTR images keep the pitches given too (clGetImageInfo). */
static void test_host_pointers(void **state) {
  (void)state;
  uint8_t host[6 * 24 * 3];
  for (size_t i = 0; i < sizeof host; i++)
    host[i] = (uint8_t)i;
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE3D, 5, 6, 3, 0);
  d.image_row_pitch = 24, d.image_slice_pitch = 144;
  cl_int err;
  cl_mem use = clCreateImage(ctx, CL_MEM_USE_HOST_PTR, &rgba8, &d, host, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_mem copy = clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &rgba8, &d, host, &err);
  assert_int_equal(err, CL_SUCCESS);
  for (int i = 0; i < 2; i++) {
    cl_mem m = i ? copy : use;
    size_t row, slice;
    void *hp;
    assert_int_equal(clGetImageInfo(m, CL_IMAGE_ROW_PITCH, sizeof row, &row, NULL), CL_SUCCESS);
    assert_int_equal(clGetImageInfo(m, CL_IMAGE_SLICE_PITCH, sizeof slice, &slice, NULL),
                     CL_SUCCESS);
    assert_int_equal(row, 24);
    assert_int_equal(slice, 144);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
    assert_ptr_equal(hp, i ? NULL : host);
    /* Texel (4, 5, 2) is at 2 * 144 + 5 * 24 + 4 * 4 in the host memory. */
    uint8_t t[4];
    size_t o[3] = {4, 5, 2}, r[3] = {1, 1, 1};
    assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, o, r, 0, 0, t, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(t, host + 2 * 144 + 5 * 24 + 16, 4);
  }
  /* A write through a USE_HOST_PTR image lands in the application's memory. */
  uint8_t v[4] = {9, 8, 7, 6};
  size_t o[3] = {0, 1, 1}, r[3] = {1, 1, 1};
  assert_int_equal(clEnqueueWriteImage(q, use, CL_TRUE, o, r, 0, 0, v, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(host + 144 + 24, v, 4);
  clReleaseMemObject(use), clReleaseMemObject(copy);
}

/* Images made from buffers and from images share their storage. */
static void test_from_objects(void **state) {
  (void)state;
  uint8_t bytes[256];
  for (int i = 0; i < 256; i++)
    bytes[i] = (uint8_t)i;
  cl_int err;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_NO_ACCESS,
                              256, bytes, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 64, 0, 0, 0);
  d.buffer = buf;
  cl_mem b1 = clCreateImage(ctx, 0, &rgba8, &d, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_mem_flags flags;
  cl_mem assoc, ib;
  assert_int_equal(clGetMemObjectInfo(b1, CL_MEM_FLAGS, sizeof flags, &flags, NULL), CL_SUCCESS);
  assert_int_equal(flags, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_NO_ACCESS);
  assert_int_equal(clGetMemObjectInfo(b1, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL),
                   CL_SUCCESS);
  assert_ptr_equal(assoc, buf);
  assert_int_equal(clGetImageInfo(b1, CL_IMAGE_BUFFER, sizeof ib, &ib, NULL), CL_SUCCESS);
  assert_ptr_equal(ib, buf);
  /* A row pitch for its one row, as for a 2D image from a buffer: at least
   * its width in bytes, a multiple of the element size, within the buffer. */
  d.image_width = 60, d.image_row_pitch = 62 * 4;
  cl_mem b2 = clCreateImage(ctx, 0, &rgba8, &d, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  size_t pitch;
  assert_int_equal(clGetImageInfo(b2, CL_IMAGE_ROW_PITCH, sizeof pitch, &pitch, NULL), CL_SUCCESS);
  assert_int_equal(pitch, 62 * 4);
  clReleaseMemObject(b2);
  d.image_row_pitch = 62 * 4 + 1;
  assert_int_equal(create_err(0, &rgba8, &d, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
  d.image_row_pitch = 59 * 4;
  assert_int_equal(create_err(0, &rgba8, &d, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
  d.image_row_pitch = 65 * 4; /* 260 > 256 bytes */
  assert_int_equal(create_err(0, &rgba8, &d, NULL), CL_INVALID_IMAGE_SIZE);
  d.image_width = 64, d.image_row_pitch = 0;
  /* Flags that contradict the buffer's, or host pointer flags: invalid. */
  assert_int_equal(create_err(CL_MEM_WRITE_ONLY, &rgba8, &d, NULL), CL_INVALID_VALUE);
  assert_int_equal(create_err(CL_MEM_HOST_READ_ONLY, &rgba8, &d, NULL), CL_INVALID_VALUE);
  assert_int_equal(create_err(CL_MEM_COPY_HOST_PTR, &rgba8, &d, NULL), CL_INVALID_VALUE);
  /* A 2D image from the buffer with a row pitch; its height must fit. */
  cl_mem rw = fx_buffer(F, 256, bytes);
  d = desc_of(CL_MEM_OBJECT_IMAGE2D, 3, 4, 0, 0);
  d.buffer = rw, d.image_row_pitch = 64;
  cl_mem i2 = clCreateImage(ctx, CL_MEM_READ_WRITE, &rgba8, &d, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  uint8_t t[4];
  size_t o[3] = {2, 3, 0}, r[3] = {1, 1, 1};
  assert_int_equal(clEnqueueReadImage(q, i2, CL_TRUE, o, r, 0, 0, t, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(t, bytes + 3 * 64 + 8, 4);
  d.image_height = 5; /* 5 rows of 64 bytes > 256 */
  assert_int_equal(create_err(0, &rgba8, &d, NULL), CL_INVALID_IMAGE_SIZE);
  /* A view of the 2D image in another, compatible channel order. */
  cl_image_format srgb = {CL_sRGBA, CL_UNORM_INT8}, other = {CL_RGBA, CL_UNORM_INT16},
                  bgra = {CL_BGRA, CL_UNORM_INT8};
  cl_image_desc v = desc_of(CL_MEM_OBJECT_IMAGE2D, 3, 4, 0, 0);
  v.buffer = i2;
  cl_mem view = clCreateImage(ctx, 0, &srgb, &v, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  size_t row;
  assert_int_equal(clGetImageInfo(view, CL_IMAGE_ROW_PITCH, sizeof row, &row, NULL), CL_SUCCESS);
  assert_int_equal(row, 64);
  assert_int_equal(create_err(0, &other, &v, NULL), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  assert_int_equal(create_err(0, &bgra, &v, NULL), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  v.image_width = 2; /* the descriptor must match */
  assert_int_equal(create_err(0, &srgb, &v, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
  /* Releasing the buffer first is fine: the images hold it. */
  clReleaseMemObject(buf), clReleaseMemObject(rw);
  assert_int_equal(clEnqueueReadImage(q, view, CL_TRUE, o, r, 0, 0, t, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(t, bytes + 3 * 64 + 8, 4);
  clReleaseMemObject(b1), clReleaseMemObject(i2), clReleaseMemObject(view);
}

/* ---- Queries ------------------------------------------------------------------ */

static cl_int image_info(void *obj, cl_uint name, size_t size, void *value, size_t *ret) {
  return clGetImageInfo((cl_mem)obj, name, size, value, ret);
}

static void test_image_info(void **state) {
  (void)state;
  static const struct sg_info_row rows[] = {
      SG_ROW(CL_IMAGE_FORMAT, cl_image_format), SG_ROW(CL_IMAGE_ELEMENT_SIZE, size_t),
      SG_ROW(CL_IMAGE_ROW_PITCH, size_t),       SG_ROW(CL_IMAGE_SLICE_PITCH, size_t),
      SG_ROW(CL_IMAGE_WIDTH, size_t),           SG_ROW(CL_IMAGE_HEIGHT, size_t),
      SG_ROW(CL_IMAGE_DEPTH, size_t),           SG_ROW(CL_IMAGE_ARRAY_SIZE, size_t),
      SG_ROW(CL_IMAGE_BUFFER, cl_mem),          SG_ROW(CL_IMAGE_NUM_MIP_LEVELS, cl_uint),
      SG_ROW(CL_IMAGE_NUM_SAMPLES, cl_uint),
  };
  cl_image_format f = {CL_RG, CL_HALF_FLOAT};
  /* Width, height, depth, array size, row and slice pitch per type: unused
   * dimensions read 0. */
  static const struct {
    cl_mem_object_type t;
    size_t w, h, d, n, row, slice;
  } want[] = {
      {CL_MEM_OBJECT_IMAGE1D, 9, 0, 0, 0, 36, 0},
      {CL_MEM_OBJECT_IMAGE1D_ARRAY, 9, 0, 0, 4, 36, 36},
      {CL_MEM_OBJECT_IMAGE2D, 9, 3, 0, 0, 36, 0},
      {CL_MEM_OBJECT_IMAGE2D_ARRAY, 9, 3, 0, 2, 36, 108},
      {CL_MEM_OBJECT_IMAGE3D, 9, 3, 2, 0, 36, 108},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    cl_image_desc d =
        desc_of(want[i].t, want[i].w, want[i].h + (want[i].t == CL_MEM_OBJECT_IMAGE1D_ARRAY),
                want[i].d, want[i].n);
    cl_int err;
    cl_mem m = clCreateImage(ctx, CL_MEM_READ_ONLY, &f, &d, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    sg_check_info_table(image_info, m, rows, sizeof rows / sizeof rows[0]);
    size_t v[6];
    const cl_image_info names[] = {CL_IMAGE_WIDTH,      CL_IMAGE_HEIGHT,    CL_IMAGE_DEPTH,
                                   CL_IMAGE_ARRAY_SIZE, CL_IMAGE_ROW_PITCH, CL_IMAGE_SLICE_PITCH};
    for (int j = 0; j < 6; j++)
      assert_int_equal(clGetImageInfo(m, names[j], sizeof v[j], &v[j], NULL), CL_SUCCESS);
    assert_int_equal(v[0], want[i].w);
    assert_int_equal(v[1], want[i].h);
    assert_int_equal(v[2], want[i].d);
    assert_int_equal(v[3], want[i].n);
    assert_int_equal(v[4], want[i].row);
    assert_int_equal(v[5], want[i].slice);
    cl_image_format got;
    size_t elem;
    assert_int_equal(clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof got, &got, NULL), CL_SUCCESS);
    assert_int_equal(got.image_channel_order, CL_RG);
    assert_int_equal(got.image_channel_data_type, CL_HALF_FLOAT);
    assert_int_equal(clGetImageInfo(m, CL_IMAGE_ELEMENT_SIZE, sizeof elem, &elem, NULL),
                     CL_SUCCESS);
    assert_int_equal(elem, 4);
    clReleaseMemObject(m);
  }
  /* A buffer is no image. */
  cl_mem buf = fx_buffer(F, 16, NULL);
  size_t w;
  assert_int_equal(clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof w, &w, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clGetImageInfo(NULL, CL_IMAGE_WIDTH, sizeof w, &w, NULL), CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(buf);
}

/* ---- Commands ------------------------------------------------------------------- */

/* Read and write boxes of every image type with host pitches. */
static void test_read_write(void **state) {
  (void)state;
  uint8_t src[8 * 6 * 4 * 4], back[8 * 6 * 4 * 4];
  for (size_t i = 0; i < sizeof src; i++)
    src[i] = (uint8_t)(i * 13 + 1);
  static const struct {
    cl_mem_object_type t;
    size_t w, h, d, n;
    size_t origin[3], region[3];
  } cases[] = {
      {CL_MEM_OBJECT_IMAGE1D, 8, 0, 0, 0, {2, 0, 0}, {5, 1, 1}},
      {CL_MEM_OBJECT_IMAGE1D_ARRAY, 8, 0, 0, 5, {1, 1, 0}, {6, 3, 1}},
      {CL_MEM_OBJECT_IMAGE2D, 8, 6, 0, 0, {1, 2, 0}, {4, 3, 1}},
      {CL_MEM_OBJECT_IMAGE2D_ARRAY, 8, 6, 0, 4, {0, 1, 1}, {3, 2, 3}},
      {CL_MEM_OBJECT_IMAGE3D, 8, 6, 4, 0, {1, 1, 1}, {3, 4, 2}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cl_image_desc d = desc_of(cases[i].t, cases[i].w, cases[i].h, cases[i].d, cases[i].n);
    cl_int err;
    cl_mem m = clCreateImage(ctx, CL_MEM_READ_WRITE, &rgba8, &d, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    const size_t *o = cases[i].origin, *r = cases[i].region;
    bool layered = cases[i].t != CL_MEM_OBJECT_IMAGE1D && cases[i].t != CL_MEM_OBJECT_IMAGE2D;
    size_t row = r[0] * 4 + 8; /* padded host rows */
    size_t slice = layered ? row * (cases[i].t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : r[1]) + 16 : 0;
    assert_int_equal(clEnqueueWriteImage(q, m, CL_FALSE, o, r, row, slice, src, 0, NULL, NULL),
                     CL_SUCCESS);
    memset(back, 0, sizeof back);
    assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, o, r, row, slice, back, 0, NULL, NULL),
                     CL_SUCCESS);
    /* Every texel of the box came back; the host padding was not written. */
    size_t rows = cases[i].t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : r[1];
    size_t layers = cases[i].t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? r[1] : r[2];
    for (size_t z = 0; z < layers; z++)
      for (size_t y = 0; y < rows; y++) {
        size_t at = z * (layered ? slice : 0) + y * row;
        assert_memory_equal(back + at, src + at, r[0] * 4);
        assert_int_equal(back[at + r[0] * 4], 0);
      }
    /* Tight host pitches (0) read the same texels. */
    uint8_t tight[8 * 6 * 4 * 4];
    assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, o, r, 0, 0, tight, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_memory_equal(tight, src, r[0] * 4);
    clReleaseMemObject(m);
  }
}

static void test_read_write_errors(void **state) {
  (void)state;
  cl_mem m = image2d(CL_MEM_READ_WRITE, 4, 4);
  uint8_t host[256];
  size_t o[3] = {0, 0, 0}, r[3] = {4, 4, 1};
  assert_int_equal(clEnqueueReadImage(NULL, m, CL_TRUE, o, r, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  cl_mem buf = fx_buffer(F, 256, NULL);
  assert_int_equal(clEnqueueReadImage(q, buf, CL_TRUE, o, r, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, NULL, r, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, o, NULL, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, o, r, 0, 0, NULL, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  size_t far[3] = {1, 0, 0}, zero[3] = {4, 0, 1}, deep[3] = {0, 0, 1}, two[3] = {4, 4, 2};
  assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, far, r, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE); /* past the width */
  assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, o, zero, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE); /* a 0 region */
  assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, deep, r, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE); /* origin[2] of a 2D image */
  assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, o, two, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE); /* region[2] of a 2D image */
  assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, o, r, 0, 64, host, 0, NULL, NULL),
                   CL_INVALID_VALUE); /* a slice pitch for a 2D image */
  assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, o, r, 12, 0, host, 0, NULL, NULL),
                   CL_INVALID_VALUE); /* a row pitch under 4 texels */
  assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, o, r, 0, 0, host, 1, NULL, NULL),
                   CL_INVALID_EVENT_WAIT_LIST);
  /* Host access flags. */
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 4, 4, 0, 0);
  cl_int err;
  cl_mem wo = clCreateImage(ctx, CL_MEM_HOST_WRITE_ONLY, &rgba8, &d, NULL, &err);
  cl_mem ro = clCreateImage(ctx, CL_MEM_HOST_READ_ONLY, &rgba8, &d, NULL, &err);
  assert_int_equal(clEnqueueReadImage(q, wo, CL_TRUE, o, r, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueWriteImage(q, ro, CL_TRUE, o, r, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueWriteImage(q, wo, CL_TRUE, o, r, 0, 0, host, 0, NULL, NULL),
                   CL_SUCCESS);
  /* Another context. */
  cl_context other = clCreateContext(NULL, 1, &F->device, NULL, NULL, &err);
  cl_mem foreign = clCreateImage(other, 0, &rgba8, &d, NULL, &err);
  assert_int_equal(clEnqueueReadImage(q, foreign, CL_TRUE, o, r, 0, 0, host, 0, NULL, NULL),
                   CL_INVALID_CONTEXT);
  clReleaseMemObject(foreign), clReleaseContext(other);
  clReleaseMemObject(m), clReleaseMemObject(buf), clReleaseMemObject(wo), clReleaseMemObject(ro);
}

static void test_copy(void **state) {
  (void)state;
  uint8_t plane[6 * 5 * 4], back[6 * 5 * 4];
  for (size_t i = 0; i < sizeof plane; i++)
    plane[i] = (uint8_t)(i + 3);
  cl_image_desc d2 = desc_of(CL_MEM_OBJECT_IMAGE2D, 6, 5, 0, 0),
                d3 = desc_of(CL_MEM_OBJECT_IMAGE3D, 6, 5, 3, 0);
  cl_int err;
  cl_mem a = clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &rgba8, &d2, plane, &err);
  cl_mem v = clCreateImage(ctx, 0, &rgba8, &d3, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  /* A 2D image into slice 2 of a 3D image, and back out. */
  size_t o0[3] = {0, 0, 0}, o2[3] = {0, 0, 2}, r[3] = {6, 5, 1};
  assert_int_equal(clEnqueueCopyImage(q, a, v, o0, o2, r, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueReadImage(q, v, CL_TRUE, o2, r, 0, 0, back, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(back, plane, sizeof plane);
  /* Within one image: apart is fine, overlapping is CL_MEM_COPY_OVERLAP. */
  size_t so[3] = {0, 0, 0}, dst[3] = {3, 0, 0}, box[3] = {3, 5, 1}, near[3] = {2, 0, 0};
  assert_int_equal(clEnqueueCopyImage(q, a, a, so, dst, box, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueCopyImage(q, a, a, so, near, box, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  assert_int_equal(clEnqueueReadImage(q, a, CL_TRUE, o0, r, 0, 0, back, 0, NULL, NULL), CL_SUCCESS);
  for (size_t y = 0; y < 5; y++)
    assert_memory_equal(back + y * 24 + 12, plane + y * 24, 12);
  /* Formats must match; regions must fit; 2D images take no depth. */
  cl_image_format other = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_mem b = clCreateImage(ctx, 0, &other, &d2, NULL, &err);
  assert_int_equal(clEnqueueCopyImage(q, a, b, o0, o0, r, 0, NULL, NULL), CL_IMAGE_FORMAT_MISMATCH);
  size_t r3[3] = {6, 5, 2};
  assert_int_equal(clEnqueueCopyImage(q, a, v, o0, o0, r3, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueCopyImage(q, v, a, o2, o0, (size_t[3]){7, 5, 1}, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueCopyImage(q, a, v, NULL, o0, r, 0, NULL, NULL), CL_INVALID_VALUE);
  cl_mem buf = fx_buffer(F, 512, NULL);
  assert_int_equal(clEnqueueCopyImage(q, buf, v, o0, o0, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  /* Image <-> buffer: tight rows at an offset. */
  assert_int_equal(clEnqueueCopyImageToBuffer(q, v, buf, o2, r, 8, 0, NULL, NULL), CL_SUCCESS);
  uint8_t bb[512];
  fx_read(F, buf, sizeof bb, bb);
  assert_memory_equal(bb + 8, plane, sizeof plane);
  assert_int_equal(clEnqueueCopyBufferToImage(q, buf, v, 8, o0, r, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueReadImage(q, v, CL_TRUE, o0, r, 0, 0, back, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(back, plane, sizeof plane);
  assert_int_equal(clEnqueueCopyImageToBuffer(q, v, buf, o2, r, 512 - 119, 0, NULL, NULL),
                   CL_INVALID_VALUE); /* 120 bytes do not fit */
  assert_int_equal(
      clEnqueueCopyBufferToImage(q, buf, v, 0, o2, (size_t[3]){6, 6, 1}, 0, NULL, NULL),
      CL_INVALID_VALUE);
  assert_int_equal(clEnqueueCopyImageToBuffer(q, buf, buf, o0, r, 0, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  assert_int_equal(clEnqueueCopyBufferToImage(q, a, v, 0, o0, r, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  /* A 1D image buffer and its own buffer: CL_INVALID_MEM_OBJECT. */
  cl_image_desc db = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16, 0, 0, 0);
  db.buffer = buf;
  cl_mem ib = clCreateImage(ctx, 0, &rgba8, &db, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(
      clEnqueueCopyImageToBuffer(q, ib, buf, o0, (size_t[3]){4, 1, 1}, 256, 0, NULL, NULL),
      CL_INVALID_MEM_OBJECT);
  assert_int_equal(clFinish(q), CL_SUCCESS);
  clReleaseMemObject(a), clReleaseMemObject(v), clReleaseMemObject(b), clReleaseMemObject(buf),
      clReleaseMemObject(ib);
}

static void test_fill(void **state) {
  (void)state;
  cl_mem m = image2d(CL_MEM_READ_WRITE, 4, 3);
  float color[4] = {1.0f, 0.5f, 0.0f, 2.0f}; /* 2.0 saturates */
  size_t o[3] = {1, 1, 0}, r[3] = {2, 2, 1}, all[3] = {4, 3, 1};
  assert_int_equal(clEnqueueFillImage(q, m, color, o, r, 0, NULL, NULL), CL_SUCCESS);
  uint8_t back[48];
  assert_int_equal(
      clEnqueueReadImage(q, m, CL_TRUE, (size_t[3]){0, 0, 0}, all, 0, 0, back, 0, NULL, NULL),
      CL_SUCCESS);
  static const uint8_t filled[4] = {255, 128, 0, 255}, empty[4] = {0, 0, 0, 0};
  for (size_t y = 0; y < 3; y++)
    for (size_t x = 0; x < 4; x++)
      assert_memory_equal(back + (y * 4 + x) * 4, x >= 1 && x < 3 && y >= 1 ? filled : empty, 4);
  assert_int_equal(clEnqueueFillImage(q, m, NULL, o, r, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueFillImage(q, m, color, o, (size_t[3]){4, 1, 1}, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  cl_mem buf = fx_buffer(F, 64, NULL);
  assert_int_equal(clEnqueueFillImage(q, buf, color, o, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(m), clReleaseMemObject(buf);
}

static void test_map(void **state) {
  (void)state;
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 3, 2, 0);
  cl_int err;
  cl_mem m = clCreateImage(ctx, 0, &rgba8, &d, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  size_t o[3] = {1, 1, 1}, r[3] = {2, 2, 1}, row = 0, slice = 0;
  uint8_t *p =
      clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_WRITE, o, r, &row, &slice, 0, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(row, 16);
  assert_int_equal(slice, 48);
  for (int i = 0; i < 4; i++)
    p[row + 4 + i] = (uint8_t)(50 + i); /* texel (2, 2, 1) */
  cl_uint count;
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL), CL_SUCCESS);
  assert_int_equal(count, 1);
  assert_int_equal(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL), CL_SUCCESS);
  uint8_t t[4];
  assert_int_equal(clEnqueueReadImage(q, m, CL_TRUE, (size_t[3]){2, 2, 1}, (size_t[3]){1, 1, 1}, 0,
                                      0, t, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(t[0], 50);
  assert_int_equal(t[3], 53);
  /* Errors: no row pitch; no slice pitch for a 3D image; the region. */
  assert_null(
      clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ, o, r, NULL, &slice, 0, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ, o, r, &row, NULL, 0, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ, o, (size_t[3]){4, 1, 1}, &row, &slice,
                                0, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clEnqueueMapImage(q, m, CL_TRUE, 0x80, o, r, &row, &slice, 0, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  /* A 2D image's slice pitch reads 0; host access flags apply. */
  cl_image_desc d2 = desc_of(CL_MEM_OBJECT_IMAGE2D, 4, 3, 0, 0);
  cl_mem m2 = clCreateImage(ctx, CL_MEM_HOST_NO_ACCESS, &rgba8, &d2, NULL, &err);
  assert_null(clEnqueueMapImage(q, m2, CL_TRUE, CL_MAP_READ, (size_t[3]){0, 0, 0},
                                (size_t[3]){1, 1, 1}, &row, &slice, 0, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_OPERATION);
  cl_mem m3 = image2d(CL_MEM_READ_WRITE, 4, 3);
  slice = 99;
  p = clEnqueueMapImage(q, m3, CL_TRUE, CL_MAP_READ, (size_t[3]){0, 0, 0}, (size_t[3]){1, 1, 1},
                        &row, &slice, 0, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(slice, 0);
  assert_int_equal(clEnqueueUnmapMemObject(q, m3, p, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueUnmapMemObject(q, m3, p, 0, NULL, NULL), CL_INVALID_VALUE);
  clReleaseMemObject(m), clReleaseMemObject(m2), clReleaseMemObject(m3);
}

/* Buffer commands take no images. */
static void test_buffer_commands_refuse_images(void **state) {
  (void)state;
  cl_mem m = image2d(CL_MEM_READ_WRITE, 4, 4);
  uint8_t host[64];
  cl_int err;
  assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 16, host, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  assert_int_equal(clEnqueueFillBuffer(q, m, host, 4, 0, 16, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  assert_null(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_MEM_OBJECT);
  cl_buffer_region reg = {0, 16};
  assert_null(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err));
  assert_int_equal(err, CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(m);
}

/* ---- Samplers ------------------------------------------------------------------ */

static cl_int sampler_info(void *obj, cl_uint name, size_t size, void *value, size_t *ret) {
  return clGetSamplerInfo((cl_sampler)obj, name, size, value, ret);
}

static void test_samplers(void **state) {
  (void)state;
  cl_int err;
  cl_sampler s = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR, &err);
  assert_int_equal(err, CL_SUCCESS);
  static const struct sg_info_row rows[] = {
      SG_ROW(CL_SAMPLER_REFERENCE_COUNT, cl_uint),
      SG_ROW(CL_SAMPLER_CONTEXT, cl_context),
      SG_ROW(CL_SAMPLER_NORMALIZED_COORDS, cl_bool),
      SG_ROW(CL_SAMPLER_ADDRESSING_MODE, cl_addressing_mode),
      SG_ROW(CL_SAMPLER_FILTER_MODE, cl_filter_mode),
      SG_ROW_ARRAY(CL_SAMPLER_PROPERTIES, cl_sampler_properties),
  };
  sg_check_info_table(sampler_info, s, rows, sizeof rows / sizeof rows[0]);
  cl_uint rc;
  cl_addressing_mode am;
  cl_filter_mode fm;
  cl_bool norm;
  cl_context c;
  size_t psize = 99;
  assert_int_equal(clRetainSampler(s), CL_SUCCESS);
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof rc, &rc, NULL),
                   CL_SUCCESS);
  assert_int_equal(rc, 2);
  assert_int_equal(clReleaseSampler(s), CL_SUCCESS);
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL),
                   CL_SUCCESS);
  assert_int_equal(am, CL_ADDRESS_MIRRORED_REPEAT);
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL), CL_SUCCESS);
  assert_int_equal(fm, CL_FILTER_LINEAR);
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL),
                   CL_SUCCESS);
  assert_true(norm);
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
  assert_ptr_equal(c, ctx);
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &psize), CL_SUCCESS);
  assert_int_equal(psize, 0); /* made without properties */
  assert_int_equal(clReleaseSampler(s), CL_SUCCESS);
  /* With properties: the defaults, and the list given back. */
  cl_sampler_properties props[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  s = clCreateSamplerWithProperties(ctx, props, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL),
                   CL_SUCCESS);
  assert_int_equal(am, CL_ADDRESS_CLAMP);
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL),
                   CL_SUCCESS);
  assert_true(norm);
  cl_sampler_properties back[3];
  assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof back, back, &psize),
                   CL_SUCCESS);
  assert_int_equal(psize, sizeof props);
  assert_memory_equal(back, props, sizeof props);
  clReleaseSampler(s);
  s = clCreateSamplerWithProperties(ctx, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  clReleaseSampler(s);
  /* Errors. */
  assert_null(clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
  assert_null(clCreateSampler(ctx, CL_TRUE, 0x1234, CL_FILTER_NEAREST, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x1234, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateSampler(ctx, 7, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  /* Repeat addressing needs normalized coordinates. */
  assert_null(clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  cl_sampler_properties dup[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE,
                                 CL_FILTER_NEAREST, 0};
  cl_sampler_properties unknown[] = {0x1234, 1, 0};
  cl_sampler_properties badval[] = {CL_SAMPLER_ADDRESSING_MODE, 0x1234, 0};
  assert_null(clCreateSamplerWithProperties(ctx, dup, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateSamplerWithProperties(ctx, unknown, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateSamplerWithProperties(ctx, badval, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_int_equal(clRetainSampler(NULL), CL_INVALID_SAMPLER);
  assert_int_equal(clReleaseSampler((cl_sampler)ctx), CL_INVALID_SAMPLER);
  assert_int_equal(clGetSamplerInfo(NULL, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL),
                   CL_INVALID_SAMPLER);
}

/* ---- Kernel arguments ------------------------------------------------------------- */

static const char args_src[] =
    "kernel void k(read_only image2d_t a, write_only image3d_t b, sampler_t s,\n"
    "              global int *p, read_write image1d_buffer_t c, read_only image2d_depth_t d) {\n"
    "  p[0] = get_image_width(a) + get_image_width(b) + get_image_width(c) + get_image_width(d);\n"
    "  p[1] = read_imagei(a, s, (int2)(0, 0)).x;\n"
    "}\n";

static void test_kernel_args(void **state) {
  (void)state;
  cl_program p = fx_build(F, args_src, "-cl-std=CL3.0 -cl-kernel-arg-info");
  cl_kernel k = fx_kernel(p, "k");
  cl_int err;
  cl_image_desc d3 = desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 2, 0);
  cl_image_format depth = {CL_DEPTH, CL_FLOAT}, sint = {CL_RGBA, CL_SIGNED_INT32};
  cl_image_desc d2 = desc_of(CL_MEM_OBJECT_IMAGE2D, 5, 4, 0, 0);
  cl_mem a = clCreateImage(ctx, CL_MEM_READ_ONLY, &sint, &d2, NULL, &err);
  cl_mem a_wo = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &sint, &d2, NULL, &err);
  cl_mem b = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &rgba8, &d3, NULL, &err);
  cl_mem b_ro = clCreateImage(ctx, CL_MEM_READ_ONLY, &rgba8, &d3, NULL, &err);
  cl_mem dimg = clCreateImage(ctx, CL_MEM_READ_ONLY, &depth, &d2, NULL, &err);
  cl_mem buf = fx_buffer(F, 64, NULL);
  cl_image_desc db = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 7, 0, 0, 0);
  db.buffer = buf;
  cl_mem c = clCreateImage(ctx, 0, &rgba8, &db, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_sampler s = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  cl_mem none = NULL;
  /* Wrong objects for an image argument: CL_INVALID_MEM_OBJECT. */
  assert_int_equal(clSetKernelArg(k, 0, sizeof buf, &buf), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clSetKernelArg(k, 0, sizeof b, &b), CL_INVALID_MEM_OBJECT); /* a 3D image */
  assert_int_equal(clSetKernelArg(k, 0, sizeof dimg, &dimg), CL_INVALID_MEM_OBJECT); /* depth */
  assert_int_equal(clSetKernelArg(k, 5, sizeof a, &a), CL_INVALID_MEM_OBJECT);       /* not depth */
  assert_int_equal(clSetKernelArg(k, 0, sizeof none, &none), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clSetKernelArg(k, 0, sizeof a, NULL), CL_INVALID_MEM_OBJECT);
  cl_mem bogus = (cl_mem)q;
  assert_int_equal(clSetKernelArg(k, 0, sizeof bogus, &bogus), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clSetKernelArg(k, 0, 4, &a), CL_INVALID_ARG_SIZE);
  /* Access qualifiers against the image's flags. */
  assert_int_equal(clSetKernelArg(k, 0, sizeof a_wo, &a_wo), CL_INVALID_ARG_VALUE);
  assert_int_equal(clSetKernelArg(k, 1, sizeof b_ro, &b_ro), CL_INVALID_ARG_VALUE);
  /* An image for a pointer argument. */
  assert_int_equal(clSetKernelArg(k, 3, sizeof a, &a), CL_INVALID_MEM_OBJECT);
  /* Samplers. */
  assert_int_equal(clSetKernelArg(k, 2, sizeof s, NULL), CL_INVALID_SAMPLER);
  cl_sampler bad_s = (cl_sampler)a;
  assert_int_equal(clSetKernelArg(k, 2, sizeof bad_s, &bad_s), CL_INVALID_SAMPLER);
  assert_int_equal(clSetKernelArg(k, 2, 4, &s), CL_INVALID_ARG_SIZE);
  /* Another context's objects. */
  cl_context other = clCreateContext(NULL, 1, &F->device, NULL, NULL, &err);
  cl_mem fa = clCreateImage(other, CL_MEM_READ_ONLY, &sint, &d2, NULL, &err);
  cl_sampler fs = clCreateSampler(other, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  assert_int_equal(clSetKernelArg(k, 0, sizeof fa, &fa), CL_INVALID_CONTEXT);
  assert_int_equal(clSetKernelArg(k, 2, sizeof fs, &fs), CL_INVALID_CONTEXT);
  clReleaseMemObject(fa), clReleaseSampler(fs), clReleaseContext(other);
  /* The right ones run. */
  int32_t first[4] = {-7, 1, 2, 3};
  assert_int_equal(clEnqueueWriteImage(q, a, CL_TRUE, (size_t[3]){0, 0, 0}, (size_t[3]){1, 1, 1}, 0,
                                       0, first, 0, NULL, NULL),
                   CL_SUCCESS);
  cl_mem out = fx_buffer(F, 8, NULL);
  fx_arg(k, 0, sizeof a, &a);
  fx_arg(k, 1, sizeof b, &b);
  fx_arg(k, 2, sizeof s, &s);
  fx_arg(k, 3, sizeof out, &out);
  fx_arg(k, 4, sizeof c, &c);
  fx_arg(k, 5, sizeof dimg, &dimg);
  /* The sampler's word is copied: releasing it now is fine. */
  clReleaseSampler(s);
  size_t one = 1;
  assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
  int32_t res[2];
  fx_read(F, out, sizeof res, res);
  assert_int_equal(res[0], 5 + 4 + 7 + 5);
  assert_int_equal(res[1], -7);
  /* Argument info. */
  cl_kernel_arg_access_qualifier acc;
  cl_kernel_arg_address_qualifier addr;
  char type[64];
  static const struct {
    cl_uint i;
    cl_kernel_arg_access_qualifier acc;
    const char *type;
  } info[] = {
      {0, CL_KERNEL_ARG_ACCESS_READ_ONLY, "image2d_t"},
      {1, CL_KERNEL_ARG_ACCESS_WRITE_ONLY, "image3d_t"},
      {2, CL_KERNEL_ARG_ACCESS_NONE, "sampler_t"},
      {4, CL_KERNEL_ARG_ACCESS_READ_WRITE, "image1d_buffer_t"},
      {5, CL_KERNEL_ARG_ACCESS_READ_ONLY, "image2d_depth_t"},
  };
  for (size_t i = 0; i < sizeof info / sizeof info[0]; i++) {
    assert_int_equal(
        clGetKernelArgInfo(k, info[i].i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL),
        CL_SUCCESS);
    assert_int_equal(acc, info[i].acc);
    assert_int_equal(
        clGetKernelArgInfo(k, info[i].i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL),
        CL_SUCCESS);
    assert_string_equal(type, info[i].type);
    assert_int_equal(
        clGetKernelArgInfo(k, info[i].i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof addr, &addr, NULL),
        CL_SUCCESS);
    assert_int_equal(addr,
                     info[i].i == 2 ? CL_KERNEL_ARG_ADDRESS_PRIVATE : CL_KERNEL_ARG_ADDRESS_GLOBAL);
  }
  clReleaseKernel(k), clReleaseProgram(p);
  clReleaseMemObject(a), clReleaseMemObject(a_wo), clReleaseMemObject(b), clReleaseMemObject(b_ro),
      clReleaseMemObject(dimg), clReleaseMemObject(c), clReleaseMemObject(buf),
      clReleaseMemObject(out);
}

/* The images' bytes count against the device's global memory. */
static void test_memory_accounting(void **state) {
  (void)state;
  cl_ulong max;
  assert_int_equal(clGetDeviceInfo(F->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max, &max, NULL),
                   CL_SUCCESS);
  /* An image over CL_DEVICE_MAX_MEM_ALLOC_SIZE: CL_INVALID_IMAGE_SIZE. */
  cl_image_format f = {CL_RGBA, CL_FLOAT};
  size_t side = 16384;
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, side, side, 0, 2048);
  assert_true((cl_ulong)side * side * 16 * 2048 > max);
  assert_int_equal(create_err(0, &f, &d, NULL), CL_INVALID_IMAGE_SIZE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_device_limits),
      cmocka_unit_test(test_supported_formats),
      cmocka_unit_test(test_create),
      cmocka_unit_test(test_create_errors),
      cmocka_unit_test(test_host_pointers),
      cmocka_unit_test(test_from_objects),
      cmocka_unit_test(test_image_info),
      cmocka_unit_test(test_read_write),
      cmocka_unit_test(test_read_write_errors),
      cmocka_unit_test(test_copy),
      cmocka_unit_test(test_fill),
      cmocka_unit_test(test_map),
      cmocka_unit_test(test_buffer_commands_refuse_images),
      cmocka_unit_test(test_samplers),
      cmocka_unit_test(test_kernel_args),
      cmocka_unit_test(test_memory_accounting),
  };
  return cmocka_run_group_tests(tests, setup, fx_teardown);
}
