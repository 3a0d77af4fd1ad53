/* SPDX-License-Identifier: MIT */
/* Checkers (DESIGN.md section 4), uninitialized values (SOFTGPU_CHECK=uninit):
 * a shadow bit per byte of every register lane and of private and __local
 * memory says whether the byte was ever written. Private stacks and the
 * local window start uninitialized at each CTA; registers, global memory and
 * constants count as initialized. Copying uninitialized bytes is not a
 * finding (a struct's padding goes through registers and memory unseen);
 * using them is: a branch or jump on them, an address computed from them,
 * or a value stored to global memory all of whose bytes are uninitialized.
 * docs/checking.md describes the rules and their limits. */
#include "sg_sim_impl.h"

#include <stdlib.h>
#include <string.h>

struct sg_check_uninit {
  struct sg_hook hook;
  struct sg_core *core;
  const struct sg_check_launch *l;
  uint32_t warp_size, max_warps, max_threads;
  uint8_t (*x)[SG_NXREGS][SG_MAX_WARP_SIZE]; /* per warp: uninitialized bytes of x regs */
  uint8_t (*f)[32][SG_MAX_WARP_SIZE];
  uint8_t *priv;  /* per thread, per stack byte: 1 = uninitialized */
  uint32_t *low;  /* per thread: lowest stack offset written (reset at CTA start) */
  uint8_t *local; /* per local byte: 1 = uninitialized */
  uint64_t local_base, local_size;
};

/* The shadow byte of device address a for thread t, or NULL (initialized
 * memory: global, constant). */
static uint8_t *shadow_at(struct sg_check_uninit *u, uint32_t t, uint64_t a, uint32_t size) {
  const struct sg_check_launch *l = u->l;
  uint64_t off = a - l->stack_base;
  if (off < (uint64_t)u->max_threads * l->stack_size &&
      off + size <= (uint64_t)u->max_threads * l->stack_size) {
    uint32_t owner = (uint32_t)(off / l->stack_size), in = (uint32_t)(off % l->stack_size);
    if (in < u->low[owner])
      u->low[owner] = in;
    (void)t;
    return u->priv + off;
  }
  off = a - u->local_base;
  if (off < u->local_size && u->local_size - off >= size)
    return u->local + off;
  return NULL;
}

/* Byte mask of the uninitialized bytes of [a, a+size). */
static uint8_t load_mask(struct sg_check_uninit *u, uint32_t t, uint64_t a, uint32_t size) {
  uint8_t *s = shadow_at(u, t, a, size), m = 0;
  for (uint32_t i = 0; s && i < size && i < 8; i++)
    m |= (uint8_t)(s[i] << i);
  return m;
}

static void store_mask(struct sg_check_uninit *u, uint32_t t, uint64_t a, uint32_t size,
                       uint8_t m) {
  uint8_t *s = shadow_at(u, t, a, size);
  for (uint32_t i = 0; s && i < size && i < 8; i++)
    s[i] = m >> i & 1;
}

static void report(struct sg_check_uninit *u, const struct sg_insn_record *r, unsigned lane,
                   const char *what) {
  sg_core_finding(u->core, r->warp, lane, r->pc, SG_FAULT_UNINIT, 0, 0, "%s", what);
}

/* Result of an ALU op from its sources' masks (any uninitialized byte makes
 * the whole result so), with the exact cases of moves, masks and shifts. */
static uint8_t alu_mask(const struct sg_uop *op, uint8_t a, uint8_t b) {
  unsigned k = (unsigned)op->imm & 63;
  switch ((enum sg_op)op->op) {
  case SG_OP_ADDI: return op->imm == 0 ? a : a ? 0xff : 0;
  case SG_OP_ANDI: {
    uint8_t keep = 0;
    for (int i = 0; i < 8; i++)
      keep |= (uint8_t)((((uint64_t)op->imm >> (8 * i)) & 0xff) != 0) << i;
    return a & keep;
  }
  case SG_OP_SLLI: return (uint8_t)(a << (k / 8) | (k % 8 ? a << (k / 8 + 1) : 0));
  case SG_OP_SRLI: return (uint8_t)(a >> (k / 8) | (k % 8 ? a >> (k / 8 + 1) : 0));
  case SG_OP_SRAI:
    return (uint8_t)(a >> (k / 8) | (k % 8 ? a >> (k / 8 + 1) : 0)) | (a & 0x80 ? 0xff : 0);
  case SG_OP_ADDIW:
  case SG_OP_SLLIW:
  case SG_OP_SRLIW:
  case SG_OP_SRAIW: return a & 0x0f ? 0xff : 0; /* sign-extends the low word */
  default: return a | b ? 0xff : 0;
  }
}

static void on_insn(struct sg_hook *h, const struct sg_insn_record *r) {
  struct sg_check_uninit *u = (struct sg_check_uninit *)h;
  if (r->warp >= u->max_warps || !u->l)
    return;
  const struct sg_uop *op = r->uop;
  uint8_t(*x)[SG_MAX_WARP_SIZE] = u->x[r->warp];
  uint8_t(*f)[SG_MAX_WARP_SIZE] = u->f[r->warp];
  enum sg_fmt fmt = sg_op_fmt((enum sg_op)op->op);
  uint32_t t0 = r->warp * u->warp_size;
  for (uint64_t mk = r->mask; mk; mk &= mk - 1) {
    unsigned l = (unsigned)__builtin_ctzll(mk);
    uint8_t a = x[op->rs1][l], b = x[op->rs2][l], res = 0;
    bool wx = false, wf = false;
    switch (fmt) {
    case SG_FMT_R:
    case SG_FMT_A:
      res = a | b ? 0xff : 0;
      wx = true;
      break;
    case SG_FMT_I:
    case SG_FMT_SH:
    case SG_FMT_X2:
      res = alu_mask(op, a, 0);
      wx = true;
      break;
    case SG_FMT_U:
    case SG_FMT_J:
    case SG_FMT_CSRI:
      res = 0;
      wx = true;
      break;
    case SG_FMT_CSR:
      res = 0;
      wx = true;
      break;
    case SG_FMT_B:
      if (a | b)
        report(u, r, l, "branch on an uninitialized value");
      break;
    case SG_FMT_L:
      if (r->mem == SG_MEM_NONE) { /* jalr */
        if (a)
          report(u, r, l, "jump to an uninitialized address");
        wx = true;
        break;
      }
      /* fallthrough */
    case SG_FMT_LR:
    case SG_FMT_FL: {
      if (a)
        report(u, r, l, "load from an address computed from an uninitialized value");
      uint8_t m = load_mask(u, t0 + l, r->addr[l], r->size);
      uint8_t top = m >> (r->size - 1) & 1;
      bool sext =
          op->op == SG_OP_LB || op->op == SG_OP_LH || op->op == SG_OP_LW || op->op == SG_OP_LR_W;
      res = sext && top && r->size < 8 ? (uint8_t)(m | (0xff << r->size)) : m;
      if (fmt == SG_FMT_FL)
        f[op->rd & 31][l] = res, wf = false;
      else
        wx = true;
      break;
    }
    case SG_FMT_S:
    case SG_FMT_FS: {
      if (a)
        report(u, r, l, "store to an address computed from an uninitialized value");
      uint8_t v = fmt == SG_FMT_FS ? f[op->rs2][l] : b;
      uint8_t all = (uint8_t)((1u << r->size) - 1);
      if (!shadow_at(u, t0 + l, r->addr[l], r->size) && (v & all) == all)
        report(u, r, l, "store of an uninitialized value to global memory");
      store_mask(u, t0 + l, r->addr[l], r->size, v);
      break;
    }
    case SG_FMT_R4:
      res = f[op->rs1][l] | f[op->rs2][l] | f[op->rs3][l] ? 0xff : 0, wf = true;
      break;
    case SG_FMT_FR: res = f[op->rs1][l] | f[op->rs2][l] ? 0xff : 0, wf = true; break;
    case SG_FMT_F1: res = f[op->rs1][l] ? 0xff : 0, wf = true; break;
    case SG_FMT_SFU: res = f[op->rs1][l] | f[op->rs2][l] ? 0xff : 0, wf = true; break;
    case SG_FMT_FX: res = f[op->rs1][l] ? 0xff : 0, wx = true; break;
    case SG_FMT_FC: res = f[op->rs1][l] | f[op->rs2][l] ? 0xff : 0, wx = true; break;
    case SG_FMT_XF: res = a ? 0xff : 0, wf = true; break;
    case SG_FMT_X1:
      if (a && op->op != SG_OP_SG_BARRIER)
        report(u, r, l, "uninitialized value used by a SIMT instruction");
      break;
    default: break;
    }
    if (r->mem == SG_MEM_ATOMIC && fmt == SG_FMT_A) {
      if (a)
        report(u, r, l, "atomic at an address computed from an uninitialized value");
      res = load_mask(u, t0 + l, r->addr[l], r->size);
      store_mask(u, t0 + l, r->addr[l], r->size, b);
    }
    if (wx && sg_op_writes_x((enum sg_op)op->op))
      x[op->rd][l] = res;
    if (wf)
      f[op->rd & 31][l] = res;
  }
  x[0][0] = 0; /* x0 is never written; keep its row clean */
}

static void on_event(struct sg_hook *h, const struct sg_event *e) {
  struct sg_check_uninit *u = (struct sg_check_uninit *)h;
  if (e->kind != SG_EV_CTA_START || !u->l)
    return;
  memset(u->x, 0, (size_t)u->max_warps * sizeof *u->x);
  memset(u->f, 0, (size_t)u->max_warps * sizeof *u->f);
  uint32_t size = u->l->stack_size;
  for (uint32_t t = 0; t < u->max_threads; t++)
    if (u->low[t] < size) {
      memset(u->priv + (size_t)t * size + u->low[t], 1, size - u->low[t]);
      u->low[t] = size;
    }
  memset(u->local, 1, u->local_size);
}

enum sg_status sg_check_uninit_create(struct sg_core *core, uint32_t warp_size,
                                      struct sg_check_uninit **out) {
  struct sg_check_uninit *u = calloc(1, sizeof *u);
  if (!u)
    return SG_ENOMEM;
  u->hook.insn = on_insn;
  u->hook.event = on_event;
  u->core = core;
  u->warp_size = warp_size;
  *out = u;
  return SG_OK;
}

static void release(struct sg_check_uninit *u) {
  free(u->x), free(u->f), free(u->priv), free(u->low), free(u->local);
  u->x = NULL, u->f = NULL, u->priv = NULL, u->low = NULL, u->local = NULL;
  u->max_warps = u->max_threads = 0;
}

enum sg_status sg_check_uninit_launch(struct sg_check_uninit *u, const struct sg_check_launch *l,
                                      uint32_t max_threads, uint64_t local_base,
                                      uint64_t local_size) {
  release(u);
  u->l = NULL;
  uint32_t warps = (max_threads + u->warp_size - 1) / u->warp_size;
  u->x = calloc(warps ? warps : 1, sizeof *u->x);
  u->f = calloc(warps ? warps : 1, sizeof *u->f);
  u->priv = malloc((size_t)max_threads * l->stack_size + 1);
  u->low = malloc(((size_t)max_threads + 1) * sizeof *u->low);
  u->local = malloc(local_size + 1);
  if (!u->x || !u->f || !u->priv || !u->low || !u->local) {
    release(u);
    return SG_ENOMEM;
  }
  memset(u->priv, 1, (size_t)max_threads * l->stack_size);
  for (uint32_t t = 0; t < max_threads; t++)
    u->low[t] = l->stack_size;
  u->max_warps = warps;
  u->max_threads = max_threads;
  u->local_base = local_base;
  u->local_size = local_size;
  u->l = l;
  return SG_OK;
}

struct sg_hook *sg_check_uninit_hook(struct sg_check_uninit *u) {
  return &u->hook;
}

void sg_check_uninit_destroy(struct sg_check_uninit *u) {
  if (!u)
    return;
  release(u);
  free(u);
}
