/* SPDX-License-Identifier: MIT */
/* runtime/: kernel launches (DESIGN.md boxes "runtime/" and "ND-ranges of
 * any size"). Checks an ND-range against the spec and the kernel, picks a
 * local size when the application leaves it to us, snapshots the arguments
 * into a command and runs it on the queue's worker through sg_device_launch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sg_runtime.h"

/* ---- Local size choice -------------------------------------------------- */

static uint64_t min_u64(uint64_t a, uint64_t b) {
  return a < b ? a : b;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Work-items per group to aim for: the kernel's limit, halved (in whole
 * warps) while that leaves fewer groups than cores, so small ND-ranges still
 * spread over the machine; never below one warp. */
static uint64_t group_target(uint64_t max, const struct sg_config *cfg, uint64_t total) {
  uint64_t cap = max;
  while (cap / 2 >= cfg->warp_size && (total - 1) / cap + 1 < cfg->cores)
    cap = cap / 2 / cfg->warp_size * cfg->warp_size;
  return cap;
}

/* Any shape will do (the kernel cannot observe it, or groups may be partial):
 * fill each dimension in turn, x first, so warps are full except at the edge
 * of the ND-range. */
static void fill_shape(const uint64_t g[3], uint64_t cap, uint64_t l[3]) {
  for (int d = 0; d < 3; d++) {
    l[d] = g[d] ? min_u64(g[d], cap) : 1;
    cap /= l[d];
  }
}

/* The largest multiple of step that divides g and is at most limit; 0 if none. */
static uint64_t largest_divisor(uint64_t g, uint64_t limit, uint64_t step) {
  for (uint64_t d = min_u64(g, limit) / step * step; d >= step; d -= step)
    if (g % d == 0)
      return d;
  return 0;
}

/* One dimension of a uniform shape, in order of preference: a divisor of g
 * within cap that keeps the group a whole number of warps (unit: what this
 * dimension must be a multiple of for that); a divisor within cap that still
 * fills a warp (min_size); else the largest divisor within max, since one
 * large group beats many tiny ones. */
static uint64_t uniform_dim(uint64_t g, uint64_t cap, uint64_t max, uint64_t unit,
                            uint64_t min_size) {
  uint64_t d = largest_divisor(g, cap, unit);
  if (!d && (d = largest_divisor(g, cap, 1)) < min_size)
    d = largest_divisor(g, max, 1);
  return d ? d : 1;
}

static void uniform_shape(const uint64_t g[3], uint64_t cap, uint64_t max, uint32_t warp,
                          uint64_t l[3]) {
  uint64_t prod = 1;
  for (int d = 0; d < 3; d++) {
    uint64_t unit = warp / gcd_u64(prod, warp);
    uint64_t fill = (warp + prod - 1) / prod;
    l[d] = g[d] ? uniform_dim(g[d], cap / prod, max / prod, unit, fill) : 1;
    prod *= l[d];
  }
}

/* local_work_size NULL: the reqd_work_group_size if the kernel has one; full
 * groups with a masked tail if the kernel cannot observe its group shape; a
 * shape dividing the global size for uniform programs; else a filled shape
 * whose last groups are partial. */
static void choose_local(cl_kernel k, const struct sg_config *cfg, uint64_t max, bool uniform,
                         struct sg_ndrange *nd) {
  const struct sg_kernel_info *info = k->info;
  const uint64_t *g = nd->global_size;
  uint64_t total = g[0];
  for (int d = 1; d < 3; d++) /* saturating: only compared with cores * max */
    total = total > UINT64_MAX / g[d] ? UINT64_MAX : total * g[d];
  /* The loader refuses zero or wrapping sizes; still, nothing below may
   * divide by a zero size whatever the metadata says. */
  const uint32_t *reqd = info->reqd_work_group_size;
  bool has_reqd = reqd[0] && reqd[1] && reqd[2];
  max = max ? max : 1;
  uint64_t cap = group_target(max, cfg, total);
  if (has_reqd) {
    for (int d = 0; d < 3; d++)
      nd->local_size[d] = reqd[d];
  } else if (!(info->uses & SG_USES_LOCAL_SHAPE)) {
    fill_shape(g, cap, nd->local_size);
    return; /* partial_groups stays false: the tail is masked */
  } else if (uniform) {
    uniform_shape(g, cap, max, cfg->warp_size, nd->local_size);
  } else {
    fill_shape(g, cap, nd->local_size);
  }
  for (int d = 0; d < 3; d++) {
    nd->local_size[d] = nd->local_size[d] ? nd->local_size[d] : 1;
    nd->partial_groups |= g[d] % nd->local_size[d] != 0;
  }
}

/* ---- ND-range checks ---------------------------------------------------- */

struct device_limits {
  size_t item_sizes[3]; /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
  cl_uint addr_align;   /* CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes */
};

/* The device's own answers, so the checks agree with what it reports. */
static cl_int device_limits(cl_device_id dev, struct device_limits *lim) {
  cl_uint bits = 0;
  cl_int err = clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof lim->item_sizes,
                               lim->item_sizes, NULL);
  if (err == CL_SUCCESS)
    err = clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
  lim->addr_align = bits / 8 ? bits / 8 : 1;
  return err;
}

/* The largest work-group to choose for NULL local_work_size: the kernel's
 * limit, and no more work-items than the private stack window holds (an
 * explicit larger local size is CL_OUT_OF_RESOURCES, see make_ndrange). */
static uint64_t local_size_limit(cl_kernel k, cl_device_id dev) {
  uint64_t max = sg_kernel_max_work_group_size(k, dev);
  uint64_t fit = sg_device_private_max_items(&dev->config, k->info);
  return fit < max ? (fit ? fit : 1) : max;
}

/* A user-given local size, in the spec's order of checks. */
static cl_int check_local(cl_kernel k, cl_device_id dev, const struct device_limits *lim,
                          bool uniform, cl_uint dim, const size_t *lws, struct sg_ndrange *nd) {
  cl_int err = CL_SUCCESS;
  const uint32_t *reqd = k->info->reqd_work_group_size;
  uint64_t total = 1;
  for (cl_uint d = 0; d < dim; d++) {
    SG_CHECK(lws[d] > 0, CL_INVALID_WORK_GROUP_SIZE, "local_work_size[%u] is 0", d);
    nd->local_size[d] = lws[d];
    total *= lws[d] < UINT32_MAX ? lws[d] : UINT32_MAX;
  }
  for (cl_uint d = 0; reqd[0] && d < 3; d++)
    SG_CHECK(nd->local_size[d] == reqd[d], CL_INVALID_WORK_GROUP_SIZE,
             "local size (%llu,%llu,%llu) differs from reqd_work_group_size(%u,%u,%u)",
             (unsigned long long)nd->local_size[0], (unsigned long long)nd->local_size[1],
             (unsigned long long)nd->local_size[2], reqd[0], reqd[1], reqd[2]);
  size_t max = sg_kernel_max_work_group_size(k, dev);
  SG_CHECK(total <= max, CL_INVALID_WORK_GROUP_SIZE,
           "work-group of %llu work-items; the kernel allows at most %zu",
           (unsigned long long)total, max);
  for (cl_uint d = 0; d < dim; d++) {
    bool divides = nd->global_size[d] % lws[d] == 0;
    SG_CHECK(divides || !uniform, CL_INVALID_WORK_GROUP_SIZE,
             "global size %llu is not a multiple of local size %zu in dimension %u "
             "(uniform work-groups: OpenCL C 1.x or -cl-uniform-work-group-size)",
             (unsigned long long)nd->global_size[d], lws[d], d);
    nd->partial_groups |= !divides;
  }
  for (cl_uint d = 0; d < dim; d++)
    SG_CHECK(lws[d] <= lim->item_sizes[d], CL_INVALID_WORK_ITEM_SIZE,
             "local_work_size[%u] = %zu exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES[%u] = %zu", d, lws[d],
             d, lim->item_sizes[d]);
fail:
  return err;
}

/* Fills *nd from the enqueue arguments; *empty when global_work_size is NULL
 * or some global size is 0 (OpenCL 2.1+: the command does nothing but still
 * completes in order; CL_INVALID_GLOBAL_WORK_SIZE there was 2.0's rule). */
static cl_int make_ndrange(cl_kernel k, cl_device_id dev, cl_uint dim, const size_t *off,
                           const size_t *gws, const size_t *lws, struct sg_ndrange *nd,
                           bool *empty) {
  cl_int err = CL_SUCCESS;
  struct device_limits lim;
  bool uniform = k->program->image->uniform_work_group;
  *nd = (struct sg_ndrange){.work_dim = dim, .global_size = {1, 1, 1}, .local_size = {1, 1, 1}};
  SG_CHECK(dim >= 1 && dim <= 3, CL_INVALID_WORK_DIMENSION, "work_dim %u is not 1, 2 or 3", dim);
  *empty = !gws;
  for (cl_uint d = 0; d < dim && gws; d++) {
    nd->global_size[d] = gws[d];
    nd->global_offset[d] = off ? off[d] : 0;
    *empty |= gws[d] == 0;
    SG_CHECK(!off || off[d] <= SIZE_MAX - gws[d], CL_INVALID_GLOBAL_OFFSET,
             "global_work_offset[%u] + global_work_size[%u] overflows size_t", d, d);
  }
  if ((err = device_limits(dev, &lim)) != CL_SUCCESS)
    goto fail;
  if (lws)
    err = check_local(k, dev, &lim, uniform && !*empty, dim, lws, nd);
  else if (!*empty)
    choose_local(k, &dev->config, local_size_limit(k, dev), uniform, nd);
  if (err != CL_SUCCESS)
    goto fail;
  for (cl_uint d = 0; d < dim && !*empty; d++)
    SG_CHECK((nd->global_size[d] - 1) / nd->local_size[d] < UINT32_MAX, CL_INVALID_GLOBAL_WORK_SIZE,
             "global_work_size[%u] = %zu needs more than 2^32 - 1 work-groups", d, gws[d]);
  uint64_t groups = 1;
  for (cl_uint d = 0; d < dim && !*empty; d++) {
    uint64_t g = (nd->global_size[d] - 1) / nd->local_size[d] + 1;
    SG_CHECK(!__builtin_mul_overflow(groups, g, &groups), CL_INVALID_GLOBAL_WORK_SIZE,
             "the ND-range has 2^64 or more work-groups in all");
  }
  SG_CHECK(!uniform || !nd->partial_groups, CL_INVALID_WORK_GROUP_SIZE,
           "the global size is not a multiple of reqd_work_group_size(%u,%u,%u) "
           "(uniform work-groups: OpenCL C 1.x or -cl-uniform-work-group-size)",
           k->info->reqd_work_group_size[0], k->info->reqd_work_group_size[1],
           k->info->reqd_work_group_size[2]);
  for (uint32_t i = 0; i < k->info->num_args; i++) {
    cl_mem m = k->arg_mems[i];
    SG_CHECK(!m || !m->parent || m->offset % lim.addr_align == 0, CL_MISALIGNED_SUB_BUFFER_OFFSET,
             "argument %u is a sub-buffer at offset %zu, not a multiple of %u bytes", i,
             m ? m->offset : 0, lim.addr_align);
  }
  cl_ulong local = sg_device_local_mem_size(k->info, k->args);
  SG_CHECK(local <= dev->config.local_mem_per_core, CL_OUT_OF_RESOURCES,
           "kernel %s needs %llu bytes of local memory; the device has %llu", k->info->name,
           (unsigned long long)local, (unsigned long long)dev->config.local_mem_per_core);
  uint64_t items = nd->local_size[0] * nd->local_size[1] * nd->local_size[2];
  uint64_t fit = sg_device_private_max_items(&dev->config, k->info);
  SG_CHECK(*empty || items <= fit, CL_OUT_OF_RESOURCES,
           "kernel %s needs %llu bytes of private memory per work-item: a work-group of %llu "
           "needs more than the device's %llu-byte private stack window (at most %llu "
           "work-items fit)",
           k->info->name, (unsigned long long)sg_device_private_size(&dev->config, k->info),
           (unsigned long long)items, (unsigned long long)SG_STACK_WINDOW,
           (unsigned long long)fit);
fail:
  return err;
}

/* ---- The command -------------------------------------------------------- */

/* What a launch needs after the enqueue returns: the kernel (held), its
 * arguments as they were at the enqueue, the buffers (held). */
struct launch_cmd {
  cl_kernel kernel;
  cl_device_id device;
  bool empty;
  struct sg_launch launch;
  struct sg_arg_value *args;
  struct sg_buffer *bufs;
  cl_mem *mems;
  uint8_t *values;
};

static void launch_free(struct sg_command *cmd) {
  struct launch_cmd *c = cmd->payload;
  if (!c)
    return;
  for (uint32_t i = 0; c->mems && i < c->kernel->info->num_args; i++)
    if (c->mems[i])
      sg_release_internal(c->mems[i]);
  sg_release_internal(c->kernel);
  free(c->args);
  free(c->bufs);
  free(c->mems);
  free(c->values);
  free(c);
}

/* Faults and findings are the application's bug, not SoftGPU's: one line
 * each on stderr and to the context's callback. */
static void report_failure(cl_context ctx, const char *message) {
  fprintf(stderr, "SoftGPU: %s\n", message);
  if (ctx->notify)
    ctx->notify(message, NULL, 0, ctx->notify_data);
}

/* The findings of a launch that went on (sg_launch_result.report), a line
 * at a time; the event still completes. */
static void report_findings(cl_context ctx, char *report) {
  for (char *line = report; line && *line;) {
    size_t n = strcspn(line, "\n");
    bool more = line[n] != 0;
    line[n] = 0;
    report_failure(ctx, line);
    line += n + more;
  }
}

/* A kernel that calls printf gets a buffer of CL_DEVICE_PRINTF_BUFFER_SIZE
 * for this launch; its output reaches stdout before the command completes,
 * also when the launch faults (what was printed before helps find why). */
static enum sg_status launch_with_printf(struct launch_cmd *c, struct sg_launch_result *res) {
  struct sg_device *dev = c->device->machine;
  if (!(c->kernel->info->uses & SG_USES_PRINTF))
    return sg_device_launch(dev, &c->launch, res);
  uint64_t size = c->device->config.printf_buffer_size;
  struct sg_buffer buf = {.addr = sg_device_alloc_address(dev, size), .size = size,
                          .host = malloc(size)};
  if (!buf.host || !buf.addr) {
    free(buf.host);
    snprintf(res->message, sizeof res->message, "kernel %s: no memory for its printf buffer",
             c->kernel->info->name);
    return SG_ENOMEM;
  }
  c->launch.printf_buffer = &buf;
  enum sg_status st = sg_device_launch(dev, &c->launch, res);
  c->launch.printf_buffer = NULL;
  sg_printf_flush(c->kernel->program->image, c->kernel->info->name, buf.host, size,
                  res->printf_used, res->printf_dropped, stdout);
  free(buf.host);
  return st;
}

static cl_int launch_run(struct sg_command *cmd) {
  struct launch_cmd *c = cmd->payload;
  struct sg_launch_result res;
  if (c->empty)
    return CL_SUCCESS;
  memset(&res, 0, sizeof res);
  cl_ulong t0 = sg_now_ns();
  c->launch.stats = sg_stats_wanted();
  c->launch.trace = sg_trace_file(&c->device->config);
  enum sg_status st = launch_with_printf(c, &res);
  sg_stats_report(c->kernel->info->name, &c->device->config, &c->launch.nd, &res,
                  sg_now_ns() - t0, st);
  if (res.timed)
    cmd->event->device_ns = res.device_ns;
  report_findings(c->kernel->program->context, res.report);
  sg_launch_result_free(&res);
  if (st == SG_OK)
    return CL_SUCCESS;
  if (!res.message[0])
    snprintf(res.message, sizeof res.message, "kernel %s: launch failed (status %d)",
             c->kernel->info->name, (int)st);
  report_failure(c->kernel->program->context, res.message);
  return st == SG_ENOMEM ? CL_OUT_OF_HOST_MEMORY : CL_OUT_OF_RESOURCES;
}

/* Copies the kernel's current arguments into c: later clSetKernelArg calls
 * do not affect this launch. Buffers bound to __constant arguments or made
 * CL_MEM_READ_ONLY are read-only to the kernel. */
static cl_int snapshot_args(cl_kernel k, struct launch_cmd *c) {
  cl_int err = CL_SUCCESS;
  const struct sg_kernel_info *info = k->info;
  uint32_t n = info->num_args;
  c->args = calloc(n + 1, sizeof *c->args);
  c->bufs = calloc(n + 1, sizeof *c->bufs);
  c->mems = calloc(n + 1, sizeof *c->mems);
  c->values = malloc(info->args_size + 1);
  SG_CHECK(c->args && c->bufs && c->mems && c->values, CL_OUT_OF_HOST_MEMORY, "no memory");
  memcpy(c->values, k->values, info->args_size);
  for (uint32_t i = 0; i < n; i++) {
    const struct sg_kernel_arg *a = &info->args[i];
    c->args[i].local_size = k->args[i].local_size;
    if (a->kind == SG_ARG_VALUE || a->kind == SG_ARG_SAMPLER)
      c->args[i].bytes = c->values + a->offset;
    if (!k->arg_mems[i])
      continue;
    c->mems[i] = k->arg_mems[i];
    sg_retain_internal(c->mems[i]);
    c->bufs[i] = c->mems[i]->buf;
    c->bufs[i].read_only |= a->kind == SG_ARG_CONSTANT ||
                            (c->mems[i]->flags & CL_MEM_READ_ONLY) != 0 ||
                            a->access_qualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY;
    c->bufs[i].write_only |= (c->mems[i]->flags & CL_MEM_WRITE_ONLY) != 0;
    c->args[i].buffer = &c->bufs[i];
    /* The image's descriptor lives in the held cl_mem, as long as c does. */
    c->args[i].image = a->kind == SG_ARG_IMAGE ? &c->mems[i]->tex : NULL;
  }
fail:
  return err;
}

/* The checks of clEnqueueNDRangeKernel in the spec's order, then the
 * command. */
static cl_int enqueue_kernel(cl_command_type type, cl_command_queue q, cl_kernel k, cl_uint dim,
                             const size_t *off, const size_t *gws, const size_t *lws,
                             cl_uint num_waits, const cl_event *waits, cl_event *event) {
  cl_int err = CL_SUCCESS;
  struct sg_command *cmd = NULL;
  struct launch_cmd *c = NULL;
  SG_CHECK(sg_valid(q, SG_KIND_QUEUE), CL_INVALID_COMMAND_QUEUE, "command_queue is not valid");
  SG_CHECK(sg_valid(k, SG_KIND_KERNEL), CL_INVALID_KERNEL, "kernel is not valid");
  SG_CHECK(q->context == k->program->context, CL_INVALID_CONTEXT,
           "the queue and the kernel belong to different contexts");
  SG_CHECK(k->program->image, CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built");
  for (uint32_t i = 0; i < k->info->num_args; i++) {
    SG_CHECK(k->arg_set[i], CL_INVALID_KERNEL_ARGS, "argument %u of kernel %s is not set", i,
             k->info->name);
    SG_CHECK(!k->arg_mems[i] || sg_valid(k->arg_mems[i], SG_KIND_MEM), CL_INVALID_KERNEL_ARGS,
             "argument %u of kernel %s is a buffer the application released", i, k->info->name);
  }
  cmd = calloc(1, sizeof *cmd);
  c = calloc(1, sizeof *c);
  SG_CHECK(cmd && c, CL_OUT_OF_HOST_MEMORY, "no memory");
  bool empty = false;
  if ((err = make_ndrange(k, q->device, dim, off, gws, lws, &c->launch.nd, &empty)) != CL_SUCCESS)
    goto fail;
  c->kernel = k;
  sg_retain_internal(k);
  c->device = q->device;
  c->empty = empty;
  cmd->type = type;
  cmd->run = launch_run;
  cmd->free = launch_free;
  cmd->payload = c;
  c = NULL; /* freed with cmd from here on */
  struct launch_cmd *p = cmd->payload;
  if ((err = snapshot_args(k, p)) != CL_SUCCESS)
    goto fail;
  p->launch.program = k->program->image;
  p->launch.kernel = k->info;
  p->launch.args = p->args;
  /* sg_queue_submit owns cmd from here, also on failure. */
  return sg_queue_submit(q, cmd, num_waits, waits, event, false);
fail:
  if (cmd && cmd->free)
    cmd->free(cmd);
  free(cmd);
  free(c);
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(
    cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size, const size_t *local_work_size,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return enqueue_kernel(CL_COMMAND_NDRANGE_KERNEL, command_queue, kernel, work_dim,
                        global_work_offset, global_work_size, local_work_size,
                        num_events_in_wait_list, event_wait_list, event);
}

/* A task is a one-work-item ND-range (OpenCL 1.2, 5.8). */
CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  static const size_t one[1] = {1};
  return enqueue_kernel(CL_COMMAND_TASK, command_queue, kernel, 1, NULL, one, one,
                        num_events_in_wait_list, event_wait_list, event);
}
