/* SPDX-License-Identifier: MIT */
/* API tests for the entry points of features the device lacks (icd/
 * sg_dispatch.c: images, pipes, SVM, native kernels, on-device queues, GL
 * sharing, sub-device fission), through the ICD loader: each checks the
 * handles it is given first and then returns the code the OpenCL 3.0 spec
 * gives for the missing feature, as the CTS's api/consistency_* tests expect. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define CL_USE_DEPRECATED_OPENCL_1_0_APIS /* clSetCommandQueueProperty */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS /* clCreateImage2D/3D, cl_ext_device_fission */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_gl.h>

#include "sg_api_fixture.h"

/* A handle of the wrong kind: the loader dispatches it to SoftGPU (it starts
 * with SoftGPU's dispatch table), which must not take it for what it is not. */
#define WRONG(type, handle) ((type)(void *)(handle))

static void test_pipes(void **state) {
  struct fx *f = *state;
  cl_int err = 0;
  assert_null(clCreatePipe(f->ctx, CL_MEM_HOST_NO_ACCESS, 4, 4, NULL, &err));
  assert_int_equal(err, CL_INVALID_OPERATION);
  assert_null(clCreatePipe(WRONG(cl_context, f->q), CL_MEM_HOST_NO_ACCESS, 4, 4, NULL, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
  cl_mem buf = fx_buffer(f, 4, NULL);
  cl_uint u = 7;
  assert_int_equal(clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, sizeof u, &u, NULL),
                   CL_INVALID_MEM_OBJECT);
  assert_int_equal(u, 7);
  clReleaseMemObject(buf);
}

/* CL_DEVICE_SVM_CAPABILITIES is 0: allocation gives NULL, freeing any pointer
 * does nothing, every SVM enqueue on a valid queue is CL_INVALID_OPERATION
 * whatever its pointers (the CTS passes bogus ones). */
static void test_svm(void **state) {
  struct fx *f = *state;
  void *bogus = (void *)(uintptr_t)0xDEAD0000u;
  cl_uint pattern = 0xAAAAAAAAu;
  assert_null(clSVMAlloc(f->ctx, CL_MEM_READ_WRITE, 64, 0));
  clSVMFree(f->ctx, bogus);
  assert_int_equal(clEnqueueSVMMemFill(f->q, bogus, &pattern, sizeof pattern, 64, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueSVMMemcpy(f->q, CL_TRUE, bogus, bogus, 64, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueSVMMap(f->q, CL_TRUE, CL_MAP_READ, bogus, 64, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueSVMUnmap(f->q, bogus, 0, NULL, NULL), CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueSVMMigrateMem(f->q, 1, (const void **)&bogus, NULL, 0, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueSVMFree(f->q, 1, &bogus, NULL, NULL, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  assert_int_equal(
      clEnqueueSVMMemcpy(WRONG(cl_command_queue, f->ctx), CL_TRUE, bogus, bogus, 64, 0, NULL, NULL),
      CL_INVALID_COMMAND_QUEUE);

  cl_program p = fx_build(f, "kernel void k(global int *a) { a[0] = 1; }", NULL);
  cl_kernel k = fx_kernel(p, "k");
  assert_int_equal(clSetKernelArgSVMPointer(k, 0, NULL), CL_INVALID_OPERATION);
  assert_int_equal(clSetKernelArgSVMPointer(k, 1, NULL), CL_INVALID_ARG_INDEX);
  assert_int_equal(clSetKernelArgSVMPointer(WRONG(cl_kernel, p), 0, NULL), CL_INVALID_KERNEL);
  assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL),
                   CL_INVALID_OPERATION);
  cl_bool fine = CL_FALSE;
  assert_int_equal(
      clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof fine, &fine),
      CL_INVALID_OPERATION);
  assert_int_equal(clSetKernelExecInfo(k, 0x7fff, sizeof fine, &fine), CL_INVALID_VALUE);
  assert_int_equal(clSetKernelExecInfo(WRONG(cl_kernel, p), CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL),
                   CL_INVALID_KERNEL);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

static void CL_CALLBACK native_fn(void *args) {
  (void)args;
  fail_msg("a native kernel ran on a device without CL_EXEC_NATIVE_KERNEL");
}

/* Native kernels, on-device queues, the 1.0 queue-property switch and
 * device fission: what the device cannot do, after the handles. */
static void test_execution_features(void **state) {
  struct fx *f = *state;
  assert_int_equal(clEnqueueNativeKernel(f->q, native_fn, NULL, 0, 0, NULL, NULL, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueNativeKernel(WRONG(cl_command_queue, f->ctx), native_fn, NULL, 0, 0,
                                         NULL, NULL, 0, NULL, NULL),
                   CL_INVALID_COMMAND_QUEUE);

  assert_int_equal(clSetDefaultDeviceCommandQueue(f->ctx, f->device, NULL), CL_INVALID_OPERATION);
  assert_int_equal(clSetDefaultDeviceCommandQueue(WRONG(cl_context, f->q), f->device, NULL),
                   CL_INVALID_CONTEXT);
  assert_int_equal(clSetDefaultDeviceCommandQueue(f->ctx, WRONG(cl_device_id, f->q), NULL),
                   CL_INVALID_DEVICE);

  cl_command_queue_properties old = 0;
  assert_int_equal(clSetCommandQueueProperty(f->q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old),
                   CL_INVALID_OPERATION);
  assert_int_equal(clSetCommandQueueProperty(f->q, (cl_command_queue_properties)-1, CL_TRUE, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clSetCommandQueueProperty(WRONG(cl_command_queue, f->ctx),
                                             CL_QUEUE_PROFILING_ENABLE, CL_TRUE, NULL),
                   CL_INVALID_COMMAND_QUEUE);

  /* The root device cannot be partitioned; retaining it only validates it. */
  const cl_device_partition_property_ext equally[] = {CL_DEVICE_PARTITION_EQUALLY_EXT, 1,
                                                      CL_PROPERTIES_LIST_END_EXT};
  cl_uint n = 7;
  assert_int_equal(clCreateSubDevicesEXT(f->device, equally, 0, NULL, &n), CL_INVALID_VALUE);
  assert_int_equal(clCreateSubDevicesEXT(WRONG(cl_device_id, f->ctx), equally, 0, NULL, &n),
                   CL_INVALID_DEVICE);
  assert_int_equal(clRetainDeviceEXT(f->device), CL_SUCCESS);
  assert_int_equal(clReleaseDeviceEXT(f->device), CL_SUCCESS);
  assert_int_equal(clRetainDeviceEXT(WRONG(cl_device_id, f->ctx)), CL_INVALID_DEVICE);
}

/* No SoftGPU context comes from an OpenGL context, and no memory object
 * from a GL object. */
static void test_gl_sharing(void **state) {
  struct fx *f = *state;
  cl_int err = 0;
  assert_null(clCreateFromGLBuffer(f->ctx, CL_MEM_READ_WRITE, 1, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
  assert_null(clCreateFromGLTexture(f->ctx, CL_MEM_READ_WRITE, 0x0DE1, 0, 1, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
  assert_null(clCreateFromGLRenderbuffer(f->ctx, CL_MEM_READ_WRITE, 1, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
  cl_mem buf = fx_buffer(f, 4, NULL);
  cl_gl_object_type type;
  cl_GLuint name;
  assert_int_equal(clGetGLObjectInfo(buf, &type, &name), CL_INVALID_GL_OBJECT);
  assert_int_equal(clGetGLObjectInfo(WRONG(cl_mem, f->ctx), &type, &name), CL_INVALID_MEM_OBJECT);
  cl_GLint level;
  assert_int_equal(clGetGLTextureInfo(buf, CL_GL_MIPMAP_LEVEL, sizeof level, &level, NULL),
                   CL_INVALID_GL_OBJECT);
  assert_int_equal(clEnqueueAcquireGLObjects(f->q, 1, &buf, 0, NULL, NULL), CL_INVALID_CONTEXT);
  assert_int_equal(clEnqueueReleaseGLObjects(f->q, 1, &buf, 0, NULL, NULL), CL_INVALID_CONTEXT);
  assert_int_equal(clEnqueueAcquireGLObjects(WRONG(cl_command_queue, buf), 1, &buf, 0, NULL, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  clReleaseMemObject(buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pipes),
      cmocka_unit_test(test_svm),        cmocka_unit_test(test_execution_features),
      cmocka_unit_test(test_gl_sharing),
  };
  return cmocka_run_group_tests(tests, fx_setup, fx_teardown);
}
