/* SPDX-License-Identifier: MIT */
/* runtime/ device (DESIGN.md 3, 5): the one SoftGPU device. Its limits follow
 * the machine configuration (SOFTGPU_CONFIG), its extensions and OpenCL C
 * features are exactly what the compiler enables. */
#include <CL/cl_ext.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sg_runtime.h"

#define SG_ATOMIC_CAPS                                                                           \
  (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |                             \
   CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |                          \
   CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES)

#define SG_FP_CONFIG                                                                               \
  (CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |                   \
   CL_FP_ROUND_TO_INF | CL_FP_FMA)

static struct _cl_device_id device;
static char device_name[128];

/* Global memory lives in host memory, so the device has what the
 * configuration says but never more than half the host's RAM: buffers that
 * fit the reported size can all be filled without the host running out. */
cl_ulong sg_device_global_mem(cl_device_id d) {
  cl_ulong configured = d->config.global_mem_size;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0)
    return configured;
  cl_ulong half_ram = (cl_ulong)pages / 2 * (cl_ulong)page;
  return configured < half_ram ? configured : half_ram;
}

/* One allocation may take a quarter of global memory (at least 128 MiB, the
 * spec's floor). */
cl_ulong sg_device_max_alloc(cl_device_id d) {
  cl_ulong global = sg_device_global_mem(d), quarter = global / 4, floor = 128ull << 20;
  cl_ulong v = quarter > floor ? quarter : floor;
  return v < global ? v : global;
}

/* Buffers are accounted against CL_DEVICE_GLOBAL_MEM_SIZE: a reservation
 * that would pass it fails, as a full GPU's allocation does. */
bool sg_device_reserve(cl_device_id d, cl_ulong size) {
  cl_ulong limit = sg_device_global_mem(d);
  cl_ulong used = atomic_load(&d->global_mem_used);
  do {
    if (size > limit - used)
      return false;
  } while (!atomic_compare_exchange_weak(&d->global_mem_used, &used, used + size));
  return true;
}

void sg_device_unreserve(cl_device_id d, cl_ulong size) {
  atomic_fetch_sub(&d->global_mem_used, size);
}

/* An invalid SOFTGPU_CONFIG leaves the platform without a device: every
 * program then gets CL_DEVICE_NOT_FOUND and the message says why. */
cl_device_id sg_device_init(cl_platform_id plat) {
  char err[256] = "";
  if (sg_config_from_env(&device.config, err, sizeof err) != SG_OK) {
    fprintf(stderr, "SoftGPU: invalid machine configuration: %s; the platform has no device\n",
            err);
    return NULL;
  }
  if (sg_device_create(&device.config, &device.machine) != SG_OK) {
    fprintf(stderr, "SoftGPU: cannot create the device (no SoftGPU device available)\n");
    return NULL;
  }
  sg_object_init(&device, SG_KIND_DEVICE, NULL);
  device.platform = plat;
  snprintf(device_name, sizeof device_name, "SoftGPU SIMT (%u cores x %u warps x %u lanes)",
           device.config.cores, device.config.warps_per_core, device.config.warp_size);
  return &device;
}

static bool has_feature(const char *list, const char *name) {
  size_t len = strlen(name);
  for (const char *p = strstr(list, name); p; p = strstr(p + 1, name))
    if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
      return true;
  return false;
}

static cl_int name_versions(size_t param_value_size, void *param_value,
                            size_t *param_value_size_ret, const char *names, cl_version v) {
  size_t n = sg_name_versions(names, v, NULL);
  cl_name_version list[n ? n : 1];
  sg_name_versions(names, v, list);
  return sg_info(param_value_size, param_value, param_value_size_ret, list, n * sizeof list[0]);
}

#define STR(s) return sg_info_str(param_value_size, param_value, param_value_size_ret, (s))
#define UINT(v) SG_INFO_VAL(cl_uint, (v))
#define ULONG(v) SG_INFO_VAL(cl_ulong, (v))
#define SIZE(v) SG_INFO_VAL(size_t, (v))
#define BOOL(v) SG_INFO_VAL(cl_bool, (v))
#define NONE() return sg_info(param_value_size, param_value, param_value_size_ret, NULL, 0)

static cl_int device_info(cl_device_id d, cl_device_info param_name, size_t param_value_size,
                          void *param_value, size_t *param_value_size_ret) {
  const struct sg_config *c = &d->config;
  const char *features = sg_compiler_c_features();
  const char *extensions = sg_compiler_extensions();
  bool fp64 = has_feature(extensions, "cl_khr_fp64");
  size_t wg = sg_config_max_work_group_size(c);
  switch (param_name) {
  /* Identity */
  case CL_DEVICE_TYPE: SG_INFO_VAL(cl_device_type, CL_DEVICE_TYPE_GPU);
  case CL_DEVICE_VENDOR_ID: UINT(0);
  case CL_DEVICE_NAME: STR(device_name);
  case CL_DEVICE_VENDOR: STR("SoftGPU");
  case CL_DRIVER_VERSION: STR("0.1");
  case CL_DEVICE_PROFILE: STR("FULL_PROFILE");
  case CL_DEVICE_VERSION: STR("OpenCL 3.0 SoftGPU");
  case CL_DEVICE_NUMERIC_VERSION:
    _Static_assert(SG_OPENCL_VERSION == 300, "CL_DEVICE_VERSION names OpenCL 3.0");
    SG_INFO_VAL(cl_version, CL_MAKE_VERSION(3, 0, 0));
  /* "OpenCL C <major>.<minor> <vendor-specific information>" (4.2 table 5). */
  case CL_DEVICE_OPENCL_C_VERSION: STR("OpenCL C 1.2 SoftGPU");
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
    static const cl_name_version all[] = {{CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
                                          {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
                                          {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
                                          {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"}};
    return sg_info(param_value_size, param_value, param_value_size_ret, all, sizeof all);
  }
  case CL_DEVICE_OPENCL_C_FEATURES:
    return name_versions(param_value_size, param_value, param_value_size_ret, features,
                         CL_MAKE_VERSION(3, 0, 0));
  case CL_DEVICE_EXTENSIONS: STR(extensions);
  case CL_DEVICE_EXTENSIONS_WITH_VERSION:
    return name_versions(param_value_size, param_value, param_value_size_ret, extensions,
                         CL_MAKE_VERSION(1, 0, 0));
  case CL_DEVICE_PLATFORM: SG_INFO_VAL(cl_platform_id, d->platform);
  case CL_DEVICE_AVAILABLE:
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE: BOOL(CL_TRUE);
  case CL_DEVICE_BUILT_IN_KERNELS: STR("");
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: NONE();
  case CL_DEVICE_IL_VERSION: STR("");
  case CL_DEVICE_ILS_WITH_VERSION: NONE();
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: STR("v0000-01-01-00"); /* never submitted */
  case CL_DEVICE_REFERENCE_COUNT: UINT(1);                                 /* a root device */
  case CL_DEVICE_PARENT_DEVICE: SG_INFO_VAL(cl_device_id, NULL);
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: UINT(0);
  case CL_DEVICE_PARTITION_PROPERTIES: SG_INFO_VAL(cl_device_partition_property, 0);
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: SG_INFO_VAL(cl_device_affinity_domain, 0);
  case CL_DEVICE_PARTITION_TYPE: NONE();

  /* Compute */
  case CL_DEVICE_MAX_COMPUTE_UNITS: UINT(c->cores);
  case CL_DEVICE_MAX_CLOCK_FREQUENCY: UINT(c->clock_mhz);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: UINT(3);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
    size_t sizes[3] = {wg, wg, wg};
    return sg_info(param_value_size, param_value, param_value_size_ret, sizes, sizeof sizes);
  }
  case CL_DEVICE_MAX_WORK_GROUP_SIZE: SIZE(wg);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: SIZE(c->warp_size); /* full warps */
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: BOOL(CL_TRUE);
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    BOOL(has_feature(features, "__opencl_c_work_group_collective_functions"));
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    BOOL(has_feature(features, "__opencl_c_generic_address_space"));
  /* A sub-group is a warp (docs/collectives.md). The warps of a CTA run
   * round-robin in time slices (sim/sg_core.c), so one spinning on another
   * yields: independent forward progress, which cl_khr_subgroups requires. */
  case CL_DEVICE_MAX_NUM_SUB_GROUPS: UINT((cl_uint)((wg + c->warp_size - 1) / c->warp_size));
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: BOOL(CL_TRUE);
  case CL_DEVICE_EXECUTION_CAPABILITIES: SG_INFO_VAL(cl_device_exec_capabilities, CL_EXEC_KERNEL);
  /* cl_khr_integer_dot_product (compiler/devlib/integer.cl): both forms. */
  case CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR:
    SG_INFO_VAL(cl_device_integer_dot_product_capabilities_khr,
                CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
                    CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: UINT(1); /* scalar lanes: SIMT, not SIMD */
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: UINT(fp64 ? 1 : 0);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: UINT(0);
  /* RV64FD arithmetic is IEEE 754 with correctly rounded divide and sqrt;
   * every instruction carries a rounding mode (or takes frm), and the core
   * honours all of them (sim/sg_execute.c), so every mode is supported. */
  case CL_DEVICE_SINGLE_FP_CONFIG:
    SG_INFO_VAL(cl_device_fp_config, SG_FP_CONFIG | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
  case CL_DEVICE_DOUBLE_FP_CONFIG: SG_INFO_VAL(cl_device_fp_config, fp64 ? SG_FP_CONFIG : 0);
  case CL_DEVICE_HALF_FP_CONFIG: SG_INFO_VAL(cl_device_fp_config, 0);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION: SIZE(1);
  case CL_DEVICE_ENDIAN_LITTLE: BOOL(CL_TRUE);
  case CL_DEVICE_ADDRESS_BITS: UINT(64);
  case CL_DEVICE_PRINTF_BUFFER_SIZE: SIZE(c->printf_buffer_size);
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: BOOL(CL_TRUE);
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT: BOOL(CL_FALSE);

  /* Memory */
  case CL_DEVICE_GLOBAL_MEM_SIZE: ULONG(sg_device_global_mem(d));
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE: ULONG(sg_device_max_alloc(d));
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: SG_INFO_VAL(cl_device_mem_cache_type, CL_NONE);
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: UINT(0);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: ULONG(0);
  case CL_DEVICE_LOCAL_MEM_TYPE: SG_INFO_VAL(cl_device_local_mem_type, CL_LOCAL);
  case CL_DEVICE_LOCAL_MEM_SIZE: ULONG(c->local_mem_per_core);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: ULONG(64 * 1024);
  case CL_DEVICE_MAX_CONSTANT_ARGS: UINT(8);
  case CL_DEVICE_MAX_PARAMETER_SIZE: SIZE(1024);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN: UINT(SG_MEM_BASE_ADDR_ALIGN * 8); /* a long16 */
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: UINT(SG_MEM_BASE_ADDR_ALIGN);
  case CL_DEVICE_HOST_UNIFIED_MEMORY: BOOL(CL_TRUE);
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
    SIZE(has_feature(features, "__opencl_c_program_scope_global_variables") ? 64 * 1024 : 0);
  case CL_DEVICE_SVM_CAPABILITIES: SG_INFO_VAL(cl_device_svm_capabilities, 0);
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: UINT(0); /* natural alignment */
  /* Every order and scope: AMOs are host atomics on the one shared memory
   * and fence is a host fence (sim/), whatever host thread runs a CTA. */
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES: SG_INFO_VAL(cl_device_atomic_capabilities, SG_ATOMIC_CAPS);
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    SG_INFO_VAL(cl_device_atomic_capabilities, SG_ATOMIC_CAPS | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM);

  /* Images and samplers, through the texture unit (runtime/sg_image.c);
   * pipes: not supported */
  case CL_DEVICE_IMAGE_SUPPORT: BOOL(CL_TRUE);
  case CL_DEVICE_MAX_READ_IMAGE_ARGS: UINT(SG_MAX_READ_IMAGE_ARGS);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: UINT(SG_MAX_WRITE_IMAGE_ARGS);
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: UINT(SG_MAX_READ_WRITE_IMAGE_ARGS);
  case CL_DEVICE_MAX_SAMPLERS: UINT(SG_MAX_SAMPLERS);
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: UINT(SG_IMAGE_PITCH_ALIGNMENT);
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: UINT(SG_IMAGE_BASE_ADDRESS_ALIGNMENT);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: SIZE(sg_device_image_limit(d, param_name));
  case CL_DEVICE_PIPE_SUPPORT: BOOL(CL_FALSE);
  case CL_DEVICE_MAX_PIPE_ARGS:
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE: UINT(0);

  /* Queues: host queues, in or out of order, with profiling; no device-side enqueue */
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
    SG_INFO_VAL(cl_command_queue_properties,
                CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: SG_INFO_VAL(cl_command_queue_properties, 0);
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS: UINT(0);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: SG_INFO_VAL(cl_device_device_enqueue_capabilities, 0);
  }
  sg_log_error("clGetDeviceInfo", CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
  return CL_INVALID_VALUE;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id d, cl_device_info param_name,
                                                size_t param_value_size, void *param_value,
                                                size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(d, SG_KIND_DEVICE), CL_INVALID_DEVICE, "device is not a valid device");
  return device_info(d, param_name, param_value_size, param_value, param_value_size_ret);
fail:
  return err;
}

#define SG_DEVICE_TYPES                                                                            \
  (CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | \
   CL_DEVICE_TYPE_CUSTOM)

/* A NULL platform selects SoftGPU's (the choice the spec leaves open). */
CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id plat, cl_device_type type,
                                               cl_uint num_entries, cl_device_id *devices,
                                               cl_uint *num_devices) {
  cl_int err = CL_SUCCESS;
  if (!plat)
    plat = sg_platform_get();
  SG_CHECK(sg_valid(plat, SG_KIND_PLATFORM), CL_INVALID_PLATFORM,
           "platform is not a valid platform");
  SG_CHECK(type == CL_DEVICE_TYPE_ALL || (type && (type & ~(cl_device_type)SG_DEVICE_TYPES) == 0),
           CL_INVALID_DEVICE_TYPE, "device_type 0x%llx is not a valid type",
           (unsigned long long)type);
  SG_CHECK(!(num_entries == 0 && devices), CL_INVALID_VALUE,
           "num_entries is 0 but devices is not NULL");
  SG_CHECK(devices || num_devices, CL_INVALID_VALUE, "devices and num_devices are both NULL");
  bool match = plat->device && (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT));
  if (num_devices)
    *num_devices = match ? 1 : 0;
  SG_CHECK(match, CL_DEVICE_NOT_FOUND, "no SoftGPU device of type 0x%llx",
           (unsigned long long)type);
  if (devices)
    devices[0] = plat->device;
fail:
  return err;
}

/* The device is a root device: retain and release only validate it. */
CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id d) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(d, SG_KIND_DEVICE), CL_INVALID_DEVICE, "device is not a valid device");
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id d) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(d, SG_KIND_DEVICE), CL_INVALID_DEVICE, "device is not a valid device");
fail:
  return err;
}

/* CL_DEVICE_PARTITION_PROPERTIES is empty, so every partition request names
 * an unsupported scheme. */
CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(cl_device_id d,
                                                   const cl_device_partition_property *properties,
                                                   cl_uint num_devices, cl_device_id *out_devices,
                                                   cl_uint *num_devices_ret) {
  (void)properties, (void)num_devices, (void)out_devices, (void)num_devices_ret;
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(d, SG_KIND_DEVICE), CL_INVALID_DEVICE, "device is not a valid device");
  SG_CHECK(false, CL_INVALID_VALUE, "SoftGPU's device cannot be partitioned");
fail:
  return err;
}

/* The device timer is the host's monotonic clock (functional mode). */
CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id d, cl_ulong *host_timestamp) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(d, SG_KIND_DEVICE), CL_INVALID_DEVICE, "device is not a valid device");
  SG_CHECK(host_timestamp, CL_INVALID_VALUE, "host_timestamp is NULL");
  *host_timestamp = sg_now_ns();
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id d, cl_ulong *device_timestamp,
                                                        cl_ulong *host_timestamp) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(d, SG_KIND_DEVICE), CL_INVALID_DEVICE, "device is not a valid device");
  SG_CHECK(device_timestamp && host_timestamp, CL_INVALID_VALUE, "a timestamp pointer is NULL");
  *device_timestamp = *host_timestamp = sg_now_ns();
fail:
  return err;
}
