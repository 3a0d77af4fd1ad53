/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler" and section 3 ("reported with ... the source
 * line"): the program binary's line tables. At load the DWARF line program
 * (read with libdw) becomes a sorted PC -> file:line:column table, and the
 * source text the compiler embedded (.sg.source) is indexed by line, so a
 * device finding can name and quote its line. Line tables are an aid: a
 * binary without them loads, and one whose tables are damaged loads with
 * them ignored and a warning for the build log. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sg_cc_internal.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 4096u
#define MAX_ROWS (64u << 20)

struct row {
  uint64_t addr;
  uint32_t file; /* index in files; END: the end of a sequence; LINE0: line 0 */
  uint32_t line, col;
  uint32_t order; /* position in the line program: the last row at an address applies */
};

#define END UINT32_MAX
#define LINE0 (UINT32_MAX - 1)

struct file {
  char *path;       /* as the line table names it */
  const char *name; /* what reports show */
  const char *text; /* the embedded source, or NULL */
  size_t text_len;
  uint32_t *starts; /* offset of each line in text (line n at starts[n - 1]) */
  uint32_t nlines;
};

struct sg_line_table {
  struct row *rows;
  uint32_t nrows;
  struct file files[MAX_FILES];
  uint32_t nfiles;
  char *sources; /* copy of .sg.source: the texts point into it */
  size_t sources_size;
};

static void warn(struct sg_program_image *img, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(img->load_warning, sizeof img->load_warning, fmt, ap);
  va_end(ap);
}

void sg_lines_free(struct sg_line_table *t) {
  if (!t)
    return;
  for (uint32_t i = 0; i < t->nfiles; i++) {
    free(t->files[i].path);
    free(t->files[i].starts);
  }
  free(t->rows);
  free(t->sources);
  free(t);
}

/* "/tmp/softgpu-cc-Ab12Cd/foo.h" -> "foo.h": the build directory is a
 * temporary one; what the user wrote is the part after it. */
static const char *shown_name(const char *path) {
  const char *p = strstr(path, "/softgpu-cc-");
  const char *slash = p ? strchr(p + 1, '/') : NULL;
  return slash && slash[1] ? slash + 1 : path;
}

/* Indexes the lines of a file's text. */
static bool index_text(struct file *f) {
  uint32_t n = 1;
  for (size_t i = 0; i < f->text_len; i++)
    n += f->text[i] == '\n';
  f->starts = malloc(n * sizeof *f->starts);
  if (!f->starts)
    return false;
  f->starts[0] = 0;
  f->nlines = 1;
  for (size_t i = 0; i < f->text_len; i++)
    if (f->text[i] == '\n')
      f->starts[f->nlines++] = (uint32_t)(i + 1);
  return true;
}

/* .sg.source: triples of NUL-terminated strings (path, name, text). Finds
 * the text of path (exactly, else a file of the same shown name). */
static bool find_source(const struct sg_line_table *t, const char *path, const char **name,
                        const char **text, size_t *len) {
  const char *best_name = NULL, *best_text = NULL;
  for (size_t at = 0; at < t->sources_size;) {
    const char *p = t->sources + at;
    const char *n = p + strlen(p) + 1;
    const char *x = n + strlen(n) + 1;
    at = (size_t)(x - t->sources) + strlen(x) + 1;
    if (!strcmp(p, path)) {
      best_name = n, best_text = x;
      break;
    }
    if (!best_text && !strcmp(shown_name(p), shown_name(path)))
      best_name = n, best_text = x;
  }
  if (!best_text)
    return false;
  *name = best_name;
  *text = best_text;
  *len = strlen(best_text);
  return true;
}

/* Checks that the section is a whole number of string triples. */
static bool sources_valid(const char *s, size_t size) {
  size_t strings = 0;
  if (size && s[size - 1])
    return false;
  for (size_t i = 0; i < size; i++)
    strings += !s[i];
  return strings % 3 == 0;
}

static uint32_t file_index(struct sg_line_table *t, const char *path, bool *oom) {
  for (uint32_t i = 0; i < t->nfiles; i++)
    if (!strcmp(t->files[i].path, path))
      return i;
  if (t->nfiles == MAX_FILES)
    return UINT32_MAX;
  struct file *f = &t->files[t->nfiles];
  memset(f, 0, sizeof *f);
  if (!(f->path = strdup(path))) {
    *oom = true;
    return UINT32_MAX;
  }
  f->name = shown_name(f->path);
  if (find_source(t, path, &f->name, &f->text, &f->text_len) && !index_text(f)) {
    *oom = true;
    free(f->path);
    return UINT32_MAX;
  }
  return t->nfiles++;
}

static int by_addr(const void *a, const void *b) {
  const struct row *x = a, *y = b;
  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

/* Reads every CU's line program into t. False (with a warning) when the
 * DWARF is damaged. */
static bool read_rows(struct sg_program_image *img, Dwarf *dw, struct sg_line_table *t, bool *oom) {
  Dwarf_Off off = 0, next;
  size_t hsize;
  uint32_t cap = 0;
  while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
    Dwarf_Die cu;
    if (!dwarf_offdie(dw, off + hsize, &cu)) {
      warn(img, "line tables ignored: %s", dwarf_errmsg(-1));
      return false;
    }
    off = next;
    Dwarf_Lines *lines;
    size_t n;
    if (!dwarf_hasattr(&cu, DW_AT_stmt_list))
      continue; /* a unit without lines */
    if (dwarf_getsrclines(&cu, &lines, &n) != 0) {
      warn(img, "line tables ignored: %s", dwarf_errmsg(-1));
      return false;
    }
    for (size_t i = 0; i < n; i++) {
      Dwarf_Line *ln = dwarf_onesrcline(lines, i);
      Dwarf_Addr addr;
      int line = 0, col = 0;
      bool end = false;
      const char *src = ln ? dwarf_linesrc(ln, NULL, NULL) : NULL;
      if (!ln || dwarf_lineaddr(ln, &addr) || dwarf_lineno(ln, &line) || dwarf_linecol(ln, &col) ||
          dwarf_lineendsequence(ln, &end) || !src || line < 0 || col < 0) {
        warn(img, "line tables ignored: a row is unreadable");
        return false;
      }
      if (addr < img->ro_base || addr - img->ro_base > img->ro_size)
        continue; /* not this program's code */
      if (t->nrows == MAX_ROWS) {
        warn(img, "line tables ignored: more than %u rows", MAX_ROWS);
        return false;
      }
      if (t->nrows == cap) {
        cap = cap ? 2 * cap : 256;
        struct row *r = realloc(t->rows, cap * sizeof *r);
        if (!r) {
          *oom = true;
          return false;
        }
        t->rows = r;
      }
      uint32_t file = end ? END : line == 0 ? LINE0 : file_index(t, src, oom);
      if (*oom)
        return false;
      t->rows[t->nrows] = (struct row){addr, file, (uint32_t)line, (uint32_t)col, t->nrows};
      t->nrows++;
    }
  }
  return true;
}

/* Does the file have a .debug_* section? (libdw's "no DWARF" error code is
 * not public.) */
static bool has_dwarf(Elf *elf) {
  size_t shstrndx, n;
  if (elf_getshdrstrndx(elf, &shstrndx) || elf_getshdrnum(elf, &n))
    return false;
  for (size_t i = 1; i < n; i++) {
    GElf_Shdr sh;
    Elf_Scn *scn = elf_getscn(elf, i);
    const char *name = scn && gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
    if (name && !strncmp(name, ".debug_", 7))
      return true;
  }
  return false;
}

enum sg_status sg_lines_load(Elf *elf, const void *sources, size_t sources_size,
                             struct sg_program_image *img) {
  img->lines = NULL;
  if (!has_dwarf(elf))
    return SG_OK; /* no line tables: findings name PCs */
  Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
  if (!dw) {
    warn(img, "line tables ignored: %s", dwarf_errmsg(-1));
    return SG_OK;
  }
  struct sg_line_table *t = calloc(1, sizeof *t);
  bool oom = !t;
  if (t && sources_size) {
    if (!sources_valid(sources, sources_size)) {
      warn(img, "the embedded source (.sg.source) is damaged and was ignored");
    } else if ((t->sources = malloc(sources_size))) {
      memcpy(t->sources, sources, sources_size);
      t->sources_size = sources_size;
    } else {
      oom = true;
    }
  }
  bool ok = !oom && read_rows(img, dw, t, &oom);
  dwarf_end(dw);
  if (!ok || !t->nrows) {
    sg_lines_free(t);
    return oom ? SG_ENOMEM : SG_OK;
  }
  qsort(t->rows, t->nrows, sizeof *t->rows, by_addr);
  img->lines = t;
  return SG_OK;
}

bool sg_program_locate(const struct sg_program_image *img, uint64_t pc, struct sg_source_loc *loc) {
  const struct sg_line_table *t = img ? img->lines : NULL;
  memset(loc, 0, sizeof *loc);
  if (!t)
    return false;
  uint32_t lo = 0, hi = t->nrows; /* first row with addr > pc */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (t->rows[mid].addr <= pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  /* Line 0 is code the compiler made of several lines (a store shared by
   * both sides of an if): the line before it in the same sequence is the
   * nearest one, as debuggers show it. */
  while (lo && t->rows[lo - 1].file == LINE0)
    lo--;
  if (!lo || t->rows[lo - 1].file == END)
    return false;
  const struct row *r = &t->rows[lo - 1];
  const struct file *f = &t->files[r->file];
  loc->file = f->name;
  loc->line = r->line;
  loc->col = r->col;
  if (f->text && r->line <= f->nlines) {
    uint32_t start = f->starts[r->line - 1];
    uint32_t end = r->line < f->nlines ? f->starts[r->line] - 1 : (uint32_t)f->text_len;
    loc->text = f->text + start;
    loc->text_len = end - start;
  }
  return true;
}
