/* SPDX-License-Identifier: MIT */
/* Tests for DESIGN.md 3, "ND-range to hardware" (device/sg_ndrange.c): grid
 * size, CTA ids (x fastest), CTA size, warp split and tail masks, checked
 * against hand-derived values and against counting the real work-items. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "sg_device.h"

static struct sg_cta_desc cta; /* 8 KiB of masks: keep it off the stack */

static struct sg_ndrange range(uint32_t dim, uint64_t gx, uint64_t gy, uint64_t gz,
                               uint64_t lx, uint64_t ly, uint64_t lz, bool partial) {
  return (struct sg_ndrange){.work_dim = dim,
                             .global_size = {gx, gy, gz},
                             .local_size = {lx, ly, lz},
                             .partial_groups = partial};
}

static void check_masks(const uint64_t *want, uint32_t n) {
  assert_int_equal(cta.num_warps, n);
  for (uint32_t w = 0; w < n; w++)
    assert_int_equal(cta.init_mask[w], want[w]);
}

static void test_grid_is_ceiling(void **state) {
  (void)state;
  uint64_t grid[3];
  struct sg_ndrange nd = range(2, 97, 64, 1, 32, 32, 1, false);
  sg_ndrange_grid(&nd, grid);
  assert_int_equal(grid[0], 4);
  assert_int_equal(grid[1], 2);
  assert_int_equal(grid[2], 1);
  nd = range(3, 1, 7, 9, 1, 7, 2, true);
  sg_ndrange_grid(&nd, grid);
  assert_int_equal(grid[0], 1);
  assert_int_equal(grid[1], 1);
  assert_int_equal(grid[2], 5);
}

/* 97 work-items in groups of 32, warps of 8: three full CTAs, then one with
 * a single real work-item. */
static void test_prime_1d_masked(void **state) {
  (void)state;
  struct sg_ndrange nd = range(1, 97, 1, 1, 32, 1, 1, false);
  const uint64_t full[4] = {0xFF, 0xFF, 0xFF, 0xFF}, last[4] = {0x1, 0, 0, 0};
  for (uint64_t i = 0; i < 3; i++) {
    sg_ndrange_cta(&nd, 8, i, &cta);
    assert_int_equal(cta.ctaid[0], i);
    assert_int_equal(cta.nctaid[0], 4);
    assert_int_equal(cta.ntid[0], 32);
    check_masks(full, 4);
  }
  sg_ndrange_cta(&nd, 8, 3, &cta);
  assert_int_equal(cta.ctaid[0], 3);
  assert_int_equal(cta.ntid[0], 32); /* the enqueued shape stays */
  assert_int_equal(cta.num_threads, 32);
  check_masks(last, 4);
}

static void test_prime_1d_partial(void **state) {
  (void)state;
  struct sg_ndrange nd = range(1, 97, 1, 1, 32, 1, 1, true);
  sg_ndrange_cta(&nd, 8, 2, &cta);
  assert_int_equal(cta.ntid[0], 32);
  sg_ndrange_cta(&nd, 8, 3, &cta);
  assert_int_equal(cta.ntid[0], 1);
  assert_int_equal(cta.ntid[1], 1);
  assert_int_equal(cta.ntid[2], 1);
  assert_int_equal(cta.num_threads, 1);
  const uint64_t want[1] = {0x1};
  check_masks(want, 1);
}

/* 10 threads in warps of 4: the last warp has 2 lanes. */
static void test_tail_lanes_of_last_warp(void **state) {
  (void)state;
  struct sg_ndrange nd = range(1, 10, 1, 1, 10, 1, 1, false);
  sg_ndrange_cta(&nd, 4, 0, &cta);
  const uint64_t want[3] = {0xF, 0xF, 0x3};
  assert_int_equal(cta.num_threads, 10);
  check_masks(want, 3);
}

/* global (5,3), local (4,2), warps of 4: grid (2,2); CTA linear 1 is (1,0),
 * 2 is (0,1). Thread t is (t % 4, t / 4): warp 0 is row y=0, warp 1 row y=1. */
static void test_2d_masked(void **state) {
  (void)state;
  struct sg_ndrange nd = range(2, 5, 3, 1, 4, 2, 1, false);
  const uint64_t c0[2] = {0xF, 0xF}, c1[2] = {0x1, 0x1}, c2[2] = {0xF, 0x0},
                 c3[2] = {0x1, 0x0};
  const uint64_t *want[4] = {c0, c1, c2, c3};
  const uint32_t id[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
  for (int i = 0; i < 4; i++) {
    sg_ndrange_cta(&nd, 4, (uint64_t)i, &cta);
    assert_int_equal(cta.ctaid[0], id[i][0]);
    assert_int_equal(cta.ctaid[1], id[i][1]);
    assert_int_equal(cta.nctaid[0], 2);
    assert_int_equal(cta.nctaid[1], 2);
    assert_int_equal(cta.num_threads, 8);
    check_masks(want[i], 2);
  }
}

static void test_2d_partial(void **state) {
  (void)state;
  struct sg_ndrange nd = range(2, 5, 3, 1, 4, 2, 1, true);
  const uint32_t ntid[4][2] = {{4, 2}, {1, 2}, {4, 1}, {1, 1}};
  const uint64_t mask[4] = {0xF, 0x3, 0xF, 0x1};
  const uint32_t warps[4] = {2, 1, 1, 1};
  for (int i = 0; i < 4; i++) {
    sg_ndrange_cta(&nd, 4, (uint64_t)i, &cta);
    assert_int_equal(cta.ntid[0], ntid[i][0]);
    assert_int_equal(cta.ntid[1], ntid[i][1]);
    assert_int_equal(cta.num_threads, ntid[i][0] * ntid[i][1]);
    assert_int_equal(cta.num_warps, warps[i]);
    assert_int_equal(cta.init_mask[warps[i] - 1], mask[i]);
  }
}

/* Grid (3,2,2): linear 7 = 1 + 0*3 + 1*6, linear 11 = 2 + 1*3 + 1*6. */
static void test_3d_cta_ids_x_fastest(void **state) {
  (void)state;
  struct sg_ndrange nd = range(3, 6, 4, 2, 2, 2, 1, false);
  sg_ndrange_cta(&nd, 4, 7, &cta);
  assert_int_equal(cta.ctaid[0], 1);
  assert_int_equal(cta.ctaid[1], 0);
  assert_int_equal(cta.ctaid[2], 1);
  sg_ndrange_cta(&nd, 4, 11, &cta);
  assert_int_equal(cta.ctaid[0], 2);
  assert_int_equal(cta.ctaid[1], 1);
  assert_int_equal(cta.ctaid[2], 1);
  assert_int_equal(cta.nctaid[0], 3);
  assert_int_equal(cta.nctaid[1], 2);
  assert_int_equal(cta.nctaid[2], 2);
}

/* global (2,2,3), local (2,2,2), warp 8: the second CTA in z has one real
 * z-plane; thread t has z = t / 4, so threads 0..3 run. Then local (3,2,2)
 * over global (2,2,2): x = t % 3 must be < 2 -> threads 0,1,3,4,6,7,9,10. */
static void test_3d_masks(void **state) {
  (void)state;
  struct sg_ndrange nd = range(3, 2, 2, 3, 2, 2, 2, false);
  sg_ndrange_cta(&nd, 8, 1, &cta);
  assert_int_equal(cta.ctaid[2], 1);
  const uint64_t want[1] = {0x0F};
  check_masks(want, 1);
  nd.partial_groups = true;
  sg_ndrange_cta(&nd, 8, 1, &cta);
  assert_int_equal(cta.ntid[2], 1);
  assert_int_equal(cta.num_threads, 4);
  check_masks(want, 1);

  nd = range(3, 2, 2, 2, 3, 2, 2, false);
  sg_ndrange_cta(&nd, 8, 0, &cta);
  const uint64_t want2[2] = {0xDB, 0x6}; /* 0b11011011, then threads 9,10 */
  check_masks(want2, 2);
}

/* 100 threads: ceil(100 / W) warps; last warp has 100 - (n-1)*W lanes. */
static void test_warp_sizes(void **state) {
  (void)state;
  struct sg_ndrange nd = range(1, 100, 1, 1, 100, 1, 1, false);
  const struct {
    uint32_t w, warps;
    uint64_t first, last;
  } t[] = {{1, 100, 0x1, 0x1},
           {4, 25, 0xF, 0xF},
           {8, 13, 0xFF, 0xF},
           {32, 4, 0xFFFFFFFF, 0xF},
           {64, 2, UINT64_MAX, (1ull << 36) - 1}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    sg_ndrange_cta(&nd, t[i].w, 0, &cta);
    assert_int_equal(cta.num_warps, t[i].warps);
    assert_int_equal(cta.init_mask[0], t[i].first);
    assert_int_equal(cta.init_mask[t[i].warps - 1], t[i].last);
  }
}

static void test_offset_does_not_change_masks(void **state) {
  (void)state;
  struct sg_ndrange nd = range(1, 97, 1, 1, 32, 1, 1, false);
  nd.global_offset[0] = 1000;
  sg_ndrange_cta(&nd, 8, 3, &cta);
  const uint64_t last[4] = {0x1, 0, 0, 0};
  check_masks(last, 4);
  nd = range(2, 5, 3, 1, 4, 2, 1, false);
  nd.global_offset[0] = 3;
  nd.global_offset[1] = 7;
  sg_ndrange_cta(&nd, 4, 1, &cta);
  const uint64_t c1[2] = {0x1, 0x1};
  check_masks(c1, 2);
}

static unsigned popcount(uint64_t m) {
  unsigned n = 0;
  for (; m; m &= m - 1)
    n++;
  return n;
}

/* Over many shapes and warp sizes (powers of two or not), the lanes that
 * run are exactly the ND-range's work-items: as many as
 * global_size[0]*[1]*[2], in both modes, each lane's by its local id; CTA
 * i has the ids of the i-th in x-fastest order and as many warps as its
 * threads fill. */
static void test_running_lanes_count_work_items(void **state) {
  (void)state;
  srand(12345);
  for (int iter = 0; iter < 300; iter++) {
    struct sg_ndrange nd = {.work_dim = 3, .partial_groups = iter & 1};
    uint64_t total = 1, grid[3];
    for (int d = 0; d < 3; d++) {
      nd.local_size[d] = 1 + (uint64_t)rand() % (d == 0 ? 20 : 5);
      nd.global_size[d] = 1 + (uint64_t)rand() % 40;
      total *= nd.global_size[d];
    }
    uint32_t w = iter % 3 ? 1u << (rand() % 7) : 1 + (uint32_t)rand() % 64;
    sg_ndrange_grid(&nd, grid);
    uint64_t ran = 0;
    for (uint64_t i = 0; i < grid[0] * grid[1] * grid[2]; i++) {
      sg_ndrange_cta(&nd, w, i, &cta);
      assert_int_equal(cta.ctaid[0], i % grid[0]);
      assert_int_equal(cta.ctaid[1], i / grid[0] % grid[1]);
      assert_int_equal(cta.ctaid[2], i / (grid[0] * grid[1]));
      assert_int_equal(cta.num_warps, (cta.num_threads + w - 1) / w);
      for (uint32_t k = 0; k < cta.num_warps; k++)
        ran += popcount(cta.init_mask[k]);
      /* and each lane runs exactly when its work-item is in the range */
      for (uint32_t t = 0; t < cta.num_warps * w; t++) {
        uint32_t id[3] = {t % cta.ntid[0], t / cta.ntid[0] % cta.ntid[1],
                          t / cta.ntid[0] / cta.ntid[1]};
        bool in = t < cta.num_threads;
        for (int d = 0; d < 3; d++)
          in = in && cta.ctaid[d] * nd.local_size[d] + id[d] < nd.global_size[d];
        assert_int_equal(cta.init_mask[t / w] >> (t % w) & 1, in);
      }
    }
    assert_int_equal(ran, total);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_grid_is_ceiling),
      cmocka_unit_test(test_prime_1d_masked),
      cmocka_unit_test(test_prime_1d_partial),
      cmocka_unit_test(test_tail_lanes_of_last_warp),
      cmocka_unit_test(test_2d_masked),
      cmocka_unit_test(test_2d_partial),
      cmocka_unit_test(test_3d_cta_ids_x_fastest),
      cmocka_unit_test(test_3d_masks),
      cmocka_unit_test(test_warp_sizes),
      cmocka_unit_test(test_offset_does_not_change_masks),
      cmocka_unit_test(test_running_lanes_count_work_items),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
