/* SPDX-License-Identifier: MIT */
/* runtime/ samplers (DESIGN.md 5): the device has no image support
 * (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE), so no sampler can be created and no
 * handle is ever a valid sampler. */
#include "sg_runtime.h"

static cl_sampler sampler_refuse(cl_context ctx, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(ctx, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not a valid context");
  SG_CHECK(false, CL_INVALID_OPERATION, "SoftGPU's device does not support images or samplers");
fail:
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context ctx, cl_bool normalized_coords,
                                                    cl_addressing_mode addressing_mode,
                                                    cl_filter_mode filter_mode,
                                                    cl_int *errcode_ret) {
  (void)normalized_coords, (void)addressing_mode, (void)filter_mode;
  return sampler_refuse(ctx, errcode_ret);
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context ctx, const cl_sampler_properties *properties, cl_int *errcode_ret) {
  (void)properties;
  return sampler_refuse(ctx, errcode_ret);
}

static cl_int sampler_check(cl_sampler s) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(s, SG_KIND_SAMPLER), CL_INVALID_SAMPLER, "sampler is not a valid sampler");
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler s) {
  return sampler_check(s);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler s) {
  return sampler_check(s);
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret) {
  (void)param_name, (void)param_value_size, (void)param_value, (void)param_value_size_ret;
  return sampler_check(s);
}
