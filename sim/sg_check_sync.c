/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), checkers: synchronisation
 * (SOFTGPU_CHECK=sync, docs/races.md). A consumer of the instruction
 * records: barriers whose work-items pass different fence flags;
 * work-group functions, sub-group functions and async copies (marked by the
 * device library with sg.mark, sg_mark.def) that part of the group calls,
 * or calls in another order or with other arguments; and accesses to an
 * async copy's memory before wait_group_events. */
#include "sg_sim.h"

#include <stdlib.h>
#include <string.h>

/* Work-group function calls are compared call by call: the k-th call of
 * every work-item with the first work-item's k-th, kept in a ring (a
 * work-item more than RING calls behind another is not compared). */
#define RING 64

struct call {
  uint64_t k;          /* which call of its work-items (UINT64_MAX: none) */
  uint64_t pc, arg[2]; /* the mark and its arguments */
  uint64_t more[2];    /* a MORE mark's arguments */
  uint32_t thread;
  unsigned kind;
  bool has_more;
};

/* An async copy between its first call and the barrier of the
 * wait_group_events after it. Regions: [base, base + n * elem) on the
 * contiguous side, base + i * stride * elem on the strided one. */
struct copy {
  uint64_t pc, dst, src, n, elem, stride;
  bool strided_dst;
  uint32_t thread;
  unsigned kind;
};

struct warp_state {
  uint64_t live; /* lanes not exited */
  bool in_copy;  /* running its share of an async copy */
};

struct sg_sync {
  struct sg_hook hook;
  struct sg_core *core;
  uint32_t warp_size;
  const struct sg_cta_desc *desc;
  struct warp_state *warps;
  uint64_t *calls; /* per thread: work-group function calls so far */
  bool *diverged;  /* per thread: a divergent call was reported (no more of it) */
  uint32_t cap;    /* threads the arrays hold */
  bool called;     /* calls, diverged and ring hold something: cleared at a CTA start */
  uint32_t nwarps;
  struct call ring[RING];
  struct copy *copies;
  uint32_t ncopies, copies_cap;
  bool waiting; /* a wait_group_events mark since the last barrier */
  /* the barrier being waited at: the first fence flags passed to it */
  bool have_flags, flags_reported;
  uint64_t flags, flags_pc;
  uint32_t flags_thread;
  struct { /* the translated block running (block_enter) */
    uint32_t warp;
    uint64_t mask;
    const struct sg_uop *uops;
  } block;
};

static const char *ordinal(uint64_t n, char *buf, size_t len) {
  static const char *const suffix[] = {"th", "st", "nd", "rd"};
  uint64_t m = n % 100;
  snprintf(buf, len, "%llu%s", (unsigned long long)n,
           (m >= 11 && m <= 13) || n % 10 > 3 ? "th" : suffix[n % 10]);
  return buf;
}

static struct sg_fault_other other_of(const struct sg_sync *s, uint64_t pc, uint32_t t) {
  const struct sg_cta_desc *d = s->desc;
  struct sg_fault_other o = {.pc = pc};
  memcpy(o.ctaid, d->ctaid, sizeof o.ctaid);
  o.tid[0] = t % d->ntid[0];
  o.tid[1] = t / d->ntid[0] % d->ntid[1];
  o.tid[2] = t / d->ntid[0] / d->ntid[1];
  return o;
}

/* "local 3,0,0" of thread t */
static const char *local_id(const struct sg_sync *s, uint32_t t, char *buf, size_t len) {
  const struct sg_cta_desc *d = s->desc;
  snprintf(buf, len, "local %u,%u,%u", t % d->ntid[0], t / d->ntid[0] % d->ntid[1],
           t / d->ntid[0] / d->ntid[1]);
  return buf;
}

/* ---- Barriers ----------------------------------------------------------- */

static void on_barrier(struct sg_sync *s, const struct sg_insn_record *r) {
  for (uint64_t m = r->mask; m && !s->flags_reported; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    uint32_t t = r->warp * s->warp_size + l;
    if (!s->have_flags) {
      s->have_flags = true;
      s->flags = r->data[l], s->flags_pc = r->pc, s->flags_thread = t;
    } else if (r->data[l] != s->flags) {
      struct sg_fault_other o = other_of(s, s->flags_pc, s->flags_thread);
      s->flags_reported = true;
      sg_core_finding_pair(s->core, r->warp, l, r->pc, &o, SG_FAULT_BARRIER_FLAGS, 0, 0,
                           "barrier with fence flags 0x%llx where another work-item of the "
                           "work-group passes 0x%llx (they must agree; 1: __local, 2: __global)",
                           (unsigned long long)r->data[l], (unsigned long long)s->flags);
    }
  }
}

/* ---- Work-group and sub-group functions ----------------------------------- */

/* Lanes of a warp that are alive but do not run the mark: the function is
 * called under divergence. False when a finding ends the CTA. */
static bool whole_warp(struct sg_sync *s, const struct sg_insn_record *r, const char *what) {
  const struct warp_state *w = &s->warps[r->warp];
  uint64_t missing = w->live & ~r->mask;
  if (!missing)
    return true;
  unsigned l = (unsigned)__builtin_ctzll(r->mask), ml = (unsigned)__builtin_ctzll(missing);
  char id[48];
  if (sg_mark_role(r->uop->rm) == SG_MARK_WG) /* told here, not again when they finish */
    for (uint64_t m = missing; m; m &= m - 1)
      s->diverged[r->warp * s->warp_size + __builtin_ctzll(m)] = true;
  s->called = true;
  /* true unless the CTA must stop: the calls are still compared */
  return sg_core_finding(
      s->core, r->warp, l, r->pc, SG_FAULT_COLLECTIVE_DIVERGENT, 0, 0,
      "%s called by part of a sub-group (lanes 0x%llx of warp %u): work-item (%s) of it does "
      "not call it here",
      what, (unsigned long long)r->mask, r->warp,
      local_id(s, r->warp * s->warp_size + ml, id, sizeof id));
}

static bool on_sub_group(struct sg_sync *s, const struct sg_insn_record *r, const char *what) {
  if (!whole_warp(s, r, what))
    return false;
  unsigned first = (unsigned)__builtin_ctzll(r->mask);
  for (uint64_t m = r->mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    if (r->data[l] != r->data[first] || r->data2[l] != r->data2[first]) {
      struct sg_fault_other o = other_of(s, r->pc, r->warp * s->warp_size + first);
      return sg_core_finding_pair(s->core, r->warp, l, r->pc, &o, SG_FAULT_COLLECTIVE_ARGS, 0, 0,
                                  "%s called with %llu where another work-item of the "
                                  "sub-group passes %llu (it must be the same for all)",
                                  what, (unsigned long long)r->data[l],
                                  (unsigned long long)r->data[first]);
    }
  }
  return true;
}

static void start_copy(struct sg_sync *s, const struct call *c) {
  if (s->ncopies == s->copies_cap) {
    uint32_t cap = s->copies_cap ? 2 * s->copies_cap : 8;
    struct copy *p = realloc(s->copies, cap * sizeof *p);
    if (!p)
      return; /* not tracked */
    s->copies = p, s->copies_cap = cap;
  }
  uint64_t shape = c->more[1];
  s->copies[s->ncopies++] = (struct copy){.pc = c->pc,
                                          .dst = c->arg[0],
                                          .src = c->arg[1],
                                          .n = c->more[0],
                                          .elem = shape & 0x7fff ? shape & 0x7fff : 1,
                                          .stride = shape >> 16 ? shape >> 16 : 1,
                                          .strided_dst = shape >> 15 & 1,
                                          .thread = c->thread,
                                          .kind = c->kind};
}

/* Compares thread t's k-th work-group function call (the mark of r, lane
 * l) with the first work-item's; MORE marks complete the call. */
static bool compare_call(struct sg_sync *s, const struct sg_insn_record *r, unsigned l,
                         enum sg_mark_role role) {
  uint32_t t = r->warp * s->warp_size + l;
  unsigned kind = r->uop->rm;
  uint64_t a[2] = {r->data[l], r->data2[l]};
  char buf[32], id[48];
  if (role == SG_MARK_MORE) {
    if (!s->calls[t])
      return true;
    struct call *c = &s->ring[(s->calls[t] - 1) % RING];
    if (c->k != s->calls[t] - 1)
      return true;
    if (!c->has_more) {
      c->has_more = true;
      memcpy(c->more, a, sizeof a);
      if (c->kind == SG_MARK_async_work_group_copy ||
          c->kind == SG_MARK_async_work_group_strided_copy)
        start_copy(s, c);
      return true;
    }
    if (c->more[0] == a[0] && c->more[1] == a[1])
      return true;
    struct sg_fault_other o = other_of(s, c->pc, c->thread);
    return sg_core_finding_pair(s->core, r->warp, l, c->pc, &o, SG_FAULT_COLLECTIVE_ARGS, 0, 0,
                                "%s called with another size or stride (%llu elements, shape "
                                "0x%llx) than by another work-item of the work-group (%llu, "
                                "0x%llx)",
                                sg_mark_name(c->kind), (unsigned long long)a[0],
                                (unsigned long long)a[1], (unsigned long long)c->more[0],
                                (unsigned long long)c->more[1]);
  }
  uint64_t k = s->calls[t]++;
  struct call *c = &s->ring[k % RING];
  s->called = true;
  if (s->diverged[t])
    return true;
  if (c->k == UINT64_MAX || c->k < k) { /* the first work-item at its k-th call */
    *c = (struct call){.k = k, .pc = r->pc, .arg = {a[0], a[1]}, .thread = t, .kind = kind};
    return true;
  }
  if (c->k != k)
    return true; /* too far behind to compare */
  struct sg_fault_other o = other_of(s, c->pc, c->thread);
  if (c->pc != r->pc) {
    s->diverged[t] = true; /* its later calls are off by one: compared no more */
    return sg_core_finding_pair(s->core, r->warp, l, r->pc, &o, SG_FAULT_COLLECTIVE_DIVERGENT, 0, 0,
                                "%s as the %s work-group function call, where work-item (%s) "
                                "calls %s (work-group functions must be called by all "
                                "work-items at the same call)",
                                sg_mark_name(kind), ordinal(k + 1, buf, sizeof buf),
                                local_id(s, c->thread, id, sizeof id), sg_mark_name(c->kind));
  }
  if (c->arg[0] != a[0] || c->arg[1] != a[1])
    return sg_core_finding_pair(s->core, r->warp, l, r->pc, &o, SG_FAULT_COLLECTIVE_ARGS, 0, 0,
                                "%s called with 0x%llx, 0x%llx where work-item (%s) passes "
                                "0x%llx, 0x%llx (the arguments must be the same for all)",
                                sg_mark_name(kind), (unsigned long long)a[0],
                                (unsigned long long)a[1], local_id(s, c->thread, id, sizeof id),
                                (unsigned long long)c->arg[0], (unsigned long long)c->arg[1]);
  return true;
}

static void on_mark(struct sg_sync *s, const struct sg_insn_record *r) {
  unsigned kind = r->uop->rm;
  enum sg_mark_role role = sg_mark_role(kind);
  struct warp_state *w = &s->warps[r->warp];
  const char *what = sg_mark_name(kind);
  if (kind == SG_MARK_async_copy_end) {
    w->in_copy = false;
    return;
  }
  if (kind == SG_MARK_async_work_group_copy || kind == SG_MARK_async_work_group_strided_copy)
    w->in_copy = true;
  if (kind == SG_MARK_wait_group_events)
    s->waiting = true;
  if (role == SG_MARK_SG) {
    on_sub_group(s, r, what);
    return;
  }
  if (role == SG_MARK_WG && !whole_warp(s, r, what))
    return; /* the CTA stops */
  for (uint64_t m = r->mask; m; m &= m - 1)
    if (!compare_call(s, r, (unsigned)__builtin_ctzll(m), role))
      return;
}

/* ---- Async copies in flight --------------------------------------------- */

static bool in_region(uint64_t a, uint64_t base, uint64_t n, uint64_t elem, uint64_t stride) {
  uint64_t off = a - base, step = elem * stride;
  return a >= base && off / step < n && off % step < elem;
}

/* Which side of copy c byte a lies in: 1 destination, 2 source, 0 none. */
static int copy_side(const struct copy *c, uint64_t a) {
  if (in_region(a, c->dst, c->n, c->elem, c->strided_dst ? c->stride : 1))
    return 1;
  if (in_region(a, c->src, c->n, c->elem, c->strided_dst ? 1 : c->stride))
    return 2;
  return 0;
}

static void on_memory(struct sg_sync *s, const struct sg_insn_record *r) {
  static const char *const op[] = {"", "load", "store", "atomic access"};
  for (uint64_t m = r->mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    for (uint32_t i = 0; i < s->ncopies; i++) {
      const struct copy *c = &s->copies[i];
      int side = 0;
      for (uint32_t b = 0; b < r->size && b < 16 && !side; b++)
        side = copy_side(c, r->addr[l] + b);
      if (!side || (side == 2 && r->mem == SG_MEM_LOAD))
        continue; /* reading the source while it is copied is fine */
      struct sg_fault_other o = other_of(s, c->pc, c->thread);
      sg_core_finding_pair(s->core, r->warp, l, r->pc, &o, SG_FAULT_ASYNC_COPY, r->addr[l], r->size,
                           "%s of %u bytes at 0x%llx in the %s of an %s not yet completed by "
                           "wait_group_events",
                           op[r->mem], r->size, (unsigned long long)r->addr[l],
                           side == 1 ? "destination" : "source", sg_mark_name(c->kind));
      return; /* once per instruction */
    }
  }
}

/* ---- The consumer ---------------------------------------------------------- */

static void on_insn(struct sg_hook *h, const struct sg_insn_record *r) {
  struct sg_sync *s = (struct sg_sync *)h;
  if (!s->desc || r->warp >= s->nwarps)
    return;
  struct warp_state *w = &s->warps[r->warp];
  switch (r->uop->op) {
  case SG_OP_SG_EXIT: w->live &= ~r->mask; break;
  case SG_OP_SG_BARRIER: on_barrier(s, r); break;
  case SG_OP_SG_MARK: on_mark(s, r); break;
  default:
    if (s->ncopies && !w->in_copy && r->mem != SG_MEM_NONE)
      on_memory(s, r);
    break;
  }
}

/* Work-items that finished with fewer work-group function calls than others
 * skipped one: reported at the first call they missed. */
static void missed_calls(struct sg_sync *s) {
  const struct sg_cta_desc *d = s->desc;
  uint64_t most = 0;
  for (uint32_t t = 0; t < d->num_threads; t++)
    most = s->calls[t] > most ? s->calls[t] : most;
  char buf[32];
  for (uint32_t t = 0; t < d->num_threads; t++) {
    uint32_t wi = t / s->warp_size;
    if (s->calls[t] >= most || s->diverged[t] || !(d->init_mask[wi] >> (t % s->warp_size) & 1))
      continue;
    const struct call *c = &s->ring[s->calls[t] % RING];
    if (c->k != s->calls[t])
      continue;
    struct sg_fault_other o = other_of(s, c->pc, c->thread);
    if (!sg_core_finding_pair(s->core, wi, t % s->warp_size, c->pc, &o,
                              SG_FAULT_COLLECTIVE_DIVERGENT, 0, 0,
                              "finished without calling this %s, the %s work-group function "
                              "call of the rest of its work-group",
                              sg_mark_name(c->kind), ordinal(c->k + 1, buf, sizeof buf)))
      return;
  }
  for (uint32_t i = 0; i < s->ncopies; i++) {
    const struct copy *c = &s->copies[i];
    if (!sg_core_finding(s->core, c->thread / s->warp_size, c->thread % s->warp_size, c->pc,
                         SG_FAULT_ASYNC_COPY, 0, 0,
                         "%s never completed by wait_group_events before the work-group "
                         "finished",
                         sg_mark_name(c->kind)))
      return;
  }
}

static void on_event(struct sg_hook *h, const struct sg_event *e) {
  struct sg_sync *s = (struct sg_sync *)h;
  switch (e->kind) {
  case SG_EV_CTA_START: {
    const struct sg_cta_desc *d = e->desc;
    uint32_t n = d->num_warps * s->warp_size;
    s->desc = NULL;
    if (n > s->cap) {
      struct warp_state *w = realloc(s->warps, n * sizeof *w);
      if (w)
        s->warps = w;
      uint64_t *c = w ? realloc(s->calls, n * sizeof *c) : NULL;
      if (c)
        s->calls = c;
      bool *dv = c ? realloc(s->diverged, n * sizeof *dv) : NULL;
      if (!dv)
        return; /* unchecked */
      s->diverged = dv;
      s->cap = n;
      s->called = true;
    }
    for (uint32_t i = 0; i < d->num_warps; i++)
      s->warps[i] = (struct warp_state){.live = d->init_mask[i]};
    if (s->called) { /* CTAs that call no work-group function cost nothing here */
      memset(s->calls, 0, s->cap * sizeof *s->calls);
      memset(s->diverged, 0, s->cap * sizeof *s->diverged);
      for (int i = 0; i < RING; i++)
        s->ring[i].k = UINT64_MAX;
      s->called = false;
    }
    s->ncopies = 0;
    s->waiting = s->have_flags = s->flags_reported = false;
    s->nwarps = d->num_warps;
    s->desc = d;
    break;
  }
  case SG_EV_BARRIER_RELEASE:
    s->have_flags = s->flags_reported = false;
    if (s->waiting)
      s->ncopies = 0;
    s->waiting = false;
    break;
  case SG_EV_CTA_END:
    /* not when a fault stopped its work-items; nothing to miss without calls */
    if (s->desc && !e->arg && (s->called || s->ncopies))
      missed_calls(s);
    s->desc = NULL;
    break;
  default: break;
  }
}

/* Of the instructions this checker looks at, blocks hold memory accesses,
 * which matter only while an async copy is in flight (then the interpreter
 * runs them, with their records), and sg.exit as their last. */
static const struct sg_block_limit *block_enter(struct sg_hook *h, uint32_t warp, uint64_t pc,
                                                const struct sg_uop *uops, uint32_t len,
                                                uint64_t time, uint64_t mask) {
  struct sg_sync *s = (struct sg_sync *)h;
  (void)pc, (void)len, (void)time;
  s->block.warp = warp, s->block.mask = mask, s->block.uops = uops;
  return s->ncopies ? NULL : sg_block_unlimited;
}

static void block_leave(struct sg_hook *h, uint32_t ran, const struct sg_block_log *log) {
  struct sg_sync *s = (struct sg_sync *)h;
  (void)log;
  if (ran && s->desc && s->block.warp < s->nwarps && s->block.uops[ran - 1].op == SG_OP_SG_EXIT)
    s->warps[s->block.warp].live &= ~s->block.mask;
}

static const struct sg_block_ops block_ops = {.enter = block_enter, .leave = block_leave};

enum sg_status sg_sync_create(struct sg_core *core, uint32_t warp_size, struct sg_sync **out) {
  *out = NULL;
  if (!core || warp_size < 1 || warp_size > SG_MAX_WARP_SIZE)
    return SG_EINVAL;
  struct sg_sync *s = calloc(1, sizeof *s);
  if (!s)
    return SG_ENOMEM;
  s->hook = (struct sg_hook){.insn = on_insn,
                             .event = on_event,
                             .block = &block_ops,
                             .events = SG_EV_BIT(SG_EV_CTA_START) | SG_EV_BIT(SG_EV_CTA_END) |
                                       SG_EV_BIT(SG_EV_BARRIER_RELEASE),
                             .fence_flags = true};
  s->core = core;
  s->warp_size = warp_size;
  *out = s;
  return SG_OK;
}

struct sg_hook *sg_sync_hook(struct sg_sync *s) {
  return &s->hook;
}

void sg_sync_destroy(struct sg_sync *s) {
  if (!s)
    return;
  free(s->warps);
  free(s->calls);
  free(s->diverged);
  free(s->copies);
  free(s);
}
