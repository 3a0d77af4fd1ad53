/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), reconvergence: the IPDOM SIMT stack of
 * GPGPU-Sim. Each entry is {pc, frame, reconv_pc, reconv_frame, mask}; the
 * top runs. Other policies plug in through struct sg_reconv_ops. */
#include "sg_sim_impl.h"

#include <assert.h>

static void ipdom_init(struct sg_simt_stack *s, uint64_t pc, uint64_t mask) {
  s->depth = 1;
  s->e[0] = (struct sg_simt_entry){.pc = pc, .reconv_pc = SG_RECONV_EXIT, .mask = mask};
}

static void push(struct sg_simt_stack *s, uint64_t pc, uint32_t frame, uint64_t reconv,
                 uint32_t reconv_frame, uint64_t mask) {
  assert(s->depth < SG_SIMT_DEPTH);
  s->e[s->depth++] = (struct sg_simt_entry){pc, reconv, mask, frame, reconv_frame, false};
}

/* The top either becomes the reconvergence entry (lanes wait there at r)
 * or, when it already waits for r, is replaced by the paths. A path that
 * starts at r is not pushed: its lanes just wait in the entry below. The
 * not-taken path is pushed first, so the taken path runs first. In a called
 * function, the exit as reconvergence point means the return to the caller. */
static void ipdom_diverge(struct sg_simt_stack *s, uint64_t taken, uint64_t target,
                          uint64_t fallthrough, uint64_t r, uint32_t frame) {
  uint32_t rf = frame;
  if (r == SG_RECONV_EXIT && frame > 0)
    r = SG_RECONV_RETURN, rf = frame - 1;
  struct sg_simt_entry *top = &s->e[s->depth - 1];
  uint64_t mask = top->mask;
  if (top->reconv_pc == r && top->reconv_frame == rf)
    s->depth--;
  else
    top->pc = r, top->frame = rf;
  if (fallthrough != r)
    push(s, fallthrough, frame, r, rf, mask & ~taken);
  if (target != r)
    push(s, target, frame, r, rf, taken);
}

/* The entries waiting for the same return are the top's siblings and, below
 * them, the reconvergence entry: all learn the return address now. */
static void ipdom_returned(struct sg_simt_stack *s, uint64_t target) {
  struct sg_simt_entry *top = &s->e[s->depth - 1];
  uint32_t rf = top->reconv_frame;
  for (uint32_t i = s->depth; i-- > 0;) {
    struct sg_simt_entry *e = &s->e[i];
    if (e->pc == SG_RECONV_RETURN && e->frame == rf) {
      e->pc = target; /* the reconvergence entry: done */
      break;
    }
    if (e->reconv_pc == SG_RECONV_RETURN && e->reconv_frame == rf)
      e->reconv_pc = target;
  }
  top->pc = target, top->frame = rf;
}

static void ipdom_settle(struct sg_simt_stack *s, uint64_t exited) {
  while (s->depth > 0) {
    const struct sg_simt_entry *top = &s->e[s->depth - 1];
    bool arrived = top->pc == top->reconv_pc && top->frame == top->reconv_frame;
    if (!arrived && (top->mask & ~exited))
      return;
    s->depth--;
  }
}

/* Siblings are adjacent: the path below the top with the same reconvergence
 * point has not run yet. Two paths both waiting at barriers cannot be merged
 * (each waits for the other), so that stays a divergent barrier. */
static bool ipdom_defer(struct sg_simt_stack *s) {
  if (s->depth < 2)
    return false;
  struct sg_simt_entry *top = &s->e[s->depth - 1], *below = top - 1;
  if (below->reconv_pc != top->reconv_pc || below->reconv_frame != top->reconv_frame ||
      (below->pc == below->reconv_pc && below->frame == below->reconv_frame) || below->deferred)
    return false;
  struct sg_simt_entry t = *top;
  t.deferred = true;
  *top = *below;
  *below = t;
  return true;
}

static bool ipdom_at_barrier(const struct sg_simt_stack *s, uint64_t live) {
  uint64_t waiting = s->e[s->depth - 1].mask;
  for (uint32_t i = 0; i + 1 < s->depth; i++)
    if (s->e[i].deferred)
      waiting |= s->e[i].mask;
  return (live & ~waiting) == 0;
}

static void ipdom_release(struct sg_simt_stack *s) {
  for (uint32_t i = 0; i < s->depth; i++)
    if (s->e[i].deferred) {
      s->e[i].pc += 4; /* past its sg.barrier */
      s->e[i].deferred = false;
    }
}

const struct sg_reconv_ops sg_reconv_ipdom = {
    .name = "ipdom",
    .init = ipdom_init,
    .diverge = ipdom_diverge,
    .returned = ipdom_returned,
    .settle = ipdom_settle,
    .defer = ipdom_defer,
    .at_barrier = ipdom_at_barrier,
    .release = ipdom_release,
};
