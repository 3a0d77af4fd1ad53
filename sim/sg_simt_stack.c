/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), reconvergence: the IPDOM SIMT stack of
 * GPGPU-Sim. Each entry is {pc, reconv_pc, mask}; the top runs. Other
 * policies plug in through struct sg_reconv_ops. */
#include "sg_sim_impl.h"

#include <assert.h>

static void ipdom_init(struct sg_simt_stack *s, uint64_t pc, uint64_t mask) {
  s->depth = 1;
  s->e[0] = (struct sg_simt_entry){pc, SG_RECONV_EXIT, mask, false};
}

static void push(struct sg_simt_stack *s, uint64_t pc, uint64_t reconv, uint64_t mask) {
  assert(s->depth < SG_SIMT_DEPTH);
  s->e[s->depth++] = (struct sg_simt_entry){pc, reconv, mask, false};
}

/* The top either becomes the reconvergence entry (lanes wait there at pc r)
 * or, when it already waits for r, is replaced by the paths. A path that
 * starts at r is not pushed: its lanes just wait in the entry below. The
 * not-taken path is pushed first, so the taken path runs first. */
static void ipdom_diverge(struct sg_simt_stack *s, uint64_t taken, uint64_t target,
                          uint64_t fallthrough, uint64_t r) {
  struct sg_simt_entry *top = &s->e[s->depth - 1];
  uint64_t mask = top->mask;
  if (top->reconv_pc == r)
    s->depth--;
  else
    top->pc = r;
  if (fallthrough != r)
    push(s, fallthrough, r, mask & ~taken);
  if (target != r)
    push(s, target, r, taken);
}

static void ipdom_settle(struct sg_simt_stack *s, uint64_t exited) {
  while (s->depth > 0) {
    const struct sg_simt_entry *top = &s->e[s->depth - 1];
    if (top->pc != top->reconv_pc && (top->mask & ~exited))
      return;
    s->depth--;
  }
}

/* Siblings are adjacent: the path below the top with the same reconvergence
 * PC has not run yet. Two paths both waiting at barriers cannot be merged
 * (each waits for the other), so that stays a divergent barrier. */
static bool ipdom_defer(struct sg_simt_stack *s) {
  if (s->depth < 2)
    return false;
  struct sg_simt_entry *top = &s->e[s->depth - 1], *below = top - 1;
  if (below->reconv_pc != top->reconv_pc || below->pc == below->reconv_pc || below->deferred)
    return false;
  struct sg_simt_entry t = *top;
  t.deferred = true;
  *top = *below;
  *below = t;
  return true;
}

const struct sg_reconv_ops sg_reconv_ipdom = {
    .name = "ipdom",
    .init = ipdom_init,
    .diverge = ipdom_diverge,
    .settle = ipdom_settle,
    .defer = ipdom_defer,
};
