/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), execute: one switch over the pre-decoded
 * uops of a warp, each case a few lines under a one-line RTL comment. A warp
 * instruction runs over the active lanes; pure ALU ops take a full-mask loop
 * the C compiler vectorises. */
#define _GNU_SOURCE
#include "sg_fp.h"
#include "sg_sim_impl.h"

#include <math.h>
#include <stdio.h>

/* ---- Memory: translate through the memory map ------------------------- */

static const struct sg_region no_region; /* empty: the cache starts missing */

static const struct sg_region *find_region(const struct sg_memmap *m, uint64_t a) {
  uint32_t lo = 0, hi = m->count;
  while (lo < hi) { /* first region with base > a */
    uint32_t mid = lo + (hi - lo) / 2;
    if (m->regions[mid].base <= a)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo ? &m->regions[lo - 1] : &no_region;
}

static inline bool covers(const struct sg_region *r, uint64_t a, uint64_t size) {
  uint64_t off = a - r->base;
  return off < r->size && r->size - off >= size;
}

/* Host pointer for [a, a+size) with permissions perm, or NULL. */
static inline uint8_t *xlate(struct sg_cta_slot *cs, uint64_t a, uint64_t size, uint32_t perm) {
  const struct sg_region *r = cs->last;
  if (__builtin_expect(!covers(r, a, size), 0)) {
    r = find_region(&cs->mem, a);
    if (!covers(r, a, size))
      return NULL;
    cs->last = r;
  }
  return (r->perm & perm) == perm ? r->host + (a - r->base) : NULL;
}

/* Is [a, a+size) inside the private stack slot of lane `lane`? */
static inline bool own_slot(const struct sg_core *c, const struct sg_warp *w, unsigned lane,
                            uint64_t a, unsigned size) {
  const struct sg_cta_desc *d = w->cta->desc;
  uint64_t slot = d->stack_base + (uint64_t)(w->id * c->cfg.warp_size + lane) * d->stack_size;
  return a - slot < d->stack_size && d->stack_size - (a - slot) >= size;
}

/* The usual (coalesced) case: the active lanes' addresses lie in one region,
 * so one check covers the warp. Returns the host pointer of the lowest
 * address (*lo), or NULL to go lane by lane (access_lane). */
static inline uint8_t *xlate_span(struct sg_core *c, const struct sg_warp *w,
                                  const uint64_t *base, int64_t imm, uint64_t mask,
                                  unsigned size, uint32_t perm, uint64_t *lo, bool observed) {
  uint64_t min = UINT64_MAX, max = 0;
  unsigned ws = c->cfg.warp_size;
  if (observed) /* the record has them (note_mem) */
    min = c->rec.lo, max = c->rec.hi;
  else if (mask == (ws == 64 ? ~0ull : (1ull << ws) - 1)) /* a loop the compiler vectorises */
    for (unsigned l = 0; l < ws; l++) {
      uint64_t a = base[l] + imm;
      min = a < min ? a : min;
      max = a > max ? a : max;
    }
  else
    for (uint64_t m = mask; m; m &= m - 1) {
      uint64_t a = base[__builtin_ctzll(m)] + imm;
      min = a < min ? a : min;
      max = a > max ? a : max;
    }
  *lo = min;
  if (max - min > UINT32_MAX) /* far apart: not one region anyway */
    return NULL;
  uint8_t *h = xlate(w->cta, min, max - min + size, perm);
  if (h && __builtin_expect(w->cta->last->perm & SG_PERM_PRIVATE, 0))
    for (uint64_t m = mask; m; m &= m - 1)
      if (!own_slot(c, w, (unsigned)__builtin_ctzll(m), base[__builtin_ctzll(m)] + imm, size))
        return NULL;
  return h;
}

/* " (12 bytes past the end of buffer arg 1, 256 bytes)": where an unmapped
 * address lies relative to the mapping below it. */
static void locate(const struct sg_cta_slot *cs, uint64_t a, char *buf, size_t len) {
  const struct sg_region *r = find_region(&cs->mem, a);
  if (a < 0x1000)
    snprintf(buf, len, " (the null page)");
  else if (r->size && a >= r->base + r->size && a - (r->base + r->size) < (1ull << 20))
    snprintf(buf, len, " (%llu bytes past the end of %s (%llu bytes))",
             (unsigned long long)(a - (r->base + r->size)), r->name ? r->name : "a mapping",
             (unsigned long long)r->size);
  else
    buf[0] = 0;
}

/* One lane's access when the warp's fast check failed: translates it and
 * reports whatever is wrong under the diagnostics rule (sg_fault.def).
 * Returns the host pointer to use, or NULL to skip the access (a load then
 * reads zero); *stop is set when the CTA must end. */
static uint8_t *access_lane(struct sg_core *c, const struct sg_warp *w, uint64_t pc,
                            unsigned lane, uint64_t a, unsigned size, uint32_t perm,
                            const char *what, bool *stop) {
  const struct sg_cta_desc *d = w->cta->desc;
  const struct sg_region *r = find_region(&w->cta->mem, a);
  uint64_t stack_end = d->stack_base + (uint64_t)d->num_threads * d->stack_size;
  char where[96];
  bool go_on;
  if (covers(r, a, size) && (r->perm & SG_PERM_PRIVATE) && !own_slot(c, w, lane, a, size)) {
    go_on = sg_core_report(c, w, SG_FAULT_STACK_OVERFLOW, pc, lane, a, size,
                           "%s of %u bytes at 0x%llx outside the work-item's private stack "
                           "(another work-item's stack)",
                           what, size, (unsigned long long)a);
  } else if (covers(r, a, size)) {
    uint8_t *h = r->host + (a - r->base);
    if ((r->perm & perm) == perm)
      return h;
    if ((perm & SG_PERM_R) && (r->perm & SG_PERM_LOAD_REPORTED)) {
      go_on = sg_core_report(c, w, SG_FAULT_WRITE_ONLY_BUFFER, pc, lane, a, size,
                             "%s of %u bytes from a write-only buffer at 0x%llx (%s)", what,
                             size, (unsigned long long)a, r->name ? r->name : "?");
      *stop = !go_on;
      return go_on && (r->perm & perm & ~SG_PERM_R) == (perm & ~SG_PERM_R) ? h : NULL;
    }
    bool lands = (perm & SG_PERM_W) && (r->perm & SG_PERM_STORE_REPORTED);
    go_on = sg_core_report(c, w, lands ? SG_FAULT_READ_ONLY_BUFFER : SG_FAULT_READ_ONLY, pc,
                           lane, a, size, "%s of %u bytes to %s at 0x%llx (%s)", what, size,
                           lands ? "a read-only buffer" : "read-only memory",
                           (unsigned long long)a, r->name ? r->name : "?");
    if (lands && go_on)
      return h;
  } else if (a + size > d->stack_base - d->stack_size && a < stack_end + d->stack_size) {
    go_on = sg_core_report(c, w, SG_FAULT_STACK_OVERFLOW, pc, lane, a, size,
                           "%s of %u bytes at 0x%llx %s the private stacks", what, size,
                           (unsigned long long)a, a < d->stack_base ? "below" : "above");
  } else {
    locate(w->cta, a, where, sizeof where);
    go_on = sg_core_report(c, w, SG_FAULT_UNMAPPED, pc, lane, a, size,
                           "%s of %u bytes at unmapped address 0x%llx%s", what, size,
                           (unsigned long long)a, where);
  }
  *stop = !go_on;
  return NULL;
}

uint8_t *sg_core_access(struct sg_core *c, const struct sg_warp *w, uint64_t pc, unsigned lane,
                        uint64_t a, unsigned size, uint32_t perm, const char *what, bool *stop) {
  uint8_t *h = xlate(w->cta, a, size, perm);
  if (h && (!(w->cta->last->perm & SG_PERM_PRIVATE) || own_slot(c, w, lane, a, size)))
    return h;
  return access_lane(c, w, pc, lane, a, size, perm, what, stop);
}

/* AMO / LR / SC address: aligned (else fatal), mapped, readable and writable. */
static void *amo_ptr(struct sg_core *c, const struct sg_warp *w, uint64_t pc, unsigned lane,
                     uint64_t a, unsigned size, bool *stop) {
  if (a & (size - 1)) {
    *stop = !sg_core_report(c, w, SG_FAULT_MISALIGNED, pc, lane, a, size,
                            "misaligned %u-byte atomic at address 0x%llx", size,
                            (unsigned long long)a);
    return NULL;
  }
  uint8_t *h = xlate(w->cta, a, size, SG_PERM_R | SG_PERM_W);
  if (h && (!(w->cta->last->perm & SG_PERM_PRIVATE) || own_slot(c, w, lane, a, size)))
    return h;
  return access_lane(c, w, pc, lane, a, size, SG_PERM_R | SG_PERM_W, "atomic", stop);
}

/* What memory holding m holds after AMO op with operand s (.w: the low
 * 32 bits of each). */
static uint64_t amo_step(enum sg_op op, uint64_t m, uint64_t s) {
  uint32_t m32 = (uint32_t)m, s32 = (uint32_t)s;
  switch (op) {
  case SG_OP_AMOSWAP_W: return s32;
  case SG_OP_AMOADD_W: return m32 + s32;
  case SG_OP_AMOXOR_W: return m32 ^ s32;
  case SG_OP_AMOAND_W: return m32 & s32;
  case SG_OP_AMOOR_W: return m32 | s32;
  case SG_OP_AMOMIN_W: return (int32_t)s32 < (int32_t)m32 ? s32 : m32;
  case SG_OP_AMOMAX_W: return (int32_t)s32 > (int32_t)m32 ? s32 : m32;
  case SG_OP_AMOMINU_W: return s32 < m32 ? s32 : m32;
  case SG_OP_AMOMAXU_W: return s32 > m32 ? s32 : m32;
  case SG_OP_AMOSWAP_D: return s;
  case SG_OP_AMOADD_D: return m + s;
  case SG_OP_AMOXOR_D: return m ^ s;
  case SG_OP_AMOAND_D: return m & s;
  case SG_OP_AMOOR_D: return m | s;
  case SG_OP_AMOMIN_D: return (int64_t)s < (int64_t)m ? s : m;
  case SG_OP_AMOMAX_D: return (int64_t)s > (int64_t)m ? s : m;
  case SG_OP_AMOMINU_D: return s < m ? s : m;
  default: return s > m ? s : m; /* AMOMAXU_D */
  }
}

/* AMO op (min or max: the host has no instruction for them) on the word
 * at p, by compare-and-swap; the word it held. */
#define AMO_CAS(NAME, T)                                                                  \
  static T NAME(T *p, enum sg_op op, T s) {                                               \
    T o = __atomic_load_n(p, __ATOMIC_RELAXED);                                           \
    while (!__atomic_compare_exchange_n(p, &o, (T)amo_step(op, o, s), true, __ATOMIC_SEQ_CST, \
                                        __ATOMIC_RELAXED))                                \
      ;                                                                                   \
    return o;                                                                             \
  }
AMO_CAS(amo_cas32, uint32_t)
AMO_CAS(amo_cas64, uint64_t)

#define SX32(v) ((uint64_t)(int64_t)(int32_t)(uint32_t)(v))

/* One lane of an AMO, LR or SC at host pointer p (NULL: the lane's access
 * was a survivable finding: an AMO or LR reads zero, an SC fails); returns
 * the lane's rd (.w results sign-extended). */
static uint64_t atomic_lane(struct sg_warp *w, enum sg_op op, unsigned l, void *p, uint64_t addr,
                            uint64_t src) {
  uint32_t *p32 = p, s32 = (uint32_t)src;
  uint64_t *p64 = p, bit = 1ull << l;
  switch (op) {
  case SG_OP_LR_W:
  case SG_OP_LR_D:
    w->lr_addr[l] = addr;
    w->lr_val[l] = !p ? 0 : op == SG_OP_LR_W ? __atomic_load_n(p32, __ATOMIC_SEQ_CST)
                                             : __atomic_load_n(p64, __ATOMIC_SEQ_CST);
    w->lr_valid = (w->lr_valid & ~bit) | (p ? bit : 0);
    return op == SG_OP_LR_W ? SX32(w->lr_val[l]) : w->lr_val[l];
  case SG_OP_SC_W:
  case SG_OP_SC_D: {
    /* compare-and-swap against the value the lane's LR read */
    bool ok = p && (w->lr_valid & bit) && w->lr_addr[l] == addr;
    uint32_t e32 = (uint32_t)w->lr_val[l];
    uint64_t e64 = w->lr_val[l];
    if (ok)
      ok = op == SG_OP_SC_W ? __atomic_compare_exchange_n(p32, &e32, s32, false, __ATOMIC_SEQ_CST,
                                                          __ATOMIC_SEQ_CST)
                            : __atomic_compare_exchange_n(p64, &e64, src, false, __ATOMIC_SEQ_CST,
                                                          __ATOMIC_SEQ_CST);
    w->lr_valid &= ~bit;
    return !ok;
  }
  default:
    break;
  }
  if (!p)
    return 0;
  switch (op) {
  case SG_OP_AMOSWAP_W: return SX32(__atomic_exchange_n(p32, s32, __ATOMIC_SEQ_CST));
  case SG_OP_AMOADD_W: return SX32(__atomic_fetch_add(p32, s32, __ATOMIC_SEQ_CST));
  case SG_OP_AMOXOR_W: return SX32(__atomic_fetch_xor(p32, s32, __ATOMIC_SEQ_CST));
  case SG_OP_AMOAND_W: return SX32(__atomic_fetch_and(p32, s32, __ATOMIC_SEQ_CST));
  case SG_OP_AMOOR_W: return SX32(__atomic_fetch_or(p32, s32, __ATOMIC_SEQ_CST));
  case SG_OP_AMOMIN_W: case SG_OP_AMOMAX_W: case SG_OP_AMOMINU_W: case SG_OP_AMOMAXU_W:
    return SX32(amo_cas32(p32, op, s32));
  case SG_OP_AMOSWAP_D: return __atomic_exchange_n(p64, src, __ATOMIC_SEQ_CST);
  case SG_OP_AMOADD_D: return __atomic_fetch_add(p64, src, __ATOMIC_SEQ_CST);
  case SG_OP_AMOXOR_D: return __atomic_fetch_xor(p64, src, __ATOMIC_SEQ_CST);
  case SG_OP_AMOAND_D: return __atomic_fetch_and(p64, src, __ATOMIC_SEQ_CST);
  case SG_OP_AMOOR_D: return __atomic_fetch_or(p64, src, __ATOMIC_SEQ_CST);
  default: return amo_cas64(p64, op, src); /* AMOMIN/MAX(U)_D: the decoder gives no other */
  }
}

/* AMO op (not LR/SC) by the lanes of mask on the word at a, host address
 * p: one host atomic for the warp, as a GPU's atomic unit combines them,
 * with each lane's result as if the lanes had gone one after another in
 * lane order, which is what the lane-by-lane path does (nothing may come
 * between them there either: each operation of the chain folds into the
 * next). */
static void atomic_combined(struct sg_warp *w, enum sg_op op, uint64_t mask, void *p, uint64_t a,
                            const uint64_t *src, uint64_t *rd, unsigned size) {
  unsigned first = (unsigned)__builtin_ctzll(mask);
  uint64_t total = src[first];
  for (uint64_t m = mask & (mask - 1); m; m &= m - 1)
    total = amo_step(op, total, src[__builtin_ctzll(m)]);
  uint64_t held = atomic_lane(w, op, first, p, a, total), out[SG_MAX_WARP_SIZE];
  for (uint64_t m = mask; m; m &= m - 1) { /* (rd may be rs2: read every src first) */
    unsigned l = (unsigned)__builtin_ctzll(m);
    out[l] = size == 4 ? SX32(held) : held;
    held = amo_step(op, held, src[l]);
  }
  for (uint64_t m = mask; m; m &= m - 1)
    rd[__builtin_ctzll(m)] = out[__builtin_ctzll(m)];
}

/* Do the active lanes of an AMO (not LR/SC: reservations are per lane) all
 * name one word, other than a lane's alone? */
static bool one_word(enum sg_op op, uint64_t mask, const uint64_t *addr) {
  if (op == SG_OP_LR_W || op == SG_OP_LR_D || op == SG_OP_SC_W || op == SG_OP_SC_D ||
      !(mask & (mask - 1)))
    return false;
  uint64_t a = addr[__builtin_ctzll(mask)];
  for (uint64_t m = mask & (mask - 1); m; m &= m - 1)
    if (addr[__builtin_ctzll(m)] != a)
      return false;
  return true;
}

/* The interpreter's AMO on one word (atomic_combined) where the word is
 * plainly valid; false, having done nothing, otherwise: the lane-by-lane
 * path reports the lanes' findings. */
static bool atomic_together(struct sg_warp *w, enum sg_op op, uint64_t mask, const uint64_t *addr,
                            const uint64_t *src, uint64_t *rd, unsigned size) {
  if (!one_word(op, mask, addr))
    return false;
  uint64_t a = addr[__builtin_ctzll(mask)];
  void *p = a & (size - 1) ? NULL : xlate(w->cta, a, size, SG_PERM_R | SG_PERM_W);
  if (!p || (w->cta->last->perm & SG_PERM_PRIVATE))
    return false;
  atomic_combined(w, op, mask, p, a, src, rd, size);
  return true;
}

void sg_exec_amo(struct sg_warp *w, uint32_t op, uint64_t mask, const uint64_t *addr,
                 const uint64_t *src, uint64_t *rd, uint8_t *h, uint64_t lo, uint32_t size) {
  if (one_word((enum sg_op)op, mask, addr)) {
    atomic_combined(w, (enum sg_op)op, mask, h, lo, src, rd, size);
    return;
  }
  for (uint64_t m = mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    rd[l] = atomic_lane(w, (enum sg_op)op, l, h + (addr[l] - lo), addr[l], src[l]);
  }
}

/* Is the instruction at pc sg.exit? */
static inline bool exits_at(const struct sg_code *code, uint64_t pc) {
  uint64_t idx = (pc - code->base) / 4;
  return pc >= code->base && idx < code->n && code->uops[idx].op == SG_OP_SG_EXIT;
}

/* ---- CSRs -------------------------------------------------------------- */

static uint64_t csr_read(const struct sg_core *c, const struct sg_warp *w, unsigned csr,
                         unsigned l, uint64_t now) {
  const struct sg_cta_desc *d = w->cta->desc;
  uint32_t t = w->id * c->cfg.warp_size + l;
  switch (csr) {
  case SG_CSR_FFLAGS: return w->fcsr[l] & 31;
  case SG_CSR_FRM: return w->fcsr[l] >> 5 & 7;
  case SG_CSR_FCSR: return w->fcsr[l] & 0xff;
  case SG_CSR_CYCLE: case SG_CSR_TIME: case SG_CSR_INSTRET: return now;
  case SG_CSR_LANE: return l;
  case SG_CSR_WARP: return w->id;
  case SG_CSR_WARPSIZE: return c->cfg.warp_size;
  case SG_CSR_NWARP: return d->num_warps;
  case SG_CSR_TID_X: return t % d->ntid[0];
  case SG_CSR_TID_Y: return t / d->ntid[0] % d->ntid[1];
  case SG_CSR_TID_Z: return t / d->ntid[0] / d->ntid[1];
  case SG_CSR_NTID_X: case SG_CSR_NTID_Y: case SG_CSR_NTID_Z: return d->ntid[csr - SG_CSR_NTID_X];
  case SG_CSR_CTAID_X: case SG_CSR_CTAID_Y: case SG_CSR_CTAID_Z: return d->ctaid[csr - SG_CSR_CTAID_X];
  case SG_CSR_NCTAID_X: case SG_CSR_NCTAID_Y: case SG_CSR_NCTAID_Z: return d->nctaid[csr - SG_CSR_NCTAID_X];
  case SG_CSR_PARAMS: return d->params_addr;
  case SG_CSR_CORE: return d->core_id;
  default: return t; /* SG_CSR_TIDLIN */
  }
}

/* Does a read of csr differ per lane (sg_csr.def)? */
static bool csr_per_lane(unsigned csr) {
  switch (csr) {
#define SG_CSR(name, num, text, per_lane) case num: return per_lane;
#include "sg_csr.def"
#undef SG_CSR
  default: return false;
  }
}

/* The local id in dimension dim of every active lane (what csr_read gives,
 * counted up lane by lane instead of divided out: every kernel reads it). */
static void tid_read(const struct sg_core *c, const struct sg_warp *w, unsigned dim,
                     uint64_t mask, uint64_t *rd) {
  const struct sg_cta_desc *d = w->cta->desc;
  unsigned ws = c->cfg.warp_size;
  uint32_t t = w->id * ws, n0 = d->ntid[0], n1 = d->ntid[1];
  uint32_t id[3] = {t % n0, t / n0 % n1, t / n0 / n1};
  for (unsigned l = 0; l < ws && mask >> l; l++) {
    if (mask >> l & 1)
      rd[l] = id[dim];
    if (++id[0] == n0) {
      id[0] = 0;
      if (++id[1] == n1)
        id[1] = 0, id[2]++;
    }
  }
}

/* csrrw / csrrs / csrrc and their immediate forms, lane by lane. Only the FP
 * CSRs are writable; a write elsewhere, or an unknown CSR, is illegal. */
static bool csr_exec(struct sg_core *c, struct sg_warp *w, const struct sg_uop *u, uint64_t mask,
                     uint64_t pc, uint64_t now) {
  unsigned csr = (unsigned)u->imm, kind = u->raw >> 12 & 3; /* 1 rw, 2 rs, 3 rc */
  bool write = kind == 1 || u->rs1 != 0, fp = csr >= SG_CSR_FFLAGS && csr <= SG_CSR_FCSR;
  if (u->raw == SG_UNIMP) { /* named for the first lane that executes it */
    sg_core_fault(c, w, SG_FAULT_TRAP, pc, (unsigned)__builtin_ctzll(mask), 0, 0,
                  "trap (unimp: __builtin_trap, or code the compiler proved unreachable)");
    return false;
  }
  if (!sg_csr_name(csr) || (write && !fp)) {
    sg_core_fault(c, w, SG_FAULT_ILLEGAL_INSN, pc, (unsigned)__builtin_ctzll(mask), 0, 0,
                  "%s of CSR 0x%x", sg_csr_name(csr) ? "write to read-only" : "access to unknown",
                  csr);
    return false;
  }
  if (!write) { /* a plain read (every SIMT CSR): only rd changes */
    if (csr >= SG_CSR_TID_X && csr <= SG_CSR_TID_Z) {
      tid_read(c, w, csr - SG_CSR_TID_X, mask, w->x[u->rd]);
      return true;
    }
    bool per_lane = csr_per_lane(csr);
    uint64_t v = per_lane ? 0 : csr_read(c, w, csr, 0, now);
    for (uint64_t m = mask; m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctzll(m);
      w->x[u->rd][l] = per_lane ? csr_read(c, w, csr, l, now) : v;
    }
    return true;
  }
  static const uint32_t field_mask[4] = {0, 31, 7 << 5, 0xff}, shift[4] = {0, 0, 5, 0};
  uint64_t frm_any = 0;
  for (uint64_t m = mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    uint64_t old = csr_read(c, w, csr, l, now);
    uint64_t src = (u->raw >> 14 & 1) ? u->rs1 : w->x[u->rs1][l];
    uint64_t v = kind == 1 ? src : kind == 2 ? old | src : old & ~src;
    if (write)
      w->fcsr[l] = (w->fcsr[l] & ~field_mask[csr]) | ((uint32_t)(v << shift[csr]) & field_mask[csr]);
    w->x[u->rd][l] = old;
  }
  for (unsigned l = 0; l < c->cfg.warp_size; l++)
    frm_any |= w->fcsr[l] >> 5;
  w->frm_any = frm_any != 0;
  return true;
}

/* ---- What translated blocks call (sg_jit.c) ----------------------------- */

/* xlate_span for the lanes of mask, whose lowest and highest addresses the
 * block computed: the same region and permission checks, and for the
 * private stacks the same check of each lane's own slot. */
uint8_t *sg_exec_span(struct sg_core *c, struct sg_warp *w, uint32_t rs1, int64_t imm,
                      uint32_t size, uint32_t perm, uint64_t lo, uint64_t hi, uint32_t slot,
                      uint64_t mask) {
  if (hi - lo > UINT32_MAX)
    return NULL;
  uint8_t *h = xlate(w->cta, lo, hi - lo + size, perm);
  if (h)
    w->cta->hit[slot % SG_JIT_SLOTS] = w->cta->last;
  if (h && __builtin_expect(w->cta->last->perm & SG_PERM_PRIVATE, 0))
    for (uint64_t m = mask; m; m &= m - 1)
      if (!own_slot(c, w, (unsigned)__builtin_ctzll(m), w->x[rs1][__builtin_ctzll(m)] + imm, size))
        return NULL;
  return h;
}

uint64_t sg_exec_csr_value(struct sg_core *c, struct sg_warp *w, uint32_t csr) {
  return csr_read(c, w, csr, 0, 0);
}

const struct sg_block_limit *sg_exec_note(struct sg_core *c, uint64_t pc, uint32_t index,
                                          uint64_t lo, uint64_t hi, uint32_t lane, uint64_t first) {
  struct sg_hook *h = c->block_hook;
  const struct sg_block_access a = {.pc = pc,
                                    .uop = &c->code->uops[(pc - c->code->base) / 4],
                                    .index = index,
                                    .lo = lo,
                                    .hi = hi,
                                    .lane = lane,
                                    .first = first};
  return h->block->note(h, &a);
}

/* ---- SFU --------------------------------------------------------------- */

#define SFU_CALL1(fn, a, b) fn(a)
#define SFU_CALL2(fn, a, b) fn(a, b)
static float sfu32(unsigned fn, float a, float b) {
  switch (fn) {
#define SG_SFU(name, num, arity, ffn, dfn) case num: return SFU_CALL##arity(ffn, a, b);
#include "sg_sfu.def"
#undef SG_SFU
  default: (void)b; return NAN; /* the decoder admits only sg_sfu.def numbers */
  }
}
static double sfu64(unsigned fn, double a, double b) {
  switch (fn) {
#define SG_SFU(name, num, arity, ffn, dfn) case num: return SFU_CALL##arity(dfn, a, b);
#include "sg_sfu.def"
#undef SG_SFU
  default: (void)b; return NAN;
  }
}

/* ---- The interpreter --------------------------------------------------- */

#define vmcase(op) case SG_OP_##op:
#define vmbreak break

/* Lanes are visited only through this: each set bit of the active mask. */
#define FOR_LANES(l) \
  for (uint64_t m_ = mask, l = 0; m_ && ((l = (uint64_t)__builtin_ctzll(m_)), 1); m_ &= m_ - 1)
#define ACTIVE(...) do { FOR_LANES(l) __VA_ARGS__; } while (0)
/* Side-effect-free ops: a plain loop when all lanes are active. */
#define EACH(l, ...)                                \
  do {                                              \
    if (mask == full)                               \
      for (unsigned l = 0; l < ws; l++) __VA_ARGS__; \
    else                                            \
      FOR_LANES(l) __VA_ARGS__;                     \
  } while (0)
#define ALU(...) EACH(l, xd[l] = (__VA_ARGS__))
#define FALU(...) EACH(l, fd[l] = (__VA_ARGS__))
#define FAULT() do { st = SG_WARP_FAULT; goto out; } while (0)
/* Where the running path stops, for when it runs again. */
#define PARK(p) ops->park(rs, (p), frame)
/* The observed build hands the finished instruction's record to the
 * consumers; memory instructions note their lanes' addresses first (rd may
 * be the base register). */
#define EMIT() do { if (observed && !emit_insn(c)) FAULT(); } while (0)
#define NOTE_MEM(kind, bytes) do { if (observed) note_mem(c, w, x1, imm, mask, kind, bytes); } while (0)
/* ... and the value each lane loaded or stored (zero-extended). */
#define NOTE_DATA(l, v)                                                   \
  do {                                                                    \
    if (observed) {                                                       \
      uint64_t d_ = 0;                                                    \
      memcpy(&d_, &(v), sizeof(v));                                       \
      c->rec.data[l] = d_;                                                \
    }                                                                     \
  } while (0)

#define X1 x1[l]
#define X2 x2[l]
#define S1 ((int64_t)x1[l])
#define S2 ((int64_t)x2[l])
#define F1S sg_f32(f1[l])
#define F2S sg_f32(f2[l])
#define F3S sg_f32(f3[l])
#define F1D sg_f64(f1[l])
#define F2D sg_f64(f2[l])
#define F3D sg_f64(f3[l])

/* Conditional branch: uniform outcomes just move the PC. */
#define BRANCH(cond)                                                      \
  do {                                                                    \
    uint64_t t_ = 0;                                                      \
    FOR_LANES(l) t_ |= (uint64_t)(cond) << l;                             \
    if (observed)                                                         \
      c->rec.taken = t_;                                                  \
    if (t_ == mask)                                                       \
      npc = pc + imm;                                                     \
    else if (t_) {                                                        \
      ops->diverge(rs, t_, pc + imm, npc, code->reconv[idx], frame, lp);  \
      if (observed)                                                       \
        c->rec.reconv_pc = code->reconv[idx];                             \
      EMIT();                                                             \
      goto reload;                                                        \
    }                                                                     \
  } while (0)

/* Loads and stores: one check for the warp, else lane by lane; a lane whose
 * access is a survivable finding reads zero or stores nothing. */
#define LOAD(T, ext)                                                      \
  do {                                                                    \
    uint64_t lo_;                                                         \
    NOTE_MEM(SG_MEM_LOAD, sizeof(T));                                     \
    const uint8_t *h_ = xlate_span(c, w, x1, imm, mask, sizeof(T), SG_PERM_R, &lo_, observed); \
    if (h_)                                                               \
      FOR_LANES(l) {                                                      \
        T v_;                                                             \
        memcpy(&v_, h_ + (x1[l] + imm - lo_), sizeof v_);                 \
        NOTE_DATA(l, v_);                                                 \
        ext;                                                              \
      }                                                                   \
    else                                                                  \
      FOR_LANES(l) {                                                      \
        bool stop_ = false;                                               \
        const uint8_t *p_ =                                               \
            access_lane(c, w, pc, l, x1[l] + imm, sizeof(T), SG_PERM_R, "load", &stop_); \
        T v_ = 0;                                                         \
        if (stop_)                                                        \
          FAULT();                                                        \
        if (p_)                                                           \
          memcpy(&v_, p_, sizeof v_);                                     \
        NOTE_DATA(l, v_);                                                 \
        ext;                                                              \
      }                                                                   \
  } while (0)
#define STORE(T, val)                                                     \
  do {                                                                    \
    uint64_t lo_;                                                         \
    NOTE_MEM(SG_MEM_STORE, sizeof(T));                                    \
    uint8_t *h_ = xlate_span(c, w, x1, imm, mask, sizeof(T), SG_PERM_W, &lo_, observed); \
    if (h_)                                                               \
      FOR_LANES(l) {                                                      \
        T v_ = (T)(val);                                                  \
        NOTE_DATA(l, v_);                                                 \
        memcpy(h_ + (x1[l] + imm - lo_), &v_, sizeof v_);                 \
      }                                                                   \
    else                                                                  \
      FOR_LANES(l) {                                                      \
        bool stop_ = false;                                               \
        uint8_t *p_ =                                                     \
            access_lane(c, w, pc, l, x1[l] + imm, sizeof(T), SG_PERM_W, "store", &stop_); \
        T v_ = (T)(val);                                                  \
        if (stop_)                                                        \
          FAULT();                                                        \
        NOTE_DATA(l, v_);                                                 \
        if (p_)                                                           \
          memcpy(p_, &v_, sizeof v_);                                     \
      }                                                                   \
  } while (0)
/* AMO, LR and SC, lane by lane through atomic_lane. With atomics deferred
 * (timing mode), one on global memory is only checked here and its
 * operands recorded: the timing model performs it at the L2, in a
 * deterministic order, through sg_core_atomic_complete. */
#define ATOMIC(T)                                                         \
  do {                                                                    \
    NOTE_MEM(SG_MEM_ATOMIC, sizeof(T));                                   \
    bool defer_ = observed && c->cfg.defer_global_atomics &&              \
                  c->rec.space == SG_SPACE_GLOBAL;                        \
    if (defer_ || !atomic_together(w, u->op, mask, x1, x2, xd, sizeof(T))) \
      FOR_LANES(l) {                                                      \
        bool stop_ = false;                                               \
        void *p_ = amo_ptr(c, w, pc, l, x1[l], sizeof(T), &stop_);        \
        if (stop_)                                                        \
          FAULT();                                                        \
        if (defer_)                                                       \
          c->rec.data[l] = x2[l];                                         \
        else                                                              \
          xd[l] = atomic_lane(w, u->op, l, p_, x1[l], x2[l]);             \
      }                                                                   \
    if (observed)                                                         \
      c->rec.deferred = defer_;                                           \
  } while (0)

/* FP ops on the host FPU: the plain loop in the default case (RNE, flags
 * unobservable), else lane by lane with the lane's rounding mode and flags. */
#define FP_RM(l, rm_)                                                     \
  unsigned rm_ = u->rm == SG_RM_DYN ? w->fcsr[l] >> 5 : u->rm;            \
  if (rm_ > SG_RMM) {                                                     \
    sg_core_fault(c, w, SG_FAULT_ILLEGAL_INSN, pc, (unsigned)l, 0, 0,     \
                  "invalid rounding mode %u", rm_);                       \
    FAULT();                                                              \
  }
#define FPH(W, fop, expr, a, b, c, src)                                   \
  do {                                                                    \
    if (fp_fast)                                                          \
      FALU(sg_canon##W(expr));                                            \
    else                                                                  \
      FOR_LANES(l) {                                                      \
        unsigned fl_ = 0;                                                 \
        FP_RM(l, rm_);                                                    \
        fd[l] = sg_canon##W(sg_fp_slow##W(fop, rm_, a, b, c, src, &fl_)); \
        w->fcsr[l] |= fl_;                                                \
      }                                                                   \
  } while (0)
/* FP ops done in software with explicit flags. */
#define FPSOFT(dst, ...)                                                  \
  FOR_LANES(l) {                                                          \
    unsigned fl_ = 0;                                                     \
    dst[l] = (__VA_ARGS__);                                               \
    w->fcsr[l] |= fl_;                                                    \
  }
#define FCVT_INT(v, sgn, bits)                                            \
  FOR_LANES(l) {                                                          \
    unsigned fl_ = 0;                                                     \
    FP_RM(l, rm_);                                                        \
    xd[l] = sg_fcvt_int(v, rm_, sgn, bits, &fl_);                         \
    w->fcsr[l] |= fl_;                                                    \
  }

/* The space of the region holding address a. */
static enum sg_space space_of(const struct sg_warp *w, uint64_t a) {
  const struct sg_region *reg = covers(w->cta->last, a, 1) ? w->cta->last
                                                            : find_region(&w->cta->mem, a);
  return covers(reg, a, 1) ? reg->space : SG_SPACE_NONE;
}

/* The record of an instruction that touches memory: its lanes' addresses,
 * the kind, and the space of the lowest active lane's region. */
static void note_mem(struct sg_core *c, struct sg_warp *w, const uint64_t *base, int64_t imm,
                     uint64_t mask, enum sg_mem_kind kind, uint32_t size) {
  struct sg_insn_record *r = &c->rec;
  unsigned ws = c->cfg.warp_size;
  if (mask == (ws == 64 ? ~0ull : (1ull << ws) - 1)) { /* (as in xlate_span) */
    uint64_t lo = UINT64_MAX, hi = 0, bits = 0;
    for (unsigned l = 0; l < ws; l++) {
      uint64_t a = r->addr[l] = base[l] + imm;
      lo = a < lo ? a : lo;
      hi = a > hi ? a : hi;
      bits |= a;
    }
    r->lo = lo, r->hi = hi, r->bits = bits;
  } else {
    for (uint64_t m = mask; m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctzll(m);
      r->addr[l] = base[l] + imm;
    }
    sg_record_span(r, mask);
  }
  r->mem = kind;
  r->size = size;
  r->space = space_of(w, r->lo);
}

/* ---- Consumers that follow translated blocks (sg_block_ops) ------------- */

const struct sg_block_limit sg_block_unlimited[SG_BLOCK_MAX] = {
    [0 ... SG_BLOCK_MAX - 1] = {.lo = 0, .span = UINT64_MAX}};

/* The limits block uops[0 .. len) at pc runs under on warp w (NULL: it
 * does not run): the consumers' own, of which one at most may limit it;
 * that one hears the block's notes. */
static const struct sg_block_limit *block_enter(struct sg_core *c, struct sg_warp *w, uint64_t pc,
                                                const struct sg_uop *uops, uint32_t len,
                                                uint64_t time, uint64_t mask) {
  const struct sg_block_limit *lim = sg_block_unlimited;
  c->block_hook = NULL;
  if (c->block_log)
    c->block_log->n = 0;
  for (uint32_t i = 0; i < c->nhooks; i++) {
    struct sg_hook *h = c->hooks[i];
    const struct sg_block_limit *l = h->block->enter(h, w->id, pc, uops, len, time, mask);
    if (l && l != sg_block_unlimited && lim != sg_block_unlimited)
      l = NULL; /* a second consumer that limits it */
    if (!l) { /* every enter has its leave */
      for (uint32_t k = 0; k <= i; k++)
        c->hooks[k]->block->leave(c->hooks[k], 0, NULL);
      return NULL;
    }
    if (l != sg_block_unlimited) {
      lim = l;
      c->block_hook = h;
    }
  }
  return lim;
}

/* The block ran its first `ran` instructions: the consumers hear it, with
 * the spaces its accesses went to in the log (the region of their lowest
 * address, an active lane's). */
static void block_leave(struct sg_core *c, const struct sg_warp *w, uint32_t ran) {
  struct sg_block_log *log = c->block_log;
  if (log)
    for (uint32_t i = 0; i < log->n; i++)
      log->mem[i].space = space_of(w, log->mem[i].lo);
  for (uint32_t i = 0; i < c->nhooks; i++) {
    struct sg_hook *h = c->hooks[i];
    h->block->leave(h, ran, h->block->accesses ? log : NULL);
  }
}

/* False when a consumer's finding ended the CTA. */
static bool emit_insn(struct sg_core *c) {
  for (uint32_t i = 0; i < c->nhooks; i++)
    if (c->hooks[i]->insn)
      c->hooks[i]->insn(c->hooks[i], &c->rec);
  return !c->stopped;
}

/* Hands what the policy logged to the consumers, at the CTA's time. */
static void flush_log(struct sg_core *c, const struct sg_warp *w, struct sg_reconv_log *log,
                      uint64_t time) {
  for (uint32_t i = 0; i < log->n; i++) {
    log->e[i].time = time;
    sg_core_emit(c, w->cta, w, &log->e[i]);
  }
  log->n = 0;
}

/* The warp has arrived at a barrier (every live lane waits at one): a
 * survivable finding when its paths wait at different barriers. */
static enum sg_warp_state arrive(struct sg_core *c, struct sg_warp *w, const struct sg_path *p,
                                 uint64_t live) {
  if (p->mask != live) {
    unsigned other = (unsigned)__builtin_ctzll(live & ~p->mask);
    if (!sg_core_report(c, w, SG_FAULT_BARRIER_SPLIT, p->pc, other, 0, 0,
                        "lanes 0x%llx of warp %u wait at this barrier, lanes 0x%llx of it "
                        "at another one or another call of it",
                        (unsigned long long)p->mask, w->id,
                        (unsigned long long)(live & ~p->mask)))
      return SG_WARP_FAULT;
  }
  w->barrier_pc = p->pc;
  return SG_WARP_BARRIER;
}

/* What the warp does next: READY with the path to run in *path, or the
 * state it reached (every lane exited, arrived at a barrier, deadlocked).
 * The policy's events go to the consumers when log is given. */
static enum sg_warp_state next_path(struct sg_core *c, struct sg_warp *w, struct sg_path *path,
                                    struct sg_reconv_log *log, uint64_t time) {
  uint64_t live = w->lanes & ~w->exited;
  enum sg_warp_state st = SG_WARP_READY;
  switch (c->reconv->next(w->reconv, live, path, log)) {
  case SG_NEXT_RUN:
    break;
  case SG_NEXT_DONE:
    st = SG_WARP_DONE;
    break;
  case SG_NEXT_BARRIER:
    st = arrive(c, w, path, live);
    break;
  case SG_NEXT_DEADLOCK: {
    unsigned other = (unsigned)__builtin_ctzll(live & ~path->mask);
    sg_core_fault(c, w, SG_FAULT_BARRIER_DEADLOCK, path->pc, other, 0, 0,
                  "barrier reached by lanes 0x%llx of warp %u while lane %u waits to "
                  "rejoin them",
                  (unsigned long long)path->mask, w->id, other);
    st = SG_WARP_FAULT;
    break;
  }
  }
  if (log)
    flush_log(c, w, log, time);
  return st;
}

enum sg_warp_state sg_warp_peek(struct sg_core *c, struct sg_warp *w, uint64_t *pc,
                                uint64_t *mask) {
  struct sg_reconv_log log;
  log.n = 0;
  struct sg_path path;
  enum sg_warp_state st =
      next_path(c, w, &path, c->nhooks ? &log : NULL, c->timed ? c->now : w->cta->insns);
  *pc = path.pc;
  *mask = path.mask;
  return st;
}

void sg_warp_atomics(struct sg_warp *w, const struct sg_insn_record *r) {
  const struct sg_uop *u = r->uop;
  for (uint64_t m = r->mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    /* checked when it issued: a lane whose address was a finding reads zero */
    void *p = xlate(w->cta, r->addr[l], r->size, SG_PERM_R | SG_PERM_W);
    w->x[u->rd][l] = atomic_lane(w, u->op, l, p, r->addr[l], r->data[l]);
  }
}

/* The interpreter, built twice from this source (sg_warp_run picks one per
 * call): `observed` false is the fast loop, true fills c->rec and hands it
 * and the policy's events to the consumers. */
static inline __attribute__((always_inline)) enum sg_warp_state
run_warp(struct sg_core *c, struct sg_warp *w, uint64_t budget, const bool observed) {
  const struct sg_code *code = c->code;
  const struct sg_reconv_ops *ops = c->reconv;
  void *rs = w->reconv;
  struct sg_cta_slot *cs = w->cta;
  const unsigned ws = c->cfg.warp_size;
  const uint64_t full = ws == 64 ? ~0ull : (1ull << ws) - 1;
  const uint64_t nbytes = code->n * 4;
  /* what the policy did, for consumers that want to know */
  const uint32_t policy_events = SG_EV_BIT(SG_EV_PATHS) | SG_EV_BIT(SG_EV_RECONVERGE) |
                                 SG_EV_BIT(SG_EV_PATH_SWITCH) | SG_EV_BIT(SG_EV_PATH_COUNT);
  struct sg_reconv_log log, *lp = observed && (c->events & policy_events) ? &log : NULL;
  log.n = 0; /* (not = {0}: zeroing the entries costs more than a short run) */
  struct sg_path path;
  uint64_t pc, mask, rpc, n = 0;
  uint32_t frame, rframe; /* call depth of the path and of its reconvergence point */
  enum sg_warp_state st = SG_WARP_READY;
  /* Translated blocks run full warps (sg_jit.c): in the fast loop, and in
   * the observed one when its consumer follows blocks (c->jit is NULL
   * otherwise, sg_core.c). */
  const struct sg_jit_entry *jit = c->jit;
  bool skip_jit = false; /* a block left early: the interpreter runs that instruction */

  if (observed) { /* the same for every instruction of this run */
    c->rec.cta = cs->index;
    c->rec.core = cs->desc->core_id;
    c->rec.warp = w->id;
  }
reload:
  st = next_path(c, w, &path, lp, c->timed ? c->now : cs->insns + n);
  if (st != SG_WARP_READY)
    goto out;
  pc = path.pc;
  mask = path.mask;
  rpc = path.reconv_pc;
  frame = path.frame;
  rframe = path.reconv_frame;
  while (n < budget) {
    uint64_t idx = pc - code->base;
    if (__builtin_expect(idx >= nbytes || (idx & 3), 0)) {
      PARK(pc);
      sg_core_fault(c, w, SG_FAULT_FETCH, pc, (unsigned)__builtin_ctzll(mask), 0, 0,
                    "jump to 0x%llx outside the code", (unsigned long long)pc);
      FAULT();
    }
    idx >>= 2;
    if (jit && !skip_jit) {
      const struct sg_jit_entry *e = &jit[idx];
      const struct sg_block_limit *lim = NULL;
      if (e->fn && e->len <= budget - n && !(e->dyn_rm && w->frm_any) &&
          (!observed ||
           (lim = block_enter(c, w, pc, &code->uops[idx], e->len, cs->insns + n, mask)))) {
        uint32_t k = e->fn(c, w, lim, mask), taken = k & SG_JIT_TAKEN;
        k &= ~SG_JIT_TAKEN;
        n += k;
        pc += taken ? 4ull * (k - 1) + (uint64_t)code->uops[idx + k - 1].imm : 4ull * k;
        if (observed) {
          block_leave(c, w, k);
          if (c->stopped) /* a consumer's finding ended the CTA */
            FAULT();
        }
        skip_jit = k < e->len;
        if (!skip_jit && code->uops[idx + k - 1].op == SG_OP_SG_EXIT) {
          w->exited |= mask;
          goto exited;
        }
        if (!skip_jit && pc == rpc && frame == rframe) { /* blocks end at reconvergence points */
          PARK(pc);
          goto reload;
        }
        continue;
      }
    }
    skip_jit = false;
    const struct sg_uop *u = &code->uops[idx];
    const int64_t imm = u->imm;
    uint64_t *xd = w->x[u->rd], *fd = w->f[u->rd & 31];
    const uint64_t *x1 = w->x[u->rs1], *x2 = w->x[u->rs2];
    const uint64_t *f1 = w->f[u->rs1], *f2 = w->f[u->rs2], *f3 = w->f[u->rs3];
    const bool fp_fast = !code->track_fflags && (u->rm == SG_RNE || (u->rm == SG_RM_DYN && !w->frm_any));
    uint64_t npc = pc + 4;
    if (observed) {
      struct sg_insn_record *r = &c->rec;
      r->time = c->timed ? c->now : cs->insns + n;
      r->pc = pc;
      r->uop = u;
      r->mask = mask;
      r->unit = u->unit;
      r->mem = SG_MEM_NONE;
      r->taken = 0;
      r->reconv_pc = 0;
    }
    n++;
    switch ((enum sg_op)u->op) {
    /* ---- RV64I ---- */
    vmcase(LUI)    /* rd = imm */           ALU((uint64_t)imm); vmbreak;
    vmcase(AUIPC)  /* rd = pc + imm */      ALU(pc + imm); vmbreak;
    vmcase(JAL)    /* rd = pc+4; pc += imm */
      ALU(pc + 4);
      npc = pc + imm;
      frame += u->rd != SG_XSINK; /* a call */
      vmbreak;
    vmcase(JALR) { /* rd = pc+4; pc = (rs1 + imm) & ~1, uniform over lanes */
      uint64_t t = (x1[__builtin_ctzll(mask)] + imm) & ~1ull, bad = 0;
      FOR_LANES(l) bad |= (uint64_t)(((x1[l] + imm) & ~1ull) != t) << l;
      if (bad) {
        sg_core_fault(c, w, SG_FAULT_DIVERGENT_JUMP, pc, (unsigned)__builtin_ctzll(bad), 0, 0,
                      "indirect jump whose lanes disagree on the target");
        FAULT();
      }
      ALU(pc + 4);
      npc = t;
      if (u->rd != SG_XSINK) {
        frame++; /* a call */
      } else if (sg_uop_flow(u) == SG_FLOW_RETURN) {
        frame--;
        /* Left the diverging function: wait for the siblings there, unless
         * all that is left is sg.exit (a kernel's early return) - waiting
         * would only hold lanes that are about to exit from a barrier. */
        if (rpc == SG_RECONV_RETURN && frame == rframe && !exits_at(code, t)) {
          ops->returned(rs, t);
          EMIT();
          goto reload;
        }
      }
      vmbreak;
    }
    vmcase(BEQ)    /* if rs1 == rs2: pc += imm */ BRANCH(X1 == X2); vmbreak;
    vmcase(BNE)    /* if rs1 != rs2: pc += imm */ BRANCH(X1 != X2); vmbreak;
    vmcase(BLT)    /* if rs1 <s rs2: pc += imm */ BRANCH(S1 < S2); vmbreak;
    vmcase(BGE)    /* if rs1 >=s rs2: pc += imm */ BRANCH(S1 >= S2); vmbreak;
    vmcase(BLTU)   /* if rs1 <u rs2: pc += imm */ BRANCH(X1 < X2); vmbreak;
    vmcase(BGEU)   /* if rs1 >=u rs2: pc += imm */ BRANCH(X1 >= X2); vmbreak;
    vmcase(LB)     /* rd = sext(M8[rs1 + imm]) */  LOAD(int8_t, xd[l] = (uint64_t)(int64_t)v_); vmbreak;
    vmcase(LH)     /* rd = sext(M16[rs1 + imm]) */ LOAD(int16_t, xd[l] = (uint64_t)(int64_t)v_); vmbreak;
    vmcase(LW)     /* rd = sext(M32[rs1 + imm]) */ LOAD(int32_t, xd[l] = (uint64_t)(int64_t)v_); vmbreak;
    vmcase(LD)     /* rd = M64[rs1 + imm] */       LOAD(uint64_t, xd[l] = v_); vmbreak;
    vmcase(LBU)    /* rd = zext(M8[rs1 + imm]) */  LOAD(uint8_t, xd[l] = v_); vmbreak;
    vmcase(LHU)    /* rd = zext(M16[rs1 + imm]) */ LOAD(uint16_t, xd[l] = v_); vmbreak;
    vmcase(LWU)    /* rd = zext(M32[rs1 + imm]) */ LOAD(uint32_t, xd[l] = v_); vmbreak;
    vmcase(SB)     /* M8[rs1 + imm] = rs2 */  STORE(uint8_t, X2); vmbreak;
    vmcase(SH)     /* M16[rs1 + imm] = rs2 */ STORE(uint16_t, X2); vmbreak;
    vmcase(SW)     /* M32[rs1 + imm] = rs2 */ STORE(uint32_t, X2); vmbreak;
    vmcase(SD)     /* M64[rs1 + imm] = rs2 */ STORE(uint64_t, X2); vmbreak;
    vmcase(ADDI)   /* rd = rs1 + imm */       ALU(X1 + imm); vmbreak;
    vmcase(SLTI)   /* rd = rs1 <s imm */      ALU(S1 < imm); vmbreak;
    vmcase(SLTIU)  /* rd = rs1 <u imm */      ALU(X1 < (uint64_t)imm); vmbreak;
    vmcase(XORI)   /* rd = rs1 ^ imm */       ALU(X1 ^ imm); vmbreak;
    vmcase(ORI)    /* rd = rs1 | imm */       ALU(X1 | imm); vmbreak;
    vmcase(ANDI)   /* rd = rs1 & imm */       ALU(X1 & imm); vmbreak;
    vmcase(SLLI)   /* rd = rs1 << shamt */    ALU(X1 << imm); vmbreak;
    vmcase(SRLI)   /* rd = rs1 >>u shamt */   ALU(X1 >> imm); vmbreak;
    vmcase(SRAI)   /* rd = rs1 >>s shamt */   ALU((uint64_t)(S1 >> imm)); vmbreak;
    vmcase(ADD)    /* rd = rs1 + rs2 */       ALU(X1 + X2); vmbreak;
    vmcase(SUB)    /* rd = rs1 - rs2 */       ALU(X1 - X2); vmbreak;
    vmcase(SLL)    /* rd = rs1 << rs2[5:0] */ ALU(X1 << (X2 & 63)); vmbreak;
    vmcase(SLT)    /* rd = rs1 <s rs2 */      ALU(S1 < S2); vmbreak;
    vmcase(SLTU)   /* rd = rs1 <u rs2 */      ALU(X1 < X2); vmbreak;
    vmcase(XOR)    /* rd = rs1 ^ rs2 */       ALU(X1 ^ X2); vmbreak;
    vmcase(SRL)    /* rd = rs1 >>u rs2[5:0] */ ALU(X1 >> (X2 & 63)); vmbreak;
    vmcase(SRA)    /* rd = rs1 >>s rs2[5:0] */ ALU((uint64_t)(S1 >> (X2 & 63))); vmbreak;
    vmcase(OR)     /* rd = rs1 | rs2 */       ALU(X1 | X2); vmbreak;
    vmcase(AND)    /* rd = rs1 & rs2 */       ALU(X1 & X2); vmbreak;
    vmcase(ADDIW)  /* rd = sext32(rs1 + imm) */         ALU(SX32(X1 + imm)); vmbreak;
    vmcase(SLLIW)  /* rd = sext32(rs1[31:0] << shamt) */ ALU(SX32((uint32_t)X1 << imm)); vmbreak;
    vmcase(SRLIW)  /* rd = sext32(rs1[31:0] >>u shamt) */ ALU(SX32((uint32_t)X1 >> imm)); vmbreak;
    vmcase(SRAIW)  /* rd = sext32(rs1[31:0] >>s shamt) */ ALU(SX32((int32_t)X1 >> imm)); vmbreak;
    vmcase(ADDW)   /* rd = sext32(rs1 + rs2) */           ALU(SX32(X1 + X2)); vmbreak;
    vmcase(SUBW)   /* rd = sext32(rs1 - rs2) */           ALU(SX32(X1 - X2)); vmbreak;
    vmcase(SLLW)   /* rd = sext32(rs1 << rs2[4:0]) */     ALU(SX32((uint32_t)X1 << (X2 & 31))); vmbreak;
    vmcase(SRLW)   /* rd = sext32(rs1[31:0] >>u rs2[4:0]) */ ALU(SX32((uint32_t)X1 >> (X2 & 31))); vmbreak;
    vmcase(SRAW)   /* rd = sext32(rs1[31:0] >>s rs2[4:0]) */ ALU(SX32((int32_t)X1 >> (X2 & 31))); vmbreak;
    vmcase(FENCE)  /* order memory accesses: other CTAs run on other host threads */
      __atomic_thread_fence(__ATOMIC_SEQ_CST); vmbreak;
    vmcase(FENCE_I) /* code is never written */ vmbreak;
    vmcase(EBREAK) /* trap (__builtin_debugtrap) */
      sg_core_fault(c, w, SG_FAULT_TRAP, pc, (unsigned)__builtin_ctzll(mask), 0, 0,
                    "trap (ebreak)");
      FAULT();
    vmcase(ECALL) vmcase(ILLEGAL) /* no system to call */
      sg_core_fault(c, w, SG_FAULT_ILLEGAL_INSN, pc, (unsigned)__builtin_ctzll(mask), 0, 0,
                    "illegal instruction 0x%08x (%s)", u->raw, sg_op_name(u->op));
      FAULT();
    vmcase(CSRRW) vmcase(CSRRS) vmcase(CSRRC) vmcase(CSRRWI) vmcase(CSRRSI) vmcase(CSRRCI)
      /* rd = csr; csr = rs1 / csr | rs1 / csr & ~rs1 (FP CSRs only) */
      if (!csr_exec(c, w, u, mask, pc, cs->insns + n))
        FAULT();
      vmbreak;
    /* ---- M: division by zero and overflow as the spec tabulates ---- */
    vmcase(MUL)    /* rd = rs1 * rs2 */             ALU(X1 * X2); vmbreak;
    vmcase(MULH)   /* rd = (rs1 *s rs2) >> 64 */     ALU((uint64_t)((__int128)S1 * S2 >> 64)); vmbreak;
    vmcase(MULHSU) /* rd = (rs1 *su rs2) >> 64 */    ALU((uint64_t)((__int128)S1 * (__int128)X2 >> 64)); vmbreak;
    vmcase(MULHU)  /* rd = (rs1 *u rs2) >> 64 */     ALU((uint64_t)((unsigned __int128)X1 * X2 >> 64)); vmbreak;
    vmcase(DIV)    /* rd = rs1 /s rs2 (x/0 = -1, MIN/-1 = MIN) */
      ACTIVE(xd[l] = X2 == 0 ? ~0ull : (S1 == INT64_MIN && S2 == -1) ? X1 : (uint64_t)(S1 / S2)); vmbreak;
    vmcase(DIVU)   /* rd = rs1 /u rs2 (x/0 = ~0) */  ACTIVE(xd[l] = X2 == 0 ? ~0ull : X1 / X2); vmbreak;
    vmcase(REM)    /* rd = rs1 %s rs2 (x%0 = x, MIN%-1 = 0) */
      ACTIVE(xd[l] = X2 == 0 ? X1 : S2 == -1 ? 0 : (uint64_t)(S1 % S2)); vmbreak;
    vmcase(REMU)   /* rd = rs1 %u rs2 (x%0 = x) */   ACTIVE(xd[l] = X2 == 0 ? X1 : X1 % X2); vmbreak;
    vmcase(MULW)   /* rd = sext32(rs1 * rs2) */      ALU(SX32(X1 * X2)); vmbreak;
    vmcase(DIVW)   /* rd = sext32(rs1 /s rs2), 32-bit */
      ACTIVE(xd[l] = (int32_t)X2 == 0 ? ~0ull : ((int32_t)X1 == INT32_MIN && (int32_t)X2 == -1) ? SX32(X1) : SX32((int32_t)X1 / (int32_t)X2)); vmbreak;
    vmcase(DIVUW)  /* rd = sext32(rs1 /u rs2), 32-bit */
      ACTIVE(xd[l] = (uint32_t)X2 == 0 ? ~0ull : SX32((uint32_t)X1 / (uint32_t)X2)); vmbreak;
    vmcase(REMW)   /* rd = sext32(rs1 %s rs2), 32-bit */
      ACTIVE(xd[l] = (int32_t)X2 == 0 ? SX32(X1) : (int32_t)X2 == -1 ? 0 : SX32((int32_t)X1 % (int32_t)X2)); vmbreak;
    vmcase(REMUW)  /* rd = sext32(rs1 %u rs2), 32-bit */
      ACTIVE(xd[l] = (uint32_t)X2 == 0 ? SX32(X1) : SX32((uint32_t)X1 % (uint32_t)X2)); vmbreak;
    /* ---- A ---- */
    vmcase(LR_W)   /* rd = M32[rs1]; reserve */ ATOMIC(uint32_t); vmbreak;
    vmcase(LR_D)   /* rd = M64[rs1]; reserve */ ATOMIC(uint64_t); vmbreak;
    vmcase(SC_W)   /* M32[rs1] = rs2 if still reserved value; rd = failed */ ATOMIC(uint32_t); vmbreak;
    vmcase(SC_D)   /* M64[rs1] = rs2 if still reserved value; rd = failed */ ATOMIC(uint64_t); vmbreak;
    vmcase(AMOSWAP_W) /* rd = M32[rs1]; M32[rs1] = rs2 */ ATOMIC(uint32_t); vmbreak;
    vmcase(AMOADD_W)  /* rd = M32[rs1]; M32[rs1] += rs2 */ ATOMIC(uint32_t); vmbreak;
    vmcase(AMOXOR_W)  /* rd = M32[rs1]; M32[rs1] ^= rs2 */ ATOMIC(uint32_t); vmbreak;
    vmcase(AMOAND_W)  /* rd = M32[rs1]; M32[rs1] &= rs2 */ ATOMIC(uint32_t); vmbreak;
    vmcase(AMOOR_W)   /* rd = M32[rs1]; M32[rs1] |= rs2 */ ATOMIC(uint32_t); vmbreak;
    vmcase(AMOMIN_W)  /* rd = M32[rs1]; M32[rs1] = min_s */ ATOMIC(uint32_t); vmbreak;
    vmcase(AMOMAX_W)  /* rd = M32[rs1]; M32[rs1] = max_s */ ATOMIC(uint32_t); vmbreak;
    vmcase(AMOMINU_W) /* rd = M32[rs1]; M32[rs1] = min_u */ ATOMIC(uint32_t); vmbreak;
    vmcase(AMOMAXU_W) /* rd = M32[rs1]; M32[rs1] = max_u */ ATOMIC(uint32_t); vmbreak;
    vmcase(AMOSWAP_D) /* rd = M64[rs1]; M64[rs1] = rs2 */ ATOMIC(uint64_t); vmbreak;
    vmcase(AMOADD_D)  /* rd = M64[rs1]; M64[rs1] += rs2 */ ATOMIC(uint64_t); vmbreak;
    vmcase(AMOXOR_D)  /* rd = M64[rs1]; M64[rs1] ^= rs2 */ ATOMIC(uint64_t); vmbreak;
    vmcase(AMOAND_D)  /* rd = M64[rs1]; M64[rs1] &= rs2 */ ATOMIC(uint64_t); vmbreak;
    vmcase(AMOOR_D)   /* rd = M64[rs1]; M64[rs1] |= rs2 */ ATOMIC(uint64_t); vmbreak;
    vmcase(AMOMIN_D)  /* rd = M64[rs1]; M64[rs1] = min_s */ ATOMIC(uint64_t); vmbreak;
    vmcase(AMOMAX_D)  /* rd = M64[rs1]; M64[rs1] = max_s */ ATOMIC(uint64_t); vmbreak;
    vmcase(AMOMINU_D) /* rd = M64[rs1]; M64[rs1] = min_u */ ATOMIC(uint64_t); vmbreak;
    vmcase(AMOMAXU_D) /* rd = M64[rs1]; M64[rs1] = max_u */ ATOMIC(uint64_t); vmbreak;
    /* ---- F and D ---- */
    vmcase(FLW)    /* fd = box(M32[rs1 + imm]) */ LOAD(uint32_t, fd[l] = 0xffffffff00000000ull | v_); vmbreak;
    vmcase(FLD)    /* fd = M64[rs1 + imm] */      LOAD(uint64_t, fd[l] = v_); vmbreak;
    vmcase(FSW)    /* M32[rs1 + imm] = fs2[31:0] */ STORE(uint32_t, f2[l]); vmbreak;
    vmcase(FSD)    /* M64[rs1 + imm] = fs2 */      STORE(uint64_t, f2[l]); vmbreak;
    vmcase(FMADD_S)  /* fd = fs1 * fs2 + fs3 */    FPH(32, SG_FOP_FMA, fmaf(F1S, F2S, F3S), F1S, F2S, F3S, 0); vmbreak;
    vmcase(FMSUB_S)  /* fd = fs1 * fs2 - fs3 */    FPH(32, SG_FOP_FMA, fmaf(F1S, F2S, -F3S), F1S, F2S, -F3S, 0); vmbreak;
    vmcase(FNMSUB_S) /* fd = -(fs1 * fs2) + fs3 */ FPH(32, SG_FOP_FMA, fmaf(-F1S, F2S, F3S), -F1S, F2S, F3S, 0); vmbreak;
    vmcase(FNMADD_S) /* fd = -(fs1 * fs2) - fs3 */ FPH(32, SG_FOP_FMA, fmaf(-F1S, F2S, -F3S), -F1S, F2S, -F3S, 0); vmbreak;
    vmcase(FMADD_D)  /* fd = fs1 * fs2 + fs3 */    FPH(64, SG_FOP_FMA, fma(F1D, F2D, F3D), F1D, F2D, F3D, 0); vmbreak;
    vmcase(FMSUB_D)  /* fd = fs1 * fs2 - fs3 */    FPH(64, SG_FOP_FMA, fma(F1D, F2D, -F3D), F1D, F2D, -F3D, 0); vmbreak;
    vmcase(FNMSUB_D) /* fd = -(fs1 * fs2) + fs3 */ FPH(64, SG_FOP_FMA, fma(-F1D, F2D, F3D), -F1D, F2D, F3D, 0); vmbreak;
    vmcase(FNMADD_D) /* fd = -(fs1 * fs2) - fs3 */ FPH(64, SG_FOP_FMA, fma(-F1D, F2D, -F3D), -F1D, F2D, -F3D, 0); vmbreak;
    vmcase(FADD_S)   /* fd = fs1 + fs2 */ FPH(32, SG_FOP_ADD, F1S + F2S, F1S, F2S, 0, 0); vmbreak;
    vmcase(FSUB_S)   /* fd = fs1 - fs2 */ FPH(32, SG_FOP_SUB, F1S - F2S, F1S, F2S, 0, 0); vmbreak;
    vmcase(FMUL_S)   /* fd = fs1 * fs2 */ FPH(32, SG_FOP_MUL, F1S * F2S, F1S, F2S, 0, 0); vmbreak;
    vmcase(FDIV_S)   /* fd = fs1 / fs2 */ FPH(32, SG_FOP_DIV, F1S / F2S, F1S, F2S, 0, 0); vmbreak;
    vmcase(FSQRT_S)  /* fd = sqrt(fs1) */ FPH(32, SG_FOP_SQRT, sqrtf(F1S), F1S, 0, 0, 0); vmbreak;
    vmcase(FADD_D)   /* fd = fs1 + fs2 */ FPH(64, SG_FOP_ADD, F1D + F2D, F1D, F2D, 0, 0); vmbreak;
    vmcase(FSUB_D)   /* fd = fs1 - fs2 */ FPH(64, SG_FOP_SUB, F1D - F2D, F1D, F2D, 0, 0); vmbreak;
    vmcase(FMUL_D)   /* fd = fs1 * fs2 */ FPH(64, SG_FOP_MUL, F1D * F2D, F1D, F2D, 0, 0); vmbreak;
    vmcase(FDIV_D)   /* fd = fs1 / fs2 */ FPH(64, SG_FOP_DIV, F1D / F2D, F1D, F2D, 0, 0); vmbreak;
    vmcase(FSQRT_D)  /* fd = sqrt(fs1) */ FPH(64, SG_FOP_SQRT, sqrt(F1D), F1D, 0, 0, 0); vmbreak;
    vmcase(FSGNJ_S)  /* fd = {fs2[31], fs1[30:0]} */  FALU(0xffffffff00000000ull | (sg_unbox(f1[l]) & 0x7fffffffu) | (sg_unbox(f2[l]) & 0x80000000u)); vmbreak;
    vmcase(FSGNJN_S) /* fd = {~fs2[31], fs1[30:0]} */ FALU(0xffffffff00000000ull | (sg_unbox(f1[l]) & 0x7fffffffu) | (~sg_unbox(f2[l]) & 0x80000000u)); vmbreak;
    vmcase(FSGNJX_S) /* fd = fs1 ^ fs2[31] */         FALU(0xffffffff00000000ull | (sg_unbox(f1[l]) ^ (sg_unbox(f2[l]) & 0x80000000u))); vmbreak;
    vmcase(FSGNJ_D)  /* fd = {fs2[63], fs1[62:0]} */  FALU((f1[l] & ~(1ull << 63)) | (f2[l] & (1ull << 63))); vmbreak;
    vmcase(FSGNJN_D) /* fd = {~fs2[63], fs1[62:0]} */ FALU((f1[l] & ~(1ull << 63)) | (~f2[l] & (1ull << 63))); vmbreak;
    vmcase(FSGNJX_D) /* fd = fs1 ^ fs2[63] */         FALU(f1[l] ^ (f2[l] & (1ull << 63))); vmbreak;
    vmcase(FMIN_S)   /* fd = minimumNumber(fs1, fs2) */ FPSOFT(fd, sg_fminmax32(f1[l], f2[l], false, &fl_)); vmbreak;
    vmcase(FMAX_S)   /* fd = maximumNumber(fs1, fs2) */ FPSOFT(fd, sg_fminmax32(f1[l], f2[l], true, &fl_)); vmbreak;
    vmcase(FMIN_D)   /* fd = minimumNumber(fs1, fs2) */ FPSOFT(fd, sg_fminmax64(f1[l], f2[l], false, &fl_)); vmbreak;
    vmcase(FMAX_D)   /* fd = maximumNumber(fs1, fs2) */ FPSOFT(fd, sg_fminmax64(f1[l], f2[l], true, &fl_)); vmbreak;
    vmcase(FCVT_W_S)  /* rd = sext32(int32(fs1)), saturating */  FCVT_INT(F1S, true, 32); vmbreak;
    vmcase(FCVT_WU_S) /* rd = sext32(uint32(fs1)), saturating */ FCVT_INT(F1S, false, 32); vmbreak;
    vmcase(FCVT_L_S)  /* rd = int64(fs1), saturating */          FCVT_INT(F1S, true, 64); vmbreak;
    vmcase(FCVT_LU_S) /* rd = uint64(fs1), saturating */         FCVT_INT(F1S, false, 64); vmbreak;
    vmcase(FCVT_W_D)  /* rd = sext32(int32(fs1)), saturating */  FCVT_INT(F1D, true, 32); vmbreak;
    vmcase(FCVT_WU_D) /* rd = sext32(uint32(fs1)), saturating */ FCVT_INT(F1D, false, 32); vmbreak;
    vmcase(FCVT_L_D)  /* rd = int64(fs1), saturating */          FCVT_INT(F1D, true, 64); vmbreak;
    vmcase(FCVT_LU_D) /* rd = uint64(fs1), saturating */         FCVT_INT(F1D, false, 64); vmbreak;
    vmcase(FCVT_S_W)  /* fd = float(int32(rs1)) */  FPH(32, SG_FOP_CVT, (float)(int32_t)X1, 0, 0, 0, (int32_t)X1); vmbreak;
    vmcase(FCVT_S_WU) /* fd = float(uint32(rs1)) */ FPH(32, SG_FOP_CVT, (float)(uint32_t)X1, 0, 0, 0, (uint32_t)X1); vmbreak;
    vmcase(FCVT_S_L)  /* fd = float(int64(rs1)) */  FPH(32, SG_FOP_CVT, (float)S1, 0, 0, 0, S1); vmbreak;
    vmcase(FCVT_S_LU) /* fd = float(uint64(rs1)) */ FPH(32, SG_FOP_CVT, (float)X1, 0, 0, 0, X1); vmbreak;
    vmcase(FCVT_D_W)  /* fd = double(int32(rs1)) */  FPH(64, SG_FOP_CVT, (double)(int32_t)X1, 0, 0, 0, (int32_t)X1); vmbreak;
    vmcase(FCVT_D_WU) /* fd = double(uint32(rs1)) */ FPH(64, SG_FOP_CVT, (double)(uint32_t)X1, 0, 0, 0, (uint32_t)X1); vmbreak;
    vmcase(FCVT_D_L)  /* fd = double(int64(rs1)) */  FPH(64, SG_FOP_CVT, (double)S1, 0, 0, 0, S1); vmbreak;
    vmcase(FCVT_D_LU) /* fd = double(uint64(rs1)) */ FPH(64, SG_FOP_CVT, (double)X1, 0, 0, 0, X1); vmbreak;
    vmcase(FCVT_S_D)  /* fd = float(fs1) */
      FPH(32, SG_FOP_CVT, (float)F1D, 0, 0, 0, F1D);
      FOR_LANES(l) w->fcsr[l] |= sg_snan64(f1[l]) ? SG_FF_NV : 0; /* lost when widened */
      vmbreak;
    vmcase(FCVT_D_S)  /* fd = double(fs1) */
      FPH(64, SG_FOP_CVT, (double)F1S, 0, 0, 0, F1S);
      FOR_LANES(l) w->fcsr[l] |= sg_snan32(f1[l]) ? SG_FF_NV : 0;
      vmbreak;
    vmcase(FEQ_S)    /* rd = fs1 == fs2 (quiet) */ FPSOFT(xd, sg_fcmp(F1S, F2S, sg_snan32(f1[l]) || sg_snan32(f2[l]), 0, &fl_)); vmbreak;
    vmcase(FLT_S)    /* rd = fs1 < fs2 */          FPSOFT(xd, sg_fcmp(F1S, F2S, false, 1, &fl_)); vmbreak;
    vmcase(FLE_S)    /* rd = fs1 <= fs2 */         FPSOFT(xd, sg_fcmp(F1S, F2S, false, 2, &fl_)); vmbreak;
    vmcase(FEQ_D)    /* rd = fs1 == fs2 (quiet) */ FPSOFT(xd, sg_fcmp(F1D, F2D, sg_snan64(f1[l]) || sg_snan64(f2[l]), 0, &fl_)); vmbreak;
    vmcase(FLT_D)    /* rd = fs1 < fs2 */          FPSOFT(xd, sg_fcmp(F1D, F2D, false, 1, &fl_)); vmbreak;
    vmcase(FLE_D)    /* rd = fs1 <= fs2 */         FPSOFT(xd, sg_fcmp(F1D, F2D, false, 2, &fl_)); vmbreak;
    vmcase(FCLASS_S) /* rd = class bits of fs1 */ ALU(sg_fclass32(f1[l])); vmbreak;
    vmcase(FCLASS_D) /* rd = class bits of fs1 */ ALU(sg_fclass64(f1[l])); vmbreak;
    vmcase(FMV_X_W)  /* rd = sext32(fs1[31:0]) */ ALU(SX32(f1[l])); vmbreak;
    vmcase(FMV_W_X)  /* fd = box(rs1[31:0]) */    FALU(0xffffffff00000000ull | (uint32_t)X1); vmbreak;
    vmcase(FMV_X_D)  /* rd = fs1 */               ALU(f1[l]); vmbreak;
    vmcase(FMV_D_X)  /* fd = rs1 */               FALU(X1); vmbreak;
    /* ---- SIMT extension ---- */
    vmcase(SFU_S)    /* fd = sfu_fn(fs1 [, fs2]) in single */ FALU(sg_canon32(sfu32(u->rm, F1S, F2S))); vmbreak;
    vmcase(SFU_D)    /* fd = sfu_fn(fs1 [, fs2]) in double */ FALU(sg_canon64(sfu64(u->rm, F1D, F2D))); vmbreak;
    vmcase(TEX_SAMPLE) vmcase(TEX_SAMPLEI) vmcase(TEX_LOAD) vmcase(TEX_STORE)
      /* rd:rd+1 = image rs1 [rs2:rs2+1] through sampler rs3 / image rs1 [rs2:rs2+1] = rd:rd+1 */
      if (!sg_tex_exec(c, w, u, pc, mask, observed ? &c->rec : NULL))
        FAULT();
      vmbreak;
    vmcase(SG_BARRIER) /* wait for every unfinished warp of the CTA */
      if (observed) {
        c->rec.barrier = cs->slot;
        if (c->fence_flags)
          EACH(l, c->rec.data[l] = X1);
      }
      EMIT();
      PARK(pc);
      ops->wait(rs);
      goto reload;
    vmcase(SG_EXIT)  /* active lanes finish */
      w->exited |= mask;
      EMIT();
      pc = npc;
      /* (a block that ended with sg.exit goes on here) */
    exited:
      if (!lp && !(w->lanes & ~w->exited)) { /* the last ones: the policy has nothing to settle */
        st = SG_WARP_DONE;
        goto out;
      }
      PARK(pc);
      goto reload;
    vmcase(SG_VOTE_ANY) { /* rd = OR over active lanes of (rs1 != 0) */
      uint64_t v = 0;
      FOR_LANES(l) v |= X1 != 0;
      ALU(v);
      vmbreak;
    }
    vmcase(SG_VOTE_ALL) { /* rd = AND over active lanes of (rs1 != 0) */
      uint64_t v = 1;
      FOR_LANES(l) v &= X1 != 0;
      ALU(v);
      vmbreak;
    }
    vmcase(SG_BALLOT) { /* rd = mask of active lanes with rs1 != 0 */
      uint64_t v = 0;
      FOR_LANES(l) v |= (uint64_t)(X1 != 0) << l;
      ALU(v);
      vmbreak;
    }
    vmcase(SG_SHFL) { /* rd = rs1 of lane rs2 if active, else own rs1 */
      uint64_t t[SG_MAX_WARP_SIZE];
      FOR_LANES(l) t[l] = X2 < ws && (mask >> X2 & 1) ? x1[X2] : X1;
      ALU(t[l]);
      vmbreak;
    }
    vmcase(SG_MARK)  /* nothing: what it marks is for the consumers (sg_mark.def) */
      if (observed)
        ACTIVE(c->rec.data[l] = X1, c->rec.data2[l] = X2);
      vmbreak;
    case SG_OP_COUNT: /* not an op */
      vmbreak;
    }
    EMIT();
    pc = npc;
    if (pc == rpc && frame == rframe) { /* reached the reconvergence point */
      PARK(pc);
      goto reload;
    }
  }
  PARK(pc);
out:
  if (observed)
    flush_log(c, w, &log, cs->insns + n);
  cs->insns += n;
  return st;
}

enum sg_warp_state sg_warp_run(struct sg_core *c, struct sg_warp *w, uint64_t budget) {
  return c->nhooks ? run_warp(c, w, budget, true) : run_warp(c, w, budget, false);
}
