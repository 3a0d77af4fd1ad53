/* SPDX-License-Identifier: MIT */
/* API tests, platform family (OpenCL 3.0 spec 4.1 "Querying Platform Info"),
 * through the ICD loader: clGetPlatformIDs, clGetPlatformInfo,
 * clGetExtensionFunctionAddressForPlatform. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdbool.h>
#include <stdio.h>

#include "sg_info_table.h"

static cl_platform_id platform(void) {
  cl_platform_id p = NULL;
  assert_int_equal(clGetPlatformIDs(1, &p, NULL), CL_SUCCESS);
  assert_non_null(p);
  return p;
}

static void info_str(cl_platform_info name, char *buf, size_t len) {
  size_t size = 0;
  assert_int_equal(clGetPlatformInfo(platform(), name, 0, NULL, &size), CL_SUCCESS);
  assert_true(size > 0 && size <= len);
  assert_int_equal(clGetPlatformInfo(platform(), name, len, buf, NULL), CL_SUCCESS);
  assert_int_equal(strlen(buf) + 1, size);
}

/* 4.1 clGetPlatformIDs: the loader sees only SoftGPU here. */
static void test_get_platform_ids(void **state) {
  (void)state;
  cl_uint n = 0;
  assert_int_equal(clGetPlatformIDs(0, NULL, &n), CL_SUCCESS);
  assert_int_equal(n, 1);
  cl_platform_id p[2] = {NULL, NULL};
  assert_int_equal(clGetPlatformIDs(2, p, &n), CL_SUCCESS);
  assert_non_null(p[0]);
  /* CL_INVALID_VALUE: num_entries 0 with platforms, or both outputs NULL. */
  assert_int_equal(clGetPlatformIDs(0, p, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetPlatformIDs(1, NULL, NULL), CL_INVALID_VALUE);
}

/* 4.1 clGetPlatformInfo: the values SoftGPU documents. */
static void test_platform_strings(void **state) {
  (void)state;
  char buf[4096];
  info_str(CL_PLATFORM_NAME, buf, sizeof buf);
  assert_string_equal(buf, "SoftGPU");
  info_str(CL_PLATFORM_VENDOR, buf, sizeof buf);
  assert_string_equal(buf, "SoftGPU");
  info_str(CL_PLATFORM_PROFILE, buf, sizeof buf);
  assert_string_equal(buf, "FULL_PROFILE");
  info_str(CL_PLATFORM_VERSION, buf, sizeof buf);
  assert_string_equal(buf, "OpenCL 3.0 SoftGPU 0.1");
  info_str(CL_PLATFORM_ICD_SUFFIX_KHR, buf, sizeof buf);
  assert_string_equal(buf, "SGPU");
  info_str(CL_PLATFORM_EXTENSIONS, buf, sizeof buf);
  assert_non_null(strstr(buf, "cl_khr_icd"));

  /* One cl_name_version per name of the extension string. */
  size_t words = 0;
  for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
    words++;
  size_t size = 0;
  assert_int_equal(
      clGetPlatformInfo(platform(), CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, NULL, &size),
      CL_SUCCESS);
  assert_int_equal(size, words * sizeof(cl_name_version));
  cl_name_version list[64];
  assert_true(words <= 64);
  assert_int_equal(
      clGetPlatformInfo(platform(), CL_PLATFORM_EXTENSIONS_WITH_VERSION, sizeof list, list, NULL),
      CL_SUCCESS);
  assert_string_equal(list[0].name, "cl_khr_icd");
}

static void test_platform_numbers(void **state) {
  (void)state;
  cl_version v = 0;
  assert_int_equal(clGetPlatformInfo(platform(), CL_PLATFORM_NUMERIC_VERSION, sizeof v, &v, NULL),
                   CL_SUCCESS);
  assert_int_equal(CL_VERSION_MAJOR(v), 3);
  assert_int_equal(CL_VERSION_MINOR(v), 0);
  cl_ulong res = 99;
  assert_int_equal(
      clGetPlatformInfo(platform(), CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof res, &res, NULL),
      CL_SUCCESS);
  assert_int_equal(res, 1);
}

/* 4.1 errors: CL_INVALID_VALUE for an unknown name or a too small buffer,
 * CL_INVALID_PLATFORM for a handle that is not a platform. */
static void test_platform_info_errors(void **state) {
  (void)state;
  char buf[4];
  assert_int_equal(clGetPlatformInfo(platform(), 0x7fff, sizeof buf, buf, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetPlatformInfo(platform(), CL_PLATFORM_NAME, sizeof buf, buf, NULL),
                   CL_INVALID_VALUE);
  cl_device_id dev;
  assert_int_equal(clGetDeviceIDs(platform(), CL_DEVICE_TYPE_ALL, 1, &dev, NULL), CL_SUCCESS);
  assert_int_equal(clGetPlatformInfo((cl_platform_id)dev, CL_PLATFORM_NAME, 0, NULL, NULL),
                   CL_INVALID_PLATFORM);
}

static cl_int platform_info(void *p, cl_uint name, size_t size, void *value, size_t *ret) {
  return clGetPlatformInfo(p, name, size, value, ret);
}

/* 4.1 clGetPlatformInfo: every name of OpenCL 3.0 (and cl_khr_icd's suffix),
 * held to the shared Get*Info rules. */
static void test_info_table(void **state) {
  (void)state;
  static const struct sg_info_row rows[] = {
      SG_ROW_STR(CL_PLATFORM_PROFILE),
      SG_ROW_STR(CL_PLATFORM_VERSION),
      SG_ROW(CL_PLATFORM_NUMERIC_VERSION, cl_version),
      SG_ROW_STR(CL_PLATFORM_NAME),
      SG_ROW_STR(CL_PLATFORM_VENDOR),
      SG_ROW_STR(CL_PLATFORM_EXTENSIONS),
      SG_ROW_ARRAY(CL_PLATFORM_EXTENSIONS_WITH_VERSION, cl_name_version),
      SG_ROW(CL_PLATFORM_HOST_TIMER_RESOLUTION, cl_ulong),
      SG_ROW_STR(CL_PLATFORM_ICD_SUFFIX_KHR),
  };
  sg_check_info_table(platform_info, platform(), rows, sizeof rows / sizeof rows[0]);
}

/* 4.1: CL_PLATFORM_NUMERIC_VERSION is the version CL_PLATFORM_VERSION spells
 * ("OpenCL <major>.<minor> <platform-specific>"); the extension list with
 * versions names the words of CL_PLATFORM_EXTENSIONS in order, and holds
 * every extension of the device (the platform's are a superset). */
static void test_version_consistency(void **state) {
  (void)state;
  char s[4096];
  info_str(CL_PLATFORM_VERSION, s, sizeof s);
  unsigned major, minor;
  char space;
  assert_int_equal(sscanf(s, "OpenCL %u.%u%c", &major, &minor, &space), 3);
  assert_int_equal(space, ' ');
  cl_version v;
  assert_int_equal(clGetPlatformInfo(platform(), CL_PLATFORM_NUMERIC_VERSION, sizeof v, &v, NULL),
                   CL_SUCCESS);
  assert_int_equal(v, CL_MAKE_VERSION(major, minor, 0));
  cl_name_version list[128];
  size_t size;
  assert_int_equal(
      clGetPlatformInfo(platform(), CL_PLATFORM_EXTENSIONS_WITH_VERSION, sizeof list, list, &size),
      CL_SUCCESS);
  size_t n = size / sizeof list[0], i = 0;
  info_str(CL_PLATFORM_EXTENSIONS, s, sizeof s);
  for (char *t = strtok(s, " "); t; t = strtok(NULL, " "), i++) {
    assert_true(i < n);
    assert_string_equal(list[i].name, t);
    assert_int_equal(list[i].version, CL_MAKE_VERSION(1, 0, 0));
  }
  assert_int_equal(i, n);
  cl_device_id dev;
  assert_int_equal(clGetDeviceIDs(platform(), CL_DEVICE_TYPE_ALL, 1, &dev, NULL), CL_SUCCESS);
  char dext[4096];
  assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof dext, dext, NULL), CL_SUCCESS);
  for (char *t = strtok(dext, " "); t; t = strtok(NULL, " ")) {
    bool found = false;
    for (size_t k = 0; k < n; k++)
      found |= strcmp(list[k].name, t) == 0;
    if (!found)
      fail_msg("device extension %s is not a platform extension", t);
  }
}

/* 9.2 (cl_khr_icd): the loader's entry point is reachable by name; other
 * names are not SoftGPU extension functions. */
static void test_extension_function_address(void **state) {
  (void)state;
  assert_non_null(clGetExtensionFunctionAddressForPlatform(platform(), "clIcdGetPlatformIDsKHR"));
  assert_null(clGetExtensionFunctionAddressForPlatform(platform(), "clNoSuchFunctionSGPU"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_get_platform_ids),
      cmocka_unit_test(test_platform_strings),
      cmocka_unit_test(test_platform_numbers),
      cmocka_unit_test(test_platform_info_errors),
      cmocka_unit_test(test_info_table),
      cmocka_unit_test(test_version_consistency),
      cmocka_unit_test(test_extension_function_address),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
