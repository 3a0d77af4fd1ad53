/* SPDX-License-Identifier: MIT */
/* DESIGN.md 4, "traces go to a text trace or a Chrome/Perfetto trace file":
 * the file that launches append their traces to. A JSON trace stays one
 * valid document after every launch: the events of a launch overwrite the
 * closing text, which is written again after them. The file holds at most
 * `limit` bytes of events; the launch that would pass it is cut at its last
 * whole work-group and no later launch is traced. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sg_device.h"
#include "sg_trace_out.h"

static const char json_head[] =
    "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"SoftGPU\",\"time\":"
    "\"functional mode: one unit per warp instruction, each core running its work-groups in "
    "order; timing mode: one unit per cycle\"},\n\"traceEvents\":[";
static const char json_tail[] = "\n]}\n";

struct sg_trace_out *sg_trace_out_open(const char *path, uint64_t limit, char *err,
                                       size_t errlen) {
  struct sg_trace_out *o = calloc(1, sizeof *o);
  size_t n = strlen(path);
  if (!o) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  o->format = n > 5 && !strcmp(path + n - 5, ".json") ? SG_TRACE_JSON : SG_TRACE_TEXT;
  o->file = fopen(path, "w");
  if (!o->file) {
    snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
    free(o);
    return NULL;
  }
  pthread_mutex_init(&o->lock, NULL);
  o->limit = limit;
  o->first = true;
  o->footer = -1;
  if (o->format == SG_TRACE_JSON) {
    fputs(json_head, o->file);
    o->footer = ftell(o->file);
    fputs(json_tail, o->file);
    fflush(o->file);
  }
  return o;
}

void sg_trace_out_close(struct sg_trace_out *o) {
  if (!o)
    return;
  fclose(o->file);
  pthread_mutex_destroy(&o->lock);
  free(o);
}

uint64_t sg_trace_out_room(struct sg_trace_out *o) {
  pthread_mutex_lock(&o->lock);
  uint64_t room = o->full ? 0 : o->limit - o->written;
  pthread_mutex_unlock(&o->lock);
  return room;
}

void sg_trace_out_launch(struct sg_trace_out *o, struct sg_trace *const *traces, uint32_t count,
                         const char *kernel, uint32_t cores) {
  pthread_mutex_lock(&o->lock);
  if (o->full) {
    pthread_mutex_unlock(&o->lock);
    return;
  }
  bool json = o->format == SG_TRACE_JSON, cut = false;
  /* A JSON file that cannot be rewound (a pipe) gets its closing text only
   * once: the trace then ends with this launch. */
  if (json && (o->footer < 0 || fseek(o->file, o->footer, SEEK_SET) != 0))
    o->full = true;
  o->written += sg_trace_write(traces, count, kernel, o->format, cores, o->limit - o->written,
                               &o->first, &o->time_base, o->file, &cut);
  if (json) {
    o->footer = ftell(o->file);
    fputs(json_tail, o->file);
  }
  if (fflush(o->file) != 0 || ferror(o->file)) {
    fprintf(stderr, "SoftGPU: SOFTGPU_TRACE: writing the trace failed; no more launches are "
                    "traced\n");
    o->full = true;
  } else if (cut) {
    fprintf(stderr,
            "SoftGPU: SOFTGPU_TRACE: the trace of kernel '%s' was cut at its last whole "
            "work-group (trace_limit: %llu bytes); later launches are not traced\n",
            kernel, (unsigned long long)o->limit);
    o->full = true;
  }
  pthread_mutex_unlock(&o->lock);
}
