/* SPDX-License-Identifier: MIT */
/* End-to-end tests for DESIGN.md 3 (device/sg_cta_dispatch.c): real kernels
 * built with sg_build run over ND-ranges that need tail masking, partial
 * groups, offsets, __local arguments and barriers, checked against host
 * computations; and faults, which must be reported precisely and touch
 * nothing else. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sg_device.h"

static const char *source =
    "__kernel void vadd(__global const float *a, __global const float *b,\n"
    "                   __global float *c) {\n"
    "  size_t i = get_global_id(0);\n" /* no bounds check: the tail must be masked */
    "  c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void ids(__global uint *gid, __global uint *grp, uint w) {\n"
    "  size_t x = get_global_id(0), y = get_global_id(1);\n"
    "  size_t k = (y - get_global_offset(1)) * w + (x - get_global_offset(0));\n"
    "  gid[k] = (uint)(x * 1000 + y);\n"
    "  grp[k] = (uint)(get_local_id(0) + 100 * get_local_id(1) + 10000 * get_group_id(0)\n"
    "                  + 1000000 * get_group_id(1));\n"
    "}\n"
    "__kernel void lsum(__global const int *in, __global int *out, __local int *tmp) {\n"
    "  __local int bias[4];\n"
    "  size_t l = get_local_id(0);\n"
    "  if (l == 0) bias[0] = 1000;\n"
    "  tmp[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == 0) {\n"
    "    int s = bias[0];\n"
    "    for (size_t k = 0; k < get_local_size(0); k++) s += tmp[k];\n"
    "    out[get_group_id(0)] = s;\n"
    "  }\n"
    "}\n"
    "__kernel void scatter(__global int *dst, __global int *bad, __global const int *src,\n"
    "                      uint period, uint which) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i % period == which) bad[i] = 1;\n"
    "  else dst[i] = src[i];\n"
    "}\n"
    "__kernel void shift(__global const int *sub, __global int *out, int by,\n"
    "                    __global const int *rest) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = sub[i + by];\n"
    "}\n";

static struct sg_program_image *image;

static int build_program(void **state) {
  (void)state;
  struct sg_build_request req = {.source = source, .options = ""};
  struct sg_build_result res = {0};
  char err[256];
  if (sg_build(&req, &res) != SG_OK) {
    fprintf(stderr, "build failed:\n%s\n", res.log);
    sg_build_result_free(&res);
    return -1;
  }
  enum sg_status st = sg_program_load(res.binary, res.binary_size, &image, err, sizeof err);
  sg_build_result_free(&res);
  if (st != SG_OK)
    fprintf(stderr, "load failed: %s\n", err);
  return st == SG_OK ? 0 : -1;
}

static int free_program(void **state) {
  (void)state;
  sg_program_image_free(image);
  return 0;
}

static struct sg_device *device(const char *preset) {
  struct sg_config cfg;
  struct sg_device *dev;
  char err[256];
  assert_int_equal(sg_config_load(&cfg, preset, err, sizeof err), SG_OK);
  assert_int_equal(sg_device_create(&cfg, &dev), SG_OK);
  return dev;
}

static struct sg_buffer buffer(struct sg_device *dev, void *host, uint64_t size, bool ro) {
  return (struct sg_buffer){.addr = sg_device_alloc_address(dev, size), .size = size,
                            .host = host, .read_only = ro};
}

static enum sg_status run(struct sg_device *dev, const char *kernel,
                          const struct sg_arg_value *args, struct sg_ndrange nd,
                          struct sg_launch_result *res) {
  struct sg_launch launch = {.program = image,
                             .kernel = sg_program_find_kernel(image, kernel),
                             .args = args,
                             .nd = nd,
                             .stats = true};
  assert_non_null(launch.kernel);
  return sg_device_launch(dev, &launch, res);
}

static struct sg_launch_result result; /* large: keep off the stack */

/* Two sub-buffers of one buffer (its first and second 64 bytes) bound as
 * two arguments; the first read past its end: the reads land in the
 * second, mapped memory the core cannot object to. The memory checker
 * reports them, naming both; the reads happen. */
static void test_sub_buffer_overrun(void **state) {
  (void)state;
  static int parent[64], out[16];
  for (int i = 0; i < 64; i++)
    parent[i] = i;
  struct sg_device *dev = device("default");
  struct sg_buffer bp = buffer(dev, parent, sizeof parent, false),
                   bo = buffer(dev, out, sizeof out, false);
  struct sg_buffer bs = {.addr = bp.addr, .size = 64, .host = (uint8_t *)parent},
                   br = {.addr = bp.addr + 64, .size = 64, .host = (uint8_t *)parent + 64};
  int by = 4;
  struct sg_arg_value args[4] = {{.buffer = &bs}, {.buffer = &bo}, {.bytes = &by}, {.buffer = &br}};
  struct sg_ndrange nd = {.work_dim = 1, .global_size = {16, 1, 1}, .local_size = {16, 1, 1}};
  assert_int_equal(run(dev, "shift", args, nd, &result), SG_OK);
  for (int i = 0; i < 16; i++)
    assert_int_equal(out[i], i + 4);
  assert_int_equal(result.findings, 4);
  if (!strstr(result.report, "kernel 'shift': input.cl:34:12: load of 4 bytes at 0x") ||
      !strstr(result.report, ", 0 bytes past the end of buffer argument 0 `sub` (64 bytes), "
                             "inside buffer argument 3 `rest` by work-item (global 12,0,0; "
                             "group 0,0,0; local 12,0,0; warp 0 lane 12) at PC 0x") ||
      !strstr(result.report, "; 4 times; source: out[i] = sub[i + by];\n"))
    fail_msg("report: %s", result.report);
  sg_launch_result_free(&result);
  sg_device_destroy(dev);
}

/* 1009 (prime) floats: the last CTA is mostly tail. Lanes past the end would
 * fault in the guard gap after the buffers if they ran. */
static void vadd_on(const char *preset, bool partial) {
  enum { N = 1009 };
  static float a[N], b[N], c[N];
  for (int i = 0; i < N; i++) {
    a[i] = (float)i;
    b[i] = 0.5f * (float)(N - i);
    c[i] = -1.0f;
  }
  struct sg_device *dev = device(preset);
  uint32_t local = sg_config_max_work_group_size(sg_device_config(dev));
  local = local < 32 ? local : 32;
  struct sg_buffer ba = buffer(dev, a, sizeof a, true), bb = buffer(dev, b, sizeof b, true),
                   bc = buffer(dev, c, sizeof c, false);
  struct sg_arg_value args[3] = {{.buffer = &ba}, {.buffer = &bb}, {.buffer = &bc}};
  struct sg_ndrange nd = {.work_dim = 1, .global_size = {N, 1, 1},
                          .local_size = {local, 1, 1}, .partial_groups = partial};
  enum sg_status st = run(dev, "vadd", args, nd, &result);
  if (st != SG_OK)
    fail_msg("%s: %s", preset, result.message);
  for (int i = 0; i < N; i++)
    assert_true(c[i] == a[i] + b[i]);
  assert_int_equal(result.stats.ctas, (N + local - 1) / local);
  sg_device_destroy(dev);
}

static void test_vadd_prime_size(void **state) {
  (void)state;
  const char *presets[] = {"default", "mvpgpu", "vortex", "wide"};
  for (int i = 0; i < 4; i++) {
    vadd_on(presets[i], false);
    vadd_on(presets[i], true);
  }
}

/* 2-D with an offset, (37,11) over (8,4): ids as the OpenCL spec defines. */
static void test_ids_2d_offset(void **state) {
  (void)state;
  enum { W = 37, H = 11 };
  static uint32_t gid[W * H], grp[W * H];
  struct sg_device *dev = device("mvpgpu");
  struct sg_buffer bg = buffer(dev, gid, sizeof gid, false),
                   bp = buffer(dev, grp, sizeof grp, false);
  uint32_t w = W;
  struct sg_arg_value args[3] = {{.buffer = &bg}, {.buffer = &bp}, {.bytes = &w}};
  struct sg_ndrange nd = {.work_dim = 2, .global_offset = {5, 2, 0},
                          .global_size = {W, H, 1}, .local_size = {8, 4, 1},
                          .partial_groups = true};
  if (run(dev, "ids", args, nd, &result) != SG_OK)
    fail_msg("%s", result.message);
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) {
      assert_int_equal(gid[y * W + x], (x + 5) * 1000 + (y + 2));
      assert_int_equal(grp[y * W + x],
                       x % 8 + 100 * (y % 4) + 10000 * (x / 8) + 1000000 * (y / 4));
    }
  assert_int_equal(result.stats.ctas, 5 * 3);
  sg_device_destroy(dev);
}

/* __local argument placed after a static __local array, with a barrier. */
static void test_local_arg_and_barrier(void **state) {
  (void)state;
  enum { N = 256, L = 64 };
  static int in[N], out[N / L];
  for (int i = 0; i < N; i++)
    in[i] = i * 3 - 100;
  struct sg_device *dev = device("default");
  struct sg_buffer bi = buffer(dev, in, sizeof in, true), bo = buffer(dev, out, sizeof out, false);
  struct sg_arg_value args[3] = {{.buffer = &bi}, {.buffer = &bo},
                                 {.local_size = L * sizeof(int)}};
  struct sg_ndrange nd = {.work_dim = 1, .global_size = {N, 1, 1}, .local_size = {L, 1, 1}};
  if (run(dev, "lsum", args, nd, &result) != SG_OK)
    fail_msg("%s", result.message);
  for (int g = 0; g < N / L; g++) {
    int want = 1000;
    for (int k = 0; k < L; k++)
      want += in[g * L + k];
    assert_int_equal(out[g], want);
  }

  /* 16 bytes of static bias[4], then tmp, both on 128-byte boundaries (the
   * largest OpenCL C type's alignment). */
  const struct sg_kernel_info *k = sg_program_find_kernel(image, "lsum");
  args[2].local_size = L * sizeof(int) - 3;
  assert_int_equal(sg_device_local_mem_size(k, args), 128 + L * sizeof(int));

  /* More local memory than a core has: refused before anything runs. */
  args[2].local_size = 1 << 20;
  assert_int_equal(run(dev, "lsum", args, nd, &result), SG_ERESOURCES);
  assert_non_null(strstr(result.message, "local memory"));
  assert_non_null(strstr(result.message, "lsum"));
  sg_device_destroy(dev);
}

/* Under the diagnostics rule a null-pointer store is dropped and reported
 * once per site with its first work-item and count; the launch completes.
 * A store to a read-only buffer lands, reported. */
static void test_null_store_reported(void **state) {
  (void)state;
  enum { N = 64 };
  static int dst[N], src[N];
  for (int i = 0; i < N; i++)
    src[i] = 7 * i + 1;
  struct sg_device *dev = device("default");
  struct sg_buffer bd = buffer(dev, dst, sizeof dst, false),
                   bs = buffer(dev, src, sizeof src, true);
  uint32_t period = 16, which = 3;
  struct sg_arg_value args[5] = {{.buffer = &bd}, {.buffer = NULL}, {.buffer = &bs},
                                 {.bytes = &period}, {.bytes = &which}};
  struct sg_ndrange nd = {.work_dim = 1, .global_size = {N, 1, 1}, .local_size = {16, 1, 1}};
  assert_int_equal(run(dev, "scatter", args, nd, &result), SG_OK);
  for (int i = 0; i < N; i++)
    assert_int_equal(dst[i], i % 16 == 3 ? 0 : src[i]);
  assert_int_equal(result.findings, 4);
  assert_non_null(result.report);
  /* At -O3 both sides of the if share one store: the line table gives it
   * to one of the two sides, whichever the code generator kept. */
  if ((!strstr(result.report, "kernel 'scatter': input.cl:28:") &&
       !strstr(result.report, "kernel 'scatter': input.cl:29:")) ||
      !strstr(result.report, ": store of 4 bytes at unmapped address 0xc (the null page) by "
                             "work-item (global 3,0,0; group 0,0,0; local 3,0,0; warp 0 lane 3) "
                             "at PC 0x") ||
      !strstr(result.report, "; 4 times; source: ") ||
      !strstr(result.report, "\nkernel 'scatter': 4 findings at 1 site: 4 UNMAPPED "
                             "(SOFTGPU_CHECK=") ||
      strchr(strchr(result.report, '\n') + 1, '\n')[1])
    fail_msg("report: %s", result.report);
  sg_launch_result_free(&result);

  args[1].buffer = &bs; /* read-only: the store lands */
  period = 1000, which = 17;
  assert_int_equal(run(dev, "scatter", args, nd, &result), SG_OK);
  assert_int_equal(src[17], 1);
  assert_int_equal(result.findings, 1);
  if (!strstr(result.report, "store of 4 bytes to a read-only buffer"))
    fail_msg("report: %s", result.report);
  sg_launch_result_free(&result);
  sg_device_destroy(dev);
}

/* With SOFTGPU_CHECK=strict, null-pointer stores end the launch: the
 * message names kernel, work-item, PC and instruction; the read-only source
 * is untouched; groups before the faulting one completed. */
static void test_null_store_fault(void **state) {
  (void)state;
  enum { N = 64 };
  static int dst[N], src[N], copy[N];
  for (int i = 0; i < N; i++)
    src[i] = copy[i] = 7 * i + 1;
  setenv("SOFTGPU_CHECK", "strict", 1);
  struct sg_device *dev = device("default");
  unsetenv("SOFTGPU_CHECK");
  struct sg_buffer bd = buffer(dev, dst, sizeof dst, false),
                   bs = buffer(dev, src, sizeof src, true);
  uint32_t period = 1000, which = 17;
  struct sg_arg_value args[5] = {{.buffer = &bd}, {.buffer = NULL}, {.buffer = &bs},
                                 {.bytes = &period}, {.bytes = &which}};
  struct sg_ndrange nd = {.work_dim = 1, .global_size = {N, 1, 1}, .local_size = {16, 1, 1}};

  /* Only work-item 17 (group 1, local 1) stores, to bad[17] = 0x44. */
  assert_int_equal(run(dev, "scatter", args, nd, &result), SG_EFAULT);
  assert_int_equal(result.fault.kind, SG_FAULT_UNMAPPED);
  assert_int_equal(result.fault.addr, 0x44);
  assert_int_equal(result.fault_ctaid[0], 1);
  assert_non_null(strstr(result.message, "kernel 'scatter' faulted: "));
  assert_non_null(strstr(result.message, "unmapped address 0x44 (the null page)"));
  assert_non_null(
      strstr(result.message, "work-item (global 17,0,0; group 1,0,0; local 1,0,0; warp 0 lane 1)"));
  char pc[40];
  snprintf(pc, sizeof pc, "at PC 0x%llx (sw ", (unsigned long long)result.fault.pc);
  if (!strstr(result.message, pc))
    fail_msg("'%s' lacks '%s'", result.message, pc);
  assert_memory_equal(dst, src, 16 * sizeof(int)); /* group 0 ran */
  assert_memory_equal(src, copy, sizeof src);

  /* Every 16th work-item from 3 on faults: group 0's is the one reported. */
  period = 16;
  which = 3;
  assert_int_equal(run(dev, "scatter", args, nd, &result), SG_EFAULT);
  assert_int_equal(result.fault_ctaid[0], 0);
  assert_non_null(strstr(result.message, "(global 3,0,0; group 0,0,0; local 3,0,0; warp 0 lane 3)"));

  /* The offset moves global ids, not groups: work-item 17 is now in group 0. */
  period = 1000;
  which = 17;
  nd.global_offset[0] = 16;
  nd.global_size[0] = N - 16;
  assert_int_equal(run(dev, "scatter", args, nd, &result), SG_EFAULT);
  assert_non_null(strstr(result.message, "(global 17,0,0; group 0,0,0; local 1,0,0; warp 0 lane 1)"));
  assert_memory_equal(src, copy, sizeof src);

  /* A store to a read-only buffer faults too, at the right address. */
  args[1].buffer = &bs;
  assert_int_equal(run(dev, "scatter", args, nd, &result), SG_EFAULT);
  assert_int_equal(result.fault.kind, SG_FAULT_READ_ONLY_BUFFER);
  assert_int_equal(result.fault.addr, bs.addr + 17 * sizeof(int));
  assert_memory_equal(src, copy, sizeof src);
  sg_device_destroy(dev);
}

/* Launches from several host threads (several queues) on one device. */
struct racer {
  struct sg_device *dev;
  int id;
  enum sg_status status;
  float a[300], c[300];
};

static void *race(void *arg) {
  struct racer *r = arg;
  struct sg_buffer ba = buffer(r->dev, r->a, sizeof r->a, true),
                   bc = buffer(r->dev, r->c, sizeof r->c, false);
  struct sg_arg_value args[3] = {{.buffer = &ba}, {.buffer = &ba}, {.buffer = &bc}};
  struct sg_ndrange nd = {.work_dim = 1, .global_size = {300, 1, 1},
                          .local_size = {7, 1, 1}};
  struct sg_launch launch = {.program = image, .kernel = sg_program_find_kernel(image, "vadd"),
                             .args = args, .nd = nd, .stats = true};
  static struct sg_launch_result results[4];
  r->status = SG_OK;
  for (int rep = 0; rep < 10 && r->status == SG_OK; rep++)
    r->status = sg_device_launch(r->dev, &launch, &results[r->id]);
  return NULL;
}

static void test_concurrent_launches(void **state) {
  (void)state;
  static struct racer racers[4];
  pthread_t threads[4];
  struct sg_device *dev = device("vortex");
  for (int t = 0; t < 4; t++) {
    racers[t].dev = dev;
    racers[t].id = t;
    for (int i = 0; i < 300; i++)
      racers[t].a[i] = (float)(i * (t + 1));
    assert_int_equal(pthread_create(&threads[t], NULL, race, &racers[t]), 0);
  }
  for (int t = 0; t < 4; t++) {
    pthread_join(threads[t], NULL);
    assert_int_equal(racers[t].status, SG_OK);
    for (int i = 0; i < 300; i++)
      assert_true(racers[t].c[i] == 2.0f * racers[t].a[i]);
  }
  sg_device_destroy(dev);
}

/* Launches the device refuses, each with a sentence and nothing run. */
static void test_rejected_launches(void **state) {
  (void)state;
  static int dst[64], src[64];
  struct sg_device *dev = device("vortex"); /* work-groups of at most 16 */
  struct sg_buffer bd = buffer(dev, dst, sizeof dst, false),
                   bs = buffer(dev, src, sizeof src, true);
  uint32_t period = 1, which = 0;
  struct sg_arg_value args[5] = {{.buffer = &bd}, {.buffer = &bd}, {.buffer = &bs},
                                 {.bytes = &period}, {.bytes = &which}};
  struct sg_ndrange nd = {.work_dim = 1, .global_size = {64, 1, 1}, .local_size = {32, 1, 1}};
  assert_int_equal(run(dev, "scatter", args, nd, &result), SG_EINVAL);
  assert_non_null(strstr(result.message, "exceeds"));
  nd.local_size[0] = 16;
  nd.work_dim = 4;
  assert_int_equal(run(dev, "scatter", args, nd, &result), SG_EINVAL);
  assert_non_null(strstr(result.message, "work_dim"));
  nd.work_dim = 1;
  args[4].bytes = NULL;
  assert_int_equal(run(dev, "scatter", args, nd, &result), SG_EINVAL);
  assert_non_null(strstr(result.message, "argument 4"));
  args[4].bytes = &which;
  /* Private stacks past the 2.5 GiB window: 16 work-items of 200 MiB (a
   * binary may claim any size; the product must not wrap either). */
  struct sg_kernel_info greedy = *sg_program_find_kernel(image, "scatter");
  struct sg_launch launch = {.program = image, .kernel = &greedy, .args = args, .nd = nd};
  greedy.private_size = 200ull << 20;
  assert_int_equal(sg_device_launch(dev, &launch, &result), SG_ERESOURCES);
  assert_non_null(strstr(result.message, "needs 209715200 bytes of private memory per work-item: "
                                         "a work-group of 16 needs more than the 2684354560-byte "
                                         "stack window (at most 12 work-items fit)"));
  greedy.private_size = UINT64_MAX - 7;
  assert_int_equal(sg_device_launch(dev, &launch, &result), SG_ERESOURCES);
  assert_int_equal(result.stats.ctas, 0);
  for (int i = 0; i < 64; i++)
    assert_int_equal(dst[i], 0);
  sg_device_destroy(dev);
}

/* The device keeps working after a fault, and allocations never overlap. */
static void test_reuse_after_fault_and_addresses(void **state) {
  (void)state;
  struct sg_device *dev = device("vortex");
  uint64_t a = sg_device_alloc_address(dev, 1000), b = sg_device_alloc_address(dev, 1);
  assert_true(a >= SG_ADDR_GLOBAL && a % 256 == 0 && b % 256 == 0);
  assert_true(b >= a + 1000 + (64 << 10)); /* guard gap */
  sg_device_destroy(dev);
  vadd_on("vortex", false);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vadd_prime_size),
      cmocka_unit_test(test_ids_2d_offset),
      cmocka_unit_test(test_local_arg_and_barrier),
      cmocka_unit_test(test_null_store_reported), cmocka_unit_test(test_null_store_fault),
      cmocka_unit_test(test_reuse_after_fault_and_addresses),
      cmocka_unit_test(test_concurrent_launches),
      cmocka_unit_test(test_rejected_launches),
      cmocka_unit_test(test_sub_buffer_overrun),
  };
  return cmocka_run_group_tests(tests, build_program, free_program);
}
