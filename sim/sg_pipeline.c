/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), timing mode: the pipeline of one core,
 * cycle by cycle (seed 004; GPGPU-Sim's shader core, Vortex SimX): fetch
 * through the instruction cache into an I-buffer per warp, issue schedulers
 * with their policies, a scoreboard (per register, for the lanes of the
 * path that writes it), operand collector units reading register banks,
 * execution units with latency and initiation interval, a load/store unit
 * with the L1 data cache, the constant cache and local memory banks, and
 * the barrier table of the CTAs resident on the core. Functional first: the
 * core executes an instruction when it issues, and its record says what it
 * did (addresses, lanes, branch outcome); the pipeline decides when. */
#include "sg_timing.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT64_MAX

/* Response tags: what a response completes. */
enum { TAG_L1 = 1u << 28, TAG_CONST = 2u << 28, TAG_ATOMIC = 3u << 28, TAG_FETCH = 4u << 28,
       TAG_KIND = 15u << 28 };

struct pending { /* a scoreboard entry: lanes whose register waits */
  uint64_t mask, ready; /* ready NONE: a memory result not yet known */
  bool mem;
};

struct twarp {
  /* read every cycle for every slot: together, first */
  bool resident;
  bool next_valid;
  uint8_t ib_n, fetch_n; /* I-buffer entries; instructions being fetched (0: none) */
  enum sg_warp_status st;
  uint64_t fetch_at;     /* cycle its fetch in flight delivers (NONE: waits on a miss) */
  uint32_t cta;          /* its CTA slot */
  uint32_t in_cta;       /* its warp number within the CTA */
  uint64_t age;          /* when its CTA started, for oldest-first */
  /* fetch and I-buffer */
  uint64_t fetch_pc;
  uint32_t gen;          /* fetches of an older path are dropped */
  uint64_t ib[SG_IBUF_MAX];
  uint32_t ib_head;
  bool redirected;       /* its path changed: the refetch is a branch stall */
  uint64_t hold;         /* no issue before this cycle (a branch resolving) */
  uint32_t inflight;     /* memory instructions not complete */
  struct pending (*sb)[2]; /* SG_TREGS entries: the core's scoreboard rows of this slot */
  bool can_yield;        /* it issued since its last path switch */
  bool yield_failed;     /* it could not: no other path was ready (until it issues or a
                            barrier releases, the only changes to its paths) */
  /* what it runs next (cached until it steps: next_valid, st), and its
   * scoreboard numbers */
  struct sg_next_insn next;
  int32_t dst, src[3];
  /* why it could not issue, valid until stall_until (0: look again; NONE:
   * until one of its memory instructions completes) */
  int stall;
  uint64_t stall_until;
};

enum lsu_kind { LSU_GLOBAL_LOAD, LSU_STORE, LSU_ATOMIC, LSU_LOCAL, LSU_CONST, LSU_OTHER };

struct lsu_entry {
  uint32_t warp;
  int32_t dst;           /* scoreboard register, -1: none */
  uint64_t lanes;        /* the lanes it writes */
  uint64_t start;        /* the LSU may start it from this cycle */
  enum lsu_kind kind;
  uint32_t ntxn, next;   /* transactions (LSU_CONST: distinct lines) and the next one */
  struct sg_txn txn[2 * SG_MAX_WARP_SIZE];
  uint32_t wavefronts;   /* local memory wavefronts / constant addresses */
  uint32_t pending;      /* responses awaited */
  uint64_t ready;        /* latest data arrival known */
  int32_t atomic;        /* its deferred atomic (atomics[]), -1 */
  bool used, queued;
  bool private;          /* the stacks' (stores allocate in the L1) */
};

struct mshr {
  bool used;
  uint64_t line_addr;
  uint32_t sectors;
  uint32_t waiters[2 * SG_MAX_WARP_SIZE]; /* LSU entries */
  uint32_t nwait;
};

struct deferred { /* a deferred atomic, performed when the L2 serves it */
  bool used, done;
  uint32_t warp;
  struct sg_insn_record rec; /* its uop points into the code, which outlives it */
};

struct unit_state {
  uint64_t free;         /* the unit accepts its next instruction at this cycle */
};

struct sg_tcore {
  struct sg_hook hook;   /* the timing model is the core's consumer too */
  const struct sg_timing_config *t;
  struct sg_sim_config sim;
  uint32_t id, cores;
  struct sg_core *core;
  const struct sg_gpu_launch *l;
  struct sg_hook *hooks[16];
  uint32_t nhooks;
  const struct sg_insn_record *rec; /* the record of the instruction just stepped */
  uint64_t now;
  /* CTAs */
  uint64_t *assigned;    /* CTAs the dispatcher gave this core, not yet placed (a FIFO) */
  uint32_t assigned_head, assigned_n;
  uint64_t ctas_done;
  uint32_t resident_ctas;
  uint32_t ctas_per_core;
  uint64_t *cta_age;     /* per CTA slot: 0 free, else when it started + 1 */
  uint64_t *cta_index;   /* per CTA slot: the CTA it runs */
  uint64_t *cta_stack;   /* per CTA slot: its private stacks' base (sg_cta_desc.stack_base) */
  uint32_t *cta_stack_size; /* and bytes per work-item */
  bool *cta_changed;     /* per CTA slot: a warp issued or completed memory since the
                            last look (only then can it reach a barrier or its end) */
  /* warps and schedulers */
  uint32_t nwarps;       /* warp slots */
  struct twarp *w;
  uint32_t *res, nres;   /* the resident warps' slots, ascending: what the loops visit */
  uint64_t *res_mask;    /* per scheduler: its resident slots (bit k: slot s + k x schedulers) */
  struct pending (*sb)[2]; /* nwarps x SG_TREGS scoreboard rows */
  struct sg_sched *sched;
  struct unit_state *units; /* sched_per_core x SG_NUM_UNITS */
  uint64_t *bank_free;   /* register banks */
  uint64_t *collector;   /* per collector unit: busy until */
  uint32_t fetch_rr;
  /* memory */
  struct sg_cache icache, l1, cc;
  struct lsu_entry *lsu;
  uint32_t nlsu, lsu_top; /* entries; one past the highest in use */
  uint32_t *queue;       /* LSU FIFO of entry indices */
  uint32_t qhead, qn;
  uint64_t lsu_busy;
  struct mshr *mshr, *cmshr; /* L1's and the constant cache's */
  uint32_t mshr_top, cmshr_top; /* one past their highest entry in use */
  struct deferred *atomics;
  uint32_t natomics;
  struct sg_mem_req *out;
  uint32_t nout, capout, seq;
  struct sg_mem_resp *in;
  uint32_t inhead, nin, capin;
  /* results */
  struct sg_findings *findings;
  struct sg_fault fault;
  bool faulted;
  bool nomem;            /* the host ran out of memory for its queues: the launch ends */
  uint64_t fault_cta;
  struct sg_timing_stats stats;
  bool changed;          /* this cycle changed something other than the time */
  int *reason;           /* per scheduler: its slot's reason this cycle */
  struct sg_sched *sched_was; /* the schedulers before this cycle's issue */
  uint64_t accounted;    /* cycles whose scheduler slots stats.stalls counts */
  uint64_t busy_end;     /* the cycle after the last one with a CTA */
  uint32_t sample_issued, sample_warps;
};

/* ---- Small helpers ------------------------------------------------------ */

static uint32_t sched_of(const struct sg_tcore *tc, uint32_t w) { return w % tc->t->sched_per_core; }

static uint32_t latency_of(const struct sg_timing_config *t, enum sg_unit u) {
  switch (u) {
  case SG_UNIT_MUL: return t->mul_latency;
  case SG_UNIT_DIV: return t->div_latency;
  case SG_UNIT_FPU: return t->fpu_latency;
  case SG_UNIT_SFU: return t->sfu_latency;
  case SG_UNIT_SIMT: return t->simt_latency;
  default: return t->alu_latency; /* ALU, CSR, branch (its link register) */
  }
}

static uint32_t ii_of(const struct sg_timing_config *t, enum sg_unit u) {
  switch (u) {
  case SG_UNIT_MUL: return t->mul_ii;
  case SG_UNIT_DIV: return t->div_ii;
  case SG_UNIT_FPU: return t->fpu_ii;
  case SG_UNIT_SFU: return t->sfu_ii;
  case SG_UNIT_BRANCH: return 1;
  default: return t->alu_ii;
  }
}

/* The registers an instruction reads (srcs, up to 3) and writes (*dst, or
 * -1) as scoreboard numbers: x0-x31 are 0-31 (x0 never counts), f0-f31
 * 32-63. */
static void regs_of(const struct sg_uop *u, int32_t *dst, int32_t src[3]) {
  enum fmtk { X, F, NO };
  enum fmtk d = NO, s1 = NO, s2 = NO, s3 = NO;
  switch (sg_op_fmt(u->op)) {
  case SG_FMT_R: case SG_FMT_A: d = X, s1 = X, s2 = X; break;
  case SG_FMT_I: case SG_FMT_SH: case SG_FMT_L: case SG_FMT_LR: case SG_FMT_X2: d = X, s1 = X; break;
  case SG_FMT_S: case SG_FMT_B: s1 = X, s2 = X; break;
  case SG_FMT_U: case SG_FMT_J: case SG_FMT_CSRI: d = X; break;
  case SG_FMT_CSR: d = X, s1 = X; break;
  case SG_FMT_FL: d = F, s1 = X; break;
  case SG_FMT_FS: s1 = X, s2 = F; break;
  case SG_FMT_R4: d = F, s1 = F, s2 = F, s3 = F; break;
  case SG_FMT_FR: case SG_FMT_SFU: d = F, s1 = F, s2 = F; break;
  case SG_FMT_F1: d = F, s1 = F; break;
  case SG_FMT_FX: d = X, s1 = F; break;
  case SG_FMT_XF: d = F, s1 = X; break;
  case SG_FMT_FC: d = X, s1 = F, s2 = F; break;
  case SG_FMT_X1: s1 = X; break;
  default: break;
  }
  const enum fmtk k[4] = {d, s1, s2, s3};
  const unsigned r[4] = {u->rd, u->rs1, u->rs2, u->rs3};
  int32_t out[4];
  for (int i = 0; i < 4; i++)
    out[i] = k[i] == NO ? -1 : k[i] == F ? 32 + (int32_t)(r[i] & 31)
             : (r[i] == 0 || r[i] >= 32) ? -1 : (int32_t)r[i]; /* x0 and the sink */
  *dst = out[0];
  src[0] = out[1], src[1] = out[2], src[2] = out[3];
}

/* A queue could not grow: the model cannot go on; the launch ends with
 * SG_ENOMEM (sg_gpu_finish). */
static void out_of_memory(struct sg_tcore *tc) {
  tc->nomem = true;
  tc->faulted = true;
}

static void send(struct sg_tcore *tc, enum sg_req_kind kind, uint64_t addr, uint32_t bytes,
                 uint32_t tag, uint16_t lanes, int32_t atomic) {
  if (tc->nout == tc->capout) {
    uint32_t cap = tc->capout ? 2 * tc->capout : 256;
    struct sg_mem_req *p = realloc(tc->out, cap * sizeof *p);
    if (!p) {
      out_of_memory(tc);
      return;
    }
    tc->out = p, tc->capout = cap;
  }
  tc->out[tc->nout++] = (struct sg_mem_req){.cycle = tc->now + tc->t->noc_latency,
                                            .addr = addr, .bytes = bytes, .core = tc->id,
                                            .seq = tc->seq++, .tag = tag, .kind = (uint16_t)kind,
                                            .lanes = lanes, .atomic = atomic};
}

/* ---- Scoreboard --------------------------------------------------------- */

/* Why register r cannot be used by lanes `mask` at cycle now: 0 when it
 * can, else SG_STALL_RAW_MEM or SG_STALL_RAW_ALU. */
static int sb_wait(const struct twarp *w, int32_t r, uint64_t mask, uint64_t now,
                   uint64_t *until) {
  if (r < 0)
    return 0;
  for (int k = 0; k < 2; k++) {
    const struct pending *p = &w->sb[r][k];
    if ((p->mask & mask) && p->ready > now) {
      *until = p->ready; /* (NONE: a memory result not yet known) */
      return p->mem ? SG_STALL_RAW_MEM : SG_STALL_RAW_ALU;
    }
  }
  return 0;
}

/* Room for a pending write to r: an entry no longer pending; -1 if none. */
static int sb_free(const struct twarp *w, int32_t r, uint64_t now) {
  for (int k = 0; k < 2; k++)
    if (w->sb[r][k].ready <= now || !w->sb[r][k].mask)
      return k;
  return -1;
}

static void sb_set(struct twarp *w, int32_t r, int k, uint64_t mask, uint64_t ready, bool mem) {
  w->sb[r][k] = (struct pending){mask, ready, mem};
}

/* ---- Creation and a launch ------------------------------------------------ */

static void on_insn(struct sg_hook *self, const struct sg_insn_record *r) {
  ((struct sg_tcore *)self)->rec = r;
}

enum sg_status sg_tcore_create(const struct sg_timing_config *t, const struct sg_sim_config *sim,
                               uint32_t id, struct sg_tcore **out) {
  struct sg_tcore *tc = calloc(1, sizeof *tc);
  if (!tc)
    return SG_ENOMEM;
  *out = tc;
  tc->hook = (struct sg_hook){.insn = on_insn};
  tc->t = t;
  tc->sim = *sim;
  tc->id = id;
  tc->nwarps = sim->warp_slots;
  tc->nlsu = t->lsu_queue + t->l1_mshrs + 8;
  if (sg_core_create(sim, id, &tc->core) != SG_OK ||
      !(tc->w = calloc(tc->nwarps, sizeof *tc->w)) ||
      !(tc->res = calloc(tc->nwarps, sizeof *tc->res)) ||
      !(tc->res_mask = calloc(t->sched_per_core, sizeof *tc->res_mask)) ||
      !(tc->sb = calloc((size_t)tc->nwarps * SG_TREGS, sizeof *tc->sb)) ||
      !(tc->sched = calloc(t->sched_per_core, sizeof *tc->sched)) ||
      !(tc->sched_was = calloc(t->sched_per_core, sizeof *tc->sched_was)) ||
      !(tc->reason = calloc(t->sched_per_core, sizeof *tc->reason)) ||
      !(tc->units = calloc((size_t)t->sched_per_core * SG_NUM_UNITS, sizeof *tc->units)) ||
      !(tc->bank_free = calloc(t->reg_banks, sizeof *tc->bank_free)) ||
      !(tc->collector = calloc(t->collector_units, sizeof *tc->collector)) ||
      !(tc->lsu = calloc(tc->nlsu, sizeof *tc->lsu)) ||
      !(tc->queue = calloc(t->lsu_queue, sizeof *tc->queue)) ||
      !(tc->mshr = calloc(t->l1_mshrs, sizeof *tc->mshr)) ||
      !(tc->cmshr = calloc(t->l1_mshrs, sizeof *tc->cmshr)) ||
      !(tc->cta_age = calloc(sim->cta_slots, sizeof *tc->cta_age)) ||
      !(tc->cta_index = calloc(sim->cta_slots, sizeof *tc->cta_index)) ||
      !(tc->assigned = calloc(2 * (size_t)sim->cta_slots, sizeof *tc->assigned)) ||
      !(tc->cta_changed = calloc(sim->cta_slots, sizeof *tc->cta_changed)) ||
      !(tc->cta_stack = calloc(sim->cta_slots, sizeof *tc->cta_stack)) ||
      !(tc->cta_stack_size = calloc(sim->cta_slots, sizeof *tc->cta_stack_size)) ||
      sg_cache_init(&tc->icache, t->icache_size, t->icache_assoc, t->icache_line,
                    t->icache_line) != SG_OK ||
      sg_cache_init(&tc->l1, t->l1_size, t->l1_assoc, t->l1_line, t->l1_sector) != SG_OK ||
      sg_cache_init(&tc->cc, t->const_size, t->const_assoc, t->const_line, t->const_line) !=
          SG_OK)
    return SG_ENOMEM;
  return SG_OK;
}

void sg_tcore_destroy(struct sg_tcore *tc) {
  if (!tc)
    return;
  sg_core_destroy(tc->core);
  sg_cache_free(&tc->icache);
  sg_cache_free(&tc->l1);
  sg_cache_free(&tc->cc);
  free(tc->w);
  free(tc->res);
  free(tc->res_mask);
  free(tc->sb);
  free(tc->sched);
  free(tc->sched_was);
  free(tc->reason);
  free(tc->units);
  free(tc->bank_free);
  free(tc->collector);
  free(tc->lsu);
  free(tc->queue);
  free(tc->mshr);
  free(tc->cmshr);
  free(tc->cta_age);
  free(tc->cta_index);
  free(tc->assigned);
  free(tc->cta_changed);
  free(tc->cta_stack);
  free(tc->cta_stack_size);
  free(tc->atomics);
  free(tc->out);
  free(tc->in);
  free(tc);
}

void sg_tcore_launch(struct sg_tcore *tc, const struct sg_gpu_launch *l, uint32_t cores) {
  const struct sg_timing_config *t = tc->t;
  tc->l = l;
  tc->cores = cores;
  tc->now = 0;
  tc->assigned_head = tc->assigned_n = 0;
  tc->ctas_done = 0;
  tc->resident_ctas = 0;
  tc->ctas_per_core = l->ctas_per_core;
  tc->findings = l->findings ? &l->findings[tc->id] : NULL;
  tc->faulted = tc->nomem = false;
  tc->fault_cta = 0;
  memset(tc->cta_age, 0, tc->sim.cta_slots * sizeof *tc->cta_age);
  memset(&tc->stats, 0, sizeof tc->stats);
  tc->accounted = tc->busy_end = 0;
  tc->sample_issued = tc->sample_warps = 0;
  /* the consumers: the launch's, then this model */
  tc->nhooks = 0;
  uint32_t n = l->nhooks ? l->nhooks[tc->id] : 0;
  for (uint32_t i = 0; i < n && tc->nhooks + 1 < sizeof tc->hooks / sizeof tc->hooks[0]; i++)
    tc->hooks[tc->nhooks++] = l->hooks[tc->id][i];
  tc->hooks[tc->nhooks++] = &tc->hook;
  sg_core_set_hooks(tc->core, tc->hooks, tc->nhooks);
  sg_core_bind(tc->core, l->code, tc->findings, &tc->fault);
  sg_core_set_time(tc->core, 0);
  for (uint32_t i = 0; i < tc->nwarps; i++)
    tc->w[i] = (struct twarp){.sb = tc->sb + (size_t)i * SG_TREGS};
  tc->nres = 0;
  memset(tc->res_mask, 0, t->sched_per_core * sizeof *tc->res_mask);
  for (uint32_t s = 0; s < t->sched_per_core; s++) {
    uint32_t slots = (tc->nwarps - s + t->sched_per_core - 1) / t->sched_per_core;
    sg_sched_init(&tc->sched[s], 0, slots); /* the policy: sg_gpu sets it */
  }
  memset(tc->units, 0, (size_t)t->sched_per_core * SG_NUM_UNITS * sizeof *tc->units);
  memset(tc->bank_free, 0, t->reg_banks * sizeof *tc->bank_free);
  memset(tc->collector, 0, t->collector_units * sizeof *tc->collector);
  /* LSU entries and MSHRs above their tops are free, and are written when
   * taken: a launch touches none of them (zeroing them cost more than a
   * short launch's simulation on 80 cores). Grown LSU entries stay. */
  tc->lsu_top = tc->mshr_top = tc->cmshr_top = 0;
  tc->qhead = tc->qn = 0;
  tc->lsu_busy = 0;
  tc->fetch_rr = 0;
  tc->natomics = 0;
  tc->nout = tc->nin = tc->inhead = 0;
  tc->seq = 0;
  sg_cache_clear(&tc->icache);
  sg_cache_clear(&tc->l1);
  sg_cache_clear(&tc->cc);
}

void sg_tcore_set_policy(struct sg_tcore *tc, uint32_t policy) {
  for (uint32_t s = 0; s < tc->t->sched_per_core; s++)
    tc->sched[s].policy = policy;
}

/* ---- CTAs ---------------------------------------------------------------- */

/* CTAs the dispatcher may still give this core: it holds up to twice its
 * occupancy, resident and waiting, so it has work between two merges. */
uint32_t sg_tcore_cta_room(const struct sg_tcore *tc) {
  uint32_t held = tc->resident_ctas + tc->assigned_n;
  return held < 2 * tc->ctas_per_core ? 2 * tc->ctas_per_core - held : 0;
}

void sg_tcore_cta_assign(struct sg_tcore *tc, uint64_t cta) {
  uint32_t cap = 2 * tc->ctas_per_core;
  tc->assigned[(tc->assigned_head + tc->assigned_n++) % cap] = cta;
}

/* Warp slots [first, first + n) become resident: the list stays in order,
 * each scheduler's mask gets its slots. */
static void resident_add(struct sg_tcore *tc, uint32_t first, uint32_t n) {
  uint32_t at = 0, ns = tc->t->sched_per_core;
  while (at < tc->nres && tc->res[at] < first)
    at++;
  memmove(tc->res + at + n, tc->res + at, (tc->nres - at) * sizeof *tc->res);
  tc->nres += n;
  for (uint32_t i = 0; i < n; i++) {
    tc->res[at + i] = first + i;
    tc->res_mask[(first + i) % ns] |= 1ull << ((first + i) / ns);
  }
}

/* The warps of CTA slot s leave. */
static void resident_remove(struct sg_tcore *tc, uint32_t s) {
  uint32_t kept = 0, ns = tc->t->sched_per_core;
  for (uint32_t j = 0; j < tc->nres; j++) {
    uint32_t wi = tc->res[j];
    if (tc->w[wi].cta == s) {
      tc->w[wi].resident = false;
      tc->res_mask[wi % ns] &= ~(1ull << (wi / ns));
    } else {
      tc->res[kept++] = wi;
    }
  }
  tc->nres = kept;
}

/* Places the CTAs given to this core while they fit. */
static void place_ctas(struct sg_tcore *tc) {
  const struct sg_gpu_launch *l = tc->l;
  while (tc->assigned_n && tc->resident_ctas < tc->ctas_per_core) {
    uint64_t cta = tc->assigned[tc->assigned_head];
    const struct sg_cta_desc *desc;
    const struct sg_memmap *mem;
    /* the slot the core will use: the first free one */
    uint32_t slot = 0;
    while (slot < tc->sim.cta_slots && tc->cta_age[slot] != 0)
      slot++;
    if (slot == tc->sim.cta_slots)
      return;
    l->cta(l->ctx, cta, tc->id, slot, &desc, &mem);
    uint32_t first;
    int32_t s = sg_core_cta_place(tc->core, desc, mem, &first);
    if (s == -1)
      return; /* no warp slots free yet */
    if (s < 0 || (uint32_t)s != slot) {
      tc->faulted = true; /* a descriptor the device built wrong */
      tc->fault = (struct sg_fault){.kind = SG_FAULT_ILLEGAL_INSN};
      snprintf(tc->fault.what, sizeof tc->fault.what, "internal error: CTA %llu does not fit",
               (unsigned long long)cta);
      tc->fault_cta = cta;
      return;
    }
    tc->cta_age[slot] = tc->now + 1;
    tc->cta_index[slot] = cta;
    tc->cta_changed[slot] = true;
    tc->cta_stack[slot] = desc->stack_base;
    tc->cta_stack_size[slot] = desc->stack_size;
    tc->changed = true;
    resident_add(tc, first, desc->num_warps);
    for (uint32_t i = 0; i < desc->num_warps; i++) {
      struct twarp *w = &tc->w[first + i];
      *w = (struct twarp){.resident = true, .cta = slot, .in_cta = i,
                          .age = tc->now * 1024 + first + i,
                          .fetch_pc = desc->entry_pc, .hold = tc->now, .sb = w->sb};
      memset(w->sb, 0, SG_TREGS * sizeof *w->sb);
    }
    tc->resident_ctas++;
    tc->assigned_head = (tc->assigned_head + 1) % (2 * tc->ctas_per_core);
    tc->assigned_n--;
    tc->stats.ctas++;
  }
}

/* Ends CTAs whose warps are all done and have nothing in flight; releases
 * full barriers. */
static void retire_ctas(struct sg_tcore *tc) {
  for (uint32_t s = 0; s < tc->sim.cta_slots; s++) {
    if (!tc->cta_age[s] || !tc->cta_changed[s])
      continue;
    tc->cta_changed[s] = false;
    if (sg_core_cta_barrier_full(tc->core, s)) {
      if (!sg_core_cta_release(tc->core, s)) {
        tc->faulted = true;
        tc->fault_cta = tc->cta_index[s];
        return;
      }
      for (uint32_t j = 0; j < tc->nres; j++)
        if (tc->w[tc->res[j]].cta == s) {
          tc->w[tc->res[j]].next_valid = false;
          tc->w[tc->res[j]].yield_failed = false;
        }
      tc->changed = true;
    }
    bool busy = false;
    for (uint32_t j = 0; j < tc->nres && !busy; j++)
      busy = tc->w[tc->res[j]].cta == s && tc->w[tc->res[j]].inflight;
    if (!busy && sg_core_cta_finish(tc->core, s)) {
      resident_remove(tc, s);
      tc->cta_age[s] = 0;
      tc->resident_ctas--;
      tc->ctas_done++;
      tc->changed = true;
    }
  }
}

/* ---- Memory: responses and the load/store unit --------------------------- */

static void lsu_complete(struct sg_tcore *tc, struct lsu_entry *e) {
  struct twarp *w = &tc->w[e->warp];
  w->stall_until = 0;
  tc->cta_changed[w->cta] = true;
  if (e->dst >= 0)
    for (int k = 0; k < 2; k++)
      if (w->sb[e->dst][k].ready == NONE && (w->sb[e->dst][k].mask & e->lanes))
        w->sb[e->dst][k].ready = e->ready;
  w->inflight--;
  e->used = false;
  while (tc->lsu_top && !tc->lsu[tc->lsu_top - 1].used)
    tc->lsu_top--;
}

/* One response of the L2 or a fill for an L1 / constant cache MSHR. */
static void wake(struct sg_tcore *tc, struct mshr *table, uint32_t *top, uint32_t i,
                 struct sg_cache *c, uint64_t at) {
  struct mshr *m = &table[i];
  struct sg_cache_line victim, *l = sg_cache_find(c, m->line_addr);
  if (!l)
    l = sg_cache_alloc(c, m->line_addr, &victim);
  l->valid |= m->sectors;
  for (uint32_t i = 0; i < m->nwait; i++) {
    struct lsu_entry *e = &tc->lsu[m->waiters[i]];
    e->ready = at > e->ready ? at : e->ready;
    if (--e->pending == 0 && !e->queued)
      lsu_complete(tc, e);
  }
  m->used = false;
  while (*top && !table[*top - 1].used)
    (*top)--;
}

static void respond(struct sg_tcore *tc, const struct sg_mem_resp *r) {
  uint32_t idx = r->tag & ~TAG_KIND;
  tc->changed = true;
  switch (r->tag & TAG_KIND) {
  case TAG_L1:
    wake(tc, tc->mshr, &tc->mshr_top, idx, &tc->l1, r->cycle + tc->t->l1_latency - 1);
    break;
  case TAG_CONST:
    wake(tc, tc->cmshr, &tc->cmshr_top, idx, &tc->cc, r->cycle + tc->t->const_latency - 1);
    break;
  case TAG_ATOMIC: {
    struct lsu_entry *e = &tc->lsu[idx];
    e->ready = r->cycle > e->ready ? r->cycle : e->ready;
    if (--e->pending == 0 && !e->queued)
      lsu_complete(tc, e);
    break;
  }
  case TAG_FETCH: {
    struct twarp *w = &tc->w[idx & 0xffff];
    struct sg_cache_line victim, *l = sg_cache_find(&tc->icache, r->addr);
    if (!l)
      l = sg_cache_alloc(&tc->icache, r->addr, &victim);
    l->valid = 1;
    if (w->fetch_n && (idx >> 16) == (w->gen & 0xfff))
      w->fetch_at = r->cycle + tc->t->icache_latency;
    break;
  }
  default:
    break;
  }
}

/* An MSHR of cache c for the line of txn x covering its sectors (merge),
 * or a new one (its request goes out); NULL when all are busy. */
static struct mshr *mshr_for(struct sg_tcore *tc, struct mshr *table, uint32_t *top,
                             uint32_t tagkind, const struct sg_txn *x, uint32_t line,
                             bool *merged) {
  struct mshr *fresh = NULL;
  for (uint32_t i = 0; i < *top; i++) {
    struct mshr *m = &table[i];
    if (m->used && m->line_addr == x->line_addr && (x->sectors & ~m->sectors) == 0 &&
        m->nwait < 2 * SG_MAX_WARP_SIZE) {
      *merged = true;
      return m;
    }
    if (!m->used && !fresh)
      fresh = m;
  }
  if (!fresh && *top < tc->t->l1_mshrs)
    fresh = &table[*top];
  if (!fresh)
    return NULL;
  fresh->used = true; /* (waiters are written up to nwait) */
  fresh->line_addr = x->line_addr;
  fresh->sectors = x->sectors;
  fresh->nwait = 0;
  if ((uint32_t)(fresh - table) >= *top)
    *top = (uint32_t)(fresh - table) + 1;
  /* one request for the run of sectors from the first to the last wanted */
  uint32_t first = (uint32_t)__builtin_ctz(x->sectors), last = 31 - (uint32_t)__builtin_clz(x->sectors);
  uint32_t sector = tagkind == TAG_L1 ? tc->t->l1_sector : line;
  if (tagkind != TAG_L1)
    first = 0, last = 0;
  send(tc, SG_REQ_READ, x->line_addr + (uint64_t)first * sector, (last - first + 1) * sector,
       tagkind | (uint32_t)(fresh - table), 0, -1);
  *merged = false;
  return fresh;
}

/* The head of the LSU queue takes its next step. */
static void lsu_cycle(struct sg_tcore *tc) {
  const struct sg_timing_config *t = tc->t;
  if (!tc->qn || tc->lsu_busy > tc->now)
    return;
  struct lsu_entry *e = &tc->lsu[tc->queue[tc->qhead]];
  if (e->start > tc->now)
    return;
  uint64_t now = tc->now;
  switch (e->kind) {
  case LSU_LOCAL:
  case LSU_OTHER: {
    /* the banks serve a wavefront, then replay the conflicting lanes */
    uint64_t banks = 1 + (uint64_t)(e->wavefronts - 1) * t->smem_replay;
    e->ready = now + (e->kind == LSU_LOCAL ? t->smem_latency : t->l1_latency) - 1 + banks - 1;
    tc->lsu_busy = now + (banks > t->lsu_ii ? banks : t->lsu_ii);
    e->next = e->ntxn;
    break;
  }
  case LSU_CONST: {
    /* distinct addresses: one a cycle; lines not in the cache go to the L2 */
    const struct sg_txn *x = &e->txn[e->next];
    if (!sg_cache_find(&tc->cc, x->line_addr)) {
      bool merged;
      struct mshr *m = mshr_for(tc, tc->cmshr, &tc->cmshr_top, TAG_CONST, x, t->const_line,
                                &merged);
      if (!m)
        return; /* every MSHR busy: try again next cycle */
      m->waiters[m->nwait++] = (uint32_t)(e - tc->lsu);
      e->pending++;
      tc->stats.const_misses++;
    } else {
      tc->stats.const_hits++;
    }
    if (++e->next == e->ntxn) {
      uint64_t r = now + t->const_latency - 1 + e->wavefronts - 1;
      e->ready = r > e->ready ? r : e->ready;
      tc->lsu_busy = now + (e->wavefronts > t->lsu_ii ? e->wavefronts : t->lsu_ii);
    } else {
      tc->lsu_busy = now + 1;
    }
    break;
  }
  case LSU_GLOBAL_LOAD: {
    const struct sg_txn *x = &e->txn[e->next];
    struct sg_cache_line *l = sg_cache_find(&tc->l1, x->line_addr);
    if (l && (x->sectors & ~l->valid) == 0) {
      tc->stats.l1_hits++;
      uint64_t r = now + t->l1_latency - 1;
      e->ready = r > e->ready ? r : e->ready;
    } else {
      bool merged;
      struct mshr *m = mshr_for(tc, tc->mshr, &tc->mshr_top, TAG_L1, x, t->l1_line, &merged);
      if (!m)
        return;
      m->waiters[m->nwait++] = (uint32_t)(e - tc->lsu);
      e->pending++;
      tc->stats.l1_misses++;
      tc->stats.l1_mshr_merges += merged;
    }
    e->next++;
    tc->lsu_busy = now + 1;
    break;
  }
  case LSU_STORE: {
    /* write-through: the L2 takes the sectors; stack stores (spills) also
     * allocate in the L1, as GPUs cache local memory there */
    const struct sg_txn *x = &e->txn[e->next++];
    if (e->private) {
      struct sg_cache_line victim, *l = sg_cache_find(&tc->l1, x->line_addr);
      if (!l)
        l = sg_cache_alloc(&tc->l1, x->line_addr, &victim);
      l->valid |= x->sectors;
    }
    uint32_t first = (uint32_t)__builtin_ctz(x->sectors), last = 31 - (uint32_t)__builtin_clz(x->sectors);
    send(tc, SG_REQ_WRITE, x->line_addr + (uint64_t)first * t->l1_sector,
         (last - first + 1) * t->l1_sector, 0, 0, -1);
    e->ready = now;
    tc->lsu_busy = now + 1;
    break;
  }
  case LSU_ATOMIC: {
    /* performed at the L2; the first transaction performs the whole warp's */
    const struct sg_txn *x = &e->txn[e->next];
    uint32_t first = (uint32_t)__builtin_ctz(x->sectors), last = 31 - (uint32_t)__builtin_clz(x->sectors);
    send(tc, SG_REQ_ATOMIC, x->line_addr + (uint64_t)first * t->l1_sector,
         (last - first + 1) * t->l1_sector, TAG_ATOMIC | (uint32_t)(e - tc->lsu),
         (uint16_t)e->wavefronts, e->next == 0 ? e->atomic : -1);
    e->pending++;
    e->next++;
    tc->lsu_busy = now + 1;
    break;
  }
  }
  tc->changed = true;
  if (e->next < e->ntxn)
    return;
  /* done with the LSU: out of the queue, complete when nothing is awaited */
  if (tc->lsu_busy < e->start + t->lsu_ii)
    tc->lsu_busy = e->start + t->lsu_ii;
  e->queued = false;
  tc->qhead = (tc->qhead + 1) % t->lsu_queue;
  tc->qn--;
  if (!e->pending)
    lsu_complete(tc, e);
}

/* Where the memory hierarchy sees a warp's private (stack) accesses: as a
 * GPU lays out local memory, word w of the lanes' stacks side by side
 * (lane l's word at w x warp size + l), so a warp's accesses to one stack
 * offset coalesce; and each core and CTA slot with an address space of its
 * own, since every CTA's stacks sit at the same device address. Accesses
 * outside a lane's own slot (findings) keep their address. */
static const uint64_t *private_addrs(const struct sg_tcore *tc, uint32_t wi,
                                     const struct sg_insn_record *r, uint64_t *out) {
  const struct twarp *w = &tc->w[wi];
  uint64_t size = tc->cta_stack_size[w->cta], ws = tc->sim.warp_size;
  uint64_t base = tc->cta_stack[w->cta] + w->in_cta * ws * size;
  uint64_t space = ((uint64_t)tc->id * tc->sim.cta_slots + w->cta + 1) << 40;
  for (uint64_t m = r->mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    uint64_t off = r->addr[l] - (base + l * size);
    out[l] = off < size ? space + base + (off / 4 * ws + l) * 4 + off % 4 : r->addr[l];
  }
  return out;
}

/* The memory instruction just stepped (tc->rec) enters the LSU. */
static void lsu_enter(struct sg_tcore *tc, uint32_t wi, int32_t dst, int sbk, uint64_t dispatch) {
  const struct sg_timing_config *t = tc->t;
  const struct sg_insn_record *r = tc->rec;
  struct lsu_entry *e = NULL;
  for (uint32_t i = 0; i < tc->lsu_top && !e; i++)
    if (!tc->lsu[i].used)
      e = &tc->lsu[i];
  if (!e && tc->lsu_top < tc->nlsu)
    e = &tc->lsu[tc->lsu_top];
  if (!e) { /* every entry waits on memory: room for more (entries are named by index) */
    struct lsu_entry *p = realloc(tc->lsu, 2 * tc->nlsu * sizeof *p);
    if (!p) {
      out_of_memory(tc);
      return;
    }
    tc->lsu = p;
    e = &tc->lsu[tc->nlsu];
    tc->nlsu *= 2;
  }
  /* every field but the transactions (a compound literal would zero 2 KB) */
  e->used = e->queued = true;
  e->private = false;
  e->warp = wi;
  e->dst = dst;
  e->lanes = r->mask;
  e->start = dispatch;
  e->atomic = -1;
  e->ntxn = e->next = e->wavefronts = e->pending = 0;
  e->ready = 0;
  if ((uint32_t)(e - tc->lsu) >= tc->lsu_top)
    tc->lsu_top = (uint32_t)(e - tc->lsu) + 1;
  switch (r->space) {
  case SG_SPACE_LOCAL:
    e->kind = LSU_LOCAL;
    /* atomics on local memory go lane by lane; loads and stores by bank */
    e->wavefronts = r->mem == SG_MEM_ATOMIC ? (uint32_t)__builtin_popcountll(r->mask)
                    : sg_smem_wavefronts(r->addr, r->mask, r->size, t->smem_banks,
                                         t->smem_bank_bytes);
    tc->stats.smem_accesses++;
    tc->stats.smem_conflict_cycles += (uint64_t)(e->wavefronts - 1) * t->smem_replay;
    break;
  case SG_SPACE_CONSTANT:
    e->kind = LSU_CONST;
    e->wavefronts = sg_distinct_addrs(r->addr, r->mask);
    e->ntxn = sg_coalesce(r->addr, r->mask, r->size, t->const_line, t->const_line, e->txn);
    break;
  case SG_SPACE_GLOBAL:
  case SG_SPACE_PRIVATE: {
    e->kind = r->mem == SG_MEM_LOAD ? LSU_GLOBAL_LOAD
              : r->mem == SG_MEM_STORE ? LSU_STORE
              : LSU_ATOMIC; /* private atomics are rare: as global ones */
    uint64_t interleaved[SG_MAX_WARP_SIZE];
    e->private = r->space == SG_SPACE_PRIVATE;
    const uint64_t *addr = e->private ? private_addrs(tc, wi, r, interleaved) : r->addr;
    e->ntxn = sg_coalesce(addr, r->mask, r->size, t->l1_line, t->l1_sector, e->txn);
    e->wavefronts = (uint32_t)__builtin_popcountll(r->mask); /* atomics: lane operations */
    tc->stats.mem_requests++;
    tc->stats.mem_transactions += e->ntxn;
    break;
  }
  default: /* unmapped: a finding; it still takes the LSU's time */
    e->kind = LSU_OTHER;
    e->wavefronts = 1;
    break;
  }
  if (r->deferred) {
    uint32_t a = 0;
    while (a < tc->natomics && tc->atomics[a].used)
      a++;
    if (a == tc->natomics) {
      struct deferred *p = realloc(tc->atomics, (tc->natomics + 8) * sizeof *p);
      if (!p) {
        out_of_memory(tc);
        return;
      }
      tc->atomics = p;
      memset(p + tc->natomics, 0, 8 * sizeof *p);
      tc->natomics += 8;
    }
    struct deferred *d = &tc->atomics[a];
    d->used = true;
    d->done = false;
    d->warp = wi;
    d->rec = *r;
    e->atomic = (int32_t)a;
  }
  struct twarp *w = &tc->w[wi];
  w->inflight++;
  if (dst >= 0)
    sb_set(w, dst, sbk, r->mask, NONE, true);
  tc->queue[(tc->qhead + tc->qn++) % t->lsu_queue] = (uint32_t)(e - tc->lsu);
}

void sg_tcore_atomic(struct sg_tcore *tc, int32_t a) {
  struct deferred *d = &tc->atomics[a];
  if (!d->used || d->done)
    return;
  sg_core_atomic_complete(tc->core, d->warp, &d->rec);
  d->done = true;
  d->used = false;
}

/* ---- Fetch ----------------------------------------------------------------- */

/* Fetches whose time has come reach their I-buffers (before issue, so a
 * fetch started at cycle c with an instruction cache hit can issue at
 * c + icache_latency). */
static void deliver_fetches(struct sg_tcore *tc) {
  for (uint32_t j = 0; j < tc->nres; j++) {
    struct twarp *w = &tc->w[tc->res[j]];
    if (w->fetch_n && w->fetch_at <= tc->now) {
      for (uint32_t k = 0; k < w->fetch_n; k++)
        w->ib[(w->ib_head + w->ib_n++) % SG_IBUF_MAX] = w->fetch_pc + 4ull * k;
      w->fetch_pc += 4ull * w->fetch_n;
      w->fetch_n = 0;
      tc->changed = true;
    }
  }
}

/* Starts one fetch for the next warp (round robin) with room in its
 * I-buffer. */
static void fetch_cycle(struct sg_tcore *tc) {
  const struct sg_timing_config *t = tc->t;
  uint32_t from = 0, rr = tc->fetch_rr % tc->nwarps;
  while (from < tc->nres && tc->res[from] < rr)
    from++;
  for (uint32_t k = 0; k < tc->nres; k++) {
    uint32_t i = tc->res[(from + k) % tc->nres];
    struct twarp *w = &tc->w[i];
    if (w->fetch_n || w->ib_n >= t->ibuffer_size ||
        (w->next_valid && w->st == SG_WS_DONE))
      continue;
    uint32_t n = t->ibuffer_size - w->ib_n;
    n = n < t->fetch_width ? n : t->fetch_width;
    uint32_t left = (uint32_t)((t->icache_line - w->fetch_pc % t->icache_line) / 4);
    n = n < left ? n : left;
    w->fetch_n = n;
    tc->changed = true;
    if (sg_cache_find(&tc->icache, w->fetch_pc)) {
      tc->stats.icache_hits++;
      w->fetch_at = tc->now + t->icache_latency;
    } else {
      tc->stats.icache_misses++;
      w->fetch_at = NONE;
      send(tc, SG_REQ_IFETCH, w->fetch_pc / t->icache_line * t->icache_line, t->icache_line,
           TAG_FETCH | (w->gen & 0xfff) << 16 | i, 0, -1);
    }
    tc->fetch_rr = i + 1;
    return;
  }
}

/* ---- Issue ------------------------------------------------------------------ */

/* What warp slot wi runs next (cached until it steps). */
static const struct sg_next_insn *next_of(struct sg_tcore *tc, uint32_t wi) {
  struct twarp *w = &tc->w[wi];
  if (!w->next_valid) {
    w->st = sg_core_warp_next(tc->core, wi, &w->next);
    w->next_valid = true;
    tc->changed = true;
    w->stall_until = 0;
    w->dst = w->src[0] = w->src[1] = w->src[2] = -1;
    if (w->st == SG_WS_READY && w->next.uop)
      regs_of(w->next.uop, &w->dst, w->src);
    if (w->st == SG_WS_FAULT) {
      tc->faulted = true;
      tc->fault_cta = tc->cta_index[w->cta];
    }
  }
  return w->st == SG_WS_READY ? &w->next : NULL;
}

/* The scoreboard's answer for warp w's next instruction n (0: ready):
 * its sources, then its destination (written in order, with room for one
 * more pending write); *until: the cycle the answer may change. */
static int scoreboard(const struct twarp *w, const struct sg_next_insn *n, uint64_t now,
                      uint64_t *until) {
  for (int i = 0; i < 3; i++) {
    int why = sb_wait(w, w->src[i], n->mask, now, until);
    if (why)
      return why;
  }
  if (w->dst < 0)
    return 0;
  int why = sb_wait(w, w->dst, n->mask, now, until);
  if (why || sb_free(w, w->dst, now) >= 0)
    return why;
  const struct pending *p = w->sb[w->dst];
  *until = p[0].ready < p[1].ready ? p[0].ready : p[1].ready;
  return SG_STALL_RAW_MEM;
}

/* Why warp slot wi cannot issue at cycle now (0: it can): the checks of
 * an in-order SIMT issue stage. A branch's hold and the scoreboard only
 * change with time or a memory completion, so their answer is kept until
 * then (the same answer, looked up cheaply). */
static int blocked(struct sg_tcore *tc, uint32_t wi, const struct sg_next_insn *n) {
  const struct sg_timing_config *t = tc->t;
  struct twarp *w = &tc->w[wi];
  uint64_t now = tc->now;
  if (w->stall_until > now)
    return w->stall;
  if (w->hold > now) {
    w->stall = SG_STALL_BRANCH, w->stall_until = w->hold;
    return SG_STALL_BRANCH;
  }
  if (n->uop) { /* (outside the code: let it issue and fault) */
    bool front = w->ib_n > 0 && w->ib[w->ib_head] == n->pc;
    if (!front) {
      bool on_path = w->ib_n == 0 && w->fetch_n && w->fetch_pc == n->pc;
      if (!on_path && (w->ib_n > 0 || w->fetch_n || w->fetch_pc != n->pc)) {
        /* a new path: flush and fetch it */
        w->ib_n = 0;
        w->fetch_n = 0;
        w->gen++;
        w->fetch_pc = n->pc;
        w->redirected = true;
        tc->changed = true;
      }
      if (w->redirected)
        return SG_STALL_BRANCH;
      return w->fetch_n && w->fetch_at == NONE ? SG_STALL_FETCH : SG_STALL_IBUFFER;
    }
  }
  if (!n->uop)
    return 0;
  uint64_t until;
  int why = scoreboard(w, n, now, &until);
  if (why) {
    w->stall = why, w->stall_until = until;
    return why;
  }
  enum sg_unit u = n->uop->unit;
  if (u == SG_UNIT_LSU) {
    if (tc->qn >= t->lsu_queue)
      return SG_STALL_MEMORY;
  } else if (tc->units[sched_of(tc, wi) * SG_NUM_UNITS + u].free > now) {
    return SG_STALL_UNIT;
  }
  bool collector = false;
  for (uint32_t i = 0; i < t->collector_units && !collector; i++)
    collector = tc->collector[i] <= now;
  return collector ? 0 : SG_STALL_COLLECTOR;
}

/* Issues warp slot wi's next instruction: the core runs it; the pipeline
 * books its operand reads, unit and result. */
static void issue(struct sg_tcore *tc, uint32_t wi) {
  const struct sg_timing_config *t = tc->t;
  struct twarp *w = &tc->w[wi];
  uint64_t now = tc->now;
  int32_t dst = w->dst;
  const int32_t *src = w->src;
  int sbk = dst >= 0 ? sb_free(w, dst, now) : -1;
  /* operand collection: one read per bank per cycle; a register named
   * twice is read once */
  uint64_t dispatch = now + 1;
  for (int i = 0; i < 3; i++) {
    if (src[i] < 0 || (i > 0 && src[i] == src[0]) || (i > 1 && src[i] == src[1]))
      continue;
    uint32_t b = ((uint32_t)src[i] + wi) % t->reg_banks;
    uint64_t at = tc->bank_free[b] > now + 1 ? tc->bank_free[b] : now + 1;
    tc->bank_free[b] = at + 1;
    dispatch = at > dispatch ? at : dispatch;
  }
  tc->stats.bank_conflict_cycles += dispatch - (now + 1);
  for (uint32_t i = 0; i < t->collector_units; i++)
    if (tc->collector[i] <= now) {
      tc->collector[i] = dispatch;
      break;
    }
  if (w->ib_n) {
    w->ib_head = (w->ib_head + 1) % SG_IBUF_MAX;
    w->ib_n--;
  }
  w->redirected = false;
  /* the core runs it */
  tc->changed = true;
  tc->rec = NULL;
  sg_core_set_time(tc->core, now);
  enum sg_warp_status st = sg_core_warp_step(tc->core, wi);
  w->next_valid = false;
  tc->cta_changed[w->cta] = true;
  const struct sg_insn_record *r = tc->rec;
  if (st == SG_WS_FAULT || !r) {
    tc->faulted = true;
    tc->fault_cta = tc->cta_index[w->cta];
    return;
  }
  w->can_yield = true;
  w->yield_failed = false;
  tc->stats.warp_insns++;
  tc->stats.thread_insns += (uint64_t)__builtin_popcountll(r->mask);
  tc->sample_issued++;
  enum sg_unit u = r->unit;
  if (u == SG_UNIT_LSU) {
    lsu_enter(tc, wi, r->mem == SG_MEM_STORE ? -1 : dst, sbk, dispatch);
  } else {
    struct unit_state *us = &tc->units[sched_of(tc, wi) * SG_NUM_UNITS + u];
    us->free = dispatch + ii_of(t, u) - 1;
    if (dst >= 0)
      sb_set(w, dst, sbk, r->mask, dispatch + latency_of(t, u) - 1, false);
  }
  /* control: the warp waits while its path resolves */
  if (u == SG_UNIT_BRANCH || r->uop->op == SG_OP_SG_BARRIER || r->uop->op == SG_OP_SG_EXIT)
    w->hold = now + t->branch_latency;
}

/* One cycle of issue: every scheduler tries its warps in its policy's
 * order; its slot's reason is that of the first it tried. */
static void issue_cycle(struct sg_tcore *tc) {
  const struct sg_timing_config *t = tc->t;
  uint32_t ns = t->sched_per_core;
  for (uint32_t s = 0; s < ns && !tc->faulted; s++) {
    struct sg_sched *sc = &tc->sched[s];
    uint64_t live = 0, barrier = 0, age[64];
    for (uint64_t m = tc->res_mask[s]; m; m &= m - 1) {
      uint32_t k = (uint32_t)__builtin_ctzll(m), wi = s + k * ns;
      struct twarp *w = &tc->w[wi];
      next_of(tc, wi);
      if (w->st == SG_WS_DONE || w->st == SG_WS_FREE)
        continue;
      live |= 1ull << k;
      barrier |= (uint64_t)(w->st == SG_WS_BARRIER) << k;
      age[k] = w->age;
    }
    uint32_t order[64], n = sg_sched_order(sc, live, barrier, age, order);
    int reason = n ? -1 : SG_STALL_IDLE;
    int32_t issued = -1;
    uint64_t stalled = 0, long_stall = 0;
    for (uint32_t i = 0; i < n && issued < 0 && !tc->faulted; i++) {
      uint32_t wi = s + order[i] * ns;
      const struct sg_next_insn *nx = next_of(tc, wi);
      int why = nx ? blocked(tc, wi, nx) : SG_STALL_BARRIER;
      /* multi-path IPDOM: a path waiting on memory lets another path of
       * its warp run */
      struct twarp *w = &tc->w[wi];
      if (why == SG_STALL_RAW_MEM && w->can_yield && !w->yield_failed) {
        if (sg_core_warp_yield(tc->core, wi)) {
          w->next_valid = false;
          w->can_yield = false;
          nx = next_of(tc, wi);
          why = nx ? blocked(tc, wi, nx) : SG_STALL_BARRIER;
        } else {
          w->yield_failed = true;
        }
      }
      if (!why) {
        issue(tc, wi);
        issued = (int32_t)order[i];
        why = SG_STALL_ISSUED;
      } else {
        stalled |= 1ull << order[i];
        long_stall |= (uint64_t)(why == SG_STALL_RAW_MEM) << order[i];
      }
      if (reason < 0)
        reason = why;
    }
    if (reason < 0)
      reason = SG_STALL_IDLE;
    tc->reason[s] = issued >= 0 ? SG_STALL_ISSUED : reason;
    tc->stats.stalls[tc->reason[s]]++;
    sg_sched_update(sc, issued, stalled, long_stall);
  }
}

/* ---- The cycle loop ----------------------------------------------------------- */

static int by_cycle(const void *a, const void *b) {
  const struct sg_mem_resp *x = a, *y = b;
  return x->cycle < y->cycle ? -1 : x->cycle > y->cycle;
}

void sg_tcore_respond(struct sg_tcore *tc, const struct sg_mem_resp *r) {
  if (tc->nin == tc->capin) {
    if (tc->inhead > 0) { /* compact: the served ones go */
      memmove(tc->in, tc->in + tc->inhead, (tc->nin - tc->inhead) * sizeof *tc->in);
      tc->nin -= tc->inhead;
      tc->inhead = 0;
    }
    if (tc->nin == tc->capin) {
      uint32_t cap = tc->capin ? 2 * tc->capin : 256;
      struct sg_mem_resp *p = realloc(tc->in, cap * sizeof *p);
      if (!p) {
        out_of_memory(tc);
        return;
      }
      tc->in = p, tc->capin = cap;
    }
  }
  tc->in[tc->nin++] = *r;
}

/* The cycles [tc->accounted, until) had no CTA on this core: each
 * scheduler slot of them is idle. */
static void idle_until(struct sg_tcore *tc, uint64_t until) {
  if (until > tc->accounted) {
    tc->stats.stalls[SG_STALL_IDLE] += (until - tc->accounted) * tc->t->sched_per_core;
    tc->accounted = until;
  }
}

/* The first cycle after now at which something a quiet cycle waited on
 * may happen: a response, a fetch, a warp's stall ending, a unit or
 * collector or the load/store unit freeing; at most `to`. */
static uint64_t next_event(const struct sg_tcore *tc, uint64_t to) {
  uint64_t now = tc->now, next = to;
#define SOONER(c) do { uint64_t c_ = (c); if (c_ > now && c_ < next) next = c_; } while (0)
  if (tc->inhead < tc->nin)
    SOONER(tc->in[tc->inhead].cycle);
  for (uint32_t j = 0; j < tc->nres; j++) {
    const struct twarp *w = &tc->w[tc->res[j]];
    if (w->fetch_n && w->fetch_at != NONE)
      SOONER(w->fetch_at);
    if (w->stall_until != NONE)
      SOONER(w->stall_until);
    SOONER(w->hold);
  }
  for (uint32_t u = 0; u < tc->t->sched_per_core * SG_NUM_UNITS; u++)
    SOONER(tc->units[u].free);
  for (uint32_t c = 0; c < tc->t->collector_units; c++)
    SOONER(tc->collector[c]);
  if (tc->qn) {
    const struct lsu_entry *e = &tc->lsu[tc->queue[tc->qhead]];
    SOONER(tc->lsu_busy > e->start ? tc->lsu_busy : e->start);
  }
#undef SOONER
  return next;
}

void sg_tcore_run(struct sg_tcore *tc, uint64_t from, uint64_t to) {
  /* the responses of the last merge, in time order */
  if (tc->nin > tc->inhead)
    qsort(tc->in + tc->inhead, tc->nin - tc->inhead, sizeof *tc->in, by_cycle);
  uint32_t ns = tc->t->sched_per_core;
  for (tc->now = from; tc->now < to && !tc->faulted; tc->now++) {
    tc->changed = false;
    while (tc->inhead < tc->nin && tc->in[tc->inhead].cycle <= tc->now)
      respond(tc, &tc->in[tc->inhead++]);
    retire_ctas(tc);
    place_ctas(tc);
    if (sg_tcore_idle(tc)) { /* until the dispatcher gives it more */
      tc->sample_warps = 0;
      break;
    }
    idle_until(tc, tc->now);
    deliver_fetches(tc);
    lsu_cycle(tc);
    memcpy(tc->sched_was, tc->sched, ns * sizeof *tc->sched);
    issue_cycle(tc);
    fetch_cycle(tc);
    uint32_t resident = 0;
    for (uint32_t j = 0; j < tc->nres; j++)
      resident += !(tc->w[tc->res[j]].next_valid && tc->w[tc->res[j]].st == SG_WS_DONE);
    /* A quiet cycle (nothing but the time changed) repeats itself, slot
     * reasons and all, until the next event: count those cycles at once. */
    uint64_t cycles = 1;
    if (!tc->changed && !tc->faulted && !memcmp(tc->sched_was, tc->sched, ns * sizeof *tc->sched)) {
      cycles = next_event(tc, to) - tc->now;
      for (uint32_t s = 0; s < ns; s++)
        tc->stats.stalls[tc->reason[s]] += cycles - 1;
      tc->now += cycles - 1;
    }
    tc->stats.resident_warps += resident * cycles;
    tc->sample_warps = resident;
    tc->accounted = tc->busy_end = tc->now + 1;
  }
}

uint64_t sg_tcore_busy_end(const struct sg_tcore *tc) { return tc->busy_end; }

void sg_tcore_finish(struct sg_tcore *tc, uint64_t cycles) {
  idle_until(tc, cycles);
  tc->stats.cycles = cycles;
}

bool sg_tcore_idle(const struct sg_tcore *tc) {
  return tc->assigned_n == 0 && tc->resident_ctas == 0;
}

bool sg_tcore_faulted(const struct sg_tcore *tc) { return tc->faulted; }

bool sg_tcore_nomem(const struct sg_tcore *tc) { return tc->nomem; }

bool sg_tcore_stop(struct sg_tcore *tc, enum sg_fault_kind kind, const char *what) {
  for (uint32_t j = 0; j < tc->nres; j++) { /* its oldest warp that has not finished */
    uint32_t wi = tc->res[j];
    if (tc->w[wi].next_valid && (tc->w[wi].st == SG_WS_DONE || tc->w[wi].st == SG_WS_FREE))
      continue;
    sg_core_warp_stop(tc->core, wi, kind, what);
    tc->faulted = true;
    tc->fault_cta = tc->cta_index[tc->w[wi].cta];
    return true;
  }
  return false;
}

const struct sg_fault *sg_tcore_fault(const struct sg_tcore *tc, uint64_t *cta) {
  *cta = tc->fault_cta;
  return &tc->fault;
}

uint64_t sg_tcore_ctas_done(const struct sg_tcore *tc) { return tc->ctas_done; }

struct sg_mem_req *sg_tcore_requests(struct sg_tcore *tc, uint32_t *n) {
  *n = tc->nout;
  return tc->out;
}

void sg_tcore_clear_requests(struct sg_tcore *tc) { tc->nout = 0; }

struct sg_timing_stats *sg_tcore_stats(struct sg_tcore *tc) { return &tc->stats; }

void sg_tcore_sample(struct sg_tcore *tc, uint32_t *issued, uint32_t *warps) {
  *issued = tc->sample_issued;
  *warps = tc->sample_warps;
  tc->sample_issued = 0;
}

uint32_t sg_tcore_max_ctas(const struct sg_tcore *tc) { return tc->ctas_per_core; }
