/* SPDX-License-Identifier: MIT */
/* runtime/: program objects (DESIGN.md box "runtime/ ... program"). Source,
 * binary, build, compile and link entry points over compiler/'s sg_build,
 * sg_compile_object, sg_link and sg_program_load, and the Get*Info queries.
 * A context has one device, so a program has one binary, one build status
 * and one log. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sg_runtime.h"

/* ---- Helpers ----------------------------------------------------------- */

static char *dup_str(const char *s) {
  return strdup(s ? s : "");
}

/* A device list per the spec: (n == 0) == (list == NULL), and every entry
 * the context's device. */
static cl_int check_device_list(cl_context ctx, cl_uint n, const cl_device_id *list) {
  cl_int err = CL_SUCCESS;
  SG_CHECK((n == 0) == (list == NULL), CL_INVALID_VALUE, "num_devices is %u but device_list is %s",
           n, list ? "set" : "NULL");
  for (cl_uint i = 0; i < n; i++)
    SG_CHECK(list[i] == ctx->device, CL_INVALID_DEVICE,
             "device_list[%u] is not a device of the context", i);
fail:
  return err;
}

static void free_headers(struct sg_header *h, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    free((char *)h[i].name);
    free((char *)h[i].source);
  }
  free(h);
}

/* Forgets what a previous build, compile or link produced. */
static void clear_build(cl_program p) {
  sg_program_image_free(p->image);
  p->image = NULL;
  free(p->binary);
  p->binary = NULL;
  p->binary_size = 0;
  p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
}

static void program_destroy(void *self) {
  cl_program p = self;
  clear_build(p);
  free(p->source);
  free(p->options);
  free(p->log);
  pthread_mutex_destroy(&p->lock);
  cl_context ctx = p->context;
  sg_object_free(p);
  sg_release_internal(ctx);
}

static cl_program program_new(cl_context ctx, enum sg_program_origin origin) {
  cl_program p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  sg_object_init(p, SG_KIND_PROGRAM, program_destroy);
  pthread_mutex_init(&p->lock, NULL);
  p->context = ctx;
  sg_retain_internal(ctx);
  p->origin = origin;
  p->build_status = CL_BUILD_NONE;
  p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
  return p;
}

/* True when p holds an executable that kernels can be created from. Caller
 * holds p->lock or knows no build runs. */
static bool executable(cl_program p) {
  return p->build_status == CL_BUILD_SUCCESS &&
         p->binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && p->image;
}

/* Marks p as being built. Fails when a build is already running or kernels
 * are attached (their metadata lives in the current image). */
static cl_int begin_build(cl_program p) {
  cl_int err = CL_SUCCESS;
  pthread_mutex_lock(&p->lock);
  SG_CHECK(p->build_status != CL_BUILD_IN_PROGRESS, CL_INVALID_OPERATION,
           "a build of this program is still in progress");
  SG_CHECK(atomic_load(&p->num_kernels) == 0, CL_INVALID_OPERATION,
           "the program has %u kernel objects attached", atomic_load(&p->num_kernels));
  p->build_status = CL_BUILD_IN_PROGRESS;
fail:
  pthread_mutex_unlock(&p->lock);
  return err;
}

/* Publishes a finished build: status, options, log (taken) and, on success,
 * binary (taken), image and binary type. */
static void end_build(cl_program p, bool ok, const char *options, char *log,
                      cl_program_binary_type type, void *binary, size_t binary_size,
                      struct sg_program_image *image) {
  pthread_mutex_lock(&p->lock);
  clear_build(p);
  free(p->options);
  p->options = dup_str(options);
  free(p->log);
  p->log = log ? log : dup_str("");
  p->build_status = ok ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  if (ok) {
    p->binary_type = type;
    p->binary = binary;
    p->binary_size = binary_size;
    p->image = image;
  } else {
    free(binary);
    sg_program_image_free(image);
  }
  pthread_mutex_unlock(&p->lock);
}

/* The build log of a program whose executable is img: what loading it had
 * to say (line tables ignored), else empty. */
static char *load_log(const struct sg_program_image *img) {
  char *log = NULL;
  if (img && img->load_warning[0] && asprintf(&log, "warning: %s\n", img->load_warning) >= 0)
    return log;
  return dup_str("");
}

/* The binary type of a binary of that kind. */
static cl_program_binary_type binary_type_of(enum sg_binary_kind kind) {
  switch (kind) {
  case SG_BINARY_OBJECT: return CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  case SG_BINARY_LIBRARY: return CL_PROGRAM_BINARY_TYPE_LIBRARY;
  case SG_BINARY_EXECUTABLE: return CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  default: return CL_PROGRAM_BINARY_TYPE_NONE;
  }
}

/* Says what a binary is and loads it when it is an executable; msg gets
 * the reason when it is not valid. */
static enum sg_status load_binary(const void *bin, size_t len, cl_program_binary_type *type,
                                  struct sg_program_image **image, char *msg, size_t msglen) {
  enum sg_binary_kind kind;
  *image = NULL;
  enum sg_status st = sg_binary_check(bin, len, &kind, msg, msglen);
  if (st == SG_OK && kind == SG_BINARY_EXECUTABLE)
    st = sg_program_load(bin, len, image, msg, msglen);
  *type = binary_type_of(kind);
  return st;
}

/* The work-group limits of ctx's device, which every kernel's
 * reqd_work_group_size and work_group_size_hint must respect. */
static enum sg_status check_device(cl_context ctx, const struct sg_program_image *image, char *msg,
                                   size_t msglen) {
  uint64_t wg = sg_config_max_work_group_size(&ctx->device->config);
  struct sg_device_limits lim = {wg, {wg, wg, wg}}; /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
  return image ? sg_program_check_device(image, &lim, msg, msglen) : SG_OK;
}

/* Publishes what sg_build, sg_compile_object or sg_link returned for p (it
 * takes res's log and binary): an executable is loaded into an image, an
 * object or library is kept as bytes. Returns CL_SUCCESS, options_err (bad
 * options), failure_err (diagnostics in the log) or an allocation error. */
static cl_int publish(cl_program p, enum sg_status st, struct sg_build_result *res,
                      const char *options, cl_int options_err, cl_int failure_err) {
  struct sg_program_image *image = NULL;
  cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
  cl_int err = CL_SUCCESS;
  if (st == SG_OK) {
    char msg[512] = "";
    const char *what = "internal error: the new binary does not load: ";
    st = load_binary(res->binary, res->binary_size, &type, &image, msg, sizeof msg);
    if (st == SG_OK && (st = check_device(p->context, image, msg, sizeof msg)) != SG_OK)
      what = "error: "; /* the source asks for more than the device has */
    if (st == SG_OK && image && image->load_warning[0]) {
      char *warning = load_log(image), *log = NULL;
      if (warning && asprintf(&log, "%s%s", res->log, warning) >= 0) {
        free(res->log);
        res->log = log;
      }
      free(warning);
    }
    if (st != SG_OK) {
      /* A binary the compiler just made must load; say so in the log. */
      size_t n = strlen(res->log);
      char *log = realloc(res->log, n + sizeof msg + 64);
      if (log) {
        snprintf(log + n, sizeof msg + 64, "%s%s\n", what, msg);
        res->log = log;
      }
    }
  }
  if (st == SG_ENOMEM)
    err = CL_OUT_OF_HOST_MEMORY;
  else if (st == SG_EOPTIONS)
    err = options_err;
  else if (st != SG_OK)
    err = failure_err;
  end_build(p, st == SG_OK, options, res->log, type, res->binary, res->binary_size, image);
  res->log = NULL;
  res->binary = NULL;
  sg_build_result_free(res);
  return err;
}

/* ---- Creation ---------------------------------------------------------- */

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                              const char **strings,
                                                              const size_t *lengths,
                                                              cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_program p = NULL;
  size_t total = 0;
  SG_CHECK(sg_valid(context, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not valid");
  SG_CHECK(count > 0 && strings, CL_INVALID_VALUE, "count is 0 or strings is NULL");
  for (cl_uint i = 0; i < count; i++) {
    SG_CHECK(strings[i], CL_INVALID_VALUE, "strings[%u] is NULL", i);
    total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
  }
  p = program_new(context, SG_PROGRAM_SOURCE);
  SG_CHECK(p && (p->source = malloc(total + 1)), CL_OUT_OF_HOST_MEMORY, "no memory");
  char *at = p->source;
  for (cl_uint i = 0; i < count; i++) {
    size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    memcpy(at, strings[i], n);
    at += n;
  }
  *at = '\0';
  sg_compiler_prepare(); /* a build usually follows: start the compiler now */
  SG_SET_ERR(errcode_ret, CL_SUCCESS);
  return p;
fail:
  if (p)
    sg_release(p);
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

/* Loads one user binary (an executable, compiled object or library);
 * CL_SUCCESS, CL_INVALID_VALUE or CL_INVALID_BINARY. */
static cl_int load_user_binary(cl_context ctx, const unsigned char *bin, size_t len,
                               cl_program_binary_type *type, struct sg_program_image **image) {
  cl_int err = CL_SUCCESS;
  char msg[512] = "";
  SG_CHECK(bin && len > 0, CL_INVALID_VALUE, "a binary is NULL or has length 0");
  enum sg_status st = load_binary(bin, len, type, image, msg, sizeof msg);
  if (st == SG_OK && (st = check_device(ctx, *image, msg, sizeof msg)) != SG_OK) {
    sg_program_image_free(*image);
    *image = NULL;
  }
  SG_CHECK(st != SG_ENOMEM, CL_OUT_OF_HOST_MEMORY, "no memory");
  SG_CHECK(st == SG_OK, CL_INVALID_BINARY, "%s", msg);
fail:
  return err;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list, const size_t *lengths,
    const unsigned char **binaries, cl_int *binary_status, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_program p = NULL;
  struct sg_program_image *image = NULL;
  cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
  SG_CHECK(sg_valid(context, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not valid");
  SG_CHECK(device_list && num_devices > 0, CL_INVALID_VALUE, "device_list is NULL or empty");
  if ((err = check_device_list(context, num_devices, device_list)) != CL_SUCCESS)
    goto fail;
  SG_CHECK(lengths && binaries, CL_INVALID_VALUE, "lengths or binaries is NULL");
  /* Every entry is checked so binary_status is complete; the context has one
   * device, so every entry names it and the first good binary is used. */
  for (cl_uint i = 0; i < num_devices; i++) {
    struct sg_program_image *img = NULL;
    cl_program_binary_type t = CL_PROGRAM_BINARY_TYPE_NONE;
    cl_int st = load_user_binary(context, binaries[i], lengths[i], &t, &img);
    if (binary_status)
      binary_status[i] = st;
    if (st != CL_SUCCESS && err == CL_SUCCESS)
      err = st;
    if (i == 0) {
      image = img;
      type = t;
    } else {
      sg_program_image_free(img);
    }
  }
  if (err != CL_SUCCESS)
    goto fail;
  p = program_new(context, SG_PROGRAM_BINARY);
  SG_CHECK(p && (p->binary = malloc(lengths[0])), CL_OUT_OF_HOST_MEMORY, "no memory");
  memcpy(p->binary, binaries[0], lengths[0]);
  p->binary_size = lengths[0];
  p->binary_type = type;
  p->image = image;
  free(p->log);
  p->log = load_log(image);
  SG_SET_ERR(errcode_ret, CL_SUCCESS);
  return p;
fail:
  sg_program_image_free(image);
  if (p)
    sg_release(p);
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void *il,
                                                          size_t length, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(context, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not valid");
  SG_CHECK(il && length > 0, CL_INVALID_VALUE, "il is NULL or length is 0");
  SG_CHECK(false, CL_INVALID_OPERATION,
           "the device accepts no intermediate language (CL_DEVICE_IL_VERSION is empty)");
fail:
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list,
    const char *kernel_names, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(context, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not valid");
  SG_CHECK(device_list && num_devices > 0, CL_INVALID_VALUE, "device_list is NULL or empty");
  if ((err = check_device_list(context, num_devices, device_list)) != CL_SUCCESS)
    goto fail;
  SG_CHECK(false, CL_INVALID_VALUE, "the device has no built-in kernels (asked for \"%s\")",
           kernel_names ? kernel_names : "(null)");
fail:
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

/* ---- Reference counting and compiler lifetime -------------------------- */

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(program, SG_KIND_PROGRAM), CL_INVALID_PROGRAM, "program is not valid");
  sg_retain(program);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(program, SG_KIND_PROGRAM), CL_INVALID_PROGRAM, "program is not valid");
  sg_release(program);
fail:
  return err;
}

/* The idle compiler workers exit; the next build starts one again. */
CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) {
  sg_compiler_unload();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(platform, SG_KIND_PLATFORM), CL_INVALID_PLATFORM, "platform is not valid");
  sg_compiler_unload();
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(
    cl_program program, void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  cl_int err = CL_SUCCESS;
  (void)user_data;
  SG_CHECK(sg_valid(program, SG_KIND_PROGRAM), CL_INVALID_PROGRAM, "program is not valid");
  SG_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
  SG_CHECK(false, CL_INVALID_OPERATION,
           "the device has no program-scope global destructors to call back after");
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program,
                                                                   cl_uint spec_id,
                                                                   size_t spec_size,
                                                                   const void *spec_value) {
  cl_int err = CL_SUCCESS;
  (void)spec_id, (void)spec_size, (void)spec_value;
  SG_CHECK(sg_valid(program, SG_KIND_PROGRAM), CL_INVALID_PROGRAM, "program is not valid");
  SG_CHECK(false, CL_INVALID_OPERATION,
           "the device accepts no intermediate language, so there are no specialization constants");
fail:
  return err;
}

/* ---- Build, compile, link ---------------------------------------------- */

/* Checks shared by clBuildProgram and clCompileProgram, in the spec's order. */
static cl_int check_build_args(cl_program program, cl_uint num_devices,
                               const cl_device_id *device_list, bool has_notify, void *user_data) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(program, SG_KIND_PROGRAM), CL_INVALID_PROGRAM, "program is not valid");
  SG_CHECK((num_devices == 0) == (device_list == NULL), CL_INVALID_VALUE,
           "num_devices is %u but device_list is %s", num_devices, device_list ? "set" : "NULL");
  SG_CHECK(has_notify || !user_data, CL_INVALID_VALUE, "user_data is set but pfn_notify is NULL");
  err = check_device_list(program->context, num_devices, device_list);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices,
                                               const cl_device_id *device_list, const char *options,
                                               void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                               void *user_data) {
  cl_int err = check_build_args(program, num_devices, device_list, pfn_notify, user_data);
  if (err != CL_SUCCESS)
    return err;
  SG_CHECK(program->origin != SG_PROGRAM_LINKED, CL_INVALID_OPERATION,
           "a program made by clLinkProgram cannot be built again");
  SG_CHECK(program->origin != SG_PROGRAM_BINARY || program->image, CL_INVALID_BINARY,
           "the program's binary is a compiled object or library: link it with clLinkProgram");
  if ((err = begin_build(program)) != CL_SUCCESS)
    goto fail;
  if (program->origin == SG_PROGRAM_BINARY) {
    /* The binary was validated and loaded when the program was created; the
     * build makes it the program's executable. */
    pthread_mutex_lock(&program->lock);
    free(program->options);
    program->options = dup_str(options);
    free(program->log);
    program->log = load_log(program->image);
    program->build_status = CL_BUILD_SUCCESS;
    pthread_mutex_unlock(&program->lock);
  } else {
    /* A kernel may need up to the whole stack window per work-item (a
     * work-group of one); whether a launch fits is the enqueue's question. */
    struct sg_build_request req = {program->source, options, NULL, 0, SG_STACK_WINDOW};
    struct sg_build_result res;
    enum sg_status st = sg_build(&req, &res);
    err = publish(program, st, &res, options, CL_INVALID_BUILD_OPTIONS, CL_BUILD_PROGRAM_FAILURE);
  }
  /* The build is synchronous, so the callback runs before the call returns. */
  if (pfn_notify)
    pfn_notify(program, user_data);
  if (err != CL_SUCCESS)
    sg_log_error(__func__, err, "see the build log");
  return err;
fail:
  return err;
}

/* Copies the embedded headers of clCompileProgram; CL_SUCCESS or an error. */
static cl_int copy_headers(cl_context ctx, cl_uint n, const cl_program *progs, const char **names,
                           struct sg_header **out) {
  cl_int err = CL_SUCCESS;
  struct sg_header *h = NULL;
  SG_CHECK((n == 0) == (progs == NULL) && (n == 0) == (names == NULL), CL_INVALID_VALUE,
           "num_input_headers is %u but input_headers or header_include_names disagree", n);
  for (cl_uint i = 0; i < n; i++) {
    SG_CHECK(sg_valid(progs[i], SG_KIND_PROGRAM) && progs[i]->context == ctx, CL_INVALID_PROGRAM,
             "input_headers[%u] is not a valid program of the context", i);
    SG_CHECK(progs[i]->origin == SG_PROGRAM_SOURCE && names[i], CL_INVALID_VALUE,
             "input_headers[%u] has no source or header_include_names[%u] is NULL", i, i);
  }
  SG_CHECK(n == 0 || (h = calloc(n, sizeof *h)), CL_OUT_OF_HOST_MEMORY, "no memory");
  for (cl_uint i = 0; i < n; i++) {
    h[i].name = strdup(names[i]);
    h[i].source = strdup(progs[i]->source);
    SG_CHECK(h[i].name && h[i].source, CL_OUT_OF_HOST_MEMORY, "no memory");
  }
  *out = h;
  return CL_SUCCESS;
fail:
  if (h)
    free_headers(h, n);
  return err;
}

/* Compiling makes a compiled object: the program's code before linking, with
 * references to functions of other objects left for clLinkProgram. */
CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
    cl_uint num_input_headers, const cl_program *input_headers, const char **header_include_names,
    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  struct sg_header *headers = NULL;
  cl_int err = check_build_args(program, num_devices, device_list, pfn_notify, user_data);
  if (err != CL_SUCCESS)
    return err;
  if ((err = copy_headers(program->context, num_input_headers, input_headers, header_include_names,
                          &headers)) != CL_SUCCESS)
    goto fail;
  SG_CHECK(program->origin == SG_PROGRAM_SOURCE, CL_INVALID_OPERATION,
           "the program was not created from source");
  if ((err = begin_build(program)) != CL_SUCCESS)
    goto fail;
  struct sg_build_request req = {program->source, options, headers, num_input_headers,
                                 SG_STACK_WINDOW};
  struct sg_build_result res;
  enum sg_status st = sg_compile_object(&req, &res);
  err =
      publish(program, st, &res, options, CL_INVALID_COMPILER_OPTIONS, CL_COMPILE_PROGRAM_FAILURE);
  free_headers(headers, num_input_headers);
  if (pfn_notify)
    pfn_notify(program, user_data);
  if (err != CL_SUCCESS)
    sg_log_error(__func__, err, "see the build log");
  return err;
fail:
  if (headers)
    free_headers(headers, num_input_headers);
  return err;
}

/* Checks the input programs of clLinkProgram. */
static cl_int check_link_inputs(cl_context ctx, cl_uint n, const cl_program *progs) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(n > 0 && progs, CL_INVALID_VALUE, "num_input_programs is 0 or input_programs is NULL");
  for (cl_uint i = 0; i < n; i++)
    SG_CHECK(sg_valid(progs[i], SG_KIND_PROGRAM) && progs[i]->context == ctx, CL_INVALID_PROGRAM,
             "input_programs[%u] is not a valid program of the context", i);
fail:
  return err;
}

static void free_inputs(struct sg_link_input *in, cl_uint n) {
  for (cl_uint i = 0; in && i < n; i++)
    free((void *)in[i].binary);
  free(in);
}

/* Copies the binaries of the inputs (each a compiled object or library, from
 * clCompileProgram, clLinkProgram or clCreateProgramWithBinary), so a build
 * of an input running meanwhile cannot change them under the link. */
static cl_int collect_inputs(cl_uint n, const cl_program *progs, struct sg_link_input **out) {
  cl_int err = CL_SUCCESS;
  struct sg_link_input *in = calloc(n, sizeof *in);
  SG_CHECK(in, CL_OUT_OF_HOST_MEMORY, "no memory");
  for (cl_uint i = 0; i < n; i++) {
    pthread_mutex_lock(&progs[i]->lock);
    cl_program_binary_type t = progs[i]->binary_type;
    bool ok = progs[i]->binary && progs[i]->build_status != CL_BUILD_IN_PROGRESS &&
              (t == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT || t == CL_PROGRAM_BINARY_TYPE_LIBRARY);
    void *copy = ok ? malloc(progs[i]->binary_size) : NULL;
    if (copy) {
      memcpy(copy, progs[i]->binary, progs[i]->binary_size);
      in[i] = (struct sg_link_input){copy, progs[i]->binary_size};
    }
    pthread_mutex_unlock(&progs[i]->lock);
    SG_CHECK(ok, CL_INVALID_OPERATION, "input_programs[%u] is not a compiled object or library", i);
    SG_CHECK(copy, CL_OUT_OF_HOST_MEMORY, "no memory");
  }
  *out = in;
  return CL_SUCCESS;
fail:
  free_inputs(in, n);
  return err;
}

/* Linking merges the inputs' code; the result is an executable, or a library
 * with -create-library. Once the link has begun, a failed link still returns
 * the program (its log says why); bad options return none. */
CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                                  const cl_device_id *device_list,
                                                  const char *options, cl_uint num_input_programs,
                                                  const cl_program *input_programs,
                                                  void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                                  void *user_data, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_program p = NULL;
  struct sg_link_input *inputs = NULL;
  struct sg_build_result res = {0};
  SG_CHECK(sg_valid(context, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not valid");
  SG_CHECK((num_devices == 0) == (device_list == NULL), CL_INVALID_VALUE,
           "num_devices is %u but device_list is %s", num_devices, device_list ? "set" : "NULL");
  if ((err = check_link_inputs(context, num_input_programs, input_programs)) != CL_SUCCESS)
    goto fail;
  SG_CHECK(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data is set but pfn_notify is NULL");
  if ((err = check_device_list(context, num_devices, device_list)) != CL_SUCCESS ||
      (err = collect_inputs(num_input_programs, input_programs, &inputs)) != CL_SUCCESS)
    goto fail;
  p = program_new(context, SG_PROGRAM_LINKED);
  SG_CHECK(p, CL_OUT_OF_HOST_MEMORY, "no memory");
  struct sg_link_request req = {options, inputs, num_input_programs, SG_STACK_WINDOW};
  enum sg_status st = sg_link(&req, &res);
  SG_CHECK(st != SG_EOPTIONS, CL_INVALID_LINKER_OPTIONS, "%s", res.log);
  err = publish(p, st, &res, options, CL_INVALID_LINKER_OPTIONS, CL_LINK_PROGRAM_FAILURE);
  free_inputs(inputs, num_input_programs);
  inputs = NULL;
  if (err != CL_SUCCESS && err != CL_LINK_PROGRAM_FAILURE)
    goto fail;
  if (pfn_notify)
    pfn_notify(p, user_data);
  SG_SET_ERR(errcode_ret, err);
  return p;
fail:
  sg_build_result_free(&res);
  free_inputs(inputs, num_input_programs);
  if (p)
    sg_release(p);
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

/* ---- Queries ----------------------------------------------------------- */

/* "a;b;c": the kernel names, in the binary's order. */
static char *kernel_names(const struct sg_program_image *img) {
  size_t n = 1;
  for (uint32_t i = 0; i < img->num_kernels; i++)
    n += strlen(img->kernels[i].name) + 1;
  char *s = calloc(1, n);
  for (uint32_t i = 0; s && i < img->num_kernels; i++) {
    if (i)
      strcat(s, ";");
    strcat(s, img->kernels[i].name);
  }
  return s;
}

/* CL_PROGRAM_BINARIES: param_value is an array of one pointer per device,
 * each NULL (skip) or pointing to BINARY_SIZES bytes the caller allocated. */
static cl_int copy_binaries(cl_program p, size_t param_value_size, void *param_value,
                            size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  if (param_value_size_ret)
    *param_value_size_ret = sizeof(unsigned char *);
  if (!param_value)
    return CL_SUCCESS;
  SG_CHECK(param_value_size >= sizeof(unsigned char *), CL_INVALID_VALUE,
           "param_value_size %zu is smaller than one pointer per device", param_value_size);
  unsigned char *dst = ((unsigned char **)param_value)[0];
  if (dst && p->binary_size)
    memcpy(dst, p->binary, p->binary_size);
fail:
  return err;
}

static cl_int program_info(cl_program p, cl_program_info name, size_t param_value_size,
                           void *param_value, size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  switch (name) {
  case CL_PROGRAM_REFERENCE_COUNT: SG_INFO_VAL(cl_uint, atomic_load(&p->obj.refcount));
  case CL_PROGRAM_CONTEXT: SG_INFO_VAL(cl_context, p->context);
  case CL_PROGRAM_NUM_DEVICES: SG_INFO_VAL(cl_uint, 1);
  case CL_PROGRAM_DEVICES: SG_INFO_VAL(cl_device_id, p->context->device);
  case CL_PROGRAM_SOURCE:
    return sg_info_str(param_value_size, param_value, param_value_size_ret,
                       p->origin == SG_PROGRAM_SOURCE ? p->source : "");
  case CL_PROGRAM_IL: /* no IL programs: nothing returned, size 0 */
    return sg_info(param_value_size, param_value, param_value_size_ret, NULL, 0);
  case CL_PROGRAM_BINARY_SIZES:
    /* Executables, compiled objects and libraries each have a binary. */
    SG_INFO_VAL(size_t, p->binary_size);
  case CL_PROGRAM_BINARIES:
    return copy_binaries(p, param_value_size, param_value, param_value_size_ret);
  case CL_PROGRAM_NUM_KERNELS:
    SG_CHECK(executable(p), CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built");
    SG_INFO_VAL(size_t, p->image->num_kernels);
  case CL_PROGRAM_KERNEL_NAMES: {
    SG_CHECK(executable(p), CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built");
    char *names = kernel_names(p->image);
    SG_CHECK(names, CL_OUT_OF_HOST_MEMORY, "no memory");
    err = sg_info_str(param_value_size, param_value, param_value_size_ret, names);
    free(names);
    return err;
  }
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    SG_CHECK(executable(p), CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built");
    SG_INFO_VAL(cl_bool, CL_FALSE); /* OpenCL C has no global constructors */
  default: SG_CHECK(false, CL_INVALID_VALUE, "unknown param_name 0x%x", name);
  }
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(program, SG_KIND_PROGRAM), CL_INVALID_PROGRAM, "program is not valid");
  pthread_mutex_lock(&program->lock);
  err = program_info(program, param_name, param_value_size, param_value, param_value_size_ret);
  pthread_mutex_unlock(&program->lock);
fail:
  return err;
}

static cl_int build_info(cl_program p, cl_program_build_info name, size_t param_value_size,
                         void *param_value, size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  switch (name) {
  case CL_PROGRAM_BUILD_STATUS: SG_INFO_VAL(cl_build_status, p->build_status);
  case CL_PROGRAM_BUILD_OPTIONS:
    return sg_info_str(param_value_size, param_value, param_value_size_ret,
                       p->options ? p->options : "");
  case CL_PROGRAM_BUILD_LOG:
    return sg_info_str(param_value_size, param_value, param_value_size_ret, p->log ? p->log : "");
  case CL_PROGRAM_BINARY_TYPE: SG_INFO_VAL(cl_program_binary_type, p->binary_type);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
    SG_INFO_VAL(size_t, executable(p) ? p->image->rw_size : 0);
  default: SG_CHECK(false, CL_INVALID_VALUE, "unknown param_name 0x%x", name);
  }
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                                      cl_program_build_info param_name,
                                                      size_t param_value_size, void *param_value,
                                                      size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(program, SG_KIND_PROGRAM), CL_INVALID_PROGRAM, "program is not valid");
  SG_CHECK(sg_valid(device, SG_KIND_DEVICE) && device == program->context->device,
           CL_INVALID_DEVICE, "device is not the program's device");
  pthread_mutex_lock(&program->lock);
  err = build_info(program, param_name, param_value_size, param_value, param_value_size_ret);
  pthread_mutex_unlock(&program->lock);
fail:
  return err;
}

const struct sg_program_image *sg_program_attach_kernel(cl_program p) {
  pthread_mutex_lock(&p->lock);
  const struct sg_program_image *img = executable(p) ? p->image : NULL;
  if (img)
    atomic_fetch_add(&p->num_kernels, 1);
  pthread_mutex_unlock(&p->lock);
  return img;
}
