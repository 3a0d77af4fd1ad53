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

/* What a translated block does to the registers: those it reads before
 * writing them, and those it writes (x and f banks), as step() below. */
struct block_info {
  const struct sg_uop *uops;
  uint32_t len;
  uint64_t rx, rf, wx, wf;
};
#define INFO_SLOTS 1024

struct sg_check_uninit {
  struct sg_hook hook;
  struct sg_core *core;
  const struct sg_check_launch *l;
  uint32_t warp_size, max_warps, max_threads;
  uint8_t (*x)[SG_NXREGS][SG_MAX_WARP_SIZE]; /* per warp: uninitialized bytes of x regs */
  uint8_t (*f)[32][SG_MAX_WARP_SIZE];
  uint64_t *xd, *fd; /* per warp: rows of x, f that may hold uninitialized bytes */
  uint8_t *priv;  /* per thread, per stack byte: 1 = uninitialized */
  uint32_t *low;  /* per thread: lowest stack offset touched (reset at CTA start) */
  bool priv_written; /* some low[] moved since the CTA started */
  uint8_t *local; /* per local byte: 1 = uninitialized */
  uint64_t local_base, local_size;
  /* translated blocks: what they do (by their first uop, for the program
   * info_code), and the one running */
  struct block_info info[INFO_SLOTS];
  uint64_t info_code;
  struct {
    uint32_t warp;
    uint64_t pc, mask;
    const struct block_info *info;
  } block;
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
      u->low[owner] = in, u->priv_written = true;
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

/* One instruction of a warp, as its record or a translated block's log
 * tells it: its lanes, and for memory the kind, bytes and lanes' addresses. */
struct step {
  uint32_t warp;
  uint64_t pc;
  const struct sg_uop *op;
  uint64_t mask;
  enum sg_mem_kind mem;
  uint32_t size;
  const uint64_t *addr;
};

static void report(struct sg_check_uninit *u, const struct step *r, unsigned lane,
                   const char *what) {
  sg_core_finding(u->core, r->warp, lane, r->pc, SG_FAULT_UNINIT, 0, 0, "%s", what);
}

/* The registers op reads (rx, rf) and writes (wx, wf), as bits of the x
 * and f banks, in step()'s terms. */
static void regs_of(const struct sg_uop *op, uint64_t *rx, uint64_t *rf, uint64_t *wx,
                    uint64_t *wf) {
  uint64_t r1 = 1ull << op->rs1, r2 = 1ull << op->rs2, r3 = 1ull << (op->rs3 & 31);
  uint64_t dx = sg_op_writes_x((enum sg_op)op->op) ? 1ull << op->rd : 0, df = 1ull << (op->rd & 31);
  *rx = *rf = *wx = *wf = 0;
  switch (sg_op_fmt((enum sg_op)op->op)) {
  case SG_FMT_R: case SG_FMT_A: *rx = r1 | r2, *wx = dx; break;
  case SG_FMT_I: case SG_FMT_SH: case SG_FMT_X2: case SG_FMT_L: case SG_FMT_LR:
    *rx = r1, *wx = dx;
    break;
  case SG_FMT_U: case SG_FMT_J: case SG_FMT_CSRI: case SG_FMT_CSR: *wx = dx; break;
  case SG_FMT_B: case SG_FMT_S: *rx = r1 | r2; break;
  case SG_FMT_FL: *rx = r1, *wf = df; break;
  case SG_FMT_FS: *rx = r1, *rf = r2; break;
  case SG_FMT_R4: *rf = (1ull << (op->rs1 & 31)) | (1ull << (op->rs2 & 31)) | r3, *wf = df; break;
  case SG_FMT_FR: case SG_FMT_SFU:
    *rf = (1ull << (op->rs1 & 31)) | (1ull << (op->rs2 & 31)), *wf = df;
    break;
  case SG_FMT_F1: *rf = 1ull << (op->rs1 & 31), *wf = df; break;
  case SG_FMT_FX: *rf = 1ull << (op->rs1 & 31), *wx = dx; break;
  case SG_FMT_FC: *rf = (1ull << (op->rs1 & 31)) | (1ull << (op->rs2 & 31)), *wx = dx; break;
  case SG_FMT_XF: *rx = r1, *wf = df; break;
  case SG_FMT_X1: *rx = r1; break;
  default: break;
  }
}

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

/* Does any lane of a shadow row hold an uninitialized byte? */
static bool row_dirty(const uint8_t *row) {
  uint64_t w[SG_MAX_WARP_SIZE / 8];
  memcpy(w, row, sizeof w);
  uint64_t any = 0;
  for (size_t i = 0; i < SG_MAX_WARP_SIZE / 8; i++)
    any |= w[i];
  return any != 0;
}

static void step(struct sg_check_uninit *u, const struct step *r) {
  const struct sg_uop *op = r->op;
  uint8_t(*x)[SG_MAX_WARP_SIZE] = u->x[r->warp];
  uint8_t(*f)[SG_MAX_WARP_SIZE] = u->f[r->warp];
  enum sg_fmt fmt = sg_op_fmt((enum sg_op)op->op);
  uint64_t rx, rf, wx, wf;
  regs_of(op, &rx, &rf, &wx, &wf);
  if (r->mem == SG_MEM_NONE && !(rx & u->xd[r->warp]) && !(rf & u->fd[r->warp])) {
    /* initialized operands: an initialized result, nothing to report */
    if (wx & u->xd[r->warp]) {
      for (uint64_t mk = r->mask; mk; mk &= mk - 1)
        x[op->rd][__builtin_ctzll(mk)] = 0;
      u->xd[r->warp] &= row_dirty(x[op->rd]) ? ~0ull : ~wx;
    }
    if (wf & u->fd[r->warp]) {
      for (uint64_t mk = r->mask; mk; mk &= mk - 1)
        f[op->rd & 31][__builtin_ctzll(mk)] = 0;
      u->fd[r->warp] &= row_dirty(f[op->rd & 31]) ? ~0ull : ~wf;
    }
    return;
  }
  uint32_t t0 = r->warp * u->warp_size;
  for (uint64_t mk = r->mask; mk; mk &= mk - 1) {
    unsigned l = (unsigned)__builtin_ctzll(mk);
    uint8_t a = x[op->rs1][l], b = x[op->rs2][l], res = 0;
    switch (fmt) {
    case SG_FMT_R:
    case SG_FMT_A: res = a | b ? 0xff : 0; break;
    case SG_FMT_I:
    case SG_FMT_SH:
    case SG_FMT_X2: res = alu_mask(op, a, 0); break;
    case SG_FMT_B:
      if (a | b)
        report(u, r, l, "branch on an uninitialized value");
      break;
    case SG_FMT_L:
      if (r->mem == SG_MEM_NONE) { /* jalr */
        if (a)
          report(u, r, l, "jump to an uninitialized address");
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
    case SG_FMT_R4: res = f[op->rs1][l] | f[op->rs2][l] | f[op->rs3][l] ? 0xff : 0; break;
    case SG_FMT_FR:
    case SG_FMT_SFU:
    case SG_FMT_FC: res = f[op->rs1][l] | f[op->rs2][l] ? 0xff : 0; break;
    case SG_FMT_F1:
    case SG_FMT_FX: res = f[op->rs1][l] ? 0xff : 0; break;
    case SG_FMT_XF: res = a ? 0xff : 0; break;
    case SG_FMT_X1:
      if (a && op->op != SG_OP_SG_BARRIER)
        report(u, r, l, "uninitialized value used by a SIMT instruction");
      break;
    default: break; /* U, J, CSR: initialized results */
    }
    if (r->mem == SG_MEM_ATOMIC && fmt == SG_FMT_A) {
      if (a)
        report(u, r, l, "atomic at an address computed from an uninitialized value");
      res = load_mask(u, t0 + l, r->addr[l], r->size);
      store_mask(u, t0 + l, r->addr[l], r->size, b);
    }
    if (wx)
      x[op->rd][l] = res;
    if (wf)
      f[op->rd & 31][l] = res;
  }
  x[0][0] = 0; /* x0 is never written; keep its row clean */
  if (wx)
    u->xd[r->warp] = (u->xd[r->warp] & ~wx) | (row_dirty(x[op->rd]) ? wx : 0);
  if (wf)
    u->fd[r->warp] = (u->fd[r->warp] & ~wf) | (row_dirty(f[op->rd & 31]) ? wf : 0);
}

static void on_insn(struct sg_hook *h, const struct sg_insn_record *r) {
  struct sg_check_uninit *u = (struct sg_check_uninit *)h;
  if (r->warp >= u->max_warps || !u->l)
    return;
  struct step s = {.warp = r->warp, .pc = r->pc, .op = r->uop, .mask = r->mask,
                   .mem = r->mem, .size = r->size, .addr = r->addr};
  step(u, &s);
}

/* ---- Translated blocks (sg_block_ops) ------------------------------------ */

/* From initialized operands every instruction makes initialized results,
 * and only a load can bring in uninitialized bytes. So a block whose
 * registers read before written are initialized on every lane runs
 * translated: afterwards the registers it wrote are initialized on the
 * lanes it ran, and its stores initialized the bytes they wrote, unless
 * one of its loads read an uninitialized byte; from that load on, its
 * instructions go through step() as their records would have, with the
 * addresses of the log. */

/* Where a block's access e of size bytes per lane falls. */
enum shadow {
  S_NONE,   /* outside private and __local memory: no shadow */
  S_CLEAN,  /* every byte from the lowest lane's to the highest is initialized */
  S_STACKS, /* in the private stacks (a block's lanes each in its own slot) */
  S_LANES   /* anything else: lane by lane */
};
static enum shadow shadow_of(const struct sg_check_uninit *u, const struct sg_block_mem *e,
                             uint32_t size) {
  uint64_t lo = e->lo, hi = e->hi + size;
  uint64_t sb = u->l->stack_base, se = sb + (uint64_t)u->max_threads * u->l->stack_size;
  uint64_t lb = u->local_base, le = lb + u->local_size;
  if (!(lo < se && hi > sb) && !(lo < le && hi > lb))
    return S_NONE;
  bool stacks = lo >= sb && hi <= se; /* all of it */
  enum shadow dirty = stacks ? S_STACKS : S_LANES;
  const uint8_t *sh = stacks                 ? u->priv + (lo - sb)
                      : lo >= lb && hi <= le ? u->local + (lo - lb)
                                             : NULL;
  uint64_t n = hi - lo, any = 0, i = 0;
  if (!sh || n > 64 * (uint64_t)size) /* (lanes far apart) */
    return dirty;
  for (uint64_t w; i + 8 <= n; i += 8) {
    memcpy(&w, sh + i, 8);
    any |= w;
  }
  for (; i < n; i++)
    any |= sh[i];
  return any ? dirty : S_CLEAN;
}

/* A block's access to the private stacks by the threads from t0 on, lane l
 * in thread t0 + l's slot: a store initializes its bytes; false when a load
 * reads an uninitialized one. */
static bool stacks_access(struct sg_check_uninit *u, uint32_t t0, uint64_t mask,
                          const uint64_t *addr, uint32_t size, bool store) {
  const struct sg_check_launch *l = u->l;
  uint8_t any = 0;
  for (uint64_t m = mask; m; m &= m - 1) {
    unsigned lane = (unsigned)__builtin_ctzll(m);
    uint32_t t = t0 + lane;
    uint64_t in = addr[lane] - l->stack_base - (uint64_t)t * l->stack_size;
    uint8_t *sh = u->priv + (uint64_t)t * l->stack_size + in;
    if (store) {
      memset(sh, 0, size);
      if (in < u->low[t])
        u->low[t] = (uint32_t)in, u->priv_written = true;
    } else {
      for (uint32_t i = 0; i < size; i++)
        any |= sh[i];
    }
  }
  return !any;
}

/* What uops[0 .. n) read before writing and write. */
static void block_regs(const struct sg_uop *uops, uint32_t n, struct block_info *b) {
  b->rx = b->rf = b->wx = b->wf = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t rx, rf, wx, wf;
    regs_of(&uops[i], &rx, &rf, &wx, &wf);
    b->rx |= rx & ~b->wx, b->rf |= rf & ~b->wf;
    b->wx |= wx, b->wf |= wf;
  }
}

static const struct block_info *info_of(struct sg_check_uninit *u, const struct sg_uop *uops,
                                        uint32_t len) {
  if (u->info_code != u->l->code) { /* another program: its uops may sit where others were */
    memset(u->info, 0, sizeof u->info);
    u->info_code = u->l->code;
  }
  struct block_info *b = &u->info[((uintptr_t)uops / sizeof *uops) % INFO_SLOTS];
  if (b->uops != uops || b->len != len) {
    block_regs(uops, len, b);
    b->uops = uops;
    b->len = len;
  }
  return b;
}

/* The registers of warp w in wx, wf are initialized on the lanes of mask:
 * a row stays dirty while another lane is. */
static void clean_rows(struct sg_check_uninit *u, uint32_t w, uint64_t wx, uint64_t wf,
                       uint64_t mask) {
  uint64_t full = u->warp_size >= 64 ? ~0ull : (1ull << u->warp_size) - 1;
  bool every = (mask & full) == full;
  for (int fp = 0; fp < 2; fp++) {
    uint8_t(*rows)[SG_MAX_WARP_SIZE] = fp ? u->f[w] : u->x[w];
    uint64_t *dirty = fp ? &u->fd[w] : &u->xd[w];
    for (uint64_t m = (fp ? wf : wx) & *dirty; m; m &= m - 1) {
      unsigned r = (unsigned)__builtin_ctzll(m);
      if (every) {
        memset(rows[r], 0, SG_MAX_WARP_SIZE);
      } else {
        for (uint64_t k = mask; k; k &= k - 1)
          rows[r][__builtin_ctzll(k)] = 0;
        if (row_dirty(rows[r]))
          continue;
      }
      *dirty &= ~(1ull << r);
    }
  }
}

static const struct sg_block_limit *block_enter(struct sg_hook *h, uint32_t warp, uint64_t pc,
                                                const struct sg_uop *uops, uint32_t len,
                                                uint64_t time, uint64_t mask) {
  struct sg_check_uninit *u = (struct sg_check_uninit *)h;
  (void)time;
  u->block.info = NULL;
  if (warp >= u->max_warps || !u->l)
    return sg_block_unlimited; /* unchecked, as records are */
  const struct block_info *b = info_of(u, uops, len);
  if ((b->rx & u->xd[warp]) || (b->rf & u->fd[warp]))
    return NULL; /* the interpreter, with records */
  u->block.warp = warp, u->block.pc = pc, u->block.mask = mask, u->block.info = b;
  return sg_block_unlimited;
}

static void block_leave(struct sg_hook *h, uint32_t ran, const struct sg_block_log *log) {
  struct sg_check_uninit *u = (struct sg_check_uninit *)h;
  const struct block_info *b = u->block.info;
  if (!b || !ran)
    return;
  uint32_t w = u->block.warp, t0 = w * u->warp_size, i = 0, from = ran;
  for (; i < log->n && from == ran; i++) {
    const struct sg_block_mem *e = &log->mem[i];
    uint32_t size = b->uops[e->index].size;
    enum sg_mem_kind k = b->uops[e->index].mem;
    enum shadow where = shadow_of(u, e, size);
    if (where == S_NONE || where == S_CLEAN)
      continue; /* a load reads initialized bytes; a store leaves them so */
    if (where == S_STACKS) {
      if (!stacks_access(u, t0, u->block.mask, e->addr, size, k == SG_MEM_STORE))
        from = e->index; /* it read uninitialized bytes */
      continue;
    }
    for (uint64_t m = u->block.mask; m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctzll(m);
      if (k == SG_MEM_STORE) {
        store_mask(u, t0 + l, e->addr[l], size, 0);
      } else if (load_mask(u, t0 + l, e->addr[l], size)) {
        from = e->index; /* it read uninitialized bytes */
        break;
      }
    }
  }
  struct block_info done = *b;
  if (from < b->len)
    block_regs(b->uops, from, &done);
  clean_rows(u, w, done.wx, done.wf, u->block.mask);
  /* from the load that read uninitialized bytes on: instruction by instruction */
  for (uint32_t j = from, next = i - 1; j < ran; j++) {
    struct step s = {
        .warp = w, .pc = u->block.pc + 4ull * j, .op = &b->uops[j], .mask = u->block.mask};
    s.mem = s.op->mem;
    s.size = s.op->size;
    if (s.mem != SG_MEM_NONE)
      s.addr = log->mem[next++].addr;
    step(u, &s);
  }
}

static const struct sg_block_ops block_ops = {
    .enter = block_enter, .leave = block_leave, .accesses = true};

static void on_event(struct sg_hook *h, const struct sg_event *e) {
  struct sg_check_uninit *u = (struct sg_check_uninit *)h;
  if (e->kind != SG_EV_CTA_START || !u->l)
    return;
  for (uint32_t w = 0; w < u->max_warps; w++) /* (only rows that may not be clean) */
    clean_rows(u, w, ~0ull, ~0ull, ~0ull);
  uint32_t size = u->l->stack_size;
  for (uint32_t t = 0; u->priv_written && t < u->max_threads; t++)
    if (u->low[t] < size) {
      memset(u->priv + (size_t)t * size + u->low[t], 1, size - u->low[t]);
      u->low[t] = size;
    }
  u->priv_written = false;
  memset(u->local, 1, u->local_size);
}

enum sg_status sg_check_uninit_create(struct sg_core *core, uint32_t warp_size,
                                      struct sg_check_uninit **out) {
  struct sg_check_uninit *u = calloc(1, sizeof *u);
  if (!u)
    return SG_ENOMEM;
  u->hook.insn = on_insn;
  u->hook.event = on_event;
  u->hook.block = &block_ops;
  u->hook.events = SG_EV_BIT(SG_EV_CTA_START);
  u->core = core;
  u->warp_size = warp_size;
  *out = u;
  return SG_OK;
}

static void release(struct sg_check_uninit *u) {
  free(u->x), free(u->f), free(u->xd), free(u->fd), free(u->priv), free(u->low), free(u->local);
  u->x = NULL, u->f = NULL, u->xd = NULL, u->fd = NULL, u->priv = NULL, u->low = NULL,
  u->local = NULL;
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
  u->xd = calloc(warps ? warps : 1, sizeof *u->xd);
  u->fd = calloc(warps ? warps : 1, sizeof *u->fd);
  u->priv = malloc((size_t)max_threads * l->stack_size + 1);
  u->low = malloc(((size_t)max_threads + 1) * sizeof *u->low);
  u->local = malloc(local_size + 1);
  if (!u->x || !u->f || !u->xd || !u->fd || !u->priv || !u->low || !u->local) {
    release(u);
    return SG_ENOMEM;
  }
  memset(u->priv, 1, (size_t)max_threads * l->stack_size);
  for (uint32_t t = 0; t < max_threads; t++)
    u->low[t] = l->stack_size;
  u->priv_written = false;
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
