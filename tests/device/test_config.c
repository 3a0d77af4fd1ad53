/* SPDX-License-Identifier: MIT */
/* Tests for DESIGN.md 3, "a configured machine" (device/sg_config.c):
 * defaults, presets, configuration files good and bad, SOFTGPU_CONFIG, and
 * the print/load round trip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sg_device.h"

static char path[64];

/* The configuration as key=value text: compares configs without padding. */
static char *printed(const struct sg_config *cfg) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  sg_config_print(cfg, f);
  fclose(f);
  return text;
}

static void assert_same_config(const struct sg_config *a, const struct sg_config *b) {
  char *ta = printed(a), *tb = printed(b);
  assert_string_equal(ta, tb);
  free(ta);
  free(tb);
}

/* Writes text to a fresh temporary file named in `path`. */
static const char *write_file(const char *text) {
  strcpy(path, "/tmp/sg_test_config_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
  return path;
}

/* Loads text as a file; expects failure with a message containing each of
 * the NULL-terminated fragments (the file name is always one of them). */
static void expect_error(const char *text, ...) {
  struct sg_config cfg;
  memset(&cfg, 0xAB, sizeof cfg);
  struct sg_config before = cfg;
  char err[400] = "";
  write_file(text);
  assert_int_equal(sg_config_load(&cfg, path, err, sizeof err), SG_EINVAL);
  assert_non_null(strstr(err, path));
  va_list ap;
  va_start(ap, text);
  for (const char *frag; (frag = va_arg(ap, const char *));) {
    if (!strstr(err, frag))
      fail_msg("message '%s' lacks '%s'", err, frag);
  }
  va_end(ap);
  assert_memory_equal(&cfg, &before, sizeof cfg); /* untouched on error */
  unlink(path);
}

static void test_defaults(void **state) {
  (void)state;
  struct sg_config a, b, c;
  char err[256];
  assert_int_equal(sg_config_load(&a, NULL, err, sizeof err), SG_OK);
  assert_int_equal(sg_config_load(&b, "", err, sizeof err), SG_OK);
  assert_int_equal(sg_config_load(&c, "default", err, sizeof err), SG_OK);
  assert_int_equal(a.cores, 8);
  assert_int_equal(a.warps_per_core, 32);
  assert_int_equal(a.warp_size, 32);
  assert_int_equal(a.local_mem_per_core, 65536);
  assert_int_equal(a.stack_per_lane, 16384);
  assert_int_equal(a.host_threads, 0);
  assert_int_equal(sg_config_max_work_group_size(&a), 1024);
  assert_same_config(&a, &b);
  assert_same_config(&a, &c);
}

static void test_presets(void **state) {
  (void)state;
  struct sg_config cfg;
  char err[256];
  assert_int_equal(sg_config_load(&cfg, "mvpgpu", err, sizeof err), SG_OK);
  assert_int_equal(cfg.warps_per_core, 16);
  assert_int_equal(cfg.warp_size, 4);
  assert_int_equal(sg_config_max_work_group_size(&cfg), 64); /* seed 000's CTA */
  assert_int_equal(sg_config_load(&cfg, "vortex", err, sizeof err), SG_OK);
  assert_int_equal(cfg.cores, 4);
  assert_int_equal(cfg.warps_per_core, 4);
  assert_int_equal(cfg.warp_size, 4);
  assert_int_equal(sg_config_max_work_group_size(&cfg), 16);
  assert_int_equal(sg_config_load(&cfg, "wide", err, sizeof err), SG_OK);
  assert_int_equal(cfg.warp_size, 64);
  assert_int_equal(sg_config_max_work_group_size(&cfg), 1024);
  /* the published machines: their latencies as the sources give them */
  assert_int_equal(sg_config_load(&cfg, "gtx480", err, sizeof err), SG_OK);
  assert_int_equal(cfg.cores, 15);
  assert_int_equal(cfg.warps_per_core, 48);
  assert_int_equal(cfg.l1_latency, 35);
  assert_int_equal(cfg.l2_size, 786432);
  assert_int_equal(sg_config_load(&cfg, "v100", err, sizeof err), SG_OK);
  assert_int_equal(cfg.cores, 80);
  assert_int_equal(cfg.sched_per_core, 4);
  assert_int_equal(cfg.fpu_latency, 4);
  assert_int_equal(cfg.smem_latency, 19);
  assert_int_equal(cfg.l1_latency + 2 * cfg.noc_latency + cfg.l2_latency, 193); /* an L2 hit */
}

/* Every preset is a consistent timing machine too. */
static void test_presets_timing(void **state) {
  (void)state;
  char err[256];
  for (unsigned i = 0; i < sg_config_num_presets(); i++) {
    struct sg_config cfg;
    struct sg_config_preset_info p = sg_config_preset(i);
    assert_true(strlen(p.description) > 10);
    setenv("SOFTGPU_CONFIG", p.name, 1);
    setenv("SOFTGPU_MODE", "timing", 1);
    enum sg_status st = sg_config_from_env(&cfg, err, sizeof err);
    unsetenv("SOFTGPU_MODE");
    unsetenv("SOFTGPU_CONFIG");
    if (st != SG_OK)
      fail_msg("preset %s in timing mode: %s", p.name, err);
    assert_int_equal(cfg.mode, SG_MODE_TIMING);
  }
}

static void test_max_work_group_size_capped(void **state) {
  (void)state;
  struct sg_config cfg;
  char err[256];
  write_file("warps_per_core=1024\nwarp_size=64\nstack_per_lane=1024\n");
  assert_int_equal(sg_config_load(&cfg, path, err, sizeof err), SG_OK);
  assert_int_equal(sg_config_max_work_group_size(&cfg), 1024);
  unlink(path);
}

static void test_good_file(void **state) {
  (void)state;
  struct sg_config cfg;
  char err[256] = "";
  write_file("# a machine\n"
             "\n"
             "  preset = vortex   # start from Vortex\n"
             "warp_size= 8\t\n"
             "local_mem_per_core =32k\r\n"
             "clock_mhz=0x64\n"
             "global_mem_size=2G\n"
             "watchdog_insns=0\n");
  assert_int_equal(sg_config_load(&cfg, path, err, sizeof err), SG_OK);
  assert_string_equal(err, "");
  assert_int_equal(cfg.cores, 4); /* from the preset */
  assert_int_equal(cfg.warps_per_core, 4);
  assert_int_equal(cfg.warp_size, 8);
  assert_int_equal(cfg.local_mem_per_core, 32768);
  assert_int_equal(cfg.clock_mhz, 100);
  assert_int_equal(cfg.global_mem_size, 2ull << 30);
  assert_int_equal(cfg.watchdog_insns, 0);
  assert_int_equal(cfg.stack_per_lane, 16384); /* default */
  unlink(path);
}

static void test_bad_files(void **state) {
  (void)state;
  expect_error("cores=2\nfoo=1\n", ":2:", "unknown key 'foo'", NULL);
  expect_error("warp_size=12abc\n", ":1:", "warp_size", "bad value '12abc'", NULL);
  expect_error("warp_size=-4\n", ":1:", "warp_size", "bad value '-4'", NULL);
  expect_error("warp_size=\n", ":1:", "warp_size", "bad value ''", NULL);
  expect_error("warp_size=4294967296\n", "warp_size", "bad value", NULL); /* > 32 bits */
  expect_error("watchdog_insns=18446744073709551616\n", "watchdog_insns", "bad value", NULL);
  expect_error("local_mem_per_core=17179869184G\n", "local_mem_per_core", "bad value", NULL);
  expect_error("just words\n", ":1:", "expected key=value", NULL);
  expect_error("cores=2\npreset=mvpgpu\n", ":2:", "preset", "before", NULL);
  expect_error("preset=bogus\n", ":1:", "no preset named 'bogus'", NULL);
}

static void test_out_of_range(void **state) {
  (void)state;
  expect_error("cores=1\n\nwarp_size=65\n", ":3:", "warp_size=65", "1..64", NULL);
  expect_error("warp_size=0\n", ":1:", "warp_size=0", NULL);
  expect_error("cores=0\n", ":1:", "cores=0", NULL);
  expect_error("warps_per_core=0\n", ":1:", "warps_per_core=0", NULL);
  expect_error("stack_per_lane=1000\n", ":1:", "stack_per_lane=1000", "multiple of 16", NULL);
  expect_error("stack_per_lane=128\n", ":1:", "stack_per_lane=128", "at least 256", NULL);
  expect_error("local_mem_per_core=0x10000001\n", ":1:", "local_mem_per_core", "window",
               NULL);
  /* Cross-key: 1024 work-items x 4 MiB of stack do not fit the stack window;
   * the message names the line of the key that broke it. */
  expect_error("stack_per_lane=4M\n# ok alone\nwarp_size=32\n", ":1:", "stack_per_lane",
               "stack window", NULL);
}

/* Inconsistent timing machines are refused with the key named (issue
 * "Timing mode": zero latencies, an L1 line smaller than a sector, more
 * schedulers than warps, a cache size that is not a multiple of line x ways). */
static void test_timing_inconsistent(void **state) {
  (void)state;
  expect_error("alu_latency=0\n", ":1:", "alu_latency=0", "1..100000 cycles", NULL);
  expect_error("dram_latency=0\n", ":1:", "dram_latency=0", NULL);
  expect_error("l1_line=16\nl1_sector=32\n", ":1:", "l1_line=16", "smaller than a sector", NULL);
  expect_error("mode=timing\nwarps_per_core=2\nsched_per_core=4\n", ":3:", "sched_per_core=4",
               "at most 2", NULL);
  expect_error("l1_size=40000\n", ":1:", "l1_size=40000", "multiple of line x ways", NULL);
  expect_error("l2_size=1000000\n", ":1:", "l2_size=1000000", "line x ways x banks", NULL);
  expect_error("noc_bytes_per_cycle=0\n", ":1:", "noc_bytes_per_cycle=0", NULL);
  expect_error("smem_replay=0\n", ":1:", "smem_replay=0", NULL);
  expect_error("dram_row_bytes=64\n", ":1:", "dram_row_bytes=64", "an L2 line", NULL);
}

static void test_missing_file_and_unknown_preset(void **state) {
  (void)state;
  struct sg_config cfg;
  char err[256];
  assert_int_equal(sg_config_load(&cfg, "/nonexistent/softgpu.cfg", err, sizeof err),
                   SG_EINVAL);
  assert_non_null(strstr(err, "no preset or file named '/nonexistent/softgpu.cfg'"));
  assert_int_equal(sg_config_load(&cfg, "mvpgpuu", err, sizeof err), SG_EINVAL);
  assert_non_null(strstr(err, "no preset or file named 'mvpgpuu'"));
  assert_non_null(strstr(err, "vortex")); /* lists the presets */
  assert_int_equal(sg_config_load(&cfg, "/tmp", err, sizeof err), SG_EINVAL);
  assert_non_null(strstr(err, "/tmp"));
}

static void test_from_env(void **state) {
  (void)state;
  struct sg_config cfg;
  char err[256];
  setenv("SOFTGPU_CONFIG", "mvpgpu", 1);
  assert_int_equal(sg_config_from_env(&cfg, err, sizeof err), SG_OK);
  assert_int_equal(cfg.warp_size, 4);
  setenv("SOFTGPU_CONFIG", "nope", 1);
  assert_int_equal(sg_config_from_env(&cfg, err, sizeof err), SG_EINVAL);
  assert_non_null(strstr(err, "SOFTGPU_CONFIG"));
  assert_non_null(strstr(err, "'nope'"));
  unsetenv("SOFTGPU_CONFIG");
  assert_int_equal(sg_config_from_env(&cfg, err, sizeof err), SG_OK);
  assert_int_equal(cfg.warp_size, 32);
}

/* A choice key takes a name (reconv); its value prints as the name; an
 * unknown name is said on stderr and the key keeps its value. */
static void test_choice_keys(void **state) {
  (void)state;
  struct sg_config cfg;
  char err[256] = "";
  assert_int_equal(sg_config_load(&cfg, NULL, err, sizeof err), SG_OK);
  assert_int_equal(cfg.reconv, SG_RECONV_IPDOM);
  write_file("reconv = mpipdom\n");
  assert_int_equal(sg_config_load(&cfg, path, err, sizeof err), SG_OK);
  assert_int_equal(cfg.reconv, SG_RECONV_MPIPDOM);
  char *text = printed(&cfg);
  assert_non_null(strstr(text, "reconv=mpipdom\n"));
  free(text);
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  sg_config_print_json(&cfg, f);
  fclose(f);
  assert_non_null(strstr(text, "\"reconv\": \"mpipdom\""));
  assert_non_null(strstr(text, "\"warp_size\": 32"));
  free(text);
  unlink(path);

  /* stderr goes to a file for a moment, to read what was said. */
  char said[] = "/tmp/sg_test_stderr_XXXXXX";
  int fd = mkstemp(said), saved = dup(2);
  assert_true(fd >= 0 && saved >= 0);
  fflush(stderr);
  dup2(fd, 2);
  write_file("reconv=mpipdom\nreconv=multipath\ncores=2\n");
  enum sg_status st = sg_config_load(&cfg, path, err, sizeof err);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  assert_int_equal(st, SG_OK);
  assert_int_equal(cfg.reconv, SG_RECONV_MPIPDOM); /* kept */
  assert_int_equal(cfg.cores, 2);                   /* the rest applies */
  char msg[512] = "";
  assert_true(pread(fd, msg, sizeof msg - 1, 0) > 0);
  close(fd);
  unlink(said);
  assert_non_null(strstr(msg, ":2: reconv: unknown value 'multipath' (one of: ipdom mpipdom"));
  assert_non_null(strstr(msg, "keeping mpipdom"));
  unlink(path);
}

/* Printing a configuration and loading the output gives it back. */
static void test_print_round_trip(void **state) {
  (void)state;
  struct sg_config a, b;
  char err[256];
  assert_int_equal(sg_config_load(&a, "vortex", err, sizeof err), SG_OK);
  a.stack_per_lane = 4096;
  a.global_mem_size = 123ull << 20;
  a.reconv = SG_RECONV_MPIPDOM;
  char *text = printed(&a);
  assert_non_null(strstr(text, "warp_size=4\n"));
  assert_non_null(strstr(text, "stack_per_lane=4096\n"));
  write_file(text);
  free(text);
  assert_int_equal(sg_config_load(&b, path, err, sizeof err), SG_OK);
  assert_same_config(&a, &b);
  unlink(path);

  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  sg_config_help(f);
  fclose(f);
  assert_non_null(strstr(text, "warp_size"));
  assert_non_null(strstr(text, "mvpgpu"));
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_defaults),
      cmocka_unit_test(test_presets),
      cmocka_unit_test(test_presets_timing),
      cmocka_unit_test(test_max_work_group_size_capped),
      cmocka_unit_test(test_good_file),
      cmocka_unit_test(test_bad_files),
      cmocka_unit_test(test_out_of_range),
      cmocka_unit_test(test_timing_inconsistent),
      cmocka_unit_test(test_missing_file_and_unknown_preset),
      cmocka_unit_test(test_from_env),
      cmocka_unit_test(test_print_round_trip),
      cmocka_unit_test(test_choice_keys),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
