/* SPDX-License-Identifier: MIT */
/* device/: the configured machine. Turns an ND-range into CTAs (grid, CTA and
 * warp ids, tail masks), maps device memory and dispatches CTAs to simulated
 * cores running on host threads. Knows nothing about OpenCL objects. */
#ifndef SG_DEVICE_H
#define SG_DEVICE_H

#include <stdio.h>

#include "sg_compiler.h"

/* ---- Configuration (sg_config.def: SG_CFG(name, type, default, "help")) -- */

/* How launches run (config key `mode`): the functional core alone, as fast
 * as it goes, or cycle by cycle through the timing model. */
#define SG_MODES(X) X(FUNCTIONAL, functional) X(TIMING, timing)
enum sg_mode {
#define X(e, n) SG_MODE_##e,
  SG_MODES(X)
#undef X
};

struct sg_config {
#define SG_CFG(name, type, def, help) type name;
#include "sg_config.def"
#undef SG_CFG
};

/* Fills *cfg from spec: NULL or "" = defaults, a preset name ("default",
 * "mvpgpu", "vortex", ...) or the path of a key=value file (which may start
 * from a preset with "preset=NAME"). Unknown keys, bad values and
 * inconsistent settings give SG_EINVAL with a message in err. */
enum sg_status sg_config_load(struct sg_config *cfg, const char *spec, char *err, size_t errlen);
/* The spec from the environment: SOFTGPU_CONFIG. SOFTGPU_CHECK is read by
 * sg_device_create (sg_check_parse). */
enum sg_status sg_config_from_env(struct sg_config *cfg, char *err, size_t errlen);
void sg_config_print(const struct sg_config *cfg, FILE *out); /* key=value lines */
void sg_config_help(FILE *out); /* every key with its help and default, the presets */
/* One JSON object {"cores": 8, ...} (no newline), for stats files. */
void sg_config_print_json(const struct sg_config *cfg, FILE *out);
uint32_t sg_config_max_work_group_size(const struct sg_config *cfg);
/* The largest work-group a kernel of program p may have on cfg's device
 * (CL_KERNEL_WORK_GROUP_SIZE): the configuration's limit, and in timing
 * mode what a core's register file holds (regs_per_core over the registers
 * the program's code names, in whole warps; at least one work-item). */
uint32_t sg_device_max_work_group_size(const struct sg_config *cfg,
                                       const struct sg_program_image *p);
/* The timing model's numbers (sim/sg_timing_config.def) of cfg. */
void sg_config_timing(const struct sg_config *cfg, struct sg_timing_config *t);

/* ---- Checks (sg_check.def: SG_CHECK(field, "word", default, in_all, "help")) */
struct sg_check {
#define SG_CHECK(field, word, def, all, help) bool field;
#include "sg_check.def"
#undef SG_CHECK
};
/* Sets *out from a SOFTGPU_CHECK value: the defaults, then each
 * comma-separated word in turn ("all", "none" or a check's word). An
 * unknown word is named on warn (when not NULL) and ignored, so a typo
 * cannot silently turn checking off. */
void sg_check_parse(const char *spec, struct sg_check *out, FILE *warn);
void sg_check_help(FILE *out);                          /* one line per word */
void sg_check_print(const struct sg_check *c, FILE *out); /* "memory,races" or "none" */

/* Where a key's value came from (softgpu config). */
struct sg_config_origin {
  const char *source; /* NULL: the default; else a preset name or the file spec */
  bool preset;        /* source is a preset (also when a file said preset=NAME) */
  unsigned line;      /* files: the line that set the key */
};
/* sg_config_load that also says where each key's value came from: origins
 * has sg_config_num_keys() entries, in sg_config.def order; its strings live
 * as long as spec and the library. */
enum sg_status sg_config_load_origins(struct sg_config *cfg, const char *spec,
                                      struct sg_config_origin *origins, char *err, size_t errlen);

/* The keys and presets, for tools (softgpu config, generated docs). */
struct sg_config_key_info {
  const char *name, *type, *help; /* type: the C type of sg_config.def, or "choice" */
  const char *choices;            /* a choice key's names, "ipdom mpipdom ", else NULL */
};
unsigned sg_config_num_keys(void);
struct sg_config_key_info sg_config_key(unsigned i); /* i < sg_config_num_keys() */
/* The value of key i in cfg (NULL: its default) as configuration text. */
void sg_config_key_value(const struct sg_config *cfg, unsigned i, char *buf, size_t len);
struct sg_config_preset_info {
  const char *name, *description; /* description: one line */
};
unsigned sg_config_num_presets(void);
struct sg_config_preset_info sg_config_preset(unsigned i); /* i < sg_config_num_presets() */

/* ---- ND-range -> grid / CTAs ------------------------------------------ */

struct sg_ndrange {
  uint32_t work_dim;            /* 1..3 */
  uint64_t global_offset[3];
  uint64_t global_size[3];      /* real work-items (1 in unused dims) */
  uint64_t local_size[3];       /* enqueued work-group size */
  bool partial_groups;          /* CL2.0+: last group in a dim may be smaller */
  /* Otherwise CTAs always have local_size threads; those whose global id is
   * past global_size are masked (never execute). With a local size that
   * divides the global size (1.x rules) nothing is masked. */
};

/* Grid size in CTAs per dimension: ceil(global / local). */
void sg_ndrange_grid(const struct sg_ndrange *nd, uint64_t grid[3]);
/* Builds CTA number `linear` (x fastest) into *cta: ids, size, warps, masks.
 * Leaves entry_pc, params_addr, stack_* and core_id to the caller. */
void sg_ndrange_cta(const struct sg_ndrange *nd, uint32_t warp_size, uint64_t linear,
                    struct sg_cta_desc *cta);

/* ---- Device and launches ---------------------------------------------- */

struct sg_device; /* the machine: config, global address allocator, host thread pool */

/* The pool's threads start on the first launch and live until destroy. */
enum sg_status sg_device_create(const struct sg_config *cfg, struct sg_device **out);
void sg_device_destroy(struct sg_device *dev);
const struct sg_config *sg_device_config(const struct sg_device *dev);
/* The checks its launches run (SOFTGPU_CHECK when it was created). */
const struct sg_check *sg_device_check(const struct sg_device *dev);

/* Device address for a new global allocation of size bytes: 256-byte
 * aligned, with an unmapped guard gap (64 KiB) after it. Addresses are not
 * reused. Thread-safe. 0 when size is absurd (over 2^48) or the address
 * space is used up. */
uint64_t sg_device_alloc_address(struct sg_device *dev, uint64_t size);

/* Host-backed global memory bound to a kernel argument. */
struct sg_buffer {
  uint64_t addr;     /* from sg_device_alloc_address */
  uint64_t size;
  uint8_t *host;
  bool read_only;    /* kernel stores fault (CL_MEM_READ_ONLY, __constant args) */
  bool write_only;   /* kernel loads are findings (CL_MEM_WRITE_ONLY) */
};

/* One kernel argument's value. */
struct sg_arg_value {
  const struct sg_buffer *buffer; /* SG_ARG_GLOBAL/CONSTANT; NULL = null pointer.
                                     SG_ARG_IMAGE: the memory holding its texels */
  uint64_t local_size;            /* SG_ARG_LOCAL */
  const void *bytes;              /* SG_ARG_VALUE: kernel_arg.size bytes; SG_ARG_SAMPLER:
                                     the 8-byte sampler word (sim/sg_sim.h) */
  const struct sg_tex_desc *image; /* SG_ARG_IMAGE: its descriptor, which the device
                                      places in the parameter block for the launch */
};

/* A trace file that launches append to (SOFTGPU_TRACE; runtime/ opens it):
 * a text trace, or one Chrome trace-event JSON document for all launches. */
struct sg_trace_out;
/* path ending in ".json": the JSON format. NULL (message in err) when the
 * file cannot be created. */
struct sg_trace_out *sg_trace_out_open(const char *path, uint64_t limit, char *err,
                                       size_t errlen);
void sg_trace_out_close(struct sg_trace_out *out);

struct sg_launch {
  const struct sg_program_image *program;
  const struct sg_kernel_info *kernel;
  const struct sg_arg_value *args;   /* kernel->num_args entries */
  struct sg_ndrange nd;
  /* Kernels with SG_USES_PRINTF need one (host memory, at least 64 bytes);
   * the device clears its sg_printf_header and the kernel appends records. */
  const struct sg_buffer *printf_buffer;
  bool stats;                        /* count sg_stats into the result */
  struct sg_trace_out *trace;        /* append the launch's trace; NULL: none */
};

struct sg_launch_result {
  struct sg_stats stats;             /* when launch->stats */
  bool timed;                        /* timing mode: */
  struct sg_timing_result timing;    /*   cycles and what explains them */
  uint64_t device_ns;                /*   simulated time: cycles / clock_mhz */
  struct sg_fault fault;             /* kind != SG_FAULT_NONE when SG_EFAULT */
  uint32_t fault_ctaid[3];
  char message[1024];                /* one clear sentence on failure */
  /* Findings that did not end the launch (DESIGN.md section 4): one line
   * per site, with the work-item and how often, at most
   * SG_REPORT_MAX_SITES lines and a summary of the rest; malloc'd, NULL
   * when there are none. Free with sg_launch_result_free. */
  char *report;
  uint64_t findings;                 /* occurrences in all */
  uint64_t printf_used;              /* bytes of whole records after the printf header */
  uint64_t printf_dropped;           /* printf calls that found the buffer full */
};

/* Private memory (docs/decisions.md, "Private memory is sized per kernel"):
 * each work-item of a launch gets a stack slot of its kernel's private_size
 * rounded up to 16 bytes, and at least stack_per_lane when the compiler
 * could not bound it (SG_USES_UNBOUNDED_STACK). A work-group's slots lie
 * together in the stack window of SG_STACK_WINDOW bytes. Saturates at
 * UINT64_MAX. */
#define SG_STACK_WINDOW (SG_ADDR_GLOBAL - SG_ADDR_STACK)
uint64_t sg_device_private_size(const struct sg_config *cfg, const struct sg_kernel_info *kernel);
/* The most work-items per work-group whose stacks fit the window: 0 when not
 * even one does, UINT64_MAX when the kernel needs no stack. A launch of
 * larger work-groups fails with SG_ERESOURCES. */
uint64_t sg_device_private_max_items(const struct sg_config *cfg,
                                     const struct sg_kernel_info *kernel);

/* How findings name argument i: "buffer argument 1 `in`" (`__local`
 * argument for local pointers; without the name when the program did not
 * record it). */
void sg_device_arg_name(const struct sg_kernel_info *kernel, uint32_t i, char *out, size_t len);

/* Bytes of local memory a launch of kernel with args uses: the static
 * __local variables, then each __local argument, each 16-byte aligned. A
 * launch fails with SG_ERESOURCES when this exceeds local_mem_per_core. */
uint64_t sg_device_local_mem_size(const struct sg_kernel_info *kernel,
                                  const struct sg_arg_value *args);

/* Runs the whole ND-range; blocks until done. CTAs run on all host threads
 * (config host_threads, else SOFTGPU_THREADS, else all cores); the calling
 * thread is one of them. Launches on one device from several threads are
 * serialised (each already uses every host thread). Device findings follow
 * the rule of sg_fault.def: survivable ones are collected in result->report
 * and the launch goes on; the first fatal one (any one under SOFTGPU_CHECK=
 * strict) stops the launch: SG_EFAULT with result->message naming the
 * kernel, work-item (global, group and local ids), PC and instruction; the
 * fault reported is the one of the lowest-numbered faulting CTA. SG_ERESOURCES when local
 * memory or the work-group's private stacks do not fit, SG_EINVAL for a bad ND-range or
 * argument (e.g. a work-group over sg_config_max_work_group_size), SG_ENOMEM;
 * each with result->message. __local arguments are placed after the static
 * __local variables, 16-byte aligned, and their address is written in the
 * argument's 8-byte slot at its offset. */
enum sg_status sg_device_launch(struct sg_device *dev, const struct sg_launch *launch,
                                struct sg_launch_result *result);
void sg_launch_result_free(struct sg_launch_result *result);
#define SG_REPORT_MAX_SITES 20

/* ---- Launch memory map (used by sg_device_launch; exposed for tests) --- */

/* The regions of one launch, sorted by base: program image (code R|X, data
 * R|W), parameter block (R), bound buffers (R|W, or R when every binding is
 * read-only; repeated or overlapping bindings merge), and the local window
 * and stacks, whose host storage differs per worker (NULL here). */
struct sg_launch_memmap {
  struct sg_region *regions;
  uint32_t count;
  int32_t local_index, stack_index; /* -1 when the window is empty */
  uint64_t stack_base;              /* where the CTA's stacks start */
  char (*names)[96];                /* storage for buffer region names */
};

/* params: the parameter block (params_size bytes, mapped at SG_ADDR_PARAMS);
 * local_size: bytes of the local window; stack_size: bytes of all of one
 * CTA's stacks (at most SG_STACK_WINDOW), placed in the middle of the stack
 * window so that running off either end of them meets unmapped memory.
 * SG_EINVAL (message in err) when buffers or the program image overlap each
 * other or a fixed window. */
enum sg_status sg_memmap_build(const struct sg_launch *launch, uint8_t *params,
                               uint64_t params_size, uint64_t local_size, uint64_t stack_size,
                               struct sg_launch_memmap *out, char *err, size_t errlen);
void sg_memmap_free(struct sg_launch_memmap *map);
/* One worker's view of the launch: copies the regions into regions[] (map->count
 * entries), pointing the local window and stacks at this worker's storage. */
void sg_memmap_bind(const struct sg_launch_memmap *map, uint8_t *local, uint8_t *stack,
                    struct sg_region *regions, struct sg_memmap *out);

#endif
