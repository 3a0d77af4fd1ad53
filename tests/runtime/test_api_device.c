/* SPDX-License-Identifier: MIT */
/* API tests, device family (OpenCL 3.0 spec 4.2 "Querying Devices", 4.3
 * "Partitioning a Device", 4.1 host timers), through the ICD loader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdbool.h>

#include "sg_info_table.h"

static cl_platform_id plat;
static cl_device_id dev;

static int setup(void **state) {
  (void)state;
  if (clGetPlatformIDs(1, &plat, NULL) != CL_SUCCESS)
    return -1;
  return clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS ? 0 : -1;
}

/* 4.2 clGetDeviceIDs: one GPU, also found as DEFAULT and ALL. */
static void test_device_ids(void **state) {
  (void)state;
  const cl_device_type found[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL,
                                  CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CPU};
  for (size_t i = 0; i < sizeof found / sizeof found[0]; i++) {
    cl_uint n = 0;
    cl_device_id d = NULL;
    assert_int_equal(clGetDeviceIDs(plat, found[i], 1, &d, &n), CL_SUCCESS);
    assert_int_equal(n, 1);
    assert_ptr_equal(d, dev);
  }
  /* CL_DEVICE_NOT_FOUND: no device of that type. */
  const cl_device_type missing[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_ACCELERATOR,
                                    CL_DEVICE_TYPE_CUSTOM};
  for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
    cl_uint n = 7;
    assert_int_equal(clGetDeviceIDs(plat, missing[i], 0, NULL, &n), CL_DEVICE_NOT_FOUND);
    assert_int_equal(n, 0);
  }
}

/* 4.2 clGetDeviceIDs errors. */
static void test_device_ids_errors(void **state) {
  (void)state;
  cl_device_id d;
  assert_int_equal(clGetDeviceIDs(plat, (cl_device_type)1 << 20, 1, &d, NULL),
                   CL_INVALID_DEVICE_TYPE);
  /* 0 names no type at all: invalid, not "no device of that type". */
  assert_int_equal(clGetDeviceIDs(plat, 0, 1, &d, NULL), CL_INVALID_DEVICE_TYPE);
  assert_int_equal(clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 0, &d, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 1, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetDeviceIDs((cl_platform_id)dev, CL_DEVICE_TYPE_GPU, 1, &d, NULL),
                   CL_INVALID_PLATFORM);
}

#define GET(name, var)                                                                             \
  assert_int_equal(clGetDeviceInfo(dev, name, sizeof(var), &(var), NULL), CL_SUCCESS)

/* 4.2 table 5: the limits follow the machine configuration, which the name
 * spells out; without SOFTGPU_CONFIG it is the default machine of
 * device/sg_config.def (8 cores x 32 warps x 32 lanes). */
static void test_limits_follow_config(void **state) {
  (void)state;
  char name[256];
  GET(CL_DEVICE_NAME, name);
  unsigned cores, warps, lanes;
  assert_int_equal(
      sscanf(name, "SoftGPU SIMT (%u cores x %u warps x %u lanes)", &cores, &warps, &lanes), 3);
  if (!getenv("SOFTGPU_CONFIG")) {
    assert_int_equal(cores, 8);
    assert_int_equal(warps, 32);
    assert_int_equal(lanes, 32);
  }
  cl_uint cu;
  GET(CL_DEVICE_MAX_COMPUTE_UNITS, cu);
  assert_int_equal(cu, cores);
  size_t wg, multiple, sizes[3];
  GET(CL_DEVICE_MAX_WORK_GROUP_SIZE, wg);
  assert_int_equal(wg, warps * lanes < 1024 ? warps * lanes : 1024);
  GET(CL_DEVICE_MAX_WORK_ITEM_SIZES, sizes);
  for (int i = 0; i < 3; i++)
    assert_int_equal(sizes[i], wg);
  GET(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, multiple);
  assert_int_equal(multiple, lanes);
  cl_ulong global, alloc, local;
  GET(CL_DEVICE_GLOBAL_MEM_SIZE, global);
  GET(CL_DEVICE_MAX_MEM_ALLOC_SIZE, alloc);
  GET(CL_DEVICE_LOCAL_MEM_SIZE, local);
  cl_ulong floor = global / 4 > (128u << 20) ? global / 4 : (128u << 20);
  assert_true(alloc >= floor && alloc <= global);
  assert_true(local >= 32 * 1024); /* FULL_PROFILE minimum */
}

static void test_fixed_values(void **state) {
  (void)state;
  cl_device_type type;
  GET(CL_DEVICE_TYPE, type);
  assert_int_equal(type, CL_DEVICE_TYPE_GPU);
  cl_uint bits;
  GET(CL_DEVICE_ADDRESS_BITS, bits);
  assert_int_equal(bits, 64);
  cl_bool b;
  GET(CL_DEVICE_ENDIAN_LITTLE, b);
  assert_true(b);
  GET(CL_DEVICE_IMAGE_SUPPORT, b);
  assert_true(b); /* the texture unit; the limits: test_api_image.c */
  GET(CL_DEVICE_PIPE_SUPPORT, b);
  assert_false(b);
  cl_device_svm_capabilities svm;
  GET(CL_DEVICE_SVM_CAPABILITIES, svm);
  assert_int_equal(svm, 0);
  cl_platform_id p;
  GET(CL_DEVICE_PLATFORM, p);
  assert_ptr_equal(p, plat);
  char s[256];
  /* "OpenCL C 1.2 <vendor-specific information>": a space follows the
   * minor version (4.2 table 5). */
  GET(CL_DEVICE_OPENCL_C_VERSION, s);
  assert_memory_equal(s, "OpenCL C 1.2 ", 13);
  assert_true(strlen(s) > 13);
  GET(CL_DEVICE_VERSION, s);
  assert_memory_equal(s, "OpenCL 3.0 ", 11);
  GET(CL_DEVICE_BUILT_IN_KERNELS, s);
  assert_string_equal(s, "");
  cl_name_version all[8];
  size_t size;
  assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof all, all, &size),
                   CL_SUCCESS);
  assert_int_equal(size, 4 * sizeof all[0]);
  assert_int_equal(all[3].version, CL_MAKE_VERSION(3, 0, 0));
  cl_command_queue_properties qp;
  GET(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, qp);
  assert_int_equal(qp, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  /* RISC-V F and D instructions take every IEEE rounding mode (static rm
   * or frm), so both configurations name all three modes besides the
   * FULL_PROFILE minimum (4.2 table 5: FMA, RTE, INF_NAN, and DENORM for
   * double); single also has correctly rounded divide and sqrt. */
  const cl_device_fp_config all_modes = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                        CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
  cl_device_fp_config fp;
  GET(CL_DEVICE_SINGLE_FP_CONFIG, fp);
  assert_int_equal(fp, all_modes | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
}

/* Extensions with version lists exactly the names of CL_DEVICE_EXTENSIONS;
 * cl_khr_fp64 and the double FP config agree. */
static void test_extensions(void **state) {
  (void)state;
  char ext[4096];
  GET(CL_DEVICE_EXTENSIONS, ext);
  bool fp64 = strstr(ext, "cl_khr_fp64") != NULL;
  bool subgroups = strstr(ext, "cl_khr_subgroups") != NULL;
  size_t size, words = 0;
  for (char *t = strtok(ext, " "); t; t = strtok(NULL, " "))
    words++;
  assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &size),
                   CL_SUCCESS);
  assert_int_equal(size, words * sizeof(cl_name_version));
  /* 4.2 table 5: a device with cl_khr_subgroups makes independent forward
   * progress of sub-groups. */
  cl_bool ifp;
  GET(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, ifp);
  if (subgroups)
    assert_true(ifp);
  cl_device_fp_config dfp;
  GET(CL_DEVICE_DOUBLE_FP_CONFIG, dfp);
  if (fp64)
    assert_int_equal(dfp, CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                              CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM);
  else
    assert_int_equal(dfp, 0);
}

static cl_int device_info(void *d, cl_uint name, size_t size, void *value, size_t *ret) {
  return clGetDeviceInfo(d, name, size, value, ret);
}

/* 4.2 table 5 (clGetDeviceInfo): every query of OpenCL 3.0 with the type
 * the spec gives it, held to the shared Get*Info rules (sg_info_table.h). */
static void test_info_table(void **state) {
  (void)state;
  static const struct sg_info_row rows[] = {
      SG_ROW(CL_DEVICE_TYPE, cl_device_type),
      SG_ROW(CL_DEVICE_VENDOR_ID, cl_uint),
      SG_ROW(CL_DEVICE_MAX_COMPUTE_UNITS, cl_uint),
      SG_ROW(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, cl_uint),
      {CL_DEVICE_MAX_WORK_ITEM_SIZES, "CL_DEVICE_MAX_WORK_ITEM_SIZES", SG_FIXED,
       3 * sizeof(size_t)},
      SG_ROW(CL_DEVICE_MAX_WORK_GROUP_SIZE, size_t),
      SG_ROW(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, cl_uint),
      SG_ROW(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, cl_uint),
      SG_ROW(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, cl_uint),
      SG_ROW(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, cl_uint),
      SG_ROW(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, cl_uint),
      SG_ROW(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, cl_uint),
      SG_ROW(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, cl_uint),
      SG_ROW(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, cl_uint),
      SG_ROW(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, cl_uint),
      SG_ROW(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, cl_uint),
      SG_ROW(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, cl_uint),
      SG_ROW(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, cl_uint),
      SG_ROW(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, cl_uint),
      SG_ROW(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, cl_uint),
      SG_ROW(CL_DEVICE_MAX_CLOCK_FREQUENCY, cl_uint),
      SG_ROW(CL_DEVICE_ADDRESS_BITS, cl_uint),
      SG_ROW(CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong),
      SG_ROW(CL_DEVICE_IMAGE_SUPPORT, cl_bool),
      SG_ROW(CL_DEVICE_MAX_READ_IMAGE_ARGS, cl_uint),
      SG_ROW(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, cl_uint),
      SG_ROW(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, cl_uint),
      SG_ROW_ARRAY(CL_DEVICE_ILS_WITH_VERSION, cl_name_version),
      SG_ROW_STR(CL_DEVICE_IL_VERSION),
      SG_ROW(CL_DEVICE_IMAGE2D_MAX_WIDTH, size_t),
      SG_ROW(CL_DEVICE_IMAGE2D_MAX_HEIGHT, size_t),
      SG_ROW(CL_DEVICE_IMAGE3D_MAX_WIDTH, size_t),
      SG_ROW(CL_DEVICE_IMAGE3D_MAX_HEIGHT, size_t),
      SG_ROW(CL_DEVICE_IMAGE3D_MAX_DEPTH, size_t),
      SG_ROW(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, size_t),
      SG_ROW(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, size_t),
      SG_ROW(CL_DEVICE_MAX_SAMPLERS, cl_uint),
      SG_ROW(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, cl_uint),
      SG_ROW(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, cl_uint),
      SG_ROW(CL_DEVICE_MAX_PIPE_ARGS, cl_uint),
      SG_ROW(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, cl_uint),
      SG_ROW(CL_DEVICE_PIPE_MAX_PACKET_SIZE, cl_uint),
      SG_ROW(CL_DEVICE_MAX_PARAMETER_SIZE, size_t),
      SG_ROW(CL_DEVICE_MEM_BASE_ADDR_ALIGN, cl_uint),
      SG_ROW(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, cl_uint),
      SG_ROW(CL_DEVICE_SINGLE_FP_CONFIG, cl_device_fp_config),
      SG_ROW(CL_DEVICE_DOUBLE_FP_CONFIG, cl_device_fp_config),
      SG_ROW(CL_DEVICE_HALF_FP_CONFIG, cl_device_fp_config),
      SG_ROW(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, cl_device_mem_cache_type),
      SG_ROW(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, cl_uint),
      SG_ROW(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cl_ulong),
      SG_ROW(CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong),
      SG_ROW(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, cl_ulong),
      SG_ROW(CL_DEVICE_MAX_CONSTANT_ARGS, cl_uint),
      SG_ROW(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, size_t),
      SG_ROW(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, size_t),
      SG_ROW(CL_DEVICE_LOCAL_MEM_TYPE, cl_device_local_mem_type),
      SG_ROW(CL_DEVICE_LOCAL_MEM_SIZE, cl_ulong),
      SG_ROW(CL_DEVICE_ERROR_CORRECTION_SUPPORT, cl_bool),
      SG_ROW(CL_DEVICE_HOST_UNIFIED_MEMORY, cl_bool),
      SG_ROW(CL_DEVICE_PROFILING_TIMER_RESOLUTION, size_t),
      SG_ROW(CL_DEVICE_ENDIAN_LITTLE, cl_bool),
      SG_ROW(CL_DEVICE_AVAILABLE, cl_bool),
      SG_ROW(CL_DEVICE_COMPILER_AVAILABLE, cl_bool),
      SG_ROW(CL_DEVICE_LINKER_AVAILABLE, cl_bool),
      SG_ROW(CL_DEVICE_EXECUTION_CAPABILITIES, cl_device_exec_capabilities),
      SG_ROW(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, cl_command_queue_properties),
      SG_ROW(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, cl_command_queue_properties),
      SG_ROW(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, cl_uint),
      SG_ROW(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, cl_uint),
      SG_ROW(CL_DEVICE_MAX_ON_DEVICE_QUEUES, cl_uint),
      SG_ROW(CL_DEVICE_MAX_ON_DEVICE_EVENTS, cl_uint),
      SG_ROW_STR(CL_DEVICE_BUILT_IN_KERNELS),
      SG_ROW_ARRAY(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, cl_name_version),
      SG_ROW(CL_DEVICE_PLATFORM, cl_platform_id),
      SG_ROW_STR(CL_DEVICE_NAME),
      SG_ROW_STR(CL_DEVICE_VENDOR),
      SG_ROW_STR(CL_DRIVER_VERSION),
      SG_ROW_STR(CL_DEVICE_PROFILE),
      SG_ROW_STR(CL_DEVICE_VERSION),
      SG_ROW(CL_DEVICE_NUMERIC_VERSION, cl_version),
      SG_ROW_STR(CL_DEVICE_OPENCL_C_VERSION),
      SG_ROW_ARRAY(CL_DEVICE_OPENCL_C_ALL_VERSIONS, cl_name_version),
      SG_ROW_ARRAY(CL_DEVICE_OPENCL_C_FEATURES, cl_name_version),
      SG_ROW_STR(CL_DEVICE_EXTENSIONS),
      SG_ROW_ARRAY(CL_DEVICE_EXTENSIONS_WITH_VERSION, cl_name_version),
      SG_ROW(CL_DEVICE_PRINTF_BUFFER_SIZE, size_t),
      SG_ROW(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, cl_bool),
      SG_ROW(CL_DEVICE_PARENT_DEVICE, cl_device_id),
      SG_ROW(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, cl_uint),
      SG_ROW_ARRAY(CL_DEVICE_PARTITION_PROPERTIES, cl_device_partition_property),
      SG_ROW(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, cl_device_affinity_domain),
      SG_ROW_ARRAY(CL_DEVICE_PARTITION_TYPE, cl_device_partition_property),
      SG_ROW(CL_DEVICE_REFERENCE_COUNT, cl_uint),
      SG_ROW(CL_DEVICE_SVM_CAPABILITIES, cl_device_svm_capabilities),
      SG_ROW(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, cl_uint),
      SG_ROW(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, cl_uint),
      SG_ROW(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, cl_uint),
      SG_ROW(CL_DEVICE_MAX_NUM_SUB_GROUPS, cl_uint),
      SG_ROW(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, cl_bool),
      SG_ROW(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, cl_device_atomic_capabilities),
      SG_ROW(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, cl_device_atomic_capabilities),
      SG_ROW(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, cl_bool),
      SG_ROW(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, cl_bool),
      SG_ROW(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, cl_bool),
      SG_ROW(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, cl_device_device_enqueue_capabilities),
      SG_ROW(CL_DEVICE_PIPE_SUPPORT, cl_bool),
      SG_ROW(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, size_t),
      SG_ROW_STR(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED),
  };
  sg_check_info_table(device_info, dev, rows, sizeof rows / sizeof rows[0]);
}

/* Reads an unsigned query of any width. */
static cl_ulong get_unsigned(cl_device_info name) {
  unsigned char buf[8] = {0};
  size_t size;
  assert_int_equal(clGetDeviceInfo(dev, name, sizeof buf, buf, &size), CL_SUCCESS);
  switch (size) {
  case sizeof(cl_uint): return *(cl_uint *)buf;
  case sizeof(cl_ulong): return *(cl_ulong *)buf;
  }
  fail_msg("query 0x%x: %zu bytes is not an unsigned value", name, size);
  return 0;
}

/* 4.2 table 5: the minimum values a FULL_PROFILE OpenCL 3.0 device that is
 * not of type CL_DEVICE_TYPE_CUSTOM must report. */
static void test_full_profile_minimums(void **state) {
  (void)state;
  static const struct {
    cl_device_info name;
    const char *label;
    cl_ulong min;
  } mins[] = {
      {CL_DEVICE_MAX_COMPUTE_UNITS, "MAX_COMPUTE_UNITS", 1},
      {CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, "MAX_WORK_ITEM_DIMENSIONS", 3},
      {CL_DEVICE_MAX_WORK_GROUP_SIZE, "MAX_WORK_GROUP_SIZE", 1},
      {CL_DEVICE_MAX_MEM_ALLOC_SIZE, "MAX_MEM_ALLOC_SIZE", 128ull << 20},
      {CL_DEVICE_MAX_PARAMETER_SIZE, "MAX_PARAMETER_SIZE", 1024},
      {CL_DEVICE_MEM_BASE_ADDR_ALIGN, "MEM_BASE_ADDR_ALIGN", 16 * 8 * 8}, /* long16, in bits */
      {CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, "MAX_CONSTANT_BUFFER_SIZE", 64 * 1024},
      {CL_DEVICE_MAX_CONSTANT_ARGS, "MAX_CONSTANT_ARGS", 8},
      {CL_DEVICE_LOCAL_MEM_SIZE, "LOCAL_MEM_SIZE", 32 * 1024},
      {CL_DEVICE_PRINTF_BUFFER_SIZE, "PRINTF_BUFFER_SIZE", 1024 * 1024},
      {CL_DEVICE_PROFILING_TIMER_RESOLUTION, "PROFILING_TIMER_RESOLUTION", 1},
      {CL_DEVICE_ADDRESS_BITS, "ADDRESS_BITS", 32},
      {CL_DEVICE_GLOBAL_MEM_SIZE, "GLOBAL_MEM_SIZE", 128ull << 20},
  };
  for (size_t i = 0; i < sizeof mins / sizeof mins[0]; i++) {
    cl_ulong v = get_unsigned(mins[i].name);
    if (v < mins[i].min)
      fail_msg("CL_DEVICE_%s is %llu, below the spec's %llu", mins[i].label, (unsigned long long)v,
               (unsigned long long)mins[i].min);
  }
  size_t sizes[3], wg;
  GET(CL_DEVICE_MAX_WORK_ITEM_SIZES, sizes);
  GET(CL_DEVICE_MAX_WORK_GROUP_SIZE, wg);
  for (int i = 0; i < 3; i++)
    assert_true(sizes[i] >= 1 && sizes[i] <= wg);
  char profile[32];
  GET(CL_DEVICE_PROFILE, profile);
  assert_string_equal(profile, "FULL_PROFILE");
  cl_device_exec_capabilities exec;
  GET(CL_DEVICE_EXECUTION_CAPABILITIES, exec);
  assert_true(exec & CL_EXEC_KERNEL);
  cl_command_queue_properties qp;
  GET(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, qp);
  assert_true(qp & CL_QUEUE_PROFILING_ENABLE);
  cl_bool b;
  GET(CL_DEVICE_AVAILABLE, b);
  assert_true(b);
  GET(CL_DEVICE_COMPILER_AVAILABLE, b);
  assert_true(b); /* FULL_PROFILE needs a compiler */
  GET(CL_DEVICE_LINKER_AVAILABLE, b);
  assert_true(b);
  cl_device_id parent = dev;
  GET(CL_DEVICE_PARENT_DEVICE, parent);
  assert_null(parent);
  cl_device_partition_property pp[4];
  size_t size;
  assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_PARTITION_PROPERTIES, sizeof pp, pp, &size),
                   CL_SUCCESS);
  assert_true(size == 0 || (size == sizeof pp[0] && pp[0] == 0)); /* cannot be partitioned */
  cl_uint subs;
  GET(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, subs);
  assert_int_equal(subs, 0);
}

/* "OpenCL <major>.<minor> ..." -> CL_MAKE_VERSION(major, minor, 0). */
static cl_version parse_version(const char *s, const char *prefix) {
  unsigned major, minor;
  size_t len = strlen(prefix);
  assert_memory_equal(s, prefix, len);
  assert_int_equal(sscanf(s + len, "%u.%u", &major, &minor), 2);
  return CL_MAKE_VERSION(major, minor, 0);
}

static size_t name_versions(cl_device_info name, cl_name_version *out, size_t max) {
  size_t size;
  assert_int_equal(clGetDeviceInfo(dev, name, max * sizeof *out, out, &size), CL_SUCCESS);
  return size / sizeof *out;
}

static bool listed(const cl_name_version *list, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(list[i].name, name) == 0)
      return true;
  return false;
}

/* 4.2: the numeric versions agree with the strings; the extension list with
 * versions names exactly the words of CL_DEVICE_EXTENSIONS, in order; the
 * OpenCL C versions include the one CL_DEVICE_OPENCL_C_VERSION names. */
static void test_version_consistency(void **state) {
  (void)state;
  char s[4096];
  cl_version v;
  GET(CL_DEVICE_VERSION, s);
  GET(CL_DEVICE_NUMERIC_VERSION, v);
  assert_int_equal(v, parse_version(s, "OpenCL "));
  assert_int_equal(v, CL_MAKE_VERSION(3, 0, 0));
  cl_version cv;
  GET(CL_DEVICE_OPENCL_C_VERSION, s);
  cv = parse_version(s, "OpenCL C ");
  cl_name_version list[128];
  size_t n = name_versions(CL_DEVICE_OPENCL_C_ALL_VERSIONS, list, 128);
  bool found = false, has30 = false;
  for (size_t i = 0; i < n; i++) {
    assert_string_equal(list[i].name, "OpenCL C");
    found |= list[i].version == cv;
    has30 |= list[i].version == CL_MAKE_VERSION(3, 0, 0);
  }
  assert_true(found);
  assert_true(has30); /* the compiler takes -cl-std=CL3.0 */

  GET(CL_DEVICE_EXTENSIONS, s);
  n = name_versions(CL_DEVICE_EXTENSIONS_WITH_VERSION, list, 128);
  size_t i = 0;
  for (char *t = strtok(s, " "); t; t = strtok(NULL, " "), i++) {
    assert_true(i < n);
    assert_string_equal(list[i].name, t);
    assert_true(CL_VERSION_MAJOR(list[i].version) >= 1);
  }
  assert_int_equal(i, n);
}

/* One program whose preprocessor checks that exactly the reported OpenCL C
 * features are defined under -cl-std=CL3.0, and every extension macro. */
static void build_checks(const char *src) {
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  err = clBuildProgram(p, 1, &dev, "-cl-std=CL3.0", NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fail_msg("feature check failed to build:\n%s", log);
  }
  clReleaseProgram(p);
  clReleaseContext(ctx);
}

/* 4.2 CL_DEVICE_OPENCL_C_FEATURES is what the compiler enables (OpenCL C
 * 3.0 spec 6.2.1), and each feature agrees with the query that says the same
 * thing and with its extension (OpenCL 3.0 API spec, 4.2 table 5). */
static void test_features_match_compiler(void **state) {
  (void)state;
  static const char *const all[] = {"__opencl_c_3d_image_writes",
                                    "__opencl_c_atomic_order_acq_rel",
                                    "__opencl_c_atomic_order_seq_cst",
                                    "__opencl_c_atomic_scope_device",
                                    "__opencl_c_atomic_scope_all_devices",
                                    "__opencl_c_device_enqueue",
                                    "__opencl_c_generic_address_space",
                                    "__opencl_c_fp64",
                                    "__opencl_c_images",
                                    "__opencl_c_int64",
                                    "__opencl_c_pipes",
                                    "__opencl_c_program_scope_global_variables",
                                    "__opencl_c_read_write_images",
                                    "__opencl_c_subgroups",
                                    "__opencl_c_work_group_collective_functions"};
  cl_name_version feat[64], ext[128];
  size_t nf = name_versions(CL_DEVICE_OPENCL_C_FEATURES, feat, 64);
  size_t ne = name_versions(CL_DEVICE_EXTENSIONS_WITH_VERSION, ext, 128);
  char src[16384] = "", line[256];
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    bool on = listed(feat, nf, all[i]);
    snprintf(line, sizeof line, "#if%sdef %s\n#error %s %s\n#endif\n", on ? "n" : "", all[i],
             all[i], on ? "reported but not defined" : "defined but not reported");
    strcat(src, line);
  }
  for (size_t i = 0; i < nf; i++) {
    assert_int_equal(feat[i].version, CL_MAKE_VERSION(3, 0, 0));
    snprintf(line, sizeof line, "#ifndef %s\n#error %s\n#endif\n", feat[i].name, feat[i].name);
    strcat(src, line);
  }
  for (size_t i = 0; i < ne; i++) {
    snprintf(line, sizeof line, "#ifndef %s\n#error %s\n#endif\n", ext[i].name, ext[i].name);
    strcat(src, line);
  }
  strcat(src, "kernel void k(global int *p) { *p = 1; }\n");
  build_checks(src);

  /* The queries that say the same thing as a feature. */
  cl_bool b;
  GET(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, b);
  assert_int_equal(b, listed(feat, nf, "__opencl_c_generic_address_space"));
  GET(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, b);
  assert_int_equal(b, listed(feat, nf, "__opencl_c_work_group_collective_functions"));
  GET(CL_DEVICE_PIPE_SUPPORT, b);
  assert_int_equal(b, listed(feat, nf, "__opencl_c_pipes"));
  GET(CL_DEVICE_IMAGE_SUPPORT, b);
  assert_int_equal(b, listed(feat, nf, "__opencl_c_images"));
  size_t gv;
  GET(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, gv);
  assert_int_equal(gv != 0, listed(feat, nf, "__opencl_c_program_scope_global_variables"));
  cl_device_device_enqueue_capabilities dq;
  GET(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, dq);
  assert_int_equal(dq != 0, listed(feat, nf, "__opencl_c_device_enqueue"));
  cl_device_fp_config dfp;
  GET(CL_DEVICE_DOUBLE_FP_CONFIG, dfp);
  assert_int_equal(dfp != 0, listed(feat, nf, "__opencl_c_fp64"));
  assert_int_equal(listed(ext, ne, "cl_khr_fp64"), listed(feat, nf, "__opencl_c_fp64"));
  assert_true(listed(feat, nf, "__opencl_c_int64")); /* FULL_PROFILE */
  cl_device_atomic_capabilities am;
  GET(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, am);
  assert_int_equal((am & CL_DEVICE_ATOMIC_ORDER_ACQ_REL) != 0,
                   listed(feat, nf, "__opencl_c_atomic_order_acq_rel"));
  assert_int_equal((am & CL_DEVICE_ATOMIC_ORDER_SEQ_CST) != 0,
                   listed(feat, nf, "__opencl_c_atomic_order_seq_cst"));
  assert_int_equal((am & CL_DEVICE_ATOMIC_SCOPE_DEVICE) != 0,
                   listed(feat, nf, "__opencl_c_atomic_scope_device"));
  assert_int_equal((am & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) != 0,
                   listed(feat, nf, "__opencl_c_atomic_scope_all_devices"));
  /* The 3.0 minimum capabilities. */
  assert_int_equal(am & (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP),
                   CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP);
  GET(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, am);
  const cl_device_atomic_capabilities fence_min = CL_DEVICE_ATOMIC_ORDER_RELAXED |
                                                  CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                                  CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  assert_int_equal(am & fence_min, fence_min);
  /* cl_khr_integer_dot_product: the packed form is required; each form's
   * capability bit and OpenCL C feature agree. */
  if (listed(ext, ne, "cl_khr_integer_dot_product")) {
    cl_device_integer_dot_product_capabilities_khr dot;
    GET(CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR, dot);
    assert_true(dot & CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR);
    assert_int_equal((dot & CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR) != 0,
                     listed(feat, nf, "__opencl_c_integer_dot_product_input_4x8bit_packed"));
    assert_int_equal((dot & CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR) != 0,
                     listed(feat, nf, "__opencl_c_integer_dot_product_input_4x8bit"));
  }
}

/* 4.2 clGetDeviceInfo errors. */
static void test_device_info_errors(void **state) {
  (void)state;
  char small[4];
  assert_int_equal(clGetDeviceInfo(dev, 0x7fff, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof small, small, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clGetDeviceInfo((cl_device_id)plat, CL_DEVICE_NAME, 0, NULL, NULL),
                   CL_INVALID_DEVICE);
}

/* 4.3: a root device; retain/release are accepted; it cannot be split
 * (CL_DEVICE_PARTITION_PROPERTIES is empty -> CL_INVALID_VALUE). */
static void test_root_device(void **state) {
  (void)state;
  assert_int_equal(clRetainDevice(dev), CL_SUCCESS);
  assert_int_equal(clReleaseDevice(dev), CL_SUCCESS);
  cl_uint rc;
  GET(CL_DEVICE_REFERENCE_COUNT, rc);
  assert_int_equal(rc, 1);
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_id out[4];
  cl_uint n;
  assert_int_equal(clCreateSubDevices(dev, props, 4, out, &n), CL_INVALID_VALUE);
}

/* 4.1 (2.1) host timers: monotonic, and the device timer matches. */
static void test_timers(void **state) {
  (void)state;
  cl_ulong h0, h1, d;
  assert_int_equal(clGetHostTimer(dev, &h0), CL_SUCCESS);
  assert_int_equal(clGetDeviceAndHostTimer(dev, &d, &h1), CL_SUCCESS);
  assert_true(h1 >= h0);
  assert_true(d >= h0);
  assert_int_equal(clGetHostTimer(dev, NULL), CL_INVALID_VALUE);
  assert_int_equal(clGetDeviceAndHostTimer(dev, NULL, &h1), CL_INVALID_VALUE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_device_ids),
      cmocka_unit_test(test_device_ids_errors),
      cmocka_unit_test(test_limits_follow_config),
      cmocka_unit_test(test_fixed_values),
      cmocka_unit_test(test_extensions),
      cmocka_unit_test(test_info_table),
      cmocka_unit_test(test_version_consistency),
      cmocka_unit_test(test_full_profile_minimums),
      cmocka_unit_test(test_features_match_compiler),
      cmocka_unit_test(test_device_info_errors),
      cmocka_unit_test(test_root_device),
      cmocka_unit_test(test_timers),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
