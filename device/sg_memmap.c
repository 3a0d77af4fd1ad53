/* SPDX-License-Identifier: MIT */
/* DESIGN.md 3, "one flat 64-bit device address space with windows": the
 * memory map of one launch. Every region the kernel may touch is listed,
 * sorted and checked for overlaps here; the sim faults on anything else. */
#include <stdlib.h>
#include <string.h>

#include "sg_device.h"

#define NULL_PAGE 0x1000ull

static int by_base(const void *a, const void *b) {
  const struct sg_region *x = a, *y = b;
  return x->base < y->base ? -1 : x->base > y->base;
}

static bool is_buffer_arg(const struct sg_launch *launch, uint32_t i) {
  enum sg_arg_kind k = launch->kernel->args[i].kind;
  return (k == SG_ARG_GLOBAL || k == SG_ARG_CONSTANT || k == SG_ARG_IMAGE) &&
         launch->args[i].buffer && launch->args[i].buffer->size > 0;
}

/* Appends n bytes of s at *p, as many as fit before end. */
static void append(char **p, const char *end, const char *s, size_t n) {
  size_t room = (size_t)(end - *p);
  n = n < room ? n : room;
  memcpy(*p, s, n);
  *p += n;
}

/* Built by hand, not with snprintf: every launch names each buffer twice
 * (its region, its object for the checker), and two snprintf calls were a
 * sixteenth of a small launch. */
void sg_device_arg_name(const struct sg_kernel_info *kernel, uint32_t i, char *out, size_t len) {
  if (!len)
    return;
  const struct sg_kernel_arg *a = &kernel->args[i];
  const char *what = a->kind == SG_ARG_LOCAL   ? "__local argument "
                     : a->kind == SG_ARG_IMAGE ? "image argument "
                                               : "buffer argument ";
  char digits[12], *d = digits + sizeof digits;
  *--d = 0;
  do
    *--d = (char)('0' + i % 10);
  while (i /= 10);
  char *p = out;
  const char *end = out + len - 1;
  append(&p, end, what, strlen(what));
  append(&p, end, d, strlen(d));
  if (a->source_name && a->source_name[0]) {
    append(&p, end, " `", 2);
    append(&p, end, a->source_name, strnlen(a->source_name, 48));
    append(&p, end, "`", 1);
  }
  *p = 0;
}

/* Adds the bound buffers, merging bindings of the same memory: an argument
 * repeated, or a sub-buffer next to its parent (same host offset). The
 * merged region is writable if any binding is. Stores to a buffer that is
 * read-only in every binding land, but are findings (SG_PERM_STORE_REPORTED). */
static enum sg_status add_buffers(const struct sg_launch *launch, struct sg_launch_memmap *m,
                                  char *err, size_t errlen) {
  uint32_t first = m->count;
  for (uint32_t i = 0; i < launch->kernel->num_args; i++) {
    if (!is_buffer_arg(launch, i))
      continue;
    const struct sg_buffer *b = launch->args[i].buffer;
    if (!b->host || b->addr < SG_ADDR_GLOBAL || b->addr + b->size < b->addr) {
      snprintf(err, errlen, "buffer arg %u is not a device allocation (0x%llx, %llu bytes)",
               i, (unsigned long long)b->addr, (unsigned long long)b->size);
      return SG_EINVAL;
    }
    uint32_t k = m->count++;
    sg_device_arg_name(launch->kernel, i, m->names[k - first], sizeof m->names[0]);
    uint32_t perm = b->read_only ? SG_PERM_R | SG_PERM_STORE_REPORTED : SG_PERM_R | SG_PERM_W;
    if (b->write_only && !b->read_only)
      perm = SG_PERM_W | SG_PERM_LOAD_REPORTED;
    m->regions[k] = (struct sg_region){.base = b->addr, .size = b->size, .host = b->host,
                                       .perm = perm,
                                       .name = m->names[k - first],
                                       .space = launch->kernel->args[i].kind == SG_ARG_CONSTANT
                                                    ? SG_SPACE_CONSTANT
                                                    : SG_SPACE_GLOBAL};
  }
  qsort(m->regions + first, m->count - first, sizeof m->regions[0], by_base);
  uint32_t out = first;
  for (uint32_t i = first; i < m->count; i++) {
    struct sg_region *r = &m->regions[i], *prev = &m->regions[out - 1];
    if (out > first && r->base < prev->base + prev->size) {
      if ((uintptr_t)r->host - r->base != (uintptr_t)prev->host - prev->base) {
        snprintf(err, errlen, "%s and %s overlap in device memory but not in host memory",
                 prev->name, r->name);
        return SG_EINVAL;
      }
      uint64_t end = r->base + r->size;
      if (end > prev->base + prev->size)
        prev->size = end - prev->base;
      prev->perm |= r->perm;
      if (prev->perm & SG_PERM_R) /* readable through some binding: no finding */
        prev->perm &= ~(uint32_t)SG_PERM_LOAD_REPORTED;
      if (r->space != prev->space) /* bound as __global and __constant: global */
        prev->space = SG_SPACE_GLOBAL;
      if (prev->perm & SG_PERM_W) /* writable through some binding: no finding */
        prev->perm &= ~(uint32_t)SG_PERM_STORE_REPORTED;
      continue;
    }
    m->regions[out++] = *r;
  }
  m->count = out;
  return SG_OK;
}

static void add(struct sg_launch_memmap *m, uint64_t base, uint64_t size, uint8_t *host,
                uint32_t perm, const char *name, enum sg_space space) {
  if (size > 0)
    m->regions[m->count++] = (struct sg_region){
        .base = base, .size = size, .host = host, .perm = perm, .name = name, .space = space};
}

static int32_t find(const struct sg_launch_memmap *m, uint64_t base) {
  for (uint32_t i = 0; i < m->count; i++)
    if (m->regions[i].base == base)
      return (int32_t)i;
  return -1;
}

enum sg_status sg_memmap_build(const struct sg_launch *launch, uint8_t *params,
                               uint64_t params_size, uint64_t local_size, uint64_t stack_size,
                               struct sg_launch_memmap *out, char *err, size_t errlen) {
  const struct sg_program_image *img = launch->program;
  uint32_t n = launch->kernel->num_args;
  struct sg_launch_memmap m = {.regions = calloc(n + 6, sizeof *m.regions),
                               .names = calloc(n ? n : 1, sizeof *m.names)};
  enum sg_status st = SG_ENOMEM;
  if (!m.regions || !m.names) {
    snprintf(err, errlen, "out of memory building the memory map");
    goto fail;
  }
  add(&m, img->ro_base, img->ro_size, img->ro, SG_PERM_R | SG_PERM_X,
      "program code and constants", SG_SPACE_CONSTANT);
  add(&m, img->rw_base, img->rw_size, img->rw, SG_PERM_R | SG_PERM_W, "program data",
      SG_SPACE_GLOBAL);
  add(&m, SG_ADDR_PARAMS, params_size, params, SG_PERM_R, "parameters", SG_SPACE_CONSTANT);
  if (launch->printf_buffer)
    add(&m, launch->printf_buffer->addr, launch->printf_buffer->size,
        launch->printf_buffer->host, SG_PERM_R | SG_PERM_W, "printf buffer", SG_SPACE_GLOBAL);
  /* Local window and stacks: storage per worker, bound by sg_memmap_bind.
   * A stack overflow (a deep call chain, a negative index) runs down from
   * the first work-item's slot, an overrun up from the last one's: the gaps
   * around the stacks are unmapped, so it meets a fault before another
   * window (the parameters and local memory lie just below this one). */
  add(&m, SG_ADDR_LOCAL, local_size, NULL, SG_PERM_R | SG_PERM_W, "local memory",
      SG_SPACE_LOCAL);
  if (stack_size > SG_STACK_WINDOW) {
    snprintf(err, errlen, "private stacks of %llu bytes exceed the 0x%llx-byte stack window",
             (unsigned long long)stack_size, (unsigned long long)SG_STACK_WINDOW);
    st = SG_EINVAL;
    goto fail;
  }
  m.stack_base = SG_ADDR_STACK + ((SG_STACK_WINDOW - stack_size) / 2 & ~0xfffull);
  add(&m, m.stack_base, stack_size, NULL, SG_PERM_R | SG_PERM_W | SG_PERM_PRIVATE,
      "private stack", SG_SPACE_PRIVATE);
  st = add_buffers(launch, &m, err, errlen);
  if (st != SG_OK)
    goto fail;
  qsort(m.regions, m.count, sizeof m.regions[0], by_base);
  st = SG_EINVAL;
  for (uint32_t i = 0; i < m.count; i++) {
    const struct sg_region *r = &m.regions[i];
    if (r->base < NULL_PAGE || r->base + r->size < r->base) {
      snprintf(err, errlen, "%s at 0x%llx is not a valid device range", r->name,
               (unsigned long long)r->base);
      goto fail;
    }
    if (i > 0 && r->base < m.regions[i - 1].base + m.regions[i - 1].size) {
      snprintf(err, errlen, "%s at 0x%llx overlaps %s", r->name,
               (unsigned long long)r->base, m.regions[i - 1].name);
      goto fail;
    }
  }
  m.local_index = local_size ? find(&m, SG_ADDR_LOCAL) : -1;
  m.stack_index = stack_size ? find(&m, m.stack_base) : -1;
  *out = m;
  return SG_OK;
fail:
  sg_memmap_free(&m);
  return st;
}

uint64_t sg_device_private_size(const struct sg_config *cfg, const struct sg_kernel_info *k) {
  uint64_t size = k->private_size > UINT64_MAX - 15 ? UINT64_MAX : (k->private_size + 15) & ~15ull;
  if ((k->uses & SG_USES_UNBOUNDED_STACK) && size < cfg->stack_per_lane)
    size = cfg->stack_per_lane;
  return size;
}

uint64_t sg_device_private_max_items(const struct sg_config *cfg, const struct sg_kernel_info *k) {
  uint64_t size = sg_device_private_size(cfg, k);
  return size ? SG_STACK_WINDOW / size : UINT64_MAX;
}

void sg_memmap_free(struct sg_launch_memmap *map) {
  free(map->regions);
  free(map->names);
  memset(map, 0, sizeof *map);
}

void sg_memmap_bind(const struct sg_launch_memmap *map, uint8_t *local, uint8_t *stack,
                    struct sg_region *regions, struct sg_memmap *out) {
  memcpy(regions, map->regions, map->count * sizeof regions[0]);
  if (map->local_index >= 0)
    regions[map->local_index].host = local;
  if (map->stack_index >= 0)
    regions[map->stack_index].host = stack;
  static _Atomic uint64_t generations;
  *out = (struct sg_memmap){.regions = regions, .count = map->count, .gen = ++generations};
}
