/* SPDX-License-Identifier: MIT */
/* API tests, memory family (OpenCL 3.0 spec 5.2 "Buffer Objects", 5.5
 * "Memory Objects" (map, unmap, migrate, info, destructors), 5.3/5.9 images
 * and samplers refused, 5.6 SVM absent), through the ICD loader. Every
 * transfer is checked against the same operation done on host arrays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateSampler is tested */
#include <CL/cl.h>
#include <stdbool.h>

#include "sg_info_table.h"

static cl_platform_id plat;
static cl_device_id dev;
static cl_context ctx;
static cl_command_queue q;

static int setup(void **state) {
  (void)state;
  cl_int err;
  if (clGetPlatformIDs(1, &plat, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
    return -1;
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  return err == CL_SUCCESS ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  clReleaseCommandQueue(q);
  return clReleaseContext(ctx) == CL_SUCCESS ? 0 : -1;
}

static cl_mem make(cl_mem_flags flags, size_t size, void *host) {
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, flags, size, host, &err);
  assert_int_equal(err, CL_SUCCESS);
  return m;
}

static cl_int create_err(cl_mem_flags flags, size_t size, void *host) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(ctx, flags, size, host, &err);
  if (m)
    clReleaseMemObject(m);
  return err;
}

/* 5.2.1 clCreateBuffer: host-pointer flags and their semantics. */
static void test_create_host_ptr_flags(void **state) {
  (void)state;
  int host[16], out[16];
  for (int i = 0; i < 16; i++)
    host[i] = i + 100;
  /* COPY_HOST_PTR copies now: later host changes do not reach the buffer. */
  cl_mem copy = make(CL_MEM_COPY_HOST_PTR, sizeof host, host);
  host[0] = -1;
  assert_int_equal(clEnqueueReadBuffer(q, copy, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(out[0], 100);
  assert_int_equal(out[15], 115);
  void *hp = (void *)1;
  assert_int_equal(clGetMemObjectInfo(copy, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
  assert_null(hp);
  clReleaseMemObject(copy);

  /* USE_HOST_PTR aliases the application's memory. */
  cl_mem use = make(CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY, sizeof host, host);
  int seven = 7;
  assert_int_equal(
      clEnqueueWriteBuffer(q, use, CL_TRUE, 4 * sizeof(int), sizeof seven, &seven, 0, NULL, NULL),
      CL_SUCCESS);
  assert_int_equal(host[4], 7);
  assert_int_equal(clGetMemObjectInfo(use, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
  assert_ptr_equal(hp, host);
  cl_mem_flags flags;
  assert_int_equal(clGetMemObjectInfo(use, CL_MEM_FLAGS, sizeof flags, &flags, NULL), CL_SUCCESS);
  assert_int_equal(flags, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY);
  clReleaseMemObject(use);

  /* ALLOC_HOST_PTR and default flags start zeroed here; READ_WRITE is the default. */
  cl_mem alloc = make(CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, sizeof host, host);
  clReleaseMemObject(alloc);
  cl_mem plain = make(0, 64, NULL);
  assert_int_equal(clGetMemObjectInfo(plain, CL_MEM_FLAGS, sizeof flags, &flags, NULL), CL_SUCCESS);
  assert_int_equal(flags, CL_MEM_READ_WRITE);
  clReleaseMemObject(plain);
}

/* 5.2.1 clCreateBuffer errors. */
static void test_create_errors(void **state) {
  (void)state;
  int host[4];
  cl_ulong max;
  assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max, &max, NULL),
                   CL_SUCCESS);
  assert_int_equal(create_err(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 16, NULL), CL_INVALID_VALUE);
  assert_int_equal(create_err(CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, 16, NULL), CL_INVALID_VALUE);
  assert_int_equal(create_err(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 16, host),
                   CL_INVALID_VALUE);
  assert_int_equal(create_err(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 16, host),
                   CL_INVALID_VALUE);
  assert_int_equal(create_err(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 16, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(create_err((cl_mem_flags)1 << 40, 16, NULL), CL_INVALID_VALUE);
  assert_int_equal(create_err(0, 0, NULL), CL_INVALID_BUFFER_SIZE);
  assert_int_equal(create_err(0, max + 1, NULL), CL_INVALID_BUFFER_SIZE);
  assert_int_equal(create_err(CL_MEM_USE_HOST_PTR, 16, NULL), CL_INVALID_HOST_PTR);
  assert_int_equal(create_err(CL_MEM_COPY_HOST_PTR, 16, NULL), CL_INVALID_HOST_PTR);
  assert_int_equal(create_err(CL_MEM_READ_WRITE, 16, host), CL_INVALID_HOST_PTR);
  cl_int err;
  assert_null(clCreateBuffer((cl_context)dev, 0, 16, NULL, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
}

/* 5.2.1 clCreateBufferWithProperties: only the empty list, returned as given. */
static void test_with_properties(void **state) {
  (void)state;
  cl_int err;
  cl_mem_properties empty[] = {0}, bad[] = {0x7fff, 1, 0};
  cl_mem m = clCreateBufferWithProperties(ctx, empty, 0, 32, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  size_t size;
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &size), CL_SUCCESS);
  assert_int_equal(size, sizeof empty);
  clReleaseMemObject(m);
  m = make(0, 32, NULL);
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &size), CL_SUCCESS);
  assert_int_equal(size, 0);
  clReleaseMemObject(m);
  assert_null(clCreateBufferWithProperties(ctx, bad, 0, 32, NULL, &err));
  assert_int_equal(err, CL_INVALID_PROPERTY);
  /* A NULL list is no list: CL_MEM_PROPERTIES has size 0, as for clCreateBuffer. */
  m = clCreateBufferWithProperties(ctx, NULL, 0, 32, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &size), CL_SUCCESS);
  assert_int_equal(size, 0);
  clReleaseMemObject(m);
  /* The other arguments are checked as for clCreateBuffer. */
  assert_null(clCreateBufferWithProperties(ctx, empty, 0, 0, NULL, &err));
  assert_int_equal(err, CL_INVALID_BUFFER_SIZE);
  assert_null(clCreateBufferWithProperties(ctx, empty, CL_MEM_USE_HOST_PTR, 32, NULL, &err));
  assert_int_equal(err, CL_INVALID_HOST_PTR);
  assert_null(clCreateBufferWithProperties((cl_context)q, empty, 0, 32, NULL, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
}

/* 5.2.2 and 5.5.2: a blocking read, write or map whose wait list holds a
 * failed event returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST and
 * leaves the host memory alone. */
static void test_failed_wait_list(void **state) {
  (void)state;
  cl_int err;
  int host[4] = {1, 2, 3, 4}, out[4] = {9, 9, 9, 9};
  cl_mem m = make(CL_MEM_COPY_HOST_PTR, sizeof host, host);
  cl_event failed = clCreateUserEvent(ctx, &err);
  assert_int_equal(clSetUserEventStatus(failed, -1), CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 1, &failed, NULL),
                   CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  assert_int_equal(out[0], 9);
  assert_int_equal(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof out, out, 1, &failed, NULL),
                   CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  assert_null(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, 4, 1, &failed, NULL, &err));
  assert_int_equal(err, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_memory_equal(out, host, sizeof host);
  clReleaseEvent(failed);
  clReleaseMemObject(m);
}

/* 5.5.5 clGetMemObjectInfo, retain and release. */
static void test_info(void **state) {
  (void)state;
  cl_mem m = make(CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY, 256, NULL);
  cl_mem_object_type type;
  size_t size, offset;
  cl_uint rc, maps;
  cl_context c;
  cl_mem assoc = (cl_mem)1;
  cl_bool svm = CL_TRUE;
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
  assert_int_equal(type, CL_MEM_OBJECT_BUFFER);
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL), CL_SUCCESS);
  assert_int_equal(size, 256);
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
  assert_ptr_equal(c, ctx);
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL),
                   CL_SUCCESS);
  assert_null(assoc);
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof offset, &offset, NULL), CL_SUCCESS);
  assert_int_equal(offset, 0);
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof maps, &maps, NULL), CL_SUCCESS);
  assert_int_equal(maps, 0);
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof svm, &svm, NULL),
                   CL_SUCCESS);
  assert_false(svm);
  assert_int_equal(clRetainMemObject(m), CL_SUCCESS);
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof rc, &rc, NULL), CL_SUCCESS);
  assert_int_equal(rc, 2);
  assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
  assert_int_equal(clGetMemObjectInfo(m, 0x7fff, 0, NULL, NULL), CL_INVALID_VALUE);
  char small[2];
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof small, small, NULL), CL_INVALID_VALUE);
  assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
  cl_mem not_mem = (cl_mem)q;
  assert_int_equal(clGetMemObjectInfo(not_mem, CL_MEM_SIZE, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clRetainMemObject(not_mem), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clReleaseMemObject(not_mem), CL_INVALID_MEM_OBJECT);
}

static cl_int mem_info(void *m, cl_uint name, size_t size, void *value, size_t *ret) {
  return clGetMemObjectInfo(m, name, size, value, ret);
}

/* 5.5.5 clGetMemObjectInfo: every name of OpenCL 3.0, on a buffer, a
 * sub-buffer and a buffer with properties. */
static void test_info_table(void **state) {
  (void)state;
  static const struct sg_info_row rows[] = {
      SG_ROW(CL_MEM_TYPE, cl_mem_object_type),
      SG_ROW(CL_MEM_FLAGS, cl_mem_flags),
      SG_ROW(CL_MEM_SIZE, size_t),
      SG_ROW(CL_MEM_HOST_PTR, void *),
      SG_ROW(CL_MEM_MAP_COUNT, cl_uint),
      SG_ROW(CL_MEM_REFERENCE_COUNT, cl_uint),
      SG_ROW(CL_MEM_CONTEXT, cl_context),
      SG_ROW(CL_MEM_ASSOCIATED_MEMOBJECT, cl_mem),
      SG_ROW(CL_MEM_OFFSET, size_t),
      SG_ROW(CL_MEM_USES_SVM_POINTER, cl_bool),
      SG_ROW_ARRAY(CL_MEM_PROPERTIES, cl_mem_properties),
  };
  cl_int err;
  cl_mem_properties empty[] = {0};
  cl_mem m = make(0, 1024, NULL);
  cl_buffer_region r = {128, 256};
  cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_mem wp = clCreateBufferWithProperties(ctx, empty, 0, 64, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_mem objs[] = {m, sub, wp};
  for (size_t i = 0; i < 3; i++)
    sg_check_info_table(mem_info, objs[i], rows, sizeof rows / sizeof rows[0]);
  clReleaseMemObject(sub), clReleaseMemObject(m), clReleaseMemObject(wp);
}

/* 5.2.1 clCreateSubBuffer flags: what a sub-buffer may ask for given its
 * parent's flags, and what it inherits (CL_MEM_FLAGS returns the result). */
static void test_sub_buffer_flags(void **state) {
  (void)state;
  static const struct {
    cl_mem_flags parent, sub;
    cl_int err;
    cl_mem_flags result;
  } cases[] = {
      /* Device access: inherited when absent; may narrow READ_WRITE only. */
      {CL_MEM_READ_WRITE, 0, CL_SUCCESS, CL_MEM_READ_WRITE},
      {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_SUCCESS, CL_MEM_READ_ONLY},
      {CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_SUCCESS, CL_MEM_WRITE_ONLY},
      {CL_MEM_WRITE_ONLY, 0, CL_SUCCESS, CL_MEM_WRITE_ONLY},
      {CL_MEM_WRITE_ONLY, CL_MEM_WRITE_ONLY, CL_SUCCESS, CL_MEM_WRITE_ONLY},
      {CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY, CL_INVALID_VALUE, 0},
      {CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE, CL_INVALID_VALUE, 0},
      {CL_MEM_READ_ONLY, 0, CL_SUCCESS, CL_MEM_READ_ONLY},
      {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_INVALID_VALUE, 0},
      {CL_MEM_READ_ONLY, CL_MEM_READ_WRITE, CL_INVALID_VALUE, 0},
      /* Host access: inherited when absent; contradictions refused. */
      {CL_MEM_HOST_READ_ONLY, 0, CL_SUCCESS, CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY},
      {CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_READ_ONLY, CL_SUCCESS,
       CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY},
      {CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY, CL_INVALID_VALUE, 0},
      {CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, CL_INVALID_VALUE, 0},
      {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY, CL_INVALID_VALUE, 0},
      {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_WRITE_ONLY, CL_INVALID_VALUE, 0},
      {CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_NO_ACCESS, CL_SUCCESS,
       CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS},
      {0, CL_MEM_HOST_NO_ACCESS, CL_SUCCESS, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS},
      /* Host pointer flags: never in the sub-buffer's flags, inherited. */
      {CL_MEM_ALLOC_HOST_PTR, 0, CL_SUCCESS, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR},
      {CL_MEM_COPY_HOST_PTR, 0, CL_SUCCESS, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR},
      {CL_MEM_USE_HOST_PTR, 0, CL_SUCCESS, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR},
      {0, CL_MEM_USE_HOST_PTR, CL_INVALID_VALUE, 0},
      {0, CL_MEM_ALLOC_HOST_PTR, CL_INVALID_VALUE, 0},
      {0, CL_MEM_COPY_HOST_PTR, CL_INVALID_VALUE, 0},
      /* Conflicting or unknown bits in the sub-buffer's own flags. */
      {0, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, CL_INVALID_VALUE, 0},
      {0, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, CL_INVALID_VALUE, 0},
      {0, (cl_mem_flags)1 << 40, CL_INVALID_VALUE, 0},
  };
  static unsigned char host[512];
  cl_buffer_region r = {128, 128};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    bool ptr = cases[i].parent & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    cl_mem parent = make(cases[i].parent, sizeof host, ptr ? host : NULL);
    cl_int err = 12345;
    cl_mem sub = clCreateSubBuffer(parent, cases[i].sub, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    if (err != cases[i].err)
      fail_msg("case %zu: got %d, expected %d", i, err, cases[i].err);
    if (sub) {
      /* What a sub-buffer inherits is enforced on it, too. */
      char byte;
      bool may_read = !(cases[i].result & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
      assert_int_equal(clEnqueueReadBuffer(q, sub, CL_TRUE, 0, 1, &byte, 0, NULL, NULL),
                       may_read ? CL_SUCCESS : CL_INVALID_OPERATION);
      cl_mem_flags flags;
      assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_FLAGS, sizeof flags, &flags, NULL),
                       CL_SUCCESS);
      if (flags != cases[i].result)
        fail_msg("case %zu: flags 0x%llx, expected 0x%llx", i, (unsigned long long)flags,
                 (unsigned long long)cases[i].result);
      clReleaseMemObject(sub);
    } else {
      assert_int_not_equal(err, CL_SUCCESS);
    }
    clReleaseMemObject(parent);
  }
}

/* 5.2.1 clCreateSubBuffer: a window on the parent, flags inherited or
 * narrowed, and every error the spec lists. */
static void test_sub_buffer(void **state) {
  (void)state;
  cl_uint align_bits;
  assert_int_equal(
      clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL),
      CL_SUCCESS);
  size_t align = align_bits / 8;
  unsigned char host[1024];
  for (int i = 0; i < 1024; i++)
    host[i] = (unsigned char)i;
  cl_mem parent =
      make(CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, sizeof host, host);
  cl_buffer_region r = {align, 2 * align};
  cl_int err;
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  assert_int_equal(err, CL_SUCCESS);
  cl_mem_flags flags;
  assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_FLAGS, sizeof flags, &flags, NULL), CL_SUCCESS);
  assert_int_equal(flags, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY);
  cl_mem assoc;
  size_t offset, size;
  void *hp;
  assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL),
                   CL_SUCCESS);
  assert_ptr_equal(assoc, parent);
  assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof offset, &offset, NULL),
                   CL_SUCCESS);
  assert_int_equal(offset, align);
  assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof size, &size, NULL), CL_SUCCESS);
  assert_int_equal(size, 2 * align);
  assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
  assert_ptr_equal(hp, host + align);
  unsigned char out[4];
  assert_int_equal(clEnqueueReadBuffer(q, sub, CL_TRUE, 1, sizeof out, out, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_memory_equal(out, host + align + 1, sizeof out);

  /* Errors. */
  cl_buffer_region misaligned = {align / 2, 16}, outside = {align, sizeof host}, empty = {0, 0};
  assert_null(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned, &err));
  assert_int_equal(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
  assert_null(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &outside, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &empty, &err));
  assert_int_equal(err, CL_INVALID_BUFFER_SIZE);
  assert_null(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateSubBuffer(parent, 0, 0x7fff, &r, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
  assert_int_equal(err, CL_INVALID_VALUE); /* parent is read-only */
  assert_null(
      clCreateSubBuffer(parent, CL_MEM_HOST_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
  assert_int_equal(err, CL_INVALID_VALUE); /* parent is host read-only */
  assert_null(
      clCreateSubBuffer(parent, CL_MEM_COPY_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  cl_buffer_region r0 = {0, 16};
  assert_null(clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err));
  assert_int_equal(err, CL_INVALID_MEM_OBJECT); /* no sub-buffer of a sub-buffer */

  /* The sub-buffer keeps its parent's memory alive. */
  assert_int_equal(clReleaseMemObject(parent), CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(q, sub, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_memory_equal(out, host + align, sizeof out);
  assert_int_equal(clReleaseMemObject(sub), CL_SUCCESS);
}

static int order[4], calls;

static void CL_CALLBACK destructor(cl_mem m, void *user_data) {
  (void)m;
  order[calls++] = *(int *)user_data;
}

/* 5.5.4 clSetMemObjectDestructorCallback: reverse order of registration,
 * once the object is gone (here after a pending command let go of it). */
static void test_destructor_callbacks(void **state) {
  (void)state;
  static int one = 1, two = 2;
  calls = 0;
  cl_int err;
  cl_mem m = make(0, 64, NULL);
  assert_int_equal(clSetMemObjectDestructorCallback(m, destructor, &one), CL_SUCCESS);
  assert_int_equal(clSetMemObjectDestructorCallback(m, destructor, &two), CL_SUCCESS);
  assert_int_equal(clSetMemObjectDestructorCallback(m, NULL, NULL), CL_INVALID_VALUE);
  cl_event gate = clCreateUserEvent(ctx, &err);
  char byte = 1;
  assert_int_equal(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, 1, &byte, 1, &gate, NULL), CL_SUCCESS);
  assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
  assert_int_equal(calls, 0);
  /* Released by the application: invalid, though the write still holds it. */
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_SIZE, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  assert_int_equal(clSetMemObjectDestructorCallback(m, destructor, &one), CL_INVALID_MEM_OBJECT);
  clSetUserEventStatus(gate, CL_COMPLETE);
  assert_int_equal(clFinish(q), CL_SUCCESS);
  assert_int_equal(calls, 2);
  assert_int_equal(order[0], 2);
  assert_int_equal(order[1], 1);
  clReleaseEvent(gate);
}

/* 5.2.2 read, write, copy and fill, plain and rectangular, against host
 * reference arrays. */
static void test_transfers(void **state) {
  (void)state;
  enum { N = 256 };
  unsigned char ref[N], out[N], src[N];
  for (int i = 0; i < N; i++)
    src[i] = (unsigned char)(i * 7 + 1), ref[i] = 0;
  cl_mem a = make(0, N, NULL), b = make(0, N, NULL);
  assert_int_equal(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, N, src, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueCopyBuffer(q, a, b, 10, 100, 50, 0, NULL, NULL), CL_SUCCESS);
  memcpy(ref + 100, src + 10, 50);
  int pattern = 0x11223344;
  assert_int_equal(clEnqueueFillBuffer(q, b, &pattern, sizeof pattern, 200, 40, 0, NULL, NULL),
                   CL_SUCCESS);
  for (int i = 200; i < 240; i += 4)
    memcpy(ref + i, &pattern, 4);
  assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(out, ref, N);

  /* Rect: a 3x4x2 box of a 16-byte-row, 64-byte-slice layout. */
  size_t borg[3] = {2, 1, 1}, horg[3] = {1, 0, 0}, region[3] = {3, 4, 2};
  unsigned char host[2][5][8];
  memset(host, 0, sizeof host);
  assert_int_equal(clEnqueueReadBufferRect(q, a, CL_TRUE, borg, horg, region, 16, 64, 8, 40, host,
                                           0, NULL, NULL),
                   CL_SUCCESS);
  for (size_t z = 0; z < 2; z++)
    for (size_t y = 0; y < 4; y++)
      for (size_t x = 0; x < 3; x++)
        assert_int_equal(host[z][y][x + 1], src[(z + 1) * 64 + (y + 1) * 16 + x + 2]);
  memcpy(ref, src, N);
  for (size_t z = 0; z < 2; z++)
    for (size_t y = 0; y < 4; y++)
      for (size_t x = 0; x < 3; x++)
        host[z][y][x + 1] = (unsigned char)(200 + x + 3 * y + 12 * z),
                       ref[(z + 1) * 64 + (y + 1) * 16 + x + 2] = host[z][y][x + 1];
  assert_int_equal(clEnqueueWriteBufferRect(q, a, CL_TRUE, borg, horg, region, 16, 64, 8, 40, host,
                                            0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(q, a, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(out, ref, N);
  /* Copy rect a -> b with different pitches on each side. */
  size_t sorg[3] = {0, 0, 0}, dorg[3] = {1, 2, 0}, reg2[3] = {4, 3, 2};
  unsigned char bref[N];
  assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, bref, 0, NULL, NULL), CL_SUCCESS);
  for (size_t z = 0; z < 2; z++)
    for (size_t y = 0; y < 3; y++)
      for (size_t x = 0; x < 4; x++)
        bref[z * 100 + (y + 2) * 10 + x + 1] = ref[z * 64 + y * 16 + x];
  assert_int_equal(
      clEnqueueCopyBufferRect(q, a, b, sorg, dorg, reg2, 16, 64, 10, 100, 0, NULL, NULL),
      CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
  assert_memory_equal(out, bref, N);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

/* 5.2.2 errors of the transfer calls. */
static void test_transfer_errors(void **state) {
  (void)state;
  cl_int err;
  char host[64];
  cl_mem m = make(0, 64, NULL);
  assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 60, 8, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 8, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 65, host, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 8, host, 1, NULL, NULL),
                   CL_INVALID_EVENT_WAIT_LIST);
  assert_int_equal(
      clEnqueueReadBuffer((cl_command_queue)ctx, m, CL_TRUE, 0, 8, host, 0, NULL, NULL),
      CL_INVALID_COMMAND_QUEUE);
  assert_int_equal(clEnqueueReadBuffer(q, (cl_mem)q, CL_TRUE, 0, 8, host, 0, NULL, NULL),
                   CL_INVALID_MEM_OBJECT);
  /* CL_INVALID_CONTEXT: buffer and queue of different contexts. */
  cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_mem foreign = clCreateBuffer(other, 0, 64, NULL, &err);
  assert_int_equal(clEnqueueReadBuffer(q, foreign, CL_TRUE, 0, 8, host, 0, NULL, NULL),
                   CL_INVALID_CONTEXT);
  assert_int_equal(clEnqueueCopyBuffer(q, m, foreign, 0, 0, 8, 0, NULL, NULL), CL_INVALID_CONTEXT);
  clReleaseMemObject(foreign);
  clReleaseContext(other);
  /* Host access flags: CL_INVALID_OPERATION. */
  cl_mem no_read = make(CL_MEM_HOST_WRITE_ONLY, 64, NULL),
         no_write = make(CL_MEM_HOST_READ_ONLY, 64, NULL),
         none = make(CL_MEM_HOST_NO_ACCESS, 64, NULL);
  assert_int_equal(clEnqueueReadBuffer(q, no_read, CL_TRUE, 0, 8, host, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueWriteBuffer(q, no_write, CL_TRUE, 0, 8, host, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueReadBuffer(q, none, CL_TRUE, 0, 8, host, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueWriteBuffer(q, none, CL_TRUE, 0, 8, host, 0, NULL, NULL),
                   CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueCopyBuffer(q, none, no_read, 0, 0, 8, 0, NULL, NULL),
                   CL_SUCCESS); /* device side */
  /* Copy: bounds and overlap. */
  assert_int_equal(clEnqueueCopyBuffer(q, m, m, 0, 8, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  assert_int_equal(clEnqueueCopyBuffer(q, m, m, 0, 16, 16, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueCopyBuffer(q, m, none, 60, 0, 8, 0, NULL, NULL), CL_INVALID_VALUE);
  cl_buffer_region r1 = {0, 128}, r2 = {128, 128};
  cl_mem big = make(0, 512, NULL);
  cl_mem s1 = clCreateSubBuffer(big, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
  cl_mem s2 = clCreateSubBuffer(big, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
  assert_int_equal(clEnqueueCopyBuffer(q, s1, s2, 0, 0, 128, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueCopyBuffer(q, s1, big, 0, 64, 64, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueCopyBuffer(q, s1, big, 0, 32, 64, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  assert_int_equal(clEnqueueCopyBuffer(q, s2, s1, 0, 0, 64, 0, NULL, NULL), CL_SUCCESS);
  clReleaseMemObject(s1), clReleaseMemObject(s2), clReleaseMemObject(big);
  /* Rect: zero region, short pitches, same-buffer pitch mismatch, overlap. */
  size_t o[3] = {0, 0, 0}, o2[3] = {4, 0, 0}, zero_reg[3] = {4, 0, 1}, reg[3] = {4, 2, 1};
  assert_int_equal(
      clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, zero_reg, 8, 16, 8, 16, host, 0, NULL, NULL),
      CL_INVALID_VALUE);
  assert_int_equal(
      clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, reg, 2, 0, 0, 0, host, 0, NULL, NULL),
      CL_INVALID_VALUE);
  assert_int_equal(
      clEnqueueReadBufferRect(q, m, CL_TRUE, o, o, reg, 8, 12, 0, 0, host, 0, NULL, NULL),
      CL_INVALID_VALUE); /* slice pitch not a multiple of the row pitch */
  size_t far[3] = {0, 0, 4};
  assert_int_equal(
      clEnqueueReadBufferRect(q, m, CL_TRUE, far, o, reg, 8, 16, 0, 0, host, 0, NULL, NULL),
      CL_INVALID_VALUE);
  assert_int_equal(clEnqueueCopyBufferRect(q, m, m, o, o2, reg, 8, 16, 16, 32, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  assert_int_equal(clEnqueueCopyBufferRect(q, m, m, o, o2, reg, 16, 32, 16, 32, 0, NULL, NULL),
                   CL_SUCCESS);
  size_t o3[3] = {2, 1, 0};
  assert_int_equal(clEnqueueCopyBufferRect(q, m, m, o, o3, reg, 16, 32, 16, 32, 0, NULL, NULL),
                   CL_MEM_COPY_OVERLAP);
  /* Fill: pattern size and alignment. */
  int pat = 1;
  assert_int_equal(clEnqueueFillBuffer(q, m, &pat, 3, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueFillBuffer(q, m, &pat, 4, 2, 12, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueFillBuffer(q, m, NULL, 4, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueFillBuffer(q, m, &pat, 4, 60, 8, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clFinish(q), CL_SUCCESS);
  clReleaseMemObject(no_read), clReleaseMemObject(no_write), clReleaseMemObject(none);
  clReleaseMemObject(m);
}

/* 5.5.2 map and unmap: a pointer into the buffer's host memory (the
 * application's with CL_MEM_USE_HOST_PTR); errors per the spec. */
static void test_map(void **state) {
  (void)state;
  cl_int err;
  int host[32];
  for (int i = 0; i < 32; i++)
    host[i] = i;
  cl_mem m = make(CL_MEM_USE_HOST_PTR, sizeof host, host);
  int *p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 8 * sizeof(int),
                              4 * sizeof(int), 0, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_ptr_equal(p, host + 8);
  cl_uint maps;
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof maps, &maps, NULL), CL_SUCCESS);
  assert_int_equal(maps, 1);
  p[0] = 99;
  cl_event unmap;
  assert_int_equal(clEnqueueUnmapMemObject(q, m, p, 0, NULL, &unmap), CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &unmap), CL_SUCCESS);
  clReleaseEvent(unmap);
  int out;
  assert_int_equal(
      clEnqueueReadBuffer(q, m, CL_TRUE, 8 * sizeof(int), sizeof out, &out, 0, NULL, NULL),
      CL_SUCCESS);
  assert_int_equal(out, 99);
  assert_int_equal(clEnqueueUnmapMemObject(q, m, host, 0, NULL, NULL),
                   CL_INVALID_VALUE); /* not mapped */
  int elsewhere;
  assert_int_equal(clEnqueueUnmapMemObject(q, m, &elsewhere, 0, NULL, NULL), CL_INVALID_VALUE);

  assert_null(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 120, 16, 0, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 4,
                                 0, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  assert_null(clEnqueueMapBuffer(q, m, CL_TRUE, (cl_map_flags)1 << 20, 0, 4, 0, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_VALUE);
  cl_mem wo = make(CL_MEM_HOST_WRITE_ONLY, 64, NULL), ro = make(CL_MEM_HOST_READ_ONLY, 64, NULL);
  assert_null(clEnqueueMapBuffer(q, wo, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_OPERATION);
  assert_null(clEnqueueMapBuffer(q, ro, CL_TRUE, CL_MAP_WRITE, 0, 4, 0, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_OPERATION);
  void *w =
      clEnqueueMapBuffer(q, wo, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 4, 0, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clEnqueueUnmapMemObject(q, wo, w, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clFinish(q), CL_SUCCESS);
  clReleaseMemObject(wo), clReleaseMemObject(ro), clReleaseMemObject(m);
}

/* 5.2.2 rect read/write/copy with every pitch left 0: row pitch becomes
 * region[0], slice pitch region[1] x row pitch, on both sides. */
static void test_rect_default_pitches(void **state) {
  (void)state;
  enum { N = 512 };
  unsigned char src[N], out[N], ref[N];
  for (int i = 0; i < N; i++)
    src[i] = (unsigned char)(i * 13 + 5);
  cl_mem a = make(CL_MEM_COPY_HOST_PTR, N, src), b = make(0, N, NULL);
  const size_t region[3] = {5, 3, 2}, borg[3] = {1, 2, 1}, horg[3] = {2, 1, 1}, zero[3] = {0};
  /* Tight layout: row 5 bytes, slice 15 bytes, both in the buffer and on the host. */
  memset(out, 0, N);
  assert_int_equal(
      clEnqueueReadBufferRect(q, a, CL_TRUE, borg, horg, region, 0, 0, 0, 0, out, 0, NULL, NULL),
      CL_SUCCESS);
  memset(ref, 0, N);
  for (size_t z = 0; z < 2; z++)
    for (size_t y = 0; y < 3; y++)
      for (size_t x = 0; x < 5; x++)
        ref[(z + 1) * 15 + (y + 1) * 5 + x + 2] = src[(z + 1) * 15 + (y + 2) * 5 + x + 1];
  assert_memory_equal(out, ref, N);
  /* Write back into b with the same defaults, then read all of b. */
  assert_int_equal(
      clEnqueueWriteBufferRect(q, b, CL_TRUE, zero, zero, region, 0, 0, 0, 0, src, 0, NULL, NULL),
      CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
  memset(ref, 0, N);
  memcpy(ref, src, 30); /* a tight 5x3x2 box is 30 contiguous bytes */
  assert_memory_equal(out, ref, N);
  /* Copy rect with default pitches on both sides. */
  assert_int_equal(clEnqueueCopyBufferRect(q, a, b, borg, zero, region, 0, 0, 0, 0, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
  for (size_t z = 0; z < 2; z++)
    for (size_t y = 0; y < 3; y++)
      for (size_t x = 0; x < 5; x++)
        ref[z * 15 + y * 5 + x] = src[(z + 1) * 15 + (y + 2) * 5 + x + 1];
  assert_memory_equal(out, ref, N);

  /* Pitch errors, each side (5.2.2): row pitch < region[0], slice pitch <
   * region[1] x row pitch or not a multiple of it. */
  struct {
    size_t brow, bslice, hrow, hslice;
  } bad[] = {{4, 0, 0, 0},  {0, 0, 4, 0},  {5, 10, 0, 0}, {0, 0, 5, 10},
             {8, 28, 0, 0}, {0, 0, 8, 28}, {8, 20, 8, 0}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_equal(clEnqueueReadBufferRect(q, a, CL_TRUE, zero, zero, region, bad[i].brow,
                                             bad[i].bslice, bad[i].hrow, bad[i].hslice, out, 0,
                                             NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueWriteBufferRect(q, a, CL_TRUE, zero, zero, region, bad[i].brow,
                                              bad[i].bslice, bad[i].hrow, bad[i].hslice, out, 0,
                                              NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueCopyBufferRect(q, a, b, zero, zero, region, bad[i].brow,
                                             bad[i].bslice, bad[i].hrow, bad[i].hslice, 0, NULL,
                                             NULL),
                     CL_INVALID_VALUE);
  }
  /* NULL origins, region or pointer. */
  assert_int_equal(
      clEnqueueReadBufferRect(q, a, CL_TRUE, NULL, zero, region, 0, 0, 0, 0, out, 0, NULL, NULL),
      CL_INVALID_VALUE);
  assert_int_equal(
      clEnqueueReadBufferRect(q, a, CL_TRUE, zero, zero, NULL, 0, 0, 0, 0, out, 0, NULL, NULL),
      CL_INVALID_VALUE);
  assert_int_equal(
      clEnqueueWriteBufferRect(q, a, CL_TRUE, zero, zero, region, 0, 0, 0, 0, NULL, 0, NULL, NULL),
      CL_INVALID_VALUE);
  assert_int_equal(clEnqueueCopyBufferRect(q, a, b, zero, NULL, region, 0, 0, 0, 0, 0, NULL, NULL),
                   CL_INVALID_VALUE);
  /* Host access flags hold for the rect calls too. */
  cl_mem none = make(CL_MEM_HOST_NO_ACCESS, N, NULL);
  assert_int_equal(
      clEnqueueReadBufferRect(q, none, CL_TRUE, zero, zero, region, 0, 0, 0, 0, out, 0, NULL, NULL),
      CL_INVALID_OPERATION);
  assert_int_equal(clEnqueueWriteBufferRect(q, none, CL_TRUE, zero, zero, region, 0, 0, 0, 0, out,
                                            0, NULL, NULL),
                   CL_INVALID_OPERATION);
  clReleaseMemObject(none), clReleaseMemObject(a), clReleaseMemObject(b);
}

/* 5.2.2 clEnqueueCopyBufferRect within one buffer: CL_MEM_COPY_OVERLAP by
 * the rule of appendix D (boxes whose rows or slices interleave without
 * touching do not overlap); copies that are allowed match a host copy. */
static void test_copy_rect_overlap(void **state) {
  (void)state;
  enum { N = 512 };
  static const struct {
    size_t src[3], dst[3], region[3], row, slice;
    bool overlap;
  } cases[] = {
      {{0, 0, 0}, {8, 0, 0}, {8, 4, 1}, 16, 64, false},  /* dst in the gaps of src rows */
      {{0, 0, 0}, {4, 0, 0}, {8, 4, 1}, 16, 64, true},   /* rows share bytes 4..7 */
      {{0, 0, 0}, {0, 2, 0}, {16, 2, 2}, 16, 64, false}, /* dst in the gaps of src slices */
      {{0, 0, 0}, {0, 1, 0}, {16, 2, 2}, 16, 64, true},
      {{0, 0, 0}, {0, 0, 1}, {16, 4, 2}, 16, 64, true},  /* slice 1 of src is slice 0 of dst */
      {{0, 0, 0}, {0, 0, 2}, {16, 4, 2}, 16, 64, false}, /* spans only touch */
      {{2, 1, 0}, {0, 0, 0}, {4, 2, 1}, 16, 32, true},
      {{12, 0, 0}, {0, 0, 0}, {4, 3, 1}, 16, 48, false}, /* src columns 12..15, dst 0..3 */
      /* y past the slice height: the boxes of coordinates are apart but
       * their bytes are the same ones, 32..39 and 48..55. The CTS's
       * basic/bufferreadwriterect asks for such copies (its own overlap check
       * uses other pitches than the ones it passes: OpenCL-CTS issue 2765). */
      {{0, 2, 0}, {0, 0, 1}, {8, 2, 1}, 16, 32, true},
  };
  unsigned char init[N], out[N], ref[N];
  for (int i = 0; i < N; i++)
    init[i] = (unsigned char)(i * 7 + 3);
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    cl_mem m = make(CL_MEM_COPY_HOST_PTR, N, init);
    cl_int err =
        clEnqueueCopyBufferRect(q, m, m, cases[c].src, cases[c].dst, cases[c].region, cases[c].row,
                                cases[c].slice, cases[c].row, cases[c].slice, 0, NULL, NULL);
    if (err != (cases[c].overlap ? CL_MEM_COPY_OVERLAP : CL_SUCCESS))
      fail_msg("case %zu: got %d", c, err);
    memcpy(ref, init, N);
    if (!cases[c].overlap)
      for (size_t z = 0; z < cases[c].region[2]; z++)
        for (size_t y = 0; y < cases[c].region[1]; y++)
          for (size_t x = 0; x < cases[c].region[0]; x++)
            ref[(cases[c].dst[2] + z) * cases[c].slice + (cases[c].dst[1] + y) * cases[c].row +
                cases[c].dst[0] + x] =
                init[(cases[c].src[2] + z) * cases[c].slice + (cases[c].src[1] + y) * cases[c].row +
                     cases[c].src[0] + x];
    assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, ref, N);
    clReleaseMemObject(m);
  }
  /* Overlapping sub-buffers of one buffer: overlap counts in the parent. */
  cl_int err;
  cl_mem big = make(0, 1024, NULL);
  cl_buffer_region r1 = {0, 512}, r2 = {256, 512};
  cl_mem s1 = clCreateSubBuffer(big, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
  cl_mem s2 = clCreateSubBuffer(big, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
  assert_int_equal(clEnqueueCopyBuffer(q, s1, s2, 0, 0, 128, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueCopyBuffer(q, s1, s2, 256, 0, 64, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  assert_int_equal(clEnqueueCopyBuffer(q, s2, s1, 0, 300, 64, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  assert_int_equal(clEnqueueCopyBuffer(q, s2, s1, 0, 192, 64, 0, NULL, NULL), CL_SUCCESS);
  size_t o[3] = {0, 0, 0}, reg[3] = {16, 4, 1}, dorg[3] = {0, 0, 0};
  /* Different pitches on each side: s1's rows 4..7 (pitch 64) start at the parent's byte 256,
   * where s2's tight rows start too; rows 0..3 of s1 end before s2 begins. */
  size_t s1org[3] = {0, 4, 0};
  assert_int_equal(
      clEnqueueCopyBufferRect(q, s1, s2, s1org, dorg, reg, 64, 0, 16, 0, 0, NULL, NULL),
      CL_MEM_COPY_OVERLAP);
  assert_int_equal(clEnqueueCopyBufferRect(q, s1, s2, o, dorg, reg, 64, 0, 16, 0, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(clFinish(q), CL_SUCCESS);
  clReleaseMemObject(s1), clReleaseMemObject(s2), clReleaseMemObject(big);
}

/* 5.2.2 clEnqueueFillBuffer with every pattern size the spec allows, and its
 * alignment rules (offset and size multiples of the pattern size). */
static void test_fill_every_pattern(void **state) {
  (void)state;
  enum { N = 1024 };
  unsigned char pattern[128], out[N], ref[N];
  for (int i = 0; i < 128; i++)
    pattern[i] = (unsigned char)(0x80 + i);
  cl_mem m = make(0, N, NULL);
  for (size_t ps = 1; ps <= 128; ps *= 2) {
    memset(ref, 0xee, N);
    assert_int_equal(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, N, ref, 0, NULL, NULL), CL_SUCCESS);
    size_t offset = ps, size = 3 * ps;
    assert_int_equal(clEnqueueFillBuffer(q, m, pattern, ps, offset, size, 0, NULL, NULL),
                     CL_SUCCESS);
    for (size_t i = 0; i < size; i++)
      ref[offset + i] = pattern[i % ps];
    assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, ref, N);
    if (ps > 1) {
      assert_int_equal(clEnqueueFillBuffer(q, m, pattern, ps, ps / 2, size, 0, NULL, NULL),
                       CL_INVALID_VALUE);
      assert_int_equal(clEnqueueFillBuffer(q, m, pattern, ps, offset, size + ps / 2, 0, NULL, NULL),
                       CL_INVALID_VALUE);
    }
    assert_int_equal(clEnqueueFillBuffer(q, m, pattern, ps, N - ps, 2 * ps, 0, NULL, NULL),
                     CL_INVALID_VALUE); /* past the end */
  }
  const size_t not_sizes[] = {0, 3, 6, 12, 24, 48, 96, 256};
  for (size_t i = 0; i < sizeof not_sizes / sizeof not_sizes[0]; i++)
    assert_int_equal(clEnqueueFillBuffer(q, m, pattern, not_sizes[i], 0, 768, 0, NULL, NULL),
                     CL_INVALID_VALUE);
  /* A sub-buffer fill lands at the parent's offset. */
  cl_int err;
  cl_buffer_region r = {256, 256};
  cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  assert_int_equal(clEnqueueFillBuffer(q, sub, pattern, 2, 4, 8, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
  for (size_t i = 0; i < 8; i++)
    ref[256 + 4 + i] = pattern[i % 2];
  assert_memory_equal(out, ref, N);
  clReleaseMemObject(sub), clReleaseMemObject(m);
}

static cl_uint map_count(cl_mem m) {
  cl_uint n = 99;
  assert_int_equal(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof n, &n, NULL), CL_SUCCESS);
  return n;
}

/* 5.5.2 every map flag; map counts; unmapping needs the exact pointer a map
 * returned, once per map; host pointer flags decide what a map aliases. */
static void test_map_flags_and_counts(void **state) {
  (void)state;
  cl_int err;
  int host[64];
  for (int i = 0; i < 64; i++)
    host[i] = 1000 + i;
  cl_mem m = make(CL_MEM_COPY_HOST_PTR, sizeof host, host);
  /* CL_MAP_READ sees the contents. */
  int *r = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 16 * sizeof(int), 8 * sizeof(int), 0,
                              NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_memory_equal(r, host + 16, 8 * sizeof(int));
  assert_int_equal(map_count(m), 1);
  /* The same region again: a second map, counted. */
  int *r2 = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 16 * sizeof(int), 8 * sizeof(int), 0,
                               NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(map_count(m), 2);
  /* A pointer inside the mapping that no map returned is not a mapped pointer. */
  assert_int_equal(clEnqueueUnmapMemObject(q, m, r + 1, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueUnmapMemObject(q, m, r, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueUnmapMemObject(q, m, r2, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(map_count(m), 0);
  assert_int_equal(clEnqueueUnmapMemObject(q, m, r, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueUnmapMemObject(q, m, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  /* A failed unmap (bad wait list) leaves the mapping in place. */
  int *w = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_WRITE, 0, 4 * sizeof(int), 0, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_int_equal(clEnqueueUnmapMemObject(q, m, w, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  assert_int_equal(map_count(m), 1);
  /* CL_MAP_WRITE: what the host writes is in the buffer after the unmap. */
  w[0] = -5, w[3] = -8;
  assert_int_equal(clEnqueueUnmapMemObject(q, m, w, 0, NULL, NULL), CL_SUCCESS);
  int out[64];
  assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                   CL_SUCCESS);
  host[0] = -5, host[3] = -8;
  assert_memory_equal(out, host, sizeof out);
  /* CL_MAP_WRITE_INVALIDATE_REGION: the whole region is the host's to write. */
  int *inv = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 32 * sizeof(int),
                                32 * sizeof(int), 0, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  for (int i = 0; i < 32; i++)
    inv[i] = host[32 + i] = 7 * i;
  assert_int_equal(clEnqueueUnmapMemObject(q, m, inv, 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_memory_equal(out, host, sizeof out);
  /* Flag combinations: WRITE_INVALIDATE_REGION excludes READ and WRITE. */
  const cl_map_flags bad[] = {
      CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION,
      CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION, (cl_map_flags)1 << 3};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_null(clEnqueueMapBuffer(q, m, CL_TRUE, bad[i], 0, 4, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
  }
  assert_int_equal(map_count(m), 0);
  /* A map the application never undoes goes with the buffer. */
  assert_non_null(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err));
  clReleaseMemObject(m);

  /* Host access flags against each map flag: CL_INVALID_OPERATION. */
  static const struct {
    cl_mem_flags flags;
    cl_map_flags map;
    cl_int err;
  } access[] = {
      {CL_MEM_HOST_READ_ONLY, CL_MAP_READ, CL_SUCCESS},
      {CL_MEM_HOST_READ_ONLY, CL_MAP_WRITE, CL_INVALID_OPERATION},
      {CL_MEM_HOST_READ_ONLY, CL_MAP_WRITE_INVALIDATE_REGION, CL_INVALID_OPERATION},
      {CL_MEM_HOST_WRITE_ONLY, CL_MAP_READ, CL_INVALID_OPERATION},
      {CL_MEM_HOST_WRITE_ONLY, CL_MAP_WRITE, CL_SUCCESS},
      {CL_MEM_HOST_WRITE_ONLY, CL_MAP_WRITE_INVALIDATE_REGION, CL_SUCCESS},
      {CL_MEM_HOST_NO_ACCESS, CL_MAP_READ, CL_INVALID_OPERATION},
      {CL_MEM_HOST_NO_ACCESS, CL_MAP_WRITE, CL_INVALID_OPERATION},
      {CL_MEM_HOST_NO_ACCESS, CL_MAP_WRITE_INVALIDATE_REGION, CL_INVALID_OPERATION},
  };
  for (size_t i = 0; i < sizeof access / sizeof access[0]; i++) {
    cl_mem b = make(access[i].flags, 64, NULL);
    void *p = clEnqueueMapBuffer(q, b, CL_TRUE, access[i].map, 0, 16, 0, NULL, NULL, &err);
    if (err != access[i].err)
      fail_msg("case %zu: got %d", i, err);
    if (p)
      assert_int_equal(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL), CL_SUCCESS);
    clReleaseMemObject(b);
  }

  /* CL_MEM_USE_HOST_PTR: a map of a sub-buffer is host_ptr + origin + offset. */
  cl_mem use = make(CL_MEM_USE_HOST_PTR, sizeof host, host);
  cl_buffer_region reg = {128, 128};
  cl_mem sub = clCreateSubBuffer(use, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
  assert_int_equal(err, CL_SUCCESS);
  void *p = clEnqueueMapBuffer(q, sub, CL_TRUE, CL_MAP_READ, 8, 16, 0, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_ptr_equal(p, (char *)host + 128 + 8);
  assert_int_equal(map_count(sub), 1);
  assert_int_equal(map_count(use), 0);
  assert_int_equal(clEnqueueUnmapMemObject(q, use, p, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueUnmapMemObject(q, sub, p, 0, NULL, NULL), CL_SUCCESS);
  clReleaseMemObject(sub), clReleaseMemObject(use);
  /* CL_MEM_ALLOC_HOST_PTR: mapped memory holds what was written. */
  cl_mem alloc = make(CL_MEM_ALLOC_HOST_PTR, sizeof host, NULL);
  assert_int_equal(clEnqueueWriteBuffer(q, alloc, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL),
                   CL_SUCCESS);
  p = clEnqueueMapBuffer(q, alloc, CL_TRUE, CL_MAP_READ, 0, sizeof host, 0, NULL, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  assert_memory_equal(p, host, sizeof host);
  assert_int_equal(clEnqueueUnmapMemObject(q, alloc, p, 0, NULL, NULL), CL_SUCCESS);
  /* Queue and buffer of different contexts. */
  cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_command_queue oq = clCreateCommandQueueWithProperties(other, dev, NULL, &err);
  assert_null(clEnqueueMapBuffer(oq, alloc, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err));
  assert_int_equal(err, CL_INVALID_CONTEXT);
  clReleaseCommandQueue(oq), clReleaseContext(other), clReleaseMemObject(alloc);
  assert_int_equal(clFinish(q), CL_SUCCESS);
}

/* 5.5.3 clEnqueueMigrateMemObjects. */
static void test_migrate(void **state) {
  (void)state;
  cl_mem m = make(0, 64, NULL);
  cl_event ev;
  assert_int_equal(clEnqueueMigrateMemObjects(q, 1, &m, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &ev),
                   CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
  cl_command_type type;
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
  assert_int_equal(type, CL_COMMAND_MIGRATE_MEM_OBJECTS);
  clReleaseEvent(ev);
  assert_int_equal(clEnqueueMigrateMemObjects(q, 0, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(
      clEnqueueMigrateMemObjects(q, 1, &m, (cl_mem_migration_flags)1 << 10, 0, NULL, NULL),
      CL_INVALID_VALUE);
  cl_mem bad = (cl_mem)q;
  assert_int_equal(clEnqueueMigrateMemObjects(q, 1, &bad, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  /* Every combination of the two flags is valid. */
  const cl_mem_migration_flags ok[] = {
      0, CL_MIGRATE_MEM_OBJECT_HOST, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
      CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED};
  for (size_t i = 0; i < 4; i++)
    assert_int_equal(clEnqueueMigrateMemObjects(q, 1, &m, ok[i], 0, NULL, NULL), CL_SUCCESS);
  assert_int_equal(clEnqueueMigrateMemObjects(q, 1, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
  assert_int_equal(clEnqueueMigrateMemObjects(q, 1, &m, 0, 1, NULL, NULL),
                   CL_INVALID_EVENT_WAIT_LIST);
  assert_int_equal(clEnqueueMigrateMemObjects((cl_command_queue)m, 1, &m, 0, 0, NULL, NULL),
                   CL_INVALID_COMMAND_QUEUE);
  cl_int err;
  cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_mem foreign = clCreateBuffer(other, 0, 64, NULL, &err);
  cl_mem both[] = {m, foreign};
  assert_int_equal(clEnqueueMigrateMemObjects(q, 2, both, 0, 0, NULL, NULL), CL_INVALID_CONTEXT);
  clReleaseMemObject(foreign), clReleaseContext(other);
  assert_int_equal(clFinish(q), CL_SUCCESS);
  clReleaseMemObject(m);
}

/* 5.9, 5.6: no pipes or SVM on this device (images: test_api_image.c). */
static void test_unsupported(void **state) {
  (void)state;
  cl_int err;
  assert_null(clCreatePipe(ctx, 0, 4, 16, NULL, &err));
  assert_int_equal(err, CL_INVALID_OPERATION);
  assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_create_host_ptr_flags),
      cmocka_unit_test(test_create_errors),
      cmocka_unit_test(test_with_properties),
      cmocka_unit_test(test_info),
      cmocka_unit_test(test_info_table),
      cmocka_unit_test(test_sub_buffer_flags),
      cmocka_unit_test(test_sub_buffer),
      cmocka_unit_test(test_destructor_callbacks),
      cmocka_unit_test(test_transfers),
      cmocka_unit_test(test_transfer_errors),
      cmocka_unit_test(test_map),
      cmocka_unit_test(test_rect_default_pitches),
      cmocka_unit_test(test_copy_rect_overlap),
      cmocka_unit_test(test_fill_every_pattern),
      cmocka_unit_test(test_map_flags_and_counts),
      cmocka_unit_test(test_failed_wait_list),
      cmocka_unit_test(test_migrate),
      cmocka_unit_test(test_unsupported),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
