/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), reconvergence policy "mpipdom":
 * multi-path IPDOM (seed 002; ElTantawy, Ma, O'Connor and Aamodt, HPCA
 * 2014). The SIMT stack becomes two tables: the warp split table holds the
 * paths that can run, each separately schedulable; the reconvergence table
 * holds, per reconvergence point, the lanes that rejoin there and those that
 * have not arrived yet. When the last lanes arrive (or exit), the entry
 * turns back into one split at its reconvergence point. */
#include "sg_sim_impl.h"

#include <assert.h>
#include <string.h>

#define MAX SG_MAX_WARP_SIZE /* splits have disjoint lanes; entries nest */

struct split {
  uint64_t pc, mask;
  uint32_t frame;
  int32_t rt;   /* its reconvergence entry; -1: none (it runs to the exit) */
  bool waiting; /* parked at a barrier, waiting for its release */
};

struct rt_entry {
  uint64_t pc, mask, pending; /* where; lanes that rejoin there; not arrived yet */
  uint32_t frame;
  int32_t parent; /* the entry the rejoined split belongs to */
  bool used;
};

/* Splits in order of creation (the newest runs first, as IPDOM's top);
 * reconvergence entries in fixed slots, since splits point at them. */
struct tables {
  uint32_t nsplit, nrt;
  int32_t cur; /* the split that runs; -1: choose one */
  struct split s[MAX];
  struct rt_entry r[MAX];
};

static void count(const struct tables *t, struct sg_reconv_log *log) {
  if (log)
    sg_reconv_log_add(log, SG_EV_PATH_COUNT, 0, 0, t->nsplit, t->nrt);
}

static void mp_init(void *st, uint64_t pc, uint64_t mask) {
  struct tables *t = st;
  memset(t, 0, sizeof *t);
  t->nsplit = 1;
  t->s[0] = (struct split){.pc = pc, .mask = mask, .rt = -1};
}

static void remove_split(struct tables *t, uint32_t i) {
  memmove(&t->s[i], &t->s[i + 1], (t->nsplit - i - 1) * sizeof t->s[0]);
  t->nsplit--;
  if (t->cur == (int32_t)i)
    t->cur = -1;
  else if (t->cur > (int32_t)i)
    t->cur--;
}

static void add_split(struct tables *t, uint64_t pc, uint64_t mask, uint32_t frame, int32_t rt) {
  assert(t->nsplit < MAX);
  t->s[t->nsplit++] = (struct split){pc, mask, frame, rt, false};
}

static bool arrived(const struct tables *t, const struct split *s) {
  return s->rt >= 0 && s->pc == t->r[s->rt].pc && s->frame == t->r[s->rt].frame;
}

/* One pass: splits whose lanes all exited go; splits at their reconvergence
 * point join their entry; entries whose lanes have all arrived or exited
 * become splits again. True when something changed. */
static bool settle_once(struct tables *t, uint64_t live, struct sg_reconv_log *log) {
  bool changed = false;
  for (uint32_t i = 0; i < t->nsplit;) {
    struct split *s = &t->s[i];
    if ((s->mask & live) && !arrived(t, s)) {
      i++;
      continue;
    }
    if (s->mask & live) {
      t->r[s->rt].pending &= ~s->mask;
      if (log)
        sg_reconv_log_add(log, SG_EV_RECONVERGE, s->pc, s->mask & live, 0, 0);
    }
    remove_split(t, i);
    changed = true;
  }
  for (int32_t e = 0; e < MAX; e++) {
    struct rt_entry *r = &t->r[e];
    if (!r->used || (r->pending & live))
      continue;
    r->used = false;
    t->nrt--;
    if (r->mask & live) /* never for SG_RECONV_EXIT: no lane gets there */
      add_split(t, r->pc, r->mask, r->frame, r->parent);
    changed = true;
  }
  return changed;
}

static void fill(const struct tables *t, const struct split *s, uint64_t live,
                 struct sg_path *p) {
  *p = (struct sg_path){s->pc, s->mask & live, s->rt >= 0 ? t->r[s->rt].pc : SG_RECONV_EXIT,
                        s->frame, s->rt >= 0 ? t->r[s->rt].frame : 0};
}

/* The running split goes on while it can; otherwise the newest split that
 * is not waiting at a barrier runs. When every split waits at a barrier,
 * the warp has arrived if they hold every live lane; other live lanes can
 * only wait in the reconvergence table for lanes at the barrier: deadlock. */
static enum sg_reconv_next mp_next(void *st, uint64_t live, struct sg_path *p,
                                   struct sg_reconv_log *log) {
  struct tables *t = st;
  bool changed = false;
  while (settle_once(t, live, log))
    changed = true;
  if (changed)
    count(t, log);
  if (t->nsplit == 0)
    return SG_NEXT_DONE;
  if (t->cur >= 0 && !t->s[t->cur].waiting) {
    fill(t, &t->s[t->cur], live, p);
    return SG_NEXT_RUN;
  }
  uint64_t waiting = 0;
  for (uint32_t i = t->nsplit; i-- > 0;) {
    if (!t->s[i].waiting) {
      if (t->cur >= 0 && log) /* the running split waits at a barrier: set aside */
        sg_reconv_log_add(log, SG_EV_PATH_SWITCH, t->s[i].pc, t->s[i].mask & live, 0, 0);
      t->cur = (int32_t)i;
      fill(t, &t->s[i], live, p);
      return SG_NEXT_RUN;
    }
    waiting |= t->s[i].mask;
  }
  fill(t, &t->s[t->cur >= 0 ? (uint32_t)t->cur : t->nsplit - 1], live, p);
  return (live & ~waiting) ? SG_NEXT_DEADLOCK : SG_NEXT_BARRIER;
}

static void mp_park(void *st, uint64_t pc, uint32_t frame) {
  struct tables *t = st;
  t->s[t->cur].pc = pc;
  t->s[t->cur].frame = frame;
}

/* The running split leaves the split table; its lanes go to the entry of
 * the branch's reconvergence point (a new one, unless the split already
 * belongs to an entry for the same point, as a loop's exit, or neither ever
 * rejoins) and the two paths become splits of that entry. A path that starts at the
 * reconvergence point has arrived at once. In a called function, the exit
 * as reconvergence point means the return to the caller. */
static void mp_diverge(void *st, uint64_t taken, uint64_t target, uint64_t fallthrough,
                       uint64_t r, uint32_t frame, struct sg_reconv_log *log) {
  struct tables *t = st;
  uint32_t rf = frame;
  if (r == SG_RECONV_EXIT && frame > 0)
    r = SG_RECONV_RETURN, rf = frame - 1;
  struct split s = t->s[t->cur];
  int32_t e = s.rt;
  if (r == SG_RECONV_EXIT && e < 0) {
    /* Paths that never rejoin, of a split that never does either: the
     * table has nothing to wait for. */
  } else if (e < 0 || t->r[e].pc != r || t->r[e].frame != rf) {
    for (e = 0; t->r[e].used; e++)
      assert(e + 1 < MAX);
    t->r[e] = (struct rt_entry){r, s.mask, s.mask, rf, s.rt, true};
    t->nrt++;
  }
  remove_split(t, (uint32_t)t->cur);
  const uint64_t pcs[2] = {fallthrough, target}, masks[2] = {s.mask & ~taken, taken};
  uint32_t paths = 0;
  for (int i = 0; i < 2; i++) {
    if (pcs[i] == r && e >= 0) {
      t->r[e].pending &= ~masks[i];
    } else {
      add_split(t, pcs[i], masks[i], frame, e);
      t->cur = (int32_t)t->nsplit - 1; /* the taken path, if it is one, runs first */
      paths++;
    }
  }
  if (log) {
    sg_reconv_log_add(log, SG_EV_PATHS, target, s.mask, paths, 0);
    count(t, log);
  }
}

static void mp_returned(void *st, uint64_t target) {
  struct tables *t = st;
  struct split *s = &t->s[t->cur];
  struct rt_entry *r = &t->r[s->rt];
  r->pc = target; /* where every split of the entry rejoins */
  s->pc = target;
  s->frame = r->frame;
}

static void mp_wait(void *st) {
  struct tables *t = st;
  t->s[t->cur].waiting = true;
}

static void mp_release(void *st) {
  struct tables *t = st;
  for (uint32_t i = 0; i < t->nsplit; i++)
    if (t->s[i].waiting) {
      t->s[i].pc += 4; /* past its sg.barrier */
      t->s[i].waiting = false;
    }
}

/* The next split after the running one, in creation order, that can run;
 * call next() afterwards, which settles it. */
static bool mp_yield(void *st, uint64_t live) {
  struct tables *t = st;
  if (t->cur < 0)
    return false;
  for (uint32_t k = 1; k < t->nsplit; k++) {
    uint32_t i = ((uint32_t)t->cur + k) % t->nsplit;
    if (!t->s[i].waiting && (t->s[i].mask & live)) {
      t->cur = (int32_t)i;
      return true;
    }
  }
  return false;
}

const struct sg_reconv_ops sg_reconv_multipath = {
    .name = "mpipdom",
    .state_size = sizeof(struct tables),
    .init = mp_init,
    .next = mp_next,
    .park = mp_park,
    .diverge = mp_diverge,
    .returned = mp_returned,
    .wait = mp_wait,
    .release = mp_release,
    .yield = mp_yield,
};
