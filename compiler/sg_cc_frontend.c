/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler", front end: build options, and clang's
 * driver and front end (sg_cc_clang.cpp, in the worker's process) run on a
 * private temporary directory holding the source and the embedded headers.
 * Its diagnostics become the build log. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf, strndup */
#endif
#include "sg_cc_internal.h"

#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- Options ------------------------------------------------------------ */

/* Splits like a POSIX shell: blanks separate words; '...' is literal; "..."
 * and a bare backslash escape. Returns false on an unterminated quote. */
static bool split_words(const char *s, char ***words, uint32_t *count)
{
  size_t n = strlen(s);
  char *w = malloc(n + 1);
  char **v = calloc(n / 2 + 2, sizeof *v);
  uint32_t c = 0;
  if (!w || !v)
    goto fail;
  for (size_t i = 0; i < n;) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
      i++;
    if (i == n)
      break;
    size_t len = 0;
    while (i < n && !(s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) {
      char q = s[i];
      if (q == '\'' || q == '"') {
        for (i++; i < n && s[i] != q; i++) {
          if (q == '"' && s[i] == '\\' && i + 1 < n && strchr("\"\\$`", s[i + 1]))
            i++;
          w[len++] = s[i];
        }
        if (i == n)
          goto fail;
        i++;
      } else if (q == '\\' && i + 1 < n) {
        w[len++] = s[i + 1];
        i += 2;
      } else {
        w[len++] = s[i++];
      }
    }
    w[len] = 0;
    if (!(v[c++] = strdup(w)))
      goto fail;
  }
  free(w);
  *words = v;
  *count = c;
  return true;
fail:
  for (uint32_t i = 0; v && i < c; i++)
    free(v[i]);
  free(v);
  free(w);
  return false;
}

/* Options handed to clang unchanged (it implements their meaning). */
static const char *const clang_flags[] = {
    "-w", "-Werror", "-cl-fast-relaxed-math", "-cl-mad-enable", "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations", "-cl-finite-math-only", "-cl-denorms-are-zero",
    "-cl-single-precision-constant", "-cl-uniform-work-group-size",
    "-cl-fp32-correctly-rounded-divide-sqrt",
};

static const struct { const char *name; uint32_t version; } cl_stds[] = {
    {"CL1.0", 100}, {"CL1.1", 110}, {"CL1.2", 120}, {"CL2.0", 200}, {"CL3.0", 300},
};

static bool add_clang_arg(struct sg_options *opt, const char *a, const char *b)
{
  char *s;
  if (asprintf(&s, "%s%s", a, b ? b : "") < 0)
    return false;
  char **v = realloc(opt->clang_args, (opt->num_clang_args + 2) * sizeof *v);
  if (!v) {
    free(s);
    return false;
  }
  v[opt->num_clang_args++] = s;
  v[opt->num_clang_args] = NULL;
  opt->clang_args = v;
  return true;
}

static bool ident_char(char c, bool first)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         (!first && c >= '0' && c <= '9');
}

/* Why a -D argument ("NAME", "NAME=value", or a function-like
 * "NAME(a,b)=value" as clang, GCC and PoCL take it; hashcat passes
 * -D XM2S(x)=#x) cannot be a macro definition, or NULL. Clang would take a
 * line break in the value as the end of the definition and compile the
 * rest as source. */
static const char *bad_define(const char *d)
{
  size_t n = strcspn(d, "=(");
  if (!ident_char(*d, true))
    return "the macro name is not an identifier";
  for (size_t i = 1; i < n; i++)
    if (!ident_char(d[i], false))
      return "the macro name is not an identifier";
  if (d[n] == '(') { /* parameters: identifiers or "...", separated by commas */
    size_t i = n + 1;
    while (d[i] && d[i] != ')')
      if (ident_char(d[i], false) || d[i] == ',' || d[i] == ' ' || d[i] == '.')
        i++;
      else
        return "bad macro parameter list";
    if (d[i] != ')' || (d[i + 1] && d[i + 1] != '='))
      return "bad macro parameter list";
    n = i + 1;
  }
  return strpbrk(d + n, "\n\r") ? "a line break in the macro value" : NULL;
}

/* One option word (and maybe the next); returns the words used, 0 on error. */
static int parse_one(struct sg_options *opt, char **w, uint32_t left, struct sg_text *log)
{
  const char *a = w[0];
  if (!strncmp(a, "-D", 2) || !strncmp(a, "-I", 2)) {
    const char *val = a[2] ? a + 2 : (left > 1 ? w[1] : NULL);
    if (!val || !*val || (a[1] == 'D' && *val == '=')) {
      sg_text_printf(log, "error: option '%s' needs a %s\n", a, a[1] == 'D' ? "macro name" : "directory");
      return 0;
    }
    const char *why = a[1] == 'D' ? bad_define(val) : strpbrk(val, "\n\r") ? "a line break" : NULL;
    if (why) {
      sg_text_printf(log, "error: option '-%c%.200s%s': %s\n", a[1], val,
                     strlen(val) > 200 ? "..." : "", why);
      return 0;
    }
    char flag[3] = {'-', a[1], 0};
    if (!add_clang_arg(opt, flag, val))
      return -1;
    /* clang runs in the build directory (where embedded headers live); a
     * relative -I also names a host directory relative to our own cwd. */
    char cwd[4096], host[8192];
    if (a[1] == 'I' && *val != '/' && getcwd(cwd, sizeof cwd)) {
      snprintf(host, sizeof host, "%s/%s", cwd, val);
      if (!add_clang_arg(opt, "-I", host))
        return -1;
    }
    return a[2] ? 1 : 2;
  }
  if (!strncmp(a, "-cl-std=", 8)) {
    for (size_t i = 0; i < sizeof cl_stds / sizeof cl_stds[0]; i++)
      if (!strcmp(a + 8, cl_stds[i].name)) {
        opt->cl_c_version = cl_stds[i].version;
        return 1;
      }
    sg_text_printf(log, "error: unsupported OpenCL C version in option '%s'\n", a);
    return 0;
  }
  for (size_t i = 0; i < sizeof clang_flags / sizeof clang_flags[0]; i++)
    if (!strcmp(a, clang_flags[i])) {
      if (!strcmp(a, "-cl-uniform-work-group-size"))
        opt->uniform_work_group = true;
      return add_clang_arg(opt, a, NULL) ? 1 : -1;
    }
  if (!strcmp(a, "-cl-opt-disable"))
    opt->opt_disable = true;
  else if (!strcmp(a, "-cl-kernel-arg-info"))
    opt->kernel_arg_info = true;
  else if (!strcmp(a, "-g"))
    opt->debug_full = true;
  else if (strcmp(a, "-cl-strict-aliasing") && strcmp(a, "-cl-no-subgroup-ifp")) {
    /* -cl-strict-aliasing: a deprecated 1.x no-op; -cl-no-subgroup-ifp: a
     * permission the device does not need (its sub-groups make progress
     * together), unknown to clang. */
    sg_text_printf(log, "error: unknown build option '%s'\n", a);
    return 0;
  }
  return 1;
}

enum sg_status sg_cc_parse_options(const char *options, struct sg_options *opt,
                                   struct sg_text *log)
{
  memset(opt, 0, sizeof *opt);
  opt->cl_c_version = 120;
  char **w = NULL;
  uint32_t n = 0;
  if (!split_words(options ? options : "", &w, &n)) {
    sg_text_printf(log, "error: unterminated quote in build options\n");
    return SG_EOPTIONS;
  }
  enum sg_status st = add_clang_arg(opt, "-I.", NULL) ? SG_OK : SG_ENOMEM;
  for (uint32_t i = 0; i < n && st == SG_OK;) {
    int used = parse_one(opt, w + i, n - i, log);
    st = used > 0 ? SG_OK : used == 0 ? SG_EOPTIONS : SG_ENOMEM;
    i += used > 0 ? (uint32_t)used : 0;
  }
  if (opt->cl_c_version < 200)
    opt->uniform_work_group = true;
  for (uint32_t i = 0; i < n; i++)
    free(w[i]);
  free(w);
  if (st != SG_OK)
    sg_cc_options_free(opt);
  return st;
}

void sg_cc_options_free(struct sg_options *opt)
{
  for (uint32_t i = 0; i < opt->num_clang_args; i++)
    free(opt->clang_args[i]);
  free(opt->clang_args);
  opt->clang_args = NULL;
  opt->num_clang_args = 0;
}

/* ---- What the device supports --------------------------------------------- */

/* One list: the device reports exactly what clang is told to enable.
 * `define_from`: clang 19 does not know the name (its header defines it only
 * for SPIR), so the front end defines the macro that declares the built-ins,
 * from that OpenCL C version on (0: never; the sub-group and work-group
 * built-ins exist from OpenCL C 2.0 on, the extended bit operations and the
 * integer dot products from 1.0). */
static const struct { const char *name; bool feature; uint32_t define_from; } cl_exts[] = {
    {"cl_khr_byte_addressable_store", false, 0},
    {"cl_khr_fp64", false, 0},
    {"cl_khr_global_int32_base_atomics", false, 0},
    {"cl_khr_global_int32_extended_atomics", false, 0},
    {"cl_khr_local_int32_base_atomics", false, 0},
    {"cl_khr_local_int32_extended_atomics", false, 0},
    {"cl_khr_int64_base_atomics", false, 0},
    {"cl_khr_int64_extended_atomics", false, 0},
    {"cl_khr_extended_bit_ops", false, 100},
    {"cl_khr_integer_dot_product", false, 100},
    {"__opencl_c_integer_dot_product_input_4x8bit", true, 100},
    {"__opencl_c_integer_dot_product_input_4x8bit_packed", true, 100},
    {"__opencl_c_fp64", true, 0},
    {"__opencl_c_int64", true, 0},
    {"__opencl_c_generic_address_space", true, 0},
    {"__opencl_c_program_scope_global_variables", true, 0},
    {"__opencl_c_atomic_order_acq_rel", true, 0},
    {"__opencl_c_atomic_order_seq_cst", true, 0},
    {"__opencl_c_atomic_scope_device", true, 200},
    {"__opencl_c_atomic_scope_all_devices", true, 200},
    {"cl_khr_subgroups", false, 0},
    {"cl_khr_subgroup_ballot", false, 200},
    {"cl_khr_subgroup_shuffle", false, 200},
    {"cl_khr_subgroup_shuffle_relative", false, 200},
    {"cl_khr_subgroup_non_uniform_vote", false, 200},
    {"cl_khr_subgroup_rotate", false, 200},
    {"__opencl_c_subgroups", true, 0},
    {"__opencl_c_work_group_collective_functions", true, 200},
    {"cl_khr_3d_image_writes", false, 0},
    {"cl_khr_depth_images", false, 0},
    {"cl_khr_image2d_from_buffer", false, 200}, /* an API extension, with a macro as usual */
    {"cl_khr_srgb_image_writes", false, 0},
    {"__opencl_c_images", true, 0},
    {"__opencl_c_read_write_images", true, 0},
    {"__opencl_c_3d_image_writes", true, 0},
};
#define NUM_EXTS (sizeof cl_exts / sizeof cl_exts[0])

/* Joins the names of one kind into b (size SG_EXT_LIST). */
#define SG_EXT_LIST 1024
static char *join_exts(char *b, bool features, const char *sep, const char *prefix)
{
  size_t len = strlen(prefix);
  memcpy(b, prefix, len + 1);
  for (size_t i = 0; i < NUM_EXTS; i++) {
    if (cl_exts[i].feature != features)
      continue;
    len += (size_t)snprintf(b + len, SG_EXT_LIST - len, "%s%s", len > strlen(prefix) ? sep : "",
                            cl_exts[i].name);
  }
  return b;
}

static char lists[2][SG_EXT_LIST];
static void make_lists(void)
{
  join_exts(lists[0], false, " ", "");
  join_exts(lists[1], true, " ", "");
}

static const char *once_list(bool features)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, make_lists);
  return lists[features];
}

const char *sg_compiler_extensions(void) { return once_list(false); }
const char *sg_compiler_c_features(void) { return once_list(true); }

/* ---- Running clang ------------------------------------------------------- */

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  (void)sb, (void)flag, (void)ftw;
  return remove(path);
}

static bool write_file(const char *dir, const char *name, const char *text)
{
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
    return false;
  for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
    *p = 0;
    int r = mkdir(path, 0700);
    *p = '/';
    if (r && errno != EEXIST)
      return false;
  }
  FILE *f = fopen(path, "wx");
  if (!f)
    return false;
  bool ok = fputs(text, f) >= 0;
  return (fclose(f) == 0) && ok;
}

/* A header name must stay inside the directory: relative, no "..". */
static bool header_name_ok(const char *name)
{
  if (!name || !*name || name[0] == '/' || strlen(name) > 1024)
    return false;
  for (const char *p = name; *p; p = strchr(p, '/') ? strchr(p, '/') + 1 : p + strlen(p))
    if (!strncmp(p, "..", 2) && (p[2] == '/' || !p[2]))
      return false;
  return !strstr(name, "//") && name[strlen(name) - 1] != '/';
}

static bool read_file(const char *dir, const char *name, void **data, size_t *size)
{
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/%s", dir, name);
  if (n < 0 || (size_t)n >= sizeof path)
    return false;
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  size_t cap = 1 << 16, len = 0;
  char *b = malloc(cap + 1);
  for (size_t got; b && (got = fread(b + len, 1, cap - len, f)) > 0;) {
    len += got;
    if (len == cap) {
      char *nb = realloc(b, 2 * cap + 1);
      if (!nb) {
        free(b);
        b = NULL;
      }
      b = nb;
      cap *= 2;
    }
  }
  fclose(f);
  if (!b)
    return false;
  b[len] = 0;
  *data = b;
  *size = len;
  return true;
}

static const char *std_name(uint32_t version)
{
  for (size_t i = 0; i < sizeof cl_stds / sizeof cl_stds[0]; i++)
    if (cl_stds[i].version == version)
      return cl_stds[i].name;
  return "CL1.2";
}

/* Clang's response-file syntax (GNU): words separated by blanks, each in
 * double quotes with '\\' and '"' escaped. */
/* The front end this process runs: the worker registers clang's library
 * (sg_cc_clang.cpp). libsoftgpu.so shares this file for its option and
 * extension lists but never compiles, and so never loads libclang-cpp. */
static sg_cc_clang_fn *clang_run;

void sg_cc_set_clang(sg_cc_clang_fn *fn) { clang_run = fn; }

/* The clang executable as the driver wants it: its real path, from which
 * it finds its resource directory (opencl-c-base.h) as clang-19 itself
 * does. */
static char clang_path[4096];
static void find_clang(void)
{
  if (!realpath(SG_CLANG, clang_path))
    snprintf(clang_path, sizeof clang_path, "%s", SG_CLANG);
}

static void *prepare_devlib(void *unused)
{
  (void)unused;
  sg_cc_devlib_prepare();
  return NULL;
}

static enum sg_status run_clang(const char *dir, const struct sg_options *opt,
                                struct sg_text *log)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, find_clang);
  if (!clang_run) {
    sg_text_printf(log, "error: this process has no OpenCL C front end (softgpu-cc has)\n");
    return SG_EBUILD;
  }
  char std[32], version[40], exts[SG_EXT_LIST], feats[SG_EXT_LIST], ext[2 * SG_EXT_LIST + 4];
  char output[4096 + 16];
  snprintf(std, sizeof std, "-cl-std=%s", std_name(opt->cl_c_version));
  snprintf(version, sizeof version, "-D__OPENCL_VERSION__=%d", SG_OPENCL_VERSION);
  snprintf(ext, sizeof ext, "%s,+%s", join_exts(exts, false, ",+", "-cl-ext=-all,+"),
           join_exts(feats, true, ",+", ""));
  snprintf(output, sizeof output, "%s/out.bc", dir);
  const char *fixed[] = {
      clang_path, "-target", "riscv64-unknown-elf", "-march=rv64imafd", "-mabi=lp64d",
      "-mno-relax", "-x", "cl", std, "-Xclang", "-finclude-default-header", "-Xclang",
      "-fdeclare-opencl-builtins", "-Xclang", "-ffake-address-space-map", "-Xclang", ext,
      "-fno-jump-tables", "-fno-color-diagnostics", "-emit-llvm", "-c", "-O2", "-Xclang",
      "-disable-llvm-passes", "-cl-kernel-arg-info", version,
      /* The device supports images (OpenCL C 6.15.15: the compiler must
       * say so); clang defines the macro only for SPIR. */
      "-D__IMAGE_SUPPORT__=1",
      /* Line tables always, for the source lines of device findings, with
       * the source text embedded (DWARF 5) so it travels with objects and
       * libraries to the executable (docs/decisions.md). */
      "-gdwarf-5", "-gembed-source", opt->debug_full ? "-g" : "-gline-tables-only",
      /* not the build's temporary directory: equal builds, equal binaries */
      "-fdebug-compilation-dir=.",
      /* Relative names (input.cl, the embedded headers, the diagnostics'
       * file names) count from the build's directory. */
      "-working-directory", dir,
  };
  size_t nfixed = sizeof fixed / sizeof fixed[0];
  const char **argv = calloc(nfixed + NUM_EXTS + opt->num_clang_args + 4, sizeof *argv);
  if (!argv)
    return SG_ENOMEM;
  memcpy(argv, fixed, sizeof fixed);
  size_t n = nfixed;
  char defs[NUM_EXTS][64];
  for (size_t i = 0; i < NUM_EXTS; i++)
    if (cl_exts[i].define_from && opt->cl_c_version >= cl_exts[i].define_from) {
      snprintf(defs[i], sizeof defs[i], "-D%s=1", cl_exts[i].name);
      argv[n++] = defs[i];
    }
  for (uint32_t i = 0; i < opt->num_clang_args; i++)
    argv[n++] = opt->clang_args[i];
  argv[n++] = "input.cl";
  argv[n++] = "-o";
  argv[n++] = output;
  /* The device library is read for the next build (sg_cc_devlib_prepare,
   * a few tens of ms) on a second thread while clang runs, each in its own
   * LLVM context: off the build's critical path when the worker did not
   * idle long enough to read it before this request. */
  pthread_t reader;
  bool parallel = pthread_create(&reader, NULL, prepare_devlib, NULL) == 0;
  char *text = NULL;
  int rc = clang_run(argv, n, &text);
  if (parallel)
    pthread_join(reader, NULL);
  free(argv);
  if (text)
    sg_text_append(log, text, strlen(text));
  free(text);
  return rc == 0 ? SG_OK : SG_EBUILD;
}

enum sg_status sg_cc_frontend(const struct sg_build_request *req,
                              const struct sg_options *opt, void **bc,
                              size_t *bc_size, struct sg_text *log)
{
  for (uint32_t i = 0; i < req->num_headers; i++)
    if (!header_name_ok(req->headers[i].name) || !req->headers[i].source) {
      sg_text_printf(log, "error: invalid embedded header name '%s'\n",
                     req->headers[i].name ? req->headers[i].name : "(null)");
      return SG_EINVAL;
    }
  const char *tmp = getenv("TMPDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/softgpu-cc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    sg_text_printf(log, "error: cannot create a temporary directory: %s\n", strerror(errno));
    return SG_EBUILD;
  }
  enum sg_status st = SG_OK;
  if (!write_file(dir, "input.cl", req->source))
    st = SG_EBUILD;
  for (uint32_t i = 0; st == SG_OK && i < req->num_headers; i++)
    if (!write_file(dir, req->headers[i].name, req->headers[i].source))
      st = SG_EBUILD;
  if (st != SG_OK)
    sg_text_printf(log, "error: cannot write the source files: %s\n", strerror(errno));
  if (st == SG_OK)
    st = run_clang(dir, opt, log);
  if (st == SG_OK && !read_file(dir, "out.bc", bc, bc_size)) {
    sg_text_printf(log, "error: the front end produced no output\n");
    st = SG_EBUILD;
  }
  nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  return st;
}
