/* SPDX-License-Identifier: MIT */
/* runtime/ context (DESIGN.md 5): property checks, the single-device
 * context, its info and destructor callbacks. Programs, queues, buffers and
 * events hold internal references, so the context dies after all of them. */
#include <stdlib.h>
#include <string.h>

#include "sg_runtime.h"

static void context_destroy(void *self) {
  cl_context ctx = self;
  /* The spec calls destructor callbacks in reverse order of registration;
   * they are pushed on the front of the list. */
  for (struct sg_destructor_cb *cb = ctx->destructors, *next; cb; cb = next) {
    next = cb->next;
    cb->fn(ctx, cb->user_data);
    free(cb);
  }
  pthread_mutex_destroy(&ctx->lock);
  free(ctx->properties);
  sg_object_free(ctx);
}

/* Checks the 0-terminated property list and copies it into ctx. */
static cl_int context_properties(cl_context ctx, const cl_context_properties *props) {
  cl_int err = CL_SUCCESS;
  if (!props)
    return CL_SUCCESS;
  size_t n = 0;
  bool seen_platform = false, seen_sync = false;
  for (; props[n]; n += 2) {
    cl_context_properties name = props[n], value = props[n + 1];
    if (name == CL_CONTEXT_PLATFORM) {
      SG_CHECK(!seen_platform, CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM given twice");
      SG_CHECK(sg_valid((cl_platform_id)value, SG_KIND_PLATFORM), CL_INVALID_PLATFORM,
               "CL_CONTEXT_PLATFORM is not a valid platform");
      seen_platform = true;
    } else if (name == CL_CONTEXT_INTEROP_USER_SYNC) {
      SG_CHECK(!seen_sync, CL_INVALID_PROPERTY, "CL_CONTEXT_INTEROP_USER_SYNC given twice");
      SG_CHECK(value == CL_TRUE || value == CL_FALSE, CL_INVALID_PROPERTY,
               "CL_CONTEXT_INTEROP_USER_SYNC must be CL_TRUE or CL_FALSE");
      seen_sync = true;
    } else {
      SG_CHECK(false, CL_INVALID_PROPERTY, "unsupported context property 0x%lx", (long)name);
    }
  }
  n++;
  ctx->properties = malloc(n * sizeof *props);
  SG_CHECK(ctx->properties, CL_OUT_OF_HOST_MEMORY, "no memory for the property list");
  memcpy(ctx->properties, props, n * sizeof *props);
  ctx->num_properties = n;
fail:
  return err;
}

static cl_context context_create(const cl_context_properties *props, cl_device_id dev,
                                 void(CL_CALLBACK *notify)(const char *, const void *, size_t,
                                                           void *),
                                 void *user_data, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_context ctx = calloc(1, sizeof *ctx);
  SG_CHECK(ctx, CL_OUT_OF_HOST_MEMORY, "no memory for the context");
  err = context_properties(ctx, props);
  if (err != CL_SUCCESS)
    goto fail;
  sg_object_init(ctx, SG_KIND_CONTEXT, context_destroy);
  ctx->device = dev;
  ctx->notify = notify;
  ctx->notify_data = user_data;
  pthread_mutex_init(&ctx->lock, NULL);
  SG_SET_ERR(errcode_ret, CL_SUCCESS);
  return ctx;
fail:
  if (ctx)
    free(ctx->properties);
  free(ctx);
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(
    const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
    void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *), void *user_data,
    cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(devices && num_devices, CL_INVALID_VALUE, "devices is NULL or num_devices is 0");
  SG_CHECK(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data given without pfn_notify");
  /* Duplicates are ignored (OpenCL 3.0, 4.4): SoftGPU has one device. */
  for (cl_uint i = 0; i < num_devices; i++)
    SG_CHECK(sg_valid(devices[i], SG_KIND_DEVICE), CL_INVALID_DEVICE,
             "devices[%u] is not a valid device", i);
  return context_create(properties, devices[0], pfn_notify, user_data, errcode_ret);
fail:
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                        void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
                        void *user_data, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_device_id dev = NULL;
  SG_CHECK(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data given without pfn_notify");
  err = clGetDeviceIDs(sg_platform_get(), device_type, 1, &dev, NULL);
  SG_CHECK(err == CL_SUCCESS, err, "no device of type 0x%llx", (unsigned long long)device_type);
  return context_create(properties, dev, pfn_notify, user_data, errcode_ret);
fail:
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context ctx) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(ctx, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not a valid context");
  sg_retain(ctx);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context ctx) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(ctx, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not a valid context");
  sg_release(ctx);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context ctx, cl_context_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(ctx, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not a valid context");
  switch (param_name) {
  case CL_CONTEXT_REFERENCE_COUNT: SG_INFO_VAL(cl_uint, atomic_load(&ctx->obj.refcount));
  case CL_CONTEXT_NUM_DEVICES: SG_INFO_VAL(cl_uint, 1);
  case CL_CONTEXT_DEVICES: SG_INFO_VAL(cl_device_id, ctx->device);
  case CL_CONTEXT_PROPERTIES:
    return sg_info(param_value_size, param_value, param_value_size_ret, ctx->properties,
                   ctx->num_properties * sizeof *ctx->properties);
  }
  SG_CHECK(false, CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(
    cl_context ctx, void(CL_CALLBACK *pfn_notify)(cl_context, void *), void *user_data) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(ctx, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not a valid context");
  SG_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
  struct sg_destructor_cb *cb = malloc(sizeof *cb);
  SG_CHECK(cb, CL_OUT_OF_HOST_MEMORY, "no memory for the callback");
  cb->fn = (void(CL_CALLBACK *)(void *, void *))pfn_notify;
  cb->user_data = user_data;
  pthread_mutex_lock(&ctx->lock);
  cb->next = ctx->destructors;
  ctx->destructors = cb;
  pthread_mutex_unlock(&ctx->lock);
fail:
  return err;
}
