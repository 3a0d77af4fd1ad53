/* SPDX-License-Identifier: MIT */
/* Timing mode's building blocks, each against what its configuration
 * says it must give: shared-memory bank conflicts (replays), coalescing
 * (transactions and sectors), the L2 and DRAM (hit, miss, row hit and row
 * miss latencies, counted from the keys of sg_timing_config.def) and the
 * warp schedulers' orders (lrr, gto). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sg_timing.h"

static struct sg_timing_config defaults(void) {
  struct sg_timing_config t = {
#define SG_TCFG(name, type, def, help) .name = def,
#include "sg_timing_config.def"
#undef SG_TCFG
  };
  return t;
}

static uint64_t full(unsigned lanes) { return lanes == 64 ? ~0ull : (1ull << lanes) - 1; }

/* 32 lanes, 4-byte words, 32 banks of 4 bytes: lane l at l * stride bytes.
 * A bank serves one distinct word per cycle, so the wavefronts are the
 * most distinct words any one bank holds. */
static void test_bank_conflicts(void **state) {
  (void)state;
  struct sg_timing_config t = defaults();
  uint64_t addr[64];
  const struct {
    uint32_t stride, wavefronts;
  } cases[] = {
      {4, 1},   /* one word per bank */
      {8, 2},   /* lanes l and l + 16 share bank 2l mod 32 */
      {12, 1},  /* 3 is odd: still a permutation of the banks */
      {16, 4},  /* 8 banks used, 4 words each */
      {128, 32} /* every lane in bank 0 */
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    for (unsigned l = 0; l < 32; l++)
      addr[l] = 0x40000000u + l * cases[c].stride;
    assert_int_equal(sg_smem_wavefronts(addr, full(32), 4, t.smem_banks, t.smem_bank_bytes),
                     cases[c].wavefronts);
  }
  /* The same word for every lane is broadcast: one wavefront. */
  for (unsigned l = 0; l < 32; l++)
    addr[l] = 0x40000100u;
  assert_int_equal(sg_smem_wavefronts(addr, full(32), 4, t.smem_banks, t.smem_bank_bytes), 1);
  /* Inactive lanes do not count: stride 128 with 3 lanes is 3 wavefronts. */
  for (unsigned l = 0; l < 32; l++)
    addr[l] = 0x40000000u + l * 128u;
  assert_int_equal(sg_smem_wavefronts(addr, 0x7, 4, t.smem_banks, t.smem_bank_bytes), 3);
}

/* Global accesses coalesce into one transaction per line touched, with the
 * sectors of that line the lanes touch. */
static void test_coalescing(void **state) {
  (void)state;
  struct sg_timing_config t = defaults();
  uint64_t addr[64];
  struct sg_txn txn[128];
  uint32_t sectors_per_line = t.l1_line / t.l1_sector;
  /* 32 consecutive words from a line boundary: one line, every sector. */
  for (unsigned l = 0; l < 32; l++)
    addr[l] = 0x100000000ull + 4 * l;
  assert_int_equal(sg_coalesce(addr, full(32), 4, t.l1_line, t.l1_sector, txn), 1);
  assert_int_equal(txn[0].line_addr, 0x100000000ull);
  assert_int_equal(txn[0].sectors, (1u << sectors_per_line) - 1);
  /* Shifted by half a line: two lines, half of each. */
  for (unsigned l = 0; l < 32; l++)
    addr[l] = 0x100000000ull + t.l1_line / 2 + 4 * l;
  assert_int_equal(sg_coalesce(addr, full(32), 4, t.l1_line, t.l1_sector, txn), 2);
  assert_int_equal(txn[0].sectors | txn[1].sectors, (1u << sectors_per_line) - 1);
  assert_int_equal(__builtin_popcount(txn[0].sectors), sectors_per_line / 2);
  /* One line per lane: 32 transactions of one sector. */
  for (unsigned l = 0; l < 32; l++)
    addr[l] = 0x100000000ull + (uint64_t)t.l1_line * l;
  assert_int_equal(sg_coalesce(addr, full(32), 4, t.l1_line, t.l1_sector, txn), 32);
  for (unsigned i = 0; i < 32; i++)
    assert_int_equal(__builtin_popcount(txn[i].sectors), 1);
}

/* The L2 and DRAM from an empty machine: latencies as the keys' help
 * states them (responses reach the core noc_latency after the L2). */
static void test_l2_dram(void **state) {
  (void)state;
  struct sg_timing_config t = defaults();
  struct sg_l2 m;
  struct sg_timing_stats s = {0};
  assert_int_equal(sg_l2_init(&m, &t), SG_OK);
  uint64_t a = 0x100000000ull, at = 1000;
  uint64_t burst = t.l2_sector / t.dram_bytes_per_cycle; /* one sector */
  struct sg_mem_req r = {.cycle = at, .addr = a, .bytes = t.l2_sector, .kind = SG_REQ_READ,
                         .atomic = -1};
  /* A miss that opens its DRAM row. */
  assert_int_equal(sg_l2_access(&m, &r, &s), at + t.l2_latency + t.dram_latency +
                                                  t.dram_row_miss + burst - 1 + t.noc_latency);
  assert_int_equal(s.l2_misses, 1);
  assert_int_equal(s.dram_row_misses, 1);
  /* The same sector later: an L2 hit. */
  r.cycle = at = 5000;
  assert_int_equal(sg_l2_access(&m, &r, &s), at + t.l2_latency + t.noc_latency);
  assert_int_equal(s.l2_hits, 1);
  /* The next line of the same channel is in the same DRAM row: a row hit
   * (lines interleave over channels, so it is dram_channels lines on). */
  r.cycle = at = 9000;
  r.addr = a + (uint64_t)t.dram_channels * t.l2_line;
  assert_int_equal(sg_l2_access(&m, &r, &s),
                   at + t.l2_latency + t.dram_latency + burst - 1 + t.noc_latency);
  assert_int_equal(s.dram_row_hits, 1);
  /* A write is taken by the L2 (write-allocate by sector, no DRAM read). */
  struct sg_mem_req w = {.cycle = at = 13000, .addr = a + 64 * (uint64_t)t.l2_line,
                         .bytes = t.l2_sector, .kind = SG_REQ_WRITE, .atomic = -1};
  assert_int_equal(sg_l2_access(&m, &w, &s), at + t.l2_latency + t.noc_latency);
  assert_int_equal(s.dram_reads, 2); /* the two misses' sectors only */
  sg_l2_free(&m);
}

/* lrr starts after the warp that issued last; gto keeps it first, then
 * takes the oldest. */
static void test_schedulers(void **state) {
  (void)state;
  uint64_t age[8] = {5, 1, 7, 3, 0, 0, 0, 0};
  uint32_t order[8];
  struct sg_sched s;
  sg_sched_init(&s, SG_SCHED_LRR, 4);
  sg_sched_update(&s, 1, 0, 0);
  assert_int_equal(sg_sched_order(&s, 0xf, 0, age, order), 4);
  assert_int_equal(order[0], 2);
  assert_int_equal(order[1], 3);
  assert_int_equal(order[2], 0);
  assert_int_equal(order[3], 1);
  sg_sched_init(&s, SG_SCHED_GTO, 4);
  sg_sched_update(&s, 2, 0, 0);
  assert_int_equal(sg_sched_order(&s, 0xf, 0, age, order), 4);
  assert_int_equal(order[0], 2); /* greedy */
  assert_int_equal(order[1], 1); /* then by age: 1, 3, 5 */
  assert_int_equal(order[2], 3);
  assert_int_equal(order[3], 0);
  /* a finished warp is skipped */
  assert_int_equal(sg_sched_order(&s, 0xb, 0, age, order), 3);
  assert_int_equal(order[0], 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bank_conflicts),
      cmocka_unit_test(test_coalescing),
      cmocka_unit_test(test_l2_dram),
      cmocka_unit_test(test_schedulers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
