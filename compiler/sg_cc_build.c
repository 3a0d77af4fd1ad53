/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler": sg_build drives the stages (options, clang
 * front end, passes and codegen, link, reconvergence, binary) and keeps the
 * build log. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf, strndup, posix_spawn_file_actions_addchdir_np */
#endif
#include "sg_cc_internal.h"

#include <llvm-c/Core.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sg_text_append(struct sg_text *t, const char *s, size_t n)
{
  if (!t->buf || t->len + n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + n + 1)
      cap *= 2;
    char *b = realloc(t->buf, cap);
    if (!b)
      return; /* the log is best effort; the status says what happened */
    t->buf = b, t->cap = cap;
  }
  memcpy(t->buf + t->len, s, n);
  t->len += n;
  t->buf[t->len] = 0;
}

void sg_text_printf(struct sg_text *t, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  if (n >= 0)
    sg_text_append(t, s, (size_t)n);
  free(s);
}

char *sg_text_take(struct sg_text *t)
{
  char *s = t->buf ? t->buf : strdup("");
  memset(t, 0, sizeof *t);
  return s;
}

static char version[64];
static void make_version(void)
{
  unsigned major, minor, patch;
  LLVMGetVersion(&major, &minor, &patch);
  snprintf(version, sizeof version, "SoftGPU compiler 0.1 (LLVM %u.%u.%u)", major, minor, patch);
}

const char *sg_compiler_version(void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, make_version);
  return version;
}

/* Entry PCs from the linked symbols. Each kernel's static local size was set
 * when its __local variables got their addresses (sg_cc_passes.c), so
 * nothing may be left in .sg.local to overlap them; its private memory is
 * that of its own call graph. */
static enum sg_status place_kernels(struct sg_cc_object *o, const struct sg_linked *l,
                                    const struct sg_options *opt, struct sg_text *log)
{
  if (l->local_size) {
    sg_text_printf(log, "error: internal compiler error: data left in .sg.local\n");
    return SG_ELINK;
  }
  for (uint32_t i = 0; i < o->num_kernels; i++) {
    char *name;
    if (asprintf(&name, SG_ENTRY_PREFIX "%s", o->kernels[i].name) < 0)
      return SG_ENOMEM;
    const struct sg_cc_symbol *s = sg_linked_find(l, name);
    free(name);
    if (!s || !s->is_func) {
      sg_text_printf(log, "error: no entry point for kernel '%s'\n", o->kernels[i].name);
      return SG_ELINK;
    }
    o->kernels[i].entry_pc = s->addr;
  }
  /* Without a device's limit: what one work-item could get at most, the
   * whole stack window. */
  uint64_t limit = opt->max_private_size ? opt->max_private_size : SG_ADDR_GLOBAL - SG_ADDR_STACK;
  return sg_cc_stack_sizes(l, o->kernels, o->num_kernels, limit, log);
}

enum sg_status sg_cc_build_bitcode(const void *bc, size_t bc_size, const struct sg_options *opt,
                                   struct sg_build_result *res, struct sg_text *log)
{
  struct sg_cc_object obj = {0};
  struct sg_linked linked = {0};
  struct sg_reconv *table = NULL;
  size_t ntable = 0;
  enum sg_status st = sg_cc_compile(bc, bc_size, opt, &obj, log);
  if (st == SG_OK)
    st = sg_cc_link(obj.obj, obj.obj_size, &linked, log);
  if (st == SG_OK)
    st = place_kernels(&obj, &linked, opt, log);
  if (st == SG_OK)
    st = sg_cc_reconv(&linked, &table, &ntable, log);
  if (st == SG_OK)
    st = sg_binary_write(&linked, opt, obj.kernels, obj.num_kernels, table, ntable, obj.sources,
                         obj.num_sources, &res->binary, &res->binary_size);
  free(table);
  sg_linked_free(&linked);
  sg_cc_object_free(&obj);
  return st;
}

static enum sg_status build(const struct sg_build_request *req, struct sg_build_result *res,
                            struct sg_text *log)
{
  struct sg_options opt;
  enum sg_status st = sg_cc_parse_options(req->options, &opt, log);
  if (st != SG_OK)
    return st;
  opt.max_private_size = req->max_private_size;
  void *bc = NULL;
  size_t bc_size = 0;
  st = sg_cc_frontend(req, &opt, &bc, &bc_size, log);
  if (st == SG_OK)
    st = sg_cc_build_bitcode(bc, bc_size, &opt, res, log);
  free(bc);
  sg_cc_options_free(&opt);
  return st;
}

enum sg_status sg_cc_run_request(const struct sg_build_request *req, struct sg_build_result *res,
                                 sg_cc_step step)
{
  struct sg_text log = {0};
  memset(res, 0, sizeof *res);
  enum sg_status st = SG_EINVAL;
  if (!req || !req->source || (req->num_headers && !req->headers))
    sg_text_printf(&log, "error: no source\n");
  else
    st = step(req, res, &log);
  if (st == SG_ENOMEM)
    sg_text_printf(&log, "error: out of host memory\n");
  res->log = sg_text_take(&log);
  return st;
}

enum sg_status sg_cc_build_local(const struct sg_build_request *req, struct sg_build_result *res)
{
  return sg_cc_run_request(req, res, build);
}

void sg_build_result_free(struct sg_build_result *res)
{
  free(res->log);
  free(res->binary);
  memset(res, 0, sizeof *res);
}
