/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), warp scheduling and barriers: runs the
 * warps of one CTA round-robin, each until it blocks at a barrier, finishes
 * or uses its time slice, and releases a barrier when every unfinished warp
 * of the CTA has reached it. */
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

enum sg_status sg_core_create(const struct sg_sim_config *cfg, struct sg_core **out) {
  *out = NULL;
  if (!cfg || cfg->warp_size < 1 || cfg->warp_size > SG_MAX_WARP_SIZE)
    return SG_EINVAL;
  struct sg_core *c = calloc(1, sizeof(*c));
  if (!c)
    return SG_ENOMEM;
  c->cfg = *cfg;
  c->reconv = &sg_reconv_ipdom;
  *out = c;
  return SG_OK;
}

void sg_core_destroy(struct sg_core *c) {
  if (!c)
    return;
  for (uint32_t i = 0; i < c->nwarps_alloc; i++)
    free(c->warps[i]);
  free(c->warps);
  free(c);
}

static enum sg_status ensure_warps(struct sg_core *c, uint32_t n) {
  if (n <= c->nwarps_alloc)
    return SG_OK;
  struct sg_warp **ws = realloc(c->warps, n * sizeof(*ws));
  if (!ws)
    return SG_ENOMEM;
  c->warps = ws;
  for (; c->nwarps_alloc < n; c->nwarps_alloc++)
    if (!(ws[c->nwarps_alloc] = aligned_alloc(64, (sizeof(struct sg_warp) + 63) / 64 * 64)))
      return SG_ENOMEM;
  return SG_OK;
}

static void warp_init(struct sg_core *c, struct sg_warp *w, uint32_t id) {
  const struct sg_cta_desc *d = c->cta;
  unsigned ws = c->cfg.warp_size;
  /* Only registers the code names can be read: zeroing all 64 rows of every
   * warp would cost more than running a short kernel. */
  for (uint64_t m = c->code->x_used; m; m &= m - 1)
    memset(w->x[__builtin_ctzll(m)], 0, ws * sizeof(uint64_t));
  for (uint64_t m = c->code->f_used; m; m &= m - 1)
    memset(w->f[__builtin_ctzll(m)], 0, ws * sizeof(uint64_t));
  memset(w->fcsr, 0, sizeof(w->fcsr));
  for (unsigned l = 0; l < ws; l++) {
    w->x[2][l] = d->stack_base + (uint64_t)(id * ws + l + 1) * d->stack_size; /* sp */
    w->x[10][l] = d->params_addr;                                            /* a0 */
  }
  w->lr_valid = 0;
  w->lanes = d->init_mask[id] & (ws == 64 ? ~0ull : (1ull << ws) - 1);
  w->exited = 0;
  w->frm_any = false;
  w->id = id;
  w->state = w->lanes ? SG_WARP_READY : SG_WARP_DONE;
  c->reconv->init(&w->stack, d->entry_pc, w->lanes);
}

void sg_core_fault(struct sg_core *c, const struct sg_warp *w, enum sg_fault_kind kind,
                   uint64_t pc, unsigned lane, uint64_t addr, uint32_t size, const char *fmt, ...) {
  struct sg_fault *f = c->fault;
  unsigned ws = c->cfg.warp_size;
  const struct sg_cta_desc *d = c->cta;
  if (lane >= ws) { /* not lane-specific: name the first active lane */
    uint64_t m = w->stack.depth ? w->stack.e[w->stack.depth - 1].mask & ~w->exited : 0;
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
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->what, sizeof(f->what), fmt, ap);
  va_end(ap);
}

static bool cta_valid(const struct sg_core *c, const struct sg_cta_desc *d) {
  uint64_t ws = c->cfg.warp_size;
  return d->ntid[0] && d->ntid[1] && d->ntid[2] && d->num_warps &&
         d->num_warps <= SG_MAX_CTA_WARPS &&
         (uint64_t)d->ntid[0] * d->ntid[1] * d->ntid[2] == d->num_threads &&
         d->num_threads <= SG_MAX_CTA_THREADS &&
         (d->num_threads + ws - 1) / ws == d->num_warps && (d->stack_size & 15) == 0;
}

/* Releases the barrier when every unfinished warp waits at it; returns
 * whether any warp can still run. */
static bool barrier_check(struct sg_core *c, uint32_t nw) {
  uint32_t waiting = 0, ready = 0;
  for (uint32_t i = 0; i < nw; i++) {
    waiting += c->warps[i]->state == SG_WARP_BARRIER;
    ready += c->warps[i]->state == SG_WARP_READY;
  }
  if (ready || !waiting)
    return ready != 0;
  for (uint32_t i = 0; i < nw; i++)
    if (c->warps[i]->state == SG_WARP_BARRIER)
      c->warps[i]->state = SG_WARP_READY;
  c->stats.barriers++;
  return true;
}

static enum sg_status run(struct sg_core *c, uint32_t nw) {
  uint64_t limit = c->cfg.watchdog_insns ? c->cfg.watchdog_insns : UINT64_MAX;
  while (barrier_check(c, nw)) {
    for (uint32_t i = 0; i < nw; i++) {
      struct sg_warp *w = c->warps[i];
      if (w->state != SG_WARP_READY)
        continue;
      if (c->insns >= limit) {
        const struct sg_simt_entry *top = &w->stack.e[w->stack.depth - 1];
        sg_core_fault(c, w, SG_FAULT_WATCHDOG, top->pc, 64, 0, 0,
                      "ran past the watchdog limit of %llu warp instructions",
                      (unsigned long long)limit);
        return SG_EFAULT;
      }
      uint64_t budget = limit - c->insns < SLICE ? limit - c->insns : SLICE;
      w->state = sg_warp_run(c, w, budget);
      if (w->state == SG_WARP_FAULT)
        return SG_EFAULT;
    }
  }
  return SG_OK;
}

enum sg_status sg_core_run_cta(struct sg_core *c, const struct sg_code *code,
                               const struct sg_cta_desc *cta, const struct sg_memmap *mem,
                               struct sg_stats *stats, struct sg_fault *fault) {
  static const struct sg_region none;
  if (!c || !code || !cta || !mem || !stats || !fault || !cta_valid(c, cta))
    return SG_EINVAL;
  enum sg_status s = ensure_warps(c, cta->num_warps);
  if (s != SG_OK)
    return s;
  memset(fault, 0, sizeof(*fault));
  memset(&c->stats, 0, sizeof(c->stats));
  c->code = code;
  c->cta = cta;
  c->mem = mem;
  c->last = &none;
  c->fault = fault;
  c->insns = 0;
  for (uint32_t i = 0; i < cta->num_warps; i++)
    warp_init(c, c->warps[i], i);
  /* The FP semantics assume the default environment; the host's is kept. */
  fenv_t host_env;
  feholdexcept(&host_env);
  fesetround(FE_TONEAREST);
  s = run(c, cta->num_warps);
  fesetenv(&host_env);
  c->stats.ctas = 1;
  c->stats.warps = cta->num_warps;
  sg_stats_add(stats, &c->stats);
  return s;
}
