/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), device diagnostics: the table of finding
 * kinds (sg_fault.def) and the sites of findings that did not end a CTA,
 * merged across host threads into one deterministic report. */
#include "sg_sim_impl.h"

#include <stdlib.h>
#include <string.h>

static const struct {
  const char *name, *text;
  bool fatal;
} kinds[SG_FAULT_COUNT] = {
#define SG_FAULT(name, fatal, what) [SG_FAULT_##name] = {#name, what, fatal},
#include "sg_fault.def"
#undef SG_FAULT
};

bool sg_fault_fatal(enum sg_fault_kind k) { return k < SG_FAULT_COUNT && kinds[k].fatal; }
const char *sg_fault_name(enum sg_fault_kind k) {
  return k < SG_FAULT_COUNT ? kinds[k].name : "UNKNOWN";
}
const char *sg_fault_text(enum sg_fault_kind k) {
  return k < SG_FAULT_COUNT ? kinds[k].text : "unknown finding";
}

struct sg_finding_site *sg_findings_site(struct sg_findings *f, enum sg_fault_kind kind,
                                         uint64_t pc, uint64_t other_pc) {
  for (uint32_t i = 0; i < f->count; i++)
    if (f->site[i].first.kind == kind && f->site[i].first.pc == pc &&
        f->site[i].first.other.pc == other_pc)
      return &f->site[i];
  if (f->count == SG_FINDINGS_MAX)
    return NULL;
  if (f->count == f->cap) {
    uint32_t cap = f->cap ? 2 * f->cap : 16;
    struct sg_finding_site *s = realloc(f->site, cap * sizeof *s);
    if (!s)
      return NULL;
    f->site = s, f->cap = cap;
  }
  struct sg_finding_site *s = &f->site[f->count++];
  memset(s, 0, sizeof *s);
  s->first.kind = kind;
  s->first.pc = pc;
  s->first.other.pc = other_pc;
  s->cta = UINT64_MAX; /* no occurrence yet: any work-item comes first */
  return s;
}

static bool earlier(const struct sg_finding_site *a, const struct sg_finding_site *b) {
  return a->cta != b->cta ? a->cta < b->cta : a->first.thread < b->first.thread;
}

void sg_findings_add(struct sg_findings *f, const struct sg_finding_site *src) {
  struct sg_finding_site *dst =
      sg_findings_site(f, src->first.kind, src->first.pc, src->first.other.pc);
  if (!dst) {
    f->lost += src->count;
    return;
  }
  uint64_t count = dst->count + src->count;
  if (earlier(src, dst))
    *dst = *src;
  dst->count = count;
}

void sg_findings_merge(struct sg_findings *into, const struct sg_findings *from) {
  into->lost += from->lost;
  for (uint32_t i = 0; i < from->count; i++)
    sg_findings_add(into, &from->site[i]);
}

static int by_first(const void *a, const void *b) {
  const struct sg_finding_site *x = a, *y = b;
  if (earlier(x, y))
    return -1;
  if (earlier(y, x))
    return 1;
  if (x->first.pc != y->first.pc)
    return x->first.pc < y->first.pc ? -1 : 1;
  if (x->first.kind != y->first.kind)
    return (int)x->first.kind - (int)y->first.kind;
  return x->first.other.pc < y->first.other.pc ? -1 : x->first.other.pc > y->first.other.pc;
}

void sg_findings_sort(struct sg_findings *f) {
  if (f->count > 1)
    qsort(f->site, f->count, sizeof *f->site, by_first);
}

void sg_findings_clear(struct sg_findings *f) {
  f->count = 0;
  f->lost = 0;
}

void sg_findings_free(struct sg_findings *f) {
  free(f->site);
  memset(f, 0, sizeof *f);
}
