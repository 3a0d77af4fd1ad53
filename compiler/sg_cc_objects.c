/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler", separate compilation: a compiled object or a
 * library is the program's LLVM bitcode (before the device library) behind a
 * small checked header; linking merges the inputs with the LLVM linker and
 * hands the result to the back half of sg_build (devlib, wrappers, codegen). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf */
#endif
#include "sg_cc_internal.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Linker.h>
#include <llvm-c/blake3.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/random.h>
#include <stdlib.h>
#include <string.h>

/* Header, little-endian:
 *   0  "SGCLOBJ\0"     8  format (2)     12  kind (SG_BINARY_OBJECT/LIBRARY)
 *  16  cl_c_version   20  OBJ_* flags    24  bitcode size (u64)
 *  32  BLAKE3 of the bitcode (32 bytes)
 *  64  tag: BLAKE3 of the bitcode keyed with the making process's secret
 *  96  bitcode */
static const char obj_magic[8] = "SGCLOBJ";
#define OBJ_FORMAT 2
#define OBJ_HEADER 96
enum {
  OBJ_OPT_DISABLE = 1u << 0,  /* compiled with -cl-opt-disable */
  OBJ_UNIFORM_WG = 1u << 1,   /* 1.x, or -cl-uniform-work-group-size */
  OBJ_LINK_OPTIONS = 1u << 2, /* link options may change it: objects, and
                                 libraries made with -enable-link-options */
  OBJ_FLAGS = OBJ_OPT_DISABLE | OBJ_UNIFORM_WG | OBJ_LINK_OPTIONS,
};

struct obj_header {
  uint32_t kind, cl_c_version, flags;
  uint64_t bc_size;
};

static void put_le(uint8_t *p, uint64_t v, int n)
{
  for (int i = 0; i < n; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static void hash(const void *data, size_t size, uint8_t out[LLVM_BLAKE3_OUT_LEN])
{
  llvm_blake3_hasher h;
  llvm_blake3_hasher_init(&h);
  llvm_blake3_hasher_update(&h, data, size);
  llvm_blake3_hasher_finalize(&h, out, LLVM_BLAKE3_OUT_LEN);
}

/* ---- The process key of the tag --------------------------------------- */

static uint8_t key[SG_CC_KEY_LEN];
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static void make_key(void)
{
  /* getrandom(2) blocks only before the kernel's pool is ready at boot. */
  for (size_t got = 0; got < sizeof key;) {
    ssize_t n = getrandom(key + got, sizeof key - got, 0);
    if (n > 0)
      got += (size_t)n;
    else if (errno != EINTR)
      abort(); /* no randomness: the kernel is older than Linux 3.17 */
  }
}

const uint8_t *sg_cc_object_key(void)
{
  pthread_once(&key_once, make_key);
  return key;
}

void sg_cc_set_object_key(const uint8_t k[SG_CC_KEY_LEN])
{
  pthread_once(&key_once, make_key); /* so a later sg_cc_object_key keeps k */
  memcpy(key, k, sizeof key);
}

static void tag(const void *data, size_t size, uint8_t out[LLVM_BLAKE3_OUT_LEN])
{
  llvm_blake3_hasher h;
  llvm_blake3_hasher_init_keyed(&h, sg_cc_object_key());
  llvm_blake3_hasher_update(&h, data, size);
  llvm_blake3_hasher_finalize(&h, out, LLVM_BLAKE3_OUT_LEN);
}

/* Wraps bitcode into a binary (malloc'd). */
static enum sg_status wrap(const struct obj_header *h, const void *bc, void **out, size_t *size)
{
  uint8_t *b = malloc(OBJ_HEADER + h->bc_size);
  if (!b)
    return SG_ENOMEM;
  memset(b, 0, OBJ_HEADER);
  memcpy(b, obj_magic, sizeof obj_magic);
  put_le(b + 8, OBJ_FORMAT, 4);
  put_le(b + 12, h->kind, 4);
  put_le(b + 16, h->cl_c_version, 4);
  put_le(b + 20, h->flags, 4);
  put_le(b + 24, h->bc_size, 8);
  hash(bc, h->bc_size, b + 32);
  tag(bc, h->bc_size, b + 64);
  memcpy(b + OBJ_HEADER, bc, h->bc_size);
  *out = b;
  *size = OBJ_HEADER + h->bc_size;
  return SG_OK;
}

static bool known_version(uint32_t v)
{
  return v == 100 || v == 110 || v == 120 || v == 200 || v == 300;
}

/* Checks everything in the header; a message in err when it fails.
 * *trusted: the tag matches (the checksum then needs no second look). */
static bool read_header(const uint8_t *b, size_t size, struct obj_header *h, bool *trusted,
                        char *err, size_t errlen)
{
  const char *why = NULL;
  uint8_t sum[LLVM_BLAKE3_OUT_LEN];
  *trusted = false;
  if (size < OBJ_HEADER || memcmp(b, obj_magic, sizeof obj_magic))
    why = "not a SoftGPU executable, compiled object or library";
  else if (get_le(b + 8, 4) != OBJ_FORMAT)
    why = "unknown compiled-object format version";
  if (!why) {
    h->kind = (uint32_t)get_le(b + 12, 4);
    h->cl_c_version = (uint32_t)get_le(b + 16, 4);
    h->flags = (uint32_t)get_le(b + 20, 4);
    h->bc_size = get_le(b + 24, 8);
    if (h->kind != SG_BINARY_OBJECT && h->kind != SG_BINARY_LIBRARY)
      why = "unknown kind of compiled binary";
    else if (!known_version(h->cl_c_version) || (h->flags & ~(uint32_t)OBJ_FLAGS))
      why = "bad OpenCL C version or flags in the header";
    else if (h->bc_size != size - OBJ_HEADER)
      why = "the size in the header does not match the binary";
  }
  if (!why) {
    tag(b + OBJ_HEADER, h->bc_size, sum);
    *trusted = !memcmp(sum, b + 64, sizeof sum);
  }
  if (!why && !*trusted) {
    hash(b + OBJ_HEADER, h->bc_size, sum);
    if (memcmp(sum, b + 32, sizeof sum))
      why = "checksum mismatch (the binary is corrupted)";
  }
  if (why && err && errlen)
    snprintf(err, errlen, "%s", why);
  return !why;
}

enum sg_status sg_cc_object_header(const void *binary, size_t size, enum sg_binary_kind *kind,
                                   bool *trusted, char *err, size_t errlen)
{
  struct obj_header h;
  *kind = SG_BINARY_NONE;
  *trusted = false;
  if (!binary || !read_header(binary, size, &h, trusted, err, errlen))
    return SG_EBINARY;
  *kind = (enum sg_binary_kind)h.kind;
  return SG_OK;
}

static void on_diagnostic(LLVMDiagnosticInfoRef di, void *arg)
{
  struct sg_text *log = arg;
  if (LLVMGetDiagInfoSeverity(di) != LLVMDSError)
    return;
  char *msg = LLVMGetDiagInfoDescription(di);
  sg_text_printf(log, "error: %s\n", msg);
  LLVMDisposeMessage(msg);
}

/* A context whose diagnostics go to log (LLVM's default handler exits the
 * process on an error). */
static LLVMContextRef new_context(struct sg_text *log)
{
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(ctx, on_diagnostic, log);
  return ctx;
}

/* Parses and verifies bitcode for the device target; *mod NULL on failure. */
static enum sg_status parse_module(LLVMContextRef ctx, const void *bc, size_t size,
                                   LLVMModuleRef *mod, struct sg_text *log)
{
  LLVMMemoryBufferRef buf =
      LLVMCreateMemoryBufferWithMemoryRange(bc, size, "object.bc", 0);
  *mod = NULL;
  if (LLVMParseBitcodeInContext2(ctx, buf, mod)) {
    LLVMDisposeMemoryBuffer(buf);
    *mod = NULL;
    sg_text_printf(log, "error: unreadable bitcode\n");
    return SG_EBINARY;
  }
  LLVMDisposeMemoryBuffer(buf);
  char *msg = NULL;
  bool bad = LLVMVerifyModule(*mod, LLVMReturnStatusAction, &msg);
  if (bad)
    sg_text_printf(log, "error: invalid module: %s\n", msg);
  LLVMDisposeMessage(msg);
  if (!bad && strncmp(LLVMGetTarget(*mod), "riscv64", 7)) {
    sg_text_printf(log, "error: bitcode for target '%s', not the device\n", LLVMGetTarget(*mod));
    bad = true;
  }
  if (bad) {
    LLVMDisposeModule(*mod);
    *mod = NULL;
    return SG_EBINARY;
  }
  return SG_OK;
}

/* Bitcode of mod, wrapped with h (kind and flags; the size is set here). */
static enum sg_status wrap_module(LLVMModuleRef mod, struct obj_header *h, void **out,
                                  size_t *size)
{
  LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(mod);
  if (!buf)
    return SG_ENOMEM;
  h->bc_size = LLVMGetBufferSize(buf);
  enum sg_status st = wrap(h, LLVMGetBufferStart(buf), out, size);
  LLVMDisposeMemoryBuffer(buf);
  return st;
}

enum sg_status sg_cc_check_local(const void *binary, size_t size, enum sg_binary_kind *kind,
                                 char *err, size_t errlen)
{
  static const uint8_t elf[4] = {0x7f, 'E', 'L', 'F'};
  struct obj_header h;
  bool trusted;
  *kind = SG_BINARY_NONE;
  if (err && errlen)
    err[0] = 0;
  if (binary && size >= sizeof elf && !memcmp(binary, elf, sizeof elf)) {
    *kind = SG_BINARY_EXECUTABLE;
    return SG_OK;
  }
  if (!binary || !read_header(binary, size, &h, &trusted, err, errlen))
    return SG_EBINARY;
  (void)trusted; /* the worker validates whatever the host sends */
  struct sg_text log = {0};
  LLVMContextRef ctx = new_context(&log);
  LLVMModuleRef mod;
  enum sg_status st = parse_module(ctx, (const uint8_t *)binary + OBJ_HEADER, h.bc_size, &mod, &log);
  if (mod)
    LLVMDisposeModule(mod);
  LLVMContextDispose(ctx);
  if (st == SG_OK)
    *kind = (enum sg_binary_kind)h.kind;
  else if (err && errlen)
    snprintf(err, errlen, "%s", log.buf ? log.buf : "invalid bitcode");
  free(log.buf);
  return st;
}

/* ---- Compiling ----------------------------------------------------------- */

/* Argument names are kept only when -cl-kernel-arg-info asked for them; the
 * link then reads whatever each object kept. */
static void drop_arg_names(LLVMContextRef ctx, LLVMModuleRef mod)
{
  unsigned kind = LLVMGetMDKindIDInContext(ctx, "kernel_arg_name", 15);
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
    LLVMGlobalEraseMetadata(f, kind);
}

static enum sg_status compile_object(const struct sg_build_request *req,
                                     struct sg_build_result *res, struct sg_text *log)
{
  struct sg_options opt;
  enum sg_status st = sg_cc_parse_options(req->options, &opt, log);
  if (st != SG_OK)
    return st;
  void *bc = NULL;
  size_t bc_size = 0;
  st = sg_cc_frontend(req, &opt, &bc, &bc_size, log);
  LLVMContextRef ctx = new_context(log);
  LLVMModuleRef mod = NULL;
  if (st == SG_OK && parse_module(ctx, bc, bc_size, &mod, log) != SG_OK)
    st = SG_EBUILD; /* clang's own output: an internal error */
  if (st == SG_OK) {
    if (!opt.kernel_arg_info)
      drop_arg_names(ctx, mod);
    struct obj_header h = {
        .kind = SG_BINARY_OBJECT,
        .cl_c_version = opt.cl_c_version,
        .flags = (opt.opt_disable ? OBJ_OPT_DISABLE : 0) |
                 (opt.uniform_work_group ? OBJ_UNIFORM_WG : 0) | OBJ_LINK_OPTIONS,
    };
    st = wrap_module(mod, &h, &res->binary, &res->binary_size);
  }
  if (mod)
    LLVMDisposeModule(mod);
  LLVMContextDispose(ctx);
  free(bc);
  sg_cc_options_free(&opt);
  return st;
}

enum sg_status sg_cc_compile_local(const struct sg_build_request *req,
                                   struct sg_build_result *res)
{
  return sg_cc_run_request(req, res, compile_object);
}

/* ---- Link options -------------------------------------------------------- */

/* The math options clLinkProgram takes, as clang-19 applies them to the code
 * it emits for this target: fast-math flags on instructions and function
 * attributes. -cl-denorms-are-zero and -cl-no-subgroup-ifp are permissions
 * the device does not use (it keeps denormals, and sub-groups make progress
 * together), exactly as when they are given to clBuildProgram. */
#define UNSAFE_FMF (LLVMFastMathAllowReassoc | LLVMFastMathNoSignedZeros | \
                    LLVMFastMathAllowReciprocal | LLVMFastMathApproxFunc)
#define FINITE_FMF (LLVMFastMathNoNaNs | LLVMFastMathNoInfs)
static const struct {
  const char *name;
  LLVMFastMathFlags fmf;
  const char *attrs[5];
} math_options[] = {
    {"-cl-denorms-are-zero", 0, {NULL}},
    {"-cl-no-subgroup-ifp", 0, {NULL}},
    {"-cl-no-signed-zeros", LLVMFastMathNoSignedZeros, {"no-signed-zeros-fp-math"}},
    {"-cl-finite-math-only", FINITE_FMF, {"no-nans-fp-math", "no-infs-fp-math"}},
    {"-cl-unsafe-math-optimizations", UNSAFE_FMF,
     {"no-signed-zeros-fp-math", "approx-func-fp-math", "less-precise-fpmad"}},
    {"-cl-fast-relaxed-math", UNSAFE_FMF | FINITE_FMF,
     {"no-signed-zeros-fp-math", "approx-func-fp-math", "less-precise-fpmad", "no-nans-fp-math",
      "no-infs-fp-math"}},
};
#define NUM_MATH (sizeof math_options / sizeof math_options[0])

struct link_options {
  bool library, enable;
  bool math[NUM_MATH];
};

static enum sg_status parse_link_options(const char *options, struct link_options *lo,
                                         struct sg_text *log)
{
  memset(lo, 0, sizeof *lo);
  char *copy = strdup(options ? options : ""), *save = NULL;
  if (!copy)
    return SG_ENOMEM;
  enum sg_status st = SG_OK;
  for (char *t = strtok_r(copy, " \t\n\r", &save); t && st == SG_OK;
       t = strtok_r(NULL, " \t\n\r", &save)) {
    bool known = false;
    for (size_t i = 0; i < NUM_MATH; i++)
      if (!strcmp(t, math_options[i].name))
        known = lo->math[i] = true;
    if (!strcmp(t, "-create-library"))
      known = lo->library = true;
    if (!strcmp(t, "-enable-link-options"))
      known = lo->enable = true;
    if (!known) {
      sg_text_printf(log, "error: unknown link option '%s'\n", t);
      st = SG_EOPTIONS;
    }
  }
  if (st == SG_OK && lo->enable && !lo->library) {
    sg_text_printf(log, "error: -enable-link-options needs -create-library\n");
    st = SG_EOPTIONS;
  }
  free(copy);
  return st;
}

static void add_true_attr(LLVMContextRef ctx, LLVMValueRef f, const char *name)
{
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(ctx, name, (unsigned)strlen(name), "true", 4));
}

static void apply_math(LLVMContextRef ctx, LLVMModuleRef mod, const struct link_options *lo)
{
  LLVMFastMathFlags fmf = 0;
  for (size_t i = 0; i < NUM_MATH; i++)
    fmf |= lo->math[i] ? math_options[i].fmf : 0;
  if (!fmf)
    return;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f))
      continue;
    for (size_t i = 0; i < NUM_MATH; i++)
      for (int a = 0; lo->math[i] && a < 5 && math_options[i].attrs[a]; a++)
        add_true_attr(ctx, f, math_options[i].attrs[a]);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
        if (LLVMCanValueUseFastMathFlags(in))
          LLVMSetFastMathFlags(in, LLVMGetFastMathFlags(in) | fmf);
  }
}

/* ---- Linking ------------------------------------------------------------- */

struct linker {
  LLVMContextRef ctx;
  LLVMModuleRef mod; /* the inputs merged so far */
  struct obj_header h; /* what the merged inputs ask of the build */
  struct link_options lo;
  struct sg_text *log;
  uint64_t max_private_size;
};

/* Loads input i and links it into l->mod. An object made for OpenCL C 1.x
 * (or with uniform work-groups) makes the program keep the 1.x launch rules;
 * one compiled with -cl-opt-disable keeps the program unoptimised. */
static enum sg_status add_input(struct linker *l, const struct sg_link_input *in, uint32_t i)
{
  static const uint8_t elf[4] = {0x7f, 'E', 'L', 'F'};
  struct obj_header h;
  char why[128] = "no binary";
  bool trusted;
  if (!in->binary || !read_header(in->binary, in->size, &h, &trusted, why, sizeof why)) {
    (void)trusted;
    bool exe = in->binary && in->size >= sizeof elf && !memcmp(in->binary, elf, sizeof elf);
    sg_text_printf(l->log, "error: input %u: %s\n", i,
                   exe ? "an executable cannot be linked again" : why);
    return SG_EBINARY;
  }
  LLVMModuleRef mod;
  if (parse_module(l->ctx, (const uint8_t *)in->binary + OBJ_HEADER, h.bc_size, &mod, l->log) !=
      SG_OK) {
    sg_text_printf(l->log, "error: input %u is not a valid compiled object or library\n", i);
    return SG_EBINARY;
  }
  if (h.flags & OBJ_LINK_OPTIONS)
    apply_math(l->ctx, mod, &l->lo);
  if (!l->mod) {
    l->mod = mod;
    l->h.cl_c_version = h.cl_c_version;
  } else if (LLVMLinkModules2(l->mod, mod)) { /* mod is consumed either way */
    sg_text_printf(l->log, "error: linking input %u failed\n", i);
    return SG_ELINK;
  }
  if (h.cl_c_version < l->h.cl_c_version)
    l->h.cl_c_version = h.cl_c_version;
  l->h.flags |= h.flags & (OBJ_OPT_DISABLE | OBJ_UNIFORM_WG);
  return SG_OK;
}

static enum sg_status finish(struct linker *l, struct sg_build_result *res)
{
  if (l->lo.library) {
    l->h.kind = SG_BINARY_LIBRARY;
    l->h.flags |= l->lo.enable ? OBJ_LINK_OPTIONS : 0;
    return wrap_module(l->mod, &l->h, &res->binary, &res->binary_size);
  }
  struct sg_options opt = {
      .cl_c_version = l->h.cl_c_version,
      .opt_disable = l->h.flags & OBJ_OPT_DISABLE,
      .kernel_arg_info = true, /* names were dropped at compile time unless asked for */
      .uniform_work_group = l->h.flags & OBJ_UNIFORM_WG,
      .max_private_size = l->max_private_size,
  };
  LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(l->mod);
  if (!buf)
    return SG_ENOMEM;
  enum sg_status st = sg_cc_build_bitcode(LLVMGetBufferStart(buf), LLVMGetBufferSize(buf), &opt,
                                          res, l->log);
  LLVMDisposeMemoryBuffer(buf);
  return st;
}

static enum sg_status link_inputs(const struct sg_link_request *req, struct sg_build_result *res,
                                  struct sg_text *log)
{
  struct linker l = {.log = log, .max_private_size = req->max_private_size};
  enum sg_status st = parse_link_options(req->options, &l.lo, log);
  if (st != SG_OK)
    return st;
  l.ctx = new_context(log);
  for (uint32_t i = 0; i < req->num_inputs && st == SG_OK; i++)
    st = add_input(&l, &req->inputs[i], i);
  if (st == SG_OK)
    st = finish(&l, res);
  if (l.mod)
    LLVMDisposeModule(l.mod);
  LLVMContextDispose(l.ctx);
  return st;
}

enum sg_status sg_cc_link_local(const struct sg_link_request *req, struct sg_build_result *res)
{
  struct sg_text log = {0};
  memset(res, 0, sizeof *res);
  enum sg_status st = SG_EINVAL;
  if (!req || !req->num_inputs || !req->inputs)
    sg_text_printf(&log, "error: nothing to link\n");
  else
    st = link_inputs(req, res, &log);
  if (st == SG_ENOMEM)
    sg_text_printf(&log, "error: out of host memory\n");
  if (st != SG_OK) {
    free(res->binary);
    res->binary = NULL;
    res->binary_size = 0;
  }
  res->log = sg_text_take(&log);
  return st;
}
