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
 * its provenance: the checker may miss a bug, never invent one.
 *
 * It follows translated blocks too (sg_block_ops): what an instruction does
 * to provenance depends only on the provenance of its registers (and, under
 * a partial mask, of the one it writes), except for where a load of a
 * pointer or a store to the private stack goes. So the effect of a run of a
 * block's instructions from a given provenance of the registers it reads
 * is worked out once (by the same transfer function as for records, struct
 * seg) and reused whenever the block starts in that state again: a few
 * register copies per warp instead of a record per instruction. Each
 * memory instruction gets the bounds of the object its pointer came from
 * as its limit, so an access that would be a finding stops the block
 * before it, and the interpreter runs it with this checker's state as it
 * would have been.
 *
 * A warp's provenance as a whole is interned too (struct state): every warp
 * of every CTA starts in the same one, and a block run whole from a state
 * leads to one state. So where warps go the same way (a kernel's usual
 * case) a block costs a lookup of the step it took from there; a warp
 * whose provenance an interpreted instruction or a stopped block changed
 * keeps it in its own registers until its next CTA. */
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

struct state;
struct warp_shadow {
  struct state *st; /* the warp's provenance when not NULL (x is not kept) */
  struct prov x[SG_NXREGS]; /* its provenance when st is NULL */
  uint64_t written; /* registers of x set since its CTA started (the rest are zero) */
  uint64_t lanes;   /* lanes seen running: a write under fewer is partial */
  bool stack_dirty; /* stack[] has entries to clear at the next CTA */
};

/* What a block's memory instruction asks of note (sg_block_limit.note). */
enum { NOTE_NONE, NOTE_STORE, NOTE_LOAD, NOTE_STOP };

/* A run: the effect of instructions [s, e) of a block (whose first word is
 * at pc - 4 * s) on a warp's provenance, from the state in which registers
 * in_reg[] had provenance in[] (read: those registers): the registers
 * out_reg[] (written) end with out[]. lim[i] (i in s .. e) is the limit of
 * memory instruction i. An ld through a pointer of no object (NOTE_LOAD)
 * gives what the address it reads holds (load_prov): the run learns it
 * from the first warp that gets there (val[i]) and goes on; e < len is the
 * ld no warp has reached yet. val[i] of a store with NOTE_STORE is the
 * provenance of the value it writes. */
struct seg {
  struct seg *next; /* in its bucket of the table */
  uint64_t pc;      /* of instruction s */
  uint64_t read, written;
  bool partial;     /* run by part of the lanes the warp ran (write()) */
  uint32_t s, e, nin, nout;
  uint8_t in_reg[SG_NXREGS], out_reg[SG_NXREGS];
  struct prov in[SG_NXREGS], out[SG_NXREGS];
  struct sg_block_limit *lim;
  struct prov *val;
};
/* A warp's whole provenance, interned. */
struct state {
  struct state *next; /* in its bucket */
  uint64_t hash;
  uint64_t used; /* registers whose provenance is not none */
  struct prov x[SG_NXREGS];
};

/* A block run whole from a state: block pc, run by all (partial false) or
 * part of the lanes the warp ran, has the effect seg and leaves the warp
 * in state to. */
struct step {
  const struct state *from;
  uint64_t pc;
  bool partial;
  struct seg *seg;
  struct state *to;
};

/* What the checker needs of an op (from sg_insn.def's tables, looked up
 * once: every instruction asks). */
struct op_info {
  uint8_t operands; /* integer registers it computes from: 0, 1 (rs1) or 2 (rs1, rs2) */
  bool writes_x;
  uint8_t mem;      /* enum sg_mem_kind */
  uint8_t size;     /* bytes it accesses per lane */
};

#define SEG_BUCKETS 1024
#define SEG_MAX 8192 /* runs kept; past it the tables start again */
#define STATE_BUCKETS 256
#define STATE_MAX 2048
#define STEP_BITS 10 /* the steps taken, by state and pc, the last one per slot */
#define STEP_SLOTS (1u << STEP_BITS)

struct sg_check_memory {
  struct sg_hook hook;
  struct sg_core *core;
  const struct sg_check_launch *l;
  uint32_t warp_size, max_warps;
  struct op_info op[SG_OP_COUNT];
  struct warp_shadow *warps;
  uint16_t *stack; /* per warp, per 8-byte word of a lane's stack slot: object + 1 */
  uint32_t stack_words;
  /* Blocks: the effects worked out in this launch, by the pc they start
   * at, and the block running now. */
  struct seg *bucket[SEG_BUCKETS];
  uint32_t nsegs;
  /* The warps' states met (struct state), and the one every CTA starts in. */
  struct state *states[STATE_BUCKETS];
  uint32_t nstates;
  struct state *zero;
  struct step steps[STEP_SLOTS];
  /* What the runs depend on of the launch they were worked out in (its
   * program, objects, argument slots and stacks): a launch with the same
   * keeps them. */
  struct {
    uint64_t code, stack_base;
    uint32_t stack_size, num_objects, num_slots;
    uint64_t *words; /* base, size, local per object; address, object per slot */
    size_t cap;      /* words' room */
  } view;
  struct {
    struct warp_shadow *ws;
    uint32_t warp, len;
    uint64_t pc;   /* of the block's first instruction */
    uint64_t mask; /* its lanes */
    bool partial;  /* fewer than the warp ran before */
    const struct sg_uop *uops;
    struct seg *seg; /* the run in progress; NULL: the block's effect is applied */
    struct step *step; /* the block's step from the warp's state, when known */
  } cur;
};

static bool same(const struct prov *a, const struct prov *b) {
  return a->kind == b->kind && a->obj == b->obj && a->anchor == b->anchor;
}

/* The warp's provenance, per register. */
static const struct prov *regs(const struct warp_shadow *ws) {
  return ws->st ? ws->st->x : ws->x;
}

/* The warp leaves its interned state: its provenance goes to x. */
static void materialize(struct warp_shadow *ws) {
  if (!ws->st)
    return;
  memcpy(ws->x, ws->st->x, sizeof ws->x);
  ws->written = ws->st->used;
  ws->st = NULL;
}

/* rd gets p on the lanes in mask. */
static void write(struct warp_shadow *ws, unsigned rd, struct prov p, uint64_t mask) {
  if ((mask & ws->lanes) != ws->lanes && !same(&regs(ws)[rd], &p))
    p = (struct prov){0};
  if (ws->st && same(&ws->st->x[rd], &p))
    return; /* (a call's ra, usually: the state stays) */
  materialize(ws);
  ws->x[rd] = p;
  ws->written |= 1ull << rd;
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

/* The object an access through a pointer of provenance base (with the
 * instruction's offset imm) is meant to stay in; NULL when not known. */
static const struct sg_check_object *object_of(const struct sg_check_memory *m,
                                               const struct prov *base, int64_t imm) {
  const struct sg_check_launch *l = m->l;
  uint32_t obj = base->kind == P_OBJ ? base->obj
                 : base->kind == P_CONST || base->kind == P_CIDX
                     ? const_object(l, base->anchor + (uint64_t)imm)
                     : 0;
  return obj ? &l->objects[obj - 1] : NULL;
}

/* Checks the lanes of a memory instruction against the provenance of its
 * base register. */
static void check_access(struct sg_check_memory *m, const struct sg_insn_record *r,
                         const struct prov *base) {
  const struct sg_check_object *o = object_of(m, base, r->uop->imm);
  /* One pass over the lanes (the usual outcome: nothing to say); the
   * per-lane reports only when it found something. */
  uint64_t lo = o ? o->base : 0,
           span = o ? o->size - (r->size <= o->size ? r->size : o->size) : ~0ull;
  uint64_t align = r->mem == SG_MEM_ATOMIC ? 0 : r->size - 1;
  bool outside = r->lo - lo > span || r->hi - lo > span, misaligned = r->bits & align;
  bool too_big = o && r->size > o->size;
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

/* The word of lane `lane` of warp `warp`'s private stack slot an access
 * at a touches, or -1. */
static int64_t stack_word(const struct sg_check_memory *m, uint32_t warp, unsigned lane,
                          uint64_t a) {
  const struct sg_check_launch *l = m->l;
  uint64_t slot = l->stack_base + ((uint64_t)warp * m->warp_size + lane) * l->stack_size;
  uint64_t off = a - slot;
  return off < l->stack_size ? (int64_t)(off / 8) : -1;
}

/* Pointers kept on the private stack (spills, -cl-opt-disable locals):
 * store u of warp `warp` under mask, whose lowest lane `lane` writes at a
 * a value of provenance v. */
static void stack_store(struct sg_check_memory *m, uint32_t warp, unsigned lane, uint64_t a,
                        const struct sg_uop *u, uint64_t mask, struct warp_shadow *ws,
                        const struct prov *v) {
  int64_t word = stack_word(m, warp, lane, a);
  if (word < 0)
    return;
  uint16_t *s = m->stack + (size_t)warp * m->stack_words;
  uint32_t size;
  size = m->op[u->op].size;
  bool whole = u->op == SG_OP_SD && !(a & 7) && (mask & ws->lanes) == ws->lanes;
  uint16_t val = !whole               ? 0
                 : v->kind == P_OBJ   ? (uint16_t)v->obj
                 : v->kind == P_TAINT ? STACK_TAINT
                                      : 0;
  if (val || s[word]) {
    s[word] = val;
    ws->stack_dirty = true;
  }
  if (!whole && ((a & 7) + size > 8) && (uint64_t)word + 1 < m->stack_words)
    s[word + 1] = 0;
}

/* Is a in the private stacks' window? */
static bool in_stacks(const struct sg_check_launch *l, uint64_t a) {
  return a - l->stack_base < (uint64_t)l->stack_size * SG_MAX_CTA_THREADS;
}

/* The provenance an ld of warp `warp` gives when its lowest lane `lane`
 * reads at a (and every other lane at a too, or in the stacks): a pointer
 * argument's slot in the parameter block, or a pointer spilled to the
 * stack. */
static struct prov slot_prov(struct sg_check_memory *m, uint32_t warp, unsigned lane, uint64_t a) {
  const struct sg_check_launch *l = m->l;
  for (uint32_t i = 0; i < l->num_slots; i++)
    if (l->slot_addr[i] == a)
      return (struct prov){.kind = P_OBJ, .obj = l->slot_object[i] + 1};
  int64_t word = stack_word(m, warp, lane, a);
  if (word >= 0 && !(a & 7)) {
    uint16_t v = m->stack[(size_t)warp * m->stack_words + (size_t)word];
    if (v)
      return v == STACK_TAINT ? (struct prov){.kind = P_TAINT}
                              : (struct prov){.kind = P_OBJ, .obj = v};
  }
  return (struct prov){0};
}

static struct prov load_prov(struct sg_check_memory *m, const struct sg_insn_record *r) {
  unsigned lane = (unsigned)__builtin_ctzll(r->mask);
  uint64_t a = r->addr[lane];
  if (r->uop->op != SG_OP_LD)
    return (struct prov){0};
  /* Lanes reading different slots (p = c ? a : b made by selecting the
   * slot's address) get different pointers: no one provenance. */
  for (uint64_t mk = r->lo == r->hi ? 0 : r->mask; mk; mk &= mk - 1)
    if (r->addr[__builtin_ctzll(mk)] != a && !in_stacks(m->l, r->addr[__builtin_ctzll(mk)]))
      return (struct prov){0};
  return slot_prov(m, r->warp, lane, a);
}

/* Other arithmetic on a pointer (or on something computed from one) makes
 * a value that must not leave a pointer it is added to with its provenance. */
static struct prov tainted(const struct prov *a, const struct prov *b) {
  bool t = a->kind == P_OBJ || a->kind == P_TAINT || b->kind == P_OBJ || b->kind == P_TAINT;
  return (struct prov){.kind = t ? P_TAINT : P_NONE};
}

/* The integer registers an instruction computes from (x0, whose
 * provenance is always none, for an operand that is not one: an
 * immediate's bits in the rs2 field, a CSR number, an FP register). */
static unsigned operand_count(enum sg_op op) {
  switch (sg_op_fmt(op)) {
  case SG_FMT_R: case SG_FMT_A: return 2;
  case SG_FMT_I: case SG_FMT_SH: case SG_FMT_L: case SG_FMT_LR: case SG_FMT_X2:
  case SG_FMT_TX: return 1;
  default: return 0;
  }
}
static void operands(const struct sg_check_memory *m, const struct sg_uop *u, unsigned *ra,
                     unsigned *rb) {
  unsigned n = m->op[u->op].operands;
  *ra = n > 0 ? u->rs1 : 0;
  *rb = n > 1 ? u->rs2 : 0;
}

/* The provenance instruction u at pc gives its rd (u writes an x
 * register), from the provenance x[] of the registers; mem: it accessed
 * memory; loaded: what an ld read (load_prov). */
static struct prov transfer(const struct sg_check_memory *m, const struct prov *x,
                            const struct sg_uop *u, uint64_t pc, bool mem, struct prov loaded) {
  unsigned ra, rb;
  operands(m, u, &ra, &rb);
  const struct prov *a = &x[ra], *b = &x[rb];
  struct prov p = {0};
  switch ((enum sg_op)u->op) {
  case SG_OP_LUI: p = (struct prov){.kind = P_CONST, .anchor = (uint64_t)u->imm}; break;
  case SG_OP_AUIPC: p = (struct prov){.kind = P_CONST, .anchor = pc + (uint64_t)u->imm}; break;
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
  case SG_OP_LD: p = loaded; break;
  default:
    if (!mem)
      p = tainted(a, b);
    break;
  }
  return p;
}

static void on_insn(struct sg_hook *h, const struct sg_insn_record *r) {
  struct sg_check_memory *m = (struct sg_check_memory *)h;
  if (r->warp >= m->max_warps || !m->l)
    return;
  struct warp_shadow *ws = &m->warps[r->warp];
  const struct sg_uop *u = r->uop;
  const struct prov *x = regs(ws);
  ws->lanes |= r->mask;
  if (r->mem != SG_MEM_NONE) {
    check_access(m, r, &x[u->rs1]);
    if (r->mem == SG_MEM_STORE) {
      unsigned lane = (unsigned)__builtin_ctzll(r->mask);
      stack_store(m, r->warp, lane, r->addr[lane], u, r->mask, ws, &x[u->rs2]);
    }
  }
  if (!m->op[u->op].writes_x)
    return;
  struct prov loaded = r->mem == SG_MEM_LOAD ? load_prov(m, r) : (struct prov){0};
  write(ws, u->rd, transfer(m, x, u, r->pc, r->mem != SG_MEM_NONE, loaded), r->mask);
}

/* ---- Following translated blocks ------------------------------------------ */

/* The limit of memory instruction u (a load or store of a block's lanes)
 * through a pointer of provenance base: the lanes must stay in its object
 * and be aligned, or check_access would have something to say. An access
 * through a pointer of no object may be an ld of a pointer or a store to
 * the stack, whose effects depend on the address: it asks for a note. */
static struct sg_block_limit limit_of(const struct sg_check_memory *m, const struct sg_uop *u,
                                      const struct prov *base) {
  uint32_t size = m->op[u->op].size;
  enum sg_mem_kind k = m->op[u->op].mem;
  const struct sg_check_object *o = object_of(m, base, u->imm);
  struct sg_block_limit lim = {.lo = 0, .span = ~0ull, .align = size - 1};
  if (o && size > o->size)
    lim.note = NOTE_STOP; /* every lane is out of bounds */
  else if (o)
    lim.lo = o->base, lim.span = o->size - size;
  else if (k == SG_MEM_STORE)
    lim.note = NOTE_STORE;
  else if (u->op == SG_OP_LD)
    lim.note = NOTE_LOAD;
  return lim;
}

/* Forgets the runs and the states (which name runs): warps in a state
 * keep their provenance in their registers. */
static void segs_clear(struct sg_check_memory *m) {
  for (uint32_t w = 0; w < m->max_warps; w++)
    materialize(&m->warps[w]);
  for (uint32_t i = 0; i < SEG_BUCKETS; i++)
    for (struct seg *g = m->bucket[i], *next; g; g = next) {
      next = g->next;
      free(g);
    }
  memset(m->bucket, 0, sizeof m->bucket);
  m->nsegs = 0;
  m->cur.seg = NULL;
  m->cur.step = NULL;
  for (uint32_t i = 0; i < STATE_BUCKETS; i++)
    for (struct state *t = m->states[i], *next; t; t = next) {
      next = t->next;
      free(t);
    }
  memset(m->states, 0, sizeof m->states);
  m->nstates = 0;
  m->zero = NULL;
  memset(m->steps, 0, sizeof m->steps);
}

/* The state of provenance x[] (NULL: out of memory, or the table is full). */
static struct state *intern(struct sg_check_memory *m, const struct prov *x) {
  uint64_t h = 0;
  for (unsigned r = 0; r < SG_NXREGS; r++)
    h = (h ^ x[r].anchor ^ (uint64_t)x[r].obj << 32 ^ x[r].kind) * 0x9e3779b97f4a7c15ull;
  struct state **b = &m->states[(h >> 32) % STATE_BUCKETS];
  for (struct state *t = *b; t; t = t->next)
    if (t->hash == h && !memcmp(t->x, x, sizeof t->x))
      return t;
  struct state *t = m->nstates < STATE_MAX ? malloc(sizeof *t) : NULL;
  if (!t)
    return NULL;
  t->hash = h;
  t->used = 0;
  for (unsigned r = 0; r < SG_NXREGS; r++)
    t->used |= (uint64_t)(x[r].kind != P_NONE) << r;
  memcpy(t->x, x, sizeof t->x);
  t->next = *b;
  *b = t;
  m->nstates++;
  return t;
}

/* The state a CTA's warps start in: no register has a provenance. */
static struct state *zero_state(struct sg_check_memory *m) {
  if (!m->zero) {
    static const struct prov none[SG_NXREGS];
    m->zero = intern(m, none);
  }
  return m->zero;
}

static struct step *step_slot(struct sg_check_memory *m, const struct state *from, uint64_t pc,
                              bool partial) {
  uint64_t h = ((uintptr_t)from ^ pc << 5 ^ partial) * 0x9e3779b97f4a7c15ull;
  return &m->steps[h >> (64 - STEP_BITS)];
}

static struct step *find_step(struct sg_check_memory *m, const struct state *from, uint64_t pc,
                              bool partial) {
  struct step *s = step_slot(m, from, pc, partial);
  return s->from == from && s->pc == pc && s->partial == partial ? s : NULL;
}

/* Run g gives register rd of x provenance p, as write() does (under a
 * partial mask a change forgets it: then what rd held is part of the state
 * the run starts from). */
static void seg_write(struct seg *g, struct prov *x, unsigned rd, struct prov p) {
  if (g->partial) {
    g->read |= (1ull << rd) & ~g->written;
    if (!same(&x[rd], &p))
      p = (struct prov){0};
  }
  x[rd] = p;
  g->written |= 1ull << rd;
}

/* Works out seg g's instructions from i on, from provenance x[] (the
 * state before instruction i), up to the end of the block or an ld whose
 * result is not known yet (g->e). */
static void seg_run(struct sg_check_memory *m, struct seg *g, uint32_t i, struct prov *x) {
  for (; i < m->cur.len; i++) {
    const struct sg_uop *u = &m->cur.uops[i];
    unsigned ra, rb;
    operands(m, u, &ra, &rb);
    enum sg_mem_kind k = m->op[u->op].mem;
    /* what transfer reads, the base of an access and a stored value */
    uint64_t uses = 1ull << ra | 1ull << rb;
    if (k != SG_MEM_NONE)
      uses |= 1ull << u->rs1 | (k == SG_MEM_STORE ? 1ull << u->rs2 : 0);
    g->read |= uses & ~g->written;
    if (k != SG_MEM_NONE) {
      g->lim[i] = limit_of(m, u, &x[u->rs1]);
      g->val[i] = x[u->rs2];
      if (g->lim[i].note == NOTE_LOAD)
        break; /* what it gives depends on where it reads (block_note) */
    }
    if (m->op[u->op].writes_x)
      seg_write(g, x, u->rd,
                transfer(m, x, u, m->cur.pc + 4ull * i, k != SG_MEM_NONE, (struct prov){0}));
  }
  g->e = i;
  const struct prov *entry = regs(m->cur.ws);
  g->nin = g->nout = 0;
  for (uint64_t r = g->read; r; r &= r - 1) {
    unsigned reg = (unsigned)__builtin_ctzll(r);
    g->in_reg[g->nin] = (uint8_t)reg;
    g->in[g->nin++] = entry[reg];
  }
  for (uint64_t r = g->written; r; r &= r - 1) {
    unsigned reg = (unsigned)__builtin_ctzll(r);
    g->out_reg[g->nout] = (uint8_t)reg;
    g->out[g->nout++] = x[reg];
  }
}

/* Works out the effect of the current block's instructions from s on,
 * from the warp's provenance now (see struct seg). NULL without memory. */
static struct seg *seg_make(struct sg_check_memory *m, uint32_t s) {
  uint32_t len = m->cur.len;
  if (m->nsegs >= SEG_MAX)
    segs_clear(m);
  struct seg *g = malloc(sizeof *g + len * (sizeof *g->lim + sizeof *g->val));
  if (!g)
    return NULL;
  g->lim = (struct sg_block_limit *)(g + 1);
  g->val = (struct prov *)(g->lim + len);
  g->s = s;
  g->pc = m->cur.pc + 4ull * s;
  g->read = g->written = 0;
  g->partial = m->cur.partial;
  struct prov x[SG_NXREGS];
  memcpy(x, regs(m->cur.ws), sizeof x);
  seg_run(m, g, s, x);
  struct seg **b = &m->bucket[(g->pc >> 2) % SEG_BUCKETS];
  g->next = *b;
  *b = g;
  m->nsegs++;
  return g;
}

/* The effect of the current block from instruction s on, for the warp's
 * provenance now: a known one (moved to the front of its bucket), else a
 * new one. */
static struct seg *seg_find(struct sg_check_memory *m, uint32_t s) {
  const struct prov *x = regs(m->cur.ws);
  uint64_t pc = m->cur.pc + 4ull * s;
  struct seg **b = &m->bucket[(pc >> 2) % SEG_BUCKETS];
  for (struct seg **p = b, *g; (g = *p); p = &g->next) {
    if (g->pc != pc || g->partial != m->cur.partial)
      continue;
    uint32_t i = 0;
    while (i < g->nin && !memcmp(&x[g->in_reg[i]], &g->in[i], sizeof g->in[i]))
      i++;
    if (i == g->nin) {
      *p = g->next;
      g->next = *b;
      *b = g;
      return g;
    }
  }
  return seg_make(m, s);
}

static void seg_apply(struct prov *x, const struct seg *g) {
  for (uint32_t i = 0; i < g->nout; i++)
    x[g->out_reg[i]] = g->out[i];
}

/* Brings the warp's provenance to before instruction `to` of the run in
 * progress, one instruction at a time (rare: the block stopped, or an ld
 * read elsewhere than when the run was worked out). Its lds gave what the
 * run says (an ld that did not stopped it or started another run), and its
 * stores to the stack were noted as they ran. */
static void seg_partial(struct sg_check_memory *m, const struct seg *g, uint32_t to) {
  for (uint32_t i = g->s; i < to; i++) {
    const struct sg_uop *u = &m->cur.uops[i];
    enum sg_mem_kind k = m->op[u->op].mem;
    bool learned = k != SG_MEM_NONE && g->lim[i].note == NOTE_LOAD;
    if (m->op[u->op].writes_x)
      write(m->cur.ws, u->rd,
            transfer(m, regs(m->cur.ws), u, m->cur.pc + 4ull * i, k != SG_MEM_NONE,
                     learned ? g->val[i] : (struct prov){0}),
            m->cur.mask);
  }
}

static const struct sg_block_limit *block_enter(struct sg_hook *h, uint32_t warp, uint64_t pc,
                                                const struct sg_uop *uops, uint32_t len,
                                                uint64_t time, uint64_t mask) {
  struct sg_check_memory *m = (struct sg_check_memory *)h;
  (void)time;
  if (warp >= m->max_warps || !m->l)
    return NULL;
  struct warp_shadow *ws = &m->warps[warp];
  ws->lanes |= mask;
  m->cur.mask = mask;
  m->cur.partial = mask != ws->lanes;
  m->cur.ws = ws;
  m->cur.warp = warp;
  m->cur.pc = pc;
  m->cur.uops = uops;
  m->cur.len = len;
  m->cur.step = ws->st ? find_step(m, ws->st, pc, m->cur.partial) : NULL;
  m->cur.seg = m->cur.step ? m->cur.step->seg : seg_find(m, 0);
  return m->cur.seg ? m->cur.seg->lim : NULL;
}

/* What an ld of a pointer of no object gives (load_prov), from its span:
 * when the lanes are not all at the lowest lane's address they must all be
 * in the stacks; false where the span cannot tell (the interpreter runs it). */
static bool span_load(struct sg_check_memory *m, const struct sg_block_access *a, struct prov *p) {
  const struct sg_check_launch *l = m->l;
  *p = (struct prov){0};
  if (a->lo == a->hi || (in_stacks(l, a->lo) && in_stacks(l, a->hi)))
    *p = slot_prov(m, m->cur.warp, a->lane, a->first);
  else if ((in_stacks(l, a->lo) || a->lo == a->first) && (in_stacks(l, a->hi) || a->hi == a->first))
    return false;
  return true;
}

static const struct sg_block_limit *block_note(struct sg_hook *h, const struct sg_block_access *a) {
  struct sg_check_memory *m = (struct sg_check_memory *)h;
  struct seg *g = m->cur.seg;
  uint32_t i = a->index;
  switch (g->lim[i].note) {
  case NOTE_STORE:
    stack_store(m, m->cur.warp, a->lane, a->first, a->uop, m->cur.mask, m->cur.ws, &g->val[i]);
    return g->lim;
  case NOTE_LOAD: {
    struct prov p;
    if (!span_load(m, a, &p))
      return NULL;
    if (i == g->e) {
      /* The first time the run gets here: what the ld gives is part of the
       * run from now on. Warps that read it at the same address outside
       * the stacks (a kernel argument) get the same, so they need not say. */
      g->val[i] = p;
      g->lim[i].quiet = a->lo == a->hi && !in_stacks(m->l, a->lo) ? a->lo : 0;
      struct prov x[SG_NXREGS];
      memcpy(x, regs(m->cur.ws), sizeof x);
      seg_apply(x, g);
      seg_write(g, x, a->uop->rd, p);
      seg_run(m, g, i + 1, x);
      return g->lim;
    }
    if (!memcmp(&p, &g->val[i], sizeof p))
      return g->lim;
    /* It read elsewhere than when the run was worked out: a new run. */
    m->cur.step = NULL;
    seg_partial(m, g, i);
    write(m->cur.ws, a->uop->rd, p, m->cur.mask);
    m->cur.seg = seg_find(m, i + 1);
    return m->cur.seg ? m->cur.seg->lim : NULL;
  }
  default: /* NOTE_STOP */
    return NULL;
  }
}

static void block_leave(struct sg_hook *h, uint32_t ran, const struct sg_block_log *log) {
  struct sg_check_memory *m = (struct sg_check_memory *)h;
  (void)log;
  struct seg *g = m->cur.seg;
  struct warp_shadow *ws = m->cur.ws;
  if (!g)
    return;
  m->cur.seg = NULL;
  if (ran != g->e) {
    seg_partial(m, g, ran);
    return;
  }
  if (m->cur.step) {
    ws->st = m->cur.step->to;
    return;
  }
  /* A block run whole from a state: where that leads is a step of it. */
  struct state *from = g->s == 0 && g->e == m->cur.len ? ws->st : NULL;
  materialize(ws);
  seg_apply(ws->x, g);
  ws->written |= g->written;
  if (!from)
    return;
  if (m->nstates >= STATE_MAX) { /* (one more may be what fills the table) */
    segs_clear(m);
    return;
  }
  struct state *to = intern(m, ws->x);
  if (!to)
    return;
  *step_slot(m, from, m->cur.pc, m->cur.partial) = (struct step){
      .from = from, .pc = m->cur.pc, .partial = m->cur.partial, .seg = g, .to = to};
  ws->st = to;
}

static const struct sg_block_ops block_ops = {
    .enter = block_enter, .note = block_note, .leave = block_leave};

static void on_event(struct sg_hook *h, const struct sg_event *e) {
  struct sg_check_memory *m = (struct sg_check_memory *)h;
  if (e->kind != SG_EV_CTA_START)
    return;
  /* the CTA's warps (arg): a warp it does not have is cleared when a CTA
   * that has it starts */
  struct state *zero = zero_state(m);
  for (uint32_t w = 0; w < m->max_warps && w < e->arg; w++) {
    struct warp_shadow *ws = &m->warps[w];
    if (ws->stack_dirty)
      memset(m->stack + (size_t)w * m->stack_words, 0, m->stack_words * sizeof *m->stack);
    if (!ws->st) /* (clearing all of x was most of a CTA's start) */
      for (uint64_t r = ws->written; r; r &= r - 1)
        ws->x[__builtin_ctzll(r)] = (struct prov){0};
    else if (!zero) /* x is not kept in a state */
      memset(ws->x, 0, sizeof ws->x);
    ws->st = zero;
    ws->written = ws->lanes = 0;
    ws->stack_dirty = false;
  }
}

enum sg_status sg_check_memory_create(struct sg_core *core, uint32_t warp_size,
                                      struct sg_check_memory **out) {
  struct sg_check_memory *m = calloc(1, sizeof *m);
  if (!m)
    return SG_ENOMEM;
  m->hook.insn = on_insn;
  m->hook.event = on_event;
  m->hook.block = &block_ops;
  m->hook.events = SG_EV_BIT(SG_EV_CTA_START);
  for (unsigned op = 0; op < SG_OP_COUNT; op++) {
    uint32_t size;
    m->op[op].mem = (uint8_t)sg_op_access((enum sg_op)op, &size);
    m->op[op].size = (uint8_t)size;
    m->op[op].writes_x = sg_op_writes_x((enum sg_op)op);
    m->op[op].operands = (uint8_t)operand_count((enum sg_op)op);
  }
  m->core = core;
  m->warp_size = warp_size;
  *out = m;
  return SG_OK;
}

/* Is launch l's view the one the runs were worked out in? If not, it is
 * from now on (false). */
static bool same_view(struct sg_check_memory *m, const struct sg_check_launch *l) {
  size_t n = 3 * (size_t)l->num_objects + 2 * (size_t)l->num_slots, k = 0;
  if (n > m->view.cap) {
    uint64_t *w = realloc(m->view.words, n * sizeof *w);
    if (!w)
      return false;
    m->view.words = w;
    m->view.cap = n;
    m->view.num_objects = m->view.num_slots = UINT32_MAX; /* (words[] holds nothing) */
  }
  bool same = m->view.code == l->code && m->view.stack_base == l->stack_base &&
              m->view.stack_size == l->stack_size && m->view.num_objects == l->num_objects &&
              m->view.num_slots == l->num_slots;
  /* each word compared with the last view's while it is written */
  uint64_t *w = m->view.words;
#define WORD(v) (same = same && w[k] == (uint64_t)(v), w[k++] = (uint64_t)(v))
  for (uint32_t i = 0; i < l->num_objects; i++) {
    WORD(l->objects[i].base);
    WORD(l->objects[i].size);
    WORD(l->objects[i].local);
  }
  for (uint32_t i = 0; i < l->num_slots; i++) {
    WORD(l->slot_addr[i]);
    WORD(l->slot_object[i]);
  }
#undef WORD
  m->view.code = l->code;
  m->view.stack_base = l->stack_base;
  m->view.stack_size = l->stack_size;
  m->view.num_objects = l->num_objects;
  m->view.num_slots = l->num_slots;
  return same;
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
  }
  /* (the stacks' shadow of a warp is cleared when a CTA that has the
   * warp starts, on_event) */
  m->l = l;
  if (!same_view(m, l))
    segs_clear(m);
  return SG_OK;
}

struct sg_hook *sg_check_memory_hook(struct sg_check_memory *m) {
  return &m->hook;
}

void sg_check_memory_destroy(struct sg_check_memory *m) {
  if (!m)
    return;
  segs_clear(m);
  free(m->view.words);
  free(m->warps);
  free(m->stack);
  free(m);
}
