/* SPDX-License-Identifier: MIT */
/* runtime/ platform (DESIGN.md 5): the one SoftGPU platform, created on first
 * use and never freed, with its device; clGetPlatformIDs and its info. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sg_runtime.h"

static struct _cl_platform_id platform;
static pthread_once_t platform_once = PTHREAD_ONCE_INIT;
static char *platform_extensions;

static void platform_init(void) {
  sg_object_init(&platform, SG_KIND_PLATFORM, NULL);
  const char *dev_ext = sg_compiler_extensions();
  size_t len = strlen("cl_khr_icd ") + strlen(dev_ext) + 1;
  platform_extensions = malloc(len);
  if (platform_extensions)
    snprintf(platform_extensions, len, "cl_khr_icd %s", dev_ext);
  platform.device = sg_device_init(&platform);
}

cl_platform_id sg_platform_get(void) {
  pthread_once(&platform_once, platform_init);
  return &platform;
}

cl_ulong sg_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
}

/* Also what the loader calls as clIcdGetPlatformIDsKHR (icd/sg_icd.c). */
CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                                 cl_uint *num_platforms) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(!(num_entries == 0 && platforms), CL_INVALID_VALUE,
           "num_entries is 0 but platforms is not NULL");
  SG_CHECK(platforms || num_platforms, CL_INVALID_VALUE,
           "platforms and num_platforms are both NULL");
  if (platforms)
    platforms[0] = sg_platform_get();
  if (num_platforms)
    *num_platforms = 1;
fail:
  return err;
}

static cl_int platform_info(cl_platform_info param_name, size_t param_value_size, void *param_value,
                            size_t *param_value_size_ret) {
  const char *ext = platform_extensions ? platform_extensions : "cl_khr_icd";
  switch (param_name) {
  case CL_PLATFORM_PROFILE:
    return sg_info_str(param_value_size, param_value, param_value_size_ret, "FULL_PROFILE");
  case CL_PLATFORM_VERSION:
    return sg_info_str(param_value_size, param_value, param_value_size_ret,
                       "OpenCL 3.0 SoftGPU 0.1");
  case CL_PLATFORM_NUMERIC_VERSION: SG_INFO_VAL(cl_version, CL_MAKE_VERSION(3, 0, 0));
  case CL_PLATFORM_NAME:
  case CL_PLATFORM_VENDOR:
    return sg_info_str(param_value_size, param_value, param_value_size_ret, "SoftGPU");
  case CL_PLATFORM_EXTENSIONS:
    return sg_info_str(param_value_size, param_value, param_value_size_ret, ext);
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
    size_t n = sg_name_versions(ext, CL_MAKE_VERSION(1, 0, 0), NULL);
    cl_name_version list[n ? n : 1];
    sg_name_versions(ext, CL_MAKE_VERSION(1, 0, 0), list);
    return sg_info(param_value_size, param_value, param_value_size_ret, list, n * sizeof list[0]);
  }
  case CL_PLATFORM_HOST_TIMER_RESOLUTION:
    SG_INFO_VAL(cl_ulong, 1); /* clGetHostTimer reads CLOCK_MONOTONIC in ns */
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    return sg_info_str(param_value_size, param_value, param_value_size_ret, "SGPU");
  }
  sg_log_error("clGetPlatformInfo", CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
  return CL_INVALID_VALUE;
}

/* A NULL platform selects SoftGPU's (the choice the spec leaves open). */
CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id plat, cl_platform_info param_name,
                                                  size_t param_value_size, void *param_value,
                                                  size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  if (!plat)
    plat = sg_platform_get();
  SG_CHECK(sg_valid(plat, SG_KIND_PLATFORM), CL_INVALID_PLATFORM,
           "platform is not a valid platform");
  return platform_info(param_name, param_value_size, param_value, param_value_size_ret);
fail:
  return err;
}
