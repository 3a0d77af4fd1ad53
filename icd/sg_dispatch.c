/* SPDX-License-Identifier: MIT */
/* icd/ dispatch table (DESIGN.md 5): the Khronos cl_icd_dispatch, filled by
 * name. Every slot is set: SoftGPU's entry points, and for what the device
 * lacks (SVM, pipes, GL/D3D/EGL interop, native kernels, device
 * queues) stubs that check what the entry can check and return the code the
 * spec gives for the missing feature. */
#include "sg_runtime.h"

/* The stubs keep the exact signatures of the slots they fill; most of their
 * parameters cannot matter once the feature is known to be missing. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* The entry point a stub stands for: its C name without the prefix. */
#define API (__func__ + sizeof "sg_unsupported_" - 1)

#define NO_SVM "the device does not support shared virtual memory"
#define NO_PIPES "the device does not support pipes"
#define NO_GL "the context was not created from an OpenGL context"
#define NO_EGL "the device does not support EGL sharing"

/* Logs under SOFTGPU_DEBUG as the entry point would and returns code. */
static cl_int refuse(const char *api, cl_int code, const char *why) {
  sg_log_error(api, code, "%s", why);
  return code;
}

/* The same for entries that return an object (NULL) through errcode_ret. */
static void *refuse_obj(const char *api, cl_int *errcode_ret, cl_int code, const char *why) {
  SG_SET_ERR(errcode_ret, refuse(api, code, why));
  return NULL;
}

/* Enqueues of a missing feature: the queue first, then the feature. */
static cl_int refuse_enqueue(const char *api, cl_command_queue q, cl_int code, const char *why) {
  if (!sg_valid(q, SG_KIND_QUEUE))
    return refuse(api, CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
  return refuse(api, code, why);
}

/* Creation from a context: the context first, then the feature. */
static void *refuse_create(const char *api, cl_context ctx, cl_int *errcode_ret, cl_int code,
                           const char *why) {
  if (!sg_valid(ctx, SG_KIND_CONTEXT))
    return refuse_obj(api, errcode_ret, CL_INVALID_CONTEXT, "context is not a valid context");
  return refuse_obj(api, errcode_ret, code, why);
}

/* Direct3D and DX9 sharing exist only on Windows; on other systems their
 * slots are plain pointers (cl_icd.h) that the loader never calls. */
static cl_int CL_API_CALL sg_unsupported_windows_only(void) {
  return CL_INVALID_OPERATION;
}

/* OpenCL 1.0 only; later devices may refuse it with CL_INVALID_OPERATION
 * (the CTS allows it) once the arguments are valid. */
static cl_int CL_API_CALL sg_unsupported_clSetCommandQueueProperty(
    cl_command_queue command_queue, cl_command_queue_properties properties, cl_bool enable,
    cl_command_queue_properties *old_properties) {
  const cl_command_queue_properties known =
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
  if (!sg_valid(command_queue, SG_KIND_QUEUE))
    return refuse(API, CL_INVALID_COMMAND_QUEUE, "command_queue is not a valid command-queue");
  if (properties & ~known)
    return refuse(API, CL_INVALID_VALUE, "properties has bits that name no queue property");
  return refuse(API, CL_INVALID_OPERATION,
                "queue properties are fixed at creation (an OpenCL 1.0 entry point)");
}

/* ---- Native kernels, sub-devices, device queues ------------------------- */

/* CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL. */
static cl_int CL_API_CALL sg_unsupported_clEnqueueNativeKernel(
    cl_command_queue command_queue, void(CL_CALLBACK *user_func)(void *), void *args,
    size_t cb_args, cl_uint num_mem_objects, const cl_mem *mem_list, const void **args_mem_loc,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return refuse_enqueue(API, command_queue, CL_INVALID_OPERATION,
                        "the device cannot execute native kernels");
}

/* cl_ext_device_fission behaves as its core successor: the root device
 * cannot be partitioned, and retaining or releasing it only validates it. */
static cl_int CL_API_CALL sg_unsupported_clCreateSubDevicesEXT(
    cl_device_id in_device, const cl_device_partition_property_ext *partition_properties,
    cl_uint num_entries, cl_device_id *out_devices, cl_uint *num_devices) {
  if (!sg_valid(in_device, SG_KIND_DEVICE))
    return refuse(API, CL_INVALID_DEVICE, "in_device is not a valid device");
  return refuse(API, CL_INVALID_VALUE, "SoftGPU's device cannot be partitioned");
}

static cl_int CL_API_CALL sg_unsupported_clRetainDeviceEXT(cl_device_id device) {
  return clRetainDevice(device);
}

static cl_int CL_API_CALL sg_unsupported_clReleaseDeviceEXT(cl_device_id device) {
  return clReleaseDevice(device);
}

/* CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES is 0: no on-device queue at all. */
static cl_int CL_API_CALL sg_unsupported_clSetDefaultDeviceCommandQueue(
    cl_context context, cl_device_id device, cl_command_queue command_queue) {
  if (!sg_valid(context, SG_KIND_CONTEXT))
    return refuse(API, CL_INVALID_CONTEXT, "context is not a valid context");
  if (!sg_valid(device, SG_KIND_DEVICE) || device != context->device)
    return refuse(API, CL_INVALID_DEVICE, "device is not a valid device of context");
  return refuse(API, CL_INVALID_OPERATION, "the device does not support on-device queues");
}

/* ---- Pipes -------------------------------------------------------------- */

static cl_mem CL_API_CALL sg_unsupported_clCreatePipe(cl_context context, cl_mem_flags flags,
                                                      cl_uint pipe_packet_size,
                                                      cl_uint pipe_max_packets,
                                                      const cl_pipe_properties *properties,
                                                      cl_int *errcode_ret) {
  return refuse_create(API, context, errcode_ret, CL_INVALID_OPERATION, NO_PIPES);
}

/* No pipe can be created, so nothing is a valid pipe object. */
static cl_int CL_API_CALL sg_unsupported_clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name,
                                                       size_t param_value_size, void *param_value,
                                                       size_t *param_value_size_ret) {
  return refuse(API, CL_INVALID_MEM_OBJECT, "pipe is not a valid pipe object: " NO_PIPES);
}

/* ---- Shared virtual memory ---------------------------------------------- */

/* clSVMAlloc returns NULL and clSVMFree does nothing when no device of the
 * context supports SVM; any pointer may come back to clSVMFree. */
static void *CL_API_CALL sg_unsupported_clSVMAlloc(cl_context context, cl_svm_mem_flags flags,
                                                   size_t size, unsigned int alignment) {
  sg_log_error(API, CL_INVALID_OPERATION, NO_SVM);
  return NULL;
}

static void CL_API_CALL sg_unsupported_clSVMFree(cl_context context, void *svm_pointer) {
  sg_log_error(API, CL_INVALID_OPERATION, NO_SVM);
}

static cl_int CL_API_CALL sg_unsupported_clEnqueueSVMFree(
    cl_command_queue command_queue, cl_uint num_svm_pointers, void **svm_pointers,
    void(CL_CALLBACK *pfn_free_func)(cl_command_queue queue, cl_uint num_svm_pointers,
                                     void ** /* svm_pointers[] */, void *user_data),
    void *user_data, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  return refuse_enqueue(API, command_queue, CL_INVALID_OPERATION, NO_SVM);
}

static cl_int CL_API_CALL sg_unsupported_clEnqueueSVMMemcpy(cl_command_queue command_queue,
                                                            cl_bool blocking_copy, void *dst_ptr,
                                                            const void *src_ptr, size_t size,
                                                            cl_uint num_events_in_wait_list,
                                                            const cl_event *event_wait_list,
                                                            cl_event *event) {
  return refuse_enqueue(API, command_queue, CL_INVALID_OPERATION, NO_SVM);
}

static cl_int CL_API_CALL sg_unsupported_clEnqueueSVMMemFill(cl_command_queue command_queue,
                                                             void *svm_ptr, const void *pattern,
                                                             size_t pattern_size, size_t size,
                                                             cl_uint num_events_in_wait_list,
                                                             const cl_event *event_wait_list,
                                                             cl_event *event) {
  return refuse_enqueue(API, command_queue, CL_INVALID_OPERATION, NO_SVM);
}

static cl_int CL_API_CALL sg_unsupported_clEnqueueSVMMap(
    cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags map_flags, void *svm_ptr,
    size_t size, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  return refuse_enqueue(API, command_queue, CL_INVALID_OPERATION, NO_SVM);
}

static cl_int CL_API_CALL sg_unsupported_clEnqueueSVMUnmap(cl_command_queue command_queue,
                                                           void *svm_ptr,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event *event_wait_list,
                                                           cl_event *event) {
  return refuse_enqueue(API, command_queue, CL_INVALID_OPERATION, NO_SVM);
}

static cl_int CL_API_CALL sg_unsupported_clEnqueueSVMMigrateMem(
    cl_command_queue command_queue, cl_uint num_svm_pointers, const void **svm_pointers,
    const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return refuse_enqueue(API, command_queue, CL_INVALID_OPERATION, NO_SVM);
}

static cl_int CL_API_CALL sg_unsupported_clSetKernelArgSVMPointer(cl_kernel kernel,
                                                                  cl_uint arg_index,
                                                                  const void *arg_value) {
  if (!sg_valid(kernel, SG_KIND_KERNEL))
    return refuse(API, CL_INVALID_KERNEL, "kernel is not a valid kernel");
  if (arg_index >= kernel->info->num_args)
    return refuse(API, CL_INVALID_ARG_INDEX, "arg_index is past the kernel's last argument");
  return refuse(API, CL_INVALID_OPERATION, NO_SVM);
}

/* Every name clSetKernelExecInfo knows is about SVM. */
static cl_int CL_API_CALL sg_unsupported_clSetKernelExecInfo(cl_kernel kernel,
                                                             cl_kernel_exec_info param_name,
                                                             size_t param_value_size,
                                                             const void *param_value) {
  if (!sg_valid(kernel, SG_KIND_KERNEL))
    return refuse(API, CL_INVALID_KERNEL, "kernel is not a valid kernel");
  if (param_name != CL_KERNEL_EXEC_INFO_SVM_PTRS &&
      param_name != CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM)
    return refuse(API, CL_INVALID_VALUE, "param_name is not a kernel execution property");
  return refuse(API, CL_INVALID_OPERATION, NO_SVM);
}

/* ---- OpenGL and EGL sharing --------------------------------------------- */

/* No SoftGPU context is created from an OpenGL context, so the GL entries
 * taking a context are CL_INVALID_CONTEXT ("not a valid context or not
 * created from an OpenGL context") and no memory object is a GL object. */
static cl_mem CL_API_CALL sg_unsupported_clCreateFromGLBuffer(cl_context context,
                                                              cl_mem_flags flags, cl_GLuint bufobj,
                                                              int *errcode_ret) {
  return refuse_obj(API, errcode_ret, CL_INVALID_CONTEXT, NO_GL);
}

static cl_mem CL_API_CALL
sg_unsupported_clCreateFromGLTexture2D(cl_context context, cl_mem_flags flags, cl_GLenum target,
                                       cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret) {
  return refuse_obj(API, errcode_ret, CL_INVALID_CONTEXT, NO_GL);
}

static cl_mem CL_API_CALL
sg_unsupported_clCreateFromGLTexture3D(cl_context context, cl_mem_flags flags, cl_GLenum target,
                                       cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret) {
  return refuse_obj(API, errcode_ret, CL_INVALID_CONTEXT, NO_GL);
}

static cl_mem CL_API_CALL sg_unsupported_clCreateFromGLTexture(cl_context context,
                                                               cl_mem_flags flags, cl_GLenum target,
                                                               cl_GLint miplevel, cl_GLuint texture,
                                                               cl_int *errcode_ret) {
  return refuse_obj(API, errcode_ret, CL_INVALID_CONTEXT, NO_GL);
}

static cl_mem CL_API_CALL sg_unsupported_clCreateFromGLRenderbuffer(cl_context context,
                                                                    cl_mem_flags flags,
                                                                    cl_GLuint renderbuffer,
                                                                    cl_int *errcode_ret) {
  return refuse_obj(API, errcode_ret, CL_INVALID_CONTEXT, NO_GL);
}

static cl_event CL_API_CALL sg_unsupported_clCreateEventFromGLsyncKHR(cl_context context,
                                                                      cl_GLsync sync,
                                                                      cl_int *errcode_ret) {
  return refuse_obj(API, errcode_ret, CL_INVALID_CONTEXT, NO_GL);
}

static cl_int CL_API_CALL sg_unsupported_clGetGLObjectInfo(cl_mem memobj,
                                                           cl_gl_object_type *gl_object_type,
                                                           cl_GLuint *gl_object_name) {
  if (!sg_valid(memobj, SG_KIND_MEM))
    return refuse(API, CL_INVALID_MEM_OBJECT, "memobj is not a valid memory object");
  return refuse(API, CL_INVALID_GL_OBJECT, "memobj was not created from a GL object");
}

static cl_int CL_API_CALL sg_unsupported_clGetGLTextureInfo(cl_mem memobj,
                                                            cl_gl_texture_info param_name,
                                                            size_t param_value_size,
                                                            void *param_value,
                                                            size_t *param_value_size_ret) {
  if (!sg_valid(memobj, SG_KIND_MEM))
    return refuse(API, CL_INVALID_MEM_OBJECT, "memobj is not a valid memory object");
  return refuse(API, CL_INVALID_GL_OBJECT, "memobj was not created from a GL texture");
}

static cl_int CL_API_CALL sg_unsupported_clEnqueueAcquireGLObjects(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return refuse_enqueue(API, command_queue, CL_INVALID_CONTEXT, NO_GL);
}

static cl_int CL_API_CALL sg_unsupported_clEnqueueReleaseGLObjects(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return refuse_enqueue(API, command_queue, CL_INVALID_CONTEXT, NO_GL);
}

/* SoftGPU names no cl_khr_gl_sharing: it can tell nothing about a GL
 * context. */
static cl_int CL_API_CALL sg_unsupported_clGetGLContextInfoKHR(
    const cl_context_properties *properties, cl_gl_context_info param_name, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret) {
  return refuse(API, CL_INVALID_OPERATION, "SoftGPU does not support OpenGL sharing");
}

static cl_mem CL_API_CALL sg_unsupported_clCreateFromEGLImageKHR(
    cl_context context, CLeglDisplayKHR display, CLeglImageKHR image, cl_mem_flags flags,
    const cl_egl_image_properties_khr *properties, cl_int *errcode_ret) {
  return refuse_create(API, context, errcode_ret, CL_INVALID_OPERATION, NO_EGL);
}

static cl_event CL_API_CALL sg_unsupported_clCreateEventFromEGLSyncKHR(cl_context context,
                                                                       CLeglSyncKHR sync,
                                                                       CLeglDisplayKHR display,
                                                                       cl_int *errcode_ret) {
  return refuse_create(API, context, errcode_ret, CL_INVALID_OPERATION, NO_EGL);
}

static cl_int CL_API_CALL sg_unsupported_clEnqueueAcquireEGLObjectsKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return refuse_enqueue(API, command_queue, CL_INVALID_OPERATION, NO_EGL);
}

static cl_int CL_API_CALL sg_unsupported_clEnqueueReleaseEGLObjectsKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return refuse_enqueue(API, command_queue, CL_INVALID_OPERATION, NO_EGL);
}

const cl_icd_dispatch sg_dispatch = {
    .clGetPlatformIDs = clGetPlatformIDs,
    .clGetPlatformInfo = clGetPlatformInfo,
    .clGetDeviceIDs = clGetDeviceIDs,
    .clGetDeviceInfo = clGetDeviceInfo,
    .clCreateContext = clCreateContext,
    .clCreateContextFromType = clCreateContextFromType,
    .clRetainContext = clRetainContext,
    .clReleaseContext = clReleaseContext,
    .clGetContextInfo = clGetContextInfo,
    .clCreateCommandQueue = clCreateCommandQueue,
    .clRetainCommandQueue = clRetainCommandQueue,
    .clReleaseCommandQueue = clReleaseCommandQueue,
    .clGetCommandQueueInfo = clGetCommandQueueInfo,
    .clSetCommandQueueProperty = sg_unsupported_clSetCommandQueueProperty,
    .clCreateBuffer = clCreateBuffer,
    .clCreateImage2D = clCreateImage2D,
    .clCreateImage3D = clCreateImage3D,
    .clRetainMemObject = clRetainMemObject,
    .clReleaseMemObject = clReleaseMemObject,
    .clGetSupportedImageFormats = clGetSupportedImageFormats,
    .clGetMemObjectInfo = clGetMemObjectInfo,
    .clGetImageInfo = clGetImageInfo,
    .clCreateSampler = clCreateSampler,
    .clRetainSampler = clRetainSampler,
    .clReleaseSampler = clReleaseSampler,
    .clGetSamplerInfo = clGetSamplerInfo,
    .clCreateProgramWithSource = clCreateProgramWithSource,
    .clCreateProgramWithBinary = clCreateProgramWithBinary,
    .clRetainProgram = clRetainProgram,
    .clReleaseProgram = clReleaseProgram,
    .clBuildProgram = clBuildProgram,
    .clUnloadCompiler = clUnloadCompiler,
    .clGetProgramInfo = clGetProgramInfo,
    .clGetProgramBuildInfo = clGetProgramBuildInfo,
    .clCreateKernel = clCreateKernel,
    .clCreateKernelsInProgram = clCreateKernelsInProgram,
    .clRetainKernel = clRetainKernel,
    .clReleaseKernel = clReleaseKernel,
    .clSetKernelArg = clSetKernelArg,
    .clGetKernelInfo = clGetKernelInfo,
    .clGetKernelWorkGroupInfo = clGetKernelWorkGroupInfo,
    .clWaitForEvents = clWaitForEvents,
    .clGetEventInfo = clGetEventInfo,
    .clRetainEvent = clRetainEvent,
    .clReleaseEvent = clReleaseEvent,
    .clGetEventProfilingInfo = clGetEventProfilingInfo,
    .clFlush = clFlush,
    .clFinish = clFinish,
    .clEnqueueReadBuffer = clEnqueueReadBuffer,
    .clEnqueueWriteBuffer = clEnqueueWriteBuffer,
    .clEnqueueCopyBuffer = clEnqueueCopyBuffer,
    .clEnqueueReadImage = clEnqueueReadImage,
    .clEnqueueWriteImage = clEnqueueWriteImage,
    .clEnqueueCopyImage = clEnqueueCopyImage,
    .clEnqueueCopyImageToBuffer = clEnqueueCopyImageToBuffer,
    .clEnqueueCopyBufferToImage = clEnqueueCopyBufferToImage,
    .clEnqueueMapBuffer = clEnqueueMapBuffer,
    .clEnqueueMapImage = clEnqueueMapImage,
    .clEnqueueUnmapMemObject = clEnqueueUnmapMemObject,
    .clEnqueueNDRangeKernel = clEnqueueNDRangeKernel,
    .clEnqueueTask = clEnqueueTask,
    .clEnqueueNativeKernel = sg_unsupported_clEnqueueNativeKernel,
    .clEnqueueMarker = clEnqueueMarker,
    .clEnqueueWaitForEvents = clEnqueueWaitForEvents,
    .clEnqueueBarrier = clEnqueueBarrier,
    .clGetExtensionFunctionAddress = clGetExtensionFunctionAddress,
    .clCreateFromGLBuffer = sg_unsupported_clCreateFromGLBuffer,
    .clCreateFromGLTexture2D = sg_unsupported_clCreateFromGLTexture2D,
    .clCreateFromGLTexture3D = sg_unsupported_clCreateFromGLTexture3D,
    .clCreateFromGLRenderbuffer = sg_unsupported_clCreateFromGLRenderbuffer,
    .clGetGLObjectInfo = sg_unsupported_clGetGLObjectInfo,
    .clGetGLTextureInfo = sg_unsupported_clGetGLTextureInfo,
    .clEnqueueAcquireGLObjects = sg_unsupported_clEnqueueAcquireGLObjects,
    .clEnqueueReleaseGLObjects = sg_unsupported_clEnqueueReleaseGLObjects,
    .clGetGLContextInfoKHR = sg_unsupported_clGetGLContextInfoKHR,
    .clGetDeviceIDsFromD3D10KHR = (void *)sg_unsupported_windows_only,
    .clCreateFromD3D10BufferKHR = (void *)sg_unsupported_windows_only,
    .clCreateFromD3D10Texture2DKHR = (void *)sg_unsupported_windows_only,
    .clCreateFromD3D10Texture3DKHR = (void *)sg_unsupported_windows_only,
    .clEnqueueAcquireD3D10ObjectsKHR = (void *)sg_unsupported_windows_only,
    .clEnqueueReleaseD3D10ObjectsKHR = (void *)sg_unsupported_windows_only,
    .clSetEventCallback = clSetEventCallback,
    .clCreateSubBuffer = clCreateSubBuffer,
    .clSetMemObjectDestructorCallback = clSetMemObjectDestructorCallback,
    .clCreateUserEvent = clCreateUserEvent,
    .clSetUserEventStatus = clSetUserEventStatus,
    .clEnqueueReadBufferRect = clEnqueueReadBufferRect,
    .clEnqueueWriteBufferRect = clEnqueueWriteBufferRect,
    .clEnqueueCopyBufferRect = clEnqueueCopyBufferRect,
    .clCreateSubDevicesEXT = sg_unsupported_clCreateSubDevicesEXT,
    .clRetainDeviceEXT = sg_unsupported_clRetainDeviceEXT,
    .clReleaseDeviceEXT = sg_unsupported_clReleaseDeviceEXT,
    .clCreateEventFromGLsyncKHR = sg_unsupported_clCreateEventFromGLsyncKHR,
    .clCreateSubDevices = clCreateSubDevices,
    .clRetainDevice = clRetainDevice,
    .clReleaseDevice = clReleaseDevice,
    .clCreateImage = clCreateImage,
    .clCreateProgramWithBuiltInKernels = clCreateProgramWithBuiltInKernels,
    .clCompileProgram = clCompileProgram,
    .clLinkProgram = clLinkProgram,
    .clUnloadPlatformCompiler = clUnloadPlatformCompiler,
    .clGetKernelArgInfo = clGetKernelArgInfo,
    .clEnqueueFillBuffer = clEnqueueFillBuffer,
    .clEnqueueFillImage = clEnqueueFillImage,
    .clEnqueueMigrateMemObjects = clEnqueueMigrateMemObjects,
    .clEnqueueMarkerWithWaitList = clEnqueueMarkerWithWaitList,
    .clEnqueueBarrierWithWaitList = clEnqueueBarrierWithWaitList,
    .clGetExtensionFunctionAddressForPlatform = clGetExtensionFunctionAddressForPlatform,
    .clCreateFromGLTexture = sg_unsupported_clCreateFromGLTexture,
    .clGetDeviceIDsFromD3D11KHR = (void *)sg_unsupported_windows_only,
    .clCreateFromD3D11BufferKHR = (void *)sg_unsupported_windows_only,
    .clCreateFromD3D11Texture2DKHR = (void *)sg_unsupported_windows_only,
    .clCreateFromD3D11Texture3DKHR = (void *)sg_unsupported_windows_only,
    .clCreateFromDX9MediaSurfaceKHR = (void *)sg_unsupported_windows_only,
    .clEnqueueAcquireD3D11ObjectsKHR = (void *)sg_unsupported_windows_only,
    .clEnqueueReleaseD3D11ObjectsKHR = (void *)sg_unsupported_windows_only,
    .clGetDeviceIDsFromDX9MediaAdapterKHR = (void *)sg_unsupported_windows_only,
    .clEnqueueAcquireDX9MediaSurfacesKHR = (void *)sg_unsupported_windows_only,
    .clEnqueueReleaseDX9MediaSurfacesKHR = (void *)sg_unsupported_windows_only,
    .clCreateFromEGLImageKHR = sg_unsupported_clCreateFromEGLImageKHR,
    .clEnqueueAcquireEGLObjectsKHR = sg_unsupported_clEnqueueAcquireEGLObjectsKHR,
    .clEnqueueReleaseEGLObjectsKHR = sg_unsupported_clEnqueueReleaseEGLObjectsKHR,
    .clCreateEventFromEGLSyncKHR = sg_unsupported_clCreateEventFromEGLSyncKHR,
    .clCreateCommandQueueWithProperties = clCreateCommandQueueWithProperties,
    .clCreatePipe = sg_unsupported_clCreatePipe,
    .clGetPipeInfo = sg_unsupported_clGetPipeInfo,
    .clSVMAlloc = sg_unsupported_clSVMAlloc,
    .clSVMFree = sg_unsupported_clSVMFree,
    .clEnqueueSVMFree = sg_unsupported_clEnqueueSVMFree,
    .clEnqueueSVMMemcpy = sg_unsupported_clEnqueueSVMMemcpy,
    .clEnqueueSVMMemFill = sg_unsupported_clEnqueueSVMMemFill,
    .clEnqueueSVMMap = sg_unsupported_clEnqueueSVMMap,
    .clEnqueueSVMUnmap = sg_unsupported_clEnqueueSVMUnmap,
    .clCreateSamplerWithProperties = clCreateSamplerWithProperties,
    .clSetKernelArgSVMPointer = sg_unsupported_clSetKernelArgSVMPointer,
    .clSetKernelExecInfo = sg_unsupported_clSetKernelExecInfo,
    .clGetKernelSubGroupInfoKHR = clGetKernelSubGroupInfo,
    .clCloneKernel = clCloneKernel,
    .clCreateProgramWithIL = clCreateProgramWithIL,
    .clEnqueueSVMMigrateMem = sg_unsupported_clEnqueueSVMMigrateMem,
    .clGetDeviceAndHostTimer = clGetDeviceAndHostTimer,
    .clGetHostTimer = clGetHostTimer,
    .clGetKernelSubGroupInfo = clGetKernelSubGroupInfo,
    .clSetDefaultDeviceCommandQueue = sg_unsupported_clSetDefaultDeviceCommandQueue,
    .clSetProgramReleaseCallback = clSetProgramReleaseCallback,
    .clSetProgramSpecializationConstant = clSetProgramSpecializationConstant,
    .clCreateBufferWithProperties = clCreateBufferWithProperties,
    .clCreateImageWithProperties = clCreateImageWithProperties,
    .clSetContextDestructorCallback = clSetContextDestructorCallback,
};
