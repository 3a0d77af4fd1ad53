/* SPDX-License-Identifier: MIT */
/* Checkers (DESIGN.md section 4, "the checkers" among the consumers of the
 * instruction record), precise memory checking: the core catches accesses
 * outside every mapping; this consumer catches those that stay mapped but
 * leave the object their pointer came from (an overrun into the next
 * buffer, past the end of a sub-buffer, into the next __local array), and
 * misaligned loads and stores. docs/checking.md describes what it tracks.
 *
 * Provenance is followed per warp and register, not per lane: kernel
 * arguments are the same for every lane, so a pointer register almost
 * always has one provenance for the whole warp. Where lanes could differ (a
 * write under a partial mask that would change it), the register forgets
 * its provenance: the checker may miss a bug, never invent one. */
#include "sg_sim_impl.h"

#include <stdlib.h>
#include <string.h>

enum kind {
  P_NONE,  /* not known to be a pointer: accesses through it are not checked */
  P_OBJ,   /* points into objects[obj] */
  P_CONST, /* a constant (lui, auipc, addi): anchor is its value */
  P_CIDX,  /* a constant plus a run-time index: anchor is the constant */
  P_TAINT  /* computed from a pointer by other arithmetic (the distance of two
              buffers, a masked select): a pointer plus it may point anywhere */
};
#define STACK_TAINT UINT16_MAX

struct prov {
  uint64_t anchor;
  uint32_t obj;
  uint32_t kind;
};

struct warp_shadow {
  struct prov x[SG_NXREGS];
  uint64_t lanes;   /* lanes seen running: a write under fewer is partial */
  bool stack_dirty; /* stack[] has entries to clear at the next CTA */
};

struct sg_check_memory {
  struct sg_hook hook;
  struct sg_core *core;
  const struct sg_check_launch *l;
  uint32_t warp_size, max_warps;
  uint64_t full; /* every lane of a warp */
  struct warp_shadow *warps;
  uint16_t *stack; /* per warp, per 8-byte word of a lane's stack slot: object + 1 */
  uint32_t stack_words;
};

static bool same(const struct prov *a, const struct prov *b) {
  return a->kind == b->kind && a->obj == b->obj && a->anchor == b->anchor;
}

/* rd gets p on the lanes in mask. */
static void write(struct warp_shadow *ws, unsigned rd, struct prov p, uint64_t mask) {
  if ((mask & ws->lanes) != ws->lanes && !same(&ws->x[rd], &p))
    p = (struct prov){0};
  ws->x[rd] = p;
}

static const struct sg_region *region_at(const struct sg_check_launch *l, uint64_t a) {
  uint32_t lo = 0, hi = l->num_regions;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (l->regions[mid].base <= a)
      lo = mid + 1;
    else
      hi = mid;
  }
  const struct sg_region *r = lo ? &l->regions[lo - 1] : NULL;
  return r && a - r->base < r->size ? r : NULL;
}

static const struct sg_check_object *object_at(const struct sg_check_launch *l, uint64_t a) {
  for (uint32_t i = 0; i < l->num_objects; i++)
    if (a - l->objects[i].base < l->objects[i].size)
      return &l->objects[i];
  return NULL;
}

/* The __local array a constant-based pointer means: the one its constant
 * (with the instruction's offset) points into, in the first half of it (a
 * constant just before an array's end is more likely the next array's
 * address minus a folded offset, tile[lid - 1]). */
static uint32_t const_object(const struct sg_check_launch *l, uint64_t a) {
  for (uint32_t i = 0; i < l->num_objects; i++) {
    const struct sg_check_object *o = &l->objects[i];
    if (o->local && a - o->base < o->size && (a == o->base || a - o->base < o->size / 2))
      return i + 1;
  }
  return 0;
}

static const char *access_name(enum sg_mem_kind k) {
  return k == SG_MEM_LOAD ? "load" : k == SG_MEM_STORE ? "store" : "atomic";
}

/* One lane's access left object o: report it, in words, unless it left
 * mapped memory altogether (the core reports that). */
static void out_of_bounds(struct sg_check_memory *m, const struct sg_insn_record *r, unsigned lane,
                          const struct sg_check_object *o) {
  const struct sg_check_launch *l = m->l;
  uint64_t a = r->addr[lane];
  if (!region_at(l, a) || !region_at(l, a + r->size - 1))
    return;
  const struct sg_check_object *in = object_at(l, a);
  char where[160] = "";
  if (in && in != o)
    snprintf(where, sizeof where, ", inside %s", in->name);
  const char *what = access_name(r->mem);
  if (o->local)
    sg_core_finding(m->core, r->warp, lane, r->pc, SG_FAULT_OUT_OF_BOUNDS, a, r->size,
                    "%s of %u bytes outside %s: at offset %lld of %llu%s", what, r->size, o->name,
                    (long long)(a - o->base), (unsigned long long)o->size, where);
  else if (a >= o->base + o->size)
    sg_core_finding(m->core, r->warp, lane, r->pc, SG_FAULT_OUT_OF_BOUNDS, a, r->size,
                    "%s of %u bytes at 0x%llx, %llu bytes past the end of %s (%llu bytes)%s", what,
                    r->size, (unsigned long long)a, (unsigned long long)(a - (o->base + o->size)),
                    o->name, (unsigned long long)o->size, where);
  else
    sg_core_finding(m->core, r->warp, lane, r->pc, SG_FAULT_OUT_OF_BOUNDS, a, r->size,
                    "%s of %u bytes at 0x%llx, %llu bytes before the start of %s (%llu bytes)%s",
                    what, r->size, (unsigned long long)a, (unsigned long long)(o->base - a),
                    o->name, (unsigned long long)o->size, where);
}

/* Checks the lanes of a memory instruction against the provenance of its
 * base register. */
static void check_access(struct sg_check_memory *m, const struct sg_insn_record *r,
                         const struct prov *base) {
  const struct sg_check_launch *l = m->l;
  uint32_t obj = base->kind == P_OBJ ? base->obj
                 : base->kind == P_CONST || base->kind == P_CIDX
                     ? const_object(l, base->anchor + (uint64_t)r->uop->imm)
                     : 0;
  const struct sg_check_object *o = obj ? &l->objects[obj - 1] : NULL;
  /* One pass over the lanes (the usual outcome: nothing to say); the
   * per-lane reports only when it found something. */
  uint64_t lo = o ? o->base : 0,
           span = o ? o->size - (r->size <= o->size ? r->size : o->size) : ~0ull;
  uint64_t outside = 0, misaligned = 0, align = r->mem == SG_MEM_ATOMIC ? 0 : r->size - 1;
  bool too_big = o && r->size > o->size;
  if (r->mask == m->full) /* a loop the compiler vectorises */
    for (unsigned lane = 0; lane < m->warp_size; lane++) {
      outside |= r->addr[lane] - lo > span;
      misaligned |= r->addr[lane] & align;
    }
  else
    for (uint64_t mk = r->mask; mk; mk &= mk - 1) {
      uint64_t a = r->addr[__builtin_ctzll(mk)];
      outside |= a - lo > span;
      misaligned |= a & align;
    }
  if (o && (outside || too_big))
    for (uint64_t mk = r->mask; mk; mk &= mk - 1) {
      unsigned lane = (unsigned)__builtin_ctzll(mk);
      uint64_t off = r->addr[lane] - o->base;
      if (off > o->size || o->size - off < r->size)
        out_of_bounds(m, r, lane, o);
    }
  if (!misaligned) /* misaligned atomics are the core's (fatal) */
    return;
  for (uint64_t mk = r->mask; mk; mk &= mk - 1) {
    unsigned lane = (unsigned)__builtin_ctzll(mk);
    if (r->addr[lane] & align)
      sg_core_finding(m->core, r->warp, lane, r->pc, SG_FAULT_MISALIGNED_ACCESS, r->addr[lane],
                      r->size, "misaligned %s of %u bytes at 0x%llx (not a multiple of %u)",
                      access_name(r->mem), r->size, (unsigned long long)r->addr[lane], r->size);
  }
}

/* The word of a lane's private stack slot an access at a touches, or -1. */
static int64_t stack_word(const struct sg_check_memory *m, const struct sg_insn_record *r,
                          uint64_t a) {
  const struct sg_check_launch *l = m->l;
  unsigned lane = (unsigned)__builtin_ctzll(r->mask);
  uint64_t slot = l->stack_base + ((uint64_t)r->warp * m->warp_size + lane) * l->stack_size;
  uint64_t off = a - slot;
  return off < l->stack_size ? (int64_t)(off / 8) : -1;
}

/* Pointers kept on the private stack (spills, -cl-opt-disable locals). */
static void stack_store(struct sg_check_memory *m, const struct sg_insn_record *r,
                        struct warp_shadow *ws) {
  int64_t word = stack_word(m, r, r->addr[__builtin_ctzll(r->mask)]);
  if (word < 0)
    return;
  uint16_t *s = m->stack + (size_t)r->warp * m->stack_words;
  const struct prov *v = &ws->x[r->uop->rs2];
  bool whole = r->uop->op == SG_OP_SD && !(r->addr[__builtin_ctzll(r->mask)] & 7) &&
               (r->mask & ws->lanes) == ws->lanes;
  uint16_t val = !whole               ? 0
                 : v->kind == P_OBJ   ? (uint16_t)v->obj
                 : v->kind == P_TAINT ? STACK_TAINT
                                      : 0;
  if (val || s[word]) {
    s[word] = val;
    ws->stack_dirty = true;
  }
  if (!whole && ((r->addr[__builtin_ctzll(r->mask)] & 7) + r->size > 8) &&
      (uint64_t)word + 1 < m->stack_words)
    s[word + 1] = 0;
}

static struct prov load_prov(struct sg_check_memory *m, const struct sg_insn_record *r) {
  const struct sg_check_launch *l = m->l;
  uint64_t a = r->addr[__builtin_ctzll(r->mask)];
  if (r->uop->op != SG_OP_LD)
    return (struct prov){0};
  /* Lanes reading different slots (p = c ? a : b made by selecting the
   * slot's address) get different pointers: no one provenance. */
  for (uint64_t mk = r->mask; mk; mk &= mk - 1)
    if (r->addr[__builtin_ctzll(mk)] != a && r->addr[__builtin_ctzll(mk)] - l->stack_base >=
                                                 (uint64_t)l->stack_size * SG_MAX_CTA_THREADS)
      return (struct prov){0};
  for (uint32_t i = 0; i < l->num_slots; i++)
    if (l->slot_addr[i] == a)
      return (struct prov){.kind = P_OBJ, .obj = l->slot_object[i] + 1};
  int64_t word = stack_word(m, r, a);
  if (word >= 0 && !(a & 7)) {
    uint16_t v = m->stack[(size_t)r->warp * m->stack_words + (size_t)word];
    if (v)
      return v == STACK_TAINT ? (struct prov){.kind = P_TAINT}
                              : (struct prov){.kind = P_OBJ, .obj = v};
  }
  return (struct prov){0};
}

/* Other arithmetic on a pointer (or on something computed from one) makes
 * a value that must not leave a pointer it is added to with its provenance. */
static struct prov tainted(const struct prov *a, const struct prov *b) {
  bool t = a->kind == P_OBJ || a->kind == P_TAINT || b->kind == P_OBJ || b->kind == P_TAINT;
  return (struct prov){.kind = t ? P_TAINT : P_NONE};
}

static void on_insn(struct sg_hook *h, const struct sg_insn_record *r) {
  struct sg_check_memory *m = (struct sg_check_memory *)h;
  if (r->warp >= m->max_warps || !m->l)
    return;
  struct warp_shadow *ws = &m->warps[r->warp];
  const struct sg_uop *u = r->uop;
  ws->lanes |= r->mask;
  if (r->mem != SG_MEM_NONE) {
    check_access(m, r, &ws->x[u->rs1]);
    if (r->mem == SG_MEM_STORE)
      stack_store(m, r, ws);
  }
  if (!sg_op_writes_x((enum sg_op)u->op))
    return;
  const struct prov *a = &ws->x[u->rs1], *b = &ws->x[u->rs2];
  struct prov p = {0};
  switch ((enum sg_op)u->op) {
  case SG_OP_LUI: p = (struct prov){.kind = P_CONST, .anchor = (uint64_t)u->imm}; break;
  case SG_OP_AUIPC: p = (struct prov){.kind = P_CONST, .anchor = r->pc + (uint64_t)u->imm}; break;
  case SG_OP_ADDI:
    p = *a;
    if (p.kind == P_CONST || p.kind == P_CIDX) {
      p.anchor += (uint64_t)u->imm;
      /* A register stepped in place (a pointer walking a __local array,
       * or the %lo half of its address) is bound to the array it points
       * into, so walking past its end is seen. */
      uint32_t o = u->rd == u->rs1 && u->imm ? const_object(m->l, p.anchor) : 0;
      if (o)
        p = (struct prov){.kind = P_OBJ, .obj = o};
    }
    break;
  case SG_OP_ANDI: /* aligning a pointer down keeps it */
    p = a->kind == P_OBJ && u->imm < 0 ? *a : tainted(a, &(struct prov){0});
    break;
  case SG_OP_ADD:
    if (b->kind == P_NONE)
      p = *a;
    else if (a->kind == P_NONE)
      p = *b;
    if (p.kind == P_CONST)
      p.kind = P_CIDX;
    break;
  case SG_OP_SUB:
    if (a->kind == P_OBJ && b->kind == P_OBJ)
      p.kind = P_TAINT; /* a distance between pointers */
    else if (b->kind == P_NONE && a->kind != P_CONST)
      p = *a;
    break;
  case SG_OP_LD: p = r->mem == SG_MEM_LOAD ? load_prov(m, r) : p; break;
  default:
    if (r->mem == SG_MEM_NONE)
      p = tainted(a, b);
    break;
  }
  write(ws, u->rd, p, r->mask);
}

static void on_event(struct sg_hook *h, const struct sg_event *e) {
  struct sg_check_memory *m = (struct sg_check_memory *)h;
  if (e->kind != SG_EV_CTA_START)
    return;
  for (uint32_t w = 0; w < m->max_warps; w++) {
    struct warp_shadow *ws = &m->warps[w];
    if (ws->stack_dirty)
      memset(m->stack + (size_t)w * m->stack_words, 0, m->stack_words * sizeof *m->stack);
    memset(ws, 0, sizeof *ws);
  }
}

enum sg_status sg_check_memory_create(struct sg_core *core, uint32_t warp_size,
                                      struct sg_check_memory **out) {
  struct sg_check_memory *m = calloc(1, sizeof *m);
  if (!m)
    return SG_ENOMEM;
  m->hook.insn = on_insn;
  m->hook.event = on_event;
  m->core = core;
  m->warp_size = warp_size;
  m->full = warp_size >= 64 ? ~0ull : (1ull << warp_size) - 1;
  *out = m;
  return SG_OK;
}

enum sg_status sg_check_memory_launch(struct sg_check_memory *m, const struct sg_check_launch *l,
                                      uint32_t max_warps) {
  uint32_t words = l->stack_size / 8;
  if (max_warps > m->max_warps || words != m->stack_words) {
    free(m->warps);
    free(m->stack);
    m->warps = calloc(max_warps ? max_warps : 1, sizeof *m->warps);
    m->stack = calloc((size_t)(max_warps ? max_warps : 1) * (words ? words : 1), sizeof *m->stack);
    m->max_warps = m->warps && m->stack ? max_warps : 0;
    m->stack_words = m->max_warps ? words : 0;
    if (!m->max_warps) {
      m->l = NULL;
      return SG_ENOMEM;
    }
  } else {
    memset(m->stack, 0, (size_t)m->max_warps * m->stack_words * sizeof *m->stack);
  }
  m->l = l;
  return SG_OK;
}

struct sg_hook *sg_check_memory_hook(struct sg_check_memory *m) {
  return &m->hook;
}

void sg_check_memory_destroy(struct sg_check_memory *m) {
  if (!m)
    return;
  free(m->warps);
  free(m->stack);
  free(m);
}
