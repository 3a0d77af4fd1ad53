/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler", middle end: kernel metadata, device library
 * link, one entry wrapper per kernel (arguments from the parameter block,
 * then sg.exit), internalisation, the LLVM pipeline, and __local placement
 * (each kernel's variables from the start of the local window). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf, strndup, posix_spawn_file_actions_addchdir_np */
#endif
#include "sg_cc_internal.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPIR_KERNEL_CC 76 /* llvm::CallingConv::SPIR_KERNEL */
enum { AS_PRIVATE = 0, AS_GLOBAL = 1, AS_CONSTANT = 2, AS_LOCAL = 3 };

/* The device library bitcode, embedded by sg_cc_devlib.c. */
extern const unsigned char sg_devlib_bc_start[], sg_devlib_bc_end[];

/* Builtins whose result depends on the work-group shape (substrings of the
 * mangled names). */
static const char *const shape_builtins[] = {
    "get_local_id", "get_local_size", "get_group_id", "get_num_groups",
    "get_enqueued_local_size", "get_local_linear_id", "barrier", "work_group_",
    "sub_group", "get_max_sub_group_size", "get_num_sub_groups",
};

/* Functions the code generator may call on its own (memcpy for large
 * copies): they stay external so the object defines them by name. */
static bool is_libcall(const char *name)
{
  return !strcmp(name, "memcpy") || !strcmp(name, "memset") || !strcmp(name, "memmove");
}

struct pass_ctx {
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMDIBuilderRef dib;       /* the wrappers' debug info, made with the first one */
  LLVMTargetDataRef td;
  const struct sg_options *opt;
  struct sg_text *log;
  unsigned errors; /* error diagnostics from LLVM (bad inline asm, ...) */
};

/* LLVM reports some user errors (an inline asm the assembler rejects) as
 * diagnostics and carries on; they must still fail the build. */
static void on_diagnostic(LLVMDiagnosticInfoRef di, void *arg)
{
  struct pass_ctx *pc = arg;
  char *msg = LLVMGetDiagInfoDescription(di);
  const char *sev[] = {"error", "warning", "remark", "note"};
  LLVMDiagnosticSeverity s = LLVMGetDiagInfoSeverity(di);
  if (s == LLVMDSError || s == LLVMDSWarning)
    sg_text_printf(pc->log, "%s: %s\n", sev[s], msg);
  pc->errors += s == LLVMDSError;
  LLVMDisposeMessage(msg);
}

/* ---- Metadata ------------------------------------------------------------- */

/* Operands of the function's !kind node, or 0 when absent (*ops malloc'd). */
static unsigned md_operands(struct pass_ctx *pc, LLVMValueRef fn, const char *kind,
                            LLVMValueRef **ops)
{
  unsigned id = LLVMGetMDKindIDInContext(pc->ctx, kind, (unsigned)strlen(kind));
  size_t n = 0;
  LLVMValueMetadataEntry *e = LLVMGlobalCopyAllMetadata(fn, &n);
  unsigned count = 0;
  *ops = NULL;
  for (size_t i = 0; i < n; i++) {
    if (LLVMValueMetadataEntriesGetKind(e, (unsigned)i) != id)
      continue;
    LLVMValueRef node = LLVMMetadataAsValue(pc->ctx, LLVMValueMetadataEntriesGetMetadata(e, (unsigned)i));
    count = LLVMGetMDNodeNumOperands(node);
    *ops = calloc(count + 1, sizeof **ops);
    if (*ops)
      LLVMGetMDNodeOperands(node, *ops);
    else
      count = 0;
    break;
  }
  if (e)
    LLVMDisposeValueMetadataEntries(e);
  return count;
}

static char *md_string(LLVMValueRef *ops, unsigned n, unsigned i)
{
  unsigned len = 0;
  const char *s = i < n && ops[i] ? LLVMGetMDString(ops[i], &len) : NULL;
  return strndup(s ? s : "", len);
}

static uint64_t md_int(LLVMValueRef *ops, unsigned n, unsigned i)
{
  return i < n && ops[i] && LLVMIsAConstantInt(ops[i]) ? LLVMConstIntGetZExtValue(ops[i]) : 0;
}

/* Reads a 3-int attribute node into v; true when present. */
static bool md_dims(struct pass_ctx *pc, LLVMValueRef fn, const char *kind, uint32_t v[3])
{
  LLVMValueRef *ops;
  unsigned n = md_operands(pc, fn, kind, &ops);
  for (unsigned i = 0; i < 3; i++)
    v[i] = (uint32_t)md_int(ops, n, i);
  free(ops);
  return n == 3;
}

static uint32_t access_value(const char *s)
{
  if (!strcmp(s, "read_only"))
    return SG_CL_ACCESS_READ_ONLY;
  if (!strcmp(s, "write_only"))
    return SG_CL_ACCESS_WRITE_ONLY;
  if (!strcmp(s, "read_write"))
    return SG_CL_ACCESS_READ_WRITE;
  return SG_CL_ACCESS_NONE;
}

static uint64_t type_qual_bits(const char *s)
{
  static const struct { const char *w; uint64_t bit; } q[] = {
      {"const", SG_CL_TYPE_CONST}, {"restrict", SG_CL_TYPE_RESTRICT},
      {"volatile", SG_CL_TYPE_VOLATILE}, {"pipe", SG_CL_TYPE_PIPE}};
  uint64_t bits = 0;
  for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
    size_t l = strlen(q[i].w);
    for (const char *p = s; (p = strstr(p, q[i].w)); p += l)
      if ((p == s || p[-1] == ' ') && (p[l] == 0 || p[l] == ' '))
        bits |= q[i].bit;
  }
  return bits;
}

/* "float4", "uint" ... for vec_type_hint. */
static void vec_hint_name(LLVMTypeRef t, bool is_signed, char *buf, size_t len)
{
  unsigned n = 1;
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    n = LLVMGetVectorSize(t);
    t = LLVMGetElementType(t);
  }
  const char *base = "float";
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind: base = "half"; break;
  case LLVMDoubleTypeKind: base = "double"; break;
  case LLVMIntegerTypeKind: {
    static const char *const ints[] = {"char", "short", "int", "long"};
    unsigned w = LLVMGetIntTypeWidth(t), i = w <= 8 ? 0 : w <= 16 ? 1 : w <= 32 ? 2 : 3;
    snprintf(buf, len, "%s%s", is_signed ? "" : "u", ints[i]);
    base = NULL;
    break;
  }
  default: break;
  }
  if (base)
    snprintf(buf, len, "%s", base);
  if (n > 1)
    snprintf(buf + strlen(buf), len - strlen(buf), "%u", n);
}

static char *kernel_attributes(struct pass_ctx *pc, LLVMValueRef fn, struct sg_kernel_info *k)
{
  struct sg_text t = {0};
  if (md_dims(pc, fn, "reqd_work_group_size", k->reqd_work_group_size))
    sg_text_printf(&t, "reqd_work_group_size(%u,%u,%u)", k->reqd_work_group_size[0],
                   k->reqd_work_group_size[1], k->reqd_work_group_size[2]);
  if (md_dims(pc, fn, "work_group_size_hint", k->work_group_size_hint))
    sg_text_printf(&t, "%swork_group_size_hint(%u,%u,%u)", t.len ? " " : "",
                   k->work_group_size_hint[0], k->work_group_size_hint[1],
                   k->work_group_size_hint[2]);
  LLVMValueRef *ops;
  unsigned n = md_operands(pc, fn, "vec_type_hint", &ops);
  if (n == 2 && ops[0]) {
    char name[32];
    vec_hint_name(LLVMTypeOf(ops[0]), md_int(ops, n, 1) != 0, name, sizeof name);
    sg_text_printf(&t, "%svec_type_hint(%s)", t.len ? " " : "", name);
  }
  free(ops);
  return sg_text_take(&t);
}

/* ---- Which kernels observe their work-group shape ---------------------- */

static bool refs_local(LLVMValueRef v, int depth)
{
  if (LLVMIsAGlobalVariable(v))
    return LLVMGetPointerAddressSpace(LLVMTypeOf(v)) == AS_LOCAL;
  if (!LLVMIsAConstantExpr(v) || depth > 8)
    return false;
  for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++)
    if (refs_local(LLVMGetOperand(v, (unsigned)i), depth + 1))
      return true;
  return false;
}

static bool is_shape_builtin(const char *name)
{
  for (size_t i = 0; i < sizeof shape_builtins / sizeof shape_builtins[0]; i++)
    if (strstr(name, shape_builtins[i]))
      return true;
  return false;
}

/* Walks the functions reachable from fn (before the device library is
 * linked, so builtins are still declarations). */
static bool uses_local_shape(LLVMModuleRef mod, LLVMValueRef kernel)
{
  size_t cap = 16, n = 0;
  LLVMValueRef *seen = malloc(cap * sizeof *seen);
  if (!seen)
    return true; /* the conservative answer */
  seen[n++] = kernel;
  bool uses = false;
  for (size_t f = 0; f < n && !uses; f++) {
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(seen[f]); bb && !uses; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && !uses; in = LLVMGetNextInstruction(in)) {
        for (int i = 0, no = LLVMGetNumOperands(in); i < no && !uses; i++)
          uses = refs_local(LLVMGetOperand(in, (unsigned)i), 0);
        LLVMValueRef callee = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
        if (!callee || !LLVMIsAFunction(callee))
          continue;
        if (LLVMIsDeclaration(callee)) {
          uses = uses || is_shape_builtin(LLVMGetValueName2(callee, &(size_t){0}));
          continue;
        }
        bool known = false;
        for (size_t j = 0; j < n; j++)
          known = known || seen[j] == callee;
        if (known)
          continue;
        if (n == cap) {
          LLVMValueRef *s = realloc(seen, 2 * cap * sizeof *s);
          if (!s) {
            uses = true;
            break;
          }
          seen = s;
          cap *= 2;
        }
        seen[n++] = callee;
      }
  }
  (void)mod;
  free(seen);
  return uses;
}

/* ---- Kernel info ---------------------------------------------------------- */

static LLVMTypeRef byval_type(struct pass_ctx *pc, LLVMValueRef fn, unsigned i)
{
  unsigned kind = LLVMGetEnumAttributeKindForName("byval", 5);
  LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(fn, i + 1, kind);
  (void)pc;
  return a ? LLVMGetTypeAttributeValue(a) : NULL;
}

/* The type of argument i's slot in the parameter block. */
static LLVMTypeRef slot_type(struct pass_ctx *pc, LLVMValueRef fn, unsigned i)
{
  LLVMTypeRef bv = byval_type(pc, fn, i);
  return bv ? bv : LLVMTypeOf(LLVMGetParam(fn, i));
}

/* The image type an argument's base type names ("image2d_t"), or
 * SG_IMAGE_NONE. */
static enum sg_image_type image_type(const char *base)
{
  static const char *const names[SG_IMAGE_NUM_TYPES] = {
#define X(name, text) [SG_IMAGE_##name] = text,
      SG_IMAGE_TYPES(X)
#undef X
  };
  for (unsigned t = 1; t < SG_IMAGE_NUM_TYPES; t++)
    if (!strcmp(base, names[t]))
      return (enum sg_image_type)t;
  return SG_IMAGE_NONE;
}

static enum sg_status read_args(struct pass_ctx *pc, LLVMValueRef fn, struct sg_kernel_info *k)
{
  LLVMValueRef *as, *acc, *ty, *base, *qual, *name;
  unsigned nas = md_operands(pc, fn, "kernel_arg_addr_space", &as);
  unsigned nacc = md_operands(pc, fn, "kernel_arg_access_qual", &acc);
  unsigned nty = md_operands(pc, fn, "kernel_arg_type", &ty);
  unsigned nbase = md_operands(pc, fn, "kernel_arg_base_type", &base);
  unsigned nqual = md_operands(pc, fn, "kernel_arg_type_qual", &qual);
  unsigned nname = md_operands(pc, fn, "kernel_arg_name", &name);
  enum sg_status st = SG_OK;
  LLVMTypeRef *slots = calloc(k->num_args + 1, sizeof *slots);
  if (!slots)
    st = SG_ENOMEM;
  for (uint32_t i = 0; i < k->num_args && st == SG_OK; i++) {
    struct sg_kernel_arg *a = &k->args[i];
    uint64_t space = md_int(as, nas, i);
    a->type_name = md_string(ty, nty, i);
    a->source_name = md_string(name, nname, i);
    a->name = pc->opt->kernel_arg_info && a->source_name ? strdup(a->source_name) : strdup("");
    if (!a->source_name && !(a->source_name = strdup("")))
      st = SG_ENOMEM;
    char *b = md_string(base, nbase, i), *q = md_string(qual, nqual, i), *ac = md_string(acc, nacc, i);
    a->access_qualifier = access_value(ac ? ac : "");
    a->type_qualifier = type_qual_bits(q ? q : "");
    a->image_type = image_type(b ? b : "");
    /* Multi-sample images by their type names (image2d_msaa_t ...), not by
     * "image" alone: a pointer to a struct the program calls
     * image_kernel_data is an ordinary argument. */
    bool msaa = b && !strncmp(b, "image", 5) && strstr(b, "_msaa") && !strchr(b, '*');
    bool opaque = b && (msaa || (a->type_qualifier & SG_CL_TYPE_PIPE) || !strcmp(b, "queue_t"));
    if (opaque) {
      sg_text_printf(pc->log, "error: kernel '%s' argument %u ('%s'): pipes, queues and "
                              "multi-sample images are not supported\n",
                     k->name, i, a->type_name ? a->type_name : "");
      st = SG_EBUILD;
    }
    bool sampler = b && !strcmp(b, "sampler_t");
    free(b), free(q), free(ac);
    if (!a->type_name || !a->name)
      st = SG_ENOMEM;
    static const enum sg_arg_kind kinds[] = {SG_ARG_VALUE, SG_ARG_GLOBAL, SG_ARG_CONSTANT, SG_ARG_LOCAL};
    static const uint32_t quals[] = {SG_CL_ADDRESS_PRIVATE, SG_CL_ADDRESS_GLOBAL,
                                     SG_CL_ADDRESS_CONSTANT, SG_CL_ADDRESS_LOCAL};
    a->kind = a->image_type ? SG_ARG_IMAGE : sampler ? SG_ARG_SAMPLER
              : space < 4 ? kinds[space] : SG_ARG_VALUE;
    a->address_qualifier = space < 4 ? quals[space] : SG_CL_ADDRESS_PRIVATE;
    if (sampler) /* no access qualifier applies to it */
      a->access_qualifier = SG_CL_ACCESS_NONE;
    slots[i] = slot_type(pc, fn, i);
  }
  if (st == SG_OK) {
    LLVMTypeRef block = LLVMStructTypeInContext(pc->ctx, slots, k->num_args, 0);
    for (uint32_t i = 0; i < k->num_args; i++) {
      k->args[i].offset = (uint32_t)LLVMOffsetOfElement(pc->td, block, i);
      k->args[i].size = (uint32_t)LLVMABISizeOfType(pc->td, slots[i]);
    }
    k->args_size = (uint32_t)LLVMABISizeOfType(pc->td, block);
  }
  free(slots);
  free(as), free(acc), free(ty), free(base), free(qual), free(name);
  return st;
}

static enum sg_status read_kernel(struct pass_ctx *pc, LLVMValueRef fn, struct sg_kernel_info *k)
{
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  k->name = strndup(name, len);
  k->num_args = LLVMCountParams(fn);
  k->args = calloc(k->num_args + 1, sizeof *k->args);
  if (!k->name || !k->args)
    return SG_ENOMEM;
  k->attributes = kernel_attributes(pc, fn, k);
  k->uses = uses_local_shape(pc->mod, fn) ? SG_USES_LOCAL_SHAPE : 0;
  enum sg_status st = read_args(pc, fn, k);
  for (uint32_t i = 0; i < k->num_args; i++)
    if (k->args[i].kind == SG_ARG_LOCAL)
      k->uses |= SG_USES_LOCAL_SHAPE;
  return st;
}

static bool is_kernel(LLVMValueRef fn)
{
  return LLVMGetFunctionCallConv(fn) == SPIR_KERNEL_CC && !LLVMIsDeclaration(fn);
}

static enum sg_status read_kernels(struct pass_ctx *pc, struct sg_cc_object *out)
{
  uint32_t n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(pc->mod); f; f = LLVMGetNextFunction(f))
    n += is_kernel(f);
  out->kernels = calloc(n + 1, sizeof *out->kernels);
  if (!out->kernels)
    return SG_ENOMEM;
  enum sg_status st = SG_OK;
  for (LLVMValueRef f = LLVMGetFirstFunction(pc->mod); f && st == SG_OK; f = LLVMGetNextFunction(f))
    if (is_kernel(f))
      st = read_kernel(pc, f, &out->kernels[out->num_kernels++]);
  return st;
}

/* ---- Device library -------------------------------------------------------- */

/* The library is loaded lazily and its definitions made linkonce_odr, so the
 * linker materialises only what the program references (a few functions of
 * several thousand); the code generator's own libcalls stay external. */
static void make_linkonce(LLVMModuleRef lib)
{
  for (LLVMValueRef f = LLVMGetFirstFunction(lib); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage &&
        !is_libcall(LLVMGetValueName2(f, &(size_t){0})))
      LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
  for (LLVMValueRef g = LLVMGetFirstGlobal(lib); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage)
      LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
}

/* The next build's context and lazily read library (sg_cc_devlib_prepare). */
static LLVMContextRef next_ctx;
static LLVMModuleRef next_lib;
static bool next_failed;

void sg_cc_devlib_prepare(void)
{
  size_t size = (size_t)(sg_devlib_bc_end - sg_devlib_bc_start);
  if (next_ctx)
    return;
  next_ctx = LLVMContextCreate();
  next_lib = NULL;
  next_failed = false;
  if (size == 0)
    return; /* built without a device library: builtins stay undefined */
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(
      (const char *)sg_devlib_bc_start, size, "softgpu-devlib.bc", 0);
  /* The module owns buf from here, also when reading fails. */
  if (LLVMGetBitcodeModuleInContext2(next_ctx, buf, &next_lib)) {
    LLVMDisposeMemoryBuffer(buf); /* owned by the module only on success */
    next_lib = NULL;
    next_failed = true;
  } else {
    make_linkonce(next_lib);
  }
}

enum sg_status sg_cc_devlib_take(LLVMContextRef *ctx, LLVMModuleRef *lib)
{
  sg_cc_devlib_prepare();
  *ctx = next_ctx;
  *lib = next_lib;
  enum sg_status st = next_failed ? SG_ELINK : SG_OK;
  next_ctx = NULL;
  next_lib = NULL;
  return st;
}

static enum sg_status link_devlib(struct pass_ctx *pc, LLVMModuleRef lib)
{
  if (!lib)
    return SG_OK;
  /* Both come from clang for the same target; the library's triple spelling
   * must not make the linker warn. */
  LLVMSetTarget(lib, LLVMGetTarget(pc->mod));
  LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(pc->mod));
  if (LLVMLinkModules2(pc->mod, lib)) {
    sg_text_printf(pc->log, "error: linking with the device library failed\n");
    return SG_ELINK;
  }
  return SG_OK;
}

/* ---- Entry wrappers -------------------------------------------------------- */

/* One string for every function, so the inliner sees compatible targets
 * whatever flags each bitcode was built with. */
#define SG_TARGET_FEATURES "+64bit,+m,+a,+f,+d,+zicsr,+zifencei,+zmmul,-c,-relax"
#define SG_TARGET_CPU "generic-rv64"

static void set_target_attrs(struct pass_ctx *pc, LLVMValueRef fn)
{
  /* No C library on the device: "no-builtins" makes LLVM expand large
   * memcpy/memset into loops instead of calling functions nobody defines. */
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(pc->ctx, "no-builtins", 11, "", 0));
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(pc->ctx, "target-cpu", 10, SG_TARGET_CPU,
                                                    strlen(SG_TARGET_CPU)));
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(pc->ctx, "target-features", 15,
                                                    SG_TARGET_FEATURES, strlen(SG_TARGET_FEATURES)));
}

/* The back end writes line tables only for functions with a subprogram, so
 * the wrapper of a kernel that has one gets its own (in a compile unit of
 * the wrappers: the C API cannot name the kernel's), and its call of the
 * kernel a location: once the kernel is inlined into the wrapper, its code
 * keeps its own lines, inlined at that call. */
static void debug_wrapper(struct pass_ctx *pc, LLVMValueRef kernel, LLVMValueRef w,
                          LLVMValueRef call)
{
  LLVMMetadataRef sp = LLVMGetSubprogram(kernel);
  if (!sp)
    return;
  LLVMMetadataRef file = LLVMDIScopeGetFile(sp);
  unsigned line = LLVMDISubprogramGetLine(sp);
  if (!pc->dib) {
    pc->dib = LLVMCreateDIBuilderDisallowUnresolved(pc->mod);
    LLVMDIBuilderCreateCompileUnit(pc->dib, LLVMDWARFSourceLanguageOpenCL, file, "SoftGPU", 7,
                                   !pc->opt->opt_disable, "", 0, 0, "", 0,
                                   LLVMDWARFEmissionLineTablesOnly, 0, 0, 0, "", 0, "", 0);
  }
  size_t len;
  const char *name = LLVMGetValueName2(w, &len);
  LLVMMetadataRef ty = LLVMDIBuilderCreateSubroutineType(pc->dib, file, NULL, 0, LLVMDIFlagZero);
  LLVMMetadataRef wsp =
      LLVMDIBuilderCreateFunction(pc->dib, file, name, len, name, len, file, line, ty, true, true,
                                  line, LLVMDIFlagArtificial, !pc->opt->opt_disable);
  LLVMSetSubprogram(w, wsp);
  LLVMInstructionSetDebugLoc(call, LLVMDIBuilderCreateDebugLocation(pc->ctx, line, 0, wsp, NULL));
}

static enum sg_status build_wrapper(struct pass_ctx *pc, LLVMValueRef kernel,
                                   const struct sg_kernel_info *k)
{
  LLVMTypeRef ptr = LLVMPointerTypeInContext(pc->ctx, 0), voidt = LLVMVoidTypeInContext(pc->ctx);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(pc->ctx), i64 = LLVMInt64TypeInContext(pc->ctx);
  char *name;
  if (asprintf(&name, SG_ENTRY_PREFIX "%s", k->name) < 0)
    return SG_ENOMEM;
  LLVMValueRef w = LLVMAddFunction(pc->mod, name, LLVMFunctionType(voidt, &ptr, 1, 0));
  free(name);
  LLVMAddAttributeAtIndex(w, LLVMAttributeFunctionIndex,
                          LLVMCreateEnumAttribute(pc->ctx, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
  /* The block is page-aligned and read-only: loads from it can be wide and
   * the inliner need not copy by-value structs out of it byte by byte. */
  LLVMAddAttributeAtIndex(w, 1, LLVMCreateEnumAttribute(pc->ctx, LLVMGetEnumAttributeKindForName("align", 5), 16));
  LLVMAddAttributeAtIndex(w, 1, LLVMCreateEnumAttribute(pc->ctx, LLVMGetEnumAttributeKindForName("noalias", 7), 0));
  LLVMAddAttributeAtIndex(w, 1, LLVMCreateEnumAttribute(pc->ctx, LLVMGetEnumAttributeKindForName("readonly", 8), 0));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(pc->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(pc->ctx, w, "entry"));
  LLVMValueRef params = LLVMGetParam(w, 0);
  LLVMValueRef *args = calloc(k->num_args + 1, sizeof *args);
  if (!args) {
    LLVMDisposeBuilder(b);
    return SG_ENOMEM; /* the module is discarded */
  }
  for (uint32_t i = 0; i < k->num_args; i++) {
    LLVMValueRef off = LLVMConstInt(i64, SG_PARAM_ARGS_OFFSET + k->args[i].offset, 0);
    LLVMValueRef at = LLVMBuildInBoundsGEP2(b, i8, params, &off, 1, "");
    if (byval_type(pc, kernel, i)) {
      args[i] = at; /* the callee's byval copy is made from the block */
      continue;
    }
    LLVMTypeRef t = slot_type(pc, kernel, i);
    args[i] = LLVMBuildLoad2(b, t, at, "");
    LLVMSetAlignment(args[i], LLVMABIAlignmentOfType(pc->td, t));
  }
  LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(kernel), kernel, args, k->num_args, "");
  unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
  for (uint32_t i = 0; i < k->num_args; i++) {
    LLVMTypeRef bv = byval_type(pc, kernel, i);
    if (bv)
      LLVMAddCallSiteAttribute(call, i + 1, LLVMCreateTypeAttribute(pc->ctx, byval, bv));
  }
  free(args);
  debug_wrapper(pc, kernel, w, call);
  static const char exit_asm[] = SG_INSN_R(SG_EXIT) ", x0, x0, x0";
  LLVMTypeRef asm_ty = LLVMFunctionType(voidt, NULL, 0, 0);
  LLVMValueRef ia = LLVMGetInlineAsm(asm_ty, exit_asm, sizeof exit_asm - 1, "", 0, 1, 0,
                                     LLVMInlineAsmDialectATT, 0);
  LLVMBuildCall2(b, asm_ty, ia, NULL, 0, "");
  LLVMBuildUnreachable(b);
  LLVMDisposeBuilder(b);
  return SG_OK;
}

/* Kernels become ordinary C-convention functions (the RISC-V back end has no
 * spir_kernel), called from their wrappers and from other kernels. */
static void fix_calling_conventions(struct pass_ctx *pc)
{
  for (LLVMValueRef f = LLVMGetFirstFunction(pc->mod); f; f = LLVMGetNextFunction(f)) {
    LLVMSetFunctionCallConv(f, LLVMCCallConv);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
        if (LLVMIsACallInst(in))
          LLVMSetInstructionCallConv(in, LLVMCCallConv);
  }
}

/* "_Z13get_global_idj" -> "get_global_id": enough to name the function. */
static void plain_name(const char *m, char *buf, size_t len)
{
  char *end;
  unsigned long n = strncmp(m, "_Z", 2) ? 0 : strtoul(m + 2, &end, 10);
  if (n && n <= strlen(end) && n < len)
    snprintf(buf, len, "%.*s", (int)n, end);
  else
    snprintf(buf, len, "%s", m);
}

static enum sg_status check_undefined(struct pass_ctx *pc)
{
  enum sg_status st = SG_OK;
  for (LLVMValueRef f = LLVMGetFirstFunction(pc->mod); f; f = LLVMGetNextFunction(f)) {
    if (!LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f) || !LLVMGetFirstUse(f))
      continue;
    const char *name = LLVMGetValueName2(f, &(size_t){0});
    if (is_libcall(name))
      continue;
    char plain[256];
    plain_name(name, plain, sizeof plain);
    sg_text_printf(pc->log, "error: undefined function '%s' (symbol %s)\n", plain, name);
    st = SG_ELINK;
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(pc->mod); g; g = LLVMGetNextGlobal(g))
    if (LLVMIsDeclaration(g) && LLVMGetFirstUse(g)) {
      sg_text_printf(pc->log, "error: undefined variable '%s'\n", LLVMGetValueName2(g, &(size_t){0}));
      st = SG_ELINK;
    }
  return st;
}

/* Everything but the wrappers becomes internal (so unused library code
 * disappears) and, when optimising, inlined into the wrappers. __local
 * variables are given addresses after optimisation (overlay_locals). */
static void internalize(struct pass_ctx *pc)
{
  unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  unsigned never = LLVMGetEnumAttributeKindForName("noinline", 8);
  for (LLVMValueRef f = LLVMGetFirstFunction(pc->mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f))
      continue;
    set_target_attrs(pc, f);
    const char *name = LLVMGetValueName2(f, &(size_t){0});
    if (!strncmp(name, SG_ENTRY_PREFIX, strlen(SG_ENTRY_PREFIX)) || is_libcall(name))
      continue;
    LLVMSetLinkage(f, LLVMInternalLinkage);
    LLVMSetVisibility(f, LLVMDefaultVisibility);
    if (!pc->opt->opt_disable && !LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, never))
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(pc->ctx, always, 0));
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(pc->mod); g; g = LLVMGetNextGlobal(g)) {
    if (LLVMIsDeclaration(g))
      continue;
    if (LLVMGetLinkage(g) != LLVMPrivateLinkage)
      LLVMSetLinkage(g, LLVMInternalLinkage);
  }
}

/* ---- __local overlay ----------------------------------------------------- */

/* A function set: the functions that use a variable, or that a kernel
 * reaches through direct calls. Programs have few functions left by now. */
struct fnset {
  LLVMValueRef *f;
  size_t n, cap;
};

static bool fnset_has(const struct fnset *s, LLVMValueRef f)
{
  for (size_t i = 0; i < s->n; i++)
    if (s->f[i] == f)
      return true;
  return false;
}

static bool fnset_add(struct fnset *s, LLVMValueRef f)
{
  if (fnset_has(s, f))
    return true;
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    LLVMValueRef *n = realloc(s->f, cap * sizeof *n);
    if (!n)
      return false;
    s->f = n, s->cap = cap;
  }
  s->f[s->n++] = f;
  return true;
}

/* The functions whose instructions use v, through constant expressions. */
static bool users_of(LLVMValueRef v, struct fnset *out, int depth)
{
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAInstruction(user)) {
      if (!fnset_add(out, LLVMGetBasicBlockParent(LLVMGetInstructionParent(user))))
        return false;
    } else if (LLVMIsAConstantExpr(user) && depth < 16 && !users_of(user, out, depth + 1)) {
      return false;
    }
  }
  return true;
}

/* The functions a kernel's wrapper reaches through direct calls. */
static bool reach(LLVMValueRef entry, struct fnset *out)
{
  if (!fnset_add(out, entry))
    return false;
  for (size_t i = 0; i < out->n; i++)
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(out->f[i]); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in)) {
        LLVMValueRef callee = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
        if (callee && LLVMIsAFunction(callee) && !LLVMIsDeclaration(callee) && !fnset_add(out, callee))
          return false;
      }
  return true;
}

/* Each kernel's __local variables are laid out from the start of the local
 * window, so a kernel needs only the local memory of the variables it
 * reaches, not that of every kernel in the program (CLBlast's GEMM program
 * holds five kernels of 16-32 KB each). A variable reached from several
 * kernels gets one address above everything placed for each of them. The
 * addresses become constants before code generation: nothing is left in
 * .sg.local. */
static enum sg_status overlay_locals(struct pass_ctx *pc, struct sg_cc_object *out)
{
  uint32_t nk = out->num_kernels;
  struct fnset *reached = calloc(nk ? nk : 1, sizeof *reached), users = {0};
  enum sg_status st = reached ? SG_OK : SG_ENOMEM;
  for (uint32_t k = 0; st == SG_OK && k < nk; k++) {
    out->kernels[k].static_local_size = 0;
    char *name;
    if (asprintf(&name, SG_ENTRY_PREFIX "%s", out->kernels[k].name) < 0) {
      st = SG_ENOMEM;
      break;
    }
    LLVMValueRef w = LLVMGetNamedFunction(pc->mod, name);
    free(name);
    if (!w)
      st = SG_ELINK;
    else if (!reach(w, &reached[k]))
      st = SG_ENOMEM;
  }
  LLVMTypeRef i64 = LLVMInt64TypeInContext(pc->ctx);
  for (LLVMValueRef g = LLVMGetFirstGlobal(pc->mod), next; st == SG_OK && g; g = next) {
    next = LLVMGetNextGlobal(g);
    const char *section = LLVMGetSection(g);
    bool local = LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == AS_LOCAL ||
                 (section && !strcmp(section, ".sg.local")); /* the collectives' scratch */
    if (!local || LLVMIsDeclaration(g))
      continue;
    LLVMTypeRef t = LLVMGlobalGetValueType(g);
    uint64_t size = LLVMABISizeOfType(pc->td, t), align = LLVMABIAlignmentOfType(pc->td, t);
    if (LLVMGetAlignment(g) > align)
      align = LLVMGetAlignment(g);
    users.n = 0;
    if (!users_of(g, &users, 0)) {
      st = SG_ENOMEM;
      break;
    }
    uint64_t at = 0;
    for (uint32_t k = 0; k < nk; k++)
      for (size_t i = 0; i < users.n; i++)
        if (fnset_has(&reached[k], users.f[i]) && out->kernels[k].static_local_size > at)
          at = out->kernels[k].static_local_size;
    at = (at + align - 1) / align * align;
    for (uint32_t k = 0; k < nk; k++)
      for (size_t i = 0; i < users.n; i++)
        if (fnset_has(&reached[k], users.f[i])) {
          out->kernels[k].static_local_size = at + size;
          break;
        }
    /* An absolute symbol keeps the variable's name, address and size for
     * the checkers' reports ("__local array `tile`"). */
    size_t len;
    const char *gname = LLVMGetValueName2(g, &len);
    char *sym = NULL;
    if (len && asprintf(&sym, ".type \"%s\",@object\n.size \"%s\", %llu\n.set \"%s\", 0x%llx\n",
                        gname, gname, (unsigned long long)size, gname,
                        (unsigned long long)(SG_ADDR_LOCAL + at)) < 0) {
      st = SG_ENOMEM;
      break;
    }
    if (sym)
      LLVMAppendModuleInlineAsm(pc->mod, sym, strlen(sym));
    free(sym);
    LLVMValueRef addr = LLVMConstIntToPtr(LLVMConstInt(i64, SG_ADDR_LOCAL + at, 0), LLVMTypeOf(g));
    LLVMReplaceAllUsesWith(g, addr);
    LLVMDeleteGlobal(g);
  }
  for (uint32_t k = 0; reached && k < nk; k++)
    free(reached[k].f);
  free(reached);
  free(users.f);
  if (st == SG_ELINK)
    sg_text_printf(pc->log, "error: internal compiler error: a kernel's entry point is missing\n");
  return st;
}

static enum sg_status make_wrappers(struct pass_ctx *pc, const struct sg_cc_object *out)
{
  enum sg_status st = SG_OK;
  for (uint32_t i = 0; i < out->num_kernels && st == SG_OK; i++) {
    LLVMValueRef f = LLVMGetNamedFunction(pc->mod, out->kernels[i].name);
    if (!f || !is_kernel(f)) {
      sg_text_printf(pc->log, "error: kernel '%s' lost while linking\n", out->kernels[i].name);
      st = SG_ELINK;
    } else {
      st = build_wrapper(pc, f, &out->kernels[i]);
    }
  }
  if (pc->dib) {
    LLVMDIBuilderFinalize(pc->dib);
    LLVMDisposeDIBuilder(pc->dib);
    pc->dib = NULL;
  }
  return st;
}

static enum sg_status optimise(struct pass_ctx *pc, LLVMTargetMachineRef tm)
{
  char *msg = NULL;
  if (LLVMVerifyModule(pc->mod, LLVMReturnStatusAction, &msg)) {
    sg_text_printf(pc->log, "error: internal compiler error: invalid module: %s\n", msg);
    LLVMDisposeMessage(msg);
    return SG_EBUILD;
  }
  LLVMDisposeMessage(msg);
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  /* globaldce first: most of the device library is unused by any kernel. */
  const char *pipeline = pc->opt->opt_disable ? "default<O0>,globaldce" : "globaldce,default<O3>";
  LLVMErrorRef err = LLVMRunPasses(pc->mod, pipeline, tm, po);
  LLVMDisposePassBuilderOptions(po);
  if (err) {
    char *m = LLVMGetErrorMessage(err);
    sg_text_printf(pc->log, "error: internal compiler error: %s\n", m);
    LLVMDisposeErrorMessage(m);
    return SG_EBUILD;
  }
  return SG_OK;
}

/* Private memory a work-item may ever use: a frame at 2 GiB or more makes
 * the RISC-V back end abort the process ("Frame offsets outside of the
 * signed 32-bit range"), and the device's stack window is smaller anyway. */
#define SG_PRIVATE_HARD_LIMIT (256ull << 20)

/* Bytes of the fixed-size allocas of fn (its frame, apart from spills). */
static uint64_t frame_bytes(struct pass_ctx *pc, LLVMValueRef fn)
{
  uint64_t total = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      if (!LLVMIsAAllocaInst(in))
        continue;
      LLVMValueRef n = LLVMGetOperand(in, 0);
      uint64_t count = n && LLVMIsAConstantInt(n) ? LLVMConstIntGetZExtValue(n) : 1;
      uint64_t bytes = LLVMABISizeOfType(pc->td, LLVMGetAllocatedType(in));
      uint64_t sz = count && bytes > UINT64_MAX / count ? UINT64_MAX : bytes * count;
      total = total > UINT64_MAX - sz ? UINT64_MAX : total + sz;
    }
  return total;
}

/* Checks every function's frame against the private memory of the device
 * before code generation, naming the kernel (or the function) at fault. */
static enum sg_status check_frames(struct pass_ctx *pc, const struct sg_cc_object *out)
{
  uint64_t limit = pc->opt->max_private_size;
  if (!limit || limit > SG_PRIVATE_HARD_LIMIT)
    limit = SG_PRIVATE_HARD_LIMIT;
  enum sg_status st = SG_OK;
  size_t plen = strlen(SG_ENTRY_PREFIX);
  for (LLVMValueRef f = LLVMGetFirstFunction(pc->mod); f; f = LLVMGetNextFunction(f)) {
    uint64_t bytes = LLVMIsDeclaration(f) ? 0 : frame_bytes(pc, f);
    if (bytes <= limit)
      continue;
    const char *name = LLVMGetValueName2(f, &(size_t){0}), *what = "function";
    if (!strncmp(name, SG_ENTRY_PREFIX, plen))
      name += plen, what = "kernel";
    for (uint32_t i = 0; i < out->num_kernels; i++)
      what = strcmp(name, out->kernels[i].name) ? what : "kernel";
    sg_text_printf(pc->log, "error: %s '%s' needs %llu bytes of private memory per work-item; %s %llu\n",
                   what, name, (unsigned long long)bytes,
                   limit == pc->opt->max_private_size ? "the device has" : "the limit is",
                   (unsigned long long)limit);
    st = SG_EBUILD;
  }
  return st;
}

/* The source files the code's line table names, with the text clang
 * embedded (-gembed-source), for the binary's .sg.source: findings quote
 * the line. Files without embedded text (objects from elsewhere) are left
 * out; their findings name the line without quoting it. */
static enum sg_status collect_sources(struct pass_ctx *pc, struct sg_cc_object *out)
{
  LLVMMetadataRef seen[SG_CC_MAX_SOURCES];
  for (LLVMValueRef f = LLVMGetFirstFunction(pc->mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
        LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(in);
        LLVMMetadataRef file = loc ? LLVMDIScopeGetFile(LLVMDILocationGetScope(loc)) : NULL;
        uint32_t i = 0;
        while (i < out->num_sources && seen[i] != file)
          i++;
        if (!file || i < out->num_sources || out->num_sources == SG_CC_MAX_SOURCES)
          continue;
        unsigned nlen, dlen, tlen;
        const char *name = LLVMDIFileGetFilename(file, &nlen);
        const char *dir = LLVMDIFileGetDirectory(file, &dlen);
        const char *text = LLVMDIFileGetSource(file, &tlen);
        if (!text || !name || !nlen)
          continue;
        struct sg_cc_source *src = &out->sources[out->num_sources];
        src->name = strndup(name, nlen);
        src->text = strndup(text, tlen);
        if (name[0] == '/' || !dlen)
          src->path = strndup(name, nlen);
        else if (asprintf(&src->path, "%.*s/%.*s", (int)dlen, dir, (int)nlen, name) < 0)
          src->path = NULL;
        seen[out->num_sources++] = file;
        if (!src->name || !src->text || !src->path)
          return SG_ENOMEM;
      }
  return SG_OK;
}

static enum sg_status compile_module(struct pass_ctx *pc, struct sg_cc_object *out,
                                     LLVMModuleRef lib)
{
  pc->td = LLVMGetModuleDataLayout(pc->mod);
  enum sg_status st = read_kernels(pc, out);
  if (st == SG_OK)
    st = sg_cc_printf_lower(pc->mod, out->kernels, out->num_kernels, pc->log);
  if (st == SG_OK)
    st = link_devlib(pc, lib);
  else
    LLVMDisposeModule(lib);
  if (st != SG_OK)
    return st;
  pc->td = LLVMGetModuleDataLayout(pc->mod);
  st = make_wrappers(pc, out);
  fix_calling_conventions(pc);
  if (st == SG_OK)
    st = check_undefined(pc);
  if (st != SG_OK)
    return st;
  internalize(pc);
  LLVMTargetMachineRef tm = sg_cc_target_machine(pc->opt->opt_disable, pc->log);
  if (!tm)
    return SG_EBUILD;
  st = optimise(pc, tm);
  if (st == SG_OK)
    sg_cc_branch_free_selects(pc->mod);
  if (st == SG_OK)
    st = check_frames(pc, out);
  if (st == SG_OK)
    st = overlay_locals(pc, out);
  if (st == SG_OK)
    st = collect_sources(pc, out);
  if (st == SG_OK)
    st = sg_cc_emit_object(tm, pc->mod, &out->obj, &out->obj_size, pc->log);
  LLVMDisposeTargetMachine(tm);
  return st == SG_OK && pc->errors ? SG_EBUILD : st;
}

enum sg_status sg_cc_compile(const void *bc, size_t bc_size, const struct sg_options *opt,
                             struct sg_cc_object *out, struct sg_text *log)
{
  memset(out, 0, sizeof *out);
  struct pass_ctx pc = {.opt = opt, .log = log};
  LLVMModuleRef lib = NULL;
  enum sg_status st = sg_cc_devlib_take(&pc.ctx, &lib);
  if (st != SG_OK)
    sg_text_printf(log, "error: the device library is unreadable\n");
  LLVMContextSetDiagnosticHandler(pc.ctx, on_diagnostic, &pc);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(bc, bc_size, "input.bc", 0);
  if (st == SG_OK && LLVMParseBitcodeInContext2(pc.ctx, buf, &pc.mod)) {
    sg_text_printf(log, "error: internal compiler error: unreadable front-end output\n");
    st = SG_EBUILD;
    pc.mod = NULL;
  }
  LLVMDisposeMemoryBuffer(buf);
  if (st == SG_OK)
    st = compile_module(&pc, out, lib);
  else if (lib)
    LLVMDisposeModule(lib);
  if (pc.mod)
    LLVMDisposeModule(pc.mod);
  LLVMContextDispose(pc.ctx);
  if (st != SG_OK)
    sg_cc_object_free(out);
  return st;
}

void sg_cc_object_free(struct sg_cc_object *o)
{
  for (uint32_t i = 0; i < o->num_kernels; i++)
    sg_kernel_info_free_fields(&o->kernels[i]);
  free(o->kernels);
  for (uint32_t i = 0; i < o->num_sources; i++) {
    free(o->sources[i].path);
    free(o->sources[i].name);
    free(o->sources[i].text);
  }
  free(o->obj);
  memset(o, 0, sizeof *o);
}
