/* SPDX-License-Identifier: MIT */
/* cli/: the softgpu command's entry: picks the subcommand and answers
 * --help and --version. */
#include <string.h>

#include "sg_cli.h"

#ifndef SG_VERSION
#define SG_VERSION "unknown"
#endif

int main(int argc, char **argv) {
  sg_cli_set_argv0(argv[0]);
  const char *first = argc > 1 ? argv[1] : NULL;
  if (!first || !strcmp(first, "--help") || !strcmp(first, "-h")) {
    sg_cli_print_manual(first ? stdout : stderr, SG_CLI_TEXT);
    return first ? SG_EXIT_OK : SG_EXIT_USAGE;
  }
  if (!strcmp(first, "--version")) {
    printf("softgpu %s (%s)\n", SG_VERSION, sg_compiler_version());
    return SG_EXIT_OK;
  }
  if (!strcmp(first, "help")) {
    const struct sg_cli_command *cmd = argc > 2 ? sg_cli_find_command(argv[2]) : NULL;
    if (argc > 2 && !cmd)
      return sg_cli_error(SG_EXIT_USAGE, NULL, "no command named '%s' (softgpu --help lists them)",
                          argv[2]);
    if (cmd)
      sg_cli_print_help(cmd, stdout, SG_CLI_TEXT);
    else
      sg_cli_print_manual(stdout, SG_CLI_TEXT);
    return SG_EXIT_OK;
  }
  const struct sg_cli_command *cmd = sg_cli_find_command(first);
  if (!cmd)
    return sg_cli_error(SG_EXIT_USAGE, NULL, "%s '%s' (softgpu --help lists the commands)",
                        first[0] == '-' ? "unknown option" : "no command named", first);
  return cmd->main(argc - 1, argv + 1);
}
