/* SPDX-License-Identifier: MIT */
/* cli/: what the files of `softgpu report` share (private to cli/): the
 * launches as read, the generic columns, HTML escapes and numbers, and the
 * SVG drawing under the figures (sg_cli_svg.c). sg_cli_report.c makes the
 * tables and a chart per measure; sg_cli_figures.c the figures drawn from
 * fields it knows by name (SIMD efficiency, the timing object). */
#ifndef SG_CLI_REPORT_H
#define SG_CLI_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sg_cli.h"

/* One leaf of a launch's object, named by its path ("stalls.barrier"). */
struct field {
  char *path;
  const struct sg_json *v;
};

struct launch {
  const struct sg_json *obj; /* the launch's object as read */
  const char *kernel;
  bool ok; /* no "status", or "ok" */
  struct field *fields;
  size_t nfields;
};

struct column {
  char *path;
  char *group;   /* the parent object's path when the value is nested, else NULL */
  bool measure;  /* a number in every launch that has it, not a shape field */
  bool integral; /* every value an integer: sums make sense */
  bool unit;     /* every value in [0, 1]: a ratio, charted against 1 */
};

struct kernel_row {
  const char *name;
  unsigned launches;
};

struct sg_cli_figures; /* sg_cli_figures.c: the launches' named fields, checked */

struct report {
  const char *file;
  struct launch *launches;
  size_t nlaunches;
  struct column *cols;
  size_t ncols;
  struct kernel_row *kernels;
  size_t nkernels;
  struct sg_cli_figures *fig;
  FILE *out;
};

/* Limits that keep the page small and readable, with the help text
 * (sg_cli_cmd_report) written from them. More launches than MAX_BARS: the
 * bar charts show kernels instead; more timing launches than MAX_FIGURES:
 * some get their own figures (the longest of each kernel first); more
 * cores than MAX_CORE_BARS: neighbours share a bar (7 px or wider); more
 * samples than MAX_POINTS: they are merged (about one step a pixel). */
#define SG_CLI_MAX_BARS 64
#define SG_CLI_MAX_FIGURES 12
#define SG_CLI_MAX_CORE_BARS 32
#define SG_CLI_MAX_POINTS 400
#define SG_CLI_STR(x) SG_CLI_STR_(x)
#define SG_CLI_STR_(x) #x

/* ---- HTML (sg_cli_report.c) ---------------------------------------------- */

/* s with & < > " ' escaped. */
void sg_cli_html_esc(FILE *out, const char *s);
/* 1234567 -> "1,234,567" when integral, others with 4 significant digits;
 * NAN (no value) as nothing. */
void sg_cli_html_number(FILE *out, double v, bool integral);

/* ---- Figures (sg_cli_figures.c) ------------------------------------------ */

/* Reads and checks the fields the figures use; false after printing a
 * one-line error naming the file, the launch and the field. */
bool sg_cli_figures_load(struct report *r);
/* The figures' section of the page (nothing when no launch has their
 * fields). */
void sg_cli_figures_write(const struct report *r);
void sg_cli_figures_free(struct report *r);

/* ---- SVG (sg_cli_svg.c) -------------------------------------------------- */

/* Series colours, distinct for the stall reasons a core reports. */
const char *sg_cli_svg_colour(size_t i);

/* A plot area in pixels and its axes, both starting at 0. */
struct sg_cli_plot {
  FILE *out;
  double x, y, w, h;  /* the area's top left corner and size */
  double xend, xstep; /* the x axis runs to xend, a tick every xstep */
  double yend, ystep;
};
/* A round tick step that divides 0..max into about ticks parts (1, 2, 2.5
 * or 5 times a power of ten); max <= 0 or not finite counts as 1. */
double sg_cli_svg_step(double max, int ticks);
/* The smallest multiple of step at or above max (at least step). */
double sg_cli_svg_ceil(double max, double step);
double sg_cli_plot_x(const struct sg_cli_plot *p, double v);
double sg_cli_plot_y(const struct sg_cli_plot *p, double v);
/* Grid lines, ticks and labels of the y axis, and its title turned along
 * it; percent: values in [0, 1] labelled 0..100. */
void sg_cli_plot_yaxis(const struct sg_cli_plot *p, const char *title, bool percent);
/* The same for the x axis, under the area. */
void sg_cli_plot_xaxis(const struct sg_cli_plot *p, const char *title, bool percent);
/* A figure's start and end: <figure id=...><figcaption>...</figcaption>
 * and an <svg> of the given size; the caption is HTML, written as given. */
void sg_cli_svg_open(FILE *out, const char *id, const char *caption, int width, int height);
void sg_cli_svg_close(FILE *out);
/* A legend entry: a colour swatch and its name at x, y (the text's
 * baseline). */
void sg_cli_svg_key(FILE *out, double x, double y, const char *colour, const char *name);
/* Text, escaped, at x, y; anchor "start", "middle" or "end". */
void sg_cli_svg_text(FILE *out, double x, double y, const char *anchor, const char *text);

#endif
