/* SPDX-License-Identifier: MIT */
/* compiler/ private interfaces (DESIGN.md "2. The compiler"): the stages of
 * sg_build (front end, passes, codegen, link, reconvergence, binary) talk
 * through these types. Not installed; tests include it to reach the stages. */
#ifndef SG_CC_INTERNAL_H
#define SG_CC_INTERNAL_H

#include "sg_compiler.h"

#include <stdarg.h>

/* CL_KERNEL_ARG_* values (cl.h is a runtime/ concern; the numbers are fixed
 * by the OpenCL specification). */
#define SG_CL_ADDRESS_GLOBAL 0x119B
#define SG_CL_ADDRESS_LOCAL 0x119C
#define SG_CL_ADDRESS_CONSTANT 0x119D
#define SG_CL_ADDRESS_PRIVATE 0x119E
#define SG_CL_ACCESS_READ_ONLY 0x11A0
#define SG_CL_ACCESS_WRITE_ONLY 0x11A1
#define SG_CL_ACCESS_READ_WRITE 0x11A2
#define SG_CL_ACCESS_NONE 0x11A3
#define SG_CL_TYPE_CONST (1u << 0)
#define SG_CL_TYPE_RESTRICT (1u << 1)
#define SG_CL_TYPE_VOLATILE (1u << 2)
#define SG_CL_TYPE_PIPE (1u << 3)

/* A growing NUL-terminated text (build log, error messages). */
struct sg_text {
  char *buf;
  size_t len, cap;
};
void sg_text_printf(struct sg_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sg_text_append(struct sg_text *t, const char *s, size_t n);
char *sg_text_take(struct sg_text *t); /* never NULL; t is reset */

/* Parsed build options. */
struct sg_options {
  uint32_t cl_c_version;  /* 100 .. 300 */
  bool opt_disable;       /* -cl-opt-disable */
  bool kernel_arg_info;   /* -cl-kernel-arg-info */
  bool uniform_work_group;/* -cl-uniform-work-group-size */
  bool debug_full;        /* -g: full debug info (line tables are always made) */
  char **clang_args;      /* extra clang arguments, NULL-terminated */
  uint32_t num_clang_args;
  uint64_t max_private_size; /* sg_build_request's; not an option */
};
enum sg_status sg_cc_parse_options(const char *options, struct sg_options *opt,
                                   struct sg_text *log);
void sg_cc_options_free(struct sg_options *opt);

/* clang's driver and front end in this process (sg_cc_clang.cpp): runs the
 * driver on args (args[0] the clang executable) and its one compilation;
 * *text receives the diagnostics (malloc'd). 0 when it compiled. Only the
 * worker (and the compiler's tests) link it and register it with
 * sg_cc_set_clang before the first build. */
typedef int sg_cc_clang_fn(const char *const *args, size_t nargs, char **text);
sg_cc_clang_fn sg_cc_clang_run;
void sg_cc_set_clang(sg_cc_clang_fn *fn);

/* Runs clang on the source; bc and bc_size receive the malloc'd bitcode. */
enum sg_status sg_cc_frontend(const struct sg_build_request *req,
                              const struct sg_options *opt, void **bc,
                              size_t *bc_size, struct sg_text *log);

/* Bitcode -> optimised RISC-V relocatable object (malloc'd), with the kernel
 * metadata (entry_pc, static_local_size filled in later by the linker). */
/* A source file of the program as its line table names it: path (the
 * directory and name joined, as DWARF readers join them), name (as written:
 * "input.cl", "foo.h") and its text. */
struct sg_cc_source {
  char *path, *name, *text;
};
#define SG_CC_MAX_SOURCES 64
struct sg_cc_object {
  void *obj;
  size_t obj_size;
  uint32_t num_kernels;
  struct sg_kernel_info *kernels;
  uint32_t num_sources;
  struct sg_cc_source sources[SG_CC_MAX_SOURCES];
};
enum sg_status sg_cc_compile(const void *bc, size_t bc_size,
                             const struct sg_options *opt,
                             struct sg_cc_object *out, struct sg_text *log);
void sg_cc_object_free(struct sg_cc_object *o);

/* The LLVM target machine for the device (codegen). */
struct LLVMOpaqueTargetMachine;
struct LLVMOpaqueTargetMachine *sg_cc_target_machine(bool opt_disable,
                                                     struct sg_text *log);
enum sg_status sg_cc_emit_object(struct LLVMOpaqueTargetMachine *tm, void *module,
                                 void **obj, size_t *obj_size,
                                 struct sg_text *log);

/* Kernel printf (sg_cc_printf.c): marks the kernels that reach printf with
 * SG_USES_PRINTF and replaces each printf call by code that writes a record
 * into the launch's printf buffer. Runs before the device library is linked. */
struct LLVMOpaqueModule;
enum sg_status sg_cc_printf_lower(struct LLVMOpaqueModule *mod, struct sg_kernel_info *kernels,
                                  uint32_t num_kernels, struct sg_text *log);

/* Rewrites the module's selects and integer min/max on integers and floating
 * point as arithmetic on the condition's mask: no branch for a SIMT machine to
 * diverge on (sg_cc_select.c). */
void sg_cc_branch_free_selects(struct LLVMOpaqueModule *mod);

/* Entry wrapper symbol of a kernel. */
#define SG_ENTRY_PREFIX "__sg_entry_"

/* A linked program image: the relocator's output. */
struct sg_cc_symbol {
  char *name;
  uint64_t addr, size;
  bool is_func;
};
struct sg_linked {
  uint8_t *ro;       /* [SG_ADDR_CODE, SG_ADDR_CODE + ro_size): .text then .rodata */
  uint64_t ro_size;
  uint64_t text_size;/* code bytes at the start of ro */
  uint64_t rw_base;  /* page-aligned after ro */
  uint8_t *rw;       /* initialised part (.data/.sdata) */
  uint64_t rw_data_size, rw_bss_size;
  uint64_t local_size; /* .sg.local bytes at SG_ADDR_LOCAL */
  uint8_t *attributes; /* .riscv.attributes (ISA string for disassemblers) */
  size_t attributes_size;
  uint32_t num_debug;  /* .debug_* sections, relocated (the line tables) */
  struct sg_cc_debug_section {
    char *name;
    uint8_t *data;
    uint64_t size;
  } *debug;
  uint32_t num_symbols;
  struct sg_cc_symbol *symbols;
};
enum sg_status sg_cc_link(const void *obj, size_t obj_size, struct sg_linked *out,
                          struct sg_text *log);
void sg_linked_free(struct sg_linked *l);
const struct sg_cc_symbol *sg_linked_find(const struct sg_linked *l, const char *name);

/* Reconvergence: post-dominators of a CFG given as successor lists
 * (succ[succ_off[i] .. succ_off[i+1]) for node i < n; node n is the virtual
 * exit). ipdom[i] gets the immediate post-dominator of node i, n for the
 * exit or for nodes that cannot reach it. */
enum sg_status sg_cc_postdom(uint32_t n, const uint32_t *succ_off, const uint32_t *succ,
                             uint32_t *ipdom);
/* Builds the table for every conditional branch of the functions in l. */
enum sg_status sg_cc_reconv(const struct sg_linked *l, struct sg_reconv **table,
                            size_t *ntable, struct sg_text *log);

/* Private memory of each kernel (entry_pc set): private_size is the deepest
 * the stack pointer goes below its value at the kernel's entry wrapper, over
 * every call chain from it. Recursion or a call to an unknown target sets
 * SG_USES_UNBOUNDED_STACK and a warning in the log; a frame that cannot be
 * bounded (sp set from a run-time value, moved in a loop) or a kernel that
 * needs more than limit bytes is SG_EBUILD, with the function and PC, or
 * the sizes, in the log. */
enum sg_status sg_cc_stack_sizes(const struct sg_linked *l, struct sg_kernel_info *kernels,
                                 uint32_t num_kernels, uint64_t limit, struct sg_text *log);

/* Program binary: writes the ELF described at the top of sg_binary.c. */
enum sg_status sg_binary_write(const struct sg_linked *l, const struct sg_options *opt,
                               const struct sg_kernel_info *kernels, uint32_t num_kernels,
                               const struct sg_reconv *table, size_t ntable,
                               const struct sg_cc_source *sources, uint32_t num_sources,
                               void **binary, size_t *size);

void sg_kernel_info_free_fields(struct sg_kernel_info *k);

/* Line tables (sg_lines.c): reads the DWARF line program of a loaded
 * executable and the embedded sources (.sg.source bytes) into img->lines.
 * Damaged tables are ignored with img->load_warning set; SG_ENOMEM only. */
struct Elf;
enum sg_status sg_lines_load(struct Elf *elf, const void *sources, size_t sources_size,
                             struct sg_program_image *img);
void sg_lines_free(struct sg_line_table *t);

/* sg_build after the front end: bitcode -> optimised code, link, reconvergence
 * table, program binary in res (sg_link ends with it too). */
/* The envelope of every build-like entry point: checks the request, runs
 * step, and hands the log over in res->log whatever happened. */
typedef enum sg_status (*sg_cc_step)(const struct sg_build_request *req,
                                     struct sg_build_result *res, struct sg_text *log);
enum sg_status sg_cc_run_request(const struct sg_build_request *req, struct sg_build_result *res,
                                 sg_cc_step step);

/* ---- The compiler worker (sg_cc_worker.c, sg_cc_client.c) --------------
 * sg_build, sg_compile_object, sg_link and the bitcode part of
 * sg_binary_check run in a separate process (docs/decisions.md "The
 * compiler runs in a worker process"): LLVM aborts or crashes on some
 * malformed input and at its resource limits, which must not take the host
 * down. These are the in-process implementations the worker calls. */
enum sg_status sg_cc_build_local(const struct sg_build_request *req, struct sg_build_result *res);
enum sg_status sg_cc_compile_local(const struct sg_build_request *req,
                                   struct sg_build_result *res);
enum sg_status sg_cc_link_local(const struct sg_link_request *req, struct sg_build_result *res);
/* The whole of sg_binary_check, bitcode reader and verifier included. */
enum sg_status sg_cc_check_local(const void *binary, size_t size, enum sg_binary_kind *kind,
                                 char *err, size_t errlen);

/* Objects and libraries carry a tag, a BLAKE3 of their bitcode keyed with a
 * secret of the host process: a binary whose tag matches was made by this
 * process's worker and needs no second validation. The host makes the key
 * (sg_cc_object_key); the worker receives it with each request. */
#define SG_CC_KEY_LEN 32
const uint8_t *sg_cc_object_key(void);
void sg_cc_set_object_key(const uint8_t key[SG_CC_KEY_LEN]);
/* Header checks of an object or library (no bitcode reader): SG_OK with
 * *kind and *trusted (the tag matches), else SG_EBINARY with err. */
enum sg_status sg_cc_object_header(const void *binary, size_t size, enum sg_binary_kind *kind,
                                   bool *trusted, char *err, size_t errlen);

/* Resource limits of one request, for the worker and for clang. */
struct sg_cc_limits {
  uint32_t cpu_seconds;  /* CPU time of one request (worker) or one clang run */
  uint32_t wall_seconds; /* the host kills a worker silent for this long */
  uint64_t memory_mib;   /* address space of the worker and of clang */
};
const struct sg_cc_limits *sg_cc_limits(void); /* SOFTGPU_BUILD_LIMITS or defaults */
void sg_cc_set_limits(const struct sg_cc_limits *lim); /* the worker, per request */
/* Why a child died, as a sentence for the log ("crashed (signal 11)",
 * "exceeded its CPU time limit of 300 s", ...); output is what it printed. */
void sg_cc_describe_death(struct sg_text *log, const char *who, int status, const char *output);

/* The device library for the next build: parsed lazily into a fresh context
 * ahead of time (on a second thread while clang runs, or while the worker
 * waits), so the parse is off the build's critical path. take() hands it
 * over (parsing it now if nothing was prepared); the two are never called
 * at once (the front end joins its reader thread before the compile). */
struct LLVMOpaqueContext;
void sg_cc_devlib_prepare(void);
enum sg_status sg_cc_devlib_take(struct LLVMOpaqueContext **ctx, struct LLVMOpaqueModule **lib);

enum sg_status sg_cc_build_bitcode(const void *bc, size_t bc_size, const struct sg_options *opt,
                                   struct sg_build_result *res, struct sg_text *log);

/* ---- The program cache (sg_cache.c, docs/cache.md) --------------------- */

struct sg_cache_key {
  uint8_t b[32];
};
/* The key of a build from source; false when the cache is off or the build
 * depends on files the key cannot see (#include, -I). */
bool sg_cache_key(const struct sg_build_request *req, struct sg_cache_key *key);
/* Fills res (log, binary) from the entry of key; false on a miss, or when the
 * entry is damaged, foreign or does not load (it is then rebuilt). */
bool sg_cache_load(const struct sg_cache_key *key, struct sg_build_result *res);
/* Writes a successful build's log and binary (temporary file, then rename). */
void sg_cache_store(const struct sg_cache_key *key, const struct sg_build_result *res);

#endif
