/* SPDX-License-Identifier: MIT */
/* cli/: the figures of `softgpu report` (DESIGN.md 4, timing mode "reports
 * cycles and explains them"): SIMD efficiency per kernel, cache hit rates,
 * and per timing launch each core's stall reasons and IPC and warps over
 * time. They read fields by name, so each is checked before anything is
 * written (docs/decisions.md, "its figures by names"). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sg_cli_report.h"

#define LABEL_CHARS 24                /* longer kernel names are cut in bar labels */
#define MAX_REASONS 32                /* stall reasons a legend shows (the simulator has 11) */
#define LABEL_SIZE (LABEL_CHARS + 32) /* "#N ", the name, an ellipsis */

/* The caches of the hit-rate figure, with the fields that give their rate. */
static const struct cache {
  const char *label, *rate, *hits, *misses, *colour;
} caches[] = {
    {"L1 data", "l1_hit_rate", "l1_hits", "l1_misses", "#4e79a7"},
    {"L2", "l2_hit_rate", "l2_hits", "l2_misses", "#f28e2b"},
    {"constant", "const_hit_rate", "const_hits", "const_misses", "#59a14f"},
    {"instruction", "icache_hit_rate", "icache_hits", "icache_misses", "#b07aa1"},
};
#define NCACHES (sizeof caches / sizeof caches[0])

/* A launch's fields as checked; NAN or NULL: not in the file. */
struct launch_fig {
  double simd, threads, slots; /* simd_efficiency, thread_insns, lane_slots */
  bool timed;                  /* has a timing object */
  double cycles, ipc, sched;
  double rate[NCACHES], hits[NCACHES], misses[NCACHES];
  const struct sg_json *per_core;       /* an array of objects */
  const struct sg_json *issued, *warps; /* arrays of counts, as long as each other */
  double interval;                      /* > 0 when there are samples */
  bool drawn;                           /* gets figures of its own */
};

struct sg_cli_figures {
  struct launch_fig *l; /* one per launch */
  size_t ntimed;
  const char *reasons[MAX_REASONS]; /* the stall reasons, first seen first */
  size_t nreasons;
};

/* ---- Reading the fields, checked ----------------------------------------- */

struct check {
  struct report *r;
  size_t launch;
  bool ok;
};

/* The first bad field ends the report with one line; later ones are not
 * reported, as they often follow from it. */
static void bad(struct check *c, const char *path, const char *why) {
  if (c->ok)
    sg_cli_error(SG_EXIT_INPUT, "report", "%s: launch %zu: %s %s", c->r->file, c->launch + 1, path,
                 why);
  c->ok = false;
}

/* What a named number may be. The timing model's counters are 64-bit
 * integers; holding the file to that keeps every sum and quotient drawn
 * finite (an interval is at least a cycle). */
enum kind {
  COUNT, /* a whole number from 0 to 2^64 */
  RATE,  /* any number from 0 to 2^64 (IPC) */
  SHARE  /* a number from 0 to 1 (hit rates, SIMD efficiency) */
};
static const char *const kind_text[] = {"is not a whole number from 0 to 2^64",
                                        "is not a number from 0 to 2^64",
                                        "is not a number from 0 to 1"};

/* v's number, or NAN after reporting it. */
static double number(struct check *c, const struct sg_json *v, const char *path, enum kind kind) {
  double max = kind == SHARE ? 1 : 0x1p64;
  if (v->type == SG_JSON_NUMBER && v->number >= 0 && v->number <= max &&
      (kind != COUNT || v->integer))
    return v->number;
  bad(c, path, kind_text[kind]);
  return NAN;
}

/* The member key of obj (at where) as number() sees it; NAN when absent. */
static double member(struct check *c, const struct sg_json *obj, const char *where, const char *key,
                     enum kind kind) {
  const struct sg_json *v = sg_json_get(obj, key);
  char path[256];
  snprintf(path, sizeof path, "%s%s%s", where, *where ? "." : "", key);
  return v ? number(c, v, path, kind) : NAN;
}

/* Adds a stall reason the first time it is seen; false past MAX_REASONS. */
static bool add_reason(struct sg_cli_figures *f, const char *name) {
  for (size_t i = 0; i < f->nreasons; i++)
    if (!strcmp(f->reasons[i], name))
      return true;
  if (f->nreasons == MAX_REASONS)
    return false;
  f->reasons[f->nreasons++] = name;
  return true;
}

static void check_stalls(struct check *c, const struct sg_json *st, const char *where) {
  if (!st)
    return;
  if (st->type != SG_JSON_OBJECT)
    return bad(c, where, "is not an object");
  for (size_t i = 0; i < st->count; i++) {
    char path[256];
    snprintf(path, sizeof path, "%s.%s", where, st->keys[i]);
    number(c, &st->items[i], path, COUNT);
    if (!add_reason(c->r->fig, st->keys[i]))
      return bad(c, where, "has more than " SG_CLI_STR(MAX_REASONS) " stall reasons");
  }
}

/* An array of counts, or NULL after reporting why not. */
static const struct sg_json *counts(struct check *c, const struct sg_json *a, const char *where) {
  if (a->type != SG_JSON_ARRAY) {
    bad(c, where, "is not an array");
    return NULL;
  }
  for (size_t i = 0; i < a->count; i++) {
    char path[256];
    snprintf(path, sizeof path, "%s[%zu]", where, i);
    number(c, &a->items[i], path, COUNT);
  }
  return a;
}

static void check_samples(struct check *c, const struct sg_json *s, struct launch_fig *d) {
  if (s->type != SG_JSON_OBJECT)
    return bad(c, "timing.samples", "is not an object");
  const struct sg_json *issued = sg_json_get(s, "issued"), *warps = sg_json_get(s, "warps");
  double interval = member(c, s, "timing.samples", "interval", COUNT);
  if (!issued || !warps || isnan(interval))
    return bad(c, "timing.samples", "lacks interval, issued or warps");
  issued = counts(c, issued, "timing.samples.issued");
  warps = counts(c, warps, "timing.samples.warps");
  if (!issued || !warps)
    return;
  if (issued->count != warps->count)
    return bad(c, "timing.samples", "has issued and warps of different lengths");
  if (issued->count && !(interval > 0))
    return bad(c, "timing.samples.interval", "is 0 but there are samples");
  d->issued = issued, d->warps = warps, d->interval = interval;
}

static void check_timing(struct check *c, const struct sg_json *t, struct launch_fig *d) {
  if (t->type != SG_JSON_OBJECT)
    return bad(c, "timing", "is not an object");
  d->timed = true;
  d->cycles = member(c, t, "timing", "cycles", COUNT);
  d->ipc = member(c, t, "timing", "ipc", RATE);
  d->sched = member(c, t, "timing", "sched_per_core", COUNT);
  for (size_t k = 0; k < NCACHES; k++) {
    d->rate[k] = member(c, t, "timing", caches[k].rate, SHARE);
    d->hits[k] = member(c, t, "timing", caches[k].hits, COUNT);
    d->misses[k] = member(c, t, "timing", caches[k].misses, COUNT);
  }
  check_stalls(c, sg_json_get(t, "stalls"), "timing.stalls");
  const struct sg_json *pc = sg_json_get(t, "per_core");
  if (pc && pc->type != SG_JSON_ARRAY)
    return bad(c, "timing.per_core", "is not an array");
  for (size_t i = 0; pc && i < pc->count; i++) {
    char path[64];
    snprintf(path, sizeof path, "timing.per_core[%zu]", i);
    if (pc->items[i].type != SG_JSON_OBJECT)
      return bad(c, path, "is not an object");
    strcat(path, ".stalls");
    check_stalls(c, sg_json_get(&pc->items[i], "stalls"), path);
  }
  d->per_core = pc && pc->count ? pc : NULL;
  const struct sg_json *s = sg_json_get(t, "samples");
  if (s)
    check_samples(c, s, d);
}

/* Which of more than SG_CLI_MAX_FIGURES timing launches get figures of
 * their own: the longest launch of each kernel, then the longest of the
 * others, so every kernel shows before any shows twice. */
static void choose(const struct report *r) {
  struct launch_fig *l = r->fig->l;
  size_t picked[SG_CLI_MAX_FIGURES], n = 0;
  for (int pass = 0; pass < 2; pass++)
    while (n < SG_CLI_MAX_FIGURES) {
      size_t best = SIZE_MAX;
      for (size_t i = 0; i < r->nlaunches; i++) {
        double cycles = isnan(l[i].cycles) ? -1 : l[i].cycles;
        if (!l[i].timed || l[i].drawn ||
            (best != SIZE_MAX && !(cycles > (isnan(l[best].cycles) ? -1 : l[best].cycles))))
          continue;
        bool shown = false;
        for (size_t j = 0; pass == 0 && j < n; j++)
          shown |= !strcmp(r->launches[picked[j]].kernel, r->launches[i].kernel);
        if (!shown)
          best = i;
      }
      if (best == SIZE_MAX)
        break;
      l[best].drawn = true;
      picked[n++] = best;
    }
}

bool sg_cli_figures_load(struct report *r) {
  r->fig = calloc(1, sizeof *r->fig);
  if (r->fig)
    r->fig->l = calloc(r->nlaunches + 1, sizeof *r->fig->l);
  if (!r->fig || !r->fig->l) {
    sg_cli_error(SG_EXIT_INPUT, "report", "out of memory");
    return false;
  }
  struct check c = {r, 0, true};
  for (c.launch = 0; c.launch < r->nlaunches && c.ok; c.launch++) {
    struct launch_fig *d = &r->fig->l[c.launch];
    const struct sg_json *o = r->launches[c.launch].obj, *t = sg_json_get(o, "timing");
    d->simd = member(&c, o, "", "simd_efficiency", SHARE);
    d->threads = member(&c, o, "", "thread_insns", COUNT);
    d->slots = member(&c, o, "", "lane_slots", COUNT);
    d->cycles = d->ipc = d->sched = NAN;
    if (t)
      check_timing(&c, t, d);
    r->fig->ntimed += d->timed;
  }
  if (c.ok && r->fig->ntimed <= SG_CLI_MAX_FIGURES)
    for (size_t i = 0; i < r->nlaunches; i++)
      r->fig->l[i].drawn = r->fig->l[i].timed;
  else if (c.ok)
    choose(r);
  return c.ok;
}

void sg_cli_figures_free(struct report *r) {
  if (r->fig)
    free(r->fig->l);
  free(r->fig);
  r->fig = NULL;
}

/* ---- Shared pieces ---------------------------------------------------------- */

/* A bar's label: "#3 name", or the kernel's name alone; long names cut
 * (at a character, not inside one's UTF-8 bytes) with an ellipsis. */
static void label(char buf[LABEL_SIZE], size_t launch, const char *kernel) {
  int at = launch ? snprintf(buf, LABEL_SIZE, "#%zu ", launch) : 0;
  size_t n = strlen(kernel), cut = n;
  if (n > LABEL_CHARS)
    for (cut = LABEL_CHARS - 1; cut && ((unsigned char)kernel[cut] & 0xc0) == 0x80;)
      cut--;
  snprintf(buf + at, LABEL_SIZE - (size_t)at, "%.*s%s", (int)cut, kernel,
           cut < n ? "\xe2\x80\xa6" : "");
}

/* A value in [0, 1] as "75.0%". */
static void put_percent(FILE *out, double v) {
  fprintf(out, "%.1f%%", 100 * v);
}

/* ---- SIMD efficiency per kernel ------------------------------------------ */

/* Over a kernel's launches: thread_insns / lane_slots summed when every
 * launch has both (what simd_efficiency is per launch), else the mean of
 * simd_efficiency; NAN when no launch has either. */
static double kernel_simd(const struct report *r, const char *kernel, double *threads,
                          double *slots) {
  double eff = 0;
  unsigned n = 0;
  bool sums = true;
  *threads = *slots = 0;
  for (size_t i = 0; i < r->nlaunches; i++) {
    const struct launch_fig *d = &r->fig->l[i];
    if (strcmp(r->launches[i].kernel, kernel))
      continue;
    sums &= !isnan(d->threads) && !isnan(d->slots);
    *threads += sums ? d->threads : 0, *slots += sums ? d->slots : 0;
    if (!isnan(d->simd))
      eff += d->simd, n++;
  }
  if (sums && *slots > 0)
    return *threads / *slots;
  *threads = *slots = NAN;
  return n ? eff / n : NAN;
}

static void simd_figure(const struct report *r) {
  FILE *out = r->out;
  const int row = 22, top = 10, bottom = 48;
  struct sg_cli_plot p = {out, 160, top, 320, (double)row * r->nkernels, 1, 0.2, 1, 0};
  sg_cli_svg_open(out, "simd-efficiency",
                  "SIMD efficiency per kernel<span class=\"sub\">share of the lane slots "
                  "(warp instructions &times; warp size) that did work</span>",
                  (int)(p.x + p.w + 70), (int)(top + p.h + bottom));
  sg_cli_plot_xaxis(&p, "SIMD efficiency (%)", true);
  for (size_t k = 0; k < r->nkernels; k++) {
    char name[LABEL_SIZE];
    double y = top + (double)k * row;
    label(name, 0, r->kernels[k].name);
    sg_cli_svg_text(out, p.x - 6, y + 15, "end", name);
    double threads, slots, v = kernel_simd(r, r->kernels[k].name, &threads, &slots);
    if (isnan(v)) {
      fprintf(out, "<text class=\"none\" x=\"%.1f\" y=\"%.1f\">n/a</text>\n", p.x + 4, y + 15);
      continue;
    }
    double w = v * p.w;
    fprintf(out,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\" fill=\"#4e79a7\"><title>",
            p.x, y + 4, w);
    sg_cli_html_esc(out, r->kernels[k].name);
    fputs(": ", out);
    put_percent(out, v);
    if (!isnan(slots)) {
      fputs(" (", out);
      sg_cli_html_number(out, threads, true);
      fputs(" of ", out);
      sg_cli_html_number(out, slots, true);
      fputs(" lane slots)", out);
    }
    fprintf(out, "</title></rect><text x=\"%.1f\" y=\"%.1f\">", p.x + w + 4, y + 15);
    put_percent(out, v);
    fputs("</text>\n", out);
  }
  sg_cli_svg_close(out);
}

/* ---- Cache hit rates --------------------------------------------------- */

/* The hit rate of cache k over the timing launches of kernel (or launch
 * one alone): hits / (hits + misses) summed when every launch has both,
 * -1 when that is no access at all; else the mean of the rate fields; NAN
 * when no launch has either. */
static double hit_rate(const struct report *r, const char *kernel, size_t one, size_t k,
                       double *hits, double *accesses) {
  double rates = 0;
  unsigned n = 0;
  bool sums = true;
  *hits = *accesses = 0;
  for (size_t i = 0; i < r->nlaunches; i++) {
    const struct launch_fig *d = &r->fig->l[i];
    if (!d->timed || (kernel ? strcmp(r->launches[i].kernel, kernel) != 0 : i != one))
      continue;
    sums &= !isnan(d->hits[k]) && !isnan(d->misses[k]);
    *hits += sums ? d->hits[k] : 0, *accesses += sums ? d->hits[k] + d->misses[k] : 0;
    if (!isnan(d->rate[k]))
      rates += d->rate[k], n++;
  }
  if (sums)
    return *accesses > 0 ? *hits / *accesses : -1;
  *hits = *accesses = NAN;
  return n ? rates / n : NAN;
}

static void hit_rate_bar(const struct report *r, const struct sg_cli_plot *p, double y,
                         const char *name, size_t k, double v, double hits, double accesses) {
  FILE *out = r->out;
  if (isnan(v) || v < 0) {
    fprintf(out, "<text class=\"none\" x=\"%.1f\" y=\"%.1f\">%s</text>\n", p->x + 4, y + 10,
            v < 0 ? "no accesses" : "n/a");
    return;
  }
  double w = v * p->w;
  fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"11\" fill=\"%s\"><title>", p->x,
          y, w, caches[k].colour);
  sg_cli_html_esc(out, name);
  fprintf(out, ": %s ", caches[k].label);
  put_percent(out, v);
  if (!isnan(accesses)) {
    fputs(" (", out);
    sg_cli_html_number(out, hits, true);
    fputs(" hits of ", out);
    sg_cli_html_number(out, accesses, true);
    fputs(")", out);
  }
  fprintf(out, "</title></rect><text class=\"value\" x=\"%.1f\" y=\"%.1f\">", p->x + w + 4, y + 10);
  put_percent(out, v);
  fputs("</text>\n", out);
}

/* Group g (a launch, or a kernel's launches) has a timing launch. */
static bool group_timed(const struct report *r, bool by_kernel, size_t g) {
  bool timed = !by_kernel && r->fig->l[g].timed;
  for (size_t i = 0; by_kernel && i < r->nlaunches; i++)
    timed |= r->fig->l[i].timed && !strcmp(r->launches[i].kernel, r->kernels[g].name);
  return timed;
}

/* Grouped bars: per timing launch, or per kernel when there are many. */
static void hit_rate_figure(const struct report *r) {
  FILE *out = r->out;
  bool by_kernel = r->fig->ntimed > SG_CLI_MAX_BARS;
  size_t groups = 0;
  for (size_t g = 0; g < (by_kernel ? r->nkernels : r->nlaunches); g++)
    groups += group_timed(r, by_kernel, g);
  const double bar = 12, group = NCACHES * bar + 14, top = 30, bottom = 48;
  struct sg_cli_plot p = {out, 160, top, 320, group * (double)groups, 1, 0.2, 1, 0};
  sg_cli_svg_open(out, "hit-rates",
                  by_kernel ? "Cache hit rates per kernel<span class=\"sub\">timing launches, "
                              "hits over accesses of all of a kernel's launches</span>"
                            : "Cache hit rates per launch<span class=\"sub\">timing launches; "
                              "hits over accesses</span>",
                  (int)(p.x + p.w + 80), (int)(top + p.h + bottom));
  for (size_t k = 0; k < NCACHES; k++)
    sg_cli_svg_key(out, 10 + 110.0 * k, 14, caches[k].colour, caches[k].label);
  sg_cli_plot_xaxis(&p, "hit rate (%)", true);
  double y = top + 7;
  for (size_t g = 0; g < (by_kernel ? r->nkernels : r->nlaunches); g++) {
    if (!group_timed(r, by_kernel, g))
      continue;
    const char *kernel = by_kernel ? r->kernels[g].name : r->launches[g].kernel;
    char name[LABEL_SIZE];
    label(name, by_kernel ? 0 : g + 1, kernel);
    sg_cli_svg_text(out, p.x - 6, y + NCACHES * bar / 2 + 4, "end", name);
    for (size_t k = 0; k < NCACHES; k++) {
      double hits, accesses;
      double v = hit_rate(r, by_kernel ? kernel : NULL, g, k, &hits, &accesses);
      hit_rate_bar(r, &p, y + (double)k * bar, name, k, v, hits, accesses);
    }
    y += group;
  }
  sg_cli_svg_close(out);
}

/* ---- Stall reasons per core ---------------------------------------------- */

static double stall(const struct sg_json *core, const char *reason) {
  const struct sg_json *st = sg_json_get(core, "stalls");
  const struct sg_json *v = st ? sg_json_get(st, reason) : NULL;
  return v ? v->number : 0; /* checked: a count */
}

/* One stacked bar per core (per few neighbouring cores when there are
 * many), the reasons bottom up in the file's order. */
static void stall_figure(const struct report *r, size_t li) {
  FILE *out = r->out;
  const struct sg_cli_figures *f = r->fig;
  const struct sg_json *cores = f->l[li].per_core;
  size_t per_bar = (cores->count + SG_CLI_MAX_CORE_BARS - 1) / SG_CLI_MAX_CORE_BARS;
  size_t bars = (cores->count + per_bar - 1) / per_bar;
  double max = 0;
  for (size_t b = 0; b < bars; b++) {
    double total = 0;
    for (size_t c = b * per_bar; c < (b + 1) * per_bar && c < cores->count; c++)
      for (size_t k = 0; k < f->nreasons; k++)
        total += stall(&cores->items[c], f->reasons[k]);
    max = total > max ? total : max;
  }
  const double top = 14, legend_row = 17;
  struct sg_cli_plot p = {out, 74, top, 340, 220, 0, 0, 0, 0};
  p.ystep = fmax(sg_cli_svg_step(max, 5), 1); /* slots are whole */
  p.yend = sg_cli_svg_ceil(max, p.ystep);
  double legend_h = top + legend_row * (double)f->nreasons;
  char id[32], caption[256];
  snprintf(id, sizeof id, "stalls-%zu", li + 1);
  if (isnan(f->l[li].sched))
    snprintf(caption, sizeof caption, "Scheduler slots per core by stall reason");
  else
    snprintf(caption, sizeof caption,
             "Scheduler slots per core by stall reason<span class=\"sub\">each cycle each of a "
             "core's %.0f schedulers issues, or stalls for one reason</span>",
             f->l[li].sched);
  sg_cli_svg_open(out, id, caption, (int)(p.x + p.w + 160),
                  (int)(legend_h > p.y + p.h + 48 ? legend_h : p.y + p.h + 48));
  sg_cli_plot_yaxis(&p, "scheduler slots", false);
  double band = p.w / (double)bars, bw = band >= 4 ? band * 0.7 : band, base = p.y + p.h;
  size_t every = (bars + 15) / 16; /* at most 16 labels under the bars */
  for (size_t b = 0; b < bars; b++) {
    size_t c0 = b * per_bar, c1 = c0 + per_bar < cores->count ? c0 + per_bar : cores->count;
    double x = p.x + band * (double)b + (band - bw) / 2, total = 0, cum = 0;
    char name[48];
    if (c1 - c0 == 1)
      snprintf(name, sizeof name, "core %zu", c0);
    else
      snprintf(name, sizeof name, "cores %zu-%zu", c0, c1 - 1);
    for (size_t c = c0; c < c1; c++)
      for (size_t k = 0; k < f->nreasons; k++)
        total += stall(&cores->items[c], f->reasons[k]);
    for (size_t k = 0; k < f->nreasons; k++) {
      double v = 0;
      for (size_t c = c0; c < c1; c++)
        v += stall(&cores->items[c], f->reasons[k]);
      if (v <= 0)
        continue;
      fprintf(out,
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s: ",
              x, sg_cli_plot_y(&p, cum + v), bw, v / p.yend * p.h, sg_cli_svg_colour(k), name);
      sg_cli_html_esc(out, f->reasons[k]);
      fputc(' ', out);
      sg_cli_html_number(out, v, true);
      fprintf(out, " (%.1f%%)</title></rect>\n", 100 * v / total);
      cum += v;
    }
    if (b % every == 0) {
      snprintf(name, sizeof name, "%zu", c0);
      sg_cli_svg_text(out, x + bw / 2, base + 16, "middle", name);
    }
  }
  fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", p.x,
          base, p.x + p.w, base);
  char title[48];
  snprintf(title, sizeof title, per_bar == 1 ? "core" : "core (%zu per bar)", per_bar);
  sg_cli_svg_text(out, p.x + p.w / 2, base + 34, "middle", title);
  /* the legend, top down in the file's order (the stack's bottom first) */
  for (size_t k = 0; k < f->nreasons; k++)
    sg_cli_svg_key(out, p.x + p.w + 18, top + 9 + legend_row * (double)k, sg_cli_svg_colour(k),
                   f->reasons[k]);
  sg_cli_svg_close(out);
}

/* ---- IPC and resident warps over time ------------------------------------ */

/* Many samples are merged k at a time into buckets: the IPC of the merged
 * intervals, the warps at the last one's end. */
struct buckets {
  const struct launch_fig *d;
  size_t n, k, count; /* samples, samples a bucket, buckets */
};

/* Where sample i's interval ends: the next interval's start, or for the
 * last one (shorter, when the launch ends inside it) the launch's end. */
static double sample_end(const struct launch_fig *d, size_t i) {
  double end = (double)(i + 1) * d->interval;
  return !isnan(d->cycles) && d->cycles > (double)i * d->interval && d->cycles < end ? d->cycles
                                                                                     : end;
}

static size_t bucket_last(const struct buckets *s, size_t b) {
  return (b + 1) * s->k < s->n ? (b + 1) * s->k - 1 : s->n - 1;
}

static double bucket_end(const struct buckets *s, size_t b) {
  return sample_end(s->d, bucket_last(s, b));
}

static double bucket_ipc(const struct buckets *s, size_t b) {
  double issued = 0, start = (double)(b * s->k) * s->d->interval;
  for (size_t i = b * s->k; i <= bucket_last(s, b); i++)
    issued += s->d->issued->items[i].number;
  return issued / (bucket_end(s, b) - start); /* > 0: interval > 0, checked */
}

static double bucket_warps(const struct buckets *s, size_t b) {
  return s->d->warps->items[bucket_last(s, b)].number;
}

/* IPC as steps, a level drawn once however many buckets share it (at the
 * pixels written), from the launch's start. */
static void ipc_steps(FILE *out, const struct buckets *s, const struct sg_cli_plot *p) {
  fputs("<path class=\"ipc\" fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"1.5\" d=\"", out);
  double level = 0;
  for (size_t b = 0; b < s->count; b++) {
    double y = round(10 * sg_cli_plot_y(p, bucket_ipc(s, b))) / 10;
    if (b == 0)
      fprintf(out, "M%.1f %.1f", p->x, y);
    else if (y != level)
      fprintf(out, "V%.1f", y);
    level = y;
    if (b + 1 == s->count || round(10 * sg_cli_plot_y(p, bucket_ipc(s, b + 1))) / 10 != y)
      fprintf(out, "H%.1f", sg_cli_plot_x(p, bucket_end(s, b)));
  }
  fputs("\"/>\n", out);
}

/* Resident warps as a line through each bucket's end, marked when few. */
static void warp_line(FILE *out, const struct buckets *s, const struct sg_cli_plot *p) {
  fputs("<polyline class=\"warps\" fill=\"none\" stroke=\"#f28e2b\" stroke-width=\"1.5\" "
        "points=\"",
        out);
  for (size_t b = 0; b < s->count; b++)
    fprintf(out, "%s%.1f,%.1f", b ? " " : "", sg_cli_plot_x(p, bucket_end(s, b)),
            sg_cli_plot_y(p, bucket_warps(s, b)));
  fputs("\"/>\n", out);
  for (size_t b = 0; s->count <= 60 && b < s->count; b++)
    fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#f28e2b\"/>",
            sg_cli_plot_x(p, bucket_end(s, b)), sg_cli_plot_y(p, bucket_warps(s, b)));
}

/* Two panels over one cycle axis: the IPC of the whole GPU per interval,
 * with the launch's mean dashed, and the warps resident at each
 * interval's end. */
static void timeline_figure(const struct report *r, size_t li) {
  FILE *out = r->out;
  const struct launch_fig *d = &r->fig->l[li];
  struct buckets s = {d, d->issued->count,
                      (d->issued->count + SG_CLI_MAX_POINTS - 1) / SG_CLI_MAX_POINTS, 0};
  s.count = (s.n + s.k - 1) / s.k;
  double max_ipc = 0, max_warps = 0, issued = 0;
  for (size_t b = 0; b < s.count; b++) {
    max_ipc = fmax(max_ipc, bucket_ipc(&s, b));
    max_warps = fmax(max_warps, bucket_warps(&s, b));
  }
  for (size_t i = 0; i < s.n; i++)
    issued += d->issued->items[i].number;
  double end = sample_end(d, s.n - 1), mean = isnan(d->ipc) ? issued / end : d->ipc;
  const double top = 14, gap = 40;
  struct sg_cli_plot ipc = {out, 74, top, 400, 150, end, sg_cli_svg_step(end, 6), 0, 0};
  ipc.ystep = sg_cli_svg_step(fmax(max_ipc, mean), 5);
  ipc.yend = sg_cli_svg_ceil(fmax(max_ipc, mean), ipc.ystep);
  struct sg_cli_plot wp = ipc;
  wp.y = ipc.y + ipc.h + gap, wp.h = 80;
  wp.ystep = fmax(sg_cli_svg_step(max_warps, 4), 1); /* warps are whole */
  wp.yend = sg_cli_svg_ceil(max_warps, wp.ystep);
  char id[32], caption[320], k[48] = "";
  snprintf(id, sizeof id, "timeline-%zu", li + 1);
  if (s.k > 1)
    snprintf(k, sizeof k, ", %zu samples a step", s.k);
  snprintf(caption, sizeof caption,
           "IPC and resident warps over time<span class=\"sub\">all cores; a sample every %.0f "
           "cycles%s</span>",
           d->interval, k);
  sg_cli_svg_open(out, id, caption, (int)(ipc.x + ipc.w + 20), (int)(wp.y + wp.h + 48));
  sg_cli_plot_yaxis(&ipc, "IPC (warp instr./cycle)", false);
  sg_cli_plot_xaxis(&ipc, "", false);
  sg_cli_plot_yaxis(&wp, "resident warps", false);
  sg_cli_plot_xaxis(&wp, "cycle", false);
  ipc_steps(out, &s, &ipc);
  double my = sg_cli_plot_y(&ipc, mean);
  fprintf(out,
          "<line class=\"mean\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
          "stroke-dasharray=\"5 3\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
          "stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">mean %.2f</text>\n",
          ipc.x, my, ipc.x + ipc.w, my, ipc.x + ipc.w - 2, my - 4, mean);
  warp_line(out, &s, &wp);
  sg_cli_svg_close(out);
}

/* ---- The section ----------------------------------------------------------- */

static void launch_figures(const struct report *r, size_t li) {
  FILE *out = r->out;
  const struct launch_fig *d = &r->fig->l[li];
  fprintf(out, "<h3 id=\"launch-%zu\">Launch #%zu: ", li + 1, li + 1);
  sg_cli_html_esc(out, r->launches[li].kernel);
  fputs("</h3>\n<p class=\"note\">", out);
  if (!isnan(d->cycles)) {
    sg_cli_html_number(out, d->cycles, true);
    fputs(" cycles", out);
  }
  if (!isnan(d->ipc))
    fprintf(out, "%sIPC %.2f", isnan(d->cycles) ? "" : ", ", d->ipc);
  if (d->per_core)
    fprintf(out, "%s%zu cores", isnan(d->cycles) && isnan(d->ipc) ? "" : ", ", d->per_core->count);
  fputs(".</p>\n<div class=\"charts\">\n", out);
  if (d->per_core && r->fig->nreasons)
    stall_figure(r, li);
  else
    fputs("<p class=\"note\">No per-core stall reasons in the file.</p>\n", out);
  if (d->issued && d->issued->count)
    timeline_figure(r, li);
  else
    fputs("<p class=\"note\">No samples over time in the file (the timing key sample_cycles "
          "sets their interval; 0 turns them off).</p>\n",
          out);
  fputs("</div>\n", out);
}

void sg_cli_figures_write(const struct report *r) {
  FILE *out = r->out;
  const struct sg_cli_figures *f = r->fig;
  bool simd = false;
  for (size_t i = 0; i < r->nlaunches; i++)
    simd |= !isnan(f->l[i].simd) || (!isnan(f->l[i].threads) && !isnan(f->l[i].slots));
  if (!simd && !f->ntimed)
    return;
  fputs("<h2 id=\"figures\">Figures</h2>\n<div class=\"charts\">\n", out);
  if (simd)
    simd_figure(r);
  if (f->ntimed)
    hit_rate_figure(r);
  fputs("</div>\n", out);
  if (!f->ntimed)
    return;
  size_t drawn = 0;
  for (size_t i = 0; i < r->nlaunches; i++)
    drawn += f->l[i].drawn;
  fprintf(out,
          "<p>%zu launch%s ran in timing mode: for each, where its cores' scheduler slots went "
          "and how IPC and resident warps changed over the run",
          f->ntimed, f->ntimed == 1 ? "" : "es");
  if (drawn < f->ntimed)
    fprintf(out,
            "; shown for %zu of them, the longest of each kernel first, then the longest "
            "of the others",
            drawn);
  fputs(".</p>\n", out);
  for (size_t i = 0; i < r->nlaunches; i++)
    if (f->l[i].drawn)
      launch_figures(r, i);
}
