/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4): the simulated core as a machine. It owns
 * warp slots and the CTA resident on it, with its entry in the barrier
 * table (seed 003: warps waiting at the barrier out of those running); the
 * functional scheduler runs the CTA's warps round-robin, each until it waits
 * at the barrier, finishes or uses its time slice, and releases the barrier
 * when every running warp waits at it. Consumers attach through hooks. */
#include "sg_sim_impl.h"

#include <fenv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Instructions a warp runs before the next warp gets its turn: long enough
 * to keep one warp's registers in cache, short enough that warps spinning on
 * each other make progress. */
#define SLICE 4096

const struct sg_reconv_ops *sg_reconv_policy_ops(enum sg_reconv_policy policy) {
  switch (policy) {
  case SG_RECONV_IPDOM: return &sg_reconv_ipdom;
  case SG_RECONV_MPIPDOM: return &sg_reconv_multipath;
  default: return NULL;
  }
}

const char *sg_reconv_policy_name(enum sg_reconv_policy policy) {
  const struct sg_reconv_ops *ops = sg_reconv_policy_ops(policy);
  return ops ? ops->name : NULL;
}

void sg_reconv_log_add(struct sg_reconv_log *log, enum sg_event_kind kind, uint64_t pc,
                       uint64_t mask, uint64_t arg, uint64_t arg2) {
  if (log->n < SG_RECONV_LOG_MAX)
    log->e[log->n++] = (struct sg_event){.kind = kind, .pc = pc, .mask = mask, .arg = arg,
                                         .arg2 = arg2};
}

enum sg_status sg_core_create(const struct sg_sim_config *cfg, uint32_t id,
                              struct sg_core **out) {
  *out = NULL;
  if (!cfg || cfg->warp_size < 1 || cfg->warp_size > SG_MAX_WARP_SIZE ||
      !sg_reconv_policy_ops(cfg->reconv) || (unsigned)cfg->engine >= SG_NUM_ENGINES)
    return SG_EINVAL;
  struct sg_core *c = calloc(1, sizeof(*c));
  if (!c)
    return SG_ENOMEM;
  c->cfg = *cfg;
  c->cfg.cta_slots = cfg->cta_slots ? cfg->cta_slots : 1;
  c->id = id;
  c->reconv = sg_reconv_policy_ops(cfg->reconv);
  if (!(c->ctas = calloc(c->cfg.cta_slots, sizeof *c->ctas))) {
    free(c);
    return SG_ENOMEM;
  }
  *out = c;
  return SG_OK;
}

void sg_core_destroy(struct sg_core *c) {
  if (!c)
    return;
  for (uint32_t i = 0; i < c->nwarps_alloc; i++)
    free(c->warps[i]);
  free(c->warps);
  free(c->ctas);
  free(c->log_room);
  free(c);
}

void sg_core_hold_fp(struct sg_core *c) {
  feholdexcept(&c->host_env);
  fesetround(FE_TONEAREST);
  c->fp_held = true;
}

void sg_core_release_fp(struct sg_core *c) {
  fesetenv(&c->host_env);
  c->fp_held = false;
}

void sg_core_set_hooks(struct sg_core *c, struct sg_hook *const *hooks, uint32_t count) {
  c->hooks = count ? hooks : NULL;
  c->nhooks = count;
  bool log = false;
  c->follow_blocks = count > 0;
  for (uint32_t i = 0; i < count; i++) {
    c->follow_blocks &= hooks[i]->block != NULL;
    log |= hooks[i]->block && hooks[i]->block->accesses;
  }
  if (c->follow_blocks && log && !c->log_room)
    c->log_room = malloc(sizeof *c->log_room);
  c->block_log = c->follow_blocks && log ? c->log_room : NULL;
  c->follow_blocks &= !log || c->block_log; /* (without room for the log: interpreted) */
  c->block_hook = NULL;
  c->events = 0;
  c->fence_flags = false;
  for (uint32_t i = 0; i < count; i++) {
    c->events |= hooks[i]->events ? hooks[i]->events : ~0u;
    c->fence_flags |= hooks[i]->fence_flags;
  }
}

void sg_core_emit(struct sg_core *c, const struct sg_cta_slot *cs, const struct sg_warp *w,
                  struct sg_event *e) {
  e->cta = cs->index;
  e->core = cs->desc->core_id;
  e->warp = w ? w->id : UINT32_MAX;
  for (uint32_t i = 0; i < c->nhooks; i++) {
    struct sg_hook *h = c->hooks[i];
    if (h->event && (!h->events || (h->events & SG_EV_BIT(e->kind))))
      h->event(h, e);
  }
}

static enum sg_status ensure_warps(struct sg_core *c, uint32_t n) {
  if (n <= c->nwarps_alloc)
    return SG_OK;
  struct sg_warp **ws = realloc(c->warps, n * sizeof(*ws));
  if (!ws)
    return SG_ENOMEM;
  c->warps = ws;
  size_t size = (sizeof(struct sg_warp) + c->reconv->state_size + 63) / 64 * 64;
  for (; c->nwarps_alloc < n; c->nwarps_alloc++) {
    if (!(ws[c->nwarps_alloc] = aligned_alloc(64, size)))
      return SG_ENOMEM;
    ws[c->nwarps_alloc]->cta = NULL; /* a free slot */
  }
  return SG_OK;
}

/* The time of the CTA's events: the core's clock when a timing model
 * drives it, else the warp instructions the CTA ran. */
static uint64_t time_of(const struct sg_core *c, const struct sg_cta_slot *cs) {
  return c->timed ? c->now : cs->insns;
}

static void warp_init(struct sg_core *c, struct sg_warp *w, struct sg_cta_slot *cs,
                      uint32_t id) {
  /* (a warp slot's registers hold whatever its last CTA left: zeroing the
   * rows the code names is what makes every CTA start alike) */
  const struct sg_cta_desc *d = cs->desc;
  unsigned ws = c->cfg.warp_size;
  /* Only registers some path from the entry reads before writing them can
   * be read uninitialised (sg_code_live_in): zeroing all 64 rows of every
   * warp would cost more than running a short kernel. */
  for (uint64_t m = c->zero_x; m; m &= m - 1)
    memset(w->x[__builtin_ctzll(m)], 0, ws * sizeof(uint64_t));
  for (uint64_t m = c->zero_f; m; m &= m - 1)
    memset(w->f[__builtin_ctzll(m)], 0, ws * sizeof(uint64_t));
  memset(w->fcsr, 0, ws * sizeof(w->fcsr[0]));
  /* sp: the top of the lane's stack slot (thread t's slot ends at
   * stack_base + (t + 1) * stack_size), when the code reads it before
   * writing it; a0: the parameter block. */
  uint64_t *restrict sp = w->x[2], *restrict a0 = w->x[10];
  const uint64_t top = d->stack_base + (uint64_t)(id * ws + 1) * d->stack_size,
                 slot = d->stack_size, params = d->params_addr;
  if (c->init_sp)
    for (unsigned l = 0; l < ws; l++)
      sp[l] = top + l * slot;
  for (unsigned l = 0; l < ws; l++)
    a0[l] = params;
  w->lr_valid = 0;
  w->lanes = d->init_mask[id] & (ws == 64 ? ~0ull : (1ull << ws) - 1);
  w->exited = 0;
  w->frm_any = false;
  w->id = id;
  w->cta = cs;
  w->state = w->lanes ? SG_WARP_READY : SG_WARP_DONE;
  c->reconv->init(w->reconv, d->entry_pc, w->lanes);
}

static void fill(struct sg_core *c, const struct sg_warp *w, struct sg_fault *f,
                 enum sg_fault_kind kind, uint64_t pc, unsigned lane, uint64_t addr,
                 uint32_t size, const struct sg_fault_other *other, const char *fmt,
                 va_list ap) {
  unsigned ws = c->cfg.warp_size;
  const struct sg_cta_desc *d = w->cta->desc;
  if (lane >= ws) { /* not lane-specific: name the lowest live lane */
    uint64_t m = w->lanes & ~w->exited;
    m = m ? m : w->lanes;
    lane = m ? (unsigned)__builtin_ctzll(m) : 0;
  }
  uint32_t t = w->id * ws + lane;
  f->kind = kind;
  f->pc = pc;
  f->addr = addr;
  f->size = size;
  f->warp = w->id;
  f->lane = lane;
  f->thread = t;
  f->tid[0] = t % d->ntid[0];
  f->tid[1] = t / d->ntid[0] % d->ntid[1];
  f->tid[2] = t / d->ntid[0] / d->ntid[1];
  f->other = other ? *other : (struct sg_fault_other){0};
  vsnprintf(f->what, sizeof(f->what), fmt, ap);
}

void sg_core_fault(struct sg_core *c, const struct sg_warp *w, enum sg_fault_kind kind,
                   uint64_t pc, unsigned lane, uint64_t addr, uint32_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fill(c, w, c->fault, kind, pc, lane, addr, size, NULL, fmt, ap);
  va_end(ap);
}

/* sg_core_report, with the other access of a pair (NULL: none). */
static bool report(struct sg_core *c, const struct sg_warp *w, enum sg_fault_kind kind,
                   uint64_t pc, unsigned lane, uint64_t addr, uint32_t size,
                   const struct sg_fault_other *other, const char *fmt, va_list ap) {
  const struct sg_cta_slot *cs = w->cta;
  bool go_on = c->findings && !c->cfg.strict && !sg_fault_fatal(kind);
  struct sg_finding_site *s =
      go_on ? sg_findings_site(c->findings, kind, pc, other ? other->pc : 0) : NULL;
  uint32_t t = w->id * c->cfg.warp_size + (lane < c->cfg.warp_size ? lane : 0);
  if (!go_on) {
    fill(c, w, c->fault, kind, pc, lane, addr, size, other, fmt, ap);
  } else if (!s) {
    c->findings->lost++;
  } else {
    /* Described once, for the site's first work-item: formatting every
     * occurrence of a kernel that faults a million times would dominate. */
    if (cs->index < s->cta || (cs->index == s->cta && t < s->first.thread)) {
      fill(c, w, &s->first, kind, pc, lane, addr, size, other, fmt, ap);
      s->cta = cs->index;
      memcpy(s->ctaid, cs->desc->ctaid, sizeof s->ctaid);
    }
    s->count++;
  }
  return go_on;
}

bool sg_core_report(struct sg_core *c, const struct sg_warp *w, enum sg_fault_kind kind,
                    uint64_t pc, unsigned lane, uint64_t addr, uint32_t size, const char *fmt,
                    ...) {
  va_list ap;
  va_start(ap, fmt);
  bool go_on = report(c, w, kind, pc, lane, addr, size, NULL, fmt, ap);
  va_end(ap);
  return go_on;
}

/* A consumer's finding: reported for warp `warp` of the resident CTA, and
 * the CTA stops after the current instruction when it cannot go on. */
static bool consumer_report(struct sg_core *c, uint32_t warp, unsigned lane, uint64_t pc,
                            const struct sg_fault_other *other, enum sg_fault_kind kind,
                            uint64_t addr, uint32_t size, const char *fmt, va_list ap) {
  const struct sg_cta_slot *cs = c->cur;
  if (c->stopped || !cs || warp >= cs->num_warps)
    return !c->stopped;
  bool go_on = report(c, c->warps[cs->first_warp + warp], kind, pc, lane, addr, size, other,
                      fmt, ap);
  c->stopped = !go_on;
  return go_on;
}

bool sg_core_finding(struct sg_core *c, uint32_t warp, unsigned lane, uint64_t pc,
                     enum sg_fault_kind kind, uint64_t addr, uint32_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  bool go_on = consumer_report(c, warp, lane, pc, NULL, kind, addr, size, fmt, ap);
  va_end(ap);
  return go_on;
}

bool sg_core_finding_pair(struct sg_core *c, uint32_t warp, unsigned lane, uint64_t pc,
                          const struct sg_fault_other *other, enum sg_fault_kind kind,
                          uint64_t addr, uint32_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  bool go_on = consumer_report(c, warp, lane, pc, other, kind, addr, size, fmt, ap);
  va_end(ap);
  return go_on;
}

static bool cta_valid(const struct sg_core *c, const struct sg_cta_desc *d) {
  uint64_t ws = c->cfg.warp_size;
  return d->ntid[0] && d->ntid[1] && d->ntid[2] && d->num_warps &&
         d->num_warps <= SG_MAX_CTA_WARPS &&
         (uint64_t)d->ntid[0] * d->ntid[1] * d->ntid[2] == d->num_threads &&
         d->num_threads <= SG_MAX_CTA_THREADS &&
         (d->num_threads + ws - 1) / ws == d->num_warps && (d->stack_size & 15) == 0;
}

static struct sg_warp *cta_warp(const struct sg_core *c, const struct sg_cta_slot *cs,
                                uint32_t i) {
  return c->warps[cs->first_warp + i];
}

/* The lowest thread of the CTA that exited (lanes of finished warps
 * included), as warp and lane; false when none has. */
static bool first_exited(const struct sg_core *c, const struct sg_cta_slot *cs, uint32_t *warp,
                         unsigned *lane) {
  for (uint32_t i = 0; i < cs->num_warps; i++) {
    const struct sg_warp *w = cta_warp(c, cs, i);
    if (w->exited & w->lanes) {
      *warp = i;
      *lane = (unsigned)__builtin_ctzll(w->exited & w->lanes);
      return true;
    }
  }
  return false;
}

/* Every running warp of the CTA waits at its barrier: checks that they all
 * wait at the same one and that no work-item left before it (both
 * survivable findings: exited work-items count as arrived, as on GPUs),
 * then releases it. False when a finding ends the CTA. */
static bool barrier_release(struct sg_core *c, struct sg_cta_slot *cs) {
  const struct sg_warp *lead = NULL;
  for (uint32_t i = 0; i < cs->num_warps; i++) {
    const struct sg_warp *w = cta_warp(c, cs, i);
    if (w->state != SG_WARP_BARRIER)
      continue;
    if (!lead) {
      lead = w;
    } else if (w->barrier_pc != lead->barrier_pc &&
               !sg_core_report(c, lead, SG_FAULT_BARRIER_MISMATCH, lead->barrier_pc, 64, 0, 0,
                               "warps released together from different barriers: warp %u "
                               "from this one, warp %u from the one at PC 0x%llx",
                               lead->id, w->id, (unsigned long long)w->barrier_pc)) {
      return false;
    }
  }
  uint32_t ew;
  unsigned el;
  if (first_exited(c, cs, &ew, &el) &&
      !sg_core_report(c, cta_warp(c, cs, ew), SG_FAULT_BARRIER_EXITED, lead->barrier_pc, el, 0,
                      0,
                      "returned before the barrier the rest of its work-group waited at "
                      "(undefined; it counts as arrived)"))
    return false;
  for (uint32_t i = 0; i < cs->num_warps; i++) {
    struct sg_warp *w = cta_warp(c, cs, i);
    if (w->state == SG_WARP_BARRIER) {
      w->state = SG_WARP_READY;
      c->reconv->release(w->reconv);
    }
  }
  cs->at_barrier = 0;
  if (sg_core_wants(c, SG_EV_BARRIER_RELEASE))
    sg_core_emit(c, cs, NULL,
                 &(struct sg_event){.kind = SG_EV_BARRIER_RELEASE, .time = time_of(c, cs),
                                    .pc = lead->barrier_pc, .arg = cs->slot});
  return true;
}

/* A warp's run ended in state st: the barrier table and the consumers
 * learn of it. */
static void warp_stopped(struct sg_core *c, struct sg_cta_slot *cs, struct sg_warp *w) {
  if (w->state == SG_WARP_BARRIER) {
    cs->at_barrier++;
    if (sg_core_wants(c, SG_EV_BARRIER_WAIT))
      sg_core_emit(c, cs, w,
                   &(struct sg_event){.kind = SG_EV_BARRIER_WAIT, .time = time_of(c, cs),
                                      .pc = w->barrier_pc, .arg = cs->slot});
  } else if (w->state == SG_WARP_DONE) {
    cs->running--;
    if (sg_core_wants(c, SG_EV_WARP_END))
      sg_core_emit(c, cs, w, &(struct sg_event){.kind = SG_EV_WARP_END, .time = time_of(c, cs)});
  }
}

/* May the core run translated blocks? With the engine that has them, and
 * no consumer, or only consumers that follow blocks. Those that hear of a
 * block's accesses when it has run (block_log) report findings late: where
 * a finding ends the CTA at its instruction, they get the interpreter. */
static bool translatable(const struct sg_core *c) {
  return c->cfg.engine == SG_ENGINE_JIT &&
         (!c->nhooks ||
          (c->follow_blocks && (!c->block_log || (c->findings && !c->cfg.strict))));
}

/* The kernel's translated blocks, when it has them (and the core may run
 * them), kept for the CTAs after. */
static void jit_entries(struct sg_core *c, uint64_t entry_pc) {
  if (translatable(c) && c->jit_code == c->code->id && c->jit_entry_pc == entry_pc) {
    c->jit = c->jit_entries; /* this kernel's, translated: no lock to take */
  } else if (translatable(c) && (c->jit = sg_jit_entries(c, c->code, entry_pc))) {
    c->jit_code = c->code->id;
    c->jit_entry_pc = entry_pc;
    c->jit_entries = c->jit;
  }
}

/* The CTA's interpreted instructions count toward translating its kernel
 * (sg_jit_ran), every JIT_STEP of them and at its end (the launch by its
 * first CTA); once translated the CTA goes on in blocks: a work-group of a
 * thousand work-items that loops need not finish interpreted. */
#define JIT_STEP (1u << 16)
static void jit_progress(struct sg_core *c, struct sg_cta_slot *cs, bool end) {
  uint64_t n = cs->insns - cs->jit_counted;
  if (c->jit || !translatable(c) || (!end && n < JIT_STEP))
    return;
  sg_jit_ran(c->code, c->cfg.warp_size, cs->desc->entry_pc, n,
             cs->index == 0 && cs->jit_counted == 0);
  cs->jit_counted = cs->insns;
  if (!end)
    jit_entries(c, cs->desc->entry_pc);
}

/* Runs the CTA's warps round-robin until all are done; the barrier is
 * released when every running warp waits at it. */
static enum sg_status run(struct sg_core *c, struct sg_cta_slot *cs) {
  uint64_t limit = c->cfg.watchdog_insns ? c->cfg.watchdog_insns : UINT64_MAX;
  while (cs->running > 0) {
    if (cs->at_barrier == cs->running && (!barrier_release(c, cs) || c->stopped))
      return SG_EFAULT;
    for (uint32_t i = 0; i < cs->num_warps; i++) {
      struct sg_warp *w = cta_warp(c, cs, i);
      if (w->state != SG_WARP_READY)
        continue;
      if (cs->insns >= limit) {
        sg_core_fault(c, w, SG_FAULT_WATCHDOG, 0, 64, 0, 0,
                      "ran past the watchdog limit of %llu warp instructions",
                      (unsigned long long)limit);
        struct sg_path p;
        if (c->reconv->next(w->reconv, w->lanes & ~w->exited, &p, NULL) == SG_NEXT_RUN)
          c->fault->pc = p.pc;
        return SG_EFAULT;
      }
      uint64_t budget = limit - cs->insns < SLICE ? limit - cs->insns : SLICE;
      w->state = sg_warp_run(c, w, budget);
      if (w->state == SG_WARP_FAULT)
        return SG_EFAULT;
      warp_stopped(c, cs, w);
      if (c->stopped)
        return SG_EFAULT;
      jit_progress(c, cs, false);
    }
  }
  return SG_OK;
}

void sg_core_bind(struct sg_core *c, const struct sg_code *code, struct sg_findings *findings,
                  struct sg_fault *fault) {
  /* (every fault that ends a CTA fills all of it: clearing the whole
   * struct, its message included, was a tenth of a short CTA) */
  fault->kind = SG_FAULT_NONE;
  fault->what[0] = '\0';
  c->stopped = false;
  c->code = code;
  c->fault = fault;
  c->findings = findings;
  for (uint32_t i = 0; i < c->cfg.cta_slots; i++)
    c->ctas[i].desc = NULL;
  /* (only the slots a CTA had: a core that once ran a work-group of 1024
   * work-items has 32, and small work-groups bind it once each) */
  for (uint32_t i = 0; i < c->nwarps_bound; i++)
    c->warps[i]->cta = NULL;
  c->nwarps_bound = 0;
}

/* Starts CTA cta in slot s with its warps in warp slots first .. */
static void cta_start(struct sg_core *c, uint32_t s, const struct sg_cta_desc *cta,
                      const struct sg_memmap *mem, uint32_t first) {
  static const struct sg_region none;
  sg_code_live_in(c->code, cta->entry_pc, &c->zero_x, &c->zero_f);
  c->init_sp = c->zero_x >> 2 & 1;
  c->zero_x &= ~(1ull << 2 | 1ull << 10); /* sp and a0 are set in warp_init */
  c->jit = NULL;
  jit_entries(c, cta->entry_pc);
  struct sg_cta_slot *cs = &c->ctas[s];
  /* The regions the slot's last CTA hit are those of this one's map too
   * when it is the same map (a launch's CTAs on one host thread): the
   * slot is set field by field, hit[] kept (a CTA is a few hundred
   * nanoseconds of a short kernel; clearing the slot was a tenth). */
  if (!mem->gen || mem->gen != cs->mem.gen)
    memset(cs->hit, 0, sizeof cs->hit);
  cs->desc = cta;
  cs->mem = *mem;
  cs->last = &none;
  cs->index = cta->ctaid[0] +
              (uint64_t)cta->nctaid[0] * (cta->ctaid[1] + (uint64_t)cta->nctaid[1] * cta->ctaid[2]);
  for (int d = 0; d < 2; d++) /* (ntid >= 1: cta_valid) */
    cs->ntid_recip[d] = (uint32_t)(((1ull << 31) + cta->ntid[d] - 1) / cta->ntid[d]);
  cs->insns = cs->jit_counted = 0;
  cs->slot = s;
  cs->first_warp = first;
  cs->num_warps = cta->num_warps;
  cs->running = cs->at_barrier = 0;
  if (first + cta->num_warps > c->nwarps_bound)
    c->nwarps_bound = first + cta->num_warps;
  for (uint32_t i = 0; i < cta->num_warps; i++) {
    warp_init(c, c->warps[first + i], cs, i);
    cs->running += c->warps[first + i]->state != SG_WARP_DONE;
  }
  if (sg_core_wants(c, SG_EV_CTA_START))
    sg_core_emit(c, cs, NULL,
                 &(struct sg_event){.kind = SG_EV_CTA_START, .time = time_of(c, cs),
                                    .arg = cta->num_warps, .arg2 = cs->first_warp, .desc = cta});
}

enum sg_status sg_core_run_cta(struct sg_core *c, const struct sg_code *code,
                               const struct sg_cta_desc *cta, const struct sg_memmap *mem,
                               struct sg_findings *findings, struct sg_fault *fault) {
  if (!c || !code || !cta || !mem || !fault || !cta_valid(c, cta))
    return SG_EINVAL;
  enum sg_status s = ensure_warps(c, cta->num_warps);
  if (s != SG_OK)
    return s;
  sg_core_bind(c, code, findings, fault);
  cta_start(c, 0, cta, mem, 0);
  struct sg_cta_slot *cs = c->cur = &c->ctas[0];
  /* The FP semantics assume the default environment; the host's is kept
   * (by the caller around many CTAs, sg_core_hold_fp, or here). */
  bool hold = !c->fp_held;
  if (hold)
    sg_core_hold_fp(c);
  s = run(c, cs);
  if (hold)
    sg_core_release_fp(c);
  jit_progress(c, cs, true);
  if (sg_core_wants(c, SG_EV_CTA_END))
    sg_core_emit(c, cs, NULL,
                 &(struct sg_event){.kind = SG_EV_CTA_END, .time = time_of(c, cs),
                                    .arg = s != SG_OK});
  cs->desc = NULL;
  return c->stopped ? SG_EFAULT : s;
}

/* ---- Driving the core one warp instruction at a time --------------------- */

int32_t sg_core_cta_place(struct sg_core *c, const struct sg_cta_desc *cta,
                          const struct sg_memmap *mem, uint32_t *first_warp) {
  if (!cta_valid(c, cta) || (c->cfg.warp_slots && cta->num_warps > c->cfg.warp_slots))
    return -2;
  int32_t s = -1;
  for (uint32_t i = 0; i < c->cfg.cta_slots && s < 0; i++)
    if (!c->ctas[i].desc)
      s = (int32_t)i;
  uint32_t slots = c->cfg.warp_slots ? c->cfg.warp_slots : cta->num_warps, run = 0, first = 0;
  for (uint32_t w = 0; s >= 0 && w < slots && run < cta->num_warps; w++) {
    bool free = w >= c->nwarps_alloc || !c->warps[w]->cta;
    run = free ? run + 1 : 0;
    first = free && run == 1 ? w : first;
  }
  if (s < 0 || run < cta->num_warps || ensure_warps(c, first + cta->num_warps) != SG_OK)
    return -1;
  cta_start(c, (uint32_t)s, cta, mem, first);
  *first_warp = first;
  return s;
}

void sg_core_set_time(struct sg_core *c, uint64_t now) {
  c->timed = true;
  c->now = now;
}

static struct sg_warp *slot_warp(const struct sg_core *c, uint32_t w) {
  return w < c->nwarps_alloc && c->warps[w]->cta ? c->warps[w] : NULL;
}

static enum sg_warp_status status_of(const struct sg_core *c, const struct sg_warp *w) {
  if (!w)
    return SG_WS_FREE;
  if (c->stopped)
    return SG_WS_FAULT;
  switch (w->state) {
  case SG_WARP_READY: return SG_WS_READY;
  case SG_WARP_BARRIER: return SG_WS_BARRIER;
  case SG_WARP_DONE: return SG_WS_DONE;
  default: return SG_WS_FAULT;
  }
}

enum sg_warp_status sg_core_warp_next(struct sg_core *c, uint32_t w, struct sg_next_insn *next) {
  struct sg_warp *wp = slot_warp(c, w);
  if (!wp || wp->state != SG_WARP_READY)
    return status_of(c, wp);
  uint64_t pc, mask;
  c->cur = wp->cta;
  enum sg_warp_state st = sg_warp_peek(c, wp, &pc, &mask);
  if (st != SG_WARP_READY) { /* it had nothing left but arriving or leaving */
    wp->state = st;
    warp_stopped(c, wp->cta, wp);
    return status_of(c, wp);
  }
  uint64_t idx = (pc - c->code->base) / 4;
  next->pc = pc;
  next->mask = mask;
  next->uop = pc >= c->code->base && idx < c->code->n ? &c->code->uops[idx] : NULL;
  return SG_WS_READY;
}

void sg_core_warp_stop(struct sg_core *c, uint32_t w, enum sg_fault_kind kind, const char *what) {
  struct sg_warp *wp = slot_warp(c, w);
  if (!wp)
    return;
  sg_core_fault(c, wp, kind, 0, 64, 0, 0, "%s", what);
  struct sg_path p;
  if (c->reconv->next(wp->reconv, wp->lanes & ~wp->exited, &p, NULL) == SG_NEXT_RUN)
    c->fault->pc = p.pc;
  c->stopped = true;
}

enum sg_warp_status sg_core_warp_step(struct sg_core *c, uint32_t w) {
  struct sg_warp *wp = slot_warp(c, w);
  if (!wp || wp->state != SG_WARP_READY)
    return status_of(c, wp);
  struct sg_cta_slot *cs = c->cur = wp->cta;
  uint64_t limit = c->cfg.watchdog_insns ? c->cfg.watchdog_insns : UINT64_MAX;
  if (cs->insns >= limit) {
    sg_core_fault(c, wp, SG_FAULT_WATCHDOG, 0, 64, 0, 0,
                  "ran past the watchdog limit of %llu warp instructions",
                  (unsigned long long)limit);
    c->stopped = true;
    return SG_WS_FAULT;
  }
  wp->state = sg_warp_run(c, wp, 1);
  if (wp->state == SG_WARP_FAULT)
    c->stopped = true;
  else
    warp_stopped(c, cs, wp);
  return status_of(c, wp);
}

bool sg_core_warp_yield(struct sg_core *c, uint32_t w) {
  struct sg_warp *wp = slot_warp(c, w);
  return wp && wp->state == SG_WARP_READY && c->reconv->yield &&
         c->reconv->yield(wp->reconv, wp->lanes & ~wp->exited);
}

bool sg_core_cta_barrier_full(const struct sg_core *c, uint32_t s) {
  const struct sg_cta_slot *cs = &c->ctas[s];
  return cs->desc && cs->running > 0 && cs->at_barrier == cs->running;
}

bool sg_core_cta_release(struct sg_core *c, uint32_t s) {
  struct sg_cta_slot *cs = c->cur = &c->ctas[s];
  if (!barrier_release(c, cs) || c->stopped) {
    c->stopped = true;
    return false;
  }
  return true;
}

bool sg_core_cta_finish(struct sg_core *c, uint32_t s) {
  struct sg_cta_slot *cs = &c->ctas[s];
  if (!cs->desc || cs->running > 0)
    return false;
  if (sg_core_wants(c, SG_EV_CTA_END))
    sg_core_emit(c, cs, NULL, &(struct sg_event){.kind = SG_EV_CTA_END, .time = time_of(c, cs)});
  for (uint32_t i = 0; i < cs->num_warps; i++)
    c->warps[cs->first_warp + i]->cta = NULL;
  cs->desc = NULL;
  return true;
}

void sg_core_atomic_complete(struct sg_core *c, uint32_t w, const struct sg_insn_record *r) {
  struct sg_warp *wp = slot_warp(c, w);
  if (wp)
    sg_warp_atomics(wp, r);
}
