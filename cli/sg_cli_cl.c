/* SPDX-License-Identifier: MIT */
/* cli/: OpenCL sessions on SoftGPU alone, for the commands that build and
 * run kernels (compile, kernel). Everything goes through the OpenCL API and
 * the ICD loader, so the command builds exactly as clBuildProgram does (the
 * compiler worker, its limits, the checks against the device) and shows
 * the build log under the user's file name. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sg_cli.h"

#define MAX_PROGRAM (256u << 20)

int sg_cli_cl_fail(const char *cmd, const char *call, cl_int err) {
  return sg_cli_error(SG_EXIT_DEVICE, cmd, "%s failed: %s", call, sg_error_name(err));
}

int sg_cli_cl_open(struct sg_cli_cl *cl, const char *cmd, const struct sg_cli_settings *s) {
  *cl = (struct sg_cli_cl){.cmd = cmd};
  int rc = sg_cli_use_softgpu(s, cmd);
  if (rc != SG_EXIT_OK)
    return rc;
  cl_platform_id platform;
  cl_uint n = 0;
  cl_int err = clGetPlatformIDs(1, &platform, &n);
  if (err || !n)
    return sg_cli_error(SG_EXIT_DEVICE, cmd, "the ICD loader finds no SoftGPU platform (%s)",
                        err ? sg_error_name(err) : "none");
  err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &cl->device, &n);
  if (err || !n)
    return sg_cli_error(SG_EXIT_DEVICE, cmd,
                        "SoftGPU has no device (an invalid configuration? see above)");
  cl->context = clCreateContext(NULL, 1, &cl->device, NULL, NULL, &err);
  if (!cl->context)
    return sg_cli_cl_fail(cmd, "clCreateContext", err);
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl->queue = clCreateCommandQueueWithProperties(cl->context, cl->device, props, &err);
  if (!cl->queue)
    return sg_cli_cl_fail(cmd, "clCreateCommandQueueWithProperties", err);
  return SG_EXIT_OK;
}

void sg_cli_cl_close(struct sg_cli_cl *cl) {
  if (cl->queue)
    clReleaseCommandQueue(cl->queue);
  if (cl->context)
    clReleaseContext(cl->context);
  *cl = (struct sg_cli_cl){0};
}

/* The build log on stderr; the compiler names the source "input.cl", the
 * user knows it as file. */
static void print_build_log(const struct sg_cli_cl *cl, cl_program program, const char *file) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) || size < 2)
    return;
  char *log = malloc(size);
  if (log && !clGetProgramBuildInfo(program, cl->device, CL_PROGRAM_BUILD_LOG, size, log, NULL)) {
    static const char pseudo[] = "input.cl:";
    for (const char *s = log; *s;) {
      size_t n = strcspn(s, "\n");
      if (!strncmp(s, pseudo, sizeof pseudo - 1)) {
        fprintf(stderr, "%s:", file);
        s += sizeof pseudo - 1, n -= sizeof pseudo - 1;
      }
      fprintf(stderr, "%.*s\n", (int)n, s);
      s += n + (s[n] == '\n');
    }
  }
  free(log);
}

/* extra, then "-I<folder of file>" for source (it stands in for the
 * including file's folder of a C compiler, so #include "x.h" beside the
 * kernel works; options are split at blanks, so a folder with blanks in
 * its name is left out), then words. */
static char *build_options(const char *file, bool source, const char *extra, char **words, int n) {
  const char *slash = strrchr(file, '/');
  int dir_len = source && slash ? (int)(slash - file) + (slash == file) : 0;
  if (strcspn(file, " \t\n") < (size_t)dir_len)
    dir_len = 0;
  size_t len = strlen(extra) + (size_t)dir_len + 8;
  for (int i = 0; i < n; i++)
    len += strlen(words[i]) + 1;
  char *opt = malloc(len);
  if (!opt)
    return NULL;
  int at = snprintf(opt, len, "%s", extra);
  if (dir_len)
    at += snprintf(opt + at, len - (size_t)at, "%s-I%.*s", at ? " " : "", dir_len, file);
  for (int i = 0; i < n; i++)
    at += snprintf(opt + at, len - (size_t)at, "%s%s", at ? " " : "", words[i]);
  return opt;
}

int sg_cli_cl_build(struct sg_cli_cl *cl, const char *file, const char *extra, char **words,
                    int nwords, cl_program *program) {
  const char *cmd = cl->cmd;
  *program = NULL;
  size_t size;
  char *bytes = sg_cli_read_file(file, MAX_PROGRAM, &size);
  if (!bytes)
    return sg_cli_error(SG_EXIT_INPUT, cmd, "cannot read %s: %s", file, strerror(errno));
  bool binary = size >= 4 && !memcmp(bytes, "\177ELF", 4);
  cl_int err, status;
  if (binary)
    *program = clCreateProgramWithBinary(cl->context, 1, &cl->device, &size,
                                         (const unsigned char **)&bytes, &status, &err);
  else
    *program = clCreateProgramWithSource(cl->context, 1, (const char **)&bytes, &size, &err);
  free(bytes);
  if (!*program)
    return err == CL_INVALID_BINARY
               ? sg_cli_error(SG_EXIT_INPUT, cmd, "%s is not a valid program binary", file)
               : sg_cli_cl_fail(
                     cmd, binary ? "clCreateProgramWithBinary" : "clCreateProgramWithSource", err);
  char *opt = build_options(file, !binary, extra, words, nwords);
  if (!opt)
    return sg_cli_error(SG_EXIT_INPUT, cmd, "out of memory");
  err = clBuildProgram(*program, 1, &cl->device, opt, NULL, NULL);
  print_build_log(cl, *program, file);
  int rc = SG_EXIT_OK;
  if (err == CL_INVALID_BUILD_OPTIONS)
    rc = sg_cli_error(SG_EXIT_USAGE, cmd, "bad build options: %s", opt);
  else if (err == CL_BUILD_PROGRAM_FAILURE)
    rc = sg_cli_error(SG_EXIT_BUILD, cmd, "%s did not build", file);
  else if (err)
    rc = sg_cli_cl_fail(cmd, "clBuildProgram", err);
  free(opt);
  return rc;
}

char *sg_cli_cl_kernel_names(cl_program program) {
  size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size))
    return NULL;
  char *names = calloc(1, size + 1), *list = calloc(1, 2 * size + 1);
  if (names && list && !clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, names, NULL)) {
    for (char *c = names, *o = list; *c; c++)
      o += *c == ';' ? sprintf(o, ", ") : sprintf(o, "%c", *c);
  } else {
    free(list);
    list = NULL;
  }
  free(names);
  return list;
}
