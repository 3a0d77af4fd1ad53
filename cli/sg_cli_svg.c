/* SPDX-License-Identifier: MIT */
/* cli/: the drawing under `softgpu report`'s figures (DESIGN.md 4,
 * statistics): plot areas with axes that start at 0 and have round ticks,
 * legend keys and one palette, as inline SVG. The figures say what they
 * draw; where it lands in pixels is decided here. */
#include <math.h>
#include <string.h>

#include "sg_cli_report.h"

/* Ordered so the stall reasons in the order the timing model writes them
 * read at a glance (issued green, idle light grey, the two scoreboard
 * waits red and orange, a full load/store unit blue); any other list still
 * gets twelve distinct colours before they repeat. */
static const char *const palette[] = {"#59a14f", "#cfcfcf", "#9c755f", "#edc948",
                                      "#b07aa1", "#e15759", "#f28e2b", "#76b7b2",
                                      "#ff9da7", "#4e79a7", "#6b6b6b", "#8cd17d"};

const char *sg_cli_svg_colour(size_t i) {
  return palette[i % (sizeof palette / sizeof palette[0])];
}

double sg_cli_svg_step(double max, int ticks) {
  if (!(max > 0) || !isfinite(max))
    max = 1;
  double raw = max / ticks, mag = pow(10, floor(log10(raw))), n = raw / mag;
  /* 1e-9: raw / mag of a round number is that number give or take an ulp */
  double m = n <= 1 + 1e-9 ? 1 : n <= 2 + 1e-9 ? 2 : n <= 2.5 + 1e-9 ? 2.5 : n <= 5 + 1e-9 ? 5 : 10;
  return m * mag;
}

double sg_cli_svg_ceil(double max, double step) {
  double n = isfinite(max) ? ceil(max / step - 1e-9) : 1;
  return (n < 1 ? 1 : n) * step;
}

double sg_cli_plot_x(const struct sg_cli_plot *p, double v) {
  return p->x + v / p->xend * p->w;
}

double sg_cli_plot_y(const struct sg_cli_plot *p, double v) {
  return p->y + p->h - v / p->yend * p->h;
}

/* Decimals that show every multiple of step exactly (0.25: 2). */
static int decimals(double step) {
  int d = 0;
  for (double s = step; d < 6 && fabs(s - round(s)) > 1e-6 * s; s *= 10)
    d++;
  return d;
}

/* A tick label: 0, 0.5, 5000, 200k, 1.5M, 2G, 1e+15; percent: 0.2 as 20. The
 * unit comes from the axis' end, so every label of an axis has the same
 * (k from 10,000: "2k" reads worse than 2000 on a short axis). */
static void put_tick(FILE *out, double v, double step, double end, bool percent) {
  static const struct {
    double from, scale;
    const char *suffix;
  } si[] = {{1e9, 1e9, "G"}, {1e6, 1e6, "M"}, {1e4, 1e3, "k"}};
  if (!percent && end >= 1e12) { /* past G: 1.5e+12 */
    fprintf(out, "%.3g", v);
    return;
  }
  double scale = percent ? 0.01 : 1;
  const char *suffix = "";
  for (size_t i = 0; !percent && i < sizeof si / sizeof si[0]; i++)
    if (end >= si[i].from) {
      scale = si[i].scale, suffix = si[i].suffix;
      break;
    }
  fprintf(out, "%.*f%s", decimals(step / scale), v / scale, v ? suffix : "");
}

void sg_cli_plot_yaxis(const struct sg_cli_plot *p, const char *title, bool percent) {
  FILE *out = p->out;
  for (int i = 0; i * p->ystep <= p->yend * (1 + 1e-9); i++) {
    double v = i * p->ystep, y = sg_cli_plot_y(p, v);
    fprintf(out,
            "<line stroke=\"#e3e3e3\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
            "<text fill=\"#444\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
            p->x, y, p->x + p->w, y, p->x - 5, y + 4);
    put_tick(out, v, p->ystep, p->yend, percent);
    fputs("</text>\n", out);
  }
  fprintf(out, "<line stroke=\"#333\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", p->x,
          p->y, p->x, p->y + p->h);
  double cx = p->x - 46, cy = p->y + p->h / 2;
  fprintf(out,
          "<text class=\"title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
          "transform=\"rotate(-90 %.1f %.1f)\">",
          cx, cy, cx, cy);
  sg_cli_html_esc(out, title);
  fputs("</text>\n", out);
}

void sg_cli_plot_xaxis(const struct sg_cli_plot *p, const char *title, bool percent) {
  FILE *out = p->out;
  double base = p->y + p->h;
  fprintf(out, "<line stroke=\"#333\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", p->x,
          base, p->x + p->w, base);
  for (int i = 0; i * p->xstep <= p->xend * (1 + 1e-9); i++) {
    double v = i * p->xstep, x = sg_cli_plot_x(p, v);
    fprintf(out,
            "<line stroke=\"#e3e3e3\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
            "<line stroke=\"#333\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
            "<text fill=\"#444\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
            x, p->y, x, base, x, base, x, base + 4, x, base + 16);
    put_tick(out, v, p->xstep, p->xend, percent);
    fputs("</text>\n", out);
  }
  if (*title)
    sg_cli_svg_text(out, p->x + p->w / 2, base + 34, "middle", title);
}

void sg_cli_svg_open(FILE *out, const char *id, const char *caption, int width, int height) {
  fputs("<figure class=\"chart\" id=\"", out);
  sg_cli_html_esc(out, id);
  fprintf(out,
          "\"><figcaption>%s</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
          "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
          "font-family=\"sans-serif\" font-size=\"12\">\n",
          caption, width, height, width, height);
}

void sg_cli_svg_close(FILE *out) {
  fputs("</svg></figure>\n", out);
}

void sg_cli_svg_key(FILE *out, double x, double y, const char *colour, const char *name) {
  fprintf(out, "<rect class=\"key\" x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>",
          x, y - 9, colour);
  sg_cli_svg_text(out, x + 14, y, "start", name);
}

void sg_cli_svg_text(FILE *out, double x, double y, const char *anchor, const char *text) {
  fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
  sg_cli_html_esc(out, text);
  fputs("</text>\n", out);
}
