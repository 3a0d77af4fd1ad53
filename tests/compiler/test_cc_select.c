/* SPDX-License-Identifier: MIT */
/* The branch-free selects pass (compiler/sg_cc_select.c) on hand-written
 * IR: which selects and min/max it rewrites as arithmetic on the mask, and
 * which it leaves to the back end (pointers, booleans, values that may be
 * uninitialized). What the rewritten code computes is checked where it
 * runs: the builtins and kernels suites compare min, max, clamp, select and
 * ?: against host references under both engines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "sg_cc_internal.h"

static const char ir[] =
    "target triple = \"riscv64-unknown-elf\"\n"
    "declare i32 @llvm.smin.i32(i32, i32)\n"
    "declare i64 @llvm.umax.i64(i64, i64)\n"
    "define i32 @int_sel(ptr addrspace(1) %p) {\n"
    "  %a = load i32, ptr addrspace(1) %p\n"
    "  %c = icmp sgt i32 %a, 0\n"
    "  %b = mul i32 %a, 3\n"
    "  %s = select i1 %c, i32 %a, i32 %b\n"
    "  ret i32 %s\n}\n"
    "define <4 x float> @vec_sel(ptr addrspace(1) %p, ptr addrspace(1) %q) {\n"
    "  %a = load <4 x float>, ptr addrspace(1) %p\n"
    "  %k = load i32, ptr addrspace(1) %q\n"
    "  %c = trunc i32 %k to i1\n"
    "  %b = fmul <4 x float> %a, %a\n"
    "  %s = select i1 %c, <4 x float> %a, <4 x float> %b\n"
    "  ret <4 x float> %s\n}\n"
    "define i32 @min_max(ptr addrspace(2) %p) {\n"
    "  %a = load i32, ptr addrspace(2) %p\n"
    "  %w = zext i32 %a to i64\n"
    "  %m = call i32 @llvm.smin.i32(i32 %a, i32 7)\n"
    "  %u = call i64 @llvm.umax.i64(i64 %w, i64 9)\n"
    "  %t = trunc i64 %u to i32\n"
    "  %r = add i32 %m, %t\n"
    "  ret i32 %r\n}\n"
    /* left alone */
    "define ptr addrspace(1) @ptr_sel(ptr addrspace(1) %p, ptr addrspace(1) %q, i1 %c) {\n"
    "  %s = select i1 %c, ptr addrspace(1) %p, ptr addrspace(1) %q\n"
    "  ret ptr addrspace(1) %s\n}\n"
    "define i1 @bool_sel(i1 %a, i1 %b, i1 %c) {\n"
    "  %s = select i1 %c, i1 %a, i1 %b\n"
    "  ret i1 %s\n}\n"
    "define i32 @private_sel(ptr addrspace(1) %p) {\n"
    "  %acc = alloca [4 x i32]\n"
    "  %w = load i32, ptr addrspace(1) %p\n"
    "  %c = icmp sgt i32 %w, 0\n"
    "  %e = getelementptr [4 x i32], ptr %acc, i32 0, i32 %w\n"
    "  %v = load i32, ptr %e\n"
    "  %s = select i1 %c, i32 %v, i32 %w\n"
    "  ret i32 %s\n}\n"
    "define i32 @local_min(ptr addrspace(3) %p) {\n"
    "  %a = load i32, ptr addrspace(3) %p\n"
    "  %m = call i32 @llvm.smin.i32(i32 %a, i32 7)\n"
    "  ret i32 %m\n}\n"
    "define i32 @arg_sel(i32 %a, i32 %b) {\n"
    "  %c = icmp sgt i32 %a, %b\n"
    "  %s = select i1 %c, i32 %a, i32 %b\n"
    "  ret i32 %s\n}\n";

/* Selects and min/max calls left in function `name`. */
static int left(LLVMModuleRef mod, const char *name)
{
  LLVMValueRef f = LLVMGetNamedFunction(mod, name);
  assert_non_null(f);
  int n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
      n += LLVMGetInstructionOpcode(in) == LLVMSelect ||
           (LLVMGetInstructionOpcode(in) == LLVMCall &&
            LLVMGetIntrinsicID(LLVMGetCalledValue(in)) != 0);
  return n;
}

static void test_rewrites(void **state)
{
  (void)state;
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, sizeof ir - 1, "t.ll");
  LLVMModuleRef mod = NULL;
  char *err = NULL;
  assert_false(LLVMParseIRInContext(ctx, buf, &mod, &err));
  sg_cc_branch_free_selects(mod);
  assert_false(LLVMVerifyModule(mod, LLVMReturnStatusAction, &err));
  LLVMDisposeMessage(err);
  /* integers, floating point vectors (through their integer type), min/max */
  assert_int_equal(left(mod, "int_sel"), 0);
  assert_int_equal(left(mod, "vec_sel"), 0);
  assert_int_equal(left(mod, "min_max"), 0);
  /* pointers, booleans, and values from private or __local memory or from
   * the function's arguments stay */
  assert_int_equal(left(mod, "ptr_sel"), 1);
  assert_int_equal(left(mod, "bool_sel"), 1);
  assert_int_equal(left(mod, "private_sel"), 1);
  assert_int_equal(left(mod, "local_min"), 1);
  assert_int_equal(left(mod, "arg_sel"), 1);
  LLVMDisposeModule(mod);
  LLVMContextDispose(ctx);
}

int main(void)
{
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_rewrites)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
