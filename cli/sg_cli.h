/* SPDX-License-Identifier: MIT */
/* cli/: the softgpu command, the tools around the library (DESIGN.md
 * "Configuration and names"): run a host program on SoftGPU alone, compile,
 * disassemble, run one kernel, show configurations, report statistics. One
 * file per subcommand family; this header is what they share. */
#ifndef SG_CLI_H
#define SG_CLI_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sg_device.h"

/* ---- Exit statuses (listed by `softgpu --help` from sg_cli_exits) ------- */
enum {
  SG_EXIT_OK = 0,
  SG_EXIT_BUILD = 1,  /* the OpenCL C source did not build */
  SG_EXIT_USAGE = 2,  /* bad command line, or arguments that do not fit the kernel */
  SG_EXIT_INPUT = 3,  /* a file is unreadable or not what it should be */
  SG_EXIT_DEVICE = 4, /* no SoftGPU device, or the launch failed */
  /* softgpu run passes the program's own status through, so its own
   * failures use the codes of env(1) and timeout(1). */
  SG_EXIT_RUN_FAILED = 125,  /* softgpu run failed before starting the program */
  SG_EXIT_RUN_NOEXEC = 126,  /* the program was found but could not be started */
  SG_EXIT_RUN_NOTFOUND = 127 /* the program was not found */
};
struct sg_cli_exit {
  int code;
  const char *meaning;
};
extern const struct sg_cli_exit sg_cli_exits[];
extern const unsigned sg_cli_num_exits;

/* Prints "softgpu CMD: message" on stderr (one line) and returns code. */
int sg_cli_error(int code, const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- Commands and options ------------------------------------------------ */

struct sg_cli_opt {
  const char *name; /* long name, without "--" */
  char short_name;  /* 0: none */
  const char *arg;  /* what the value is ("FILE"); NULL: a flag */
  const char *help;
};

enum sg_cli_format { SG_CLI_TEXT, SG_CLI_MAN, SG_CLI_MARKDOWN };

struct sg_cli_command {
  const char *name;
  const char *synopsis;          /* what follows "softgpu NAME " */
  const char *summary;           /* one line */
  const char *description;       /* paragraphs separated by blank lines */
  const struct sg_cli_opt *opts; /* terminated by a NULL name */
  bool env_opts;                 /* also takes the options of sg_env.def */
  /* More help after the options (keys, argument grammar), in fmt. */
  void (*more_help)(FILE *out, enum sg_cli_format fmt);
  int (*main)(int argc, char **argv); /* argv[0] is the command's name */
};

extern const struct sg_cli_command *const sg_cli_commands[];
extern const unsigned sg_cli_num_commands;
extern const struct sg_cli_command sg_cli_cmd_run, sg_cli_cmd_compile, sg_cli_cmd_disasm,
    sg_cli_cmd_kernel, sg_cli_cmd_config, sg_cli_cmd_presets, sg_cli_cmd_report;

const struct sg_cli_command *sg_cli_find_command(const char *name);
/* Help text in fmt: `code` in backticks, roff and Markdown escapes. */
void sg_cli_put_text(FILE *out, enum sg_cli_format fmt, const char *s);
/* Plain text wrapped at 80 columns, continuing at column col, later lines
 * indented by indent; ends the line. */
void sg_cli_put_wrapped(FILE *out, const char *s, int col, int indent);
/* The help of one command (softgpu CMD --help, the man page). */
void sg_cli_print_help(const struct sg_cli_command *cmd, FILE *out, enum sg_cli_format fmt);
/* The whole manual: every command, the environment and the exit statuses. */
void sg_cli_print_manual(FILE *out, enum sg_cli_format fmt);
/* A table of the environment variables (README, docs/settings.md). */
void sg_cli_print_env_table(FILE *out, enum sg_cli_format fmt);
/* A table of the configuration keys and one of the presets. */
void sg_cli_print_key_table(FILE *out, enum sg_cli_format fmt);
void sg_cli_print_preset_table(FILE *out, enum sg_cli_format fmt);

/* Command-line parsing over a command's option table. Options may be
 * "--name value", "--name=value", "-x value" or "-xvalue"; "--" ends them.
 * Returns the next option's index in cmd->opts, or for options from
 * sg_env.def SG_CLI_ENV_OPT + the variable; SG_CLI_ARG for an operand (in
 * *value); SG_CLI_END when done (p->next is the first argument after "--",
 * or argc); SG_CLI_BAD after printing why on stderr. With stop_at_operand
 * the first operand ends the options (softgpu run's program). */
enum { SG_CLI_END = -1, SG_CLI_ARG = -2, SG_CLI_BAD = -3, SG_CLI_ENV_OPT = 1000 };
struct sg_cli_parser {
  const struct sg_cli_command *cmd;
  int argc;
  char **argv;
  int next;
  bool stop_at_operand, done;
  bool help; /* --help was given (parsing stops: print the help) */
};
void sg_cli_parser_init(struct sg_cli_parser *p, const struct sg_cli_command *cmd, int argc,
                        char **argv, bool stop_at_operand);
int sg_cli_next(struct sg_cli_parser *p, const char **value);

/* The whole command line of a command that takes files and at most the
 * option -o FILE (*output): up to max operands, in order, into operands[]
 * (*count of them). The words after "--" are the caller's when rest is not
 * NULL (*rest is the first one's index), else an error. Returns
 * SG_CLI_GO_ON, or the status to exit with (SG_EXIT_OK after --help). */
enum { SG_CLI_GO_ON = -1 };
int sg_cli_parse_files(const struct sg_cli_command *cmd, int argc, char **argv,
                       const char **operands, int max, int *count, const char **output, int *rest);

/* ---- SoftGPU alone, with settings (sg_cli_env.c) ------------------------- */

/* The SOFTGPU_* settings a command line gave (--config, --stats, ...). */
struct sg_cli_settings {
  const char *value[SG_ENV_NUM]; /* NULL: not given */
};
/* Records option SG_CLI_ENV_OPT + var with its value (NULL for a flag),
 * after checking the value by the variable's kind. SG_EXIT_OK or
 * SG_EXIT_USAGE (said on stderr). */
int sg_cli_settings_set(struct sg_cli_settings *s, const char *cmd, int opt, const char *value);
/* main's argv[0], to find this command when /proc is not mounted. */
void sg_cli_set_argv0(const char *name);
/* The path of the SoftGPU library next to this command (installed, or in
 * the build tree); NULL when not found (said on stderr). */
const char *sg_cli_library(const char *cmd);
/* Makes this process and its children see SoftGPU alone, with the given
 * settings: OCL_ICD_VENDORS and OCL_ICD_FILENAMES name the library, and
 * each given setting is exported as its SOFTGPU_* variable. SG_EXIT_OK or
 * an exit status (said on stderr). */
int sg_cli_use_softgpu(const struct sg_cli_settings *s, const char *cmd);

/* ---- OpenCL sessions on SoftGPU alone (sg_cli_cl.c) --------------------- */

struct sg_cli_cl {
  const char *cmd;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue; /* in order, with profiling */
};
/* sg_cli_use_softgpu with the settings, then SoftGPU's device, a context
 * and a queue. SG_EXIT_OK or an exit status (said on stderr); close in
 * either case. */
int sg_cli_cl_open(struct sg_cli_cl *cl, const char *cmd, const struct sg_cli_settings *s);
void sg_cli_cl_close(struct sg_cli_cl *cl);
/* Builds file (OpenCL C, or a program binary when it is an ELF file) with
 * the options extra, -I<its folder> (source only) and words, and shows the
 * build log on stderr. SG_EXIT_OK, SG_EXIT_BUILD (the log says why),
 * SG_EXIT_USAGE (bad options), SG_EXIT_INPUT (unreadable or invalid file),
 * SG_EXIT_DEVICE; *program is set whenever it was created (release it). */
int sg_cli_cl_build(struct sg_cli_cl *cl, const char *file, const char *extra, char **words,
                    int nwords, cl_program *program);
/* The program's kernel names as "a, b" (malloc'd; NULL on failure). */
char *sg_cli_cl_kernel_names(cl_program program);
/* "softgpu CMD: CALL failed: CL_..." and SG_EXIT_DEVICE. */
int sg_cli_cl_fail(const char *cmd, const char *call, cl_int err);
const char *sg_error_name(cl_int err); /* runtime/sg_error.c, built in */

/* ---- JSON (sg_cli_json.c), for statistics files ------------------------ */

enum sg_json_type {
  SG_JSON_NULL,
  SG_JSON_BOOL,
  SG_JSON_NUMBER,
  SG_JSON_STRING,
  SG_JSON_ARRAY,
  SG_JSON_OBJECT
};
struct sg_json {
  enum sg_json_type type;
  bool boolean;
  bool integer; /* a number written without fraction or exponent */
  double number;
  char *text;   /* a string's value (UTF-8), a number as written */
  size_t count; /* entries of an array or object */
  char **keys;  /* an object's member names, in file order */
  struct sg_json *items;
};
/* Parses a sequence of JSON values (JSON lines, or any whitespace between
 * values) into *out, an array of them. false with "LINE:COLUMN: why" in err. */
bool sg_json_parse_values(const char *text, size_t len, struct sg_json *out, char *err,
                          size_t errlen);
void sg_json_free_fields(struct sg_json *v);
/* An object's member, or NULL. */
const struct sg_json *sg_json_get(const struct sg_json *obj, const char *key);

/* ---- Small shared helpers --------------------------------------------- */

/* Reads a whole file (at most max bytes) into a NUL-terminated buffer. NULL
 * with errno set on failure (EFBIG when larger than max). */
char *sg_cli_read_file(const char *path, size_t max, size_t *size);
/* One kernel parameter as OpenCL C, "__global const float *restrict x",
 * from the CL_KERNEL_ARG_* values of clGetKernelArgInfo (name may be ""). */
void sg_cli_param_text(char *buf, size_t len, unsigned address, unsigned access, uint64_t type_qual,
                       const char *type_name, const char *name);
/* Writes size bytes to path; false with errno set on failure. */
bool sg_cli_write_file(const char *path, const void *data, size_t size);
/* Unsigned decimal number in [min, max] with nothing after it. */
bool sg_cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

#endif
