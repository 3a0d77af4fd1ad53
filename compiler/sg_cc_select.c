/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler", middle end: selects without branches.
 * RV64IMAFD has no conditional move, so the back end lowers every select,
 * and every integer min and max, to a branch around a move. On a SIMT
 * machine such a branch may diverge: the lanes split, run one after the
 * other and rejoin, and each branch ends a translated block. A select
 * computes both of its operands anyway, so here it becomes arithmetic on the
 * condition's mask, m = sext(c): (x & m) | (y & ~m), through the integer
 * type of the same width for floating point. Two kinds stay branches, for
 * the checkers' sake. Pointer selects: the memory checker follows a pointer
 * through moves, not through masks. And selects of a value that may hold
 * uninitialized bytes (loaded from private or __local memory, or from where
 * this function cannot see): masking needs the condition's value in each
 * lane to tell that the bytes picked are initialized, which the
 * uninitialized-value checker does not have; a branch keeps the other lanes'
 * bytes off the result. */
#include "sg_cc_internal.h"

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <stdbool.h>
#include <string.h>

/* The integer type of t's width (per element for a vector), or NULL for a
 * type left alone: pointers, i1 (the back end's own logic handles those),
 * anything else not integer or floating point. */
static LLVMTypeRef int_type_of(LLVMTypeRef t)
{
  LLVMTypeRef e = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
  unsigned bits;
  switch (LLVMGetTypeKind(e)) {
  case LLVMIntegerTypeKind: bits = LLVMGetIntTypeWidth(e); break;
  case LLVMHalfTypeKind: bits = 16; break;
  case LLVMFloatTypeKind: bits = 32; break;
  case LLVMDoubleTypeKind: bits = 64; break;
  default: return NULL;
  }
  if (bits < 8)
    return NULL;
  LLVMTypeRef i = LLVMIntTypeInContext(LLVMGetTypeContext(t), bits);
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMVectorType(i, LLVMGetVectorSize(t)) : i;
}

enum { AS_GLOBAL = 1, AS_CONSTANT = 2 }; /* memory that is always initialized */
#define MAX_SEEN 256

/* Might v hold uninitialized bytes: does it come from a load of memory
 * other than global or constant, from a call, or from an argument of the
 * function? Searched through v's operands (seen[*n]: visited); true when
 * the search is too large to finish. */
static bool maybe_uninit(LLVMValueRef v, LLVMValueRef *seen, unsigned *n)
{
  if (LLVMIsAArgument(v))
    return true;
  if (!LLVMIsAInstruction(v))
    return false; /* constants, globals, basic blocks */
  for (unsigned i = 0; i < *n; i++)
    if (seen[i] == v)
      return false;
  if (*n == MAX_SEEN)
    return true;
  seen[(*n)++] = v;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMLoad:
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg: {
    unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(v, 0)));
    return as != AS_GLOBAL && as != AS_CONSTANT;
  }
  case LLVMCall:
    if (!LLVMGetIntrinsicID(LLVMGetCalledValue(v)))
      return true;
    break;
  default:
    break;
  }
  int ops = LLVMGetNumOperands(v);
  for (int i = 0; i < ops; i++)
    if (maybe_uninit(LLVMGetOperand(v, (unsigned)i), seen, n))
      return true;
  return false;
}

/* c ? x : y of type t (it = int_type_of(t)) without a branch, built before
 * the builder's position. */
static LLVMValueRef masked_select(LLVMBuilderRef b, LLVMValueRef c, LLVMValueRef x,
                                  LLVMValueRef y, LLVMTypeRef t, LLVMTypeRef it)
{
  /* A poison operand the select does not pick must not make the result
   * poison: freeze both. */
  x = LLVMBuildBitCast(b, LLVMBuildFreeze(b, x, ""), it, "");
  y = LLVMBuildBitCast(b, LLVMBuildFreeze(b, y, ""), it, "");
  LLVMTypeRef ct = LLVMTypeOf(c);
  LLVMValueRef m;
  if (LLVMGetTypeKind(it) == LLVMVectorTypeKind && LLVMGetTypeKind(ct) != LLVMVectorTypeKind) {
    /* one condition for every element: its mask in each */
    LLVMValueRef one = LLVMBuildSExt(b, c, LLVMGetElementType(it), "");
    LLVMValueRef ins = LLVMBuildInsertElement(b, LLVMGetPoison(it), one,
                                              LLVMConstInt(LLVMInt32TypeInContext(
                                                               LLVMGetTypeContext(it)), 0, 0), "");
    LLVMValueRef zeros = LLVMConstNull(
        LLVMVectorType(LLVMInt32TypeInContext(LLVMGetTypeContext(it)), LLVMGetVectorSize(it)));
    m = LLVMBuildShuffleVector(b, ins, LLVMGetPoison(it), zeros, "");
  } else {
    m = LLVMBuildSExt(b, c, it, "");
  }
  LLVMValueRef r = LLVMBuildOr(b, LLVMBuildAnd(b, x, m, ""),
                               LLVMBuildAnd(b, y, LLVMBuildNot(b, m, ""), ""), "");
  return LLVMBuildBitCast(b, r, t, "");
}

/* The predicate an integer min or max intrinsic compares with (a pred b
 * picks a), or 0 when f is none of them. */
static LLVMIntPredicate min_max_pred(LLVMValueRef f)
{
  size_t len;
  const char *name = f ? LLVMGetValueName2(f, &len) : "";
  static const struct {
    const char *prefix;
    LLVMIntPredicate pred;
  } ops[] = {{"llvm.smin.", LLVMIntSLT},
             {"llvm.smax.", LLVMIntSGT},
             {"llvm.umin.", LLVMIntULT},
             {"llvm.umax.", LLVMIntUGT}};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (!strncmp(name, ops[i].prefix, strlen(ops[i].prefix)))
      return ops[i].pred;
  return 0;
}

void sg_cc_branch_free_selects(LLVMModuleRef mod)
{
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(mod));
  LLVMValueRef seen[MAX_SEEN];
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        LLVMTypeRef t = LLVMTypeOf(in), it = int_type_of(t);
        bool select = LLVMGetInstructionOpcode(in) == LLVMSelect;
        LLVMIntPredicate pred = LLVMGetInstructionOpcode(in) == LLVMCall
                                    ? min_max_pred(LLVMGetCalledValue(in))
                                    : 0;
        if (!it || (!select && !pred))
          continue;
        /* select c, x, y; or min/max(x, y) = x pred y ? x : y */
        LLVMValueRef x = LLVMGetOperand(in, select), y = LLVMGetOperand(in, select + 1);
        unsigned n = 0;
        if (maybe_uninit(x, seen, &n) || maybe_uninit(y, seen, &n) ||
            (select && maybe_uninit(LLVMGetOperand(in, 0), seen, &n)))
          continue; /* (an uninitialized condition: the branch reports it) */
        LLVMPositionBuilderBefore(b, in);
        LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(in));
        LLVMValueRef c = select ? LLVMGetOperand(in, 0) : LLVMBuildICmp(b, pred, x, y, "");
        LLVMReplaceAllUsesWith(in, masked_select(b, c, x, y, t, it));
        LLVMInstructionEraseFromParent(in);
      }
  LLVMDisposeBuilder(b);
}
