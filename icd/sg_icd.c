/* SPDX-License-Identifier: MIT */
/* icd/ entry (DESIGN.md 5): what the ICD loader looks up in libsoftgpu.so,
 * cl_khr_icd's clIcdGetPlatformIDsKHR, reached directly or through
 * clGetExtensionFunctionAddress. */
#include <string.h>

#include "sg_runtime.h"

/* Same contract as clGetPlatformIDs; SoftGPU always has its platform (an
 * invalid configuration only leaves it without a device). */
CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                       cl_platform_id *platforms,
                                                       cl_uint *num_platforms) {
  return clGetPlatformIDs(num_entries, platforms, num_platforms);
}

/* The only extension function SoftGPU has. */
CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name) {
  if (func_name && strcmp(func_name, "clIcdGetPlatformIDsKHR") == 0)
    return (void *)clIcdGetPlatformIDsKHR;
  return NULL;
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                        const char *func_name) {
  if (platform && !sg_valid(platform, SG_KIND_PLATFORM))
    return NULL;
  return clGetExtensionFunctionAddress(func_name);
}
