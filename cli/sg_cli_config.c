/* SPDX-License-Identifier: MIT */
/* cli/: `softgpu config` and `softgpu presets`, the machine configuration
 * (DESIGN.md 3, "a configured machine") as the device will see it: every
 * key with its value and where the value came from, printed as a
 * configuration file that loads back to the same machine. */
#include <stdlib.h>
#include <string.h>

#include "sg_cli.h"

static void config_more_help(FILE *out, enum sg_cli_format fmt) {
  if (fmt == SG_CLI_TEXT)
    fputs("keys (a file holds key=value lines; `#` starts a comment; numbers are decimal or "
          "0x hex with an optional k/m/g suffix; `preset=NAME` may come first):\n",
          out);
  else
    fputs(".PP\nKeys:\n", out);
  sg_cli_print_key_table(out, fmt);
  fputs(fmt == SG_CLI_TEXT ? "\npresets:\n" : ".PP\nPresets:\n", out);
  sg_cli_print_preset_table(out, fmt);
}

static void origin_text(const struct sg_config_origin *o, char *buf, size_t len) {
  if (!o->source)
    snprintf(buf, len, "default");
  else if (o->preset)
    snprintf(buf, len, "preset %s", o->source);
  else
    snprintf(buf, len, "%s:%u", o->source, o->line);
}

static int config_main(int argc, char **argv) {
  const char *spec = NULL;
  int n_specs,
      rc = sg_cli_parse_files(&sg_cli_cmd_config, argc, argv, &spec, 1, &n_specs, NULL, NULL);
  if (rc != SG_CLI_GO_ON)
    return rc;
  bool from_env = false;
  if (!spec) {
    spec = sg_env_get(SG_ENV_CONFIG);
    from_env = spec && *spec;
  }
  unsigned n = sg_config_num_keys();
  struct sg_config_origin *origins = calloc(n, sizeof *origins);
  struct sg_config cfg;
  char err[512];
  if (!origins)
    return sg_cli_error(SG_EXIT_INPUT, "config", "out of memory");
  if (sg_config_load_origins(&cfg, spec, origins, err, sizeof err) != SG_OK) {
    free(origins);
    return sg_cli_error(SG_EXIT_INPUT, "config", "%s%s", from_env ? "SOFTGPU_CONFIG: " : "", err);
  }
  bool is_preset = false;
  for (unsigned i = 0; spec && i < sg_config_num_presets(); i++)
    is_preset |= strcmp(sg_config_preset(i).name, spec) == 0;
  if (!spec || !*spec)
    printf("# the default machine (no SOFTGPU_CONFIG)\n");
  else
    printf("# %s %s%s\n", is_preset ? "preset" : "file", spec,
           from_env ? ", from the environment (SOFTGPU_CONFIG)" : "");
  for (unsigned i = 0; i < n; i++) {
    char line[400], origin[300];
    sg_config_key_value(&cfg, i, origin, sizeof origin);
    snprintf(line, sizeof line, "%s=%s", sg_config_key(i).name, origin);
    origin_text(&origins[i], origin, sizeof origin);
    printf("%-32s # %s%s\n", line, origin,
           from_env && origins[i].source ? " (SOFTGPU_CONFIG)" : "");
  }
  free(origins);
  return SG_EXIT_OK;
}

static int presets_main(int argc, char **argv) {
  int count, rc = sg_cli_parse_files(&sg_cli_cmd_presets, argc, argv, NULL, 0, &count, NULL, NULL);
  if (rc != SG_CLI_GO_ON)
    return rc;
  sg_cli_print_preset_table(stdout, SG_CLI_TEXT);
  return SG_EXIT_OK;
}

const struct sg_cli_command sg_cli_cmd_config = {
    .name = "config",
    .synopsis = "[PRESET|FILE]",
    .summary = "show a machine configuration, where each value comes from, and check it",
    .description =
        "Loads the machine configuration PRESET or FILE (without one: SOFTGPU_CONFIG, else the "
        "defaults) as the device would and prints every key as `key=value`, each with where its "
        "value comes from: `default`, `preset NAME`, or `FILE:LINE`. The output is itself a "
        "configuration file.\n\n"
        "A file with an error (an unknown key, a bad value, a rule a machine must satisfy) gives "
        "one line naming FILE:LINE and the key, and exit status 3.",
    .opts = (const struct sg_cli_opt[]){{NULL, 0, NULL, NULL}},
    .more_help = config_more_help,
    .main = config_main,
};

const struct sg_cli_command sg_cli_cmd_presets = {
    .name = "presets",
    .synopsis = "",
    .summary = "list the machine presets",
    .description = "Lists the machine presets, each with a one-line description. `softgpu "
                   "config PRESET` shows one in full; `softgpu run --config PRESET` uses it.",
    .opts = (const struct sg_cli_opt[]){{NULL, 0, NULL, NULL}},
    .main = presets_main,
};
