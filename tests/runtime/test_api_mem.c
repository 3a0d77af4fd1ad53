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
  clReleaseMemObject(m);
}

/* 5.3, 5.9, 5.6: no images, samplers, pipes or SVM on this device. */
static void test_unsupported(void **state) {
  (void)state;
  cl_int err;
  cl_uint n = 7;
  assert_int_equal(
      clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
      CL_SUCCESS);
  assert_int_equal(n, 0);
  cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
  assert_null(clCreateImage(ctx, CL_MEM_READ_ONLY, &fmt, &desc, NULL, &err));
  assert_int_equal(err, CL_INVALID_OPERATION);
  assert_null(clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err));
  assert_int_equal(err, CL_INVALID_OPERATION);
  assert_null(clCreateSamplerWithProperties(ctx, NULL, &err));
  assert_int_equal(err, CL_INVALID_OPERATION);
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
      cmocka_unit_test(test_sub_buffer),
      cmocka_unit_test(test_destructor_callbacks),
      cmocka_unit_test(test_transfers),
      cmocka_unit_test(test_transfer_errors),
      cmocka_unit_test(test_map),
      cmocka_unit_test(test_migrate),
      cmocka_unit_test(test_unsupported),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
