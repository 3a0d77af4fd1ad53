/* SPDX-License-Identifier: MIT */
/* runtime/: per-launch statistics (DESIGN.md box "Statistics per launch go to
 * a JSON file on request"). SOFTGPU_STATS=1 or stderr prints each launch's
 * line on stderr; any other value names a file that gets one JSON object per
 * launch appended, so runs of several programs can share it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sg_runtime.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const char *target; /* NULL: statistics off */

static void read_env(void) {
  const char *v = sg_env_get(SG_ENV_STATS);
  target = v && v[0] && strcmp(v, "0") != 0 ? v : NULL;
}

static const char *status_name(enum sg_status st) {
  switch (st) {
  case SG_OK: return "ok";
  case SG_EFAULT: return "fault";
  case SG_ERESOURCES: return "out of resources";
  case SG_ENOMEM: return "out of memory";
  default: return "error";
  }
}

/* Kernel names are C identifiers, but a binary may carry anything: keep the
 * line valid JSON. */
static void put_json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

static void put_triple(FILE *f, const char *key, const uint64_t v[3], uint32_t dim) {
  fprintf(f, ",\"%s\":[", key);
  for (uint32_t d = 0; d < dim; d++)
    fprintf(f, "%s%llu", d ? "," : "", (unsigned long long)v[d]);
  fputc(']', f);
}

static void put_line(FILE *f, const char *kernel, const struct sg_config *cfg,
                     const struct sg_ndrange *nd, const struct sg_launch_result *res,
                     cl_ulong host_ns, enum sg_status st) {
  uint64_t grid[3];
  sg_ndrange_grid(nd, grid);
  fputs("{\"kernel\":", f);
  put_json_string(f, kernel);
  fprintf(f, ",\"status\":\"%s\",\"work_dim\":%u", status_name(st), nd->work_dim);
  put_triple(f, "global_offset", nd->global_offset, nd->work_dim);
  put_triple(f, "global_size", nd->global_size, nd->work_dim);
  put_triple(f, "local_size", nd->local_size, nd->work_dim);
  put_triple(f, "grid", grid, nd->work_dim);
  fprintf(f, ",\"partial_groups\":%s,\"mode\":\"%s\",\"reconv\":\"%s\",",
          nd->partial_groups ? "true" : "false", res->timed ? "timing" : "functional",
          sg_reconv_policy_name((enum sg_reconv_policy)cfg->reconv));
  sg_stats_print_json(&res->stats, f);
  if (res->timed) {
    fprintf(f, ",\"sched\":\"%s\",\"device_time_ns\":%llu,", sg_sched_policy_name(cfg->sched),
            (unsigned long long)res->device_ns);
    sg_timing_result_print_json(&res->timing, f);
  }
  if (res->timed) /* host measurements last: the rest does not depend on the host */
    fprintf(f, ",\"host_cpu_ns\":%llu", (unsigned long long)res->timing.host_cpu_ns);
  fprintf(f, ",\"host_time_ns\":%llu}\n", (unsigned long long)host_ns);
}

bool sg_stats_wanted(void) {
  pthread_once(&once, read_env);
  return target != NULL;
}

void sg_stats_report(const char *kernel, const struct sg_config *cfg, const struct sg_ndrange *nd,
                     const struct sg_launch_result *res, cl_ulong host_ns, enum sg_status status) {
  if (!sg_stats_wanted())
    return;
  bool to_stderr = strcmp(target, "1") == 0 || strcmp(target, "stderr") == 0;
  pthread_mutex_lock(&lock);
  FILE *f = to_stderr ? stderr : fopen(target, "a");
  if (!f) {
    fprintf(stderr, "SoftGPU: SOFTGPU_STATS: cannot open %s for appending\n", target);
  } else {
    if (to_stderr)
      fputs("SoftGPU: stats ", f);
    put_line(f, kernel, cfg, nd, res, host_ns, status);
    if (to_stderr)
      fflush(f);
    else
      fclose(f);
  }
  pthread_mutex_unlock(&lock);
}
