/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler", reconvergence: the machine CFG of each linked
 * function, its post-dominator tree (Cooper-Harvey-Kennedy on the reverse
 * CFG), and the table conditional-branch PC -> immediate post-dominator PC.
 * The same CFG gives each kernel's private memory (its deepest call chain). */
#include "sg_cc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Post-dominators ---------------------------------------------------- */

/* Predecessors in the CFG are successors in the reverse CFG, rooted at the
 * exit. Postorder of the reverse CFG by iterative DFS. */
struct rgraph {
  uint32_t n;          /* nodes incl. exit */
  uint32_t *pred_off, *pred;
  uint32_t *order;     /* reverse-CFG postorder number per node, UINT32_MAX unreached */
  uint32_t *by_order;  /* node per postorder number */
  uint32_t count;
};

static bool build_preds(struct rgraph *g, uint32_t n, const uint32_t *succ_off, const uint32_t *succ)
{
  uint32_t m = succ_off[n];
  g->pred_off = calloc(n + 2, sizeof *g->pred_off);
  g->pred = calloc(m + 1, sizeof *g->pred);
  if (!g->pred_off || !g->pred)
    return false;
  for (uint32_t e = 0; e < m; e++)
    g->pred_off[succ[e] + 1]++;
  for (uint32_t i = 0; i <= n; i++)
    g->pred_off[i + 1] += g->pred_off[i];
  uint32_t *fill = calloc(n + 1, sizeof *fill);
  if (!fill)
    return false;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t e = succ_off[i]; e < succ_off[i + 1]; e++)
      g->pred[g->pred_off[succ[e]] + fill[succ[e]]++] = i;
  free(fill);
  return true;
}

static bool postorder(struct rgraph *g)
{
  uint32_t n = g->n;
  g->order = malloc(n * sizeof *g->order);
  g->by_order = malloc(n * sizeof *g->by_order);
  uint32_t *stack = malloc(n * sizeof *stack), *next = calloc(n, sizeof *next);
  bool ok = g->order && g->by_order && stack && next;
  if (ok) {
    memset(g->order, 0xff, n * sizeof *g->order);
    uint32_t sp = 0;
    stack[sp++] = n - 1;
    g->order[n - 1] = UINT32_MAX - 1; /* on stack */
    while (sp) {
      uint32_t v = stack[sp - 1];
      if (g->pred_off[v] + next[v] < g->pred_off[v + 1]) {
        uint32_t w = g->pred[g->pred_off[v] + next[v]++];
        if (g->order[w] == UINT32_MAX) {
          g->order[w] = UINT32_MAX - 1;
          stack[sp++] = w;
        }
        continue;
      }
      sp--;
      g->order[v] = g->count;
      g->by_order[g->count++] = v;
    }
  }
  free(stack);
  free(next);
  return ok;
}

static uint32_t intersect(const struct rgraph *g, const uint32_t *idom, uint32_t a, uint32_t b)
{
  while (a != b) {
    while (g->order[a] < g->order[b])
      a = idom[a];
    while (g->order[b] < g->order[a])
      b = idom[b];
  }
  return a;
}

enum sg_status sg_cc_postdom(uint32_t n, const uint32_t *succ_off, const uint32_t *succ,
                             uint32_t *ipdom)
{
  for (uint32_t e = 0; e < succ_off[n]; e++)
    if (succ[e] > n)
      return SG_EINVAL;
  struct rgraph g = {.n = n + 1};
  enum sg_status st = build_preds(&g, n, succ_off, succ) && postorder(&g) ? SG_OK : SG_ENOMEM;
  uint32_t *idom = st == SG_OK ? malloc((n + 1) * sizeof *idom) : NULL;
  if (st == SG_OK && !idom)
    st = SG_ENOMEM;
  for (uint32_t i = 0; idom && i <= n; i++)
    idom[i] = UINT32_MAX;
  if (idom)
    idom[n] = n;
  /* Dominators of the reverse CFG: a node's "predecessors" there are its
   * CFG successors. */
  for (bool changed = idom != NULL; changed;) {
    changed = false;
    for (uint32_t k = g.count - 1; k-- > 0;) {
      uint32_t v = g.by_order[k], nd = UINT32_MAX;
      for (uint32_t e = succ_off[v]; e < succ_off[v + 1]; e++) {
        uint32_t s = succ[e];
        if (idom[s] != UINT32_MAX)
          nd = nd == UINT32_MAX ? s : intersect(&g, idom, s, nd);
      }
      if (nd != idom[v]) {
        idom[v] = nd;
        changed = true;
      }
    }
  }
  for (uint32_t i = 0; idom && i < n; i++)
    ipdom[i] = idom[i] == UINT32_MAX ? n : idom[i];
  free(idom);
  free(g.pred_off);
  free(g.pred);
  free(g.order);
  free(g.by_order);
  return st;
}

/* ---- Machine CFG ------------------------------------------------------------ */

struct func_cfg {
  uint64_t base;        /* first instruction's PC */
  uint32_t ninsn;
  struct sg_uop *uops;
  uint32_t *block_of;   /* insn -> block */
  uint32_t *start;      /* block -> first insn */
  uint32_t nblocks;
};

/* Function sym's instructions, decoded, in a func_cfg (uops to free);
 * false when out of memory. sym lies within the code. */
static bool decode_function(const struct sg_linked *l, const struct sg_cc_symbol *sym,
                            struct func_cfg *f)
{
  *f = (struct func_cfg){.base = sym->addr, .ninsn = (uint32_t)(sym->size / 4)};
  if (!(f->uops = malloc(f->ninsn * sizeof *f->uops)))
    return false;
  for (uint32_t i = 0; i < f->ninsn; i++) {
    uint32_t w;
    memcpy(&w, l->ro + (sym->addr - SG_ADDR_CODE) + 4ull * i, 4);
    sg_decode(w, &f->uops[i]);
  }
  return true;
}

/* Target instruction index of a branch/jump, or -1 when outside. */
static int64_t target_index(const struct func_cfg *f, uint32_t i)
{
  int64_t t = (int64_t)i + f->uops[i].imm / 4;
  return (f->uops[i].imm % 4 == 0 && t >= 0 && t < f->ninsn) ? t : -1;
}

static bool ends_block(enum sg_flow fl)
{
  return fl == SG_FLOW_BRANCH || fl == SG_FLOW_JUMP || fl == SG_FLOW_RETURN || fl == SG_FLOW_LEAVE ||
         fl == SG_FLOW_EXIT;
}

static void find_blocks(struct func_cfg *f)
{
  bool *leader = calloc(f->ninsn + 1, sizeof *leader);
  leader[0] = true;
  for (uint32_t i = 0; i < f->ninsn; i++) {
    enum sg_flow fl = sg_uop_flow(&f->uops[i]);
    if (ends_block(fl))
      leader[i + 1] = true;
    int64_t t = (fl == SG_FLOW_BRANCH || fl == SG_FLOW_JUMP) ? target_index(f, i) : -1;
    if (t >= 0)
      leader[t] = true;
  }
  for (uint32_t i = 0; i < f->ninsn; i++) {
    if (leader[i])
      f->start[f->nblocks++] = i;
    f->block_of[i] = f->nblocks - 1;
  }
  free(leader);
}

/* Successor edges per block; node nblocks is the exit. */
static void block_edges(const struct func_cfg *f, uint32_t *off, uint32_t *succ)
{
  uint32_t m = 0, exit = f->nblocks;
  for (uint32_t b = 0; b < f->nblocks; b++) {
    off[b] = m;
    uint32_t last = (b + 1 < f->nblocks ? f->start[b + 1] : f->ninsn) - 1;
    enum sg_flow fl = sg_uop_flow(&f->uops[last]);
    int64_t t = target_index(f, last);
    if (fl == SG_FLOW_BRANCH || fl == SG_FLOW_JUMP)
      succ[m++] = t >= 0 ? f->block_of[t] : exit; /* a jump out is a tail call */
    if (fl == SG_FLOW_RETURN || fl == SG_FLOW_LEAVE || fl == SG_FLOW_EXIT)
      succ[m++] = exit;
    else if (fl != SG_FLOW_JUMP)
      succ[m++] = last + 1 < f->ninsn ? f->block_of[last + 1] : exit;
  }
  off[f->nblocks] = m;
}

struct table {
  struct sg_reconv *e;
  size_t n, cap;
};

static enum sg_status function_table(struct func_cfg *f, struct table *t)
{
  uint32_t n = f->ninsn;
  f->block_of = malloc(n * sizeof *f->block_of);
  f->start = malloc(n * sizeof *f->start);
  uint32_t *off = malloc((n + 2) * sizeof *off), *succ = malloc(2 * (n + 1) * sizeof *succ);
  uint32_t *ipdom = malloc((n + 1) * sizeof *ipdom);
  enum sg_status st = f->block_of && f->start && off && succ && ipdom ? SG_OK : SG_ENOMEM;
  if (st == SG_OK) {
    find_blocks(f);
    block_edges(f, off, succ);
    st = sg_cc_postdom(f->nblocks, off, succ, ipdom);
  }
  for (uint32_t b = 0; st == SG_OK && b < f->nblocks; b++) {
    uint32_t last = (b + 1 < f->nblocks ? f->start[b + 1] : n) - 1;
    if (sg_uop_flow(&f->uops[last]) != SG_FLOW_BRANCH)
      continue;
    if (t->n == t->cap) {
      size_t cap = t->cap ? 2 * t->cap : 64;
      struct sg_reconv *e = realloc(t->e, cap * sizeof *e);
      if (!e) {
        st = SG_ENOMEM;
        break;
      }
      t->e = e, t->cap = cap;
    }
    uint32_t p = ipdom[b];
    t->e[t->n].branch_pc = f->base + 4ull * last;
    t->e[t->n++].reconv_pc = p == f->nblocks ? SG_RECONV_EXIT : f->base + 4ull * f->start[p];
  }
  free(f->block_of), free(f->start), free(off), free(succ), free(ipdom);
  return st;
}

static int by_pc(const void *a, const void *b)
{
  uint64_t x = ((const struct sg_reconv *)a)->branch_pc, y = ((const struct sg_reconv *)b)->branch_pc;
  return x < y ? -1 : x > y;
}

enum sg_status sg_cc_reconv(const struct sg_linked *l, struct sg_reconv **table,
                            size_t *ntable, struct sg_text *log)
{
  struct table t = {0};
  enum sg_status st = SG_OK;
  uint64_t text_end = SG_ADDR_CODE + l->text_size;
  for (uint32_t s = 0; s < l->num_symbols && st == SG_OK; s++) {
    const struct sg_cc_symbol *sym = &l->symbols[s];
    if (!sym->is_func || !sym->size)
      continue;
    if (sym->addr < SG_ADDR_CODE || sym->addr + sym->size > text_end || (sym->addr | sym->size) & 3) {
      sg_text_printf(log, "error: function '%s' outside the code\n", sym->name);
      st = SG_ELINK;
      break;
    }
    struct func_cfg f;
    if (!decode_function(l, sym, &f)) {
      st = SG_ENOMEM;
      break;
    }
    st = function_table(&f, &t);
    free(f.uops);
  }
  if (st != SG_OK) {
    free(t.e);
    return st;
  }
  if (t.n)
    qsort(t.e, t.n, sizeof *t.e, by_pc);
  *table = t.e;
  *ntable = t.n;
  return SG_OK;
}

/* ---- Private stack -------------------------------------------------------- */

/* A kernel's private memory is the deepest its stack pointer goes below the
 * value it has at the entry wrapper, over every call chain (RISC-V code
 * never touches memory below sp). Each function is read by abstract
 * interpretation of its machine code over its CFG, so every write to sp
 * counts wherever it is: LLVM shrink-wraps prologues past early returns,
 * builds large frame sizes with lui/addi(w)/slli/add chains, and realigns
 * over-aligned frames with "andi sp, sp, -A". An integer register is
 * unknown, a constant, or "the entry sp minus at most d bytes". */

enum { V_UNKNOWN, V_CONST, V_SP };
struct aval {
  uint8_t kind;
  int64_t v; /* V_CONST: the value; V_SP: d */
};
enum { NREG = 32, REG_SP = 2 };
#define MAX_DEPTH (INT64_C(1) << 62) /* deeper is no frame: a value we cannot follow */
/* Times a block's entry state may change before its sp is taken to move in
 * a loop: without that, each register changes at most twice. */
#define MAX_VISITS (4 * NREG + 64)

static const struct aval unknown = {V_UNKNOWN, 0};
static struct aval konst(int64_t v) { return (struct aval){V_CONST, v}; }
static int64_t sext32(uint64_t v) { return (int64_t)(int32_t)(uint32_t)v; }

/* sp-relative value d - off bytes below the entry sp. */
static struct aval below(int64_t d, int64_t off)
{
  int64_t r;
  if (__builtin_sub_overflow(d, off, &r) || r > MAX_DEPTH || r < -MAX_DEPTH)
    return unknown;
  return (struct aval){V_SP, r};
}

/* Value written to rd by u at pc, given the registers before it. */
static struct aval eval(const struct sg_uop *u, uint64_t pc, const struct aval *r)
{
  struct aval a = r[u->rs1], b = r[u->rs2];
  bool ca = a.kind == V_CONST, cb = b.kind == V_CONST, sa = a.kind == V_SP;
  uint64_t x = (uint64_t)a.v, y = (uint64_t)b.v, i = (uint64_t)u->imm, sh = i & 63;
  switch (u->op) {
  case SG_OP_LUI: return konst(u->imm);
  case SG_OP_AUIPC: return konst((int64_t)(pc + i));
  case SG_OP_ADDI: return ca ? konst((int64_t)(x + i)) : sa ? below(a.v, u->imm) : unknown;
  case SG_OP_ADDIW: return ca ? konst(sext32(x + i)) : unknown;
  case SG_OP_XORI: return ca ? konst((int64_t)(x ^ i)) : unknown;
  case SG_OP_ORI: return ca ? konst((int64_t)(x | i)) : unknown;
  case SG_OP_ANDI:
    if (ca)
      return konst((int64_t)(x & i));
    /* Realignment to A = -imm: sp is 16-byte aligned at entry, so at most
     * A - 16 more bytes when d is a multiple of 16. */
    if (sa && u->imm < 0 && ((0 - i) & (0 - i - 1)) == 0)
      return below(a.v, -(int64_t)((0 - i) - (a.v % 16 == 0 && 0 - i >= 16 ? 16 : 1)));
    return unknown;
  case SG_OP_SLLI: return ca ? konst((int64_t)(x << sh)) : unknown;
  case SG_OP_SRLI: return ca ? konst((int64_t)(x >> sh)) : unknown;
  case SG_OP_SRAI: return ca ? konst(a.v >> sh) : unknown;
  case SG_OP_SLLIW: return ca ? konst(sext32((uint32_t)x << (sh & 31))) : unknown;
  case SG_OP_SRLIW: return ca ? konst(sext32((uint32_t)x >> (sh & 31))) : unknown;
  case SG_OP_SRAIW: return ca ? konst((int32_t)(uint32_t)x >> (sh & 31)) : unknown;
  case SG_OP_ADD:
    if (ca && cb)
      return konst((int64_t)(x + y));
    return sa && cb ? below(a.v, b.v) : ca && b.kind == V_SP ? below(b.v, a.v) : unknown;
  case SG_OP_SUB:
    if (ca && cb)
      return konst((int64_t)(x - y));
    return sa && cb && b.v != INT64_MIN ? below(a.v, -b.v) : unknown;
  case SG_OP_ADDW: return ca && cb ? konst(sext32(x + y)) : unknown;
  case SG_OP_SUBW: return ca && cb ? konst(sext32(x - y)) : unknown;
  case SG_OP_OR: return ca && cb ? konst((int64_t)(x | y)) : unknown;
  case SG_OP_XOR: return ca && cb ? konst((int64_t)(x ^ y)) : unknown;
  case SG_OP_AND: return ca && cb ? konst((int64_t)(x & y)) : unknown;
  case SG_OP_MUL: return ca && cb ? konst((int64_t)(x * y)) : unknown;
  default: return unknown;
  }
}

/* A call (or a tail call) found in a function. */
struct fn_call {
  uint64_t pc, target; /* target: valid when known */
  bool known;
  int64_t depth;       /* d of sp at the call */
  int64_t callee;      /* function index; -1 unknown target, -2 not a function start */
};

struct fn_stack {
  const struct sg_cc_symbol *sym;
  int64_t frame;       /* deepest d of sp within the function */
  struct fn_call *calls;
  uint32_t ncalls, cap;
  char error[192];     /* why its frame cannot be bounded ("" when it can) */
  /* The call graph walk. */
  uint8_t mark;        /* 0 not seen, 1 on the current chain, 2 done */
  uint64_t need;       /* frame and the deepest chain of calls below it */
  const char *bad;     /* an error of a function it reaches, NULL if none */
  const char *why;     /* why need is only a lower bound, NULL when exact */
  char why_buf[192];
};

/* The state one instruction leaves; fs (the last pass) records calls,
 * the deepest sp and what cannot be bounded. */
static void step(struct fn_stack *fs, const struct func_cfg *f, uint32_t k, struct aval *r)
{
  const struct sg_uop *u = &f->uops[k];
  uint64_t pc = f->base + 4ull * k;
  enum sg_flow fl = sg_uop_flow(u);
  bool tail = fl == SG_FLOW_LEAVE || (fl == SG_FLOW_JUMP && target_index(f, k) < 0);
  char text[80];
  if (fs && (fl == SG_FLOW_CALL || tail)) {
    struct fn_call c = {.pc = pc, .depth = r[REG_SP].v, .callee = -1};
    if (u->op == SG_OP_JAL)
      c.target = pc + (uint64_t)u->imm, c.known = true;
    else if (r[u->rs1].kind == V_CONST)
      c.target = ((uint64_t)r[u->rs1].v + (uint64_t)u->imm) & ~1ull, c.known = true;
    if (fs->ncalls == fs->cap) {
      uint32_t cap = fs->cap ? 2 * fs->cap : 8;
      struct fn_call *p = realloc(fs->calls, cap * sizeof *p);
      if (!p) {
        snprintf(fs->error, sizeof fs->error, "out of host memory");
        return;
      }
      fs->calls = p, fs->cap = cap;
    }
    fs->calls[fs->ncalls++] = c;
  }
  if (fs && fl == SG_FLOW_RETURN && r[REG_SP].v > 0 && !fs->error[0])
    snprintf(fs->error, sizeof fs->error,
             "function '%s' returns with the stack pointer %lld bytes below its value at entry "
             "(PC 0x%llx)",
             fs->sym->name, (long long)r[REG_SP].v, (unsigned long long)pc);
  if (fl == SG_FLOW_CALL) { /* the callee keeps sp and s0-s11 (the calling convention) */
    static const uint8_t clobbered[] = {1, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 28, 29, 30, 31};
    for (size_t j = 0; j < sizeof clobbered; j++)
      r[clobbered[j]] = unknown;
    return;
  }
  if (!sg_op_writes_x(u->op) || u->rd == 0)
    return;
  r[u->rd] = eval(u, pc, r);
  if (u->rd != REG_SP || !fs)
    return;
  if (r[REG_SP].kind != V_SP && !fs->error[0])
    snprintf(fs->error, sizeof fs->error,
             "function '%s' sets the stack pointer to a value known only at run time "
             "(PC 0x%llx: %s)",
             fs->sym->name, (unsigned long long)pc, sg_disasm(u, pc, text, sizeof text));
  else if (r[REG_SP].v > fs->frame)
    fs->frame = r[REG_SP].v;
}

/* Entry states meet: equal values stay, sp keeps the deeper bound, anything
 * else becomes unknown. Returns whether into changed. */
static bool meet(struct aval *into, const struct aval *from)
{
  bool changed = false;
  for (int i = 0; i < NREG; i++) {
    struct aval *a = &into[i], b = from[i];
    if (a->kind == b.kind && a->v == b.v)
      continue;
    if (i == REG_SP && a->kind == V_SP && b.kind == V_SP) {
      if (b.v > a->v)
        a->v = b.v, changed = true;
    } else if (a->kind != V_UNKNOWN) {
      *a = unknown, changed = true;
    }
  }
  return changed;
}

static void run_block(struct fn_stack *fs, const struct func_cfg *f, uint32_t b, struct aval *r)
{
  uint32_t end = b + 1 < f->nblocks ? f->start[b + 1] : f->ninsn;
  for (uint32_t k = f->start[b]; k < end; k++)
    step(fs, f, k, r);
}

/* Fixed point of the block entry states, then one pass that records. */
static enum sg_status analyse_frame(struct func_cfg *f, struct fn_stack *fs)
{
  uint32_t n = f->ninsn;
  f->block_of = malloc(n * sizeof *f->block_of);
  f->start = malloc(n * sizeof *f->start);
  uint32_t *off = malloc((n + 2) * sizeof *off), *succ = malloc(2 * (n + 1) * sizeof *succ);
  uint32_t *work = malloc(n * sizeof *work), *visits = calloc(n, sizeof *visits);
  bool *queued = calloc(n, sizeof *queued), *reached = calloc(n, sizeof *reached);
  struct aval *in = malloc((size_t)n * NREG * sizeof *in), r[NREG];
  enum sg_status st = f->block_of && f->start && off && succ && work && visits && queued &&
                              reached && in
                          ? SG_OK
                          : SG_ENOMEM;
  uint32_t nwork = 0;
  if (st == SG_OK) {
    find_blocks(f);
    block_edges(f, off, succ);
    for (int i = 0; i < NREG; i++)
      in[i] = unknown;
    in[0] = konst(0);
    in[REG_SP] = (struct aval){V_SP, 0};
    reached[0] = queued[0] = true;
    work[nwork++] = 0;
  }
  while (nwork && !fs->error[0]) {
    uint32_t b = work[--nwork];
    queued[b] = false;
    if (++visits[b] > MAX_VISITS) {
      snprintf(fs->error, sizeof fs->error,
               "the stack pointer of function '%s' keeps moving in a loop (at PC 0x%llx)",
               fs->sym->name, (unsigned long long)(f->base + 4ull * f->start[b]));
      break;
    }
    memcpy(r, &in[(size_t)b * NREG], sizeof r);
    run_block(NULL, f, b, r);
    for (uint32_t e = off[b]; e < off[b + 1]; e++) {
      uint32_t s = succ[e];
      if (s == f->nblocks)
        continue;
      bool changed = reached[s] ? meet(&in[(size_t)s * NREG], r) : true;
      if (!reached[s])
        memcpy(&in[(size_t)s * NREG], r, sizeof r), reached[s] = true;
      if (changed && !queued[s])
        queued[s] = true, work[nwork++] = s;
    }
  }
  for (uint32_t b = 0; st == SG_OK && !fs->error[0] && b < f->nblocks; b++) {
    if (!reached[b])
      continue;
    memcpy(r, &in[(size_t)b * NREG], sizeof r);
    run_block(fs, f, b, r);
  }
  free(f->block_of), free(f->start), free(off), free(succ);
  free(work), free(visits), free(queued), free(reached), free(in);
  return st;
}

static int by_addr(const void *a, const void *b)
{
  uint64_t x = (*(const struct fn_stack *const *)a)->sym->addr;
  uint64_t y = (*(const struct fn_stack *const *)b)->sym->addr;
  return x < y ? -1 : x > y;
}

/* Index of the function starting at addr, -1 if none. */
static int64_t function_at(struct fn_stack **sorted, const struct fn_stack *fns, uint32_t n,
                           uint64_t addr)
{
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (sorted[mid]->sym->addr < addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && sorted[lo]->sym->addr == addr ? sorted[lo] - fns : -1;
}

static uint64_t chain(int64_t depth, uint64_t below_it)
{
  if (depth >= 0)
    return below_it > UINT64_MAX - (uint64_t)depth ? UINT64_MAX : below_it + (uint64_t)depth;
  return below_it > (uint64_t)-depth ? below_it - (uint64_t)-depth : 0;
}

/* need of fns[i]: its frame or a call's depth plus its callee's need,
 * whichever is deepest. A call back into the current chain (recursion) or
 * to an unknown target makes need a lower bound, with the reason in why. */
static void walk(struct fn_stack *fns, uint32_t i)
{
  struct fn_stack *f = &fns[i];
  f->mark = 1;
  f->need = f->frame > 0 ? (uint64_t)f->frame : 0;
  f->bad = f->error[0] ? f->error : NULL;
  for (uint32_t c = 0; c < f->ncalls; c++) {
    const struct fn_call *call = &f->calls[c];
    uint64_t callee_need = 0;
    const char *why = NULL;
    if (call->callee < 0) {
      why = f->why_buf;
      if (!call->known)
        snprintf(f->why_buf, sizeof f->why_buf, "an indirect call in '%s' at PC 0x%llx",
                 f->sym->name, (unsigned long long)call->pc);
      else
        snprintf(f->why_buf, sizeof f->why_buf,
                 "a call in '%s' at PC 0x%llx to 0x%llx, which is not the start of a function",
                 f->sym->name, (unsigned long long)call->pc, (unsigned long long)call->target);
    } else if (fns[call->callee].mark == 1) {
      why = f->why_buf;
      snprintf(f->why_buf, sizeof f->why_buf, "recursion: '%s' calls '%s' at PC 0x%llx",
               f->sym->name, fns[call->callee].sym->name, (unsigned long long)call->pc);
    } else {
      struct fn_stack *g = &fns[call->callee];
      if (g->mark == 0)
        walk(fns, (uint32_t)call->callee);
      callee_need = g->need;
      why = g->why;
      if (!f->bad)
        f->bad = g->bad;
    }
    if (why && !f->why)
      f->why = why;
    uint64_t d = chain(call->depth, callee_need);
    f->need = d > f->need ? d : f->need;
  }
  f->mark = 2;
}

static void free_fns(struct fn_stack *fns, uint32_t n)
{
  for (uint32_t i = 0; fns && i < n; i++)
    free(fns[i].calls);
  free(fns);
}

/* Reads every function of l (frames and calls). */
static enum sg_status analyse_functions(const struct sg_linked *l, struct fn_stack **out,
                                        uint32_t *nout)
{
  uint32_t n = 0;
  struct fn_stack *fns = calloc(l->num_symbols + 1, sizeof *fns);
  struct fn_stack **sorted = calloc(l->num_symbols + 1, sizeof *sorted);
  enum sg_status st = fns && sorted ? SG_OK : SG_ENOMEM;
  for (uint32_t s = 0; st == SG_OK && s < l->num_symbols; s++) {
    const struct sg_cc_symbol *sym = &l->symbols[s];
    /* sg_cc_reconv has checked that functions lie within the code */
    if (!sym->is_func || !sym->size || sym->addr < SG_ADDR_CODE ||
        sym->addr + sym->size > SG_ADDR_CODE + l->text_size || (sym->addr | sym->size) & 3)
      continue;
    struct fn_stack *fs = &fns[n];
    fs->sym = sym;
    struct func_cfg f;
    if (!decode_function(l, sym, &f)) {
      st = SG_ENOMEM;
      break;
    }
    st = analyse_frame(&f, fs);
    free(f.uops);
    sorted[n] = fs;
    n++;
  }
  if (st == SG_OK) {
    qsort(sorted, n, sizeof *sorted, by_addr);
    for (uint32_t i = 0; i < n; i++)
      for (uint32_t c = 0; c < fns[i].ncalls; c++) {
        struct fn_call *call = &fns[i].calls[c];
        call->callee = call->known ? function_at(sorted, fns, n, call->target) : -1;
        if (call->known && call->callee < 0)
          call->callee = -2;
      }
  }
  free(sorted);
  if (st != SG_OK) {
    free_fns(fns, n);
    return st;
  }
  *out = fns;
  *nout = n;
  return SG_OK;
}

enum sg_status sg_cc_stack_sizes(const struct sg_linked *l, struct sg_kernel_info *kernels,
                                 uint32_t num_kernels, uint64_t limit, struct sg_text *log)
{
  struct fn_stack *fns = NULL;
  uint32_t n = 0;
  enum sg_status st = analyse_functions(l, &fns, &n);
  for (uint32_t k = 0; st != SG_ENOMEM && k < num_kernels; k++) {
    struct sg_kernel_info *ki = &kernels[k];
    int64_t i = -1;
    for (uint32_t j = 0; j < n && i < 0; j++)
      if (fns[j].sym->addr == ki->entry_pc)
        i = j;
    if (i < 0) {
      sg_text_printf(log, "error: kernel '%s': no code at its entry point\n", ki->name);
      st = SG_EBUILD;
      continue;
    }
    if (fns[i].mark == 0)
      walk(fns, (uint32_t)i);
    if (fns[i].bad) {
      sg_text_printf(log, "error: kernel '%s': its private memory cannot be bounded: %s\n",
                     ki->name, fns[i].bad);
      st = SG_EBUILD;
      continue;
    }
    ki->private_size = fns[i].need;
    if (ki->private_size > limit) {
      sg_text_printf(log,
                     "error: kernel '%s' needs %llu bytes of private memory per work-item "
                     "(its deepest call chain); the device has %llu\n",
                     ki->name, (unsigned long long)ki->private_size, (unsigned long long)limit);
      st = SG_EBUILD;
      continue;
    }
    ki->uses &= ~(uint32_t)SG_USES_UNBOUNDED_STACK;
    if (fns[i].why) {
      ki->uses |= SG_USES_UNBOUNDED_STACK;
      sg_text_printf(log,
                     "warning: kernel '%s': its private memory cannot be bounded (%s); each "
                     "work-item gets the device's stack_per_lane bytes, and accesses beyond "
                     "them are reported as device findings\n",
                     ki->name, fns[i].why);
    }
  }
  free_fns(fns, n);
  return st;
}
