/* SPDX-License-Identifier: MIT */
/* cli/: `softgpu report`, a static HTML page of the per-launch statistics
 * that SOFTGPU_STATS writes (DESIGN.md 4, "Statistics per launch go to a
 * JSON file"): a table per kernel, the figures of sg_cli_figures.c, a table
 * per launch and an inline SVG bar chart per measure, with no scripts or
 * network resources. The tables and charts are driven by the data: every
 * field of the launches becomes a column, every number a measure with a
 * chart, every object of numbers (say stall reasons) a stacked chart, so
 * fields the library adds appear without changes here. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sg_cli_report.h"

#ifndef SG_VERSION
#define SG_VERSION "unknown"
#endif

#define MAX_STATS (1u << 30)

/* Numbers that describe a launch's shape rather than measure it. */
static const char *const shape_fields[] = {"work_dim"};

/* ---- The launches as flat fields ----------------------------------------- */

static bool add_field(struct launch *l, const char *path, const struct sg_json *v) {
  struct field *grown = realloc(l->fields, (l->nfields + 1) * sizeof *grown);
  if (!grown)
    return false;
  l->fields = grown;
  l->fields[l->nfields] = (struct field){strdup(path), v};
  return l->fields[l->nfields++].path != NULL;
}

static bool flatten(struct launch *l, const char *prefix, const struct sg_json *obj) {
  for (size_t i = 0; i < obj->count; i++) {
    size_t n = strlen(prefix) + strlen(obj->keys[i]) + 2;
    char *path = malloc(n);
    if (!path)
      return false;
    snprintf(path, n, "%s%s%s", prefix, *prefix ? "." : "", obj->keys[i]);
    const struct sg_json *v = &obj->items[i];
    bool ok = v->type == SG_JSON_OBJECT ? flatten(l, path, v) : add_field(l, path, v);
    free(path);
    if (!ok)
      return false;
  }
  return true;
}

static const struct sg_json *field(const struct launch *l, const char *path) {
  for (size_t i = 0; i < l->nfields; i++)
    if (!strcmp(l->fields[i].path, path))
      return l->fields[i].v;
  return NULL;
}

static struct column *find_column(struct report *r, const char *path) {
  for (size_t i = 0; i < r->ncols; i++)
    if (!strcmp(r->cols[i].path, path))
      return &r->cols[i];
  return NULL;
}

/* Columns in order of first appearance; a column is a measure when every
 * launch that has it has a number there. */
static bool make_columns(struct report *r) {
  for (size_t li = 0; li < r->nlaunches; li++) {
    const struct launch *l = &r->launches[li];
    for (size_t f = 0; f < l->nfields; f++) {
      const char *path = l->fields[f].path;
      const struct sg_json *v = l->fields[f].v;
      struct column *c = find_column(r, path);
      if (!c) {
        struct column *grown = realloc(r->cols, (r->ncols + 1) * sizeof *grown);
        if (!grown)
          return false;
        r->cols = grown;
        c = &r->cols[r->ncols++];
        const char *dot = strrchr(path, '.');
        *c = (struct column){strdup(path), dot ? strndup(path, (size_t)(dot - path)) : NULL, true,
                             true, true};
        for (unsigned s = 0; s < sizeof shape_fields / sizeof shape_fields[0]; s++)
          c->measure &= strcmp(path, shape_fields[s]) != 0;
      }
      bool num = v->type == SG_JSON_NUMBER;
      c->measure &= num;
      c->integral &= num && v->integer;
      c->unit &= num && v->number >= 0 && v->number <= 1;
    }
  }
  return true;
}

static bool add_kernel(struct report *r, const char *name) {
  for (size_t k = 0; k < r->nkernels; k++)
    if (!strcmp(r->kernels[k].name, name)) {
      r->kernels[k].launches++;
      return true;
    }
  struct kernel_row *grown = realloc(r->kernels, (r->nkernels + 1) * sizeof *grown);
  if (!grown)
    return false;
  r->kernels = grown;
  r->kernels[r->nkernels++] = (struct kernel_row){name, 1};
  return true;
}

/* The sum (integral measures) or mean (others) of a column over the
 * launches of kernel (NULL: all); NAN when none of them has it. */
static double aggregate(const struct report *r, const struct column *c, const char *kernel) {
  double sum = 0;
  unsigned n = 0;
  for (size_t li = 0; li < r->nlaunches; li++) {
    const struct sg_json *v = field(&r->launches[li], c->path);
    if (v && (!kernel || !strcmp(kernel, r->launches[li].kernel)))
      sum += v->number, n++;
  }
  return !n ? NAN : c->integral ? sum : sum / n;
}

/* ---- HTML -------------------------------------------------------------- */

void sg_cli_html_esc(FILE *out, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '&': fputs("&amp;", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '"': fputs("&quot;", out); break;
    case '\'': fputs("&#39;", out); break;
    default: fputc(*s, out);
    }
  }
}

/* 1234567 -> "1,234,567"; others with 4 significant digits; NAN (no
 * value) as nothing. */
void sg_cli_html_number(FILE *out, double v, bool integral) {
  char buf[64];
  if (isnan(v))
    return;
  if (!integral || fabs(v) >= 1e18) {
    fprintf(out, "%.4g", v);
    return;
  }
  snprintf(buf, sizeof buf, "%.0f", v);
  const char *digits = buf + (buf[0] == '-');
  size_t n = strlen(digits);
  if (buf[0] == '-')
    fputc('-', out);
  for (size_t i = 0; i < n; i++) {
    if (i && (n - i) % 3 == 0)
      fputc(',', out);
    fputc(digits[i], out);
  }
}

static void put_value(FILE *out, const struct sg_json *v) {
  if (!v)
    return;
  switch (v->type) {
  case SG_JSON_NUMBER:
    if (v->integer && v->text[0] != '-' && strlen(v->text) > 15)
      sg_cli_html_esc(out, v->text); /* past double's exact integers: as written */
    else
      sg_cli_html_number(out, v->number, v->integer);
    break;
  case SG_JSON_STRING: sg_cli_html_esc(out, v->text); break;
  case SG_JSON_BOOL: fputs(v->boolean ? "yes" : "no", out); break;
  case SG_JSON_ARRAY: { /* sizes: 64x8x1; a longer list (samples, per-core objects) by its length */
    bool sizes = v->count <= 3;
    for (size_t i = 0; i < v->count; i++)
      sizes &= v->items[i].type == SG_JSON_NUMBER;
    for (size_t i = 0; sizes && i < v->count; i++) {
      if (i)
        fputs("&times;", out);
      put_value(out, &v->items[i]);
    }
    if (!sizes)
      fprintf(out, "(%zu value%s)", v->count, v->count == 1 ? "" : "s");
    break;
  }
  default: break;
  }
}

static const char style[] =
    "body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:28px}"
    "table{border-collapse:collapse;margin:8px 0 16px;font-variant-numeric:tabular-nums}"
    "th,td{border:1px solid #ccc;padding:3px 8px;text-align:right;white-space:nowrap}"
    "th{background:#eef1f5;font-weight:600}.t{text-align:left}"
    "tr.bad td{background:#fde4e4}"
    ".scroll{overflow-x:auto}"
    ".charts{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}"
    "figure{margin:0;border:1px solid #ddd;border-radius:4px;padding:8px 12px}"
    "figcaption{font-weight:600;margin-bottom:4px}"
    "figcaption .sub{display:block;font-weight:400;font-size:12px;color:#555}"
    "h3{font-size:16px;margin:22px 0 2px}.note{color:#555;margin:2px 0 8px}"
    "svg text{font:12px system-ui,sans-serif;fill:#222}svg text.none{fill:#777}svg "
    "text.value{font-size:11px}";

static void kernels_table(const struct report *r) {
  FILE *out = r->out;
  fputs("<h2>Kernels</h2>\n<p>Sums over each kernel's launches; measures that are not whole "
        "numbers are means.</p>\n<div class=\"scroll\"><table id=\"kernels\">\n<thead><tr>"
        "<th class=\"t\">kernel</th><th>launches</th>",
        out);
  for (size_t c = 0; c < r->ncols; c++)
    if (r->cols[c].measure) {
      fputs("<th>", out);
      sg_cli_html_esc(out, r->cols[c].path);
      fputs(r->cols[c].integral ? "" : " (mean)", out);
      fputs("</th>", out);
    }
  fputs("</tr></thead>\n<tbody>\n", out);
  for (size_t k = 0; k < r->nkernels; k++) {
    fputs("<tr><td class=\"t\">", out);
    sg_cli_html_esc(out, r->kernels[k].name);
    fprintf(out, "</td><td>%u</td>", r->kernels[k].launches);
    for (size_t c = 0; c < r->ncols; c++)
      if (r->cols[c].measure) {
        fputs("<td>", out);
        sg_cli_html_number(out, aggregate(r, &r->cols[c], r->kernels[k].name), r->cols[c].integral);
        fputs("</td>", out);
      }
    fputs("</tr>\n", out);
  }
  fputs("</tbody></table></div>\n", out);
}

static void launches_table(const struct report *r) {
  FILE *out = r->out;
  fputs("<h2>Launches</h2>\n<p>In the order they ran; failed launches are red.</p>\n"
        "<div class=\"scroll\"><table id=\"launches\">\n<thead><tr><th>#</th>",
        out);
  for (size_t c = 0; c < r->ncols; c++) {
    fprintf(out, "<th%s>", r->cols[c].measure ? "" : " class=\"t\"");
    sg_cli_html_esc(out, r->cols[c].path);
    fputs("</th>", out);
  }
  fputs("</tr></thead>\n<tbody>\n", out);
  for (size_t li = 0; li < r->nlaunches; li++) {
    const struct launch *l = &r->launches[li];
    fprintf(out, "<tr%s><td>%zu</td>", l->ok ? "" : " class=\"bad\"", li + 1);
    for (size_t c = 0; c < r->ncols; c++) {
      fprintf(out, "<td%s>", r->cols[c].measure ? "" : " class=\"t\"");
      put_value(out, field(l, r->cols[c].path));
      fputs("</td>", out);
    }
    fputs("</tr>\n", out);
  }
  fputs("</tbody></table></div>\n", out);
}

/* One bar chart: bars are launches (or kernels when there are many), each
 * bar the stack of the given columns (one column: a plain bar). */
static void chart(const struct report *r, const char *title, struct column **cols, size_t n) {
  FILE *out = r->out;
  bool by_kernel = r->nlaunches > SG_CLI_MAX_BARS;
  size_t bars = by_kernel ? r->nkernels : r->nlaunches;
  const int label_w = 170, bar_w = 320, row_h = 18, key_w = 110;
  const int width = label_w + bar_w + 90, per_row = width / key_w; /* legend keys in rows */
  const int top = n > 1 ? 4 + 18 * (int)((n + per_row - 1) / per_row) : 4;
  double max = 0;
  for (size_t b = 0; b < bars; b++) {
    double total = 0;
    for (size_t c = 0; c < n; c++) {
      const struct sg_json *v = by_kernel ? NULL : field(&r->launches[b], cols[c]->path);
      double val = by_kernel ? aggregate(r, cols[c], r->kernels[b].name) : v ? v->number : 0;
      total += isnan(val) ? 0 : val;
    }
    max = total > max ? total : max;
  }
  if (n == 1 && cols[0]->unit)
    max = 1; /* ratios against 1 */
  fputs("<figure class=\"chart\" id=\"chart-", out);
  sg_cli_html_esc(out, title);
  fputs("\"><figcaption>", out);
  sg_cli_html_esc(out, title);
  if (by_kernel)
    fputs(" per kernel", out);
  fputs("</figcaption>\n", out);
  int height = top + (int)bars * row_h + 4;
  fprintf(out,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
          "viewBox=\"0 0 %d %d\" role=\"img\">\n",
          width, height, width, height);
  for (size_t c = 0; n > 1 && c < n; c++) { /* legend */
    const char *leaf = strrchr(cols[c]->path, '.');
    size_t x = c % (size_t)per_row * key_w, y = c / (size_t)per_row * 18;
    fprintf(out,
            "<rect x=\"%zu\" y=\"%zu\" width=\"10\" height=\"10\" fill=\"%s\"/>"
            "<text x=\"%zu\" y=\"%zu\">",
            x, y + 4, sg_cli_svg_colour(c), x + 14, y + 13);
    sg_cli_html_esc(out, leaf ? leaf + 1 : cols[c]->path);
    fputs("</text>\n", out);
  }
  for (size_t b = 0; b < bars; b++) {
    int y = top + (int)b * row_h;
    char label[160];
    if (by_kernel)
      snprintf(label, sizeof label, "%s", r->kernels[b].name);
    else
      snprintf(label, sizeof label, "#%zu %s", b + 1, r->launches[b].kernel);
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", label_w - 6, y + 13);
    sg_cli_html_esc(out, label);
    fputs("</text>", out);
    double x = 0, total = 0;
    bool any = false; /* the launch has the measure */
    for (size_t c = 0; c < n; c++) {
      const struct sg_json *v = by_kernel ? NULL : field(&r->launches[b], cols[c]->path);
      double val = by_kernel ? aggregate(r, cols[c], r->kernels[b].name) : v ? v->number : NAN;
      any |= !isnan(val);
      double shown = val;
      val = isnan(val) ? 0 : val;
      double w = max > 0 && val > 0 ? val / max * bar_w : 0;
      fprintf(out,
              "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
              "<title>",
              label_w + x, y + 2, w, row_h - 4, sg_cli_svg_colour(c));
      sg_cli_html_esc(out, label);
      fputs(": ", out);
      sg_cli_html_esc(out, cols[c]->path);
      fputs(" ", out);
      if (isnan(shown))
        fputs("none", out);
      else
        sg_cli_html_number(out, shown, cols[c]->integral);
      fputs("</title></rect>", out);
      x += w, total += val;
    }
    fprintf(out, "<text x=\"%.1f\" y=\"%d\">", label_w + x + 4, y + 13);
    sg_cli_html_number(out, any ? total : NAN, n > 1 || cols[0]->integral);
    fputs("</text>\n", out);
  }
  fputs("</svg></figure>\n", out);
}

/* Does the object at path hold other objects? Then it is a section of
 * the statistics (`timing`: cycles, IPC, hit counts ...), whose members
 * are charted one by one, not parts of one whole (`timing.stalls`). */
static bool section(const struct report *r, const char *path) {
  size_t n = strlen(path);
  for (size_t c = 0; c < r->ncols; c++)
    if (r->cols[c].group && !strncmp(r->cols[c].group, path, n) && r->cols[c].group[n] == '.')
      return true;
  return false;
}

static void charts(const struct report *r) {
  struct column **cols = malloc((r->ncols + 1) * sizeof *cols);
  if (!cols)
    return;
  fputs("<h2>Charts</h2>\n<div class=\"charts\">\n", r->out);
  for (size_t c = 0; c < r->ncols; c++) {
    const struct column *col = &r->cols[c];
    if (!col->measure)
      continue;
    if (!col->group || section(r, col->group)) {
      cols[0] = (struct column *)col;
      chart(r, col->path, cols, 1);
      continue;
    }
    /* An object of measures only: one stacked chart, at its first member. */
    bool first = true;
    for (size_t d = 0; d < c; d++)
      first &= !(r->cols[d].group && !strcmp(r->cols[d].group, col->group));
    if (!first)
      continue;
    size_t n = 0;
    for (size_t d = c; d < r->ncols; d++)
      if (r->cols[d].measure && r->cols[d].group && !strcmp(r->cols[d].group, col->group))
        cols[n++] = &r->cols[d];
    chart(r, col->group, cols, n);
  }
  fputs("</div>\n", r->out);
  free(cols);
}

static void write_report(const struct report *r) {
  FILE *out = r->out;
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>SoftGPU "
        "statistics: ",
        out);
  sg_cli_html_esc(out, r->file);
  fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>SoftGPU statistics</h1>\n<p>",
          style);
  sg_cli_html_esc(out, r->file);
  fprintf(out, ": %zu launch%s of %zu kernel%s. Made by softgpu report %s.</p>\n", r->nlaunches,
          r->nlaunches == 1 ? "" : "es", r->nkernels, r->nkernels == 1 ? "" : "s", SG_VERSION);
  kernels_table(r);
  sg_cli_figures_write(r);
  launches_table(r);
  charts(r);
  fputs("</body>\n</html>\n", out);
}

/* ---- The command ------------------------------------------------------- */

static bool load(struct report *r, const struct sg_json *doc) {
  /* JSON lines of launch objects; a file holding one array of them is read
   * the same way. */
  const struct sg_json *list =
      doc->count == 1 && doc->items[0].type == SG_JSON_ARRAY ? &doc->items[0] : doc;
  r->launches = calloc(list->count + 1, sizeof *r->launches);
  if (!r->launches)
    return false;
  for (size_t i = 0; i < list->count; i++) {
    const struct sg_json *o = &list->items[i];
    if (o->type != SG_JSON_OBJECT) {
      sg_cli_error(SG_EXIT_INPUT, "report", "%s: value %zu is not an object (one launch)", r->file,
                   i + 1);
      return false;
    }
    struct launch *l = &r->launches[r->nlaunches++];
    const struct sg_json *k = sg_json_get(o, "kernel"), *st = sg_json_get(o, "status");
    l->obj = o;
    l->kernel = k && k->type == SG_JSON_STRING ? k->text : "(unnamed)";
    l->ok = !st || (st->type == SG_JSON_STRING && !strcmp(st->text, "ok"));
    if (!flatten(l, "", o) || !add_kernel(r, l->kernel)) {
      sg_cli_error(SG_EXIT_INPUT, "report", "out of memory");
      return false;
    }
  }
  if (!make_columns(r)) {
    sg_cli_error(SG_EXIT_INPUT, "report", "out of memory");
    return false;
  }
  return sg_cli_figures_load(r);
}

static int report_main(int argc, char **argv) {
  const char *file = NULL, *output = NULL;
  int count,
      rc = sg_cli_parse_files(&sg_cli_cmd_report, argc, argv, &file, 1, &count, &output, NULL);
  if (rc != SG_CLI_GO_ON)
    return rc;
  if (!file)
    return sg_cli_error(SG_EXIT_USAGE, "report",
                        "no statistics file (softgpu report STATS.json "
                        "[-o report.html])");
  size_t size;
  char *text = sg_cli_read_file(file, MAX_STATS, &size);
  if (!text)
    return sg_cli_error(SG_EXIT_INPUT, "report", "cannot read %s: %s", file, strerror(errno));
  struct sg_json doc;
  char err[256];
  bool parsed = sg_json_parse_values(text, size, &doc, err, sizeof err);
  free(text);
  if (!parsed)
    return sg_cli_error(SG_EXIT_INPUT, "report", "%s:%s", file, err);
  struct report r = {.file = file};
  rc = SG_EXIT_OK;
  if (!load(&r, &doc))
    rc = SG_EXIT_INPUT;
  else if (!r.nlaunches)
    rc = sg_cli_error(SG_EXIT_INPUT, "report", "%s holds no launches", file);
  if (rc == SG_EXIT_OK) {
    r.out = output ? fopen(output, "w") : stdout;
    if (!r.out)
      rc = sg_cli_error(SG_EXIT_INPUT, "report", "cannot write %s: %s", output, strerror(errno));
  }
  if (rc == SG_EXIT_OK) {
    write_report(&r);
    if ((output ? fclose(r.out) : fflush(r.out)) != 0)
      rc = sg_cli_error(SG_EXIT_INPUT, "report", "cannot write %s: %s",
                        output ? output : "the report", strerror(errno));
  }
  for (size_t i = 0; i < r.nlaunches; i++) {
    for (size_t f = 0; f < r.launches[i].nfields; f++)
      free(r.launches[i].fields[f].path);
    free(r.launches[i].fields);
  }
  for (size_t c = 0; c < r.ncols; c++)
    free(r.cols[c].path), free(r.cols[c].group);
  free(r.cols);
  sg_cli_figures_free(&r);
  free(r.launches);
  free(r.kernels);
  sg_json_free_fields(&doc);
  return rc;
}

const struct sg_cli_command sg_cli_cmd_report =
    {
        .name = "report",
        .synopsis = "STATS.json [-o report.html]",
        .summary = "turn a statistics file into an HTML report",
        .description =
            "Reads the per-launch statistics that SOFTGPU_STATS (or `softgpu run --stats`) wrote, "
            "one JSON object per launch, and writes a self-contained HTML page (to stdout without "
            "-o), with no scripts or network resources.\n\n"
            "Figures: SIMD efficiency per kernel (thread_insns over lane_slots of all its "
            "launches) and, for launches run in timing mode, cache hit rates (L1, L2, constant, "
            "instruction) per launch; then for each timing launch the scheduler slots of each core "
            "stacked by stall reason, and IPC and resident warps over time from its samples. "
            "Past " SG_CLI_STR(SG_CLI_MAX_FIGURES) " timing launches the longest launch of each "
                                                   "kernel gets these, then the longest of "
                                                   "the others; past " SG_CLI_STR(SG_CLI_MAX_BARS) " the hit rates are per kernel; past " SG_CLI_STR(
                                                       SG_CLI_MAX_CORE_BARS) " cores neighbouring "
                                                                             "cores "
                                                                             "share a bar; "
                                                                             "past " SG_CLI_STR(SG_CLI_MAX_POINTS) " samples they are merged into at most " SG_CLI_STR(
                                                                                 SG_CLI_MAX_POINTS) " steps. A field these "
                                                                                                    "read that has the wrong type or range is an error naming the launch and the field.\n\n"
                                                                                                    "Tables and charts: a table of the kernels (sums over their launches, means for "
                                                                                                    "measures that are not whole numbers), a table of every launch with all its fields, "
                                                                                                    "and a bar chart of each measure (ratios such as simd_efficiency against 1; a nested "
                                                                                                    "object of numbers as one stacked chart). With more than " SG_CLI_STR(
                                                                                                        SG_CLI_MAX_BARS) " launches the charts show "
                                                                                                                         "kernels instead. Fields the statistics gain later show up as they are.",
        .opts = (const struct sg_cli_opt[]){{"output", 'o', "FILE",
                                             "write the report to FILE instead of stdout"},
                                            {NULL, 0, NULL, NULL}},
        .main = report_main,
};
