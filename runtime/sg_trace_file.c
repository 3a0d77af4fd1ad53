/* SPDX-License-Identifier: MIT */
/* runtime/: SOFTGPU_TRACE (DESIGN.md section 4, traces). The variable names
 * the file every launch of the process appends its trace to: a text trace,
 * or a Chrome / Perfetto trace-event JSON when the name ends in ".json". */
#include <stdio.h>
#include <stdlib.h>

#include "sg_runtime.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool tried;
static struct sg_trace_out *file;

struct sg_trace_out *sg_trace_file(const struct sg_config *cfg) {
  pthread_mutex_lock(&lock);
  if (!tried) {
    tried = true;
    const char *path = sg_env_get(SG_ENV_TRACE);
    char err[256];
    if (path && *path && !(file = sg_trace_out_open(path, cfg->trace_limit, err, sizeof err)))
      fprintf(stderr, "SoftGPU: SOFTGPU_TRACE: %s; kernels run without a trace\n", err);
  }
  pthread_mutex_unlock(&lock);
  return file;
}
