/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), timing mode: the memory hierarchy's
 * parts. Caches keep tags and sector state (the data is in host memory, and
 * the functional core already read or wrote it); the coalescer turns a
 * warp's lanes into line transactions; local memory counts bank conflicts;
 * the shared L2 (banked, write-back, where atomics are performed) and DRAM
 * (channels with a bus of so many bytes per cycle and banks with an open
 * row) say when each request's response reaches its core. */
#include "sg_timing.h"

#include <stdlib.h>
#include <string.h>

static uint32_t log2u(uint64_t v) { return (uint32_t)__builtin_ctzll(v); }

/* ---- Caches ----------------------------------------------------------- */

enum sg_status sg_cache_init(struct sg_cache *c, uint64_t size, uint32_t ways, uint32_t line,
                             uint32_t sector) {
  memset(c, 0, sizeof *c);
  c->ways = ways;
  c->line = line;
  c->sector = sector;
  c->line_shift = log2u(line);
  c->sector_shift = log2u(sector);
  c->sets = (uint32_t)(size / ((uint64_t)line * ways));
  if (!(c->l = malloc((size_t)c->sets * ways * sizeof *c->l)) ||
      !(c->tag = malloc((size_t)c->sets * ways * sizeof *c->tag)))
    return SG_ENOMEM;
  return SG_OK;
}

void sg_cache_free(struct sg_cache *c) {
  free(c->l);
  free(c->tag);
  c->l = NULL;
  c->tag = NULL;
}

void sg_cache_clear(struct sg_cache *c) {
  for (size_t i = 0; i < (size_t)c->sets * c->ways; i++) {
    c->l[i] = (struct sg_cache_line){.line = UINT64_MAX};
    c->tag[i] = UINT64_MAX;
  }
  c->tick = 0;
}

struct sg_cache_line *sg_cache_find(struct sg_cache *c, uint64_t a) {
  uint64_t line = a >> c->line_shift;
  size_t set = (line % c->sets) * c->ways;
  const uint64_t *tag = &c->tag[set];
  for (uint32_t w = 0; w < c->ways; w++)
    if (tag[w] == line) {
      c->l[set + w].lru = ++c->tick;
      return &c->l[set + w];
    }
  return NULL;
}

struct sg_cache_line *sg_cache_alloc(struct sg_cache *c, uint64_t a, struct sg_cache_line *victim) {
  uint64_t line = a >> c->line_shift;
  struct sg_cache_line *set = &c->l[(line % c->sets) * c->ways], *v = &set[0];
  for (uint32_t w = 1; w < c->ways && v->line != UINT64_MAX; w++)
    if (set[w].line == UINT64_MAX || set[w].lru < v->lru)
      v = &set[w];
  *victim = *v;
  *v = (struct sg_cache_line){.line = line, .lru = ++c->tick};
  c->tag[v - c->l] = line;
  return v;
}

uint32_t sg_cache_sectors(const struct sg_cache *c, uint64_t a, uint32_t bytes) {
  uint64_t base = a >> c->line_shift << c->line_shift;
  uint32_t first = (uint32_t)((a - base) >> c->sector_shift);
  uint32_t last = (uint32_t)((a + bytes - 1 - base) >> c->sector_shift);
  uint32_t nsec = c->line >> c->sector_shift;
  last = last < nsec ? last : nsec - 1;
  return (uint32_t)(((2ull << last) - 1) & ~((1ull << first) - 1));
}

/* ---- Coalescing --------------------------------------------------------- */

static void add_txn(struct sg_txn *out, uint32_t *n, uint64_t line_addr, uint32_t sectors) {
  for (uint32_t i = 0; i < *n; i++)
    if (out[i].line_addr == line_addr) {
      out[i].sectors |= sectors;
      return;
    }
  out[(*n)++] = (struct sg_txn){line_addr, sectors};
}

uint32_t sg_coalesce(const uint64_t *addr, uint64_t mask, uint32_t size, uint32_t line,
                     uint32_t sector, struct sg_txn *out) {
  uint32_t n = 0, ls = log2u(line), ss = log2u(sector);
  for (uint64_t m = mask; m; m &= m - 1) {
    uint64_t a = addr[__builtin_ctzll(m)], end = a + (size ? size : 1) - 1;
    for (uint64_t l = a >> ls; l <= end >> ls; l++) { /* at most two lines */
      uint64_t lo = l << ls > a ? l << ls : a, hi = ((l + 1) << ls) - 1 < end ? ((l + 1) << ls) - 1 : end;
      uint32_t first = (uint32_t)((lo - (l << ls)) >> ss), last = (uint32_t)((hi - (l << ls)) >> ss);
      add_txn(out, &n, l << ls, (uint32_t)(((2ull << last) - 1) & ~((1ull << first) - 1)));
    }
  }
  return n;
}

uint32_t sg_smem_wavefronts(const uint64_t *addr, uint64_t mask, uint32_t size, uint32_t banks,
                            uint32_t bank_bytes) {
  /* For each bank, the distinct words asked of it (a list per bank); a
   * wider access covers several consecutive banks. */
  enum { MAX_WORDS = SG_MAX_WARP_SIZE * 4, NO = -1 };
  uint64_t word[MAX_WORDS];
  int16_t next[MAX_WORDS], head[64];
  uint32_t count[64] = {0}, nwords = 0, worst = 1;
  for (uint32_t b = 0; b < banks; b++)
    head[b] = NO;
  for (uint64_t m = mask; m; m &= m - 1) {
    uint64_t a = addr[__builtin_ctzll(m)];
    for (uint64_t w = a / bank_bytes; w <= (a + (size ? size : 1) - 1) / bank_bytes; w++) {
      uint32_t b = (uint32_t)(w % banks);
      int16_t i = head[b];
      while (i != NO && word[i] != w)
        i = next[i];
      if (i != NO || nwords == MAX_WORDS)
        continue;
      word[nwords] = w;
      next[nwords] = head[b];
      head[b] = (int16_t)nwords++;
      worst = ++count[b] > worst ? count[b] : worst;
    }
  }
  return worst;
}

uint32_t sg_distinct_addrs(const uint64_t *addr, uint64_t mask) {
  uint32_t n = 0;
  for (uint64_t m = mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    bool seen = false;
    for (uint64_t k = mask & ((1ull << l) - 1); k && !seen; k &= k - 1)
      seen = addr[__builtin_ctzll(k)] == addr[l];
    n += !seen;
  }
  return n;
}

/* ---- L2 and DRAM ------------------------------------------------------ */

enum sg_status sg_l2_init(struct sg_l2 *m, const struct sg_timing_config *t) {
  memset(m, 0, sizeof *m);
  m->t = t;
  m->bank = calloc(t->l2_banks, sizeof *m->bank);
  m->bank_free = calloc(t->l2_banks, sizeof *m->bank_free);
  m->chan_free = calloc(t->dram_channels, sizeof *m->chan_free);
  m->open_row = calloc((size_t)t->dram_channels * t->dram_banks, sizeof *m->open_row);
  if (!m->bank || !m->bank_free || !m->chan_free || !m->open_row)
    return SG_ENOMEM;
  for (uint32_t b = 0; b < t->l2_banks; b++)
    if (sg_cache_init(&m->bank[b], t->l2_size / t->l2_banks, t->l2_assoc, t->l2_line,
                      t->l2_sector) != SG_OK)
      return SG_ENOMEM;
  sg_l2_clear(m);
  return SG_OK;
}

void sg_l2_free(struct sg_l2 *m) {
  for (uint32_t b = 0; m->bank && b < m->t->l2_banks; b++)
    sg_cache_free(&m->bank[b]);
  free(m->bank);
  free(m->bank_free);
  free(m->chan_free);
  free(m->open_row);
}

void sg_l2_clear(struct sg_l2 *m) {
  const struct sg_timing_config *t = m->t;
  for (uint32_t b = 0; b < t->l2_banks; b++) {
    sg_cache_clear(&m->bank[b]);
    m->bank_free[b] = 0;
  }
  memset(m->chan_free, 0, t->dram_channels * sizeof *m->chan_free);
  for (size_t i = 0; i < (size_t)t->dram_channels * t->dram_banks; i++)
    m->open_row[i] = UINT64_MAX;
}

/* One DRAM access of `bytes` at line address a, starting no earlier than
 * `at`: the channel (lines interleaved) transfers bytes / bytes_per_cycle
 * cycles on its bus; the bank's open row decides the latency. Returns when
 * the data is at the L2. */
static uint64_t dram(struct sg_l2 *m, uint64_t a, uint32_t bytes, uint64_t at, bool write,
                     struct sg_timing_stats *s) {
  const struct sg_timing_config *t = m->t;
  uint64_t line = a / t->l2_line;
  uint32_t ch = (uint32_t)(line % t->dram_channels);
  uint64_t in_ch = (line / t->dram_channels) * t->l2_line; /* byte address within the channel */
  uint64_t row = in_ch / t->dram_row_bytes;
  uint32_t bank = (uint32_t)(row % t->dram_banks);
  uint64_t *open = &m->open_row[(size_t)ch * t->dram_banks + bank];
  bool hit = *open == row;
  *open = row;
  uint64_t burst = (bytes + t->dram_bytes_per_cycle - 1) / t->dram_bytes_per_cycle;
  uint64_t start = at > m->chan_free[ch] ? at : m->chan_free[ch];
  m->chan_free[ch] = start + burst;
  s->dram_busy_cycles += burst;
  s->dram_bytes += bytes;
  s->dram_row_hits += hit;
  s->dram_row_misses += !hit;
  *(write ? &s->dram_writes : &s->dram_reads) += bytes / t->l2_sector;
  return start + t->dram_latency + (hit ? 0 : t->dram_row_miss) + burst - 1;
}

/* Makes room in bank b for the line of key (the bank's view of an
 * address), writing back the dirty sectors of the line it evicts. */
static struct sg_cache_line *l2_alloc(struct sg_l2 *m, uint32_t b, uint64_t key, uint64_t serve,
                                      struct sg_timing_stats *s) {
  const struct sg_timing_config *t = m->t;
  struct sg_cache_line victim, *l = sg_cache_alloc(&m->bank[b], key, &victim);
  if (victim.line != UINT64_MAX && victim.dirty)
    dram(m, (victim.line * t->l2_banks + b) * t->l2_line,
         (uint32_t)__builtin_popcount(victim.dirty) * t->l2_sector, serve, true, s);
  return l;
}

uint64_t sg_l2_access(struct sg_l2 *m, const struct sg_mem_req *r, struct sg_timing_stats *s) {
  const struct sg_timing_config *t = m->t;
  uint64_t line = r->addr / t->l2_line;
  uint32_t b = (uint32_t)(line % t->l2_banks);
  struct sg_cache *c = &m->bank[b];
  /* the bank's cache sees line numbers with the bank bits taken out */
  uint64_t key = (line / t->l2_banks) * t->l2_line + r->addr % t->l2_line;
  uint64_t serve = r->cycle > m->bank_free[b] ? r->cycle : m->bank_free[b];
  m->bank_free[b] = serve + (r->kind == SG_REQ_ATOMIC ? r->lanes : 1);
  uint32_t want = sg_cache_sectors(c, key, r->bytes);
  struct sg_cache_line *l = sg_cache_find(c, key);
  uint64_t ready = serve + t->l2_latency;
  *(r->kind == SG_REQ_WRITE ? &s->l2_writes : r->kind == SG_REQ_ATOMIC ? &s->l2_atomics
                                                                       : &s->l2_reads) += 1;
  if (r->kind == SG_REQ_WRITE) { /* write-allocate by sector: no DRAM read */
    if (!l)
      l = l2_alloc(m, b, key, serve, s);
    l->valid |= want;
    l->dirty |= want;
    s->l2_hits++;
    return ready + t->noc_latency;
  }
  uint32_t missing = l ? want & ~l->valid : want;
  if (!missing) {
    s->l2_hits++;
    ready = ready > l->ready ? ready : l->ready; /* a fill still on its way */
  } else {
    s->l2_misses++;
    if (!l)
      l = l2_alloc(m, b, key, serve, s);
    uint64_t fill = dram(m, r->addr, (uint32_t)__builtin_popcount(missing) * t->l2_sector,
                         serve + t->l2_latency, false, s);
    l->valid |= missing;
    l->ready = fill > l->ready ? fill : l->ready;
    ready = fill;
  }
  if (r->kind == SG_REQ_ATOMIC) {
    ready += t->atomic_latency + (r->lanes ? r->lanes - 1u : 0u);
    l->dirty |= want;
  }
  return ready + t->noc_latency;
}
