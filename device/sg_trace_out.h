/* SPDX-License-Identifier: MIT */
/* device/ private: the trace file of sg_trace_out.c, as the dispatcher uses
 * it. Not part of the device/ interface. */
#ifndef SG_TRACE_OUT_H
#define SG_TRACE_OUT_H

#include <pthread.h>

#include "sg_device.h"

struct sg_trace_out {
  pthread_mutex_t lock;
  FILE *file;
  enum sg_trace_format format;
  bool first;         /* no event written yet (JSON) */
  uint64_t time_base; /* where the next launch starts on the time axis (JSON) */
  uint64_t limit, written;
  long footer;        /* JSON: where the closing text starts; -1 if not seekable */
  bool full;          /* the trace ended: later launches are not traced */
};

/* Bytes the next launch may write (0: it is not traced). */
uint64_t sg_trace_out_room(struct sg_trace_out *o);
/* Appends one launch's traces (one per host thread). */
void sg_trace_out_launch(struct sg_trace_out *o, struct sg_trace *const *traces, uint32_t count,
                         const char *kernel, uint32_t cores);

#endif
