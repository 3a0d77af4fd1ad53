/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler", back end: the RISC-V target machine
 * (RV64IMAFD, no compressed instructions, no relaxation, static medlow code)
 * and emission of the optimised module to an in-memory ELF object. */
#include "sg_cc_internal.h"

#include <llvm-c/Core.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SG_TRIPLE "riscv64-unknown-elf"

/* The SIMT stack rejoins diverged lanes at a branch's immediate
 * post-dominator (sg_cc_reconv.c), which only works well on structured
 * control flow. RV64IMAFD has no conditional move, so every select becomes a
 * branch triangle, and tail duplication then copies each join block into
 * both arms: the loop body turns into two interleaved tracks whose branches
 * post-dominate only at the loop exit, and lanes that diverge once run apart
 * until the loop ends (pyopencl's Ranlux generator ran at 4% SIMD
 * efficiency). GPU targets keep the CFG structured for the same reason
 * (TargetMachine::requiresStructuredCFG, not reachable from the C API);
 * these are the code generator's options that duplicate tails. They are
 * process-wide LLVM options (libLLVM has no per-target-machine way), set in
 * the process that compiles: the worker softgpu-cc, never the host program.
 * The last one bounds the instruction scheduler's dependence graph: a long
 * block of loads and stores (the CTS's vector_creation kernels: 6000 in one
 * block) costs it time quadratic in their number (3.7 s of a 4 s build);
 * past 100 pending memory operations it merges them into one conservative
 * dependence, as LLVM already does past 1000 (0.7 s). Ordinary blocks are
 * below the bound and scheduled as before. The last one keeps a condition
 * of `||` and `&&` terms one branch, as GPU targets do (their jumps are
 * expensive): RISC-V lowers `br (a | b)` to a branch per term, and here
 * every branch may diverge and ends a translated block (a 2-D stencil's
 * boundary test `x == 0 || y == 0 || x >= w - 1 || y >= h - 1` was four
 * blocks and four branches per warp; one branch ran it in 0.78 of the
 * time). */
static const char *const codegen_options[] = {
    "softgpu", "-disable-early-taildup", "-disable-tail-duplicate", "-tail-dup-placement=0",
    "-dag-maps-huge-region=100", "-jump-is-expensive",
};

static void init_riscv(void)
{
  LLVMParseCommandLineOptions(sizeof codegen_options / sizeof *codegen_options, codegen_options,
                              NULL);
  LLVMInitializeRISCVTargetInfo();
  LLVMInitializeRISCVTarget();
  LLVMInitializeRISCVTargetMC();
  LLVMInitializeRISCVAsmPrinter();
  LLVMInitializeRISCVAsmParser(); /* inline asm (.insn) */
}

LLVMTargetMachineRef sg_cc_target_machine(bool opt_disable, struct sg_text *log)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, init_riscv);
  LLVMTargetRef t;
  char *err = NULL;
  if (LLVMGetTargetFromTriple(SG_TRIPLE, &t, &err)) {
    sg_text_printf(log, "error: no RISC-V target in LLVM: %s\n", err ? err : "");
    LLVMDisposeMessage(err);
    return NULL;
  }
  return LLVMCreateTargetMachine(t, SG_TRIPLE, "generic-rv64", "+m,+a,+f,+d,+zicsr,+zifencei,-c,-relax",
                                 opt_disable ? LLVMCodeGenLevelNone : LLVMCodeGenLevelAggressive,
                                 LLVMRelocStatic, LLVMCodeModelSmall);
}

enum sg_status sg_cc_emit_object(LLVMTargetMachineRef tm, void *module, void **obj,
                                 size_t *obj_size, struct sg_text *log)
{
  char *err = NULL;
  LLVMMemoryBufferRef buf;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, module, LLVMObjectFile, &err, &buf)) {
    sg_text_printf(log, "error: code generation failed: %s\n", err ? err : "");
    LLVMDisposeMessage(err);
    return SG_EBUILD;
  }
  *obj_size = LLVMGetBufferSize(buf);
  *obj = malloc(*obj_size ? *obj_size : 1);
  if (*obj)
    memcpy(*obj, LLVMGetBufferStart(buf), *obj_size);
  LLVMDisposeMemoryBuffer(buf);
  return *obj ? SG_OK : SG_ENOMEM;
}
