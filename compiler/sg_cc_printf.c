/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler" and docs/printf.md: kernel printf. Each call of
 * the variadic `printf` becomes a call of a generated function that claims a
 * record in the launch's printf buffer with one atomic add and stores the
 * argument bytes; the host formats the records after the launch. Also the
 * format parser the host formatter shares. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf */
#endif
#include "sg_cc_internal.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { AS_GLOBAL = 1, AS_CONSTANT = 2 };
#define MAX_FIELD 4096 /* largest width or precision written in a format */

/* ---- Format parser ------------------------------------------------------ */

static int parse_number(const char **p)
{
  if (**p == '*') {
    (*p)++;
    return SG_PRINTF_STAR;
  }
  int n = 0;
  while (**p >= '0' && **p <= '9' && n <= MAX_FIELD)
    n = n * 10 + (*(*p)++ - '0');
  return n;
}

static enum sg_printf_len parse_len(const char **p)
{
  static const struct { const char *s; enum sg_printf_len len; } mods[] = {
      {"hh", SG_PRINTF_LEN_HH}, {"hl", SG_PRINTF_LEN_HL}, {"h", SG_PRINTF_LEN_H},
      {"l", SG_PRINTF_LEN_L}};
  for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++)
    if (!strncmp(*p, mods[i].s, strlen(mods[i].s))) {
      *p += strlen(mods[i].s);
      return mods[i].len;
    }
  return SG_PRINTF_LEN_NONE;
}

/* The combinations OpenCL C allows: vectors only with numeric conversions,
 * hl only with vectors, h and hh not on scalar floats, no length on c s p,
 * and "%%" bare. */
static bool valid_spec(const struct sg_printf_spec *s)
{
  if (!s->conv || !strchr("diouxXfFeEgGaAcsp%", s->conv))
    return false;
  bool is_float = strchr("fFeEgGaA", s->conv) != NULL;
  if (s->conv == '%')
    return !s->flags[0] && s->width == SG_PRINTF_NONE && s->precision == SG_PRINTF_NONE &&
           !s->vec && s->len == SG_PRINTF_LEN_NONE;
  if (strchr("csp", s->conv))
    return !s->vec && s->len == SG_PRINTF_LEN_NONE;
  if (s->vec)
    return !(is_float && s->len == SG_PRINTF_LEN_HH);
  return s->len != SG_PRINTF_LEN_HL && !(is_float && s->len != SG_PRINTF_LEN_NONE &&
                                         s->len != SG_PRINTF_LEN_L);
}

size_t sg_printf_parse(const char *fmt, struct sg_printf_spec *spec)
{
  const char *p = fmt + 1;
  size_t nflags = 0;
  memset(spec, 0, sizeof *spec);
  while (*p && strchr("-+ #0", *p)) {
    if (nflags < sizeof spec->flags - 1 && !strchr(spec->flags, *p))
      spec->flags[nflags++] = *p;
    p++;
  }
  spec->width = *p == '*' || (*p >= '1' && *p <= '9') ? parse_number(&p) : SG_PRINTF_NONE;
  spec->precision = SG_PRINTF_NONE;
  if (*p == '.') {
    p++;
    spec->precision = parse_number(&p);
  }
  if (*p == 'v') {
    p++;
    int n = *p >= '0' && *p <= '9' ? parse_number(&p) : 0;
    spec->vec = n == 2 || n == 3 || n == 4 || n == 8 || n == 16 ? (uint32_t)n : 0;
    if (!spec->vec)
      return (size_t)(p - fmt); /* conv stays 0 */
  }
  spec->len = parse_len(&p);
  if (*p)
    spec->conv = *p++;
  if (spec->width > MAX_FIELD || spec->precision > MAX_FIELD || !valid_spec(spec))
    spec->conv = 0;
  return (size_t)(p - fmt);
}

enum sg_printf_kind sg_printf_class(const struct sg_printf_spec *spec)
{
  if (strchr("fFeEgGaA", spec->conv))
    return SG_PRINTF_FLOAT;
  return spec->conv == 's' || spec->conv == 'p' ? SG_PRINTF_PTR : SG_PRINTF_INT;
}

uint32_t sg_printf_vec_elem_size(const struct sg_printf_spec *spec)
{
  static const uint32_t size[] = {[SG_PRINTF_LEN_NONE] = 4, [SG_PRINTF_LEN_HH] = 1,
                                  [SG_PRINTF_LEN_H] = 2, [SG_PRINTF_LEN_HL] = 4,
                                  [SG_PRINTF_LEN_L] = 8};
  return size[spec->len];
}

/* ---- Which kernels call printf ------------------------------------------ */

static LLVMValueRef caller_of(LLVMUseRef u)
{
  LLVMValueRef user = LLVMGetUser(u);
  return LLVMIsACallInst(user) ? LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)) : NULL;
}

/* Marks every kernel from which printf is reachable: the callers of printf,
 * their callers, and so on. */
static enum sg_status mark_kernels(LLVMModuleRef mod, LLVMValueRef printf_fn,
                                   struct sg_kernel_info *kernels, uint32_t n)
{
  size_t cap = 16, len = 0;
  LLVMValueRef *fns = malloc(cap * sizeof *fns);
  if (!fns)
    return SG_ENOMEM;
  fns[len++] = printf_fn;
  for (size_t i = 0; i < len; i++)
    for (LLVMUseRef u = LLVMGetFirstUse(fns[i]); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef f = caller_of(u);
      bool known = !f;
      for (size_t j = 0; j < len && !known; j++)
        known = fns[j] == f;
      if (known)
        continue;
      if (len == cap) {
        LLVMValueRef *more = realloc(fns, 2 * cap * sizeof *more);
        if (!more) {
          free(fns);
          return SG_ENOMEM;
        }
        fns = more;
        cap *= 2;
      }
      fns[len++] = f;
    }
  for (uint32_t k = 0; k < n; k++) {
    LLVMValueRef f = LLVMGetNamedFunction(mod, kernels[k].name);
    for (size_t j = 1; j < len && f; j++)
      if (fns[j] == f)
        kernels[k].uses |= SG_USES_PRINTF;
  }
  free(fns);
  return SG_OK;
}

/* ---- Lowering one call ---------------------------------------------------- */

struct lower {
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMTargetDataRef td;
  struct sg_text *log;
  LLVMTypeRef i8, i32, i64, gptr;
  unsigned count; /* call sites lowered, for unique names */
};

/* How one argument is stored: its value (or, for a vector passed by
 * reference, the pointer to copy `bytes` from) and its descriptor entry. */
struct slot {
  LLVMValueRef value;
  bool by_ref;
  uint32_t bytes;
  struct sg_printf_desc_arg d;
};

/* The format text of a call: the initializer of the constant it points to. */
static const char *format_of(LLVMValueRef fmt, size_t *len)
{
  LLVMValueRef init = LLVMIsAGlobalVariable(fmt) && LLVMIsGlobalConstant(fmt)
                          ? LLVMGetInitializer(fmt) : NULL;
  if (!init || !LLVMIsAConstantDataSequential(init) || !LLVMIsConstantString(init))
    return NULL;
  const char *s = LLVMGetAsString(init, len);
  return memchr(s, 0, *len) ? s : NULL;
}

/* The descriptor entry and storage of argument v, consumed by spec (NULL for
 * a '*' width or precision, or an argument past the last conversion). False
 * when v cannot be printed that way. */
static bool classify(struct lower *l, LLVMValueRef v, const struct sg_printf_spec *spec,
                     struct slot *s)
{
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMTypeKind k = LLVMGetTypeKind(t);
  s->value = v;
  s->by_ref = false;
  if (spec && spec->vec) {
    /* The RISC-V calling convention passes small vectors as integers and
     * large ones by reference; the bytes are the vector's either way. */
    uint32_t elem = sg_printf_vec_elem_size(spec);
    s->bytes = (spec->vec == 3 ? 4 : spec->vec) * elem;
    s->d = (struct sg_printf_desc_arg){.kind = (uint8_t)sg_printf_class(spec),
                                       .elem_size = (uint8_t)elem, .lanes = (uint8_t)spec->vec};
    s->by_ref = k == LLVMPointerTypeKind;
    return s->by_ref || ((k == LLVMIntegerTypeKind || k == LLVMVectorTypeKind) &&
                         LLVMStoreSizeOfType(l->td, t) >= s->bytes);
  }
  s->bytes = (uint32_t)LLVMStoreSizeOfType(l->td, t);
  s->d = (struct sg_printf_desc_arg){.elem_size = (uint8_t)s->bytes, .lanes = 1};
  if (k == LLVMIntegerTypeKind && s->bytes <= 8)
    s->d.kind = SG_PRINTF_INT;
  else if (k == LLVMHalfTypeKind || k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind)
    s->d.kind = SG_PRINTF_FLOAT;
  else if (k == LLVMPointerTypeKind) {
    s->d = (struct sg_printf_desc_arg){.kind = SG_PRINTF_PTR, .elem_size = 8, .lanes = 1};
    s->bytes = 8;
  } else
    return false;
  return true;
}

/* Matches the call's nargs arguments to the format's conversions, filling
 * slots; false (with a build error) when they do not fit. */
static bool match_args(struct lower *l, LLVMValueRef call, const char *fmt, struct slot *slots,
                       uint32_t nargs)
{
  uint32_t a = 0;
  for (const char *p = strchr(fmt, '%'); p; p = strchr(p, '%')) {
    struct sg_printf_spec spec;
    size_t n = sg_printf_parse(p, &spec);
    if (!spec.conv) {
      sg_text_printf(l->log, "error: printf: invalid conversion '%.*s' in format \"%s\"\n",
                     (int)n, p, fmt);
      return false;
    }
    p += n;
    uint32_t need = (spec.width == SG_PRINTF_STAR) + (spec.precision == SG_PRINTF_STAR) +
                    (spec.conv != '%');
    if (a + need > nargs) {
      sg_text_printf(l->log, "error: printf: format \"%s\" needs more arguments than the "
                             "call gives\n", fmt);
      return false;
    }
    for (uint32_t i = 0; i < need; i++, a++) {
      bool last = i + 1 == need && spec.conv != '%';
      if (!classify(l, LLVMGetOperand(call, a + 1), last ? &spec : NULL, &slots[a])) {
        sg_text_printf(l->log, "error: printf: argument %u does not match '%.*s' in format "
                               "\"%s\"\n", a + 1, (int)n, p - n, fmt);
        return false;
      }
    }
  }
  for (; a < nargs; a++) /* extra arguments are evaluated and ignored, as in C */
    if (!classify(l, LLVMGetOperand(call, a + 1), NULL, &slots[a])) {
      sg_text_printf(l->log, "error: printf: argument %u has a type printf cannot print\n", a + 1);
      return false;
    }
  return true;
}

/* Record offsets (8-byte aligned) and the descriptor constant; *size gets
 * the record size. */
static LLVMValueRef make_desc(struct lower *l, LLVMValueRef fmt, struct slot *slots, uint32_t n,
                              uint32_t *size)
{
  uint32_t off = sizeof(struct sg_printf_record);
  LLVMTypeRef at_fields[] = {l->i32, l->i8, l->i8, l->i8, l->i8};
  LLVMTypeRef at = LLVMStructTypeInContext(l->ctx, at_fields, 5, 0);
  LLVMValueRef *entries = calloc(n + 1, sizeof *entries);
  if (!entries)
    return NULL;
  for (uint32_t i = 0; i < n; i++) {
    slots[i].d.offset = off;
    off += (slots[i].bytes + 7) & ~7u;
    LLVMValueRef f[] = {LLVMConstInt(l->i32, slots[i].d.offset, 0),
                        LLVMConstInt(l->i8, slots[i].d.kind, 0),
                        LLVMConstInt(l->i8, slots[i].d.elem_size, 0),
                        LLVMConstInt(l->i8, slots[i].d.lanes, 0), LLVMConstInt(l->i8, 0, 0)};
    entries[i] = LLVMConstNamedStruct(at, f, 5);
  }
  *size = off;
  LLVMValueRef fields[] = {LLVMConstPtrToInt(fmt, l->i64), LLVMConstInt(l->i32, n, 0),
                           LLVMConstInt(l->i32, off, 0), LLVMConstArray2(at, entries, n)};
  free(entries);
  LLVMValueRef init = LLVMConstStructInContext(l->ctx, fields, 4, 0);
  _Static_assert(offsetof(struct sg_printf_desc, record_size) == 12, "desc layout");
  _Static_assert(sizeof(struct sg_printf_desc) == 16, "desc layout");
  _Static_assert(sizeof(struct sg_printf_desc_arg) == 8, "desc arg layout");
  LLVMValueRef g = LLVMAddGlobalInAddressSpace(l->mod, LLVMTypeOf(init), "__sg_printf_desc",
                                               AS_CONSTANT);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetAlignment(g, 8);
  return g;
}

static LLVMValueRef at_offset(struct lower *l, LLVMBuilderRef b, LLVMValueRef base, uint64_t off)
{
  LLVMValueRef o = LLVMConstInt(l->i64, off, 0);
  return LLVMBuildInBoundsGEP2(b, l->i8, base, &o, 1, "");
}

static void store8(LLVMBuilderRef b, LLVMValueRef v, LLVMValueRef at, unsigned align)
{
  LLVMSetAlignment(LLVMBuildStore(b, v, at), align);
}

/* csrr of a SIMT CSR (docs/isa.md). */
static LLVMValueRef read_csr(struct lower *l, LLVMBuilderRef b, unsigned csr)
{
  char text[32];
  int len = snprintf(text, sizeof text, "csrr $0, %#x", csr);
  LLVMTypeRef ft = LLVMFunctionType(l->i64, NULL, 0, 0);
  LLVMValueRef ia = LLVMGetInlineAsm(ft, text, (size_t)len, "=r", 2, 0, 0,
                                     LLVMInlineAsmDialectATT, 0);
  return LLVMBuildTrunc(b, LLVMBuildCall2(b, ft, ia, NULL, 0, ""), l->i32, "");
}

/* The body of one call site's function:
 *   info = SG_ADDR_PARAMS; buf = info->printf_buffer
 *   off = atomic buf->used += size
 *   if (sizeof header + off + size <= info->printf_size) { write record; return 0 }
 *   atomic buf->dropped += 1; return -1 */
static void build_body(struct lower *l, LLVMValueRef fn, LLVMValueRef desc, struct slot *slots,
                       uint32_t n, uint32_t size)
{
  LLVMBuilderRef b = LLVMCreateBuilderInContext(l->ctx);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(l->ctx, fn, "entry");
  LLVMBasicBlockRef write = LLVMAppendBasicBlockInContext(l->ctx, fn, "write");
  LLVMBasicBlockRef full = LLVMAppendBasicBlockInContext(l->ctx, fn, "full");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef info = LLVMConstIntToPtr(LLVMConstInt(l->i64, SG_ADDR_PARAMS, 0), l->gptr);
  LLVMValueRef bufaddr = LLVMBuildLoad2(
      b, l->i64, at_offset(l, b, info, offsetof(struct sg_launch_info, printf_buffer)), "");
  LLVMValueRef cap = LLVMBuildLoad2(
      b, l->i64, at_offset(l, b, info, offsetof(struct sg_launch_info, printf_size)), "");
  LLVMValueRef buf = LLVMBuildIntToPtr(b, bufaddr, l->gptr, "");
  LLVMValueRef sz = LLVMConstInt(l->i64, size, 0);
  LLVMValueRef off = LLVMBuildAtomicRMW(b, LLVMAtomicRMWBinOpAdd, buf, sz,
                                        LLVMAtomicOrderingMonotonic, 0);
  LLVMValueRef end = LLVMBuildAdd(
      b, off, LLVMConstInt(l->i64, size + sizeof(struct sg_printf_header), 0), "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULE, end, cap, ""), write, full);

  LLVMPositionBuilderAtEnd(b, write);
  LLVMValueRef o = LLVMBuildAdd(b, off, LLVMConstInt(l->i64, sizeof(struct sg_printf_header), 0), "");
  LLVMValueRef rec = LLVMBuildInBoundsGEP2(b, l->i8, buf, &o, 1, "");
  store8(b, LLVMConstPtrToInt(desc, l->i64), rec, 8);
  for (unsigned d = 0; d < 3; d++)
    store8(b, read_csr(l, b, 0xCCA + d),
           at_offset(l, b, rec, offsetof(struct sg_printf_record, ctaid) + 4 * d), 4);
  for (uint32_t i = 0; i < n; i++) {
    LLVMValueRef v = LLVMGetParam(fn, i), at = at_offset(l, b, rec, slots[i].d.offset);
    if (slots[i].by_ref)
      LLVMBuildMemCpy(b, at, 8, v, 1, LLVMConstInt(l->i64, slots[i].bytes, 0));
    else if (slots[i].d.kind == SG_PRINTF_PTR)
      store8(b, LLVMBuildPtrToInt(b, v, l->i64, ""), at, 8);
    else
      store8(b, v, at, 8);
  }
  LLVMBuildRet(b, LLVMConstInt(l->i32, 0, 0));

  LLVMPositionBuilderAtEnd(b, full);
  LLVMBuildAtomicRMW(b, LLVMAtomicRMWBinOpAdd,
                     at_offset(l, b, buf, offsetof(struct sg_printf_header, dropped)),
                     LLVMConstInt(l->i64, 1, 0), LLVMAtomicOrderingMonotonic, 0);
  LLVMBuildRet(b, LLVMConstInt(l->i32, (unsigned long long)-1, 1));
  LLVMDisposeBuilder(b);
}

/* Replaces one printf call by a call of a new function taking the same
 * arguments (without the format). */
static enum sg_status lower_call(struct lower *l, LLVMValueRef call)
{
  uint32_t nargs = (uint32_t)LLVMGetNumArgOperands(call) - 1;
  size_t len;
  LLVMValueRef fmtv = LLVMGetOperand(call, 0);
  const char *fmt = format_of(fmtv, &len);
  if (!fmt) {
    sg_text_printf(l->log, "error: printf: the format must be a string literal\n");
    return SG_EBUILD;
  }
  struct slot *slots = calloc(nargs + 1, sizeof *slots);
  LLVMTypeRef *types = calloc(nargs + 1, sizeof *types);
  LLVMValueRef *args = calloc(nargs + 1, sizeof *args);
  enum sg_status st = SG_ENOMEM;
  if (!slots || !types || !args)
    goto done;
  st = SG_EBUILD;
  if (!match_args(l, call, fmt, slots, nargs))
    goto done;
  st = SG_ENOMEM;
  uint32_t size;
  LLVMValueRef desc = make_desc(l, fmtv, slots, nargs, &size);
  if (!desc)
    goto done;
  for (uint32_t i = 0; i < nargs; i++) {
    args[i] = LLVMGetOperand(call, i + 1);
    types[i] = LLVMTypeOf(args[i]);
  }
  char name[48];
  snprintf(name, sizeof name, "__sg_printf_%u", l->count++);
  LLVMTypeRef ft = LLVMFunctionType(l->i32, types, nargs, 0);
  LLVMValueRef fn = LLVMAddFunction(l->mod, name, ft);
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  build_body(l, fn, desc, slots, nargs, size);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(l->ctx);
  LLVMPositionBuilderBefore(b, call);
  LLVMValueRef repl = LLVMBuildCall2(b, ft, fn, args, nargs, "");
  LLVMDisposeBuilder(b);
  LLVMReplaceAllUsesWith(call, repl);
  LLVMInstructionEraseFromParent(call);
  st = SG_OK;
done:
  free(slots), free(types), free(args);
  return st;
}

enum sg_status sg_cc_printf_lower(LLVMModuleRef mod, struct sg_kernel_info *kernels,
                                  uint32_t num_kernels, struct sg_text *log)
{
  LLVMValueRef printf_fn = LLVMGetNamedFunction(mod, "printf");
  if (!printf_fn || !LLVMIsDeclaration(printf_fn))
    return SG_OK;
  enum sg_status st = mark_kernels(mod, printf_fn, kernels, num_kernels);
  struct lower l = {.ctx = LLVMGetModuleContext(mod), .mod = mod,
                    .td = LLVMGetModuleDataLayout(mod), .log = log};
  l.i8 = LLVMInt8TypeInContext(l.ctx);
  l.i32 = LLVMInt32TypeInContext(l.ctx);
  l.i64 = LLVMInt64TypeInContext(l.ctx);
  l.gptr = LLVMPointerTypeInContext(l.ctx, AS_GLOBAL);
  LLVMUseRef u;
  /* Each lowering removes one use; a use that is not a call (printf's
   * address taken) is an error. */
  while (st == SG_OK && (u = LLVMGetFirstUse(printf_fn))) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != printf_fn) {
      sg_text_printf(log, "error: printf can only be called directly\n");
      return SG_EBUILD;
    }
    st = lower_call(&l, user);
  }
  if (st == SG_OK)
    LLVMDeleteFunction(printf_fn);
  return st;
}
