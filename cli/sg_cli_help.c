/* SPDX-License-Identifier: MIT */
/* cli/: command-line parsing and help. Every command's options, the
 * SOFTGPU_* variables (sim/sg_env.def) and the configuration keys
 * (device/sg_config.def) are tables; --help, the man page and the tables of
 * the README and docs/settings.md are all printed from them here, so they
 * cannot disagree. Help text may quote `code` with backticks: kept in text
 * and Markdown, bold in the man page. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sg_cli.h"

#ifndef SG_VERSION
#define SG_VERSION "unknown"
#endif

const struct sg_cli_command *const sg_cli_commands[] = {
    &sg_cli_cmd_run,    &sg_cli_cmd_compile, &sg_cli_cmd_disasm, &sg_cli_cmd_kernel,
    &sg_cli_cmd_config, &sg_cli_cmd_presets, &sg_cli_cmd_report,
};
const unsigned sg_cli_num_commands = sizeof sg_cli_commands / sizeof sg_cli_commands[0];

const struct sg_cli_exit sg_cli_exits[] = {
    {SG_EXIT_OK, "success"},
    {SG_EXIT_BUILD, "the OpenCL C source did not build (the build log says why)"},
    {SG_EXIT_USAGE, "bad command line: unknown command or option, a missing or malformed "
                    "value, kernel arguments that do not match the kernel's signature"},
    {SG_EXIT_INPUT, "an input file is unreadable or invalid: a configuration file with an "
                    "error, a file that is not a program binary or a statistics file"},
    {SG_EXIT_DEVICE, "no SoftGPU device (library not found, invalid configuration), or the "
                     "kernel launch failed (a fatal device finding, out of resources)"},
    {SG_EXIT_RUN_FAILED, "`softgpu run` failed before starting the program; otherwise "
                         "`softgpu run` exits with the program's own status (128+N when "
                         "signal N killed it)"},
    {SG_EXIT_RUN_NOEXEC, "`softgpu run`: the program was found but could not be started"},
    {SG_EXIT_RUN_NOTFOUND, "`softgpu run`: the program was not found"},
};
const unsigned sg_cli_num_exits = sizeof sg_cli_exits / sizeof sg_cli_exits[0];

/* The options of sg_env.def, in its order. */
struct env_opt {
  const char *var, *name, *arg, *help;
};
static const struct env_opt env_opts[] = {
#define SG_ENV(name, option, arg, kind, help) {"SOFTGPU_" #name, option, arg, help},
#include "sg_env.def"
#undef SG_ENV
};

static const struct sg_cli_opt help_opt = {"help", 'h', NULL, "show this help and exit"};

const struct sg_cli_command *sg_cli_find_command(const char *name) {
  for (unsigned i = 0; i < sg_cli_num_commands; i++)
    if (strcmp(sg_cli_commands[i]->name, name) == 0)
      return sg_cli_commands[i];
  return NULL;
}

/* ---- Parsing ----------------------------------------------------------- */

void sg_cli_parser_init(struct sg_cli_parser *p, const struct sg_cli_command *cmd, int argc,
                        char **argv, bool stop_at_operand) {
  *p = (struct sg_cli_parser){cmd, argc, argv, 1, stop_at_operand, false, false};
}

/* Finds an option by long name (len bytes of name) or short letter. */
static int find_opt(const struct sg_cli_command *cmd, const char *name, size_t len, char letter,
                    const char **arg) {
  for (int i = 0; cmd->opts && cmd->opts[i].name; i++) {
    const struct sg_cli_opt *o = &cmd->opts[i];
    if (letter ? o->short_name == letter
               : strlen(o->name) == len && strncmp(o->name, name, len) == 0) {
      *arg = o->arg;
      return i;
    }
  }
  for (int v = 0; cmd->env_opts && v < SG_ENV_NUM; v++) {
    if (!letter && strlen(env_opts[v].name) == len && strncmp(env_opts[v].name, name, len) == 0) {
      *arg = env_opts[v].arg;
      return SG_CLI_ENV_OPT + v;
    }
  }
  return SG_CLI_BAD;
}

int sg_cli_next(struct sg_cli_parser *p, const char **value) {
  *value = NULL;
  if (p->done || p->next >= p->argc) {
    p->done = true;
    return SG_CLI_END;
  }
  char *a = p->argv[p->next++];
  const char *cmd = p->cmd->name;
  if (strcmp(a, "--") == 0) {
    p->done = true;
    return SG_CLI_END;
  }
  if (a[0] != '-' || a[1] == '\0') { /* an operand ("-" alone is one too) */
    if (p->stop_at_operand) {
      p->next--;
      p->done = true;
      return SG_CLI_END;
    }
    *value = a;
    return SG_CLI_ARG;
  }
  bool is_long = a[1] == '-';
  const char *name = a + (is_long ? 2 : 1);
  const char *eq = is_long ? strchr(name, '=') : NULL;
  size_t len = is_long ? (eq ? (size_t)(eq - name) : strlen(name)) : 1;
  if ((is_long && len == 4 && strncmp(name, "help", 4) == 0) || (!is_long && name[0] == 'h')) {
    p->help = p->done = true;
    return SG_CLI_END;
  }
  const char *arg;
  int id = find_opt(p->cmd, name, len, is_long ? 0 : name[0], &arg);
  if (id == SG_CLI_BAD) {
    sg_cli_error(SG_EXIT_USAGE, cmd, "unknown option '%s' (see softgpu %s --help)", a, cmd);
    return SG_CLI_BAD;
  }
  if (!arg) { /* a flag */
    if (eq || (!is_long && name[1])) {
      sg_cli_error(SG_EXIT_USAGE, cmd, "option '%.*s' takes no value", (int)(len + 1 + is_long), a);
      return SG_CLI_BAD;
    }
    return id;
  }
  if (eq)
    *value = eq + 1;
  else if (!is_long && name[1])
    *value = name + 1;
  else if (p->next < p->argc)
    *value = p->argv[p->next++];
  else {
    sg_cli_error(SG_EXIT_USAGE, cmd, "option '%s' needs a value (%s)", a, arg);
    return SG_CLI_BAD;
  }
  return id;
}

int sg_cli_parse_files(const struct sg_cli_command *cmd, int argc, char **argv,
                       const char **operands, int max, int *count, const char **output, int *rest) {
  struct sg_cli_parser p;
  sg_cli_parser_init(&p, cmd, argc, argv, false);
  const char *value;
  *count = 0;
  for (int id; (id = sg_cli_next(&p, &value)) != SG_CLI_END;) {
    if (id == SG_CLI_BAD)
      return SG_EXIT_USAGE;
    if (id != SG_CLI_ARG) { /* the one option: -o FILE */
      *output = value;
      continue;
    }
    if (*count == max)
      return sg_cli_error(SG_EXIT_USAGE, cmd->name,
                          "unexpected argument '%s' (usage: softgpu %s%s%s)", value, cmd->name,
                          *cmd->synopsis ? " " : "", cmd->synopsis);
    operands[(*count)++] = value;
  }
  if (p.help) {
    sg_cli_print_help(cmd, stdout, SG_CLI_TEXT);
    return SG_EXIT_OK;
  }
  if (rest)
    *rest = p.next;
  else if (p.next < argc)
    return sg_cli_error(SG_EXIT_USAGE, cmd->name,
                        "unexpected argument '%s' (usage: softgpu %s%s%s)", argv[p.next], cmd->name,
                        *cmd->synopsis ? " " : "", cmd->synopsis);
  return SG_CLI_GO_ON;
}

/* ---- Rendering --------------------------------------------------------- */

/* n bytes of help text in fmt. Backticks quote code. */
static void put_text_n(FILE *out, enum sg_cli_format fmt, const char *s, size_t n) {
  bool code = false;
  for (const char *start = s, *end = s + n; s < end; s++) {
    bool line_start = s == start || s[-1] == '\n'; /* roff reads "." there as a request */
    if (fmt == SG_CLI_MAN) {
      if (*s == '`') {
        fputs((code = !code) ? "\\fB" : "\\fR", out);
        continue;
      }
      if (*s == '\\')
        fputs("\\e", out);
      else if (*s == '-')
        fputs("\\-", out);
      else if ((*s == '.' || *s == '\'') && line_start)
        fprintf(out, "\\&%c", *s);
      else
        fputc(*s, out);
    } else if (fmt == SG_CLI_MARKDOWN && *s == '|') {
      fputs("\\|", out);
    } else {
      fputc(*s, out);
    }
  }
}

void sg_cli_put_text(FILE *out, enum sg_cli_format fmt, const char *s) {
  put_text_n(out, fmt, s, strlen(s));
}

/* Words of s wrapped at 80 columns, every line indented by indent (the
 * first line continues at column col). */
void sg_cli_put_wrapped(FILE *out, const char *s, int col, int indent) {
  while (*s) {
    size_t n = strcspn(s, " \n");
    if (col > indent && col + 1 + (int)n > 80) {
      fprintf(out, "\n%*s", indent, "");
      col = indent;
    } else if (col > indent) {
      fputc(' ', out);
      col++;
    }
    fwrite(s, 1, n, out);
    col += (int)n;
    s += n;
    if (*s == '\n' && s[1] == '\n') { /* a paragraph break */
      fprintf(out, "\n\n%*s", indent, "");
      col = indent;
    }
    s += strspn(s, " \n");
  }
  fputc('\n', out);
}

/* Paragraphs (separated by blank lines). */
static void put_paragraphs(FILE *out, enum sg_cli_format fmt, const char *s) {
  if (fmt == SG_CLI_TEXT) {
    sg_cli_put_wrapped(out, s, 0, 0);
    return;
  }
  while (*s) {
    const char *end = strstr(s, "\n\n");
    size_t n = end ? (size_t)(end - s) : strlen(s);
    if (fmt == SG_CLI_MAN)
      fputs(".PP\n", out);
    put_text_n(out, fmt, s, n);
    fputs(fmt == SG_CLI_MAN ? "\n" : "\n\n", out);
    s += n;
    s += strspn(s, "\n");
  }
}

static void put_option(FILE *out, enum sg_cli_format fmt, char short_name, const char *name,
                       const char *arg, const char *help, const char *var) {
  char h[96];
  if (short_name)
    snprintf(h, sizeof h, "-%c, --%s%s%s", short_name, name, arg ? " " : "", arg ? arg : "");
  else
    snprintf(h, sizeof h, "--%s%s%s", name, arg ? " " : "", arg ? arg : "");
  if (fmt == SG_CLI_TEXT) {
    fprintf(out, "  %-22s", h);
    int col = 2 + (int)(strlen(h) > 22 ? strlen(h) : 22);
    if (strlen(h) > 22) {
      fprintf(out, "\n%*s", 24, "");
      col = 24;
    }
    char text[1024];
    if (var)
      snprintf(text, sizeof text, "sets %s: %s", var, help);
    else
      snprintf(text, sizeof text, "%s", help);
    sg_cli_put_wrapped(out, text, col, 24);
  } else {
    fputs(".TP\n.B ", out);
    sg_cli_put_text(out, fmt, h);
    fputc('\n', out);
    if (var) {
      fputs("sets \\fB", out);
      sg_cli_put_text(out, fmt, var);
      fputs("\\fR: ", out);
    }
    sg_cli_put_text(out, fmt, help);
    fputc('\n', out);
  }
}

void sg_cli_print_help(const struct sg_cli_command *cmd, FILE *out, enum sg_cli_format fmt) {
  if (fmt == SG_CLI_TEXT) {
    fprintf(out, "usage: softgpu %s%s%s\n\n", cmd->name, *cmd->synopsis ? " " : "", cmd->synopsis);
    put_paragraphs(out, fmt, cmd->description);
    fputs("\noptions:\n", out);
  } else {
    fputs(".SS \"softgpu ", out);
    sg_cli_put_text(out, fmt, cmd->name);
    fputs("\"\n.B softgpu ", out);
    sg_cli_put_text(out, fmt, cmd->name);
    fputs("\n", out);
    sg_cli_put_text(out, fmt, cmd->synopsis);
    fputs("\n", out);
    put_paragraphs(out, fmt, cmd->description);
  }
  for (int i = 0; cmd->opts && cmd->opts[i].name; i++) {
    const struct sg_cli_opt *o = &cmd->opts[i];
    put_option(out, fmt, o->short_name, o->name, o->arg, o->help, NULL);
  }
  for (int v = 0; cmd->env_opts && v < SG_ENV_NUM; v++)
    put_option(out, fmt, 0, env_opts[v].name, env_opts[v].arg, env_opts[v].help, env_opts[v].var);
  if (fmt == SG_CLI_TEXT)
    put_option(out, fmt, help_opt.short_name, help_opt.name, NULL, help_opt.help, NULL);
  if (cmd->more_help) {
    if (fmt == SG_CLI_TEXT)
      fputc('\n', out);
    cmd->more_help(out, fmt);
  }
  if (fmt == SG_CLI_TEXT)
    fprintf(out, "\nExit statuses: softgpu --help.\n");
}

/* One table with a header row: Markdown for docs, aligned text otherwise. */
static void table_head(FILE *out, enum sg_cli_format fmt, const char *const *cols, int n) {
  if (fmt == SG_CLI_MARKDOWN) {
    for (int i = 0; i < n; i++)
      fprintf(out, "| %s ", cols[i]);
    fputs("|\n", out);
    for (int i = 0; i < n; i++)
      fputs("|---", out);
    fputs("|\n", out);
  }
}

void sg_cli_print_env_table(FILE *out, enum sg_cli_format fmt) {
  static const char *const cols[] = {"variable", "`softgpu run` option", "meaning"};
  table_head(out, fmt, cols, 3);
  for (int v = 0; v < SG_ENV_NUM; v++) {
    const struct env_opt *e = &env_opts[v];
    if (fmt == SG_CLI_MARKDOWN) {
      fprintf(out, "| `%s` | `--%s%s", e->var, e->name, e->arg ? " " : "");
      sg_cli_put_text(out, fmt, e->arg ? e->arg : "");
      fputs("` | ", out);
      sg_cli_put_text(out, fmt, e->help);
      fputs(" |\n", out);
    } else if (fmt == SG_CLI_MAN) {
      fprintf(out, ".TP\n.B %s\n", e->var);
      sg_cli_put_text(out, fmt, e->help);
      fprintf(out, " (\\fBsoftgpu run \\-\\-%s\\fR)\n", e->name);
    } else {
      /* Names longer than the column get a line of their own. */
      if (strlen(e->var) < 18)
        fprintf(out, "  %-18s", e->var);
      else
        fprintf(out, "  %s\n%20s", e->var, "");
      char text[1024];
      snprintf(text, sizeof text, "%s (--%s)", e->help, e->name);
      sg_cli_put_wrapped(out, text, 20, 20);
    }
  }
}

/* A key's type as users read it: the C type, or a choice key's names. */
static void key_type(const struct sg_config_key_info *k, char *buf, size_t len) {
  if (!k->choices) {
    snprintf(buf, len, "%s", k->type);
    return;
  }
  size_t at = (size_t)snprintf(buf, len, "one of");
  for (const char *c = k->choices; *c && at < len;) {
    size_t n = strcspn(c, " ");
    at += (size_t)snprintf(buf + at, len - at, "%s %.*s", c == k->choices ? "" : ",", (int)n, c);
    c += n + (c[n] == ' ');
  }
}

void sg_cli_print_key_table(FILE *out, enum sg_cli_format fmt) {
  static const char *const cols[] = {"key", "type", "default", "meaning"};
  table_head(out, fmt, cols, 4);
  for (unsigned i = 0; i < sg_config_num_keys(); i++) {
    struct sg_config_key_info k = sg_config_key(i);
    char def[64], type[128];
    sg_config_key_value(NULL, i, def, sizeof def);
    key_type(&k, type, sizeof type);
    if (fmt == SG_CLI_MARKDOWN) {
      fprintf(out, "| `%s` | %s | %s | ", k.name, type, def);
      sg_cli_put_text(out, fmt, k.help);
      fputs(" |\n", out);
    } else if (fmt == SG_CLI_MAN) {
      fprintf(out, ".TP\n.BR %s \" (%s, default %s)\"\n", k.name, type, def);
      sg_cli_put_text(out, fmt, k.help);
      fputc('\n', out);
    } else {
      fprintf(out, "  %s (%s, default %s)\n%*s", k.name, type, def, 6, "");
      sg_cli_put_wrapped(out, k.help, 6, 6);
    }
  }
}

void sg_cli_print_preset_table(FILE *out, enum sg_cli_format fmt) {
  static const char *const cols[] = {"preset", "machine"};
  table_head(out, fmt, cols, 2);
  for (unsigned i = 0; i < sg_config_num_presets(); i++) {
    struct sg_config_preset_info p = sg_config_preset(i);
    if (fmt == SG_CLI_MARKDOWN) {
      fprintf(out, "| `%s` | ", p.name);
      sg_cli_put_text(out, fmt, p.description);
      fputs(" |\n", out);
    } else if (fmt == SG_CLI_MAN) {
      fprintf(out, ".TP\n.B %s\n", p.name);
      sg_cli_put_text(out, fmt, p.description);
      fputc('\n', out);
    } else {
      fprintf(out, "  %-10s %s\n", p.name, p.description);
    }
  }
}

static void print_exits(FILE *out, enum sg_cli_format fmt) {
  for (unsigned i = 0; i < sg_cli_num_exits; i++) {
    if (fmt == SG_CLI_MAN) {
      fprintf(out, ".TP\n.B %d\n", sg_cli_exits[i].code);
      sg_cli_put_text(out, fmt, sg_cli_exits[i].meaning);
      fputc('\n', out);
    } else {
      fprintf(out, "  %3d  ", sg_cli_exits[i].code);
      sg_cli_put_wrapped(out, sg_cli_exits[i].meaning, 7, 7);
    }
  }
}

static const char intro[] =
    "SoftGPU is an OpenCL platform whose device is a simulated SIMT GPU. The softgpu command "
    "runs OpenCL host programs on it alone, builds and disassembles kernels, runs one kernel "
    "with arguments from the command line, shows machine configurations and turns statistics "
    "into a report. `softgpu CMD --help` describes each command.";

void sg_cli_print_manual(FILE *out, enum sg_cli_format fmt) {
  if (fmt == SG_CLI_TEXT) {
    fputs("usage: softgpu COMMAND [OPTIONS] [ARGS...]\n       softgpu --help | --version\n\n", out);
    put_paragraphs(out, fmt, intro);
    fputs("\ncommands:\n", out);
    for (unsigned i = 0; i < sg_cli_num_commands; i++) {
      fprintf(out, "  %-9s", sg_cli_commands[i]->name);
      sg_cli_put_wrapped(out, sg_cli_commands[i]->summary, 11, 11);
    }
    fputs("\nenvironment (set by the options of `softgpu run` and `softgpu kernel`):\n", out);
    sg_cli_print_env_table(out, fmt);
    fputs("\nexit status:\n", out);
    print_exits(out, fmt);
    return;
  }
  fprintf(out, ".TH SOFTGPU 1 \"\" \"SoftGPU %s\" \"SoftGPU Manual\"\n", SG_VERSION);
  fputs(".SH NAME\nsoftgpu \\- run, build, inspect and measure OpenCL programs on SoftGPU\n", out);
  fputs(".SH SYNOPSIS\n", out);
  for (unsigned i = 0; i < sg_cli_num_commands; i++) {
    fprintf(out, ".B softgpu %s\n", sg_cli_commands[i]->name);
    if (*sg_cli_commands[i]->synopsis) {
      sg_cli_put_text(out, fmt, sg_cli_commands[i]->synopsis);
      fputc('\n', out);
    }
    fputs(".br\n", out);
  }
  fputs(".SH DESCRIPTION\n", out);
  put_paragraphs(out, fmt, intro);
  fputs(".SH COMMANDS\n", out);
  for (unsigned i = 0; i < sg_cli_num_commands; i++)
    sg_cli_print_help(sg_cli_commands[i], out, fmt);
  fputs(".SH ENVIRONMENT\n", out);
  sg_cli_print_env_table(out, fmt);
  fputs(".SH EXIT STATUS\n", out);
  print_exits(out, fmt);
  fputs(".SH SEE ALSO\n.BR clinfo (1),\n.BR libOpenCL (7);\n"
        "/usr/share/doc/softgpu/guide.md, /usr/share/doc/softgpu/settings.md\n",
        out);
}
