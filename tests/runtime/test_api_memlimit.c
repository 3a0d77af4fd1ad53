/* SPDX-License-Identifier: MIT */
/* Global memory is accounted: buffers past CL_DEVICE_GLOBAL_MEM_SIZE get
 * CL_MEM_OBJECT_ALLOCATION_FAILURE, released buffers give their bytes back,
 * and every buffer that was accepted can be filled. The device is configured
 * with 16 MiB (SOFTGPU_CONFIG, set before the platform exists). */

#include "sg_api_fixture.h"

#define MIB (1024u * 1024u)
#define GLOBAL (16 * MIB)
#define PART (4 * MIB)

static void test_buffers_are_accounted(void **state) {
  struct fx *f = *state;
  cl_ulong global, max_alloc;
  assert_int_equal(clGetDeviceInfo(f->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global,
                                   NULL),
                   CL_SUCCESS);
  assert_int_equal(global, GLOBAL);
  assert_int_equal(clGetDeviceInfo(f->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                                   &max_alloc, NULL),
                   CL_SUCCESS);
  assert_int_equal(max_alloc, GLOBAL); /* the 128 MiB floor, capped at global */

  cl_int err;
  cl_mem parts[GLOBAL / PART];
  for (unsigned i = 0; i < GLOBAL / PART; i++) {
    parts[i] = clCreateBuffer(f->ctx, CL_MEM_READ_WRITE, PART, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
  }
  /* Full: one byte more fails, whatever the flags. */
  assert_null(clCreateBuffer(f->ctx, CL_MEM_READ_WRITE, 1, NULL, &err));
  assert_int_equal(err, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  static char host[64];
  assert_null(clCreateBuffer(f->ctx, CL_MEM_USE_HOST_PTR, sizeof host, host, &err));
  assert_int_equal(err, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  /* A sub-buffer uses its parent's memory: it still fits. */
  cl_buffer_region region = {PART / 2, PART / 2};
  cl_mem sub = clCreateSubBuffer(parts[0], 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  assert_int_equal(err, CL_SUCCESS);

  /* Every accepted byte is usable. */
  for (unsigned i = 0; i < GLOBAL / PART; i++) {
    cl_uint v = 0x5a5a0000u + i;
    assert_int_equal(
        clEnqueueFillBuffer(f->q, parts[i], &v, sizeof v, 0, PART, 0, NULL, NULL), CL_SUCCESS);
  }
  for (unsigned i = 0; i < GLOBAL / PART; i++) {
    cl_uint last;
    assert_int_equal(clEnqueueReadBuffer(f->q, parts[i], CL_TRUE, PART - sizeof last, sizeof last,
                                         &last, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(last, 0x5a5a0000u + i);
  }

  /* Released memory comes back (the sub-buffer keeps parts[0] alive). */
  clReleaseMemObject(parts[1]);
  cl_mem again = clCreateBuffer(f->ctx, CL_MEM_READ_WRITE, PART, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);
  clReleaseMemObject(parts[0]);
  assert_null(clCreateBuffer(f->ctx, CL_MEM_READ_WRITE, PART, NULL, &err));
  assert_int_equal(err, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  clReleaseMemObject(sub);
  cl_mem last = clCreateBuffer(f->ctx, CL_MEM_READ_WRITE, PART, NULL, &err);
  assert_int_equal(err, CL_SUCCESS);

  clReleaseMemObject(last);
  clReleaseMemObject(again);
  for (unsigned i = 2; i < GLOBAL / PART; i++)
    clReleaseMemObject(parts[i]);
}

int main(void) {
  char config[64];
  snprintf(config, sizeof config, "global_mem_size=%u\n", GLOBAL);
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_buffers_are_accounted)};
  return fx_run_configured(config, tests, sizeof tests / sizeof tests[0]);
}
