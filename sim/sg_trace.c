/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), traces: a consumer that records the
 * instructions and events of each CTA it sees, compactly and up to a byte
 * limit, and a writer that puts the CTAs of all host threads in CTA order
 * into a text trace (seed 000: one line per warp instruction) or a Chrome /
 * Perfetto trace-event JSON (a track per core and warp: spans of
 * instructions, barrier waits, divergence and reconvergence). */
#include "sg_sim_impl.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum item_kind { IT_INSN, IT_WAIT, IT_RELEASE, IT_PATHS, IT_RECONVERGE, IT_SWITCH, IT_END };

struct item {
  uint64_t time, pc, mask, arg;
  uint64_t cta;           /* (timing mode runs several CTAs of a core at once) */
  uint32_t warp, kind;
};

struct cta {
  uint64_t index, start, length; /* its time axis: see sg_trace.cycles */
  uint32_t core, warps;
  uint32_t first_warp;    /* its warps' slots on the core: first_warp + warp */
  size_t first, last;     /* its items are those of index `index` in [first, last) */
  bool open, whole;       /* being recorded; ended with all its items */
};

struct sg_trace {
  struct sg_hook hook;
  const struct sg_code *code;
  bool cycles; /* times are cycles of the whole launch (timing mode), else
                  warp instructions of each CTA from its start */
  uint64_t limit;  /* bytes of items */
  bool cut;        /* the limit was reached: CTAs open then are incomplete */
  uint32_t nopen;  /* CTAs being recorded */
  struct item *items;
  size_t nitems, cap;
  struct cta *ctas;
  size_t nctas, ctacap;
};

/* Past the limit (or out of memory) the CTAs being recorded are dropped
 * whole, and no more start. */
static void cut(struct sg_trace *t) {
  t->cut = true;
  for (size_t i = 0; i < t->nctas; i++)
    t->ctas[i].open = false;
  t->nopen = 0;
}

static void add(struct sg_trace *t, struct item it) {
  if (!t->nopen)
    return;
  if ((t->nitems + 1) * sizeof(struct item) > t->limit) {
    cut(t);
    return;
  }
  if (t->nitems == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 4096;
    struct item *p = realloc(t->items, cap * sizeof *p);
    if (!p) {
      cut(t);
      return;
    }
    t->items = p, t->cap = cap;
  }
  t->items[t->nitems++] = it;
}

static void on_insn(struct sg_hook *self, const struct sg_insn_record *r) {
  struct sg_trace *t = (struct sg_trace *)self;
  add(t, (struct item){r->time, r->pc, r->mask, r->taken, r->cta, r->warp, IT_INSN});
}

static void on_event(struct sg_hook *self, const struct sg_event *e) {
  struct sg_trace *t = (struct sg_trace *)self;
  static const int kind[] = {[SG_EV_BARRIER_WAIT] = IT_WAIT, [SG_EV_BARRIER_RELEASE] = IT_RELEASE,
                             [SG_EV_PATHS] = IT_PATHS, [SG_EV_RECONVERGE] = IT_RECONVERGE,
                             [SG_EV_PATH_SWITCH] = IT_SWITCH, [SG_EV_WARP_END] = IT_END};
  switch (e->kind) {
  case SG_EV_CTA_START:
    if (t->cut)
      return;
    if (t->nctas == t->ctacap) {
      size_t cap = t->ctacap ? 2 * t->ctacap : 64;
      struct cta *p = realloc(t->ctas, cap * sizeof *p);
      if (!p) {
        t->cut = true;
        return;
      }
      t->ctas = p, t->ctacap = cap;
    }
    t->ctas[t->nctas++] = (struct cta){.index = e->cta, .start = e->time, .core = e->core,
                                       .warps = (uint32_t)e->arg, .first_warp = (uint32_t)e->arg2,
                                       .first = t->nitems, .open = true};
    t->nopen++;
    return;
  case SG_EV_CTA_END:
    for (size_t i = t->nctas; i-- > 0;)
      if (t->ctas[i].open && t->ctas[i].index == e->cta) {
        struct cta *c = &t->ctas[i];
        c->length = e->time - c->start;
        c->last = t->nitems;
        c->open = false;
        c->whole = true;
        t->nopen--;
        break;
      }
    return;
  case SG_EV_PATH_COUNT:
    return;
  default:
    add(t, (struct item){e->time, e->pc, e->mask, e->arg, e->cta, e->warp,
                         (uint32_t)kind[e->kind]});
  }
}

enum sg_status sg_trace_create(const struct sg_code *code, uint64_t limit,
                               struct sg_trace **out) {
  struct sg_trace *t = calloc(1, sizeof *t);
  if (!t)
    return SG_ENOMEM;
  t->hook = (struct sg_hook){.insn = on_insn, .event = on_event};
  t->code = code;
  t->limit = limit;
  *out = t;
  return SG_OK;
}

struct sg_hook *sg_trace_hook(struct sg_trace *t) { return &t->hook; }

void sg_trace_set_cycles(struct sg_trace *t) { t->cycles = true; }

void sg_trace_destroy(struct sg_trace *t) {
  if (!t)
    return;
  free(t->items);
  free(t->ctas);
  free(t);
}

/* ---- Writing ------------------------------------------------------------- */

struct ref {
  const struct sg_trace *t;
  const struct cta *c;
};

static int by_index(const void *a, const void *b) {
  const struct ref *x = a, *y = b;
  return x->c->index < y->c->index ? -1 : x->c->index > y->c->index;
}

static const char *disasm(const struct sg_code *code, uint64_t pc, char *buf, size_t len) {
  struct sg_uop u;
  return sg_code_uop(code, pc, &u) ? sg_disasm(&u, pc, buf, len) : "?";
}

static void write_text(const struct ref *r, const char *kernel, FILE *out) {
  const struct cta *c = r->c;
  fprintf(out, "# kernel %s cta %" PRIu64 " core %u warps %u\n", kernel, c->index, c->core,
          c->warps);
  for (size_t i = c->first; i < c->last; i++) {
    const struct item *it = &r->t->items[i];
    char text[96];
    if (it->cta != c->index)
      continue;
    switch (it->kind) {
    case IT_INSN:
      fprintf(out, "%8" PRIu64 " cta %" PRIu64 " warp %u pc 0x%08" PRIx64 " mask 0x%016" PRIx64
                   "  %s\n",
              it->time, c->index, it->warp, it->pc, it->mask,
              disasm(r->t->code, it->pc, text, sizeof text));
      break;
    case IT_WAIT:
      fprintf(out, "%8" PRIu64 " cta %" PRIu64 " warp %u waits at the barrier\n", it->time,
              c->index, it->warp);
      break;
    case IT_RELEASE:
      fprintf(out, "%8" PRIu64 " cta %" PRIu64 " barrier released\n", it->time, c->index);
      break;
    case IT_PATHS:
      fprintf(out, "%8" PRIu64 " cta %" PRIu64 " warp %u diverges: lanes 0x%016" PRIx64
                   " into %" PRIu64 " paths\n",
              it->time, c->index, it->warp, it->mask, it->arg);
      break;
    case IT_RECONVERGE:
      fprintf(out, "%8" PRIu64 " cta %" PRIu64 " warp %u lanes 0x%016" PRIx64
                   " reconverge at pc 0x%08" PRIx64 "\n",
              it->time, c->index, it->warp, it->mask, it->pc);
      break;
    case IT_SWITCH:
      fprintf(out, "%8" PRIu64 " cta %" PRIu64 " warp %u switches to lanes 0x%016" PRIx64
                   " at pc 0x%08" PRIx64 "\n",
              it->time, c->index, it->warp, it->mask, it->pc);
      break;
    case IT_END:
      fprintf(out, "%8" PRIu64 " cta %" PRIu64 " warp %u done\n", it->time, c->index,
              it->warp);
      break;
    }
  }
}

/* One JSON event; `sep` puts the comma between events of the whole file. */
static void json_event(FILE *out, bool *first, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void json_event(FILE *out, bool *first, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs(*first ? "\n" : ",\n", out);
  *first = false;
  vfprintf(out, fmt, ap);
  va_end(ap);
}

/* Track ids: w + 1 is the core's warp slot w; CTA_TRACK + w the CTAs whose
 * first warp is in slot w (one track for the one CTA a functional core
 * runs at a time; in timing mode, CTAs resident at once get tracks of their
 * own). Spans: a warp's instructions that ran one after another with the
 * same lanes ("full" when the warp's lanes at its first instruction, else
 * "partial"); barrier waits; instants for divergence, reconvergence and
 * path switches. */
#define CTA_TRACK 100000u
static void write_json(const struct ref *r, const char *kernel, uint64_t base, bool *first,
                       FILE *out) {
  const struct cta *c = r->c;
  const struct item *items = r->t->items;
  json_event(out, first,
             "{\"name\":\"%s cta %" PRIu64 "\",\"ph\":\"X\",\"pid\":%u,\"tid\":%u,"
             "\"ts\":%" PRIu64 ",\"dur\":%" PRIu64 "}",
             kernel, c->index, c->core, CTA_TRACK + c->first_warp, base + c->start,
             c->length ? c->length : 1);
  uint32_t track = c->first_warp + 1; /* + warp: the warp's track */
  uint32_t nw = c->warps ? c->warps : 1;
  uint64_t *wait = calloc(nw, sizeof *wait), *full = calloc(nw, sizeof *full);
  if (!wait || !full) {
    free(wait);
    free(full);
    return;
  }
  for (size_t i = c->first; i < c->last; i++) {
    const struct item *it = &items[i];
    uint64_t ts = base + it->time;
    if (it->cta != c->index)
      continue;
    switch (it->kind) {
    case IT_INSN: {
      size_t j = i + 1; /* the run: the same warp and lanes at consecutive times */
      while (j < c->last && items[j].kind == IT_INSN && items[j].cta == c->index &&
             items[j].warp == it->warp && items[j].mask == it->mask &&
             items[j].time == items[j - 1].time + 1)
        j++;
      uint64_t lanes = (uint64_t)__builtin_popcountll(it->mask);
      if (it->warp < nw && !full[it->warp])
        full[it->warp] = it->mask;
      json_event(out, first,
                 "{\"name\":\"%s\",\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":%" PRIu64
                 ",\"dur\":%zu,\"args\":{\"pc\":\"0x%" PRIx64 "\",\"lanes\":%" PRIu64
                 ",\"mask\":\"0x%" PRIx64 "\"}}",
                 it->warp < nw && it->mask == full[it->warp] ? "full" : "partial", c->core,
                 track + it->warp, ts, j - i, it->pc, lanes, it->mask);
      i = j - 1;
      break;
    }
    case IT_WAIT:
      if (it->warp < nw)
        wait[it->warp] = ts;
      break;
    case IT_RELEASE:
      for (uint32_t w = 0; w < nw; w++)
        if (wait[w]) {
          json_event(out, first,
                     "{\"name\":\"barrier\",\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":%" PRIu64
                     ",\"dur\":%" PRIu64 "}",
                     c->core, track + w, wait[w], ts > wait[w] ? ts - wait[w] : 1);
          wait[w] = 0;
        }
      break;
    case IT_PATHS:
    case IT_RECONVERGE:
    case IT_SWITCH: {
      static const char *const name[] = {[IT_PATHS] = "diverge", [IT_RECONVERGE] = "reconverge",
                                         [IT_SWITCH] = "switch path"};
      json_event(out, first,
                 "{\"name\":\"%s\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%u,\"tid\":%u,\"ts\":%" PRIu64
                 ",\"args\":{\"pc\":\"0x%" PRIx64 "\",\"mask\":\"0x%" PRIx64 "\"}}",
                 name[it->kind], c->core, track + it->warp, ts, it->pc, it->mask);
      break;
    }
    case IT_END:
      break;
    }
  }
  free(wait);
  free(full);
}

/* Names of the tracks of the cores a launch used (repeated per launch:
 * viewers keep the last). */
static void write_json_names(const struct ref *refs, size_t n, uint32_t cores, bool *first,
                             FILE *out) {
  uint32_t *warps = calloc(cores, sizeof *warps); /* per core: warp slots used, +1 if any */
  if (!warps)
    return;
  for (size_t i = 0; i < n; i++) {
    const struct cta *c = refs[i].c;
    uint32_t core = c->core < cores ? c->core : 0;
    if (c->first_warp + c->warps + 1 > warps[core])
      warps[core] = c->first_warp + c->warps + 1;
  }
  for (uint32_t core = 0; core < cores; core++) {
    if (!warps[core])
      continue;
    json_event(out, first,
               "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"args\":{\"name\":"
               "\"core %u\"}}",
               core, core);
    for (size_t i = 0; i < n; i++) /* the CTA tracks used (names repeat harmlessly) */
      if (refs[i].c->core == core && (i == 0 || refs[i].c->first_warp != refs[i - 1].c->first_warp))
        json_event(out, first,
                   "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":"
                   "{\"name\":\"CTAs at warp slot %u\"}}",
                   core, CTA_TRACK + refs[i].c->first_warp, refs[i].c->first_warp);
    for (uint32_t w = 0; w + 1 < warps[core]; w++)
      json_event(out, first,
                 "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{"
                 "\"name\":\"warp %u\"}}",
                 core, w + 1, w);
  }
  free(warps);
}

uint64_t sg_trace_write(struct sg_trace *const *traces, uint32_t count, const char *kernel,
                        enum sg_trace_format format, uint32_t cores, uint64_t room,
                        bool *first, uint64_t *time_base, FILE *out, bool *cut) {
  /* Kernel names are identifiers, but a binary may carry anything: keep
   * the JSON and the text one token per name. */
  char name[128];
  size_t k = 0;
  for (; kernel[k] && k + 1 < sizeof name; k++) {
    char ch = kernel[k];
    bool word = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                (ch >= '0' && ch <= '9') || ch == '_';
    name[k] = word ? ch : '?';
  }
  name[k] = 0;
  size_t n = 0;
  *cut = false;
  for (uint32_t i = 0; i < count; i++) {
    n += traces[i]->nctas;
    *cut |= traces[i]->cut;
  }
  cores = cores ? cores : 1;
  struct ref *refs = malloc((n ? n : 1) * sizeof *refs);
  uint64_t *core_time = calloc(cores, sizeof *core_time);
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  uint64_t written = 0, end = *time_base;
  if (!refs || !core_time || !mem) {
    *cut = true;
    goto done;
  }
  n = 0;
  for (uint32_t i = 0; i < count; i++)
    for (size_t j = 0; j < traces[i]->nctas; j++)
      if (traces[i]->ctas[j].whole)
        refs[n++] = (struct ref){traces[i], &traces[i]->ctas[j]};
  qsort(refs, n, sizeof *refs, by_index);
  /* Each CTA is formatted on its own and goes out only if it fits. */
  bool was_first = *first;
  if (format == SG_TRACE_JSON)
    write_json_names(refs, n, cores, first, mem);
  for (size_t i = 0; i <= n; i++) {
    fflush(mem);
    long pos = ftell(mem);
    len = pos > 0 ? (size_t)pos : 0;
    if (written + len > room) {
      *cut = true;
      break;
    }
    fwrite(buf, 1, len, out);
    written += len;
    rewind(mem);
    if (i == n)
      break;
    /* A CTA missing before this one (its consumer hit the limit): the
     * trace ends here, the same whatever the host threads did. */
    if (i > 0 && refs[i].c->index != refs[i - 1].c->index + 1) {
      *cut = true;
      break;
    }
    const struct cta *c = refs[i].c;
    uint32_t core = c->core < cores ? c->core : 0;
    /* functional: each core runs its CTAs one after another */
    uint64_t base = refs[i].t->cycles ? *time_base : *time_base + core_time[core];
    if (format == SG_TRACE_TEXT) {
      write_text(&refs[i], name, mem);
    } else {
      write_json(&refs[i], name, base, first, mem);
      core_time[core] += c->length;
      if (base + c->start + c->length > end)
        end = base + c->start + c->length;
    }
  }
  if (written == 0)
    *first = was_first;
  *time_base = end;
done:
  if (mem)
    fclose(mem);
  free(buf);
  free(refs);
  free(core_time);
  return written;
}
