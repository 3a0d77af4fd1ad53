/* SPDX-License-Identifier: MIT */
/* Tests for DESIGN.md 3, "one flat 64-bit device address space with windows"
 * (device/sg_memmap.c): which regions a launch maps, where, with which
 * permissions, and what is rejected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "sg_device.h"

static uint8_t ro[0x1000], rw[0x100], params[256], host_a[4096], host_b[512];

static struct sg_program_image image = {
    .ro_base = SG_ADDR_CODE, .ro = ro, .ro_size = sizeof ro,
    .rw_base = SG_ADDR_CODE + 0x10000, .rw = rw, .rw_size = sizeof rw};

/* Five arguments: three buffers, a __local pointer and a value. */
static struct sg_kernel_arg kargs[5] = {
    {.kind = SG_ARG_GLOBAL, .size = 8, .offset = 0},
    {.kind = SG_ARG_CONSTANT, .size = 8, .offset = 8},
    {.kind = SG_ARG_GLOBAL, .size = 8, .offset = 16},
    {.kind = SG_ARG_LOCAL, .size = 8, .offset = 24},
    {.kind = SG_ARG_VALUE, .size = 4, .offset = 32},
};
static struct sg_kernel_info kernel = {.name = "k", .num_args = 5, .args = kargs,
                                       .args_size = 40};

static struct sg_buffer buf_a = {.addr = SG_ADDR_GLOBAL, .size = sizeof host_a,
                                 .host = host_a};
static struct sg_buffer buf_b = {.addr = SG_ADDR_GLOBAL + 0x20000, .size = sizeof host_b,
                                 .host = host_b, .read_only = true};

static struct sg_launch launch_with(struct sg_arg_value *args) {
  return (struct sg_launch){.program = &image, .kernel = &kernel, .args = args};
}

static const struct sg_region *region_at(const struct sg_launch_memmap *m, uint64_t base) {
  for (uint32_t i = 0; i < m->count; i++)
    if (m->regions[i].base == base)
      return &m->regions[i];
  return NULL;
}

static void check_sorted_disjoint_no_null(const struct sg_launch_memmap *m) {
  for (uint32_t i = 0; i < m->count; i++) {
    assert_true(m->regions[i].base >= 0x1000);
    assert_true(m->regions[i].size > 0);
    if (i > 0)
      assert_true(m->regions[i - 1].base + m->regions[i - 1].size <= m->regions[i].base);
  }
}

/* The CTA's 64 KiB of stacks sit in the middle of the 0xa0000000-byte stack
 * window, page-aligned: 0x60000000 + (0xa0000000 - 0x10000) / 2. */
#define STACK_64K 0xafff8000ull

/* A buffer bound twice (once read-only) maps once, writable; a read-only
 * buffer maps read-only; a null buffer and values map nothing. */
static void test_regions_and_permissions(void **state) {
  (void)state;
  int value = 7;
  struct sg_arg_value args[5] = {{.buffer = &buf_a}, {.buffer = &buf_b}, {.buffer = &buf_a},
                                 {.local_size = 100}, {.bytes = &value}};
  struct sg_buffer a_ro = buf_a;
  a_ro.read_only = true;
  args[2].buffer = &a_ro;
  struct sg_launch launch = launch_with(args);
  struct sg_launch_memmap m;
  char err[256] = "";
  assert_int_equal(sg_memmap_build(&launch, params, sizeof params, 144, 64 * 1024, &m, err,
                                   sizeof err), SG_OK);
  assert_int_equal(m.count, 7); /* code, data, local, params, stack, A, B */
  check_sorted_disjoint_no_null(&m);
  const struct {
    uint64_t base, size;
    uint32_t perm;
    const uint8_t *host;
  } want[7] = {
      {SG_ADDR_CODE, sizeof ro, SG_PERM_R | SG_PERM_X, ro},
      {SG_ADDR_CODE + 0x10000, sizeof rw, SG_PERM_R | SG_PERM_W, rw},
      {SG_ADDR_LOCAL, 144, SG_PERM_R | SG_PERM_W, NULL},
      {SG_ADDR_PARAMS, sizeof params, SG_PERM_R, params},
      {STACK_64K, 64 * 1024, SG_PERM_R | SG_PERM_W | SG_PERM_PRIVATE, NULL},
      {buf_a.addr, buf_a.size, SG_PERM_R | SG_PERM_W, host_a},
      {buf_b.addr, buf_b.size, SG_PERM_R | SG_PERM_STORE_REPORTED, host_b},
  };
  for (int i = 0; i < 7; i++) {
    assert_int_equal(m.regions[i].base, want[i].base);
    assert_int_equal(m.regions[i].size, want[i].size);
    assert_int_equal(m.regions[i].perm, want[i].perm);
    assert_ptr_equal(m.regions[i].host, want[i].host);
  }
  assert_int_equal(m.local_index, 2);
  assert_int_equal(m.stack_index, 4);
  assert_int_equal(m.stack_base, STACK_64K);
  assert_string_equal(m.regions[5].name, "buffer argument 0");
  assert_string_equal(m.regions[6].name, "buffer argument 1");

  /* Each worker binds its own local and stack storage. */
  static uint8_t local[144], stack[64 * 1024];
  struct sg_region regions[7];
  struct sg_memmap view;
  sg_memmap_bind(&m, local, stack, regions, &view);
  assert_int_equal(view.count, 7);
  assert_ptr_equal(view.regions, regions);
  assert_ptr_equal(regions[2].host, local);
  assert_ptr_equal(regions[4].host, stack);
  assert_ptr_equal(regions[5].host, host_a);
  sg_memmap_free(&m);
}

static void test_null_buffers_and_empty_windows(void **state) {
  (void)state;
  int value = 7;
  struct sg_arg_value args[5] = {{.buffer = NULL}, {.buffer = NULL}, {.buffer = NULL},
                                 {.local_size = 16}, {.bytes = &value}};
  struct sg_launch launch = launch_with(args);
  struct sg_launch_memmap m;
  char err[256];
  assert_int_equal(sg_memmap_build(&launch, params, sizeof params, 0, 4096, &m, err,
                                   sizeof err), SG_OK);
  assert_int_equal(m.count, 4); /* code, data, params, stack */
  assert_int_equal(m.local_index, -1);
  assert_null(region_at(&m, SG_ADDR_LOCAL));
  check_sorted_disjoint_no_null(&m);
  sg_memmap_free(&m);
}

/* A sub-buffer (same host bytes at the same offset) merges with its parent. */
static void test_sub_buffer_merges(void **state) {
  (void)state;
  struct sg_buffer sub = {.addr = buf_a.addr + 1024, .size = 512, .host = host_a + 1024,
                          .read_only = true};
  struct sg_arg_value args[5] = {{.buffer = &sub}, {.buffer = &buf_b}, {.buffer = &buf_a},
                                 {.local_size = 16}, {.bytes = "abcd"}};
  struct sg_launch launch = launch_with(args);
  struct sg_launch_memmap m;
  char err[256];
  assert_int_equal(sg_memmap_build(&launch, params, sizeof params, 16, 4096, &m, err,
                                   sizeof err), SG_OK);
  const struct sg_region *a = region_at(&m, buf_a.addr);
  assert_non_null(a);
  assert_int_equal(a->size, buf_a.size);
  assert_ptr_equal(a->host, host_a);
  assert_int_equal(a->perm, SG_PERM_R | SG_PERM_W);
  assert_null(region_at(&m, sub.addr));
  check_sorted_disjoint_no_null(&m);
  sg_memmap_free(&m);
}

static void expect_einval(struct sg_arg_value *args, const char *fragment) {
  struct sg_launch launch = launch_with(args);
  struct sg_launch_memmap m;
  char err[256] = "";
  assert_int_equal(sg_memmap_build(&launch, params, sizeof params, 16, 4096, &m, err,
                                   sizeof err), SG_EINVAL);
  if (!strstr(err, fragment))
    fail_msg("message '%s' lacks '%s'", err, fragment);
}

static void test_rejected_maps(void **state) {
  (void)state;
  /* Two buffers claiming the same device bytes with different host bytes. */
  struct sg_buffer clash = {.addr = buf_a.addr + 16, .size = 64, .host = host_b};
  struct sg_arg_value args[5] = {{.buffer = &buf_a}, {.buffer = &clash}, {.buffer = NULL},
                                 {.local_size = 16}, {.bytes = "abcd"}};
  expect_einval(args, "overlap in device memory but not in host memory");

  /* A buffer address that is not a global allocation. */
  struct sg_buffer low = {.addr = SG_ADDR_PARAMS, .size = 64, .host = host_b};
  args[1].buffer = &low;
  expect_einval(args, "buffer arg 1 is not a device allocation");

  /* A program image reaching into the parameter window. */
  args[1].buffer = NULL;
  struct sg_program_image saved = image;
  image.rw_base = SG_ADDR_PARAMS - 0x10;
  expect_einval(args, "overlaps");
  /* A program image in the null page. */
  image = saved;
  image.rw_base = 0;
  expect_einval(args, "program data");
  image = saved;
}

/* Stacks filling the whole window start at its bottom; more is refused. */
static void test_stack_window(void **state) {
  (void)state;
  struct sg_arg_value args[5] = {{.buffer = NULL}, {.buffer = NULL}, {.buffer = NULL},
                                 {.local_size = 16}, {.bytes = "abcd"}};
  struct sg_launch launch = launch_with(args);
  struct sg_launch_memmap m;
  char err[256] = "";
  assert_int_equal(sg_memmap_build(&launch, params, sizeof params, 16, 0xa0000000ull, &m, err,
                                   sizeof err), SG_OK);
  assert_int_equal(m.stack_base, SG_ADDR_STACK);
  assert_int_equal(m.regions[m.stack_index].size, 0xa0000000ull);
  sg_memmap_free(&m);
  assert_int_equal(sg_memmap_build(&launch, params, sizeof params, 16, 0xa0000010ull, &m, err,
                                   sizeof err), SG_EINVAL);
  assert_non_null(strstr(err, "exceed the 0xa0000000-byte stack window"));
}

/* Each work-item's stack: private_size rounded up to 16, at least
 * stack_per_lane when unbounded; how many such stacks the window holds. */
static void test_private_size(void **state) {
  (void)state;
  struct sg_config cfg = {.stack_per_lane = 16384};
  struct sg_kernel_info k = {.name = "k"};
  assert_int_equal(sg_device_private_size(&cfg, &k), 0);
  assert_int_equal(sg_device_private_max_items(&cfg, &k), UINT64_MAX);
  k.private_size = 10257;
  assert_int_equal(sg_device_private_size(&cfg, &k), 10272);
  assert_int_equal(sg_device_private_max_items(&cfg, &k), 0xa0000000ull / 10272);
  k.private_size = (3ull << 30) + 16; /* more than the window: not one fits */
  assert_int_equal(sg_device_private_size(&cfg, &k), (3ull << 30) + 16);
  assert_int_equal(sg_device_private_max_items(&cfg, &k), 0);
  k.private_size = UINT64_MAX - 3; /* saturates, never wraps to a small size */
  assert_int_equal(sg_device_private_size(&cfg, &k), UINT64_MAX);
  assert_int_equal(sg_device_private_max_items(&cfg, &k), 0);
  k.private_size = 100;
  k.uses = SG_USES_UNBOUNDED_STACK;
  assert_int_equal(sg_device_private_size(&cfg, &k), 16384);
  k.private_size = 20000;
  assert_int_equal(sg_device_private_size(&cfg, &k), 20000);
}

/* Argument names as findings print them: kind, index, the source name cut
 * at 48 characters, and never past the buffer given. */
static void test_arg_names(void **state) {
  (void)state;
  char long_name[64];
  memset(long_name, 'n', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = 0;
  struct sg_kernel_arg args[13] = {[0] = {.kind = SG_ARG_GLOBAL, .source_name = "in"},
                                   [1] = {.kind = SG_ARG_LOCAL, .source_name = ""},
                                   [2] = {.kind = SG_ARG_IMAGE, .source_name = NULL},
                                   [12] = {.kind = SG_ARG_CONSTANT, .source_name = long_name}};
  struct sg_kernel_info k = {.num_args = 13, .args = args};
  char out[96], want[96];
  sg_device_arg_name(&k, 0, out, sizeof out);
  assert_string_equal(out, "buffer argument 0 `in`");
  sg_device_arg_name(&k, 1, out, sizeof out);
  assert_string_equal(out, "__local argument 1");
  sg_device_arg_name(&k, 2, out, sizeof out);
  assert_string_equal(out, "image argument 2");
  sg_device_arg_name(&k, 12, out, sizeof out);
  snprintf(want, sizeof want, "buffer argument 12 `%.48s`", long_name);
  assert_string_equal(out, want);
  char small[10];
  sg_device_arg_name(&k, 0, small, sizeof small);
  assert_string_equal(small, "buffer ar");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stack_window),
      cmocka_unit_test(test_private_size),
      cmocka_unit_test(test_arg_names),
      cmocka_unit_test(test_regions_and_permissions),
      cmocka_unit_test(test_null_buffers_and_empty_windows),
      cmocka_unit_test(test_sub_buffer_merges),
      cmocka_unit_test(test_rejected_maps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
