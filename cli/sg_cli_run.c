/* SPDX-License-Identifier: MIT */
/* cli/: `softgpu run`, any OpenCL host program on SoftGPU alone, like
 * `oclgrind ./prog`: the settings become SOFTGPU_* variables, the ICD
 * loader sees only SoftGPU's library, and the program replaces this process
 * (so its exit status, signals and terminal are its own). */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "sg_cli.h"

static int run_main(int argc, char **argv) {
  struct sg_cli_parser p;
  struct sg_cli_settings settings = {0};
  sg_cli_parser_init(&p, &sg_cli_cmd_run, argc, argv, true);
  const char *value;
  for (int id; (id = sg_cli_next(&p, &value)) != SG_CLI_END;) {
    if (id == SG_CLI_BAD)
      return SG_EXIT_RUN_FAILED;
    if (sg_cli_settings_set(&settings, "run", id, value) != SG_EXIT_OK)
      return SG_EXIT_RUN_FAILED;
  }
  if (p.help) {
    sg_cli_print_help(&sg_cli_cmd_run, stdout, SG_CLI_TEXT);
    return SG_EXIT_OK;
  }
  if (p.next >= argc)
    return sg_cli_error(SG_EXIT_RUN_FAILED, "run",
                        "no program given (softgpu run -- PROGRAM ARGS...)");
  if (sg_cli_use_softgpu(&settings, "run") != SG_EXIT_OK)
    return SG_EXIT_RUN_FAILED;
  char *const *prog = argv + p.next;
  fflush(NULL);
  execvp(prog[0], prog);
  int e = errno;
  return sg_cli_error(e == ENOENT ? SG_EXIT_RUN_NOTFOUND : SG_EXIT_RUN_NOEXEC, "run",
                      "cannot run '%s': %s", prog[0], strerror(e));
}

const struct sg_cli_command sg_cli_cmd_run = {
    .name = "run",
    .synopsis = "[OPTIONS] [--] PROGRAM [ARGS...]",
    .summary = "run an OpenCL host program on SoftGPU alone",
    .description =
        "Runs PROGRAM with ARGS so that the OpenCL ICD loader finds SoftGPU and no other "
        "platform, whatever else is installed: OCL_ICD_VENDORS and OCL_ICD_FILENAMES name the "
        "SoftGPU library installed with this command (or built beside it). Each option sets "
        "the SOFTGPU_* variable it names; variables already in the environment stay unless an "
        "option overrides them.\n\n"
        "Options end at `--` or at the first argument that is not an option. The exit status is "
        "the program's own (128+N when signal N killed it); 125, 126 and 127 mean that softgpu "
        "itself failed, could not start the program, or did not find it.",
    .opts = (const struct sg_cli_opt[]){{NULL, 0, NULL, NULL}},
    .env_opts = true,
    .main = run_main,
};
