/* SPDX-License-Identifier: MIT */
/* cli/: what every subcommand uses: one-line errors, whole-file reads and
 * writes, numbers from the command line. */
#include <CL/cl.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sg_cli.h"

int sg_cli_error(int code, const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "softgpu%s%s: ", cmd ? " " : "", cmd ? cmd : "");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return code;
}

char *sg_cli_read_file(const char *path, size_t max, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n > max) {
      free(buf);
      fclose(f);
      errno = EFBIG;
      return NULL;
    }
    if (got == 0)
      break;
    if (n == cap) {
      cap *= 2;
      char *bigger = realloc(buf, cap + 1);
      if (!bigger)
        free(buf);
      buf = bigger;
    }
  }
  int bad = !buf || ferror(f);
  int saved = ferror(f) ? EIO : ENOMEM;
  fclose(f);
  if (bad) {
    free(buf);
    errno = saved;
    return NULL;
  }
  buf[n] = '\0';
  if (size)
    *size = n;
  return buf;
}

bool sg_cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out) {
  if (!s || *s < '0' || *s > '9')
    return false;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v < min || v > max)
    return false;
  *out = v;
  return true;
}

bool sg_cli_write_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  bool ok = fwrite(data, 1, size, f) == size;
  return fclose(f) == 0 && ok;
}

static const char *address_space(unsigned q) {
  switch (q) {
  case CL_KERNEL_ARG_ADDRESS_GLOBAL: return "__global ";
  case CL_KERNEL_ARG_ADDRESS_LOCAL: return "__local ";
  case CL_KERNEL_ARG_ADDRESS_CONSTANT: return "__constant ";
  default: return "";
  }
}

static const char *access_qualifier(unsigned q) {
  switch (q) {
  case CL_KERNEL_ARG_ACCESS_READ_ONLY: return "__read_only ";
  case CL_KERNEL_ARG_ACCESS_WRITE_ONLY: return "__write_only ";
  case CL_KERNEL_ARG_ACCESS_READ_WRITE: return "__read_write ";
  default: return "";
  }
}

void sg_cli_param_text(char *buf, size_t len, unsigned address, unsigned access, uint64_t type_qual,
                       const char *type_name, const char *name) {
  size_t n = strlen(type_name);
  bool pointer = n && type_name[n - 1] == '*';
  snprintf(buf, len, "%s%s%s%s%.*s%s%s%s", address_space(address), access_qualifier(access),
           type_qual & CL_KERNEL_ARG_TYPE_CONST ? "const " : "",
           type_qual & CL_KERNEL_ARG_TYPE_VOLATILE ? "volatile " : "", (int)(pointer ? n - 1 : n),
           type_name,
           pointer ? (*name || type_qual & CL_KERNEL_ARG_TYPE_RESTRICT ? " *" : "*")
                   : (*name ? " " : ""),
           type_qual & CL_KERNEL_ARG_TYPE_RESTRICT ? (*name ? "restrict " : "restrict") : "", name);
}
