/* SPDX-License-Identifier: MIT */
/* libFuzzer target: clBuildProgram / clCompileProgram options (the input as
 * one string). The parser must accept them or name the option, and what it
 * accepts must be words clang can take from a response file. */
#include <stdlib.h>
#include <string.h>

#include "sg_cc_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *s = malloc(size + 1);
  memcpy(s, data, size);
  s[size] = 0;
  struct sg_options opt;
  struct sg_text log = {0};
  enum sg_status st = sg_cc_parse_options(s, &opt, &log);
  if (st == SG_OK) {
    if (opt.cl_c_version < 100 || opt.cl_c_version > 300)
      abort();
    for (uint32_t i = 0; i < opt.num_clang_args; i++)
      if (!opt.clang_args[i] || strpbrk(opt.clang_args[i], "\n\r"))
        abort(); /* a line break would end a -D definition early */
    sg_cc_options_free(&opt);
  } else if (st != SG_EOPTIONS || !log.buf) {
    abort();
  }
  free(log.buf);
  free(s);
  return 0;
}
