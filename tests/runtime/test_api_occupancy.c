/* SPDX-License-Identifier: MIT */
/* In timing mode a work-group must fit one core's register file
 * (regs_per_core, docs/timing.md): CL_KERNEL_WORK_GROUP_SIZE says how large
 * one may be, in whole warps, a local size of that many work-items runs, one
 * warp more is CL_INVALID_WORK_GROUP_SIZE at enqueue (not a failure when the
 * command runs), and a NULL local size gets a work-group that fits. The
 * device is configured before the platform exists (SOFTGPU_CONFIG): timing
 * mode, 32-lane warps, 32 warp slots (CL_DEVICE_MAX_WORK_GROUP_SIZE 1024)
 * and a register file of REGS 64-bit lane registers. */

#include "sg_api_fixture.h"

#define WARP 32
#define REGS 4096
#define N 4096

static const char *const source =
    "__kernel void scale(__global const float *in, __global float *out, float k) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i] * k;\n"
    "}\n";

/* out = 2 in, and nothing left of an earlier launch */
static void check(struct fx *f, cl_mem out, const float *in) {
  static float got[N];
  fx_read(f, out, sizeof got, got);
  for (size_t i = 0; i < N; i++)
    if (got[i] != in[i] * 2.0f)
      fail_msg("work-item %zu: %g, not %g", i, got[i], in[i] * 2.0f);
  static const float zero = 0;
  assert_int_equal(
      clEnqueueFillBuffer(f->q, out, &zero, sizeof zero, 0, sizeof got, 0, NULL, NULL),
      CL_SUCCESS);
}

static void test_work_groups_fit_the_register_file(void **state) {
  struct fx *f = *state;
  cl_program p = fx_build(f, source, NULL);
  cl_kernel k = fx_kernel(p, "scale");
  static float in[N];
  for (size_t i = 0; i < N; i++)
    in[i] = (float)i * 0.25f;
  cl_mem a = fx_buffer(f, sizeof in, in), b = fx_buffer(f, sizeof in, NULL);
  float two = 2.0f;
  fx_arg(k, 0, sizeof a, &a);
  fx_arg(k, 1, sizeof b, &b);
  fx_arg(k, 2, sizeof two, &two);

  size_t dev_max, wg;
  assert_int_equal(
      clGetDeviceInfo(f->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof dev_max, &dev_max, NULL),
      CL_SUCCESS);
  assert_int_equal(dev_max, 32 * WARP);
  assert_int_equal(
      clGetKernelWorkGroupInfo(k, f->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
      CL_SUCCESS);
  /* Whole warps; a kernel names between 5 registers (a0, the ids, an
   * address, a value) and 63, so REGS / (WARP * 63) = 2 to
   * REGS / (WARP * 5) = 25 warps: below the device's 32. */
  assert_int_equal(wg % WARP, 0);
  assert_true(wg >= 2 * WARP && wg <= 25 * WARP);

  size_t global = N, local = wg;
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &global, &local, 0, NULL, NULL),
                   CL_SUCCESS);
  assert_int_equal(clFinish(f->q), CL_SUCCESS);
  check(f, b, in);

  local = wg + WARP;
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &global, &local, 0, NULL, NULL),
                   CL_INVALID_WORK_GROUP_SIZE);

  /* NULL: SoftGPU picks a size that runs. */
  cl_event ev;
  assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 1, NULL, &global, NULL, 0, NULL, &ev),
                   CL_SUCCESS);
  assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
  cl_int status;
  assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                                  NULL),
                   CL_SUCCESS);
  assert_int_equal(status, CL_COMPLETE);
  clReleaseEvent(ev);
  check(f, b, in);

  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

int main(void) {
  char config[160];
  snprintf(config, sizeof config,
           "mode=timing\nwarp_size=%u\nwarps_per_core=32\nregs_per_core=%u\ncores=2\n", WARP, REGS);
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_work_groups_fit_the_register_file)};
  return fx_run_configured(config, tests, sizeof tests / sizeof tests[0]);
}
