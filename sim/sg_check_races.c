/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), checkers: data races (SOFTGPU_CHECK=races,
 * docs/races.md). A consumer of the instruction records: it shadows the
 * __local and __global memory each CTA touches, reports conflicting
 * accesses that no barrier or atomic orders (telling apart those that only
 * warp-synchronous execution orders) and summarises each CTA's __global
 * accesses for the check across CTAs at the end of the launch. */
#include "sg_sim.h"

#include <stdlib.h>
#include <string.h>

/* sg.barrier's rs1 holds OpenCL's fence flags (docs/isa.md). */
#define FENCE_LOCAL 1u
#define FENCE_GLOBAL 2u

/* Shadow pages cover 4 KiB of device memory in 4-byte granules. */
#define PAGE_BITS 12
#define GRANULES (1u << (PAGE_BITS - 2))

enum { LOAD, STORE, ATOMIC };
enum { ACC_ATOMIC = 1, ACC_SAME = 2, ACC_ASYNC = 4 };

/* One access: when (the barrier interval `stamp`, the CTA's warp
 * instruction `time`), where (pc) and by whom. stamp 0 is no access. */
struct acc {
  uint32_t stamp, pc, time;
  uint32_t thread : 11, warp : 11, flags : 3; /* thread in the CTA, and its warp */
};
_Static_assert(SG_MAX_CTA_THREADS <= 2048, "struct acc holds a CTA's thread in 11 bits");

/* What is known about a granule (or, once accessed in parts, a byte): the
 * last write and the last one by a warp other than its warp; up to two
 * reads since the last write (the first, and one by another work-item, in
 * another warp if there is one); and the value it holds as far as the CTA
 * saw it. Enough to find, for any access, a conflicting one if there is
 * one, and one in another warp if there is one: the race that warp-
 * synchronous execution does not hide. */
struct cell {
  struct acc w, w2, r[2];
  uint32_t value;
  uint32_t state; /* KNOWN: value is what memory holds; the rest: 1 + index of its
                     4 byte cells in `bytes`, 0: whole. Written whole (an access
                     that wrote part of it would stall the next one's read) */
};
#define KNOWN 0x80000000u

static uint32_t split_of(const struct cell *c) {
  return c->state & ~KNOWN;
}

static void set_known(struct cell *c, bool known) {
  c->state = (c->state & ~KNOWN) | (known ? KNOWN : 0);
}

struct page {
  uint64_t base;
  uint32_t slot; /* its entry in the map */
  struct cell cell[GRANULES];
};

/* One instruction's __global accesses by one CTA over [lo, hi), for the
 * check across CTAs. */
enum { SPAN_VALUE = 1, SPAN_SAME = 2 };
struct span {
  uint64_t lo, hi, cta, value;
  uint32_t pc;
  uint16_t tid[3], thread;
  uint8_t kind, flags; /* LOAD/STORE/ATOMIC; SPAN_VALUE: value holds the bytes */
};

struct warp_state {
  uint64_t live;                        /* lanes not exited */
  uint32_t full_time;                   /* last instruction every live lane ran */
  uint32_t left_full[SG_MAX_WARP_SIZE]; /* full_time when the lane exited */
  uint32_t sgb_time;                    /* last sub_group_barrier, and its lanes */
  uint64_t sgb_mask;
  uint32_t async_pc; /* in its share of the async copy marked there (0: not) */
};

struct sg_races {
  struct sg_hook hook;
  struct sg_core *core;
  struct sg_races_config cfg;
  /* the running CTA */
  const struct sg_cta_desc *desc;
  uint64_t cta;
  uint32_t stamp, cta_stamp; /* stamps grow by one per CTA and per barrier */
  uint32_t fence[2];         /* stamp after the last barrier fencing __local, __global */
  uint32_t pending;          /* fence flags of the barrier the warps wait at */
  struct warp_state *warps;
  uint32_t warps_cap;
  /* the shadow: pages by address (open addressing), reused from CTA to CTA */
  struct page **map, **used, **spare, *last;
  uint32_t map_cap, nused, nspare, pages_cap;
  struct cell *bytes;
  uint32_t nbytes, bytes_cap;
  struct cell **splits;
  uint32_t nsplits, splits_cap;
  uint64_t memory;
  bool full; /* ran out of room this launch */
  /* the launch's __global accesses, CTA after CTA */
  struct span *spans;
  size_t nspans, spans_cap, cta_first;
  uint32_t recent[64]; /* by pc: a span of the CTA where its next addresses go */
  struct { /* the translated block running */
    uint32_t warp;
    uint64_t pc, time, mask;
    const struct sg_uop *uops;
  } block;
};

/* ---- Memory of the checker ---------------------------------------------- */

static bool room(struct sg_races *k, uint64_t bytes) {
  if (k->memory + bytes <= k->cfg.memory_limit) {
    k->memory += bytes;
    return true;
  }
  return false;
}

/* Grows *p (n used, *cap entries of size bytes) to hold one more. */
static bool grow(struct sg_races *k, void **p, size_t n, size_t *cap, size_t size) {
  if (n < *cap)
    return true;
  size_t ncap = *cap ? 2 * *cap : 64;
  if (!room(k, (ncap - *cap) * size))
    return false;
  void *q = realloc(*p, ncap * size);
  if (!q)
    return false;
  *p = q;
  *cap = ncap;
  return true;
}

static bool grow32(struct sg_races *k, void **p, uint32_t n, uint32_t *cap, size_t size) {
  size_t c = *cap;
  bool ok = c < UINT32_MAX / 2 && grow(k, p, n, &c, size);
  *cap = (uint32_t)c;
  return ok;
}

static uint32_t hash(uint64_t page) {
  return (uint32_t)((page * 0x9e3779b97f4a7c15ull) >> 32);
}

/* The shadow page of device address a, made on first touch (NULL when the
 * checker is out of room). Cells of a page from an earlier CTA are stale by
 * their stamps, so pages are reused without clearing. */
static struct page *page_of(struct sg_races *k, uint64_t a) {
  uint64_t base = a >> PAGE_BITS << PAGE_BITS;
  if (k->last && k->last->base == base)
    return k->last;
  if (2 * (k->nused + 1) > k->map_cap) { /* rehash at half full */
    uint32_t cap = k->map_cap ? 2 * k->map_cap : 256;
    struct page **map =
        room(k, (uint64_t)(cap - k->map_cap) * sizeof *map) ? calloc(cap, sizeof *map) : NULL;
    if (!map)
      return NULL;
    for (uint32_t i = 0; i < k->nused; i++) {
      uint32_t h = hash(k->used[i]->base >> PAGE_BITS) & (cap - 1);
      while (map[h])
        h = (h + 1) & (cap - 1);
      map[h] = k->used[i];
      k->used[i]->slot = h;
    }
    free(k->map);
    k->map = map;
    k->map_cap = cap;
  }
  uint32_t h = hash(base >> PAGE_BITS) & (k->map_cap - 1);
  for (; k->map[h]; h = (h + 1) & (k->map_cap - 1))
    if (k->map[h]->base == base)
      return k->last = k->map[h];
  if (!grow32(k, (void **)&k->used, k->nused, &k->pages_cap, sizeof *k->used))
    return NULL;
  struct page *p = k->nspare ? k->spare[--k->nspare] : NULL;
  if (!p && (!room(k, sizeof *p) || !(p = calloc(1, sizeof *p))))
    return NULL;
  p->base = base;
  p->slot = h;
  k->map[h] = p;
  k->used[k->nused++] = p;
  return k->last = p;
}

/* The pages go back to the spares at the end of each CTA, and the map is
 * emptied slot by slot (a large map costs nothing to CTAs that touch little). */
static void release_pages(struct sg_races *k) {
  for (uint32_t i = 0; i < k->nsplits; i++)
    k->splits[i]->state &= KNOWN;
  k->nsplits = k->nbytes = 0;
  for (uint32_t i = 0; i < k->nused; i++)
    k->map[k->used[i]->slot] = NULL;
  if (k->nused) {
    struct page **spare = realloc(k->spare, (k->nspare + k->nused) * sizeof *spare);
    if (spare) {
      k->spare = spare;
      memcpy(spare + k->nspare, k->used, k->nused * sizeof *spare);
      k->nspare += k->nused;
    } else {
      for (uint32_t i = 0; i < k->nused; i++)
        free(k->used[i]);
    }
  }
  k->nused = 0;
  k->last = NULL;
}

/* Stamps are 32 bits: past 2^32 barriers the shadow starts afresh. */
static void next_stamp(struct sg_races *k) {
  if (++k->stamp == UINT32_MAX) {
    release_pages(k);
    for (uint32_t i = 0; i < k->nspare; i++)
      memset(k->spare[i], 0, sizeof *k->spare[i]);
    k->stamp = 1;
  }
}

/* ---- Reports ----------------------------------------------------------- */

static const char *const op_text[] = {"load", "store", "atomic access"};
static const char *space_text(int global) {
  return global ? "__global" : "__local";
}

/* A memory instruction of a warp, from its record or a translated
 * block's log. */
struct mem_insn {
  uint32_t warp, pc, time, size;
  int kind, global;
  uint64_t mask;
  const uint64_t *addr, *data; /* per lane: data holds the value in its low bytes */
};

/* An access found in conflict with an earlier one: classified and reported
 * unless an order the checker knows of exists (a sub-group barrier between
 * lanes of one warp). False when the CTA must stop. */
struct access {
  const struct mem_insn *r;
  unsigned lane;
  uint64_t addr; /* of the cell */
  uint32_t size; /* of the cell: 4 or 1 */
  int kind, global;
  struct acc acc;
  bool same; /* a store: every cell it wrote held its value already */
};

static bool conflict(struct sg_races *k, const struct access *x, const struct acc *prev,
                     int prev_kind, bool same) {
  const struct mem_insn *r = x->r;
  const struct warp_state *w = &k->warps[r->warp];
  uint32_t ws = k->cfg.warp_size, t = x->acc.thread, pt = prev->thread;
  if (k->cfg.async_elsewhere && ((x->acc.flags | prev->flags) & ACC_ASYNC))
    return true;
  enum sg_fault_kind kind = SG_FAULT_DATA_RACE;
  char how[192];
  unsigned plane = pt % ws;
  if (prev->stamp < k->stamp) {
    snprintf(how, sizeof how,
             "by another work-item across a barrier that does not fence %s "
             "memory",
             space_text(x->global));
  } else if (prev->warp != r->warp) {
    snprintf(how, sizeof how, "by a work-item in another warp (no barrier between them)");
  } else if (prev->time == x->acc.time) {
    snprintf(how, sizeof how, "by another lane of the same warp instruction");
  } else if (prev->time < w->sgb_time && (w->sgb_mask >> plane & 1) &&
             (w->sgb_mask >> x->lane & 1)) {
    return true; /* a sub_group_barrier orders them */
  } else if ((r->mask >> plane & 1) ||
             ((w->live >> plane & 1) ? w->full_time : w->left_full[plane]) > prev->time) {
    /* both lanes ran an instruction together since the first access */
    kind = SG_FAULT_WARP_SYNC;
    uint32_t d = t ^ pt, need = 2;
    while (need <= d)
      need <<= 1;
    snprintf(how, sizeof how,
             "by a work-item of the same warp (no barrier between them; right only where "
             "warps of %u or more work-items run in lockstep)",
             need);
  } else {
    snprintf(how, sizeof how,
             "by a work-item of the same warp on the other path of a "
             "divergent branch (their order is undefined)");
  }
  if (same) {
    if (!k->cfg.same_value)
      return true;
    kind = SG_FAULT_RACE_SAME_VALUE;
  }
  const struct sg_cta_desc *d = k->desc;
  struct sg_fault_other other = {.pc = prev->pc};
  memcpy(other.ctaid, d->ctaid, sizeof other.ctaid);
  other.tid[0] = pt % d->ntid[0];
  other.tid[1] = pt / d->ntid[0] % d->ntid[1];
  other.tid[2] = pt / d->ntid[0] / d->ntid[1];
  bool go_on = sg_core_finding_pair(
      k->core, r->warp, x->lane, x->acc.pc, &other, kind, x->addr, x->size,
      "%s: %s of %u byte%s %s %s memory at 0x%llx and %s %s of it %s",
      kind == SG_FAULT_WARP_SYNC ? "relies on warp-synchronous execution"
      : same                     ? "race between writes of the value already there"
                                 : "data race",
      op_text[x->kind], x->size, x->size > 1 ? "s" : "", x->kind == LOAD ? "from" : "to",
      space_text(x->global), (unsigned long long)x->addr, prev_kind == ATOMIC ? "an" : "a",
      op_text[prev_kind], how);
  if (!go_on)
    k->full = true; /* the CTA stops: check nothing more of it */
  return go_on;
}

/* ---- The shadow ---------------------------------------------------------- */

static bool concurrent(const struct sg_races *k, const struct acc *a, int global) {
  return a->stamp >= k->fence[global];
}

/* Of two earlier accesses, one that conflicts with access t (concurrent,
 * by another work-item, and for atomics not atomic too), in another warp
 * if there is one; NULL when neither conflicts. */
static const struct acc *conflicting(const struct sg_races *k, const struct acc *a,
                                     const struct acc *b, const struct acc *t, int global,
                                     bool atomic) {
  const struct acc *pick = NULL, *two[2] = {a, b};
  for (int i = 0; i < 2; i++) {
    const struct acc *x = two[i];
    if (!concurrent(k, x, global) || x->thread == t->thread ||
        (atomic && (x->flags & ACC_ATOMIC)))
      continue;
    if (x->warp != t->warp)
      return x;
    pick = pick ? pick : x;
  }
  return pick;
}

static int kind_of(const struct acc *w) {
  return w->flags & ACC_ATOMIC ? ATOMIC : STORE;
}

/* The write x makes becomes the cell's last; w2 keeps the last one by
 * another warp. Reads before it need not be kept: a later access that
 * races with them races with this write first. */
static void add_write(const struct sg_races *k, struct cell *c, const struct acc *a, int global) {
  if (concurrent(k, &c->w, global) && c->w.warp != a->warp)
    c->w2 = c->w;
  c->w = *a;
  c->r[0].stamp = c->r[1].stamp = 0;
}

static void add_read(const struct sg_races *k, struct cell *c, const struct acc *a, int global) {
  struct acc *r0 = &c->r[0], *r1 = &c->r[1];
  if (!concurrent(k, r0, global) || r0->thread == a->thread) {
    bool keep1 = concurrent(k, r0, global) && concurrent(k, r1, global);
    *r0 = *a;
    if (!keep1)
      r1->stamp = 0;
  } else if (!concurrent(k, r1, global) || r1->thread == a->thread ||
             (r1->warp == r0->warp && a->warp != r0->warp)) {
    *r1 = *a;
  }
}

/* Does the cell hold what memory holds? (As far as the CTA saw it.) */
static bool value_known(const struct sg_races *k, const struct cell *c) {
  return (c->state & KNOWN) && (c->w.stamp >= k->cta_stamp || c->r[0].stamp >= k->cta_stamp);
}

/* Can no access to granule c of this kind conflict? True when no
 * concurrent write touched it, nor, for a write, a concurrent read (w2 is
 * older than w; r[1] is concurrent only if r[0] is). */
static bool unraced(const struct sg_races *k, const struct cell *c, int kind, int global) {
  return c->w.stamp < k->fence[global] && (kind == LOAD || c->r[0].stamp < k->fence[global]);
}

/* Access a (of kind, value: its bytes) to a cell where it cannot conflict:
 * one of its reads, or its last write. False for a store of a value the
 * cell did not hold. */
static bool enter_unraced(const struct sg_races *k, struct cell *c, int kind, int global,
                          struct acc a, uint32_t value) {
  bool same = false;
  switch (kind) {
  case LOAD:
    add_read(k, c, &a, global);
    break;
  case STORE:
    same = value_known(k, c) && c->value == value;
    a.flags |= same ? ACC_SAME : 0;
    /* fall through */
  default:
    c->w = a;
    c->r[0].stamp = c->r[1].stamp = 0;
    break;
  }
  c->value = value;
  set_known(c, kind != ATOMIC);
  return same;
}

/* One access x (value: its bytes in this cell) to cell c. */
static bool check_cell(struct sg_races *k, struct cell *c, struct access *x, uint32_t value) {
  int g = x->global;
  const struct acc *t = &x->acc;
  if (unraced(k, c, x->kind, g)) {
    x->same &= enter_unraced(k, c, x->kind, g, x->acc, value);
    return true;
  }
  bool known = value_known(k, c);
  /* atomics are ordered with each other, not with plain accesses */
  const struct acc *wr = conflicting(k, &c->w, &c->w2, t, g, x->kind == ATOMIC), *rd;
  switch (x->kind) {
  case LOAD:
    if (wr && !conflict(k, x, wr, kind_of(wr), wr->flags & ACC_SAME))
      return false;
    add_read(k, c, &x->acc, g);
    c->value = value;
    set_known(c, true);
    return true;
  case STORE: {
    bool same = known && c->value == value;
    if (wr && !conflict(k, x, wr, kind_of(wr), same))
      return false;
    if ((rd = conflicting(k, &c->r[0], &c->r[1], t, g, false)) && !conflict(k, x, rd, LOAD, same))
      return false;
    struct acc a = x->acc;
    a.flags |= same ? ACC_SAME : 0;
    add_write(k, c, &a, g);
    x->same &= same;
    c->value = value;
    set_known(c, true);
    return true;
  }
  default:
    if (wr && !conflict(k, x, wr, kind_of(wr), false))
      return false;
    if ((rd = conflicting(k, &c->r[0], &c->r[1], t, g, false)) && !conflict(k, x, rd, LOAD, false))
      return false;
    add_write(k, c, &x->acc, g);
    set_known(c, false);
    return true;
  }
}

/* The 4 byte cells of granule c, made from it on its first partial access. */
static struct cell *bytes_of(struct sg_races *k, struct cell *c) {
  if (split_of(c))
    return &k->bytes[(split_of(c) - 1) * 4];
  if (k->nbytes / 4 + 1 >= (1u << 31) ||
      !grow32(k, (void **)&k->bytes, k->nbytes + 3, &k->bytes_cap, sizeof *k->bytes) ||
      !grow32(k, (void **)&k->splits, k->nsplits, &k->splits_cap, sizeof *k->splits))
    return NULL;
  struct cell *b = &k->bytes[k->nbytes];
  for (int i = 0; i < 4; i++) {
    b[i] = *c;
    b[i].value = c->value >> (8 * i) & 0xff;
    b[i].state &= KNOWN;
  }
  c->state = (c->state & KNOWN) | (k->nbytes / 4 + 1);
  k->nbytes += 4;
  k->splits[k->nsplits++] = c;
  return b;
}

static void out_of_room(struct sg_races *k, const struct access *x) {
  k->full = true;
  sg_core_finding(k->core, x->r->warp, x->lane, x->acc.pc, SG_FAULT_CHECK_LIMIT, 0, 0,
                  "the race checker's %llu MiB are used up: later accesses of this launch "
                  "are not checked",
                  (unsigned long long)(k->cfg.memory_limit >> 20));
}

/* One lane's access of size bytes at a: every granule (or byte) it covers. */
static bool check_access(struct sg_races *k, struct access *x, uint64_t a, uint32_t size,
                         uint64_t value) {
  for (uint64_t end = a + size; a < end;) {
    uint64_t g = a & ~3ull;
    unsigned off = (unsigned)(a & 3), n = (unsigned)(end - a < 4 - off ? end - a : 4 - off);
    struct page *p = page_of(k, g);
    struct cell *c = p ? &p->cell[(g - p->base) >> 2] : NULL;
    if (c && n == 4 && !split_of(c)) {
      x->addr = g, x->size = 4;
      if (!check_cell(k, c, x, (uint32_t)value))
        return false;
    } else {
      struct cell *b = c ? bytes_of(k, c) : NULL;
      if (!b) {
        out_of_room(k, x);
        return false;
      }
      for (unsigned i = 0; i < n; i++) {
        x->addr = a + i, x->size = 1;
        if (!check_cell(k, &b[off + i], x, (uint32_t)(value >> (8 * i)) & 0xff))
          return false;
      }
    }
    value = n < 8 ? value >> (8 * n) : 0;
    a += n;
  }
  return true;
}

/* ---- Summaries for the check across CTAs -------------------------------- */

/* The CTA's span that access x (of a bytes) extends: its last one, or the
 * last of its instruction (the warps of a CTA one after another). */
static struct span *span_before(struct sg_races *k, const struct access *x, uint64_t a) {
  struct span *last = k->nspans > k->cta_first ? &k->spans[k->nspans - 1] : NULL;
  if (last && last->kind == x->kind && last->pc == x->acc.pc)
    return last;
  size_t i = k->recent[x->acc.pc / 4 % 64];
  struct span *s = i >= k->cta_first && i < k->nspans ? &k->spans[i] : NULL;
  return s && s->kind == x->kind && s->pc == x->acc.pc && s->hi == a ? s : NULL;
}

static void summarise(struct sg_races *k, const struct access *x, uint64_t a, uint32_t size,
                      uint64_t value, bool same) {
  struct span *last = span_before(k, x, a);
  uint8_t flags = (size <= 8 && x->kind != ATOMIC ? SPAN_VALUE : 0) | (same ? SPAN_SAME : 0);
  if (last) {
    if (last->lo == a && last->hi == a + size) { /* lanes at one address */
      if (!(flags & SPAN_VALUE) || last->value != value)
        last->flags &= (uint8_t)~SPAN_VALUE;
      last->flags &= flags | (uint8_t)~SPAN_SAME;
      return;
    }
    if (last->hi == a) { /* the next addresses: one span */
      last->hi = a + size;
      last->flags &= SPAN_SAME & flags;
      return;
    }
  }
  if (!grow(k, (void **)&k->spans, k->nspans, &k->spans_cap, sizeof *k->spans)) {
    out_of_room(k, x);
    return;
  }
  const struct sg_cta_desc *d = k->desc;
  uint16_t t = x->acc.thread;
  k->recent[x->acc.pc / 4 % 64] = (uint32_t)k->nspans;
  k->spans[k->nspans++] =
      (struct span){.lo = a,
                    .hi = a + size,
                    .cta = k->cta,
                    .value = value,
                    .pc = x->acc.pc,
                    .tid = {(uint16_t)(t % d->ntid[0]), (uint16_t)(t / d->ntid[0] % d->ntid[1]),
                            (uint16_t)(t / d->ntid[0] / d->ntid[1])},
                    .thread = t,
                    .kind = (uint8_t)x->kind,
                    .flags = flags};
}

/* Span orders: field by field, a->f against b->f. */
#define CMP(f)                                                                                     \
  if (a->f != b->f)                                                                                \
  return a->f < b->f ? -1 : 1

static int by_start(const void *pa, const void *pb) {
  const struct span *a = pa, *b = pb;
  CMP(lo);
  CMP(cta);
  CMP(kind);
  CMP(pc);
  CMP(hi);
  CMP(thread);
  CMP(value);
  CMP(flags);
  return 0;
}

static int by_insn(const void *pa, const void *pb) {
  const struct span *a = pa, *b = pb;
  CMP(kind);
  CMP(pc);
  CMP(lo);
  CMP(hi);
  CMP(thread);
  CMP(value);
  CMP(flags);
#undef CMP
  return 0;
}

/* The spans of the CTA that ended, merged where one instruction touched
 * adjacent or overlapping bytes (keeping the first work-item). */
static void finish_spans(struct sg_races *k) {
  struct span *s = k->spans + k->cta_first;
  size_t n = k->nspans - k->cta_first, m = 0;
  if (n < 2)
    return;
  qsort(s, n, sizeof *s, by_insn);
  for (size_t i = 0; i < n; i++) {
    struct span *o = m ? &s[m - 1] : NULL;
    if (o && o->kind == s[i].kind && o->pc == s[i].pc && o->hi >= s[i].lo) {
      if (o->lo != s[i].lo || o->hi != s[i].hi || o->value != s[i].value)
        o->flags &= (uint8_t)~SPAN_VALUE;
      o->flags &= s[i].flags | (uint8_t)~SPAN_SAME;
      o->hi = s[i].hi > o->hi ? s[i].hi : o->hi;
    } else {
      s[m++] = s[i];
    }
  }
  k->nspans = k->cta_first + m;
}

/* ---- The consumer ---------------------------------------------------------- */

/* The cells of an access by consecutive lanes to consecutive 4-byte
 * granules of one page (coalesced code, the common case), the first
 * lane's; NULL for any other access. */
static struct cell *run_of(struct sg_races *k, const struct mem_insn *r) {
  if (r->size != 4 || !r->mask)
    return NULL;
  unsigned f = (unsigned)__builtin_ctzll(r->mask);
  uint64_t lanes = r->mask >> f, a = r->addr[f];
  if (lanes & (lanes + 1) || a & 3) /* a hole among the lanes, or misaligned */
    return NULL;
  unsigned n = 64 - (unsigned)__builtin_clzll(lanes); /* (consecutive lanes) */
  if ((a ^ (a + 4 * (n - 1))) >> PAGE_BITS)
    return NULL;
  for (unsigned i = 1; i < n; i++)
    if (r->addr[f + i] != a + 4 * i)
      return NULL;
  struct page *p = page_of(k, a);
  return p ? &p->cell[(a - p->base) >> 2] : NULL;
}

/* x becomes lane l's access: acc (the instruction's) with the lane's
 * thread, stored whole (a thread stored alone into x->acc would stall
 * the copies of x->acc that follow it). */
static void at_lane(struct access *x, struct acc acc, unsigned l, uint32_t warp_size) {
  acc.thread = x->r->warp * warp_size + l;
  x->acc = acc;
  x->lane = l;
  x->same = x->kind == STORE;
}

/* Lanes at consecutive granules: cell after cell, and one span. */
static void on_run(struct sg_races *k, struct access *x, struct acc acc, struct cell *run) {
  const struct mem_insn *r = x->r;
  uint32_t ws = k->cfg.warp_size;
  unsigned f = (unsigned)__builtin_ctzll(r->mask);
  uint64_t other = 0; /* lanes other than stores of the value the cell held */
  for (uint64_t m = r->mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    struct cell *c = &run[l - f];
    uint32_t value = (uint32_t)r->data[l];
    bool same;
    if (!split_of(c) && unraced(k, c, x->kind, x->global)) {
      struct acc a = acc;
      a.thread = r->warp * ws + l;
      same = enter_unraced(k, c, x->kind, x->global, a, value);
    } else {
      at_lane(x, acc, l, ws);
      if (split_of(c) ? !check_access(k, x, r->addr[l], 4, value)
                   : (x->addr = r->addr[l], x->size = 4, !check_cell(k, c, x, value)))
        return;
      same = x->same;
    }
    other |= (uint64_t)!same << l;
  }
  if (r->global) {
    uint64_t a = r->addr[f], n = 64 - (uint64_t)__builtin_clzll(r->mask >> f);
    at_lane(x, acc, f, ws);
    summarise(k, x, a, 4, (uint32_t)r->data[f], !(other >> f & 1));
    if (n > 1)
      summarise(k, x, a + 4, (uint32_t)(4 * (n - 1)), 0, !(other >> f >> 1));
  }
}

static void on_memory(struct sg_races *k, struct warp_state *w, const struct mem_insn *r) {
  struct access x = {.r = r, .kind = r->kind, .global = r->global};
  struct acc acc = {.stamp = k->stamp,
                    .pc = w->async_pc ? w->async_pc : r->pc,
                    .time = r->time,
                    .warp = r->warp,
                    .flags = (r->kind == ATOMIC ? ACC_ATOMIC : 0) | (w->async_pc ? ACC_ASYNC : 0)};
  uint32_t ws = k->cfg.warp_size;
  struct cell *run = run_of(k, r);
  if (run) {
    on_run(k, &x, acc, run);
    return;
  }
  struct page *p = NULL; /* the last lane's, for whole granules */
  for (uint64_t m = r->mask; m && !k->full; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    uint64_t a = r->addr[l];
    uint64_t value = r->size < 8 ? r->data[l] & ((1ull << (8 * r->size)) - 1) : r->data[l];
    at_lane(&x, acc, l, ws);
    bool word = r->size == 4 && !(a & 3);
    if (word && (!p || (a - p->base) >> PAGE_BITS))
      p = page_of(k, a);
    struct cell *c = word && p ? &p->cell[(a - p->base) >> 2] : NULL;
    if (c && !split_of(c) ? (x.addr = a, x.size = 4, !check_cell(k, c, &x, (uint32_t)value))
                       : !check_access(k, &x, a, r->size, value))
      return;
    if (r->global)
      summarise(k, &x, a, r->size, value, x.same);
  }
}

static int kind_of_mem(enum sg_mem_kind m) {
  return m == SG_MEM_LOAD ? LOAD : m == SG_MEM_STORE ? STORE : ATOMIC;
}

static void on_mark(struct warp_state *w, const struct sg_insn_record *r) {
  switch (r->uop->rm) {
  case SG_MARK_async_work_group_copy:
  case SG_MARK_async_work_group_strided_copy: w->async_pc = (uint32_t)r->pc; break;
  case SG_MARK_async_copy_end: w->async_pc = 0; break;
  case SG_MARK_sub_group_barrier:
    w->sgb_time = (uint32_t)r->time;
    w->sgb_mask = r->mask;
    break;
  default: break;
  }
}

/* The lanes of mask ran sg.exit. */
static void lanes_exit(struct warp_state *w, uint64_t mask) {
  for (uint64_t m = mask; m; m &= m - 1)
    w->left_full[__builtin_ctzll(m)] = w->full_time;
  w->live &= ~mask;
}

static void on_insn(struct sg_hook *h, const struct sg_insn_record *r) {
  struct sg_races *k = (struct sg_races *)h;
  if (!k->desc || r->warp >= k->desc->num_warps)
    return;
  struct warp_state *w = &k->warps[r->warp];
  if (r->mask == w->live)
    w->full_time = (uint32_t)r->time;
  switch (r->uop->op) {
  case SG_OP_SG_EXIT: lanes_exit(w, r->mask); return;
  case SG_OP_SG_BARRIER:
    for (uint64_t m = r->mask; m; m &= m - 1)
      k->pending |= (uint32_t)r->data[__builtin_ctzll(m)];
    return;
  case SG_OP_SG_MARK: on_mark(w, r); return;
  default: break;
  }
  if (r->mem != SG_MEM_NONE && !k->full &&
      (r->space == SG_SPACE_LOCAL || r->space == SG_SPACE_GLOBAL)) {
    struct mem_insn m = {.warp = r->warp,
                         .pc = (uint32_t)r->pc,
                         .time = (uint32_t)r->time,
                         .size = r->size,
                         .kind = kind_of_mem(r->mem),
                         .global = r->space == SG_SPACE_GLOBAL,
                         .mask = r->mask,
                         .addr = r->addr,
                         .data = r->data};
    on_memory(k, w, &m);
  }
}

/* Translated blocks (sg_block_ops): their accesses, from the log, as the
 * records would have given them; a block that runs every live lane runs
 * the warp's last full instructions. */
static const struct sg_block_limit *block_enter(struct sg_hook *h, uint32_t warp, uint64_t pc,
                                                const struct sg_uop *uops, uint32_t len,
                                                uint64_t time, uint64_t mask) {
  struct sg_races *k = (struct sg_races *)h;
  (void)len;
  k->block.warp = warp, k->block.pc = pc, k->block.uops = uops, k->block.time = time;
  k->block.mask = mask;
  return sg_block_unlimited;
}

static void block_leave(struct sg_hook *h, uint32_t ran, const struct sg_block_log *log) {
  struct sg_races *k = (struct sg_races *)h;
  uint32_t warp = k->block.warp;
  if (!ran || !k->desc || warp >= k->desc->num_warps)
    return;
  struct warp_state *w = &k->warps[warp];
  uint64_t t0 = k->block.time;
  for (uint32_t i = 0; i < log->n && !k->full; i++) {
    const struct sg_block_mem *e = &log->mem[i];
    if (e->space != SG_SPACE_LOCAL && e->space != SG_SPACE_GLOBAL)
      continue;
    const struct sg_uop *u = &k->block.uops[e->index];
    struct mem_insn m = {.warp = warp,
                         .pc = (uint32_t)(k->block.pc + 4ull * e->index),
                         .time = (uint32_t)(t0 + e->index),
                         .size = u->size,
                         .kind = kind_of_mem(u->mem),
                         .global = e->space == SG_SPACE_GLOBAL,
                         .mask = k->block.mask,
                         .addr = e->addr,
                         .data = e->data};
    if (m.mask == w->live)
      w->full_time = m.time;
    on_memory(k, w, &m);
  }
  if (k->block.mask == w->live)
    w->full_time = (uint32_t)(t0 + ran - 1);
  if (k->block.uops[ran - 1].op == SG_OP_SG_EXIT) /* (a block's last) */
    lanes_exit(w, k->block.mask);
}

static const struct sg_block_ops block_ops = {
    .enter = block_enter, .leave = block_leave, .accesses = true};

static void on_event(struct sg_hook *h, const struct sg_event *e) {
  struct sg_races *k = (struct sg_races *)h;
  switch (e->kind) {
  case SG_EV_CTA_START: {
    uint32_t n = e->desc->num_warps;
    if (n > k->warps_cap) {
      struct warp_state *w = realloc(k->warps, n * sizeof *w);
      if (!w) {
        k->desc = NULL; /* unchecked */
        return;
      }
      k->warps = w;
      k->warps_cap = n;
    }
    memset(k->warps, 0, n * sizeof *k->warps);
    for (uint32_t i = 0; i < n; i++)
      k->warps[i].live = e->desc->init_mask[i];
    k->desc = e->desc;
    k->cta = e->cta;
    next_stamp(k);
    k->cta_stamp = k->fence[0] = k->fence[1] = k->stamp;
    k->pending = 0;
    k->cta_first = k->nspans;
    break;
  }
  case SG_EV_BARRIER_RELEASE:
    next_stamp(k);
    if (k->pending & FENCE_LOCAL)
      k->fence[0] = k->stamp;
    if (k->pending & FENCE_GLOBAL)
      k->fence[1] = k->stamp;
    k->pending = 0;
    break;
  case SG_EV_CTA_END:
    if (k->desc)
      finish_spans(k);
    release_pages(k);
    k->desc = NULL;
    break;
  default: break;
  }
}

enum sg_status sg_races_create(struct sg_core *core, const struct sg_races_config *cfg,
                               struct sg_races **out) {
  *out = NULL;
  if (!core || !cfg || cfg->warp_size < 1 || cfg->warp_size > SG_MAX_WARP_SIZE)
    return SG_EINVAL;
  struct sg_races *k = calloc(1, sizeof *k);
  if (!k)
    return SG_ENOMEM;
  k->hook = (struct sg_hook){.insn = on_insn,
                             .event = on_event,
                             .block = &block_ops,
                             .events = SG_EV_BIT(SG_EV_CTA_START) | SG_EV_BIT(SG_EV_CTA_END) |
                                       SG_EV_BIT(SG_EV_BARRIER_RELEASE),
                             .fence_flags = true};
  k->core = core;
  k->cfg = *cfg;
  *out = k;
  return SG_OK;
}

struct sg_hook *sg_races_hook(struct sg_races *k) {
  return &k->hook;
}

void sg_races_launch(struct sg_races *k) {
  k->nspans = k->cta_first = 0;
  k->full = false;
}

void sg_races_destroy(struct sg_races *k) {
  if (!k)
    return;
  release_pages(k);
  for (uint32_t i = 0; i < k->nspare; i++)
    free(k->spare[i]);
  free(k->spare);
  free(k->used);
  free(k->map);
  free(k->bytes);
  free(k->splits);
  free(k->warps);
  free(k->spans);
  free(k);
}

/* ---- Across CTAs ------------------------------------------------------------ */

/* Do the overlapping bytes of a and b hold the same value? */
static bool same_bytes(const struct span *a, const struct span *b) {
  if (!(a->flags & b->flags & SPAN_VALUE))
    return false;
  uint64_t lo = a->lo > b->lo ? a->lo : b->lo, hi = a->hi < b->hi ? a->hi : b->hi;
  for (uint64_t x = lo; x < hi; x++)
    if ((a->value >> (8 * (x - a->lo)) & 0xff) != (b->value >> (8 * (x - b->lo)) & 0xff))
      return false;
  return true;
}

/* e (the later CTA's, or the later in address order) against x: 0 no
 * conflict, 1 a race, 2 one whose write leaves memory as it was. */
static int span_conflict(const struct span *e, const struct span *x) {
  if (e->cta == x->cta || x->hi <= e->lo || (e->kind == LOAD && x->kind == LOAD) ||
      (e->kind == ATOMIC && x->kind == ATOMIC))
    return 0;
  if (e->kind == STORE && x->kind == STORE)
    return same_bytes(e, x) ? 2 : 1;
  const struct span *w = e->kind == STORE ? e : x->kind == STORE ? x : NULL;
  return w && (w->flags & SPAN_SAME) && e->kind != ATOMIC && x->kind != ATOMIC ? 2 : 1;
}

static void report_across(struct sg_findings *f, const struct span *a, const struct span *b,
                          int how, const uint32_t nctaid[3]) {
  /* told at the access of the later CTA, the earlier one as the other */
  const struct span *e = a->cta > b->cta ? a : b, *o = e == a ? b : a;
  enum sg_fault_kind kind = how == 2 ? SG_FAULT_RACE_SAME_VALUE : SG_FAULT_DATA_RACE;
  struct sg_finding_site site = {.cta = e->cta, .count = 1};
  struct sg_finding_site *s = sg_findings_site(f, kind, e->pc, o->pc);
  if (!s) {
    f->lost++;
    return;
  }
  if (s->count && (s->cta < e->cta || (s->cta == e->cta && s->first.thread <= e->thread))) {
    s->count++;
    return;
  }
  uint64_t lo = e->lo > o->lo ? e->lo : o->lo, hi = e->hi < o->hi ? e->hi : o->hi;
  struct sg_fault *ft = &site.first;
  ft->kind = kind;
  ft->pc = e->pc;
  ft->addr = lo;
  ft->size = (uint32_t)(hi - lo < UINT32_MAX ? hi - lo : UINT32_MAX);
  ft->thread = e->thread;
  for (int d = 0; d < 3; d++)
    ft->tid[d] = e->tid[d], ft->other.tid[d] = o->tid[d];
  uint64_t c = e->cta;
  site.ctaid[0] = (uint32_t)(c % nctaid[0]);
  site.ctaid[1] = (uint32_t)(c / nctaid[0] % nctaid[1]);
  site.ctaid[2] = (uint32_t)(c / nctaid[0] / nctaid[1]);
  c = o->cta;
  ft->other.ctaid[0] = (uint32_t)(c % nctaid[0]);
  ft->other.ctaid[1] = (uint32_t)(c / nctaid[0] % nctaid[1]);
  ft->other.ctaid[2] = (uint32_t)(c / nctaid[0] / nctaid[1]);
  ft->other.pc = o->pc;
  snprintf(ft->what, sizeof ft->what,
           "%s: %s of %llu byte%s %s __global memory at 0x%llx and %s %s of it by a "
           "work-item of another work-group (nothing orders work-groups)",
           how == 2 ? "race between writes of the value already there" : "data race",
           op_text[e->kind], (unsigned long long)(hi - lo), hi - lo > 1 ? "s" : "",
           e->kind == LOAD ? "from" : "to", (unsigned long long)lo, o->kind == ATOMIC ? "an" : "a",
           op_text[o->kind]);
  uint64_t count = s->count;
  *s = site;
  s->count = count + 1;
}

/* Removes from list (n entries of span indices) those that end at or
 * before lo. */
static size_t prune(const struct span *s, uint32_t *list, size_t n, uint64_t lo) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (s[list[i]].hi > lo)
      list[m++] = list[i];
  return m;
}

enum sg_status sg_races_across(struct sg_races *const *checkers, uint32_t n,
                               const uint32_t nctaid[3], struct sg_findings *findings) {
  size_t total = 0;
  bool same_value = false;
  for (uint32_t i = 0; i < n; i++)
    if (checkers[i]) {
      total += checkers[i]->nspans;
      same_value |= checkers[i]->cfg.same_value;
    }
  if (total < 2 || total > UINT32_MAX)
    return SG_OK;
  struct span *s = malloc(total * sizeof *s);
  uint32_t *writes = malloc(total * sizeof *writes), *reads = malloc(total * sizeof *reads);
  if (!s || !writes || !reads) {
    free(s), free(writes), free(reads);
    return SG_ENOMEM;
  }
  size_t m = 0;
  for (uint32_t i = 0; i < n; i++)
    if (checkers[i] && checkers[i]->nspans) {
      memcpy(s + m, checkers[i]->spans, checkers[i]->nspans * sizeof *s);
      m += checkers[i]->nspans;
    }
  /* In address order, each span meets those still open: the first
   * conflicting one (in that order, so the report is the same whatever ran
   * where) is its occurrence. */
  qsort(s, total, sizeof *s, by_start);
  size_t nw = 0, nr = 0;
  for (size_t i = 0; i < total; i++) {
    const struct span *e = &s[i];
    nw = prune(s, writes, nw, e->lo);
    int how = 0;
    const struct span *x = NULL;
    for (size_t j = 0; j < nw && !how; j++)
      how = span_conflict(e, x = &s[writes[j]]);
    if (e->kind != LOAD) {
      nr = prune(s, reads, nr, e->lo);
      for (size_t j = 0; j < nr && !how; j++)
        how = span_conflict(e, x = &s[reads[j]]);
    }
    if (how == 1 || (how == 2 && same_value))
      report_across(findings, e, x, how, nctaid);
    if (e->kind == LOAD)
      reads[nr++] = (uint32_t)i;
    else
      writes[nw++] = (uint32_t)i;
  }
  free(s), free(writes), free(reads);
  return SG_OK;
}
