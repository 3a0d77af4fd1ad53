/* SPDX-License-Identifier: MIT */
/* runtime/ errors (DESIGN.md 5): names of the CL error codes, the
 * SOFTGPU_DEBUG log every SG_CHECK writes to, and the mapping from the
 * sg_status values used below runtime/ to CL codes. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "sg_runtime.h"

const char *sg_error_name(cl_int err) {
  switch (err) {
#define SG_ERR(name)                                                                               \
  case name: return #name;
    SG_ERR(CL_SUCCESS)
    SG_ERR(CL_DEVICE_NOT_FOUND)
    SG_ERR(CL_DEVICE_NOT_AVAILABLE)
    SG_ERR(CL_COMPILER_NOT_AVAILABLE)
    SG_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    SG_ERR(CL_OUT_OF_RESOURCES)
    SG_ERR(CL_OUT_OF_HOST_MEMORY)
    SG_ERR(CL_PROFILING_INFO_NOT_AVAILABLE)
    SG_ERR(CL_MEM_COPY_OVERLAP)
    SG_ERR(CL_IMAGE_FORMAT_MISMATCH)
    SG_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    SG_ERR(CL_MAP_FAILURE)
    SG_ERR(CL_BUILD_PROGRAM_FAILURE)
    SG_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    SG_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    SG_ERR(CL_COMPILE_PROGRAM_FAILURE)
    SG_ERR(CL_LINKER_NOT_AVAILABLE)
    SG_ERR(CL_LINK_PROGRAM_FAILURE)
    SG_ERR(CL_DEVICE_PARTITION_FAILED)
    SG_ERR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    SG_ERR(CL_INVALID_VALUE)
    SG_ERR(CL_INVALID_DEVICE_TYPE)
    SG_ERR(CL_INVALID_PLATFORM)
    SG_ERR(CL_INVALID_DEVICE)
    SG_ERR(CL_INVALID_CONTEXT)
    SG_ERR(CL_INVALID_QUEUE_PROPERTIES)
    SG_ERR(CL_INVALID_COMMAND_QUEUE)
    SG_ERR(CL_INVALID_HOST_PTR)
    SG_ERR(CL_INVALID_MEM_OBJECT)
    SG_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    SG_ERR(CL_INVALID_IMAGE_SIZE)
    SG_ERR(CL_INVALID_SAMPLER)
    SG_ERR(CL_INVALID_BINARY)
    SG_ERR(CL_INVALID_BUILD_OPTIONS)
    SG_ERR(CL_INVALID_PROGRAM)
    SG_ERR(CL_INVALID_PROGRAM_EXECUTABLE)
    SG_ERR(CL_INVALID_KERNEL_NAME)
    SG_ERR(CL_INVALID_KERNEL_DEFINITION)
    SG_ERR(CL_INVALID_KERNEL)
    SG_ERR(CL_INVALID_ARG_INDEX)
    SG_ERR(CL_INVALID_ARG_VALUE)
    SG_ERR(CL_INVALID_ARG_SIZE)
    SG_ERR(CL_INVALID_KERNEL_ARGS)
    SG_ERR(CL_INVALID_WORK_DIMENSION)
    SG_ERR(CL_INVALID_WORK_GROUP_SIZE)
    SG_ERR(CL_INVALID_WORK_ITEM_SIZE)
    SG_ERR(CL_INVALID_GLOBAL_OFFSET)
    SG_ERR(CL_INVALID_EVENT_WAIT_LIST)
    SG_ERR(CL_INVALID_EVENT)
    SG_ERR(CL_INVALID_OPERATION)
    SG_ERR(CL_INVALID_GL_OBJECT)
    SG_ERR(CL_INVALID_BUFFER_SIZE)
    SG_ERR(CL_INVALID_MIP_LEVEL)
    SG_ERR(CL_INVALID_GLOBAL_WORK_SIZE)
    SG_ERR(CL_INVALID_PROPERTY)
    SG_ERR(CL_INVALID_IMAGE_DESCRIPTOR)
    SG_ERR(CL_INVALID_COMPILER_OPTIONS)
    SG_ERR(CL_INVALID_LINKER_OPTIONS)
    SG_ERR(CL_INVALID_DEVICE_PARTITION_COUNT)
    SG_ERR(CL_INVALID_PIPE_SIZE)
    SG_ERR(CL_INVALID_DEVICE_QUEUE)
    SG_ERR(CL_INVALID_SPEC_ID)
    SG_ERR(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
    SG_ERR(CL_PLATFORM_NOT_FOUND_KHR)
#undef SG_ERR
  }
  return "CL_UNKNOWN_ERROR";
}

static bool debug_enabled(void) {
  static int enabled = -1; /* racy first read is harmless: same answer */
  if (enabled < 0) {
    const char *v = sg_env_get(SG_ENV_DEBUG);
    enabled = v && *v && *v != '0';
  }
  return enabled;
}

void sg_log_error(const char *api, cl_int err, const char *fmt, ...) {
  if (!debug_enabled())
    return;
  va_list ap;
  va_start(ap, fmt);
  flockfile(stderr);
  fprintf(stderr, "SoftGPU: %s: %s: ", api, sg_error_name(err));
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  funlockfile(stderr);
  va_end(ap);
}

void sg_debug(const char *fmt, ...) {
  if (!debug_enabled())
    return;
  va_list ap;
  va_start(ap, fmt);
  flockfile(stderr);
  fputs("SoftGPU: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  funlockfile(stderr);
  va_end(ap);
}

cl_int sg_status_to_cl(enum sg_status st) {
  switch (st) {
  case SG_OK: return CL_SUCCESS;
  case SG_ENOMEM: return CL_OUT_OF_HOST_MEMORY;
  case SG_EINVAL: return CL_INVALID_VALUE;
  case SG_EFAULT: return CL_OUT_OF_RESOURCES; /* what GPU drivers report for a crashed kernel */
  case SG_EBINARY: return CL_INVALID_BINARY;
  case SG_EBUILD: return CL_BUILD_PROGRAM_FAILURE;
  case SG_EOPTIONS: return CL_INVALID_BUILD_OPTIONS;
  case SG_ELINK: return CL_LINK_PROGRAM_FAILURE;
  case SG_ERESOURCES: return CL_OUT_OF_RESOURCES;
  }
  return CL_OUT_OF_RESOURCES;
}
