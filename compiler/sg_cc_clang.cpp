/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler", front end: clang's driver and OpenCL C front
 * end run in the compiler worker's own process through clang's C++ library
 * (clang has no C API for code generation). The worker is the process
 * boundary that keeps a crashing front end away from the host
 * (docs/decisions.md); a clang subprocess per build cost more in start-up
 * (loading and relocating libclang-cpp and libLLVM) than the compilation of
 * a small program. The only C++ in SoftGPU; sg_cc_frontend.c calls it. */
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Driver/Compilation.h>
#include <clang/Driver/Driver.h>
#include <clang/Driver/Job.h>
#include <clang/Driver/Tool.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

using namespace clang;

namespace {

/* The text for the C side (malloc'ed, NUL-terminated), or NULL. */
char *c_string(const std::string &s)
{
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  if (p)
    std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

} // namespace

/* Runs the driver on args (args[0]: the clang executable, which locates the
 * resource directory; relative paths count from the working directory the
 * args name) and the one front-end job it makes. Diagnostics, as clang
 * prints them, go to *text. Returns 0 when the job succeeded. */
extern "C" int sg_cc_clang_run(const char *const *args, size_t nargs, char **text)
{
  std::string out;
  llvm::raw_string_ostream os(out);
  IntrusiveRefCntPtr<DiagnosticOptions> dopts = new DiagnosticOptions();
  DiagnosticsEngine diags(new DiagnosticIDs(), &*dopts, new TextDiagnosticPrinter(os, &*dopts));
  driver::Driver drv(args[0], "riscv64-unknown-elf", diags);
  drv.setCheckInputsExist(true);
  std::unique_ptr<driver::Compilation> comp(drv.BuildCompilation(llvm::ArrayRef(args, nargs)));
  bool ok = comp && !diags.hasErrorOccurred();
  const driver::Command *job = nullptr;
  if (ok) {
    const driver::JobList &jobs = comp->getJobs();
    if (jobs.size() == 1 && std::strcmp(jobs.begin()->getCreator().getName(), "clang") == 0)
      job = &*jobs.begin();
    else
      os << "error: the options do not make one OpenCL C compilation\n";
    ok = job != nullptr;
  }
  if (ok) {
    /* The job's arguments are "-cc1" and what clang -cc1 takes. */
    llvm::ArrayRef<const char *> cc1 = job->getArguments();
    if (!cc1.empty() && std::strcmp(cc1.front(), "-cc1") == 0)
      cc1 = cc1.drop_front();
    auto ci = std::make_unique<CompilerInstance>();
    ok = CompilerInvocation::CreateFromArgs(ci->getInvocation(), cc1, diags, args[0]);
    /* The driver asks cc1 to leave its memory (the AST, the LLVM module
     * and context) to process exit; the worker lives on to the next build. */
    ci->getFrontendOpts().DisableFree = false;
    ci->getCodeGenOpts().DisableFree = false;
    if (ok) {
      ci->createDiagnostics(new TextDiagnosticPrinter(os, &ci->getDiagnosticOpts()), true);
      ci->setVerboseOutputStream(os); /* "1 error generated." */
      EmitBCAction action;
      ok = ci->ExecuteAction(action);
    }
  }
  os.flush();
  *text = c_string(out);
  return ok ? 0 : 1;
}
