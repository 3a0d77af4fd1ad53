/* SPDX-License-Identifier: MIT */
/* runtime/ samplers (DESIGN.md 5; OpenCL 3.0 API 5.7): a sampler is the
 * texture unit's sampler word (sim/sg_sim.h) with the values it was made
 * from; a sampler kernel argument passes the word to the kernel. */
#include <stdlib.h>
#include <string.h>

#include "sg_runtime.h"

static void sampler_destroy(void *self) {
  cl_sampler s = self;
  free(s->properties);
  sg_release_internal(s->context);
  sg_object_free(s);
}

/* The sampler word of valid values; 0 for a value or a combination the API
 * does not take: repeat addressing needs normalized coordinates (OpenCL C,
 * "Samplers": otherwise the coordinates it makes are undefined). */
static uint64_t sampler_word(cl_bool norm, cl_addressing_mode addr, cl_filter_mode filter) {
  uint64_t w;
  switch (addr) {
  case CL_ADDRESS_NONE: w = SG_TEX_ADDR_NONE; break;
  case CL_ADDRESS_CLAMP_TO_EDGE: w = SG_TEX_ADDR_CLAMP_TO_EDGE; break;
  case CL_ADDRESS_CLAMP: w = SG_TEX_ADDR_CLAMP; break;
  case CL_ADDRESS_REPEAT: w = SG_TEX_ADDR_REPEAT; break;
  case CL_ADDRESS_MIRRORED_REPEAT: w = SG_TEX_ADDR_MIRRORED_REPEAT; break;
  default: return 0;
  }
  if ((norm != CL_TRUE && norm != CL_FALSE) ||
      (!norm && (addr == CL_ADDRESS_REPEAT || addr == CL_ADDRESS_MIRRORED_REPEAT)))
    return 0;
  if (filter == CL_FILTER_NEAREST)
    w |= SG_TEX_NEAREST;
  else if (filter == CL_FILTER_LINEAR)
    w |= SG_TEX_LINEAR;
  else
    return 0;
  return w | (norm ? SG_TEX_NORMALIZED : 0);
}

static cl_sampler sampler_create(cl_context ctx, cl_bool norm, cl_addressing_mode addr,
                                 cl_filter_mode filter, const cl_sampler_properties *props,
                                 size_t nprops, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_sampler s = NULL;
  uint64_t word = sampler_word(norm, addr, filter);
  SG_CHECK(word, CL_INVALID_VALUE,
           "normalized_coords %u, addressing_mode 0x%x, filter_mode 0x%x: a value or their "
           "combination is not valid (repeat addressing needs normalized coordinates)",
           (unsigned)norm, addr, filter);
  s = calloc(1, sizeof *s);
  SG_CHECK(s, CL_OUT_OF_HOST_MEMORY, "no memory for the sampler");
  sg_object_init(s, SG_KIND_SAMPLER, sampler_destroy);
  s->context = ctx;
  sg_retain_internal(ctx);
  s->normalized = norm;
  s->addressing = addr;
  s->filter = filter;
  s->word = word;
  if (props) {
    s->properties = malloc(nprops * sizeof *props);
    SG_CHECK(s->properties, CL_OUT_OF_HOST_MEMORY, "no memory for the property list");
    memcpy(s->properties, props, nprops * sizeof *props);
    s->num_properties = nprops;
  }
  SG_SET_ERR(errcode_ret, CL_SUCCESS);
  return s;
fail:
  if (s)
    sg_release(s);
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context ctx, cl_bool normalized_coords,
                                                    cl_addressing_mode addressing_mode,
                                                    cl_filter_mode filter_mode,
                                                    cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(ctx, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not a valid context");
  return sampler_create(ctx, normalized_coords, addressing_mode, filter_mode, NULL, 0, errcode_ret);
fail:
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context ctx, const cl_sampler_properties *properties, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_bool norm = CL_TRUE;
  cl_addressing_mode addr = CL_ADDRESS_CLAMP;
  cl_filter_mode filter = CL_FILTER_NEAREST;
  bool seen[3] = {false, false, false};
  size_t n = 0;
  SG_CHECK(sg_valid(ctx, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not a valid context");
  for (; properties && properties[n]; n += 2) {
    cl_sampler_properties name = properties[n], value = properties[n + 1];
    int i = name == CL_SAMPLER_NORMALIZED_COORDS ? 0
            : name == CL_SAMPLER_ADDRESSING_MODE ? 1
            : name == CL_SAMPLER_FILTER_MODE     ? 2
                                                 : -1;
    SG_CHECK(i >= 0, CL_INVALID_VALUE, "unknown sampler property 0x%llx", (unsigned long long)name);
    SG_CHECK(!seen[i], CL_INVALID_VALUE, "sampler property 0x%llx given twice",
             (unsigned long long)name);
    seen[i] = true;
    if (i == 0)
      norm = (cl_bool)value;
    else if (i == 1)
      addr = (cl_addressing_mode)value;
    else
      filter = (cl_filter_mode)value;
    SG_CHECK((cl_sampler_properties)(i == 0   ? norm
                                     : i == 1 ? addr
                                              : filter) == value,
             CL_INVALID_VALUE, "sampler property 0x%llx has an invalid value 0x%llx",
             (unsigned long long)name, (unsigned long long)value);
  }
  return sampler_create(ctx, norm, addr, filter, properties, properties ? n + 1 : 0, errcode_ret);
fail:
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

static cl_int sampler_check(cl_sampler s) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(s, SG_KIND_SAMPLER), CL_INVALID_SAMPLER, "sampler is not a valid sampler");
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler s) {
  cl_int err = sampler_check(s);
  if (err == CL_SUCCESS)
    sg_retain(s);
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler s) {
  cl_int err = sampler_check(s);
  if (err == CL_SUCCESS)
    sg_release(s);
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret) {
  cl_int err = sampler_check(s);
  if (err != CL_SUCCESS)
    return err;
  switch (param_name) {
  case CL_SAMPLER_REFERENCE_COUNT: SG_INFO_VAL(cl_uint, atomic_load(&s->obj.refcount));
  case CL_SAMPLER_CONTEXT: SG_INFO_VAL(cl_context, s->context);
  case CL_SAMPLER_NORMALIZED_COORDS: SG_INFO_VAL(cl_bool, s->normalized);
  case CL_SAMPLER_ADDRESSING_MODE: SG_INFO_VAL(cl_addressing_mode, s->addressing);
  case CL_SAMPLER_FILTER_MODE: SG_INFO_VAL(cl_filter_mode, s->filter);
  case CL_SAMPLER_PROPERTIES:
    return sg_info(param_value_size, param_value, param_value_size_ret, s->properties,
                   s->num_properties * sizeof *s->properties);
  }
  SG_CHECK(false, CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
fail:
  return err;
}
