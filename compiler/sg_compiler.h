/* SPDX-License-Identifier: MIT */
/* compiler/: OpenCL C -> RV64 ELF program binary (clang-19 front end, LLVM C
 * API middle/back end), and loading a binary back into a program image the
 * device can run. Knows nothing about OpenCL objects. */
#ifndef SG_COMPILER_H
#define SG_COMPILER_H

#include "sg_sim.h"

/* ---- Device ABI --------------------------------------------------------
 * The address windows (SG_ADDR_*), the parameter block's header (struct
 * sg_launch_info at SG_ADDR_PARAMS, the kernel's arguments from
 * SG_PARAM_ARGS_OFFSET) and the SIMT extension's encodings, generated from
 * sg_abi.def (one source for C and the device library). */
#include "sg_abi.h"

/* ---- Kernel metadata --------------------------------------------------- */

enum sg_arg_kind {
  SG_ARG_GLOBAL,   /* __global pointer: buffer device address (8 bytes) */
  SG_ARG_CONSTANT, /* __constant pointer: buffer device address (8 bytes) */
  SG_ARG_LOCAL,    /* __local pointer: device places it in the local window */
  SG_ARG_VALUE,    /* scalar, vector or struct by value: its bytes */
  SG_ARG_IMAGE,    /* image: the device address of its descriptor (8 bytes, sim/sg_tex.def) */
  SG_ARG_SAMPLER   /* sampler_t: the texture unit's sampler word (8 bytes) */
};

/* The image types a kernel argument can declare, X(NAME, "OpenCL C type"). */
#define SG_IMAGE_TYPES(X)                                                      \
  X(1D, "image1d_t")                                                           \
  X(1D_BUFFER, "image1d_buffer_t")                                             \
  X(1D_ARRAY, "image1d_array_t")                                               \
  X(2D, "image2d_t")                                                           \
  X(2D_ARRAY, "image2d_array_t")                                               \
  X(3D, "image3d_t")                                                           \
  X(2D_DEPTH, "image2d_depth_t")                                               \
  X(2D_ARRAY_DEPTH, "image2d_array_depth_t")
enum sg_image_type {
  SG_IMAGE_NONE, /* not an image argument */
#define X(name, text) SG_IMAGE_##name,
  SG_IMAGE_TYPES(X)
#undef X
  SG_IMAGE_NUM_TYPES
};

/* Qualifiers use the numeric values of the CL_KERNEL_ARG_* constants
 * (runtime/ returns them unchanged). */
struct sg_kernel_arg {
  char *name;        /* "" when not recorded (-cl-kernel-arg-info) */
  char *source_name; /* the parameter's name for diagnostics, recorded always
                        (names dropped from a compiled object: "") */
  char *type_name;   /* "float*", "int4", "struct foo" */
  enum sg_arg_kind kind;
  uint32_t address_qualifier; /* CL_KERNEL_ARG_ADDRESS_* value */
  uint32_t access_qualifier;  /* CL_KERNEL_ARG_ACCESS_* value */
  uint64_t type_qualifier;    /* CL_KERNEL_ARG_TYPE_* bits */
  uint32_t size;    /* bytes clSetKernelArg must receive (8 for pointers);
                       SG_ARG_LOCAL: 8, the size of its slot */
  uint32_t offset;  /* from SG_PARAM_ARGS_OFFSET. SG_ARG_LOCAL: an 8-byte slot
                       where the device writes the address it chose in the
                       local window (after static_local_size) */
  uint32_t image_type; /* SG_ARG_IMAGE: enum sg_image_type; else SG_IMAGE_NONE */
};

/* Which work-item functions a kernel uses; lets the runtime pick a local size
 * for NULL local_work_size and mask the tail when the shape is unobservable. */
enum {
  SG_USES_LOCAL_SHAPE = 1u << 0, /* local id/size, group id, num groups, barrier, __local */
  SG_USES_PRINTF = 1u << 1,      /* calls printf: the launch needs a printf buffer */
  /* Recursion or a call the compiler cannot follow: private_size counts only
   * the call chains it could, and the device gives the kernel at least its
   * stack_per_lane (an overflow beyond it is a device finding). */
  SG_USES_UNBOUNDED_STACK = 1u << 2,
};

struct sg_kernel_info {
  char *name;
  char *attributes;           /* CL_KERNEL_ATTRIBUTES text, e.g. "reqd_work_group_size(8,8,1)" */
  uint32_t num_args;
  struct sg_kernel_arg *args;
  uint32_t args_size;         /* bytes of args after SG_PARAM_ARGS_OFFSET */
  uint32_t reqd_work_group_size[3]; /* 0,0,0 when absent */
  uint32_t work_group_size_hint[3];
  uint64_t entry_pc;          /* the generated entry wrapper */
  uint64_t static_local_size; /* __local variables declared in the kernel */
  uint64_t private_size;      /* stack bytes per work-item: the deepest call chain from
                                 the entry wrapper (see SG_USES_UNBOUNDED_STACK) */
  uint32_t uses;              /* SG_USES_* */
};

/* A __local variable of the program (from the symbol table the compiler
 * writes): its place in the local window, for the memory checker's words
 * ("__local array `tile` at offset 1024 of 1024"). */
struct sg_local_var {
  char *name;       /* as declared ("tile"; a kernel-scope variable's kernel prefix removed) */
  char *kernel;     /* the kernel it belongs to ("kern" of "kern.tile"), or NULL: each
                       kernel's variables start at the local window, so they overlap */
  uint64_t offset;  /* from SG_ADDR_LOCAL */
  uint64_t size;
};

struct sg_line_table; /* PC -> source location (compiler/sg_lines.c) */

/* A loaded program: what the device needs to run any of its kernels. */
struct sg_program_image {
  uint64_t ro_base;           /* SG_ADDR_CODE */
  uint8_t *ro;                /* code + read-only data */
  uint64_t ro_size;
  uint64_t rw_base;           /* program-scope variables (.data/.bss) */
  uint8_t *rw;
  uint64_t rw_size;
  struct sg_code *code;       /* pre-decoded, with the reconvergence table */
  uint32_t cl_c_version;      /* 120, 200, 300: from -cl-std */
  bool uniform_work_group;    /* 1.x, or -cl-uniform-work-group-size */
  uint32_t num_kernels;
  struct sg_kernel_info *kernels;
  uint32_t num_locals;
  struct sg_local_var *locals;  /* sorted by offset */
  struct sg_line_table *lines;  /* NULL: no (usable) line tables */
  char load_warning[256];       /* why line tables were ignored ("" when not): for the build log */
};

/* A source location of a program's code, from its line tables. */
struct sg_source_loc {
  const char *file;   /* as written in the build: "input.cl", a header's name */
  uint32_t line, col; /* col 0: unknown */
  const char *text;   /* the source line (text_len bytes, no newline); NULL when
                         the binary does not hold the file's text */
  uint32_t text_len;
};
/* Where the instruction at pc comes from; false when the program has no
 * line for it (no line tables, or code without a source line). */
bool sg_program_locate(const struct sg_program_image *img, uint64_t pc, struct sg_source_loc *loc);

/* ---- Kernel printf (docs/printf.md) ------------------------------------ */

/* The printf buffer of a launch starts with this header; records follow.
 * Each printf adds its record size to `used` atomically and writes its record
 * at that offset after the header if it fits, else counts itself in
 * `dropped` and returns -1. */
struct sg_printf_header {
  uint64_t used;    /* bytes claimed (may exceed the buffer once full) */
  uint64_t dropped; /* printf calls that did not fit */
};

/* One printf call; its argument bytes follow at the offsets its descriptor
 * gives. 8-byte aligned, record sizes are multiples of 8. */
struct sg_printf_record {
  uint64_t desc;      /* device address of its sg_printf_desc (read-only data) */
  uint32_t ctaid[3];  /* work-group of the caller: output is ordered by it */
  uint32_t reserved;
};

enum sg_printf_kind { SG_PRINTF_INT, SG_PRINTF_FLOAT, SG_PRINTF_PTR };

struct sg_printf_desc_arg {
  uint32_t offset;    /* from the start of the record */
  uint8_t kind;       /* enum sg_printf_kind */
  uint8_t elem_size;  /* bytes of one element: 1, 2, 4, 8 */
  uint8_t lanes;      /* 1 for scalars; vectors: 2, 3, 4, 8, 16 */
  uint8_t reserved;
};

/* One per printf call site, in the program's read-only data. */
struct sg_printf_desc {
  uint64_t format;    /* device address of the NUL-terminated format */
  uint32_t num_args;
  uint32_t record_size;
  /* struct sg_printf_desc_arg args[num_args] follow */
};

/* One conversion specification of an OpenCL C printf format (OpenCL C 1.2
 * 6.12.13): %[flags][width][.precision][vn][length]conversion. The compiler
 * and the host formatter share this parser. */
enum sg_printf_len { SG_PRINTF_LEN_NONE, SG_PRINTF_LEN_HH, SG_PRINTF_LEN_H,
                     SG_PRINTF_LEN_HL, SG_PRINTF_LEN_L };
#define SG_PRINTF_NONE (-1) /* width or precision absent */
#define SG_PRINTF_STAR (-2) /* given by an int argument */
struct sg_printf_spec {
  char flags[8];          /* NUL-terminated, from "-+ #0" */
  int width, precision;   /* a value, SG_PRINTF_NONE or SG_PRINTF_STAR */
  uint32_t vec;           /* 0 for scalars, else 2, 3, 4, 8 or 16 */
  enum sg_printf_len len;
  char conv;              /* one of "diouxXfFeEgGaAcsp%"; 0 when malformed */
};
/* Parses the specification at fmt (which points at '%'); returns its length
 * (at least 1; for a malformed one, up to where it went wrong). */
size_t sg_printf_parse(const char *fmt, struct sg_printf_spec *spec);
/* What a well-formed conversion consumes: the class of its argument
 * (SG_PRINTF_INT, _FLOAT or _PTR; '%' consumes nothing) and, for vectors, the
 * element size its length modifier names (none: 4). */
enum sg_printf_kind sg_printf_class(const struct sg_printf_spec *spec);
uint32_t sg_printf_vec_elem_size(const struct sg_printf_spec *spec);

/* ---- Building ---------------------------------------------------------- */

struct sg_header { const char *name; const char *source; }; /* embedded headers */

struct sg_build_request {
  const char *source;         /* OpenCL C */
  const char *options;        /* clBuildProgram options, may be NULL */
  const struct sg_header *headers;
  uint32_t num_headers;
  uint64_t max_private_size;  /* private bytes a work-item may use (the
                                 device's); 0: the compiler's own limit */
};

struct sg_build_result {
  char *log;                  /* malloc'd, never NULL after sg_build */
  void *binary;               /* malloc'd program binary on success */
  size_t binary_size;
};

/* Compiles and links a program. SG_OK, SG_EOPTIONS (bad options, log says
 * which), SG_EBUILD (diagnostics in the log with line:column), SG_ELINK. */
enum sg_status sg_build(const struct sg_build_request *req, struct sg_build_result *res);
void sg_build_result_free(struct sg_build_result *res);

/* ---- Separate compilation (clCompileProgram / clLinkProgram) ------------ */

/* What a program binary holds. Executables are the ELF files of sg_build;
 * compiled objects and libraries are the program's LLVM bitcode (before the
 * device library) behind a checked header. */
enum sg_binary_kind {
  SG_BINARY_NONE,
  SG_BINARY_OBJECT,     /* from sg_compile_object */
  SG_BINARY_LIBRARY,    /* from sg_link with -create-library */
  SG_BINARY_EXECUTABLE, /* from sg_build or sg_link */
};

/* Compiles one source (with its embedded headers) into a compiled object in
 * res->binary; references to functions of other objects are left to the
 * link. SG_OK, SG_EOPTIONS (bad compile options), SG_EBUILD. */
enum sg_status sg_compile_object(const struct sg_build_request *req, struct sg_build_result *res);

struct sg_link_input { const void *binary; size_t size; };
struct sg_link_request {
  const char *options; /* clLinkProgram options, may be NULL */
  const struct sg_link_input *inputs;
  uint32_t num_inputs;
  uint64_t max_private_size; /* as in sg_build_request */
};

/* Links compiled objects and libraries into an executable (what sg_build
 * makes) or, with -create-library, into a library. SG_OK, SG_EOPTIONS (an
 * option clLinkProgram does not take; the log says which), SG_EBINARY (an
 * input is not a valid object or library), SG_ELINK (duplicate or missing
 * symbols, named in the log), SG_EBUILD. */
enum sg_status sg_link(const struct sg_link_request *req, struct sg_build_result *res);

/* Says what a binary is. Objects and libraries are validated completely
 * (header, checksum, bitcode); an executable is only recognised here and is
 * validated by sg_program_load. SG_OK or SG_EBINARY with a message in err. */
enum sg_status sg_binary_check(const void *binary, size_t size, enum sg_binary_kind *kind,
                               char *err, size_t errlen);

/* Validates and loads a binary (from sg_build or from the user). Anything
 * malformed gives SG_EBINARY with a message in err; never crashes. */
enum sg_status sg_program_load(const void *binary, size_t size,
                               struct sg_program_image **out, char *err, size_t errlen);
void sg_program_image_free(struct sg_program_image *img);

/* What the device allows a kernel (from its configuration). */
struct sg_device_limits {
  uint64_t max_work_group_size;     /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
  uint64_t max_work_item_sizes[3];  /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
};
/* Checks a loaded program's kernels against the device: reqd_work_group_size
 * and work_group_size_hint within the work-group limits. SG_OK or SG_EBINARY
 * with the kernel named in err. */
enum sg_status sg_program_check_device(const struct sg_program_image *img,
                                       const struct sg_device_limits *lim, char *err,
                                       size_t errlen);
const struct sg_kernel_info *sg_program_find_kernel(const struct sg_program_image *img,
                                                    const char *name);

/* The OpenCL version the device implements: CL_DEVICE_VERSION reports it and
 * kernels see it as __OPENCL_VERSION__ (OpenCL C 6.12 "Preprocessor
 * Directives and Macros"), which clang leaves undefined. */
#define SG_OPENCL_VERSION 300

/* What the compiler enables, space-separated; the device reports exactly
 * these (CL_DEVICE_EXTENSIONS, CL_DEVICE_OPENCL_C_FEATURES). */
const char *sg_compiler_extensions(void); /* "cl_khr_fp64 cl_khr_global_int32_base_atomics ..." */
const char *sg_compiler_c_features(void); /* "__opencl_c_fp64 __opencl_c_int64 ..." */

/* Starts a compiler worker ahead of the first build, if none runs yet, so
 * its start-up overlaps with what the host does meanwhile. */
void sg_compiler_prepare(void);
/* Ends the idle compiler workers (clUnloadCompiler); the next build starts
 * one again. */
void sg_compiler_unload(void);

/* Compiler identity (goes into the cache key and CL_DEVICE_VERSION text). */
const char *sg_compiler_version(void);

#endif
