/* SPDX-License-Identifier: MIT */
/* cli/: SoftGPU alone, with settings. The options of `softgpu run` and
 * `softgpu kernel` are the lines of sim/sg_env.def (one line adds a
 * variable to the library, an option here and a row to the docs); the ICD
 * loader is pointed at the library installed with this command, or built
 * beside it, like `oclgrind ./prog`. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sg_cli.h"

/* Where the library is from this command's folder: installed
 * (bin -> lib), then in the build tree (cli/ -> runtime/). CMake computes
 * both. */
#ifndef SG_LIB_FROM_BIN_INSTALLED
#define SG_LIB_FROM_BIN_INSTALLED "../lib/libsoftgpu.so"
#endif
#ifndef SG_LIB_FROM_BIN_BUILD
#define SG_LIB_FROM_BIN_BUILD "../runtime/libsoftgpu.so"
#endif

static const struct {
  const char *var;
  const char *option;
  enum sg_env_kind kind;
} vars[] = {
#define SG_ENV(name, option, arg, kind, help) {"SOFTGPU_" #name, option, kind},
#include "sg_env.def"
#undef SG_ENV
};

int sg_cli_settings_set(struct sg_cli_settings *s, const char *cmd, int opt, const char *value) {
  int v = opt - SG_CLI_ENV_OPT;
  char err[512];
  struct sg_config cfg;
  uint64_t n;
  switch (vars[v].kind) {
  case SG_ENV_KIND_CONFIG:
    /* Checked now, so a typo is one line here rather than a platform
     * without a device later. */
    if (sg_config_load(&cfg, value, err, sizeof err) != SG_OK)
      return sg_cli_error(SG_EXIT_USAGE, cmd, "--%s: %s", vars[v].option, err);
    break;
  case SG_ENV_KIND_COUNT:
    if (!sg_cli_parse_u64(value, 1, 1024, &n))
      return sg_cli_error(SG_EXIT_USAGE, cmd, "--%s: '%s' is not a number from 1 to 1024",
                          vars[v].option, value);
    break;
  case SG_ENV_KIND_TEXT:
    if (!*value)
      return sg_cli_error(SG_EXIT_USAGE, cmd, "--%s: empty value", vars[v].option);
    break;
  case SG_ENV_KIND_FLAG: value = "1"; break;
  }
  s->value[v] = value;
  return SG_EXIT_OK;
}

static const char *argv0; /* main's argv[0], when /proc is not mounted */

void sg_cli_set_argv0(const char *name) {
  argv0 = name;
}

/* This executable: /proc/self/exe, else argv[0] as the shell found it
 * (a path, or a name to look up in PATH). */
static bool exe_path(char *path, size_t len) {
  ssize_t n = readlink("/proc/self/exe", path, len - 1);
  if (n > 0 && (size_t)n < len - 1) {
    path[n] = '\0';
    return true;
  }
  if (!argv0 || !*argv0)
    return false;
  if (strchr(argv0, '/'))
    return realpath(argv0, path) != NULL;
  const char *dirs = getenv("PATH");
  while (dirs && *dirs) {
    size_t d = strcspn(dirs, ":");
    char candidate[PATH_MAX];
    snprintf(candidate, sizeof candidate, "%.*s/%s", (int)d, d ? dirs : ".", argv0);
    if (access(candidate, X_OK) == 0 && realpath(candidate, path))
      return true;
    dirs += d + (dirs[d] == ':');
  }
  return false;
}

/* Folder of this executable, with a trailing '/'. */
static bool exe_dir(char *dir, size_t len) {
  if (!exe_path(dir, len))
    return false;
  char *slash = strrchr(dir, '/');
  if (!slash)
    return false;
  slash[1] = '\0';
  return true;
}

const char *sg_cli_library(const char *cmd) {
  static char found[PATH_MAX];
  char dir[PATH_MAX], path[2 * PATH_MAX];
  if (!exe_dir(dir, sizeof dir)) {
    sg_cli_error(SG_EXIT_DEVICE, cmd,
                 "cannot find where the softgpu command is (no /proc/self/exe, "
                 "and argv[0] does not say)");
    return NULL;
  }
  const char *rel[] = {SG_LIB_FROM_BIN_INSTALLED, SG_LIB_FROM_BIN_BUILD};
  for (unsigned i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s%s", dir, rel[i]);
    if (realpath(path, found) && access(found, R_OK) == 0)
      return found;
  }
  sg_cli_error(SG_EXIT_DEVICE, cmd, "the SoftGPU library is neither at %s%s nor at %s%s", dir,
               rel[0], dir, rel[1]);
  return NULL;
}

int sg_cli_use_softgpu(const struct sg_cli_settings *s, const char *cmd) {
  const char *lib = sg_cli_library(cmd);
  if (!lib)
    return SG_EXIT_DEVICE;
  /* ocl-icd loads OCL_ICD_VENDORS itself when it names a library rather
   * than a folder or an .icd file; the Khronos loader loads
   * OCL_ICD_FILENAMES and finds no vendor folder at OCL_ICD_VENDORS. Either
   * way the program sees SoftGPU and nothing else. */
  if (setenv("OCL_ICD_VENDORS", lib, 1) || setenv("OCL_ICD_FILENAMES", lib, 1))
    return sg_cli_error(SG_EXIT_DEVICE, cmd, "cannot set the environment: %s", strerror(errno));
  for (int v = 0; v < SG_ENV_NUM; v++)
    if (s && s->value[v] && setenv(vars[v].var, s->value[v], 1))
      return sg_cli_error(SG_EXIT_DEVICE, cmd, "cannot set %s: %s", vars[v].var, strerror(errno));
  return SG_EXIT_OK;
}
