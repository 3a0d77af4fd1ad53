/* SPDX-License-Identifier: MIT */
/* tests/images: a host reference of OpenCL images, written from the specs
 * alone (OpenCL 3.0 API 5.3 "Image Format Descriptor"; the environment
 * spec's "Image Addressing and Filtering" and "Conversion Rules"; OpenCL C
 * "Determining the Border Color"), sharing no code with SoftGPU. It says
 * what a kernel's read_image{f,i,ui} and write_image{f,i,ui} must give. */
#ifndef SG_IMG_REF_H
#define SG_IMG_REF_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateSampler, clCreateImage2D/3D */
#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Four 32-bit results or inputs of an image access. */
union ref_val {
  float f[4];
  int32_t i[4];
  uint32_t u[4];
};

enum ref_class { REF_FLOAT, REF_INT, REF_UINT };

/* An image as host bytes. w, h, d: texels in x, y, z (1 where the type has
 * no such dimension); layers: array size (1 for non-arrays). */
struct ref_image {
  cl_mem_object_type type;
  cl_image_format fmt;
  size_t w, h, d, layers;
  size_t row, slice; /* bytes; slice also steps the layers of arrays */
  const uint8_t *data;
};

/* Bytes per texel, and what read_image returns for the format. */
size_t ref_elem_size(const cl_image_format *f);
enum ref_class ref_class_of(const cl_image_format *f);
bool ref_is_srgb(const cl_image_format *f);

/* The texel at (x, y) of slice or layer z as read_image returns it (after
 * the channel order's mapping and sRGB decoding), or the border color when
 * outside the image. */
void ref_texel(const struct ref_image *im, long x, long y, long z, union ref_val *out);
void ref_border(const cl_image_format *f, union ref_val *out);

/* A sampled read with float coordinates c (x, y, z; the layer of arrays in
 * the component after the image's dimensions). Reads outside the image
 * under CL_ADDRESS_NONE (undefined) give the border color, as on SoftGPU. */
void ref_sample(const struct ref_image *im, bool normalized, cl_addressing_mode addr,
                cl_filter_mode filter, const float c[3], union ref_val *out);
/* A read with integer coordinates through an unnormalized, nearest sampler
 * with addressing addr (CL_ADDRESS_NONE, CLAMP or CLAMP_TO_EDGE), or
 * without a sampler (sampled false: out of range gives the border color,
 * as on SoftGPU). */
void ref_read_int(const struct ref_image *im, bool sampled, cl_addressing_mode addr, const int c[3],
                  union ref_val *out);
/* The texel write_image stores for value v (floats for float formats,
 * integers otherwise). */
void ref_encode(const cl_image_format *f, const union ref_val *v, uint8_t *texel);

#endif
