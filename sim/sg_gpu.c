/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), timing mode: the machine. Cores run in
 * cycle quanta on host threads, each core on its own; at the end of each
 * quantum the last thread to get there serves the requests the cores sent to the shared L2
 * and DRAM, in the order they arrive there (cycle, then core, then the
 * core's own order), and hands each core its responses. A quantum is never
 * longer than the quickest round trip to the L2 (2 noc_latency +
 * l2_latency), so no response is due before the quantum that sees it, and
 * the cycles do not depend on how many host threads there are. Atomics on
 * global memory are performed there too, in that order. Each core's port
 * to the interconnect carries noc_bytes_per_cycle each way: data queue for
 * it, in the order the merge serves them. */
#define _GNU_SOURCE
#include "sg_timing.h"

#include <fenv.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Where the host threads meet at the end of each quantum: thousands of
 * times in a launch, with a quantum's work per thread often a hundred
 * microseconds or less. The last thread to arrive does what comes between
 * quanta (the merge) and lets the others go: one meeting a quantum, and
 * no thread waits for a chosen one. A thread that arrives early spins for
 * up to MEET_SPIN_NS before it sleeps on a futex: a quantum's work differs
 * between threads by tens to hundreds of microseconds, and waking a
 * sleeping thread every quantum (pthread_barrier_wait) cost a third of a
 * two-thread launch, more where the host's idle cores halt. It does not
 * spin when there are more threads than host cores it may use: the thread
 * it waits for may need its core. (Yielding instead of spinning hands the
 * core to any other process for a whole time slice.) */
struct meeting {
  _Atomic uint32_t arrived;
  _Atomic uint32_t round;    /* the futex word: changes when all have arrived */
  _Atomic uint32_t sleepers; /* on the futex: only then is a wake-up a system call */
  uint32_t threads;
  bool spin; /* each thread has a host core of its own */
};

#define MEET_SPIN_NS 2000000u

static uint64_t clock_ns(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield");
#endif
}

static void meet(struct meeting *m, void (*last)(struct sg_gpu *), struct sg_gpu *g) {
  uint32_t round = atomic_load_explicit(&m->round, memory_order_acquire);
  if (atomic_fetch_add_explicit(&m->arrived, 1, memory_order_acq_rel) + 1 == m->threads) {
    last(g);
    atomic_store_explicit(&m->arrived, 0, memory_order_relaxed);
    atomic_fetch_add(&m->round, 1); /* sequentially consistent with sleepers below */
    if (atomic_load(&m->sleepers))
      syscall(SYS_futex, &m->round, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
    return;
  }
  uint64_t until = clock_ns(CLOCK_MONOTONIC) + MEET_SPIN_NS;
  for (uint32_t i = 1; m->spin; i++) {
    if (atomic_load_explicit(&m->round, memory_order_acquire) != round)
      return;
    cpu_relax();
    if (i % 64 == 0 && clock_ns(CLOCK_MONOTONIC) >= until) /* the clock now and then */
      break;
  }
  atomic_fetch_add(&m->sleepers, 1);
  while (atomic_load(&m->round) == round)
    syscall(SYS_futex, &m->round, FUTEX_WAIT_PRIVATE, round, NULL, NULL, 0);
  atomic_fetch_sub(&m->sleepers, 1);
}

/* A core's port, one direction: which cycles carry data. Cycle c is taken
 * when slot[c % PORT_WINDOW] == c + 1; reservations lie within the window
 * ahead of the merge (a few memory latencies). */
#define PORT_WINDOW 4096u
struct port {
  uint32_t *slot;
};

struct sg_gpu {
  struct sg_sim_config sim;
  struct sg_timing_config t;
  uint32_t cores;
  struct sg_tcore **tc;
  _Atomic uint64_t *taken; /* per core: the last quantum (+1) a thread took it for */
  struct sg_l2 l2;
  struct port *up, *down; /* per core: to the L2 (written data), from it (read data) */
  /* the launch running */
  const struct sg_gpu_launch *l;
  uint32_t threads;
  struct meeting meeting;
  uint64_t now, quantum, sample_every; /* sample_every: quanta per sample */
  uint64_t next_cta;                   /* the dispatcher's next CTA */
  uint64_t quanta;
  bool done;
  struct sg_mem_req *merge;
  size_t cap;
  uint32_t *s_issued, *s_warps, nsamples, capsamples;
  uint64_t watchdog_cta; /* a CTA running when the watchdog fired */
  _Atomic uint64_t cpu_ns; /* host CPU time the launch's threads spent */
  bool watchdog;
  bool nomem;            /* the merge ran out of host memory */
};

static const char *const stall_names[] = {
#define SG_STALL(name, text) #name,
#include "sg_timing_stats.def"
#undef SG_STALL
};

const char *sg_stall_name(enum sg_stall s) {
  return s < SG_NUM_STALLS ? stall_names[s] : "?";
}

enum { KIND_SUM, KIND_MAX };
void sg_timing_stats_add(struct sg_timing_stats *into, const struct sg_timing_stats *from) {
#define SUM KIND_SUM
#define MAX KIND_MAX
#define SG_TSTAT(name, kind, help)                                                            \
  into->name = kind == KIND_MAX ? (from->name > into->name ? from->name : into->name)          \
                                : into->name + from->name;
#include "sg_timing_stats.def"
#undef SG_TSTAT
#undef SUM
#undef MAX
  for (int i = 0; i < SG_NUM_STALLS; i++)
    into->stalls[i] += from->stalls[i];
}

/* ---- Configuration ------------------------------------------------------ */

static bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

const char *sg_timing_config_check(const struct sg_timing_config *t, uint32_t warp_size,
                                   uint32_t warp_slots, char *why, size_t len) {
  (void)warp_size;
  bool slots = warp_slots != 0; /* the machine's warp slots count (timing mode) */
#define REQUIRE(key, cond, ...)                                                               \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      snprintf(why, len, __VA_ARGS__);                                                        \
      return #key;                                                                            \
    }                                                                                         \
  } while (0)
#define LATENCY(key) REQUIRE(key, t->key >= 1 && t->key <= 100000, "must be 1..100000 cycles")
  LATENCY(alu_latency); LATENCY(alu_ii); LATENCY(mul_latency); LATENCY(mul_ii);
  LATENCY(div_latency); LATENCY(div_ii); LATENCY(fpu_latency); LATENCY(fpu_ii);
  LATENCY(sfu_latency); LATENCY(sfu_ii); LATENCY(simt_latency); LATENCY(branch_latency);
  LATENCY(tex_latency); LATENCY(icache_latency); LATENCY(l1_latency); LATENCY(const_latency);
  LATENCY(smem_latency); LATENCY(noc_latency); LATENCY(l2_latency); LATENCY(dram_latency);
  LATENCY(atomic_latency); LATENCY(lsu_ii); LATENCY(smem_replay);
  REQUIRE(noc_bytes_per_cycle, t->noc_bytes_per_cycle >= 1, "must be at least 1");
#undef LATENCY
  REQUIRE(sched_per_core, t->sched_per_core >= 1 && t->sched_per_core <= 64, "must be 1..64");
  REQUIRE(sched_per_core, !slots || t->sched_per_core <= warp_slots,
          "must be at most %u (no more schedulers than warp slots)", warp_slots);
  REQUIRE(sched_per_core, !slots || (warp_slots + t->sched_per_core - 1) / t->sched_per_core <= 64,
          "too few for %u warp slots: a scheduler holds at most 64 warps", warp_slots);
  REQUIRE(cta_slots, t->cta_slots >= 1 && t->cta_slots <= 1024, "must be 1..1024");
  REQUIRE(ibuffer_size, t->ibuffer_size >= 1 && t->ibuffer_size <= SG_IBUF_MAX,
          "must be 1..%u", SG_IBUF_MAX);
  REQUIRE(fetch_width, t->fetch_width >= 1, "must be at least 1");
  REQUIRE(collector_units, t->collector_units >= 1 && t->collector_units <= 256, "must be 1..256");
  REQUIRE(reg_banks, t->reg_banks >= 1 && t->reg_banks <= 256, "must be 1..256");
  REQUIRE(regs_per_core, t->regs_per_core >= 64, "must be at least 64");
  REQUIRE(lsu_queue, t->lsu_queue >= 1 && t->lsu_queue <= 256, "must be 1..256");
  REQUIRE(smem_banks, t->smem_banks >= 1 && t->smem_banks <= 64, "must be 1..64");
  REQUIRE(smem_bank_bytes, pow2(t->smem_bank_bytes), "must be a power of two");
  REQUIRE(dram_bytes_per_cycle, t->dram_bytes_per_cycle >= 1, "must be at least 1");
  REQUIRE(dram_channels, t->dram_channels >= 1 && t->dram_channels <= 1024, "must be 1..1024");
  REQUIRE(dram_banks, t->dram_banks >= 1 && t->dram_banks <= 1024, "must be 1..1024");
  REQUIRE(dram_row_bytes, pow2(t->dram_row_bytes) && t->dram_row_bytes >= t->l2_line,
          "must be a power of two, at least an L2 line");
  REQUIRE(l2_banks, t->l2_banks >= 1 && t->l2_banks <= 1024, "must be 1..1024");
  REQUIRE(l1_mshrs, t->l1_mshrs >= 1 && t->l1_mshrs <= 1024, "must be 1..1024");
  /* caches: lines and sectors powers of two, a line at least a sector and
   * at most 32 of them, the size whole sets of ways */
#define CACHE(size, assoc, line, sector, ways_of)                                              \
  REQUIRE(line, pow2(t->line) && t->line >= 4 && t->line <= 4096,                             \
          "must be a power of two, 4..4096 bytes");                                          \
  REQUIRE(line, t->line >= (sector) && t->line / (sector) <= 32,                              \
          "must hold 1..32 sectors (an L1 line smaller than a sector?)");                     \
  REQUIRE(assoc, t->assoc >= 1 && t->assoc <= 64, "must be 1..64");                           \
  REQUIRE(size, t->size >= (uint64_t)t->line * t->assoc * (ways_of) &&                        \
                    t->size % ((uint64_t)t->line * t->assoc * (ways_of)) == 0,              \
          "must be a multiple of line x ways%s (%" PRIu64 " bytes)",                         \
          (ways_of) > 1 ? " x banks" : "", (uint64_t)t->line * t->assoc * (ways_of));
  REQUIRE(l1_sector, pow2(t->l1_sector) && t->l1_sector >= 4, "must be a power of two, at least 4");
  REQUIRE(l2_sector, pow2(t->l2_sector) && t->l2_sector >= 4, "must be a power of two, at least 4");
  CACHE(l1_size, l1_assoc, l1_line, t->l1_sector, 1);
  CACHE(l2_size, l2_assoc, l2_line, t->l2_sector, t->l2_banks);
  CACHE(icache_size, icache_assoc, icache_line, t->icache_line, 1);
  CACHE(const_size, const_assoc, const_line, t->const_line, 1);
#undef CACHE
  REQUIRE(l1_sector, t->l1_sector >= t->l2_sector && t->l1_sector % t->l2_sector == 0,
          "must be a multiple of l2_sector (the L2 serves whole L1 sectors)");
  return NULL;
#undef REQUIRE
}

/* ---- The machine ----------------------------------------------------------- */

enum sg_status sg_gpu_create(const struct sg_sim_config *sim, const struct sg_timing_config *t,
                             uint32_t cores, struct sg_gpu **out) {
  char why[160];
  *out = NULL;
  if (!cores || sg_timing_config_check(t, sim->warp_size, sim->warp_slots, why, sizeof why))
    return SG_EINVAL;
  struct sg_gpu *g = calloc(1, sizeof *g);
  if (!g)
    return SG_ENOMEM;
  g->sim = *sim;
  g->sim.defer_global_atomics = true;
  g->sim.cta_slots = t->cta_slots;
  g->t = *t;
  g->cores = cores;
  g->quantum = 2ull * t->noc_latency + t->l2_latency;
  if (!(g->tc = calloc(cores, sizeof *g->tc)) || !(g->taken = calloc(cores, sizeof *g->taken)) ||
      !(g->up = calloc(cores, sizeof *g->up)) ||
      !(g->down = calloc(cores, sizeof *g->down)) || sg_l2_init(&g->l2, &g->t) != SG_OK) {
    sg_gpu_destroy(g);
    return SG_ENOMEM;
  }
  for (uint32_t c = 0; c < cores; c++)
    if (!(g->up[c].slot = calloc(PORT_WINDOW, sizeof *g->up[c].slot)) ||
        !(g->down[c].slot = calloc(PORT_WINDOW, sizeof *g->down[c].slot))) {
      sg_gpu_destroy(g);
      return SG_ENOMEM;
    }
  for (uint32_t c = 0; c < cores; c++)
    if (sg_tcore_create(&g->t, &g->sim, c, &g->tc[c]) != SG_OK) {
      sg_gpu_destroy(g);
      return SG_ENOMEM;
    }
  *out = g;
  return SG_OK;
}

void sg_gpu_destroy(struct sg_gpu *g) {
  if (!g)
    return;
  for (uint32_t c = 0; g->tc && c < g->cores; c++)
    sg_tcore_destroy(g->tc[c]);
  for (uint32_t c = 0; g->up && g->down && c < g->cores; c++) {
    free(g->up[c].slot);
    free(g->down[c].slot);
  }
  free(g->up);
  free(g->down);
  free(g->tc);
  free(g->taken);
  sg_l2_free(&g->l2);
  free(g->merge);
  free(g->s_issued);
  free(g->s_warps);
  free(g);
}

/* The registers of `warps` warps of ws lanes running code: every lane
 * has each register the code names (x and f). */
static uint64_t warp_registers(uint64_t warps, uint32_t ws, const struct sg_code *code) {
  return warps * ws * sg_code_registers(code);
}

uint32_t sg_timing_max_cta_threads(const struct sg_timing_config *t, uint32_t warp_size,
                                   const struct sg_code *code) {
  uint64_t one = warp_registers(1, warp_size, code);
  uint64_t threads = one ? t->regs_per_core / one * warp_size : UINT32_MAX;
  return threads < UINT32_MAX ? (uint32_t)threads : UINT32_MAX;
}

uint32_t sg_gpu_occupancy(const struct sg_gpu *g, const struct sg_code *code,
                          uint32_t threads_per_cta, uint64_t local_per_cta,
                          uint64_t local_per_core, const char **limit) {
  uint32_t ws = g->sim.warp_size, warps = (threads_per_cta + ws - 1) / ws;
  uint64_t regs = warp_registers(warps, ws, code);
  struct {
    uint64_t n;
    const char *what;
  } lim[] = {
      {g->t.cta_slots, "cta_slots"},
      {warps ? g->sim.warp_slots / warps : 0, "warp slots (warps_per_core)"},
      {regs ? g->t.regs_per_core / regs : UINT64_MAX, "registers (regs_per_core)"},
      {local_per_cta ? local_per_core / local_per_cta : UINT64_MAX,
       "local memory (local_mem_per_core)"},
  };
  uint64_t best = UINT64_MAX;
  *limit = lim[0].what;
  for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++)
    if (lim[i].n < best)
      best = lim[i].n, *limit = lim[i].what;
  return best > UINT32_MAX ? UINT32_MAX : (uint32_t)best;
}

/* The CTA dispatcher: CTAs in order to the cores with room, one per core
 * in turn, so a launch spreads over the cores and a core that finishes
 * early gets more (between quanta: the cycles do not depend on threads). */
static void dispatch(struct sg_gpu *g) {
  for (bool any = true; any && g->next_cta < g->l->num_ctas;) {
    any = false;
    for (uint32_t c = 0; c < g->cores && g->next_cta < g->l->num_ctas; c++)
      if (sg_tcore_cta_room(g->tc[c])) {
        sg_tcore_cta_assign(g->tc[c], g->next_cta++);
        any = true;
      }
  }
}

enum sg_status sg_gpu_start(struct sg_gpu *g, const struct sg_gpu_launch *l, uint32_t threads) {
  if (!threads || !l->ctas_per_core)
    return SG_EINVAL;
  threads = threads < g->cores ? threads : g->cores;
  cpu_set_t may;
  bool room = sched_getaffinity(0, sizeof may, &may) == 0 && (uint32_t)CPU_COUNT(&may) >= threads;
  g->meeting = (struct meeting){.threads = threads, .spin = room};
  g->l = l;
  g->threads = threads;
  g->now = 0;
  g->quanta = 0;
  g->done = false;
  g->watchdog = g->nomem = false;
  g->nsamples = 0;
  g->sample_every = g->t.sample_cycles ? (g->t.sample_cycles + g->quantum - 1) / g->quantum : 0;
  sg_l2_clear(&g->l2);
  g->next_cta = 0;
  g->cpu_ns = 0;
  for (uint32_t c = 0; c < g->cores; c++)
    atomic_store_explicit(&g->taken[c], 0, memory_order_relaxed);
  return SG_OK; /* the cores are reset by the threads that run them (sg_gpu_work) */
}

/* A core and its ports ready for the launch. */
static void core_launch(struct sg_gpu *g, uint32_t c) {
  memset(g->up[c].slot, 0, PORT_WINDOW * sizeof *g->up[c].slot);
  memset(g->down[c].slot, 0, PORT_WINDOW * sizeof *g->down[c].slot);
  sg_tcore_launch(g->tc[c], g->l, g->cores);
  sg_tcore_set_policy(g->tc[c], g->sim.sched);
}

/* `bytes` over port p from cycle `from` on: the first run of free cycles
 * long enough; returns the cycle its last part arrives. Nothing: from. */
static uint64_t port_carry(struct port *p, uint64_t from, uint32_t bytes, uint32_t per_cycle) {
  uint32_t need = (bytes + per_cycle - 1) / per_cycle;
  if (need == 0)
    return from;
  if (need > PORT_WINDOW / 2)
    need = PORT_WINDOW / 2;
  uint64_t start = from;
  for (uint32_t k = 0; k < need;) {
    uint64_t c = start + k;
    if (p->slot[c % PORT_WINDOW] == (uint32_t)(c + 1)) {
      start = c + 1; /* taken: try after it */
      k = 0;
    } else {
      k++;
    }
  }
  for (uint32_t k = 0; k < need; k++)
    p->slot[(start + k) % PORT_WINDOW] = (uint32_t)(start + k + 1);
  return start + need - 1;
}

static int by_arrival(const void *a, const void *b) {
  const struct sg_mem_req *x = a, *y = b;
  if (x->cycle != y->cycle)
    return x->cycle < y->cycle ? -1 : 1;
  if (x->core != y->core)
    return x->core < y->core ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void sample(struct sg_gpu *g) {
  if (g->nsamples == g->capsamples) {
    uint32_t cap = g->capsamples ? 2 * g->capsamples : 256;
    uint32_t *a = realloc(g->s_issued, cap * sizeof *a), *b = a ? realloc(g->s_warps, cap * sizeof *b) : NULL;
    if (a)
      g->s_issued = a;
    if (!a || !b)
      return; /* samples are optional: the run goes on without more */
    g->s_warps = b;
    g->capsamples = cap;
  }
  uint32_t issued = 0, warps = 0;
  for (uint32_t c = 0; c < g->cores; c++) {
    uint32_t i, w;
    sg_tcore_sample(g->tc[c], &i, &w);
    issued += i;
    warps += w;
  }
  g->s_issued[g->nsamples] = issued;
  g->s_warps[g->nsamples++] = warps;
}

/* The end of a quantum, on one thread: the L2 serves every request in
 * arrival order; then done, fault and watchdog are decided for all. */
static void merge(struct sg_gpu *g) {
  size_t n = 0;
  for (uint32_t c = 0; c < g->cores; c++) {
    uint32_t k;
    sg_tcore_requests(g->tc[c], &k);
    n += k;
  }
  if (n > g->cap) {
    struct sg_mem_req *p = realloc(g->merge, n * sizeof *p);
    if (!p) { /* the launch cannot go on: sg_gpu_finish says so */
      g->nomem = g->done = true;
      return;
    }
    g->merge = p, g->cap = n;
  }
  n = 0;
  for (uint32_t c = 0; c < g->cores; c++) {
    uint32_t k;
    struct sg_mem_req *r = sg_tcore_requests(g->tc[c], &k);
    if (k)
      memcpy(g->merge + n, r, k * sizeof *r);
    n += k;
    sg_tcore_clear_requests(g->tc[c]);
  }
  if (n > 1)
    qsort(g->merge, n, sizeof *g->merge, by_arrival);
  uint32_t bw = g->t.noc_bytes_per_cycle;
  for (size_t i = 0; i < n; i++) {
    struct sg_mem_req *r = &g->merge[i];
    struct sg_tcore *tc = g->tc[r->core];
    if (r->atomic >= 0)
      sg_tcore_atomic(tc, r->atomic);
    if (r->kind == SG_REQ_WRITE) /* the data goes up; other requests are a header */
      r->cycle = port_carry(&g->up[r->core], r->cycle, r->bytes, bw);
    uint64_t at = sg_l2_access(&g->l2, r, sg_tcore_stats(tc));
    if (r->kind != SG_REQ_WRITE)
      sg_tcore_respond(tc, &(struct sg_mem_resp){
                               .cycle = port_carry(&g->down[r->core], at, r->bytes, bw),
                               .addr = r->addr, .tag = r->tag, .kind = r->kind});
  }
  g->now += g->quantum;
  g->quanta++;
  if (g->sample_every && g->quanta % g->sample_every == 0)
    sample(g);
  dispatch(g);
  bool done = g->next_cta == g->l->num_ctas, faulted = false;
  for (uint32_t c = 0; c < g->cores; c++) {
    done &= sg_tcore_idle(g->tc[c]);
    faulted |= sg_tcore_faulted(g->tc[c]);
  }
  if (!faulted && !done && g->t.watchdog_cycles && g->now >= g->t.watchdog_cycles) {
    /* every core stops its oldest running warp: the report names the
     * lowest CTA's, like any fault */
    char what[96];
    snprintf(what, sizeof what, "ran past the watchdog limit of %" PRIu64 " cycles (watchdog_cycles)",
             g->t.watchdog_cycles);
    for (uint32_t c = 0; c < g->cores; c++)
      sg_tcore_stop(g->tc[c], SG_FAULT_WATCHDOG, what);
    g->watchdog = true;
  }
  g->done = done || faulted || g->watchdog;
  if (g->done && g->sample_every && g->quanta % g->sample_every)
    sample(g);
  if (g->l->progress && !g->done)
    g->l->progress(g->l->ctx, g);
}

/* While threads meet every quantum, two on one host core take turns a
 * time slice at a time until the kernel moves one (milliseconds), with
 * another core idle: each keeps a core of its own (the thread-th of those
 * it may use) for the launch when there are enough. */
static bool keep_core(const struct sg_gpu *g, uint32_t thread, cpu_set_t *was) {
  if (g->threads < 2 || !g->meeting.spin || sched_getaffinity(0, sizeof *was, was) != 0)
    return false;
  uint32_t k = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET(cpu, was) && k++ == thread) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpu, &one);
      return sched_setaffinity(0, sizeof one, &one) == 0;
    }
  return false;
}

/* Whether this thread runs core c this quantum: the first to ask does. */
static bool take(struct sg_gpu *g, uint32_t c) {
  uint64_t q = g->quanta + 1;
  return atomic_load_explicit(&g->taken[c], memory_order_relaxed) != q &&
         atomic_exchange_explicit(&g->taken[c], q, memory_order_relaxed) != q;
}

/* One quantum of the cores: a thread runs its own (every threads-th, the
 * ones it reset), then, from the far end, those another thread has not
 * reached yet, so a host core that runs slower this quantum (a busier
 * vCPU, a page fault) holds the others up less. Cores do not interact
 * within a quantum: who runs one does not change a cycle. */
static void run_quantum(struct sg_gpu *g, uint32_t thread) {
  for (uint32_t c = thread; c < g->cores; c += g->threads)
    if (take(g, c))
      sg_tcore_run(g->tc[c], g->now, g->now + g->quantum);
  for (uint32_t c = g->cores; c-- > 0;)
    if (c % g->threads != thread && take(g, c))
      sg_tcore_run(g->tc[c], g->now, g->now + g->quantum);
}

void sg_gpu_work(struct sg_gpu *g, uint32_t thread) {
  if (thread >= g->threads)
    return;
  cpu_set_t was;
  bool kept = keep_core(g, thread, &was);
  uint64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
  /* The FP semantics assume the default environment; the host's is kept. */
  fenv_t host_env;
  feholdexcept(&host_env);
  fesetround(FE_TONEAREST);
  for (uint32_t c = thread; c < g->cores; c += g->threads)
    core_launch(g, c);
  meet(&g->meeting, dispatch, g);
  while (!g->done) {
    run_quantum(g, thread);
    meet(&g->meeting, merge, g);
  }
  fesetenv(&host_env);
  if (kept)
    sched_setaffinity(0, sizeof was, &was);
  g->cpu_ns += clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu;
}

uint64_t sg_gpu_cycles(const struct sg_gpu *g) { return g->now; }

uint64_t sg_gpu_ctas_done(const struct sg_gpu *g) {
  uint64_t n = 0;
  for (uint32_t c = 0; c < g->cores; c++)
    n += sg_tcore_ctas_done(g->tc[c]);
  return n;
}

enum sg_status sg_gpu_finish(struct sg_gpu *g, struct sg_timing_result *res,
                             struct sg_fault *fault, uint64_t *fault_cta) {
  memset(res, 0, sizeof *res);
  res->cores = g->cores;
  res->sched_per_core = g->t.sched_per_core;
  res->dram_channels = g->t.dram_channels;
  res->ctas_per_core = g->l->ctas_per_core;
  res->occupancy_limit = g->l->occupancy_limit;
  res->core = calloc(g->cores, sizeof *res->core);
  /* the launch ends with its last busy cycle; idle cores count to there */
  uint64_t cycles = 0;
  for (uint32_t c = 0; c < g->cores; c++)
    cycles = sg_tcore_busy_end(g->tc[c]) > cycles ? sg_tcore_busy_end(g->tc[c]) : cycles;
  for (uint32_t c = 0; c < g->cores; c++) {
    sg_tcore_finish(g->tc[c], cycles);
    const struct sg_timing_stats *s = sg_tcore_stats(g->tc[c]);
    if (res->core)
      res->core[c] = *s;
    sg_timing_stats_add(&res->total, s);
  }
  res->host_cpu_ns = g->cpu_ns;
  res->sample_cycles = (uint32_t)(g->sample_every * g->quantum);
  res->nsamples = g->nsamples;
  res->sample_issued = g->s_issued;
  res->sample_warps = g->s_warps;
  g->s_issued = g->s_warps = NULL;
  g->capsamples = g->nsamples = 0;
  bool nomem = g->nomem;
  for (uint32_t c = 0; c < g->cores; c++)
    nomem |= sg_tcore_nomem(g->tc[c]);
  if (nomem)
    return SG_ENOMEM;
  /* the fault of the lowest faulting CTA */
  enum sg_status st = SG_OK;
  uint64_t best = UINT64_MAX;
  for (uint32_t c = 0; c < g->cores; c++) {
    uint64_t cta;
    const struct sg_fault *f = sg_tcore_fault(g->tc[c], &cta);
    if (sg_tcore_faulted(g->tc[c]) && cta < best) {
      best = cta;
      *fault = *f;
      *fault_cta = cta;
      st = SG_EFAULT;
    }
  }
  if (st == SG_OK && g->watchdog) {
    memset(fault, 0, sizeof *fault);
    fault->kind = SG_FAULT_WATCHDOG;
    snprintf(fault->what, sizeof fault->what,
             "ran past the watchdog limit of %" PRIu64 " cycles (watchdog_cycles)",
             g->t.watchdog_cycles);
    *fault_cta = sg_gpu_ctas_done(g);
    st = SG_EFAULT;
  }
  return st;
}

void sg_timing_result_free(struct sg_timing_result *r) {
  free(r->core);
  free(r->sample_issued);
  free(r->sample_warps);
  memset(r, 0, sizeof *r);
}

/* ---- JSON ------------------------------------------------------------------ */

/* The counters, with IPC and the average of resident warps. */
static void put_counters(const struct sg_timing_stats *s, FILE *out) {
  double cycles = s->cycles ? (double)s->cycles : 1;
  fprintf(out, "\"ipc\":%.4f,\"occupancy_warps\":%.2f", (double)s->warp_insns / cycles,
          (double)s->resident_warps / cycles);
#define SG_TSTAT(name, kind, help) fprintf(out, ",\"" #name "\":%" PRIu64, s->name);
#include "sg_timing_stats.def"
#undef SG_TSTAT
  fputs(",\"stalls\":{", out);
  for (int i = 0; i < SG_NUM_STALLS; i++)
    fprintf(out, "%s\"%s\":%" PRIu64, i ? "," : "", stall_names[i], s->stalls[i]);
  fputc('}', out);
}

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

void sg_timing_result_print_json(const struct sg_timing_result *r, FILE *out) {
  const struct sg_timing_stats *s = &r->total;
  fputs("\"timing\":{", out);
  put_counters(s, out);
  fprintf(out,
          ",\"cores\":%u,\"sched_per_core\":%u,\"ctas_per_core\":%u,\"occupancy_limit\":\"%s\","
          "\"l1_hit_rate\":%.4f,\"const_hit_rate\":%.4f,\"icache_hit_rate\":%.4f,"
          "\"l2_hit_rate\":%.4f,\"transactions_per_request\":%.4f,\"dram_utilization\":%.4f",
          r->cores, r->sched_per_core, r->ctas_per_core,
          r->occupancy_limit ? r->occupancy_limit : "", ratio(s->l1_hits, s->l1_hits + s->l1_misses),
          ratio(s->const_hits, s->const_hits + s->const_misses),
          ratio(s->icache_hits, s->icache_hits + s->icache_misses),
          ratio(s->l2_hits, s->l2_hits + s->l2_misses),
          ratio(s->mem_transactions, s->mem_requests),
          ratio(s->dram_busy_cycles, s->cycles * r->dram_channels));
  fputs(",\"per_core\":[", out);
  for (uint32_t c = 0; r->core && c < r->cores; c++) {
    fputs(c ? ",{" : "{", out);
    put_counters(&r->core[c], out);
    fputc('}', out);
  }
  fprintf(out, "],\"samples\":{\"interval\":%u,\"issued\":[", r->sample_cycles);
  for (uint32_t i = 0; i < r->nsamples; i++)
    fprintf(out, "%s%u", i ? "," : "", r->sample_issued[i]);
  fputs("],\"warps\":[", out);
  for (uint32_t i = 0; i < r->nsamples; i++)
    fprintf(out, "%s%u", i ? "," : "", r->sample_warps[i]);
  fputs("]}}", out);
}
