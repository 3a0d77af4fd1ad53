/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), reconvergence policy "ipdom": the IPDOM
 * SIMT stack of GPGPU-Sim and Vortex (seeds 001 and 003). Each entry is a
 * path {pc, frame, reconv_pc, reconv_frame, mask}; the top runs. A divergent
 * branch turns the top into the entry where the paths rejoin and pushes one
 * entry per path; a path that reaches its reconvergence point is popped. */
#include "sg_sim_impl.h"

#include <assert.h>

struct entry {
  uint64_t pc, reconv_pc, mask;
  uint32_t frame, reconv_frame;
  bool join;    /* made by a divergence: lanes wait here for the paths above */
  bool waiting; /* parked at a barrier, waiting for its release */
};

/* Each divergence splits a mask into two non-empty parts, so a warp of n
 * lanes never needs more than 2n - 1 entries above the bottom one. */
#define DEPTH (2 * SG_MAX_WARP_SIZE + 1)
struct stack {
  uint32_t depth, joins;
  struct entry e[DEPTH];
};

static bool arrived(const struct entry *e) {
  return e->pc == e->reconv_pc && e->frame == e->reconv_frame;
}

static void count(const struct stack *s, struct sg_reconv_log *log) {
  if (log)
    sg_reconv_log_add(log, SG_EV_PATH_COUNT, 0, 0, s->depth - s->joins, s->joins);
}

static void ipdom_init(void *st, uint64_t pc, uint64_t mask) {
  struct stack *s = st;
  s->depth = 1;
  s->joins = 0;
  s->e[0] = (struct entry){.pc = pc, .reconv_pc = SG_RECONV_EXIT, .mask = mask};
}

static void pop(struct stack *s) {
  s->joins -= s->e[--s->depth].join;
}

/* Siblings are adjacent: the path below the top with the same reconvergence
 * point has not run yet. One waiting at a barrier cannot run first. */
static bool can_swap(const struct stack *s) {
  if (s->depth < 2)
    return false;
  const struct entry *top = &s->e[s->depth - 1], *below = top - 1;
  return below->reconv_pc == top->reconv_pc && below->reconv_frame == top->reconv_frame &&
         !arrived(below) && !below->waiting;
}

static enum sg_reconv_next ipdom_next(void *st, uint64_t live, struct sg_path *p,
                                      struct sg_reconv_log *log) {
  struct stack *s = st;
  for (;;) {
    uint32_t before = s->depth;
    while (s->depth > 0) { /* settle */
      const struct entry *top = &s->e[s->depth - 1];
      if (!arrived(top) && (top->mask & live))
        break;
      if (arrived(top) && (top->mask & live) && log)
        sg_reconv_log_add(log, SG_EV_RECONVERGE, top->pc, top->mask & live, 0, 0);
      pop(s);
    }
    if (s->depth != before)
      count(s, log);
    if (s->depth == 0)
      return SG_NEXT_DONE;
    struct entry *top = &s->e[s->depth - 1];
    *p = (struct sg_path){top->pc, top->mask & live, top->reconv_pc, top->frame,
                          top->reconv_frame};
    if (!top->waiting)
      return SG_NEXT_RUN;
    /* The top waits at a barrier. A sibling path (say, lanes taking an
     * early return) runs first; without one, the warp has arrived if every
     * live lane waits at some barrier, else the lanes below wait to rejoin
     * lanes that wait at the barrier: a deadlock. */
    if (can_swap(s)) {
      struct entry t = *top;
      *top = top[-1];
      top[-1] = t;
      if (log)
        sg_reconv_log_add(log, SG_EV_PATH_SWITCH, top->pc, top->mask & live, 0, 0);
      continue;
    }
    uint64_t waiting = 0;
    for (uint32_t i = 0; i < s->depth; i++)
      waiting |= s->e[i].waiting ? s->e[i].mask : 0;
    return (live & ~waiting) ? SG_NEXT_DEADLOCK : SG_NEXT_BARRIER;
  }
}

static void ipdom_park(void *st, uint64_t pc, uint32_t frame) {
  struct stack *s = st;
  s->e[s->depth - 1].pc = pc;
  s->e[s->depth - 1].frame = frame;
}

static void push(struct stack *s, uint64_t pc, uint32_t frame, uint64_t reconv,
                 uint32_t reconv_frame, uint64_t mask) {
  assert(s->depth < DEPTH);
  s->e[s->depth++] = (struct entry){pc, reconv, mask, frame, reconv_frame, false, false};
}

/* The top either becomes the join entry (lanes wait there at r) or, when it
 * already waits for r, is replaced by the paths. A path that starts at r is
 * not pushed: its lanes just wait in the entry below. The not-taken path is
 * pushed first, so the taken path runs first. In a called function, the exit
 * as reconvergence point means the return to the caller. */
static void ipdom_diverge(void *st, uint64_t taken, uint64_t target, uint64_t fallthrough,
                          uint64_t r, uint32_t frame, struct sg_reconv_log *log) {
  struct stack *s = st;
  uint32_t rf = frame;
  if (r == SG_RECONV_EXIT && frame > 0)
    r = SG_RECONV_RETURN, rf = frame - 1;
  struct entry *top = &s->e[s->depth - 1];
  uint64_t mask = top->mask;
  if (top->reconv_pc == r && top->reconv_frame == rf) {
    pop(s);
  } else {
    top->pc = r, top->frame = rf;
    s->joins += !top->join;
    top->join = true;
  }
  uint32_t paths = (fallthrough != r) + (target != r);
  if (fallthrough != r)
    push(s, fallthrough, frame, r, rf, mask & ~taken);
  if (target != r)
    push(s, target, frame, r, rf, taken);
  if (log) {
    sg_reconv_log_add(log, SG_EV_PATHS, target, mask, paths, 0);
    count(s, log);
  }
}

/* The entries waiting for the same return are the top's siblings and, below
 * them, the join entry: all learn the return address now. */
static void ipdom_returned(void *st, uint64_t target) {
  struct stack *s = st;
  struct entry *top = &s->e[s->depth - 1];
  uint32_t rf = top->reconv_frame;
  for (uint32_t i = s->depth; i-- > 0;) {
    struct entry *e = &s->e[i];
    if (e->pc == SG_RECONV_RETURN && e->frame == rf) {
      e->pc = target; /* the join entry: done */
      break;
    }
    if (e->reconv_pc == SG_RECONV_RETURN && e->reconv_frame == rf)
      e->reconv_pc = target;
  }
  top->pc = target, top->frame = rf;
}

static void ipdom_wait(void *st) {
  struct stack *s = st;
  s->e[s->depth - 1].waiting = true;
}

static void ipdom_release(void *st) {
  struct stack *s = st;
  for (uint32_t i = 0; i < s->depth; i++)
    if (s->e[i].waiting) {
      s->e[i].pc += 4; /* past its sg.barrier */
      s->e[i].waiting = false;
    }
}

const struct sg_reconv_ops sg_reconv_ipdom = {
    .name = "ipdom",
    .state_size = sizeof(struct stack),
    .init = ipdom_init,
    .next = ipdom_next,
    .park = ipdom_park,
    .diverge = ipdom_diverge,
    .returned = ipdom_returned,
    .wait = ipdom_wait,
    .release = ipdom_release,
};
