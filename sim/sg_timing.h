/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), timing mode: private state of the
 * pipeline (sg_pipeline.c), its warp schedulers (sg_warp_sched.c), the
 * memory hierarchy (sg_mem.c) and the machine that runs them in cycle
 * quanta (sg_gpu.c). The timing model drives the functional core through
 * its public interface (sg_sim.h) and learns what each instruction did from
 * its record, like every consumer. Not part of the sim/ interface. */
#ifndef SG_TIMING_H
#define SG_TIMING_H

#include "sg_sim.h"

#define SG_TREGS 64      /* scoreboard: x0-x31, then f0-f31 */
#define SG_IBUF_MAX 16   /* ibuffer_size at most */
#define SG_NUM_UNITS 9   /* enum sg_unit */

/* ---- Caches: tags and sector state; the data lives in host memory ----- */

struct sg_cache_line {
  uint64_t line;  /* line number (address / line bytes); UINT64_MAX: empty */
  uint64_t lru;
  uint64_t ready; /* cycle its last fill arrives (the L2's view of DRAM) */
  uint32_t valid, dirty; /* sector masks */
};

struct sg_cache {
  uint32_t sets, ways, line, sector, line_shift, sector_shift;
  struct sg_cache_line *l; /* sets x ways */
  uint64_t *tag;           /* each way's line, as l[], contiguous for the lookup */
  uint64_t tick;
};

/* A cache's room; it holds something only after sg_cache_clear (a core
 * clears its caches at each launch, on the host thread that runs it). */
enum sg_status sg_cache_init(struct sg_cache *c, uint64_t size, uint32_t ways, uint32_t line,
                             uint32_t sector);
void sg_cache_free(struct sg_cache *c);
void sg_cache_clear(struct sg_cache *c);
/* The line holding address a's line, touched as used; NULL when absent. */
struct sg_cache_line *sg_cache_find(struct sg_cache *c, uint64_t a);
/* Makes room for a's line (its LRU way; *victim gets what was evicted)
 * and returns it empty of sectors. */
struct sg_cache_line *sg_cache_alloc(struct sg_cache *c, uint64_t a, struct sg_cache_line *victim);
/* Sector mask of [a, a + bytes) within a's line. */
uint32_t sg_cache_sectors(const struct sg_cache *c, uint64_t a, uint32_t bytes);

/* ---- Coalescing --------------------------------------------------------- */

/* One transaction: the sectors of one line a warp access touches. */
struct sg_txn {
  uint64_t line_addr; /* byte address of the line */
  uint32_t sectors;
};
/* Groups the active lanes' accesses (addr[l], size bytes each) by line of
 * `line` bytes with sectors of `sector` bytes, in order of first use;
 * returns the number of transactions (at most 64 x 2: an access may
 * straddle two lines). */
uint32_t sg_coalesce(const uint64_t *addr, uint64_t mask, uint32_t size, uint32_t line,
                     uint32_t sector, struct sg_txn *out);
/* Cycles a local memory access takes in the banks: the largest number of
 * distinct words one bank must deliver (the same word is broadcast). */
uint32_t sg_smem_wavefronts(const uint64_t *addr, uint64_t mask, uint32_t size, uint32_t banks,
                            uint32_t bank_bytes);
/* Distinct addresses of a warp access (the constant cache serves one a
 * cycle). */
uint32_t sg_distinct_addrs(const uint64_t *addr, uint64_t mask);

/* ---- Requests between the cores and the L2 ----------------------------- */

enum sg_req_kind { SG_REQ_READ, SG_REQ_WRITE, SG_REQ_ATOMIC, SG_REQ_IFETCH };

struct sg_mem_req {
  uint64_t cycle;   /* when it reaches the L2 */
  uint64_t addr;    /* sector-aligned */
  uint32_t bytes;   /* within one line of the sender's cache */
  uint32_t core, seq;
  uint32_t tag;     /* the sender's: what the response completes */
  uint16_t kind;    /* enum sg_req_kind */
  uint16_t lanes;   /* atomics: lane operations (each a cycle of the L2's ALU) */
  int32_t atomic;   /* atomics: the sender's pending atomic to perform first, -1 */
};

struct sg_mem_resp {
  uint64_t cycle;   /* when it reaches the core */
  uint64_t addr;    /* the request's */
  uint32_t tag;
  uint16_t kind;
};

/* The L2 banks and DRAM channels, shared by the cores; only the thread
 * that merges a quantum's requests touches them. */
struct sg_l2 {
  const struct sg_timing_config *t;
  struct sg_cache *bank;   /* l2_banks caches of l2_size / l2_banks */
  uint64_t *bank_free;     /* cycle each bank takes its next request */
  uint64_t *chan_free;     /* cycle each DRAM channel's bus is free */
  uint64_t *open_row;      /* per channel and bank: the open row (UINT64_MAX: none) */
  struct sg_timing_stats *stats; /* the requester core's counters get what it caused */
};
enum sg_status sg_l2_init(struct sg_l2 *m, const struct sg_timing_config *t);
void sg_l2_free(struct sg_l2 *m);
void sg_l2_clear(struct sg_l2 *m);
/* Serves one request (in arrival order across all cores); returns when its
 * response reaches the core (writes: when the L2 took it). Counts into s. */
uint64_t sg_l2_access(struct sg_l2 *m, const struct sg_mem_req *r, struct sg_timing_stats *s);

/* ---- The pipeline of one core (sg_pipeline.c) --------------------------- */

struct sg_tcore;
enum sg_status sg_tcore_create(const struct sg_timing_config *t, const struct sg_sim_config *sim,
                               uint32_t id, struct sg_tcore **out);
void sg_tcore_destroy(struct sg_tcore *tc);
/* A launch: the functional core to drive, its CTAs and consumers. */
void sg_tcore_launch(struct sg_tcore *tc, const struct sg_gpu_launch *l, uint32_t cores);
/* CTAs come from the machine's dispatcher: room for more, and one more. */
uint32_t sg_tcore_cta_room(const struct sg_tcore *tc);
void sg_tcore_cta_assign(struct sg_tcore *tc, uint64_t cta);
/* Simulates cycles [from, to) (stops early when idle or faulted). */
void sg_tcore_run(struct sg_tcore *tc, uint64_t from, uint64_t to);
bool sg_tcore_idle(const struct sg_tcore *tc);    /* no CTA given, placed or in flight */
uint64_t sg_tcore_busy_end(const struct sg_tcore *tc); /* the cycle after its last busy one */
/* The launch took `cycles`: the core was idle from its last busy cycle. */
void sg_tcore_finish(struct sg_tcore *tc, uint64_t cycles);
bool sg_tcore_faulted(const struct sg_tcore *tc); /* fault and its CTA index */
bool sg_tcore_nomem(const struct sg_tcore *tc);   /* out of host memory (also faulted) */
/* Stops the launch with a fault of `kind` at the next instruction of a
 * warp that has not finished; false when the core has none. */
bool sg_tcore_stop(struct sg_tcore *tc, enum sg_fault_kind kind, const char *what);
const struct sg_fault *sg_tcore_fault(const struct sg_tcore *tc, uint64_t *cta);
uint64_t sg_tcore_ctas_done(const struct sg_tcore *tc);
/* The requests of the last quantum (taken by the merge), and where the
 * responses go. */
struct sg_mem_req *sg_tcore_requests(struct sg_tcore *tc, uint32_t *n);
void sg_tcore_clear_requests(struct sg_tcore *tc);
void sg_tcore_respond(struct sg_tcore *tc, const struct sg_mem_resp *r);
/* Performs the deferred atomic `atomic` of a request (at the L2). */
void sg_tcore_atomic(struct sg_tcore *tc, int32_t atomic);
struct sg_timing_stats *sg_tcore_stats(struct sg_tcore *tc);
/* Issued and resident warps since the last call (samples). */
void sg_tcore_sample(struct sg_tcore *tc, uint32_t *issued, uint32_t *warps);
uint32_t sg_tcore_max_ctas(const struct sg_tcore *tc);
void sg_tcore_set_policy(struct sg_tcore *tc, uint32_t policy);

/* ---- Warp schedulers (sg_warp_sched.c) ---------------------------------- */

/* One issue scheduler's policy (config key sched): the order in which it
 * considers its warps this cycle. warps: its warp slots that hold a warp
 * (ascending), age: each slot's age (lower: older), last: the slot it
 * issued last (-1: none). */
struct sg_sched {
  uint32_t policy; /* enum from the sched key */
  uint32_t nslots;
  int32_t last;
  uint64_t visible, stalled; /* vortex: the visible and stalled masks (bits: index into the scheduler's slots) */
  uint32_t active[64], nactive; /* two_level: the active set (indices into the scheduler's slots) */
};
void sg_sched_init(struct sg_sched *s, uint32_t policy, uint32_t nslots);
/* Fills order[] with the scheduler's slot indices (0 .. nslots - 1) of
 * the resident, unfinished warps (bits of `live`) in the order to try;
 * returns how many. barrier: those waiting at a barrier. */
uint32_t sg_sched_order(struct sg_sched *s, uint64_t live, uint64_t barrier, const uint64_t *age,
                        uint32_t *order);
/* The scheduler issued from slot i (-1: none) this cycle; blocked: the
 * slots that could not issue (their reason), long_stall: those waiting on
 * memory. */
void sg_sched_update(struct sg_sched *s, int32_t issued, uint64_t blocked, uint64_t long_stall);

#endif
