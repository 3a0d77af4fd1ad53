/* SPDX-License-Identifier: MIT */
/* The compiler's limits (docs/decisions.md "The compiler runs in a worker
 * process"): a runaway front end, a front end that blocks and a kernel
 * whose private memory would make the back end abort each fail their build
 * with a clear line in the log, and the next build works. The limits are
 * small here (SOFTGPU_BUILD_LIMITS, set before the first build). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sg_compiler.h"

static const char good_src[] = "__kernel void k(__global int *a) { a[get_global_id(0)] = 7; }\n";

static enum sg_status build(const char *src, const char *options, uint64_t max_private,
                            char **log)
{
  struct sg_build_request req = {.source = src, .options = options,
                                 .max_private_size = max_private};
  struct sg_build_result res;
  enum sg_status st = sg_build(&req, &res);
  *log = strdup(res.log);
  sg_build_result_free(&res);
  return st;
}

static void expect_good_build(void)
{
  char *log;
  assert_int_equal(build(good_src, NULL, 0, &log), SG_OK);
  free(log);
}

/* A macro that doubles 40 times: clang's memory or CPU time runs out (it
 * grew to 4.2 GB without limits). */
static void test_runaway_front_end(void **state)
{
  (void)state;
  char src[4096];
  size_t n = (size_t)snprintf(src, sizeof src, "#define A0 x+\n");
  for (int i = 1; i <= 40; i++)
    n += (size_t)snprintf(src + n, sizeof src - n, "#define A%d A%d A%d\n", i, i - 1, i - 1);
  snprintf(src + n, sizeof src - n, "__kernel void k(__global int *a) { int x = 1; a[0] = A40 0; }\n");
  char *log;
  assert_int_equal(build(src, NULL, 0, &log), SG_EBUILD);
  /* Its CPU or memory limit, or (on a loaded machine) the wall-clock one. */
  if (!strstr(log, "SOFTGPU_BUILD_LIMITS"))
    fail_msg("no limit named in the log:\n%s", log);
  free(log);
  expect_good_build();
}

/* #include of a FIFO nobody writes: clang waits for ever using no CPU; the
 * host stops the worker, clang and all, at the wall-clock limit. */
static void test_silent_worker(void **state)
{
  (void)state;
  char dir[] = "/tmp/sg-limits-XXXXXX", fifo[64], src[128];
  assert_non_null(mkdtemp(dir));
  snprintf(fifo, sizeof fifo, "%s/fifo.h", dir);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  snprintf(src, sizeof src, "#include \"%s\"\n__kernel void k() {}\n", fifo);
  char *log;
  assert_int_equal(build(src, NULL, 0, &log), SG_EBUILD);
  if (!strstr(log, "did not answer within 6 s"))
    fail_msg("no timeout in the log:\n%s", log);
  free(log);
  unlink(fifo);
  rmdir(dir);
  expect_good_build();
}

/* A 2 GiB private array under -cl-opt-disable used to abort the host in
 * the RISC-V back end ("Frame offsets outside of the signed 32-bit
 * range"); frames are now checked against the device's private memory
 * before code generation, and the log names the kernel. */
static void test_private_frames(void **state)
{
  (void)state;
  static const char huge[] = "__kernel void huge(__global int *o, int i) {\n"
                             "  volatile int a[1 << 29];\n"
                             "  a[i] = 1;\n"
                             "  o[0] = a[i ^ 1];\n"
                             "}\n";
  static const char big[] = "__kernel void big(__global int *o, int i) {\n"
                            "  volatile int a[8192];\n"
                            "  a[i] = 1;\n"
                            "  o[0] = a[i ^ 1];\n"
                            "}\n";
  char *log;
  assert_int_equal(build(huge, "-cl-opt-disable", 0, &log), SG_EBUILD);
  assert_non_null(strstr(log, "kernel 'huge' needs 21474836"));
  free(log);
  assert_int_equal(build(huge, NULL, 16384, &log), SG_EBUILD);
  assert_non_null(strstr(log, "kernel 'huge'"));
  free(log);
  /* 32 KiB: over a 16 KiB device, within a 64 KiB one. */
  assert_int_equal(build(big, NULL, 16384, &log), SG_EBUILD);
  assert_non_null(strstr(log, "kernel 'big' needs 32768 bytes"));
  assert_non_null(strstr(log, "the device has 16384"));
  free(log);
  assert_int_equal(build(big, NULL, 65536, &log), SG_OK);
  free(log);
  expect_good_build();
}

int main(void)
{
  setenv("SOFTGPU_BUILD_LIMITS", "cpu=2,wall=6,memory=1536", 1);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_runaway_front_end),
      cmocka_unit_test(test_silent_worker),
      cmocka_unit_test(test_private_frames),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
