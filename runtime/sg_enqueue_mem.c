/* SPDX-License-Identifier: MIT */
/* runtime/ memory commands (DESIGN.md 5): buffers (read, write, copy and
 * fill, plain and rectangular), images (read, write, copy, fill, and copies
 * to and from buffers), map and unmap, migrate. Every transfer is one
 * mechanism: a 3-D box copied row by row between two pitched byte ranges;
 * an image is a box of texels whose rows and slices have its pitches. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sg_runtime.h"

struct xfer {
  cl_mem mems[2]; /* held internally until the command is done */
  uint8_t *dst;
  const uint8_t *src;                /* NULL for a fill */
  size_t region[3];                  /* bytes, rows, slices */
  size_t dst_pitch[2], src_pitch[2]; /* row, slice */
  size_t pattern_size;
  uint8_t pattern[128];
};

static cl_int run_copy(struct sg_command *cmd) {
  const struct xfer *x = cmd->payload;
  for (size_t z = 0; z < x->region[2]; z++)
    for (size_t y = 0; y < x->region[1]; y++)
      memmove(x->dst + z * x->dst_pitch[1] + y * x->dst_pitch[0],
              x->src + z * x->src_pitch[1] + y * x->src_pitch[0], x->region[0]);
  return CL_SUCCESS;
}

/* Fills a box of region[0] bytes x region[1] rows x region[2] slices (a
 * buffer fill is one row) with the pattern. */
static cl_int run_fill(struct sg_command *cmd) {
  const struct xfer *x = cmd->payload;
  for (size_t z = 0; z < x->region[2]; z++)
    for (size_t y = 0; y < x->region[1]; y++) {
      uint8_t *row = x->dst + z * x->dst_pitch[1] + y * x->dst_pitch[0];
      for (size_t i = 0; i < x->region[0]; i += x->pattern_size)
        memcpy(row + i, x->pattern, x->pattern_size);
    }
  return CL_SUCCESS;
}

static void xfer_free(struct sg_command *cmd) {
  struct xfer *x = cmd->payload;
  for (int i = 0; i < 2; i++)
    if (x->mems[i])
      sg_release_internal(x->mems[i]);
  free(x);
}

/* Wraps x (which must come from calloc) in a command and submits it. */
static cl_int submit(cl_command_queue q, cl_command_type type, cl_int (*run)(struct sg_command *),
                     struct xfer *x, cl_uint num_waits, const cl_event *waits, cl_event *event,
                     bool blocking) {
  struct sg_command *cmd = calloc(1, sizeof *cmd);
  if (!cmd) {
    free(x);
    return CL_OUT_OF_HOST_MEMORY;
  }
  for (int i = 0; i < 2; i++)
    if (x->mems[i])
      sg_retain_internal(x->mems[i]);
  *cmd = (struct sg_command){.type = type, .run = run, .free = xfer_free, .payload = x};
  return sg_queue_submit(q, cmd, num_waits, waits, event, blocking);
}

static struct xfer *xfer_new(cl_mem a, cl_mem b) {
  struct xfer *x = calloc(1, sizeof *x);
  if (x) {
    x->mems[0] = a;
    x->mems[1] = b;
  }
  return x;
}

/* What a command takes: any memory object, a buffer or an image. */
enum want { ANY_MEM, BUFFER, IMAGE };

/* The checks every memory command starts with (the queue is checked once
 * per command: q may be checked again for a second object). */
static cl_int check_queue_mem(const char *api, cl_command_queue q, cl_mem m, enum want want) {
  cl_int err = CL_SUCCESS;
  static const char *const what[] = {"memory", "buffer", "image"};
  SG_CHECK(sg_valid(q, SG_KIND_QUEUE), CL_INVALID_COMMAND_QUEUE,
           "%s: command_queue is not a valid queue", api);
  SG_CHECK(sg_valid(m, SG_KIND_MEM) && (want == ANY_MEM || sg_is_image(m) == (want == IMAGE)),
           CL_INVALID_MEM_OBJECT, "%s: not a valid %s object", api, what[want]);
  SG_CHECK(m->context == q->context, CL_INVALID_CONTEXT,
           "%s: the %s and the queue have different contexts", api, what[want]);
fail:
  return err;
}

static bool in_bounds(size_t offset, size_t size, size_t total) {
  return offset <= total && size <= total - offset;
}

/* Resolves 0 pitches to tight ones and checks them (5.2.3); *offset and
 * *extent are the box's first byte and the bytes up to its end. */
static cl_int rect_layout(const size_t origin[3], const size_t region[3], size_t pitch[2],
                          size_t *offset, size_t *extent) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(region[0] && region[1] && region[2], CL_INVALID_VALUE, "a region element is 0");
  if (!pitch[0])
    pitch[0] = region[0];
  SG_CHECK(pitch[0] >= region[0], CL_INVALID_VALUE, "row pitch %zu is less than region[0] %zu",
           pitch[0], region[0]);
  size_t plane;
  SG_CHECK(!__builtin_mul_overflow(region[1], pitch[0], &plane), CL_INVALID_VALUE,
           "region too large");
  if (!pitch[1])
    pitch[1] = plane;
  SG_CHECK(pitch[1] >= plane && pitch[1] % pitch[0] == 0, CL_INVALID_VALUE,
           "slice pitch %zu is less than region[1] * row pitch or not a multiple of the row pitch",
           pitch[1]);
  size_t a, b, last;
  bool ovf =
      __builtin_mul_overflow(origin[2], pitch[1], &a) ||
      __builtin_mul_overflow(origin[1], pitch[0], &b) || __builtin_add_overflow(a, b, offset) ||
      __builtin_add_overflow(*offset, origin[0], offset) ||
      __builtin_mul_overflow(region[2] - 1, pitch[1], &a) ||
      __builtin_mul_overflow(region[1] - 1, pitch[0], &b) || __builtin_add_overflow(a, b, &last) ||
      __builtin_add_overflow(last, region[0], extent) ||
      __builtin_add_overflow(*extent, *offset, &last);
  SG_CHECK(!ovf, CL_INVALID_VALUE, "origin and region overflow");
fail:
  return err;
}

/* Read or write between a buffer box and a host box. 1-D calls use a box of
 * one row, so a size of 0 is CL_INVALID_VALUE for them as for the rect calls. */
static cl_int enqueue_rw(const char *api, cl_command_queue q, cl_mem m, cl_bool blocking,
                         bool write, const size_t buffer_origin[3], const size_t host_origin[3],
                         const size_t region[3], size_t buffer_row_pitch, size_t buffer_slice_pitch,
                         size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
                         cl_uint num_waits, const cl_event *waits, cl_event *event,
                         cl_command_type type) {
  cl_int err = check_queue_mem(api, q, m, BUFFER);
  if (err != CL_SUCCESS)
    return err;
  cl_mem_flags denied = write ? CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS
                              : CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS;
  SG_CHECK(!(m->flags & denied), CL_INVALID_OPERATION,
           "%s: the buffer's host access flags forbid it", api);
  SG_CHECK(ptr && buffer_origin && host_origin && region, CL_INVALID_VALUE,
           "%s: ptr, an origin or region is NULL", api);
  size_t bp[2] = {buffer_row_pitch, buffer_slice_pitch}, hp[2] = {host_row_pitch, host_slice_pitch};
  size_t boff, bext, hoff, hext;
  if ((err = rect_layout(buffer_origin, region, bp, &boff, &bext)) != CL_SUCCESS ||
      (err = rect_layout(host_origin, region, hp, &hoff, &hext)) != CL_SUCCESS)
    goto fail;
  SG_CHECK(in_bounds(boff, bext, m->size), CL_INVALID_VALUE,
           "%s: the region is outside the %zu-byte buffer", api, m->size);
  struct xfer *x = xfer_new(m, NULL);
  SG_CHECK(x, CL_OUT_OF_HOST_MEMORY, "%s: no memory for the command", api);
  memcpy(x->region, region, sizeof x->region);
  uint8_t *buf = m->buf.host + boff, *host = (uint8_t *)ptr + hoff;
  x->dst = write ? buf : host;
  x->src = write ? host : buf;
  memcpy(write ? x->dst_pitch : x->src_pitch, bp, sizeof bp);
  memcpy(write ? x->src_pitch : x->dst_pitch, hp, sizeof hp);
  return submit(q, type, run_copy, x, num_waits, waits, event, blocking);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(
    cl_command_queue q, cl_mem buffer, cl_bool blocking_read, size_t offset, size_t size, void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  size_t origin[3] = {offset, 0, 0}, zero[3] = {0, 0, 0}, region[3] = {size, 1, 1};
  return enqueue_rw(__func__, q, buffer, blocking_read, false, origin, zero, region, 0, 0, 0, 0,
                    ptr, num_events_in_wait_list, event_wait_list, event, CL_COMMAND_READ_BUFFER);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem buffer,
                                                     cl_bool blocking_write, size_t offset,
                                                     size_t size, const void *ptr,
                                                     cl_uint num_events_in_wait_list,
                                                     const cl_event *event_wait_list,
                                                     cl_event *event) {
  size_t origin[3] = {offset, 0, 0}, zero[3] = {0, 0, 0}, region[3] = {size, 1, 1};
  return enqueue_rw(__func__, q, buffer, blocking_write, true, origin, zero, region, 0, 0, 0, 0,
                    ptr, num_events_in_wait_list, event_wait_list, event, CL_COMMAND_WRITE_BUFFER);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue q, cl_mem buffer, cl_bool blocking_read, const size_t *buffer_origin,
    const size_t *host_origin, const size_t *region, size_t buffer_row_pitch,
    size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return enqueue_rw(__func__, q, buffer, blocking_read, false, buffer_origin, host_origin, region,
                    buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr,
                    num_events_in_wait_list, event_wait_list, event, CL_COMMAND_READ_BUFFER_RECT);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue q, cl_mem buffer, cl_bool blocking_write, const size_t *buffer_origin,
    const size_t *host_origin, const size_t *region, size_t buffer_row_pitch,
    size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return enqueue_rw(__func__, q, buffer, blocking_write, true, buffer_origin, host_origin, region,
                    buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr,
                    num_events_in_wait_list, event_wait_list, event, CL_COMMAND_WRITE_BUFFER_RECT);
}

/* The buffer a (sub-)buffer's bytes belong to. */
static cl_mem root_of(cl_mem m) {
  return m->parent ? m->parent : m;
}

/* Whether two boxes of one buffer, starting at byte offsets src and dst,
 * share a byte: the rule of the OpenCL 3.0 API spec, appendix D "Checking
 * for Memory Copy Overlap". It needs one pair of pitches, which copies within
 * one buffer have; boxes in two sub-buffers with different pitches are
 * compared by their byte spans (conservative). */
static bool copy_overlap(size_t src, size_t dst, const size_t region[3], const size_t sp[2],
                         const size_t dp[2]) {
  size_t src_slice = (region[1] - 1) * sp[0] + region[0],
         src_block = (region[2] - 1) * sp[1] + src_slice;
  size_t dst_slice = (region[1] - 1) * dp[0] + region[0],
         dst_block = (region[2] - 1) * dp[1] + dst_slice;
  if (dst + dst_block <= src || src + src_block <= dst)
    return false;
  if (sp[0] != dp[0] || sp[1] != dp[1])
    return true;
  /* No overlap if one box's rows fit in the gaps between the other's rows,
   * or its slices in the gaps between the other's slices. */
  size_t row = sp[0], slice = sp[1], w = region[0];
  size_t sx = src % row, dx = dst % row, sy = src % slice, dy = dst % slice;
  if ((dx >= sx + w && dx + w <= sx + row) || (sx >= dx + w && sx + w <= dx + row))
    return false;
  if ((dy >= sy + src_slice && dy + src_slice <= sy + slice) ||
      (sy >= dy + src_slice && sy + src_slice <= dy + slice))
    return false;
  return true;
}

static cl_int enqueue_copy(const char *api, cl_command_queue q, cl_mem src, cl_mem dst,
                           const size_t src_origin[3], const size_t dst_origin[3],
                           const size_t region[3], size_t src_row_pitch, size_t src_slice_pitch,
                           size_t dst_row_pitch, size_t dst_slice_pitch, cl_uint num_waits,
                           const cl_event *waits, cl_event *event, cl_command_type type) {
  cl_int err = check_queue_mem(api, q, src, BUFFER);
  if (err != CL_SUCCESS || (err = check_queue_mem(api, q, dst, BUFFER)) != CL_SUCCESS)
    return err;
  SG_CHECK(src_origin && dst_origin && region, CL_INVALID_VALUE, "%s: an origin or region is NULL",
           api);
  size_t sp[2] = {src_row_pitch, src_slice_pitch}, dp[2] = {dst_row_pitch, dst_slice_pitch};
  size_t soff, sext, doff, dext;
  if ((err = rect_layout(src_origin, region, sp, &soff, &sext)) != CL_SUCCESS ||
      (err = rect_layout(dst_origin, region, dp, &doff, &dext)) != CL_SUCCESS)
    goto fail;
  SG_CHECK(in_bounds(soff, sext, src->size), CL_INVALID_VALUE,
           "%s: the source region is outside the buffer", api);
  SG_CHECK(in_bounds(doff, dext, dst->size), CL_INVALID_VALUE,
           "%s: the destination region is outside the buffer", api);
  if (src == dst)
    SG_CHECK(sp[0] == dp[0] && sp[1] == dp[1], CL_INVALID_VALUE,
             "%s: copies within one buffer need equal source and destination pitches", api);
  /* Within one object offsets count from its start (as in the spec's rule);
   * between sub-buffers of one buffer, from the start of that buffer. */
  size_t base_s = src == dst ? 0 : src->offset, base_d = src == dst ? 0 : dst->offset;
  if (root_of(src) == root_of(dst))
    SG_CHECK(!copy_overlap(base_s + soff, base_d + doff, region, sp, dp), CL_MEM_COPY_OVERLAP,
             "%s: the source and destination regions overlap", api);
  struct xfer *x = xfer_new(src, dst);
  SG_CHECK(x, CL_OUT_OF_HOST_MEMORY, "%s: no memory for the command", api);
  memcpy(x->region, region, sizeof x->region);
  x->src = src->buf.host + soff;
  x->dst = dst->buf.host + doff;
  memcpy(x->src_pitch, sp, sizeof sp);
  memcpy(x->dst_pitch, dp, sizeof dp);
  return submit(q, type, run_copy, x, num_waits, waits, event, false);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src_buffer,
                                                    cl_mem dst_buffer, size_t src_offset,
                                                    size_t dst_offset, size_t size,
                                                    cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list,
                                                    cl_event *event) {
  size_t so[3] = {src_offset, 0, 0}, dO[3] = {dst_offset, 0, 0}, region[3] = {size, 1, 1};
  /* One row: the pitch is the row itself, whatever the offsets. */
  return enqueue_copy(__func__, q, src_buffer, dst_buffer, so, dO, region, size, size, size, size,
                      num_events_in_wait_list, event_wait_list, event, CL_COMMAND_COPY_BUFFER);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue q, cl_mem src_buffer, cl_mem dst_buffer, const size_t *src_origin,
    const size_t *dst_origin, const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
    size_t dst_row_pitch, size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return enqueue_copy(__func__, q, src_buffer, dst_buffer, src_origin, dst_origin, region,
                      src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch,
                      num_events_in_wait_list, event_wait_list, event, CL_COMMAND_COPY_BUFFER_RECT);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem buffer,
                                                    const void *pattern, size_t pattern_size,
                                                    size_t offset, size_t size,
                                                    cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list,
                                                    cl_event *event) {
  cl_int err = check_queue_mem(__func__, q, buffer, BUFFER);
  if (err != CL_SUCCESS)
    return err;
  SG_CHECK(pattern, CL_INVALID_VALUE, "pattern is NULL");
  SG_CHECK(pattern_size && pattern_size <= 128 && (pattern_size & (pattern_size - 1)) == 0,
           CL_INVALID_VALUE, "pattern_size %zu is not one of 1, 2, 4, ..., 128", pattern_size);
  SG_CHECK(offset % pattern_size == 0 && size % pattern_size == 0, CL_INVALID_VALUE,
           "offset %zu or size %zu is not a multiple of pattern_size %zu", offset, size,
           pattern_size);
  SG_CHECK(size && in_bounds(offset, size, buffer->size), CL_INVALID_VALUE,
           "size is 0 or [%zu, +%zu) is outside the %zu-byte buffer", offset, size, buffer->size);
  struct xfer *x = xfer_new(buffer, NULL);
  SG_CHECK(x, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
  x->dst = buffer->buf.host + offset;
  x->region[0] = size;
  x->region[1] = x->region[2] = 1;
  x->pattern_size = pattern_size;
  memcpy(x->pattern, pattern, pattern_size);
  return submit(q, CL_COMMAND_FILL_BUFFER, run_fill, x, num_events_in_wait_list, event_wait_list,
                event, false);
fail:
  return err;
}

/* The backing store is host memory: a map hands out a pointer into it (into
 * the application's own memory with CL_MEM_USE_HOST_PTR) once the commands
 * before it are done, and unmapping has nothing to copy. */
/* The outstanding maps of a buffer, one entry per clEnqueueMapBuffer: the
 * same region mapped twice must be unmapped twice (5.5.2). */
static void mapping_push(cl_mem m, struct sg_mapping *mp) {
  pthread_mutex_lock(&m->lock);
  mp->next = m->mappings;
  m->mappings = mp;
  atomic_fetch_add(&m->map_count, 1);
  pthread_mutex_unlock(&m->lock);
}

/* Unlinks a map of ptr; NULL when ptr is not a mapped pointer of m. */
static struct sg_mapping *mapping_take(cl_mem m, const void *ptr) {
  pthread_mutex_lock(&m->lock);
  struct sg_mapping **pp = &m->mappings;
  while (*pp && (*pp)->ptr != ptr)
    pp = &(*pp)->next;
  struct sg_mapping *mp = *pp;
  if (mp) {
    *pp = mp->next;
    atomic_fetch_sub(&m->map_count, 1);
  }
  pthread_mutex_unlock(&m->lock);
  return mp;
}

/* The map flags' checks against m's host access flags; the pointer at
 * offset in m's storage once the map command (of type) is done. */
static void *enqueue_map(const char *api, cl_command_queue q, cl_mem m, cl_command_type type,
                         cl_bool blocking, cl_map_flags map_flags, size_t offset, cl_uint num_waits,
                         const cl_event *waits, cl_event *event, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  struct sg_mapping *mp = NULL;
  SG_CHECK(!((map_flags & CL_MAP_READ) &&
             (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))),
           CL_INVALID_OPERATION, "%s: CL_MAP_READ on an object the host may not read", api);
  SG_CHECK(!((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
             (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))),
           CL_INVALID_OPERATION, "%s: CL_MAP_WRITE on an object the host may not write", api);
  mp = malloc(sizeof *mp);
  struct xfer *x = mp ? xfer_new(m, NULL) : NULL;
  SG_CHECK(x, CL_OUT_OF_HOST_MEMORY, "%s: no memory for the command", api);
  err = submit(q, type, NULL, x, num_waits, waits, event, blocking);
  if (err != CL_SUCCESS)
    goto fail;
  mp->ptr = m->buf.host + offset;
  mapping_push(m, mp);
  SG_SET_ERR(errcode_ret, CL_SUCCESS);
  return mp->ptr;
fail:
  free(mp);
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

static cl_int check_map_flags(const char *api, cl_map_flags map_flags) {
  cl_int err = CL_SUCCESS;
  const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  SG_CHECK((map_flags & ~known) == 0, CL_INVALID_VALUE, "%s: unknown map_flags 0x%llx", api,
           (unsigned long long)map_flags);
  SG_CHECK(
      !((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE))),
      CL_INVALID_VALUE, "%s: CL_MAP_WRITE_INVALIDATE_REGION with CL_MAP_READ or CL_MAP_WRITE",
      api);
fail:
  return err;
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem buffer,
                                                  cl_bool blocking_map, cl_map_flags map_flags,
                                                  size_t offset, size_t size,
                                                  cl_uint num_events_in_wait_list,
                                                  const cl_event *event_wait_list, cl_event *event,
                                                  cl_int *errcode_ret) {
  cl_int err = check_queue_mem(__func__, q, buffer, BUFFER);
  if (err != CL_SUCCESS || (err = check_map_flags(__func__, map_flags)) != CL_SUCCESS)
    goto fail;
  SG_CHECK(size && in_bounds(offset, size, buffer->size), CL_INVALID_VALUE,
           "size is 0 or [%zu, +%zu) is outside the %zu-byte buffer", offset, size, buffer->size);
  return enqueue_map(__func__, q, buffer, CL_COMMAND_MAP_BUFFER, blocking_map, map_flags, offset,
                     num_events_in_wait_list, event_wait_list, event, errcode_ret);
fail:
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem memobj,
                                                        void *mapped_ptr,
                                                        cl_uint num_events_in_wait_list,
                                                        const cl_event *event_wait_list,
                                                        cl_event *event) {
  cl_int err = check_queue_mem(__func__, q, memobj, ANY_MEM);
  if (err != CL_SUCCESS)
    return err;
  struct sg_mapping *mp = mapping_take(memobj, mapped_ptr);
  SG_CHECK(mp, CL_INVALID_VALUE, "mapped_ptr %p is not a pointer mapped from this object",
           mapped_ptr);
  struct xfer *x = xfer_new(memobj, NULL);
  if (!x)
    err = CL_OUT_OF_HOST_MEMORY;
  else
    err = submit(q, CL_COMMAND_UNMAP_MEM_OBJECT, NULL, x, num_events_in_wait_list, event_wait_list,
                 event, false);
  if (err != CL_SUCCESS) {
    mapping_push(memobj, mp); /* nothing was queued: still mapped */
    return err;
  }
  free(mp);
fail:
  return err;
}

/* One device, whose memory is host memory: migration only orders commands. */
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint num_mem_objects, const cl_mem *mem_objects,
                           cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(q, SG_KIND_QUEUE), CL_INVALID_COMMAND_QUEUE,
           "command_queue is not a valid queue");
  SG_CHECK(num_mem_objects && mem_objects, CL_INVALID_VALUE,
           "num_mem_objects is 0 or mem_objects is NULL");
  for (cl_uint i = 0; i < num_mem_objects; i++) {
    SG_CHECK(sg_valid(mem_objects[i], SG_KIND_MEM), CL_INVALID_MEM_OBJECT,
             "mem_objects[%u] is not valid", i);
    SG_CHECK(mem_objects[i]->context == q->context, CL_INVALID_CONTEXT,
             "mem_objects[%u] belongs to another context", i);
  }
  const cl_mem_migration_flags known =
      CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
  SG_CHECK((flags & ~known) == 0, CL_INVALID_VALUE, "unknown flags 0x%llx",
           (unsigned long long)flags);
  struct sg_command *cmd = calloc(1, sizeof *cmd);
  SG_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
  cmd->type = CL_COMMAND_MIGRATE_MEM_OBJECTS;
  return sg_queue_submit(q, cmd, num_events_in_wait_list, event_wait_list, event, false);
fail:
  return err;
}

/* ---- Images ---------------------------------------------------------------- */

/* The image box of origin and region (sg_image_box) as a transfer's side. */
struct side {
  uint8_t *at;
  size_t pitch[2];
};

static cl_int image_side(const char *api, cl_mem m, const size_t *origin, const size_t *region,
                         size_t box[3], struct side *s) {
  size_t off;
  cl_int err = sg_image_box(api, m, origin, region, &off, box, s->pitch);
  s->at = err == CL_SUCCESS ? m->buf.host + off : NULL; /* off is unset on an error */
  return err;
}

/* The host side of a read or write: pitches as given or tight (0), checked
 * (5.3.3: a 1D or 2D image takes no slice pitch; a 1D array's second
 * component steps by the slice pitch). */
static cl_int host_side(const char *api, cl_mem m, const size_t box[3], size_t row_pitch,
                        size_t slice_pitch, void *ptr, struct side *s) {
  cl_int err = CL_SUCCESS;
  bool layered = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || m->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                 m->type == CL_MEM_OBJECT_IMAGE3D;
  SG_CHECK(ptr, CL_INVALID_VALUE, "%s: ptr is NULL", api);
  SG_CHECK(layered || slice_pitch == 0, CL_INVALID_VALUE,
           "%s: the slice pitch must be 0 for a 1D or 2D image", api);
  size_t row = row_pitch ? row_pitch : box[0];
  SG_CHECK(row >= box[0], CL_INVALID_VALUE, "%s: row pitch %zu is less than the region's %zu bytes",
           api, row, box[0]);
  bool array1d = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  size_t plane = array1d ? row : row * box[1];
  size_t slice = slice_pitch ? slice_pitch : plane;
  SG_CHECK(!layered || slice >= plane, CL_INVALID_VALUE,
           "%s: slice pitch %zu is less than %zu bytes", api, slice, plane);
  s->at = ptr;
  s->pitch[0] = array1d ? slice : row;
  s->pitch[1] = slice;
fail:
  return err;
}

/* Queues the copy of a box between two sides; a and b are held until done. */
static cl_int submit_box(cl_command_queue q, cl_command_type type, cl_mem a, cl_mem b,
                         const struct side *dst, const struct side *src, const size_t box[3],
                         cl_uint num_waits, const cl_event *waits, cl_event *event,
                         bool blocking) {
  struct xfer *x = xfer_new(a, b);
  if (!x)
    return CL_OUT_OF_HOST_MEMORY;
  memcpy(x->region, box, sizeof x->region);
  x->dst = dst->at;
  x->src = src->at;
  memcpy(x->dst_pitch, dst->pitch, sizeof x->dst_pitch);
  memcpy(x->src_pitch, src->pitch, sizeof x->src_pitch);
  return submit(q, type, run_copy, x, num_waits, waits, event, blocking);
}

static cl_int enqueue_image_rw(const char *api, cl_command_queue q, cl_mem image, cl_bool blocking,
                               bool write, const size_t *origin, const size_t *region,
                               size_t row_pitch, size_t slice_pitch, const void *ptr,
                               cl_uint num_waits, const cl_event *waits, cl_event *event) {
  cl_int err = check_queue_mem(api, q, image, IMAGE);
  if (err != CL_SUCCESS)
    return err;
  size_t box[3];
  struct side img, host;
  if ((err = image_side(api, image, origin, region, box, &img)) != CL_SUCCESS ||
      (err = host_side(api, image, box, row_pitch, slice_pitch, (void *)ptr, &host)) != CL_SUCCESS)
    return err;
  cl_mem_flags denied = write ? CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS
                              : CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS;
  SG_CHECK(!(image->flags & denied), CL_INVALID_OPERATION,
           "%s: the image's host access flags forbid it", api);
  return submit_box(q, write ? CL_COMMAND_WRITE_IMAGE : CL_COMMAND_READ_IMAGE, image, NULL,
                    write ? &img : &host, write ? &host : &img, box, num_waits, waits, event,
                    blocking);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem image,
                                                   cl_bool blocking_read, const size_t *origin,
                                                   const size_t *region, size_t row_pitch,
                                                   size_t slice_pitch, void *ptr,
                                                   cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list,
                                                   cl_event *event) {
  return enqueue_image_rw(__func__, q, image, blocking_read, false, origin, region, row_pitch,
                          slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem image,
                                                    cl_bool blocking_write, const size_t *origin,
                                                    const size_t *region, size_t input_row_pitch,
                                                    size_t input_slice_pitch, const void *ptr,
                                                    cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list,
                                                    cl_event *event) {
  return enqueue_image_rw(__func__, q, image, blocking_write, true, origin, region,
                          input_row_pitch, input_slice_pitch, ptr, num_events_in_wait_list,
                          event_wait_list, event);
}

/* Do two texel boxes of one image meet? */
static bool boxes_meet(const size_t *a, const size_t *b, const size_t *region) {
  for (int i = 0; i < 3; i++)
    if (a[i] + region[i] <= b[i] || b[i] + region[i] <= a[i])
      return false;
  return true;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem src_image,
                                                   cl_mem dst_image, const size_t *src_origin,
                                                   const size_t *dst_origin, const size_t *region,
                                                   cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list,
                                                   cl_event *event) {
  cl_int err = check_queue_mem(__func__, q, src_image, IMAGE);
  if (err != CL_SUCCESS || (err = check_queue_mem(__func__, q, dst_image, IMAGE)) != CL_SUCCESS)
    return err;
  SG_CHECK(src_image->format.image_channel_order == dst_image->format.image_channel_order &&
               src_image->format.image_channel_data_type ==
                   dst_image->format.image_channel_data_type,
           CL_IMAGE_FORMAT_MISMATCH, "the images do not have the same format");
  size_t sbox[3], dbox[3];
  struct side src, dst;
  if ((err = image_side(__func__, src_image, src_origin, region, sbox, &src)) != CL_SUCCESS ||
      (err = image_side(__func__, dst_image, dst_origin, region, dbox, &dst)) != CL_SUCCESS)
    return err;
  SG_CHECK(src_image != dst_image || !boxes_meet(src_origin, dst_origin, region),
           CL_MEM_COPY_OVERLAP, "the source and destination regions overlap");
  return submit_box(q, CL_COMMAND_COPY_IMAGE, src_image, dst_image, &dst, &src, sbox,
                    num_events_in_wait_list, event_wait_list, event, false);
fail:
  return err;
}

/* A buffer side of region's texels from offset: tight rows and slices
 * (5.3.5); CL_INVALID_VALUE when they leave the buffer. */
static cl_int buffer_side(const char *api, cl_mem buf, cl_mem image, size_t offset,
                          const size_t box[3], struct side *s) {
  cl_int err = CL_SUCCESS;
  size_t bytes = box[0] * box[1] * box[2];
  SG_CHECK(in_bounds(offset, bytes, buf->size), CL_INVALID_VALUE,
           "%s: %zu bytes at offset %zu leave the %zu-byte buffer", api, bytes, offset,
           buf->size);
  SG_CHECK(image->parent != buf || image->type != CL_MEM_OBJECT_IMAGE1D_BUFFER,
           CL_INVALID_MEM_OBJECT, "%s: the image is a 1D image buffer made from the buffer", api);
  s->at = buf->buf.host + offset;
  s->pitch[0] = box[0];
  s->pitch[1] = box[0] * box[1];
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(
    cl_command_queue q, cl_mem src_image, cl_mem dst_buffer, const size_t *src_origin,
    const size_t *region, size_t dst_offset, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  cl_int err = check_queue_mem(__func__, q, src_image, IMAGE);
  if (err != CL_SUCCESS || (err = check_queue_mem(__func__, q, dst_buffer, BUFFER)) != CL_SUCCESS)
    return err;
  size_t box[3];
  struct side src, dst;
  if ((err = image_side(__func__, src_image, src_origin, region, box, &src)) != CL_SUCCESS ||
      (err = buffer_side(__func__, dst_buffer, src_image, dst_offset, box, &dst)) != CL_SUCCESS)
    return err;
  return submit_box(q, CL_COMMAND_COPY_IMAGE_TO_BUFFER, src_image, dst_buffer, &dst, &src, box,
                    num_events_in_wait_list, event_wait_list, event, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(
    cl_command_queue q, cl_mem src_buffer, cl_mem dst_image, size_t src_offset,
    const size_t *dst_origin, const size_t *region, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  cl_int err = check_queue_mem(__func__, q, src_buffer, BUFFER);
  if (err != CL_SUCCESS || (err = check_queue_mem(__func__, q, dst_image, IMAGE)) != CL_SUCCESS)
    return err;
  size_t box[3];
  struct side src, dst;
  if ((err = image_side(__func__, dst_image, dst_origin, region, box, &dst)) != CL_SUCCESS ||
      (err = buffer_side(__func__, src_buffer, dst_image, src_offset, box, &src)) != CL_SUCCESS)
    return err;
  return submit_box(q, CL_COMMAND_COPY_BUFFER_TO_IMAGE, src_buffer, dst_image, &dst, &src, box,
                    num_events_in_wait_list, event_wait_list, event, false);
}

/* fill_color is four floats, ints or uints, as the image's channel type
 * reads; the texel it makes is converted once, as a kernel's write would. */
CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem image,
                                                   const void *fill_color, const size_t *origin,
                                                   const size_t *region,
                                                   cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list,
                                                   cl_event *event) {
  cl_int err = check_queue_mem(__func__, q, image, IMAGE);
  if (err != CL_SUCCESS)
    return err;
  SG_CHECK(fill_color, CL_INVALID_VALUE, "fill_color is NULL");
  size_t box[3];
  struct side dst;
  if ((err = image_side(__func__, image, origin, region, box, &dst)) != CL_SUCCESS)
    return err;
  struct xfer *x = xfer_new(image, NULL);
  SG_CHECK(x, CL_OUT_OF_HOST_MEMORY, "no memory for the command");
  memcpy(x->region, box, sizeof x->region);
  x->dst = dst.at;
  memcpy(x->dst_pitch, dst.pitch, sizeof x->dst_pitch);
  x->pattern_size = image->elem_size;
  sg_image_pack(image, fill_color, x->pattern);
  return submit(q, CL_COMMAND_FILL_IMAGE, run_fill, x, num_events_in_wait_list, event_wait_list,
                event, false);
fail:
  return err;
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(
    cl_command_queue q, cl_mem image, cl_bool blocking_map, cl_map_flags map_flags,
    const size_t *origin, const size_t *region, size_t *image_row_pitch, size_t *image_slice_pitch,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event,
    cl_int *errcode_ret) {
  cl_int err = check_queue_mem(__func__, q, image, IMAGE);
  size_t box[3];
  struct side s;
  if (err != CL_SUCCESS || (err = image_side(__func__, image, origin, region, box, &s)) != CL_SUCCESS ||
      (err = check_map_flags(__func__, map_flags)) != CL_SUCCESS)
    goto fail;
  bool layered = image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                 image->type == CL_MEM_OBJECT_IMAGE2D_ARRAY || image->type == CL_MEM_OBJECT_IMAGE3D;
  SG_CHECK(image_row_pitch, CL_INVALID_VALUE, "image_row_pitch is NULL");
  SG_CHECK(!layered || image_slice_pitch, CL_INVALID_VALUE,
           "image_slice_pitch is NULL for a 3D image or an image array");
  void *p = enqueue_map(__func__, q, image, CL_COMMAND_MAP_IMAGE, blocking_map, map_flags,
                        (size_t)(s.at - image->buf.host), num_events_in_wait_list,
                        event_wait_list, event, errcode_ret);
  if (p) {
    *image_row_pitch = image->desc.image_row_pitch;
    if (image_slice_pitch)
      *image_slice_pitch = layered ? image->desc.image_slice_pitch : 0;
  }
  return p;
fail:
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}
