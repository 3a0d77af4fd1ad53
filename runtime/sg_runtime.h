/* SPDX-License-Identifier: MIT */
/* runtime/: the OpenCL objects and API checks. This header is shared by every
 * file in runtime/ and icd/: object layout, validation, error reporting, and
 * the command interface between enqueue calls and queue workers. */
#ifndef SG_RUNTIME_H
#define SG_RUNTIME_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "sg_device.h"

/* ---- Objects ----------------------------------------------------------- */

enum sg_kind {
  SG_KIND_PLATFORM = 1,
  SG_KIND_DEVICE,
  SG_KIND_CONTEXT,
  SG_KIND_QUEUE,
  SG_KIND_MEM,
  SG_KIND_PROGRAM,
  SG_KIND_KERNEL,
  SG_KIND_EVENT,
  SG_KIND_SAMPLER
};

#define SG_MAGIC 0x53475055u /* "SGPU"; cleared on destroy */

struct sg_object {
  uint32_t kind;
  uint32_t magic;
  atomic_uint refcount;      /* the application's references */
  atomic_uint internal;      /* references held by SoftGPU itself (commands, children) */
  atomic_uint holds;         /* keep the allocation, not the object (1 for the object itself) */
  void (*destroy)(void *self);
};

/* Every CL object starts like this (the ICD loader reads `dispatch`). */
#define SG_OBJECT_HEAD                                                         \
  const cl_icd_dispatch *dispatch;                                             \
  struct sg_object obj

extern const cl_icd_dispatch sg_dispatch;

void sg_object_init(void *o, enum sg_kind kind, void (*destroy)(void *self));
/* NULL, wrong dispatch, wrong kind or cleared magic -> false. */
bool sg_valid(const void *o, enum sg_kind kind);
void sg_retain(void *o);           /* application reference */
void sg_release(void *o);          /* application reference; destroys at 0/0 */
void sg_retain_internal(void *o);
void sg_release_internal(void *o);
/* Frees a destroyed object's own allocation (its destroy function's last
 * step), through a bounded quarantine that keeps released handles
 * detectably invalid for a while; not before the last hold is dropped. */
void sg_object_free(void *o);
/* A hold keeps an object's allocation, not the object: it is destroyed as
 * if the hold did not exist, and the holder tells that from sg_valid (the
 * cleared magic) instead of reading freed memory. For what the spec says
 * does not keep an object alive (a kernel's buffer arguments). */
void sg_hold(void *o);
void sg_unhold(void *o);

/* ---- Errors ------------------------------------------------------------ */

const char *sg_error_name(cl_int err);
/* Under SOFTGPU_DEBUG: "SoftGPU: clFoo: CL_INVALID_VALUE: message" on stderr. */
void sg_log_error(const char *api, cl_int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void sg_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Condition, spec code and message on one line; one `fail:` per function,
 * which must declare `cl_int err = CL_SUCCESS;`. */
#define SG_CHECK(cond, code, ...)                                              \
  do {                                                                         \
    if (!(cond)) {                                                             \
      err = (code);                                                            \
      sg_log_error(__func__, err, __VA_ARGS__);                                \
      goto fail;                                                               \
    }                                                                          \
  } while (0)

#define SG_SET_ERR(errcode_ret, err)                                           \
  do {                                                                         \
    if (errcode_ret)                                                           \
      *(errcode_ret) = (err);                                                  \
  } while (0)

/* Maps a status from below runtime/ to the CL code for the given use. */
cl_int sg_status_to_cl(enum sg_status st);

/* ---- Get*Info ---------------------------------------------------------- */

/* All Get*Info sizing in one place: copies size bytes of value when
 * param_value is non-NULL (CL_INVALID_VALUE if param_value_size < size) and
 * always stores size in *param_value_size_ret when non-NULL. */
cl_int sg_info(size_t param_value_size, void *param_value, size_t *param_value_size_ret,
               const void *value, size_t size);
cl_int sg_info_str(size_t param_value_size, void *param_value, size_t *param_value_size_ret,
                   const char *s);
#define SG_INFO_VAL(type, v)                                                   \
  do {                                                                         \
    type sg_tmp_ = (v);                                                        \
    return sg_info(param_value_size, param_value, param_value_size_ret,        \
                   &sg_tmp_, sizeof sg_tmp_);                                  \
  } while (0)

/* ---- The objects ------------------------------------------------------- */

struct _cl_platform_id {
  SG_OBJECT_HEAD;
  cl_device_id device;         /* SoftGPU has one device */
};

struct _cl_device_id {
  SG_OBJECT_HEAD;
  cl_platform_id platform;
  struct sg_config config;
  struct sg_device *machine;   /* device/ */
  _Atomic cl_ulong global_mem_used; /* bytes reserved by live buffers */
};

struct _cl_context {
  SG_OBJECT_HEAD;
  cl_device_id device;
  cl_context_properties *properties; /* copy, 0-terminated; NULL if none */
  size_t num_properties;             /* entries incl. the terminator */
  void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
  void *notify_data;
  pthread_mutex_t lock;
  struct sg_destructor_cb *destructors; /* clSetContextDestructorCallback */
};

struct sg_destructor_cb {
  void(CL_CALLBACK *fn)(void *obj, void *user_data); /* cl_mem or cl_context */
  void *user_data;
  struct sg_destructor_cb *next;
};

struct _cl_mem {
  SG_OBJECT_HEAD;
  cl_context context;
  cl_mem_object_type type;     /* CL_MEM_OBJECT_BUFFER or an image type */
  cl_mem_flags flags;
  size_t size;
  void *host_ptr;              /* CL_MEM_USE_HOST_PTR pointer, else NULL */
  struct sg_buffer buf;        /* device address + host backing store */
  cl_mem parent;               /* sub-buffer: parent buffer, else NULL */
  size_t offset;               /* sub-buffer origin */
  bool reserved;               /* size bytes are accounted on the device */
  atomic_uint map_count;
  pthread_mutex_t lock;
  struct sg_destructor_cb *destructors;
  cl_mem_properties *properties; /* clCreateBufferWithProperties copy, else NULL */
  size_t num_properties;         /* entries incl. the terminator */
  struct sg_mapping *mappings;   /* outstanding maps (under lock); map_count counts them */
  /* Images (sg_image.c): parent is the buffer or image given as mem_object.
   * The texels are buf.host with the pitches of desc (resolved: never 0
   * where the geometry uses them); tex is the texture unit's descriptor
   * of the image, with its device address. */
  cl_image_format format;
  cl_image_desc desc;
  size_t elem_size;
  struct sg_tex_desc tex;
};

/* Helpers shared by buffers and images (sg_mem.c). A new memory object of
 * ctx (application reference 1, context retained), NULL when out of
 * memory. */
cl_mem sg_mem_new(cl_context ctx, cl_mem_flags flags, size_t size);
/* The flags of a memory object made from parent (a sub-buffer, an image
 * from a buffer or an image): only access and host access flags may be
 * given, none may contradict parent's; those not given are inherited, and
 * the host pointer flags always are (CL_INVALID_VALUE). */
cl_int sg_mem_inherit_flags(cl_mem parent, cl_mem_flags *flags);
/* Access, host pointer and host access flags alone, at most one of each
 * exclusive group (CL_INVALID_VALUE). */
cl_int sg_mem_check_flags(cl_mem_flags flags);
/* Keeps the property list given to clCreate*WithProperties (the empty list,
 * the only one SoftGPU takes; the caller checked it) for CL_MEM_PROPERTIES;
 * a NULL list is none. */
cl_int sg_mem_copy_properties(cl_mem m, const cl_mem_properties *props);
#define SG_MEM_ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define SG_MEM_HOST_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define SG_MEM_HOST_ACCESS_FLAGS \
  (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)

/* Images (sg_image.c). */
static inline bool sg_is_image(cl_mem m) { return m->type != CL_MEM_OBJECT_BUFFER; }
/* CL_DEVICE_IMAGE2D_MAX_WIDTH, ..._MAX_BUFFER_SIZE, ..._MAX_ARRAY_SIZE:
 * the image size limit `what` of dev. */
size_t sg_device_image_limit(cl_device_id dev, cl_device_info what);
/* CL_DEVICE_IMAGE_PITCH_ALIGNMENT and CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT
 * (texels): the texture unit addresses any texel, so images made from
 * buffers need no more than whole texels. */
#define SG_IMAGE_PITCH_ALIGNMENT 1
#define SG_IMAGE_BASE_ADDRESS_ALIGNMENT 1
/* Kernel argument limits (CL_DEVICE_MAX_*_IMAGE_ARGS, CL_DEVICE_MAX_SAMPLERS):
 * the spec's minimums, which the parameter block holds with ease. */
#define SG_MAX_READ_IMAGE_ARGS 128
#define SG_MAX_WRITE_IMAGE_ARGS 64
#define SG_MAX_READ_WRITE_IMAGE_ARGS 64
#define SG_MAX_SAMPLERS 16
/* Does image m fit a kernel argument of image type t (sg_compiler.h)? */
bool sg_image_fits_arg(cl_mem m, enum sg_image_type t);
/* The box of image m at origin with region (in texels; the API's
 * meaning of each component per image type), checked against the image
 * (CL_INVALID_VALUE naming api): *offset is its first byte in the image's
 * storage, bytes[3] its bytes per row, rows and slices, pitch[2] the
 * image's row and slice pitches. */
cl_int sg_image_box(const char *api, cl_mem m, const size_t *origin, const size_t *region,
                    size_t *offset, size_t bytes[3], size_t pitch[2]);
/* One texel of m's format holding color (4 floats, ints or uints as the
 * format's class reads them: clEnqueueFillImage's fill_color). */
void sg_image_pack(cl_mem m, const void *color, uint8_t *texel);

/* One clEnqueueMapBuffer not yet unmapped: unmapping needs the exact pointer. */
struct sg_mapping {
  void *ptr;
  struct sg_mapping *next;
};

struct _cl_event {
  SG_OBJECT_HEAD;
  cl_context context;
  cl_command_queue queue;      /* NULL for user events */
  cl_command_type type;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  cl_int status;               /* CL_QUEUED .. CL_COMPLETE, or < 0 */
  cl_ulong times[5];           /* queued, submit, start, end, complete (ns) */
  cl_ulong device_ns;          /* timing mode: the command's simulated duration, 0: none */
  struct sg_event_cb *callbacks;
};

struct sg_event_cb {
  void(CL_CALLBACK *fn)(cl_event, cl_int, void *);
  void *user_data;
  cl_int on_status;
  struct sg_event_cb *next;
};

/* Adds cb (from malloc, with fn, user_data and on_status filled in) to ev;
 * ev owns it from then on. A callback whose status was already reached runs
 * at once, on the calling thread. */
void sg_event_add_callback(cl_event ev, struct sg_event_cb *cb);

/* Moves an event to a new status (CL_SUBMITTED, CL_RUNNING, CL_COMPLETE or a
 * negative error), stamps profiling times, wakes waiters, runs callbacks. */
void sg_event_set_status(cl_event ev, cl_int status);
/* Blocks until every event is complete or failed; CL_SUCCESS, or
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if any failed. */
cl_int sg_event_wait(cl_uint n, const cl_event *events);
/* Checks a wait list per the spec: (n == 0) == (list == NULL), each a valid
 * event in the same context. */
cl_int sg_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list);

/* A new event (application reference 1) in status; retains ctx and q
 * (q may be NULL for user events) internally. NULL when out of memory. */
cl_event sg_event_create(cl_context ctx, cl_command_queue q, cl_command_type type,
                         cl_int status);

/* ---- Commands ---------------------------------------------------------- */

/* One enqueued command. The enqueue call fills type, run, free and the
 * payload, then hands it to sg_queue_submit, which owns it from then on.
 * Once every event it depends on is done, a worker sets CL_SUBMITTED and
 * CL_RUNNING, calls run, and sets the event to CL_COMPLETE or to run's
 * negative return value; a failed wait-list event fails it without running.
 * The fields after payload belong to sg_queue.c. */
struct sg_command {
  cl_command_type type;        /* CL_COMMAND_* */
  cl_int (*run)(struct sg_command *cmd);
  void (*free)(struct sg_command *cmd); /* releases what the payload holds; may be NULL */
  void *payload;               /* command-specific, owned by the command */
  cl_event event;              /* set by sg_queue_submit */
  cl_uint num_waits;           /* the wait list, then the queue's ordering dependencies */
  cl_event *waits;             /* retained internally */
  cl_uint num_listed;          /* waits[0 .. num_listed) came from the wait list */
  atomic_uint pending;         /* dependencies not yet done (+1 while submitting) */
  atomic_bool failed;          /* a wait-list event failed */
  cl_command_queue queue;
  struct sg_command *prev, *next; /* the queue's unfinished commands */
  struct sg_command *ready_next;  /* the queue's ready list */
};

struct _cl_command_queue {
  SG_OBJECT_HEAD;
  cl_context context;
  cl_device_id device;
  cl_command_queue_properties properties;
  cl_queue_properties *props_array;     /* clCreateCommandQueueWithProperties copy */
  size_t num_props;
  pthread_mutex_t lock;
  pthread_cond_t work;                  /* a command became ready, or stop */
  pthread_cond_t idle;                  /* a command finished */
  struct sg_command *head, *tail;       /* unfinished commands, in submission order */
  struct sg_command *ready, *ready_tail; /* dependencies done, waiting for a worker */
  struct sg_command *barrier;           /* last unfinished barrier: later commands wait */
  struct sg_command *last_sync;         /* last unfinished marker/barrier that waits for all */
  unsigned busy;                        /* commands not yet released: clFinish waits for 0 */
  bool stop;                            /* released: workers leave once busy is 0 */
};

/* Submits cmd to q: validates and retains the wait list, makes the event
 * (returned in *event_out, retained for the application, if non-NULL),
 * queues the command; if blocking, waits for it and returns its status
 * (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if a wait failed). On error
 * nothing is queued and cmd is freed. cmd comes from malloc/calloc; the
 * queue calls cmd->free (if set) and then free(cmd) once the command is done. */
cl_int sg_queue_submit(cl_command_queue q, struct sg_command *cmd, cl_uint num_waits,
                       const cl_event *waits, cl_event *event_out, bool blocking);

/* How a program came to be: decides what clBuildProgram, clCompileProgram
 * and CL_PROGRAM_SOURCE may do with it. */
enum sg_program_origin {
  SG_PROGRAM_SOURCE,  /* clCreateProgramWithSource */
  SG_PROGRAM_BINARY,  /* clCreateProgramWithBinary */
  SG_PROGRAM_LINKED   /* clLinkProgram (executable or library) */
};

struct _cl_program {
  SG_OBJECT_HEAD;
  cl_context context;
  pthread_mutex_t lock;
  char *source;                 /* NULL for programs from binary */
  void *binary;                 /* executable, compiled object or library */
  size_t binary_size;
  cl_program_binary_type binary_type;
  char *options;                /* last build options */
  char *log;                    /* last build log */
  cl_build_status build_status;
  struct sg_program_image *image; /* loaded binary, NULL until built */
  atomic_uint num_kernels;      /* live cl_kernels (CL_INVALID_OPERATION on rebuild) */
  enum sg_program_origin origin;
};

/* For a new kernel of p (sg_kernel.c): the program's image when it holds an
 * executable, counted in p->num_kernels (the kernel's destroy decrements it),
 * else NULL. The image stays valid while the count is not 0: rebuilding is
 * refused then. */
const struct sg_program_image *sg_program_attach_kernel(cl_program p);

struct _cl_kernel {
  SG_OBJECT_HEAD;
  cl_program program;
  const struct sg_kernel_info *info; /* inside program->image */
  struct sg_arg_value *args;         /* num_args entries */
  uint8_t *values;                   /* by-value argument bytes */
  cl_mem *arg_mems;                  /* buffer args (retained at enqueue) */
  bool *arg_set;
};

/* Largest work-group kernel k can run with on dev (device limit, or the
 * reqd_work_group_size product). */
size_t sg_kernel_max_work_group_size(cl_kernel k, cl_device_id dev);

/* Kernel printf (sg_printf.c): formats the records of a launch's printf
 * buffer (size bytes; used: bytes of records after the header) to out, ordered
 * by work-group, then flushes out; says on stderr how many calls were dropped. */
void sg_printf_flush(const struct sg_program_image *img, const char *kernel,
                     const uint8_t *buffer, uint64_t size, uint64_t used, uint64_t dropped,
                     FILE *out);

/* SOFTGPU_STATS: one line per launch (sg_stats_report.c), to stderr for "1"
 * or "stderr", else appended as a JSON object to the file it names.
 * sg_stats_wanted: whether launches should count statistics. */
bool sg_stats_wanted(void);
void sg_stats_report(const char *kernel, const struct sg_config *cfg, const struct sg_ndrange *nd,
                     const struct sg_launch_result *res, cl_ulong host_ns, enum sg_status status);
/* SOFTGPU_TRACE (sg_trace_file.c): the trace file launches append to, opened
 * on first use with the device's trace_limit; NULL when unset or when it
 * cannot be created (said once on stderr). */
struct sg_trace_out *sg_trace_file(const struct sg_config *cfg);

struct _cl_sampler {
  SG_OBJECT_HEAD;
  cl_context context;
  cl_bool normalized;
  cl_addressing_mode addressing;
  cl_filter_mode filter;
  uint64_t word;                      /* the texture unit's sampler word */
  cl_sampler_properties *properties;  /* clCreateSamplerWithProperties copy, else NULL */
  size_t num_properties;              /* entries incl. the terminator */
};

/* ---- Shared helpers ---------------------------------------------------- */

/* The platform singleton (created on first use, never freed). */
cl_platform_id sg_platform_get(void);
/* Host monotonic time in ns (profiling). */
cl_ulong sg_now_ns(void);
/* The device of the platform (sg_device.c), NULL when SOFTGPU_CONFIG is
 * invalid: the message is printed once and the platform has no device. */
cl_device_id sg_device_init(cl_platform_id platform);
/* Splits a space-separated name list into cl_name_version entries (all with
 * version v); returns the count and fills out when it is non-NULL. */
size_t sg_name_versions(const char *names, cl_version v, cl_name_version *out);
/* Device limits shared by clGetDeviceInfo and the checks that enforce them. */
#define SG_MEM_BASE_ADDR_ALIGN 128 /* bytes; CL_DEVICE_MEM_BASE_ADDR_ALIGN is in bits */
cl_ulong sg_device_global_mem(cl_device_id dev); /* CL_DEVICE_GLOBAL_MEM_SIZE */
cl_ulong sg_device_max_alloc(cl_device_id dev);  /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
/* Accounts size bytes of global memory; false when the device is full. */
bool sg_device_reserve(cl_device_id dev, cl_ulong size);
void sg_device_unreserve(cl_device_id dev, cl_ulong size);

#endif
