/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), statistics: a consumer of the core's
 * instruction records and events that counts the sg_stats.def counters;
 * counters of CTAs and host threads are summed (or maxed) per launch. */
#include "sg_sim_impl.h"

enum { KIND_WARP, KIND_THREAD, KIND_EVENT, KIND_MAX };
#define WARP KIND_WARP
#define THREAD KIND_THREAD
#define EVENT KIND_EVENT
#define MAX KIND_MAX

void sg_stats_add(struct sg_stats *into, const struct sg_stats *from) {
#define SG_STAT(name, kind, help)                                                            \
  into->name = kind == KIND_MAX ? (from->name > into->name ? from->name : into->name)        \
                                : into->name + from->name;
#include "sg_stats.def"
#undef SG_STAT
}

void sg_stats_print_json(const struct sg_stats *s, FILE *out) {
  const char *sep = "";
#define SG_STAT(name, kind, help)                                                            \
  fprintf(out, "%s\"" #name "\":%llu", sep, (unsigned long long)s->name);                     \
  sep = ",";
#include "sg_stats.def"
#undef SG_STAT
  fprintf(out, ",\"simd_efficiency\":%.4f",
          s->lane_slots ? (double)s->thread_insns / (double)s->lane_slots : 0.0);
}

#undef WARP
#undef THREAD
#undef EVENT
#undef MAX

static void on_insn(struct sg_hook *self, const struct sg_insn_record *r) {
  struct sg_stats_hook *h = (struct sg_stats_hook *)self;
  struct sg_stats *s = &h->stats;
  s->warp_insns++;
  s->thread_insns += (uint64_t)__builtin_popcountll(r->mask);
  s->lane_slots += h->warp_size;
  if (r->unit == SG_UNIT_TEX) {
    s->tex_reads += r->mem == SG_MEM_LOAD;
    s->tex_writes += r->mem == SG_MEM_STORE;
    for (uint64_t m = r->mask; m; m &= m - 1)
      s->texels += r->texels[__builtin_ctzll(m)];
  } else {
    s->loads += r->mem == SG_MEM_LOAD;
    s->stores += r->mem == SG_MEM_STORE;
    s->atomics += r->mem == SG_MEM_ATOMIC;
  }
  if (sg_op_fmt(r->uop->op) == SG_FMT_B) {
    s->branches++;
    s->divergent_branches += r->taken && r->taken != r->mask;
  }
}

static void on_event(struct sg_hook *self, const struct sg_event *e) {
  struct sg_stats *s = &((struct sg_stats_hook *)self)->stats;
  switch (e->kind) {
  case SG_EV_CTA_START:
    s->ctas++;
    s->warps += e->arg;
    s->max_paths = s->max_paths ? s->max_paths : 1; /* a warp starts as one path */
    break;
  case SG_EV_BARRIER_RELEASE: s->barriers++; break;
  case SG_EV_PATHS: s->paths_created += e->arg; break;
  case SG_EV_RECONVERGE: s->reconvergences++; break;
  case SG_EV_PATH_SWITCH: s->path_switches++; break;
  case SG_EV_PATH_COUNT:
    s->max_paths = e->arg > s->max_paths ? e->arg : s->max_paths;
    s->max_reconv_entries = e->arg2 > s->max_reconv_entries ? e->arg2 : s->max_reconv_entries;
    break;
  default: break;
  }
}

void sg_stats_hook_init(struct sg_stats_hook *h, uint32_t warp_size) {
  *h = (struct sg_stats_hook){.hook = {on_insn, on_event}, .warp_size = warp_size};
}
