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
  assert_false(b);
  GET(CL_DEVICE_PIPE_SUPPORT, b);
  assert_false(b);
  cl_device_svm_capabilities svm;
  GET(CL_DEVICE_SVM_CAPABILITIES, svm);
  assert_int_equal(svm, 0);
  cl_platform_id p;
  GET(CL_DEVICE_PLATFORM, p);
  assert_ptr_equal(p, plat);
  char s[256];
  GET(CL_DEVICE_OPENCL_C_VERSION, s);
  assert_string_equal(s, "OpenCL C 1.2");
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
  cl_device_fp_config fp;
  GET(CL_DEVICE_SINGLE_FP_CONFIG, fp);
  assert_true(fp & CL_FP_ROUND_TO_NEAREST);
  assert_true(fp & CL_FP_INF_NAN);
}

/* Extensions with version lists exactly the names of CL_DEVICE_EXTENSIONS;
 * cl_khr_fp64 and the double FP config agree. */
static void test_extensions(void **state) {
  (void)state;
  char ext[4096];
  GET(CL_DEVICE_EXTENSIONS, ext);
  bool fp64 = strstr(ext, "cl_khr_fp64") != NULL;
  size_t size, words = 0;
  for (char *t = strtok(ext, " "); t; t = strtok(NULL, " "))
    words++;
  assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &size),
                   CL_SUCCESS);
  assert_int_equal(size, words * sizeof(cl_name_version));
  cl_device_fp_config dfp;
  GET(CL_DEVICE_DOUBLE_FP_CONFIG, dfp);
  if (fp64)
    assert_int_equal(dfp & (CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM),
                     CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM);
  else
    assert_int_equal(dfp, 0);
}

/* Every OpenCL 3.0 query a tool such as clinfo makes answers. */
static void test_every_query_answers(void **state) {
  (void)state;
  static const cl_device_info names[] = {CL_DEVICE_TYPE,
                                         CL_DEVICE_VENDOR_ID,
                                         CL_DEVICE_MAX_COMPUTE_UNITS,
                                         CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
                                         CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                         CL_DEVICE_MAX_WORK_ITEM_SIZES,
                                         CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,
                                         CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
                                         CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,
                                         CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
                                         CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
                                         CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
                                         CL_DEVICE_MAX_CLOCK_FREQUENCY,
                                         CL_DEVICE_ADDRESS_BITS,
                                         CL_DEVICE_MAX_READ_IMAGE_ARGS,
                                         CL_DEVICE_MAX_WRITE_IMAGE_ARGS,
                                         CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                                         CL_DEVICE_IMAGE2D_MAX_WIDTH,
                                         CL_DEVICE_IMAGE2D_MAX_HEIGHT,
                                         CL_DEVICE_IMAGE3D_MAX_WIDTH,
                                         CL_DEVICE_IMAGE3D_MAX_HEIGHT,
                                         CL_DEVICE_IMAGE3D_MAX_DEPTH,
                                         CL_DEVICE_IMAGE_SUPPORT,
                                         CL_DEVICE_MAX_PARAMETER_SIZE,
                                         CL_DEVICE_MAX_SAMPLERS,
                                         CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                         CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE,
                                         CL_DEVICE_SINGLE_FP_CONFIG,
                                         CL_DEVICE_GLOBAL_MEM_CACHE_TYPE,
                                         CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE,
                                         CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
                                         CL_DEVICE_GLOBAL_MEM_SIZE,
                                         CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE,
                                         CL_DEVICE_MAX_CONSTANT_ARGS,
                                         CL_DEVICE_LOCAL_MEM_TYPE,
                                         CL_DEVICE_LOCAL_MEM_SIZE,
                                         CL_DEVICE_ERROR_CORRECTION_SUPPORT,
                                         CL_DEVICE_PROFILING_TIMER_RESOLUTION,
                                         CL_DEVICE_ENDIAN_LITTLE,
                                         CL_DEVICE_AVAILABLE,
                                         CL_DEVICE_COMPILER_AVAILABLE,
                                         CL_DEVICE_EXECUTION_CAPABILITIES,
                                         CL_DEVICE_QUEUE_ON_HOST_PROPERTIES,
                                         CL_DEVICE_NAME,
                                         CL_DEVICE_VENDOR,
                                         CL_DRIVER_VERSION,
                                         CL_DEVICE_PROFILE,
                                         CL_DEVICE_VERSION,
                                         CL_DEVICE_EXTENSIONS,
                                         CL_DEVICE_PLATFORM,
                                         CL_DEVICE_DOUBLE_FP_CONFIG,
                                         CL_DEVICE_HALF_FP_CONFIG,
                                         CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
                                         CL_DEVICE_HOST_UNIFIED_MEMORY,
                                         CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR,
                                         CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT,
                                         CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,
                                         CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG,
                                         CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
                                         CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
                                         CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF,
                                         CL_DEVICE_OPENCL_C_VERSION,
                                         CL_DEVICE_LINKER_AVAILABLE,
                                         CL_DEVICE_BUILT_IN_KERNELS,
                                         CL_DEVICE_IMAGE_MAX_BUFFER_SIZE,
                                         CL_DEVICE_IMAGE_MAX_ARRAY_SIZE,
                                         CL_DEVICE_PARENT_DEVICE,
                                         CL_DEVICE_PARTITION_MAX_SUB_DEVICES,
                                         CL_DEVICE_PARTITION_PROPERTIES,
                                         CL_DEVICE_PARTITION_AFFINITY_DOMAIN,
                                         CL_DEVICE_REFERENCE_COUNT,
                                         CL_DEVICE_PREFERRED_INTEROP_USER_SYNC,
                                         CL_DEVICE_PRINTF_BUFFER_SIZE,
                                         CL_DEVICE_IMAGE_PITCH_ALIGNMENT,
                                         CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT,
                                         CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS,
                                         CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE,
                                         CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES,
                                         CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE,
                                         CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE,
                                         CL_DEVICE_MAX_ON_DEVICE_QUEUES,
                                         CL_DEVICE_MAX_ON_DEVICE_EVENTS,
                                         CL_DEVICE_SVM_CAPABILITIES,
                                         CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE,
                                         CL_DEVICE_MAX_PIPE_ARGS,
                                         CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS,
                                         CL_DEVICE_PIPE_MAX_PACKET_SIZE,
                                         CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT,
                                         CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT,
                                         CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT,
                                         CL_DEVICE_IL_VERSION,
                                         CL_DEVICE_MAX_NUM_SUB_GROUPS,
                                         CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
                                         CL_DEVICE_NUMERIC_VERSION,
                                         CL_DEVICE_EXTENSIONS_WITH_VERSION,
                                         CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
                                         CL_DEVICE_ATOMIC_FENCE_CAPABILITIES,
                                         CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
                                         CL_DEVICE_OPENCL_C_ALL_VERSIONS,
                                         CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                         CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
                                         CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
                                         CL_DEVICE_OPENCL_C_FEATURES,
                                         CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
                                         CL_DEVICE_PIPE_SUPPORT,
                                         CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED,
                                         CL_DEVICE_ILS_WITH_VERSION,
                                         CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION,
                                         CL_DEVICE_PARTITION_TYPE};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    size_t size = 12345;
    cl_int err = clGetDeviceInfo(dev, names[i], 0, NULL, &size);
    if (err != CL_SUCCESS)
      fail_msg("query 0x%x failed with %d", names[i], err);
    assert_true(size < 12345);
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
      cmocka_unit_test(test_every_query_answers),
      cmocka_unit_test(test_device_info_errors),
      cmocka_unit_test(test_root_device),
      cmocka_unit_test(test_timers),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
