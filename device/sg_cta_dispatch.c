/* SPDX-License-Identifier: MIT */
/* DESIGN.md 3, "CTA dispatch to cores": the device object, the global address
 * allocator and launches. A launch builds the parameter block and memory map,
 * then host threads take CTAs from a shared counter and run each on their own
 * simulated core until the grid is done or a CTA faults. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sg_device.h"
#include "sg_trace_out.h"

#define GUARD_GAP (64ull << 10) /* unmapped bytes after every global allocation */
#define MAX_HOST_THREADS 1024
/* A worker keeps its stack storage between launches up to this size; a
 * larger one (a kernel with huge private arrays) is freed after its launch. */
#define STACK_KEEP (64ull << 20)

_Static_assert(sizeof(struct sg_launch_info) <= SG_PARAM_ARGS_OFFSET,
               "launch info must fit before the arguments");
_Static_assert(SG_STACK_WINDOW <= UINT32_MAX, "a stack slot must fit sg_cta_desc.stack_size");

/* One host thread's scratch state, created on its first launch and reused:
 * the simulated core it runs CTAs on (a core of the machine in turn, as
 * CTAs are issued round-robin), the storage behind the local window and the
 * stacks, and the consumers attached to its core for the launch. */
struct worker {
  struct sg_device *dev;
  uint32_t index;
  struct sg_core *core;
  uint8_t *local, *stack;         /* local_mem_per_core; the launch's CTA stacks */
  uint64_t stack_cap;             /* bytes at stack */
  struct sg_region *regions;      /* this worker's copy of the launch map */
  uint32_t regions_cap;
  uint64_t seen;                  /* last launch generation this worker ran */
  pthread_t thread;
  struct sg_cta_desc cta;
  struct sg_findings findings;    /* this launch's, merged into the job's at the end */
  struct sg_hook *hooks[4];       /* this launch's consumers */
  struct sg_stats_hook stats;
  struct sg_trace *trace;
  struct sg_races *races;         /* SOFTGPU_CHECK=races: made once, kept */
  struct sg_sync *sync;           /* SOFTGPU_CHECK=sync */
  struct sg_check_memory *memcheck;
  struct sg_check_uninit *uninit;
};

struct job;
/* What every worker of a launch runs (the caller is worker 0). */
typedef void job_work(struct sg_device *dev, struct worker *w, struct job *job);

/* The launch the workers are running. */
struct job {
  job_work *work;                 /* run_ctas, or timed_work */
  struct timed *timed;            /* timing mode's launch */
  const struct sg_launch *launch;
  const struct sg_launch_memmap *map;
  uint64_t num_ctas;
  atomic_uint_fast64_t next_cta;
  atomic_bool stop;               /* set by the first failure: take no more CTAs */
  pthread_mutex_t lock;           /* guards the fields below */
  enum sg_status status;
  uint64_t fault_cta;             /* lowest faulting CTA so far */
  struct sg_fault fault;
  uint32_t fault_ctaid[3];
  struct sg_findings findings;
  struct sg_stats stats;          /* launch->stats: every worker's, summed */
  uint64_t trace_room;            /* launch->trace: bytes of records a worker may keep */
  struct sg_trace **traces;       /* launch->trace: every worker's, written at the end */
  uint32_t ntraces;
  struct sg_races **races;        /* SOFTGPU_CHECK=races: every worker's, checked across CTAs */
  uint32_t nraces;
  struct sg_check_launch *check;  /* the memory checker's view of the launch; NULL: off */
};

/* Launches are serialised by launch_lock: each one already uses every host
 * thread, so running two at once would only interleave them. The calling
 * thread works as worker 0; workers 1.. are pool threads woken per launch. */
struct sg_device {
  struct sg_config cfg;
  struct sg_check check;          /* SOFTGPU_CHECK */
  bool debug;                     /* SOFTGPU_DEBUG: the engine explains itself */
  _Atomic uint64_t next_addr;
  pthread_mutex_t launch_lock;
  pthread_mutex_t lock;           /* pool state: generation, running, quit, job */
  pthread_cond_t wake, done;
  uint64_t generation;
  uint32_t running;               /* workers 1.. in the current job */
  bool quit;
  struct job *job;
  /* Under launch_lock: the kernel whose last functional launch ran
   * quick_ctas CTAs quickly (run_alone), or NULL. */
  const struct sg_kernel_info *quick_kernel;
  uint64_t quick_ctas;
  uint32_t num_workers;           /* wanted */
  uint32_t num_started;           /* worker structs allocated (pool threads + 1) */
  struct worker **workers;
  struct sg_gpu *gpu;             /* timing mode's machine, made on its first launch */
};

/* host_threads, else SOFTGPU_THREADS (a number 1..1024; anything else is
 * ignored), else the CPUs this process may run on. */
static uint32_t host_thread_count(const struct sg_config *cfg) {
  if (cfg->host_threads)
    return cfg->host_threads;
  const char *env = sg_env_get(SG_ENV_THREADS);
  if (env && *env) {
    char *end;
    unsigned long n = strtoul(env, &end, 10);
    if (*end == '\0' && n >= 1 && n <= MAX_HOST_THREADS && env[0] != '-')
      return (uint32_t)n;
  }
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    return (uint32_t)CPU_COUNT(&set);
  return 1;
}

enum sg_status sg_device_create(const struct sg_config *cfg, struct sg_device **out) {
  struct sg_device *dev = calloc(1, sizeof *dev);
  if (!dev)
    return SG_ENOMEM;
  dev->cfg = *cfg;
  sg_check_parse(sg_env_get(SG_ENV_CHECK), &dev->check, stderr);
  const char *dbg = sg_env_get(SG_ENV_DEBUG);
  dev->debug = dbg && *dbg && *dbg != '0'; /* as runtime/sg_error.c reads it */
  atomic_init(&dev->next_addr, SG_ADDR_GLOBAL);
  dev->num_workers = host_thread_count(cfg);
  dev->workers = calloc(dev->num_workers, sizeof *dev->workers);
  if (!dev->workers) {
    free(dev);
    return SG_ENOMEM;
  }
  pthread_mutex_init(&dev->launch_lock, NULL);
  pthread_mutex_init(&dev->lock, NULL);
  pthread_cond_init(&dev->wake, NULL);
  pthread_cond_init(&dev->done, NULL);
  *out = dev;
  return SG_OK;
}

static void worker_free(struct worker *w) {
  if (w->core)
    sg_core_destroy(w->core);
  sg_trace_destroy(w->trace);
  sg_races_destroy(w->races);
  sg_sync_destroy(w->sync);
  sg_check_memory_destroy(w->memcheck);
  sg_check_uninit_destroy(w->uninit);
  sg_findings_free(&w->findings);
  free(w->local);
  free(w->stack);
  free(w->regions);
  free(w);
}

void sg_device_destroy(struct sg_device *dev) {
  if (!dev)
    return;
  pthread_mutex_lock(&dev->lock);
  dev->quit = true;
  pthread_cond_broadcast(&dev->wake);
  pthread_mutex_unlock(&dev->lock);
  for (uint32_t i = 0; i < dev->num_started; i++) {
    if (i > 0)
      pthread_join(dev->workers[i]->thread, NULL);
    worker_free(dev->workers[i]);
  }
  free(dev->workers);
  sg_gpu_destroy(dev->gpu);
  pthread_cond_destroy(&dev->wake);
  pthread_cond_destroy(&dev->done);
  pthread_mutex_destroy(&dev->lock);
  pthread_mutex_destroy(&dev->launch_lock);
  free(dev);
}

const struct sg_config *sg_device_config(const struct sg_device *dev) { return &dev->cfg; }

const struct sg_check *sg_device_check(const struct sg_device *dev) { return &dev->check; }

uint64_t sg_device_alloc_address(struct sg_device *dev, uint64_t size) {
  if (size > (1ull << 48))
    return 0;
  uint64_t span = ((size ? size : 1) + 255) / 256 * 256 + GUARD_GAP;
  uint64_t addr = atomic_fetch_add(&dev->next_addr, span);
  return addr + span < (1ull << 62) ? addr : 0;
}

/* ---- The parameter block ------------------------------------------------ */

/* Each __local argument starts on a multiple of LOCAL_ALIGN, the largest
 * alignment of an OpenCL C type (long16, double16): the pointer is aligned
 * for whatever type it points to (OpenCL C 6.3.5), which the launch does not
 * know. Local sizes come from clSetKernelArg (any size_t): the arithmetic
 * saturates at UINT64_MAX, which no device has, instead of wrapping to a
 * small size that would let __local arguments alias. */
#define LOCAL_ALIGN 128ull
static uint64_t local_align(uint64_t n) {
  return n > UINT64_MAX - (LOCAL_ALIGN - 1) ? UINT64_MAX : (n + LOCAL_ALIGN - 1) & ~(LOCAL_ALIGN - 1);
}

static uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

uint64_t sg_device_local_mem_size(const struct sg_kernel_info *kernel,
                                  const struct sg_arg_value *args) {
  uint64_t total = local_align(kernel->static_local_size);
  for (uint32_t i = 0; i < kernel->num_args; i++)
    if (kernel->args[i].kind == SG_ARG_LOCAL)
      total = add_sat(total, local_align(args[i].local_size));
  return total;
}

/* Writes one argument into its slot. Returns false (with a message) when the
 * metadata or the value cannot be honoured. An image's descriptor goes to
 * *desc_next in the block (at device address *desc_addr), and its slot gets
 * that address. */
static bool put_arg(const struct sg_launch *launch, uint32_t i, uint8_t *args,
                    uint64_t *local_next, uint8_t **desc_next, uint64_t *desc_addr, char *err,
                    size_t errlen) {
  const struct sg_kernel_arg *a = &launch->kernel->args[i];
  const struct sg_arg_value *v = &launch->args[i];
  uint64_t size = a->kind == SG_ARG_VALUE ? a->size : 8;
  if ((uint64_t)a->offset + size > launch->kernel->args_size) {
    snprintf(err, errlen, "argument %u's slot lies outside the parameter block", i);
    return false;
  }
  uint64_t addr;
  switch (a->kind) {
  case SG_ARG_GLOBAL:
  case SG_ARG_CONSTANT:
    addr = v->buffer ? v->buffer->addr : 0;
    memcpy(args + a->offset, &addr, 8);
    return true;
  case SG_ARG_LOCAL:
    addr = SG_ADDR_LOCAL + *local_next;
    *local_next += local_align(v->local_size);
    memcpy(args + a->offset, &addr, 8);
    return true;
  case SG_ARG_VALUE:
    if (!v->bytes) {
      snprintf(err, errlen, "argument %u has no value", i);
      return false;
    }
    memcpy(args + a->offset, v->bytes, a->size);
    return true;
  case SG_ARG_SAMPLER:
    if (!v->bytes) {
      snprintf(err, errlen, "argument %u has no sampler", i);
      return false;
    }
    memcpy(args + a->offset, v->bytes, 8);
    return true;
  case SG_ARG_IMAGE:
    if (!v->image || !v->buffer) {
      snprintf(err, errlen, "argument %u has no image", i);
      return false;
    }
    memcpy(*desc_next, v->image, sizeof *v->image);
    memcpy(args + a->offset, desc_addr, 8);
    *desc_next += sizeof *v->image;
    *desc_addr += sizeof *v->image;
    return true;
  }
  snprintf(err, errlen, "argument %u has an unknown kind", i);
  return false;
}

static enum sg_status build_params(const struct sg_launch *launch, uint8_t **out,
                                   uint64_t *size, char *err, size_t errlen) {
  /* The images' descriptors follow the arguments, 16-byte aligned. */
  uint64_t desc_off = (SG_PARAM_ARGS_OFFSET + (uint64_t)launch->kernel->args_size + 15) & ~15ull;
  uint32_t images = 0;
  for (uint32_t i = 0; i < launch->kernel->num_args; i++)
    images += launch->kernel->args[i].kind == SG_ARG_IMAGE;
  *size = desc_off + (uint64_t)images * sizeof(struct sg_tex_desc);
  uint8_t *p = calloc(1, *size);
  if (!p) {
    snprintf(err, errlen, "out of memory for the parameter block");
    return SG_ENOMEM;
  }
  struct sg_launch_info info = {.work_dim = launch->nd.work_dim};
  for (int d = 0; d < 3; d++) {
    info.global_offset[d] = launch->nd.global_offset[d];
    info.global_size[d] = launch->nd.global_size[d];
    info.enqueued_local_size[d] = launch->nd.local_size[d];
  }
  if (launch->printf_buffer) {
    info.printf_buffer = launch->printf_buffer->addr;
    info.printf_size = launch->printf_buffer->size;
  }
  memcpy(p, &info, sizeof info);
  uint64_t local_next = local_align(launch->kernel->static_local_size);
  uint8_t *desc_next = p + desc_off;
  uint64_t desc_addr = SG_ADDR_PARAMS + desc_off;
  for (uint32_t i = 0; i < launch->kernel->num_args; i++) {
    if (!put_arg(launch, i, p + SG_PARAM_ARGS_OFFSET, &local_next, &desc_next, &desc_addr, err,
                 errlen)) {
      free(p);
      return SG_EINVAL;
    }
  }
  *out = p;
  return SG_OK;
}

/* ---- Checks before anything runs ---------------------------------------- */

static enum sg_status check_launch(const struct sg_device *dev,
                                   const struct sg_launch *launch, uint64_t *num_ctas,
                                   char *err, size_t errlen) {
  const struct sg_ndrange *nd = &launch->nd;
  const struct sg_kernel_info *k = launch->kernel;
  if (nd->work_dim < 1 || nd->work_dim > 3) {
    snprintf(err, errlen, "work_dim %u is not 1, 2 or 3", nd->work_dim);
    return SG_EINVAL;
  }
  uint64_t threads = 1, grid[3];
  for (int d = 0; d < 3; d++) {
    if (nd->local_size[d] == 0 || nd->local_size[d] > SG_MAX_CTA_THREADS) {
      snprintf(err, errlen, "local size %" PRIu64 " in dimension %d is out of range",
               nd->local_size[d], d);
      return SG_EINVAL;
    }
    threads *= nd->local_size[d];
  }
  if (threads > sg_config_max_work_group_size(&dev->cfg)) {
    snprintf(err, errlen, "work-group of %" PRIu64 " work-items exceeds the device's %u",
             threads, sg_config_max_work_group_size(&dev->cfg));
    return SG_EINVAL;
  }
  sg_ndrange_grid(nd, grid);
  *num_ctas = 1;
  for (int d = 0; d < 3; d++) {
    if (grid[d] > UINT32_MAX || __builtin_mul_overflow(*num_ctas, grid[d], num_ctas)) {
      snprintf(err, errlen, "the ND-range has too many work-groups");
      return SG_EINVAL;
    }
  }
  uint64_t local = sg_device_local_mem_size(launch->kernel, launch->args);
  if (local > dev->cfg.local_mem_per_core) {
    snprintf(err, errlen,
             "kernel '%s' needs %" PRIu64 " bytes of local memory (%" PRIu64
             " static, the rest in arguments); the device has %" PRIu64,
             k->name, local, k->static_local_size, dev->cfg.local_mem_per_core);
    return SG_ERESOURCES;
  }
  if ((k->uses & SG_USES_PRINTF) &&
      (!launch->printf_buffer || !launch->printf_buffer->host ||
       launch->printf_buffer->size < sizeof(struct sg_printf_header) ||
       launch->printf_buffer->addr % 8)) {
    snprintf(err, errlen, "kernel '%s' calls printf but the launch has no printf buffer",
             k->name);
    return SG_EINVAL;
  }
  uint64_t fit = sg_device_private_max_items(&dev->cfg, k);
  if (threads > fit) {
    snprintf(err, errlen,
             "kernel '%s' needs %" PRIu64 " bytes of private memory per work-item: a "
             "work-group of %" PRIu64 " needs more than the %" PRIu64
             "-byte stack window (at most %" PRIu64 " work-items fit)",
             k->name, sg_device_private_size(&dev->cfg, k), threads,
             (uint64_t)SG_STACK_WINDOW, fit);
    return SG_ERESOURCES;
  }
  return SG_OK;
}

/* ---- What the memory checker knows of a launch --------------------------- */

/* One allocation: the launch view and the objects, slots and names it
 * points to. Objects: the buffer and __local arguments (their pointers
 * come from the parameter block) and the program's __local arrays. */
struct check_storage {
  struct sg_check_launch l;
  struct sg_check_object *objects;
  uint64_t *slot_addr;
  uint32_t *slot_object;
  char (*names)[96];
};

/* One allocation for the launch's checking view (a short launch's few
 * hundred nanoseconds of setup were mostly allocations). */
static struct sg_check_launch *check_launch_new(const struct sg_device *dev,
                                                const struct sg_launch *launch,
                                                const struct sg_launch_memmap *map) {
  const struct sg_kernel_info *k = launch->kernel;
  const struct sg_program_image *img = launch->program;
  uint32_t n = k->num_args + img->num_locals;
  struct check_storage *c =
      calloc(1, sizeof *c + n * (sizeof *c->objects + sizeof *c->slot_addr + sizeof *c->names +
                                 3 * sizeof *c->slot_object));
  if (!c)
    return NULL;
  /* (widest alignment first) */
  c->objects = (struct sg_check_object *)(c + 1);
  c->slot_addr = (uint64_t *)(c->objects + n);
  c->names = (char (*)[96])(c->slot_addr + n);
  c->slot_object = (uint32_t *)(c->names + n);
  uint32_t *was = c->slot_object + n, *now = was + n; /* objects' places before and after sorting */
  uint32_t no = 0, ns = 0;
  uint64_t local_next = local_align(k->static_local_size);
  for (uint32_t i = 0; i < k->num_args; i++) {
    const struct sg_kernel_arg *a = &k->args[i];
    const struct sg_arg_value *v = &launch->args[i];
    struct sg_check_object o = {.local = a->kind == SG_ARG_LOCAL};
    if ((a->kind == SG_ARG_GLOBAL || a->kind == SG_ARG_CONSTANT) && v->buffer) {
      o.base = v->buffer->addr, o.size = v->buffer->size;
    } else if (a->kind == SG_ARG_LOCAL) {
      o.base = SG_ADDR_LOCAL + local_next, o.size = v->local_size;
      local_next += local_align(v->local_size);
    } else {
      continue;
    }
    sg_device_arg_name(k, i, c->names[no], sizeof c->names[0]);
    o.name = c->names[no];
    c->slot_addr[ns] = SG_ADDR_PARAMS + SG_PARAM_ARGS_OFFSET + a->offset;
    c->slot_object[ns++] = no;
    c->objects[no++] = o;
  }
  for (uint32_t i = 0; i < img->num_locals; i++) {
    if (img->locals[i].kernel && strcmp(img->locals[i].kernel, k->name))
      continue; /* another kernel's, overlapping this one's */
    snprintf(c->names[no], sizeof c->names[0], "__local array `%.64s`", img->locals[i].name);
    c->objects[no] = (struct sg_check_object){.base = SG_ADDR_LOCAL + img->locals[i].offset,
                                              .size = img->locals[i].size,
                                              .name = c->names[no],
                                              .local = true};
    no++;
  }
  /* Sorted by base (an insertion sort: a kernel has a few), the slots
   * following their objects. */
  for (uint32_t i = 0; i < no; i++)
    was[i] = i;
  for (uint32_t i = 1; i < no; i++)
    for (uint32_t j = i; j > 0 && c->objects[j - 1].base > c->objects[j].base; j--) {
      struct sg_check_object t = c->objects[j];
      c->objects[j] = c->objects[j - 1];
      c->objects[j - 1] = t;
      uint32_t w = was[j];
      was[j] = was[j - 1];
      was[j - 1] = w;
    }
  for (uint32_t i = 0; i < no; i++)
    now[was[i]] = i;
  for (uint32_t i = 0; i < ns; i++)
    c->slot_object[i] = now[c->slot_object[i]];
  c->l = (struct sg_check_launch){.objects = c->objects, .num_objects = no,
                                  .slot_addr = c->slot_addr, .slot_object = c->slot_object,
                                  .num_slots = ns, .regions = map->regions,
                                  .num_regions = map->count, .stack_base = map->stack_base,
                                  .stack_size = (uint32_t)sg_device_private_size(&dev->cfg, k),
                                  .code = sg_code_id(launch->program->code)};
  return &c->l;
}

static void check_launch_free(struct sg_check_launch *l) {
  free(l); /* the first member of its one allocation */
}

/* ---- Workers ------------------------------------------------------------- */

static enum sg_status worker_prepare(struct sg_device *dev, struct worker *w,
                                     const struct job *job) {
  const struct sg_config *cfg = &dev->cfg;
  const struct sg_launch *launch = job->launch;
  if (!w->core) {
    struct sg_sim_config sim = {.warp_size = cfg->warp_size,
                                .watchdog_insns = cfg->watchdog_insns,
                                .strict = dev->check.strict,
                                .reconv = (enum sg_reconv_policy)cfg->reconv,
                                .engine = (enum sg_engine)cfg->engine,
                                .jit_threshold = cfg->jit_threshold,
                                .debug = dev->debug};
    enum sg_status st = sg_core_create(&sim, w->index, &w->core);
    if (st != SG_OK)
      return st;
  }
  /* Zeroing is not required (OpenCL leaves local and private memory
   * undefined); calloc just keeps runs reproducible at no cost for pages
   * the kernel never touches. */
  if (!w->local && cfg->local_mem_per_core && !(w->local = calloc(1, cfg->local_mem_per_core)))
    return SG_ENOMEM;
  uint64_t stack = job->map->stack_index >= 0 ? job->map->regions[job->map->stack_index].size : 0;
  if (w->stack_cap < stack) {
    free(w->stack);
    w->stack_cap = 0;
    if (!(w->stack = calloc(1, stack)))
      return SG_ENOMEM;
    w->stack_cap = stack;
  }
  if (w->regions_cap < job->map->count) {
    struct sg_region *r = realloc(w->regions, job->map->count * sizeof *r);
    if (!r)
      return SG_ENOMEM;
    w->regions = r;
    w->regions_cap = job->map->count;
  }
  /* Consumers for this launch: with none, the core runs its fast loop. */
  uint32_t n = 0;
  if (launch->stats) {
    sg_stats_hook_init(&w->stats, cfg->warp_size);
    w->hooks[n++] = &w->stats.hook;
  }
  if (job->traces) {
    enum sg_status st = sg_trace_create(launch->program->code, job->trace_room, &w->trace);
    if (st != SG_OK)
      return st;
    w->hooks[n++] = sg_trace_hook(w->trace);
  }
  if (dev->check.races) {
    struct sg_races_config rc = {.warp_size = cfg->warp_size,
                                 .same_value = dev->check.same_value,
                                 .async_elsewhere = dev->check.sync,
                                 .memory_limit = cfg->check_memory};
    if (!w->races && sg_races_create(w->core, &rc, &w->races) != SG_OK)
      return SG_ENOMEM;
    sg_races_launch(w->races);
    w->hooks[n++] = sg_races_hook(w->races);
  }
  if (dev->check.sync) {
    if (!w->sync && sg_sync_create(w->core, cfg->warp_size, &w->sync) != SG_OK)
      return SG_ENOMEM;
    w->hooks[n++] = sg_sync_hook(w->sync);
  }
  if (job->check && dev->check.uninit) {
    enum sg_status st = SG_OK;
    if (!w->uninit)
      st = sg_check_uninit_create(w->core, cfg->warp_size, &w->uninit);
    if (st == SG_OK)
      st = sg_check_uninit_launch(w->uninit, job->check, sg_config_max_work_group_size(cfg),
                                  SG_ADDR_LOCAL,
                                  sg_device_local_mem_size(launch->kernel, launch->args));
    if (st != SG_OK)
      return st;
    w->hooks[n++] = sg_check_uninit_hook(w->uninit);
  }
  if (job->check && dev->check.memory) {
    enum sg_status st = SG_OK;
    if (!w->memcheck)
      st = sg_check_memory_create(w->core, cfg->warp_size, &w->memcheck);
    if (st == SG_OK)
      st = sg_check_memory_launch(w->memcheck, job->check,
                                  (sg_config_max_work_group_size(cfg) + cfg->warp_size - 1) /
                                      cfg->warp_size);
    if (st != SG_OK)
      return st;
    w->hooks[n++] = sg_check_memory_hook(w->memcheck);
  }
  sg_core_set_hooks(w->core, w->hooks, n);
  return SG_OK;
}

static void trim_stack(struct worker *w) {
  if (w->stack_cap > STACK_KEEP) {
    free(w->stack);
    w->stack = NULL;
    w->stack_cap = 0;
  }
}

static void record_failure(struct job *job, enum sg_status st, uint64_t cta_index,
                           const struct sg_fault *fault, const struct sg_cta_desc *cta) {
  pthread_mutex_lock(&job->lock);
  bool first_fault = st == SG_EFAULT &&
                     (job->status != SG_EFAULT || cta_index < job->fault_cta);
  if (job->status == SG_OK || first_fault)
    job->status = st;
  if (first_fault) {
    job->fault_cta = cta_index;
    job->fault = *fault;
    memcpy(job->fault_ctaid, cta->ctaid, sizeof job->fault_ctaid);
  }
  pthread_mutex_unlock(&job->lock);
  atomic_store(&job->stop, true);
}

/* Takes CTAs until none are left or the launch stops. CTAs below any index
 * taken are already running, so the lowest faulting CTA is always found. */
static void run_ctas(struct sg_device *dev, struct worker *w, struct job *job) {
  const struct sg_launch *launch = job->launch;
  struct sg_memmap mem;
  enum sg_status st = worker_prepare(dev, w, job);
  if (st != SG_OK) {
    record_failure(job, st, 0, NULL, NULL);
    trim_stack(w);
    return;
  }
  sg_memmap_bind(job->map, w->local, w->stack, w->regions, &mem);
  sg_findings_clear(&w->findings);
  sg_core_hold_fp(w->core);
  /* the same for every CTA of the launch (sg_ndrange_cta sets the rest) */
  w->cta.entry_pc = launch->kernel->entry_pc;
  w->cta.params_addr = SG_ADDR_PARAMS;
  w->cta.stack_base = job->map->stack_base;
  w->cta.stack_size = (uint32_t)sg_device_private_size(&dev->cfg, launch->kernel);
  while (!atomic_load(&job->stop)) {
    uint64_t i = atomic_fetch_add(&job->next_cta, 1);
    if (i >= job->num_ctas)
      break;
    sg_ndrange_cta(&launch->nd, dev->cfg.warp_size, i, &w->cta);
    w->cta.core_id = (uint32_t)(i % dev->cfg.cores); /* round-robin, as a GPU's CTA issue */
    struct sg_fault fault; /* sg_core_run_cta clears it (sg_core_bind) */
    st = sg_core_run_cta(w->core, launch->program->code, &w->cta, &mem, &w->findings, &fault);
    if (st != SG_OK)
      record_failure(job, st, i, &fault, &w->cta);
  }
  sg_core_release_fp(w->core);
  pthread_mutex_lock(&job->lock);
  sg_findings_merge(&job->findings, &w->findings);
  if (launch->stats)
    sg_stats_add(&job->stats, &w->stats.stats);
  if (w->trace)
    job->traces[job->ntraces++] = w->trace;
  w->trace = NULL;
  if (w->races && job->races)
    job->races[job->nraces++] = w->races;
  pthread_mutex_unlock(&job->lock);
  trim_stack(w);
}

static void *worker_main(void *arg) {
  struct worker *w = arg;
  struct sg_device *dev = w->dev;
  pthread_mutex_lock(&dev->lock);
  for (;;) {
    while (!dev->quit && dev->generation == w->seen)
      pthread_cond_wait(&dev->wake, &dev->lock);
    if (dev->quit)
      break;
    w->seen = dev->generation;
    struct job *job = dev->job;
    if (!job) /* woke after the launch was done: nothing for it */
      continue;
    dev->running++;
    pthread_mutex_unlock(&dev->lock);
    job->work(dev, w, job);
    pthread_mutex_lock(&dev->lock);
    if (--dev->running == 0)
      pthread_cond_signal(&dev->done);
  }
  pthread_mutex_unlock(&dev->lock);
  return NULL;
}

/* Starts the workers not yet running. A thread that cannot be started is not
 * an error: the launch runs on those that exist (at least the caller). */
static void start_workers(struct sg_device *dev) {
  while (dev->num_started < dev->num_workers) {
    struct worker *w = calloc(1, sizeof *w);
    if (!w)
      break;
    w->dev = dev;
    w->index = dev->num_started;
    w->seen = dev->generation;
    if (dev->num_started > 0 && pthread_create(&w->thread, NULL, worker_main, w) != 0) {
      free(w);
      break;
    }
    dev->workers[dev->num_started++] = w;
  }
  dev->num_workers = dev->num_started;
}

static bool timed_begin(struct sg_device *dev, struct job *job);

static uint64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Waking a pool thread and waiting for it costs tens of microseconds: a
 * functional launch whose kernel last ran as many CTAs or more in less
 * than this runs on the calling thread alone. */
#define ALONE_NS 50000u

static bool run_alone(const struct sg_device *dev, const struct job *job) {
  return !job->timed && job->launch->kernel == dev->quick_kernel &&
         job->num_ctas <= dev->quick_ctas;
}

/* Runs every CTA of the job on all workers; the caller is worker 0. */
static void run_job(struct sg_device *dev, struct job *job) {
  pthread_mutex_lock(&dev->launch_lock);
  start_workers(dev);
  if (dev->num_started == 0) {
    pthread_mutex_unlock(&dev->launch_lock);
    record_failure(job, SG_ENOMEM, 0, NULL, NULL);
    return;
  }
  if (job->timed && !timed_begin(dev, job)) {
    pthread_mutex_unlock(&dev->launch_lock);
    return;
  }
  uint64_t start = mono_ns();
  bool alone = dev->num_started == 1 || run_alone(dev, job);
  if (!alone) {
    pthread_mutex_lock(&dev->lock);
    dev->job = job;
    dev->generation++;
    pthread_cond_broadcast(&dev->wake);
    pthread_mutex_unlock(&dev->lock);
  }

  job->work(dev, dev->workers[0], job);

  if (!job->timed) { /* the kernel, and how many CTAs it ran quickly */
    bool quick = mono_ns() - start < ALONE_NS;
    dev->quick_kernel = quick ? job->launch->kernel : NULL;
    dev->quick_ctas = quick ? job->num_ctas : 0;
  }
  if (alone) {
    pthread_mutex_unlock(&dev->launch_lock);
    return;
  }

  /* A small launch is often done before a sleeping worker wakes (tens of
   * microseconds): only those that joined are waited for. In timing mode
   * every worker has joined: its threads meet at every quantum. */
  pthread_mutex_lock(&dev->lock);
  dev->job = NULL;
  while (dev->running > 0)
    pthread_cond_wait(&dev->done, &dev->lock);
  pthread_mutex_unlock(&dev->lock);
  pthread_mutex_unlock(&dev->launch_lock);
}

/* ---- Launch ---------------------------------------------------------------- */

/* "input.cl:5:12: " when the program has a line for pc. */
static void where(const struct sg_source_loc *loc, bool found, char *out, size_t len) {
  if (!found)
    out[0] = 0;
  else if (loc->col)
    snprintf(out, len, "%s:%u:%u: ", loc->file, loc->line, loc->col);
  else
    snprintf(out, len, "%s:%u: ", loc->file, loc->line);
}

/* "; source: out[i] = in[i + 64];": the line, without its indentation. */
static void quote(const struct sg_source_loc *loc, bool found, char *out, size_t len) {
  out[0] = 0;
  if (!found || !loc->text)
    return;
  const char *t = loc->text;
  uint32_t n = loc->text_len;
  while (n && (*t == ' ' || *t == '\t'))
    t++, n--;
  while (n && (t[n - 1] == ' ' || t[n - 1] == '\t' || t[n - 1] == '\r'))
    n--;
  if (n)
    snprintf(out, len, "; source: %.*s%s", n > 160 ? 160 : (int)n, t, n > 160 ? "..." : "");
}

/* "work-item (global 17,0,0; group 1,0,0; local 1,0,0; warp 0 lane 1) at PC
 * 0x10234 (sw a1, 0(a0))": who did it and where (warp_lane NULL: not
 * known, as for the other work-item of a race). */
static void who(const struct sg_launch *launch, const uint32_t ctaid[3], const uint32_t tid[3],
                const uint32_t *warp_lane, uint64_t pc, char *out, size_t len) {
  const struct sg_ndrange *nd = &launch->nd;
  const struct sg_program_image *img = launch->program;
  uint64_t gid[3];
  for (int d = 0; d < 3; d++)
    gid[d] = nd->global_offset[d] + ctaid[d] * nd->local_size[d] + tid[d];
  char insn[96] = "", lane[48] = "";
  if (pc >= img->ro_base && pc - img->ro_base + 4 <= img->ro_size && pc % 4 == 0) {
    uint32_t word;
    struct sg_uop u;
    char text[80];
    memcpy(&word, img->ro + (pc - img->ro_base), 4);
    sg_decode(word, &u);
    snprintf(insn, sizeof insn, " (%s)", sg_disasm(&u, pc, text, sizeof text));
  }
  if (warp_lane)
    snprintf(lane, sizeof lane, "; warp %u lane %u", warp_lane[0], warp_lane[1]);
  snprintf(out, len,
           "work-item (global %" PRIu64 ",%" PRIu64 ",%" PRIu64
           "; group %u,%u,%u; local %u,%u,%u%s) at PC 0x%" PRIx64 "%s",
           gid[0], gid[1], gid[2], ctaid[0], ctaid[1], ctaid[2], tid[0], tid[1], tid[2], lane, pc,
           insn);
}

/* "input.cl:5:12: store of 4 bytes to unmapped address 0x0 by work-item
 * (...) at PC 0x10234 (sw a1, 0(a0))": the finding, with its source
 * location when the program has line tables (the quoted line goes in
 * *src). A finding about two work-items (a race) names the other after it:
 * "...; the other: input.cl:7:3: work-item (...) at PC ...". */
static void describe(const struct sg_launch *launch, const struct sg_fault *f,
                     const uint32_t ctaid[3], char *out, size_t len, char *src, size_t srclen) {
  const struct sg_program_image *img = launch->program;
  char at[256], first[320], other[600] = "";
  struct sg_source_loc loc;
  bool found = sg_program_locate(img, f->pc, &loc);
  where(&loc, found, at, sizeof at);
  quote(&loc, found, src, srclen);
  const uint32_t warp_lane[2] = {f->warp, f->lane};
  who(launch, ctaid, f->tid, warp_lane, f->pc, first, sizeof first);
  if (f->other.pc) {
    char oat[256], w[256];
    found = sg_program_locate(img, f->other.pc, &loc);
    where(&loc, found, oat, sizeof oat);
    who(launch, f->other.ctaid, f->other.tid, NULL, f->other.pc, w, sizeof w);
    snprintf(other, sizeof other, "; the other: %s%s", oat, w);
  }
  snprintf(out, len, "%s%s by %s%s", at, f->what[0] ? f->what : sg_fault_text(f->kind), first,
           other);
}

/* Sites of one kind at one source line (and, for a race, with the other
 * access at one source line) are one site, whatever PCs the compiler made
 * of the line (an unrolled loop, a vector split into lanes): counts are
 * added to the earliest (f is sorted by first work-item). */
static void merge_lines(const struct sg_program_image *img, struct sg_findings *f) {
  struct key {
    const char *file, *other_file;
    uint32_t line, other_line;
  } *keys = calloc(f->count + 1, sizeof *keys);
  if (!keys)
    return;
  uint32_t kept = 0;
  for (uint32_t i = 0; i < f->count; i++) {
    struct sg_source_loc loc;
    struct key k = {0};
    if (sg_program_locate(img, f->site[i].first.pc, &loc))
      k.file = loc.file, k.line = loc.line;
    if (f->site[i].first.other.pc && sg_program_locate(img, f->site[i].first.other.pc, &loc))
      k.other_file = loc.file, k.other_line = loc.line;
    uint32_t j = 0;
    while (k.file && j < kept &&
           !(keys[j].file == k.file && keys[j].line == k.line &&
             keys[j].other_file == k.other_file && keys[j].other_line == k.other_line &&
             f->site[j].first.kind == f->site[i].first.kind &&
             !f->site[j].first.other.pc == !f->site[i].first.other.pc))
      j++;
    if (k.file && j < kept) {
      f->site[j].count += f->site[i].count;
      continue;
    }
    keys[kept] = k;
    f->site[kept++] = f->site[i];
  }
  f->count = kept;
  free(keys);
}

/* The last line of a report: how many findings of each kind, and which
 * checks ran. */
static void summarise(const struct sg_launch *launch, const struct sg_findings *f,
                      const struct sg_check *check, uint64_t total, FILE *out) {
  uint64_t per_kind[SG_FAULT_COUNT] = {0};
  for (uint32_t i = 0; i < f->count; i++)
    per_kind[f->site[i].first.kind] += f->site[i].count;
  fprintf(out, "kernel '%s': %" PRIu64 " finding%s at %u site%s:", launch->kernel->name, total,
          total == 1 ? "" : "s", f->count + (f->lost ? 1 : 0), f->count == 1 && !f->lost ? "" : "s");
  const char *sep = " ";
  for (int k = 0; k < SG_FAULT_COUNT; k++)
    if (per_kind[k]) {
      fprintf(out, "%s%" PRIu64 " %s", sep, per_kind[k], sg_fault_name((enum sg_fault_kind)k));
      sep = ", ";
    }
  if (f->lost)
    fprintf(out, "%s%" PRIu64 " past the table of sites", sep, f->lost);
  fputs(" (SOFTGPU_CHECK=", out);
  sg_check_print(check, out);
  fputs(")\n", out);
}

/* One line per site ("kernel 'k': input.cl:5:3: <finding> by work-item ...
 * at PC ...; 37 times; source: ..."), the first SG_REPORT_MAX_SITES of
 * them, then how many more, then the summary. */
static char *report_findings(const struct sg_launch *launch, struct sg_findings *f,
                             const struct sg_check *check, uint64_t *total) {
  *total = f->lost;
  if (!f->count && !f->lost)
    return NULL;
  sg_findings_sort(f);
  merge_lines(launch->program, f);
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  if (!out)
    return NULL;
  uint64_t more = f->lost;
  for (uint32_t i = 0; i < f->count; i++) {
    const struct sg_finding_site *site = &f->site[i];
    *total += site->count;
    if (i >= SG_REPORT_MAX_SITES) {
      more += site->count;
      continue;
    }
    char line[1536], src[256];
    describe(launch, &site->first, site->ctaid, line, sizeof line, src, sizeof src);
    fprintf(out, "kernel '%s': %s", launch->kernel->name, line);
    if (site->count > 1)
      fprintf(out, "; %" PRIu64 " times", site->count);
    fprintf(out, "%s\n", src);
  }
  if (more)
    fprintf(out, "kernel '%s': %" PRIu64 " more findings at %u more sites not shown\n",
            launch->kernel->name, more,
            f->count > SG_REPORT_MAX_SITES ? f->count - SG_REPORT_MAX_SITES : 0);
  summarise(launch, f, check, *total, out);
  fclose(out);
  return text;
}

/* Races between work-groups, from every worker's summaries once all CTAs
 * ran; under strict checking the first ends the launch like any finding. */
static void check_across(const struct sg_launch *launch, struct job *job, bool strict) {
  if (job->status != SG_OK && job->status != SG_EFAULT)
    return;
  uint64_t grid[3];
  uint32_t nctaid[3];
  sg_ndrange_grid(&launch->nd, grid);
  for (int d = 0; d < 3; d++)
    nctaid[d] = (uint32_t)grid[d];
  struct sg_findings across = {0};
  if (sg_races_across(job->races, job->nraces, nctaid, &across) != SG_OK) {
    job->status = SG_ENOMEM;
  } else if (across.count && job->status == SG_OK && strict) {
    sg_findings_sort(&across);
    job->status = SG_EFAULT;
    job->fault = across.site[0].first;
    memcpy(job->fault_ctaid, across.site[0].ctaid, sizeof job->fault_ctaid);
  } else {
    sg_findings_merge(&job->findings, &across);
  }
  sg_findings_free(&across);
}

void sg_launch_result_free(struct sg_launch_result *result) {
  free(result->report);
  result->report = NULL;
  sg_timing_result_free(&result->timing);
}

/* ---- Timing mode ----------------------------------------------------------- */

/* A timed launch: the cores of the machine (sg_gpu) run on the host
 * workers in cycle quanta; each core holds up to `slots` CTAs, each slot
 * with its own storage behind the local window and the stacks, its
 * descriptor and its view of memory, and each core its own consumers and
 * findings. */
struct timed_core {
  uint8_t *local, *stack;
  struct sg_cta_desc *desc;   /* per slot */
  struct sg_region *regions;  /* per slot: the map's regions */
  struct sg_memmap *mem;      /* per slot */
  struct sg_hook *hooks[2];
  struct sg_stats_hook stats;
  struct sg_trace *trace;
};

struct timed {
  struct sg_device *dev;
  const struct sg_launch *launch;
  const struct sg_launch_memmap *map;
  uint32_t cores, slots;
  uint64_t local, stack;      /* bytes per slot */
  struct timed_core *core;
  struct sg_hook ***hooks;    /* per core: core[c].hooks */
  uint32_t *nhooks;
  struct sg_findings *findings;
  struct sg_gpu_launch gl;
  bool progress;              /* say how far a long launch got */
  uint64_t started_ns, said_ns;
};

/* CTA `index` for slot `slot` of core `core`: its ids and its memory. */
static void timed_cta(void *ctx, uint64_t index, uint32_t core, uint32_t slot,
                      const struct sg_cta_desc **desc, const struct sg_memmap **mem) {
  struct timed *t = ctx;
  struct timed_core *tc = &t->core[core];
  struct sg_cta_desc *d = &tc->desc[slot];
  const struct sg_config *cfg = &t->dev->cfg;
  sg_ndrange_cta(&t->launch->nd, cfg->warp_size, index, d);
  d->entry_pc = t->launch->kernel->entry_pc;
  d->params_addr = SG_ADDR_PARAMS;
  d->stack_base = t->map->stack_base;
  d->stack_size = (uint32_t)sg_device_private_size(cfg, t->launch->kernel);
  d->core_id = core;
  sg_memmap_bind(t->map, tc->local + slot * t->local, tc->stack + slot * t->stack,
                 tc->regions + (size_t)slot * t->map->count, &tc->mem[slot]);
  *desc = d;
  *mem = &tc->mem[slot];
}

/* A progress line on stderr for a launch past two seconds (when stderr is
 * a terminal or SOFTGPU_PROGRESS=1), then every second. */
static void timed_progress(void *ctx, const struct sg_gpu *g) {
  struct timed *t = ctx;
  if (!t->progress)
    return;
  uint64_t now = mono_ns(), ran = now - t->started_ns;
  if (ran < 2000000000ull || now - t->said_ns < 1000000000ull)
    return;
  t->said_ns = now;
  uint64_t cycles = sg_gpu_cycles(g);
  fprintf(stderr,
          "SoftGPU: kernel '%s': %" PRIu64 " of %" PRIu64 " work-groups, %" PRIu64
          " cycles, %.0f cycles/s\n",
          t->launch->kernel->name, sg_gpu_ctas_done(g), t->gl.num_ctas, cycles,
          (double)cycles / ((double)ran / 1e9));
}

static void timed_free(struct timed *t) {
  for (uint32_t c = 0; t->core && c < t->cores; c++) {
    struct timed_core *tc = &t->core[c];
    free(tc->local);
    free(tc->stack);
    free(tc->desc);
    free(tc->regions);
    free(tc->mem);
    sg_trace_destroy(tc->trace);
    if (t->findings)
      sg_findings_free(&t->findings[c]);
  }
  free(t->core);
  free(t->hooks);
  free(t->nhooks);
  free(t->findings);
}

static void timed_work(struct sg_device *dev, struct worker *w, struct job *job) {
  (void)job;
  sg_gpu_work(dev->gpu, w->index);
}

static enum sg_status timed_prepare(struct sg_device *dev, struct job *job, struct timed *t,
                                    uint64_t local, uint64_t threads, char *msg, size_t len) {
  const struct sg_config *cfg = &dev->cfg;
  const struct sg_launch *launch = job->launch;
  /* The checkers follow one CTA per core; timing mode keeps several
   * resident. It still reports what the core itself finds (accesses
   * outside every mapping, to read-only memory, misaligned atomics ...). */
  static atomic_bool said;
  if ((dev->check.races || dev->check.sync || dev->check.uninit) && !atomic_exchange(&said, true))
    fprintf(stderr, "SoftGPU: timing mode runs without the races, sync and uninit checkers "
                    "(SOFTGPU_CHECK); check kernels in functional mode\n");
  if (!dev->gpu) {
    struct sg_sim_config sim = {.warp_size = cfg->warp_size,
                                .watchdog_insns = cfg->watchdog_insns,
                                .strict = dev->check.strict,
                                .reconv = (enum sg_reconv_policy)cfg->reconv,
                                .warp_slots = cfg->warps_per_core,
                                .sched = (enum sg_sched_policy)cfg->sched};
    struct sg_timing_config tcfg;
    sg_config_timing(cfg, &tcfg);
    if (sg_gpu_create(&sim, &tcfg, cfg->cores, &dev->gpu) != SG_OK) {
      snprintf(msg, len, "out of memory for the timing model");
      return SG_ENOMEM;
    }
  }
  *t = (struct timed){.dev = dev, .launch = launch, .map = job->map, .cores = cfg->cores,
                      .local = local,
                      /* every CTA slot's stacks, as the launch's map sizes them */
                      .stack = job->map->stack_index >= 0
                                   ? job->map->regions[job->map->stack_index].size
                                   : 0};
  const char *limit;
  t->slots = sg_gpu_occupancy(dev->gpu, launch->program->code, (uint32_t)threads, local,
                              cfg->local_mem_per_core, &limit);
  if (t->slots == 0) {
    snprintf(msg, len, "kernel '%s': a work-group of %" PRIu64 " work-items does not fit a core "
             "(%s)", launch->kernel->name, threads, limit);
    return SG_ERESOURCES;
  }
  t->core = calloc(t->cores, sizeof *t->core);
  t->hooks = calloc(t->cores, sizeof *t->hooks);
  t->nhooks = calloc(t->cores, sizeof *t->nhooks);
  t->findings = calloc(t->cores, sizeof *t->findings);
  bool ok = t->core && t->hooks && t->nhooks && t->findings;
  for (uint32_t c = 0; ok && c < t->cores; c++) {
    struct timed_core *tc = &t->core[c];
    ok = (!local || (tc->local = calloc(t->slots, local))) &&
         (tc->stack = calloc(t->slots, t->stack)) &&
         (tc->desc = calloc(t->slots, sizeof *tc->desc)) &&
         (tc->regions = calloc((size_t)t->slots * t->map->count, sizeof *tc->regions)) &&
         (tc->mem = calloc(t->slots, sizeof *tc->mem));
    if (ok && launch->stats) {
      sg_stats_hook_init(&tc->stats, cfg->warp_size);
      tc->hooks[t->nhooks[c]++] = &tc->stats.hook;
    }
    if (ok && job->traces) {
      ok = sg_trace_create(launch->program->code, job->trace_room / t->cores, &tc->trace) == SG_OK;
      if (ok) {
        sg_trace_set_cycles(tc->trace);
        tc->hooks[t->nhooks[c]++] = sg_trace_hook(tc->trace);
      }
    }
    t->hooks[c] = tc->hooks;
  }
  if (!ok) {
    timed_free(t);
    snprintf(msg, len, "out of memory for a timed launch of kernel '%s'", launch->kernel->name);
    return SG_ENOMEM;
  }
  const char *env = sg_env_get(SG_ENV_PROGRESS);
  t->progress = env ? strcmp(env, "0") != 0 && *env : isatty(2);
  t->gl = (struct sg_gpu_launch){.code = launch->program->code, .num_ctas = job->num_ctas,
                                 .ctas_per_core = t->slots, .occupancy_limit = limit,
                                 .cta = timed_cta, .ctx = t,
                                 .hooks = (struct sg_hook *const *const *)t->hooks,
                                 .nhooks = t->nhooks, .findings = t->findings,
                                 .progress = timed_progress};
  job->timed = t;
  job->work = timed_work;
  return SG_OK;
}

/* On the launch lock, with the workers counted: the machine starts the
 * launch for all of them. */
static bool timed_begin(struct sg_device *dev, struct job *job) {
  job->timed->started_ns = job->timed->said_ns = mono_ns();
  if (sg_gpu_start(dev->gpu, &job->timed->gl, dev->num_started) != SG_OK) {
    record_failure(job, SG_ENOMEM, 0, NULL, NULL);
    return false;
  }
  return true;
}

/* The launch's result: cycles and what explains them, the statistics,
 * findings and traces of every core, and the fault of the lowest CTA. */
static void timed_end(struct sg_device *dev, struct job *job, struct sg_launch_result *res) {
  struct timed *t = job->timed;
  struct sg_fault fault;
  uint64_t cta = 0;
  enum sg_status st = job->status == SG_OK ? sg_gpu_finish(dev->gpu, &res->timing, &fault, &cta)
                                            : SG_OK;
  if (st == SG_ENOMEM)
    job->status = SG_ENOMEM; /* the timing model's queues could not grow */
  if (st == SG_EFAULT) {
    uint64_t grid[3];
    sg_ndrange_grid(&job->launch->nd, grid);
    uint32_t ctaid[3] = {(uint32_t)(cta % grid[0]), (uint32_t)(cta / grid[0] % grid[1]),
                         (uint32_t)(cta / grid[0] / grid[1])};
    job->status = SG_EFAULT;
    job->fault = fault;
    memcpy(job->fault_ctaid, ctaid, sizeof ctaid);
  }
  res->timed = true;
  res->device_ns = res->timing.total.cycles * 1000ull / dev->cfg.clock_mhz;
  for (uint32_t c = 0; c < t->cores; c++) {
    struct timed_core *tc = &t->core[c];
    if (job->launch->stats)
      sg_stats_add(&job->stats, &tc->stats.stats);
    sg_findings_merge(&job->findings, &t->findings[c]);
    if (tc->trace)
      job->traces[job->ntraces++] = tc->trace, tc->trace = NULL;
  }
  timed_free(t);
}

enum sg_status sg_device_launch(struct sg_device *dev, const struct sg_launch *launch,
                                struct sg_launch_result *result) {
  memset(result, 0, sizeof *result);
  char *msg = result->message;
  size_t msglen = sizeof result->message;
  uint64_t num_ctas, params_size;
  enum sg_status st = check_launch(dev, launch, &num_ctas, msg, msglen);
  if (st != SG_OK)
    return st;
  uint8_t *params;
  st = build_params(launch, &params, &params_size, msg, msglen);
  if (st != SG_OK)
    return st;
  uint64_t cta_threads = launch->nd.local_size[0] * launch->nd.local_size[1] *
                         launch->nd.local_size[2];
  uint64_t local = sg_device_local_mem_size(launch->kernel, launch->args);
  struct sg_launch_memmap map;
  /* check_launch bounds the product by SG_STACK_WINDOW */
  st = sg_memmap_build(launch, params, params_size, local,
                       cta_threads * sg_device_private_size(&dev->cfg, launch->kernel), &map,
                       msg, msglen);
  if (st != SG_OK) {
    free(params);
    return st;
  }
  const struct sg_buffer *pb = launch->printf_buffer;
  if (pb)
    memset(pb->host, 0, pb->size); /* the host walks records up to a zero descriptor */
  struct job job = {.launch = launch, .map = &map, .num_ctas = num_ctas};
  if (launch->trace && (job.trace_room = sg_trace_out_room(launch->trace)) > 0 &&
      !(job.traces = calloc(dev->num_workers > dev->cfg.cores ? dev->num_workers : dev->cfg.cores,
                            sizeof *job.traces))) {
    sg_memmap_free(&map);
    free(params);
    snprintf(msg, msglen, "out of memory for the trace");
    return SG_ENOMEM;
  }
  if (dev->check.races && !(job.races = calloc(dev->num_workers, sizeof *job.races))) {
    free(job.traces);
    sg_memmap_free(&map);
    free(params);
    snprintf(msg, msglen, "out of memory for the race checker");
    return SG_ENOMEM;
  }
  if ((dev->check.memory || dev->check.uninit) && !(job.check = check_launch_new(dev, launch, &map))) {
    free(job.traces);
    free(job.races);
    sg_memmap_free(&map);
    free(params);
    snprintf(msg, msglen, "out of memory for the memory checker");
    return SG_ENOMEM;
  }
  atomic_init(&job.next_cta, 0);
  atomic_init(&job.stop, false);
  pthread_mutex_init(&job.lock, NULL);
  job.work = run_ctas;
  struct timed timed;
  if (dev->cfg.mode == SG_MODE_TIMING) {
    st = timed_prepare(dev, &job, &timed, local, cta_threads, msg, msglen);
    if (st != SG_OK) {
      pthread_mutex_destroy(&job.lock);
      free(job.traces);
      sg_memmap_free(&map);
      free(params);
      return st;
    }
  }
  if (num_ctas > 0)
    run_job(dev, &job);
  if (job.timed)
    timed_end(dev, &job, result);
  pthread_mutex_destroy(&job.lock);
  check_launch_free(job.check);
  sg_memmap_free(&map);
  free(params);

  result->stats = job.stats;
  if (job.traces) {
    sg_trace_out_launch(launch->trace, job.traces, job.ntraces, launch->kernel->name,
                        dev->cfg.cores);
    for (uint32_t i = 0; i < job.ntraces; i++)
      sg_trace_destroy(job.traces[i]);
    free(job.traces);
  }
  if (job.races) {
    check_across(launch, &job, dev->check.strict);
    free(job.races);
  }
  result->report = report_findings(launch, &job.findings, &dev->check, &result->findings);
  sg_findings_free(&job.findings);
  if (pb) {
    struct sg_printf_header h;
    memcpy(&h, pb->host, sizeof h);
    uint64_t room = pb->size - sizeof h;
    result->printf_used = h.used < room ? h.used : room;
    result->printf_dropped = h.dropped;
  }
  if (job.status == SG_EFAULT) {
    result->fault = job.fault;
    memcpy(result->fault_ctaid, job.fault_ctaid, sizeof result->fault_ctaid);
    char what[sizeof result->message - 64], src[256];
    describe(launch, &job.fault, job.fault_ctaid, what, sizeof what, src, sizeof src);
    snprintf(msg, msglen, "kernel '%s' faulted: %.700s%.250s", launch->kernel->name, what, src);
  } else if (job.status == SG_ENOMEM) {
    snprintf(msg, msglen, "out of host memory running kernel '%s'", launch->kernel->name);
  } else if (job.status != SG_OK) {
    snprintf(msg, msglen, "kernel '%s' could not run (status %d)", launch->kernel->name,
             job.status);
  }
  return job.status;
}
