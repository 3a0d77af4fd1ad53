/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler", reconvergence: the machine CFG of each linked
 * function, its post-dominator tree (Cooper-Harvey-Kennedy on the reverse
 * CFG), and the table conditional-branch PC -> immediate post-dominator PC. */
#include "sg_cc_internal.h"

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
    struct func_cfg f = {.base = sym->addr, .ninsn = (uint32_t)(sym->size / 4)};
    f.uops = malloc(f.ninsn * sizeof *f.uops);
    if (!f.uops) {
      st = SG_ENOMEM;
      break;
    }
    for (uint32_t i = 0; i < f.ninsn; i++) {
      uint32_t w;
      memcpy(&w, l->ro + (sym->addr - SG_ADDR_CODE) + 4ull * i, 4);
      sg_decode(w, &f.uops[i]);
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

/* Bytes one function's prologue takes from sp: "addi sp, sp, -n", or for
 * large frames "sub sp, sp, rX" with rX built by lui/addi(w) just before. */
static uint64_t frame_size(const uint8_t *code, uint64_t ninsn)
{
  int64_t known[32] = {0}, total = 0;
  for (uint64_t i = 0; i < ninsn; i++) {
    uint32_t w;
    memcpy(&w, code + 4 * i, 4);
    struct sg_uop u;
    sg_decode(w, &u);
    enum sg_flow fl = sg_uop_flow(&u);
    if (fl != SG_FLOW_NEXT && fl != SG_FLOW_CALL)
      break; /* the prologue ends before any control flow */
    if (u.op == SG_OP_LUI && u.rd)
      known[u.rd] = u.imm;
    else if ((u.op == SG_OP_ADDI || u.op == SG_OP_ADDIW) && u.rd == 2 && u.rs1 == 2)
      total -= u.imm < 0 ? u.imm : 0;
    else if ((u.op == SG_OP_ADDI || u.op == SG_OP_ADDIW) && u.rd && u.rd == u.rs1)
      known[u.rd] += u.imm;
    else if (u.op == SG_OP_SUB && u.rd == 2 && u.rs1 == 2)
      total += known[u.rs2] > 0 ? known[u.rs2] : 0;
  }
  return (uint64_t)total;
}

/* OpenCL C has no recursion, so the frames of all functions together bound
 * any call chain's stack. */
uint32_t sg_cc_stack_size(const struct sg_linked *l)
{
  uint64_t sum = 0;
  for (uint32_t s = 0; s < l->num_symbols; s++) {
    const struct sg_cc_symbol *f = &l->symbols[s];
    if (f->is_func && f->addr >= SG_ADDR_CODE && f->addr + f->size <= SG_ADDR_CODE + l->text_size)
      sum += frame_size(l->ro + (f->addr - SG_ADDR_CODE), f->size / 4);
  }
  return sum > UINT32_MAX ? UINT32_MAX : (uint32_t)((sum + 15) & ~15ull);
}
