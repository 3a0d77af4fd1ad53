/* SPDX-License-Identifier: MIT */
/* runtime/: kernel objects (DESIGN.md box "runtime/ ... kernel"). A kernel
 * names one entry of its program's image and keeps the argument values set
 * so far; enqueues snapshot them. Metadata (kinds, sizes, qualifiers) comes
 * from compiler/'s struct sg_kernel_info. */
#include <stdlib.h>
#include <string.h>

#include "sg_runtime.h"

static void kernel_destroy(void *self) {
  cl_kernel k = self;
  for (uint32_t i = 0; i < k->info->num_args; i++)
    if (k->arg_mems[i])
      sg_unhold(k->arg_mems[i]);
  free(k->args);
  free(k->values);
  free(k->arg_mems);
  free(k->arg_set);
  cl_program p = k->program;
  sg_object_free(k);
  atomic_fetch_sub(&p->num_kernels, 1);
  sg_release_internal(p);
}

/* A kernel for info, attached to p (which holds an executable: the caller
 * counted it in p->num_kernels). NULL when out of memory. */
static cl_kernel kernel_new(cl_program p, const struct sg_kernel_info *info) {
  cl_kernel k = calloc(1, sizeof *k);
  uint32_t n = info->num_args;
  if (!k)
    return NULL;
  k->args = calloc(n + 1, sizeof *k->args);
  k->values = calloc(1, info->args_size + 1);
  k->arg_mems = calloc(n + 1, sizeof *k->arg_mems);
  k->arg_set = calloc(n + 1, sizeof *k->arg_set);
  if (!k->args || !k->values || !k->arg_mems || !k->arg_set) {
    free(k->args);
    free(k->values);
    free(k->arg_mems);
    free(k->arg_set);
    free(k);
    return NULL;
  }
  sg_object_init(k, SG_KIND_KERNEL, kernel_destroy);
  k->program = p;
  sg_retain_internal(p);
  k->info = info;
  for (uint32_t i = 0; i < n; i++)
    if (info->args[i].kind == SG_ARG_VALUE || info->args[i].kind == SG_ARG_SAMPLER)
      k->args[i].bytes = k->values + info->args[i].offset;
  return k;
}

/* kernel_new, counted in p->num_kernels, or NULL (counting undone). */
static cl_kernel kernel_attach(cl_program p, const struct sg_kernel_info *info) {
  cl_kernel k = kernel_new(p, info);
  if (!k)
    atomic_fetch_sub(&p->num_kernels, 1);
  return k;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name,
                                                  cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  const struct sg_program_image *img = NULL;
  const struct sg_kernel_info *info = NULL;
  cl_kernel k = NULL;
  SG_CHECK(sg_valid(program, SG_KIND_PROGRAM), CL_INVALID_PROGRAM, "program is not valid");
  img = sg_program_attach_kernel(program);
  SG_CHECK(img, CL_INVALID_PROGRAM_EXECUTABLE, "the program has no successfully built executable");
  SG_CHECK(kernel_name, CL_INVALID_VALUE, "kernel_name is NULL");
  info = sg_program_find_kernel(img, kernel_name);
  SG_CHECK(info, CL_INVALID_KERNEL_NAME, "the program has no kernel \"%s\"", kernel_name);
  k = kernel_attach(program, info);
  img = NULL; /* the count now belongs to k (or was undone) */
  SG_CHECK(k, CL_OUT_OF_HOST_MEMORY, "no memory");
  SG_SET_ERR(errcode_ret, CL_SUCCESS);
  return k;
fail:
  if (img)
    atomic_fetch_sub(&program->num_kernels, 1);
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                                         cl_kernel *kernels,
                                                         cl_uint *num_kernels_ret) {
  cl_int err = CL_SUCCESS;
  const struct sg_program_image *img = NULL;
  cl_uint made = 0;
  SG_CHECK(sg_valid(program, SG_KIND_PROGRAM), CL_INVALID_PROGRAM, "program is not valid");
  img = sg_program_attach_kernel(program);
  SG_CHECK(img, CL_INVALID_PROGRAM_EXECUTABLE, "the program has no successfully built executable");
  SG_CHECK(!kernels || num_kernels >= img->num_kernels, CL_INVALID_VALUE,
           "num_kernels %u is less than the program's %u kernels", num_kernels, img->num_kernels);
  for (; kernels && made < img->num_kernels; made++) {
    atomic_fetch_add(&program->num_kernels, 1);
    kernels[made] = kernel_attach(program, &img->kernels[made]);
    SG_CHECK(kernels[made], CL_OUT_OF_HOST_MEMORY, "no memory");
  }
  if (num_kernels_ret)
    *num_kernels_ret = img->num_kernels;
  atomic_fetch_sub(&program->num_kernels, 1); /* the lookup's own count */
  return CL_SUCCESS;
fail:
  while (made-- > 0)
    sg_release(kernels[made]);
  if (img)
    atomic_fetch_sub(&program->num_kernels, 1);
  return err;
}

/* Sets argument i of k to mem (NULL: a null pointer). An argument does not
 * keep its buffer alive (the spec counts only commands): releasing it
 * deletes it and runs its destructor callbacks at once (CTS
 * api/retain_mem_object_set_kernel_arg). The kernel holds the allocation
 * only, so an enqueue can tell a deleted buffer (sg_valid) safely. */
static void set_mem(cl_kernel k, cl_uint i, cl_mem mem) {
  if (mem)
    sg_hold(mem);
  if (k->arg_mems[i])
    sg_unhold(k->arg_mems[i]);
  k->arg_mems[i] = mem;
  k->args[i].buffer = mem ? &mem->buf : NULL;
  k->args[i].image = mem && sg_is_image(mem) ? &mem->tex : NULL;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = NULL;
  SG_CHECK(sg_valid(source_kernel, SG_KIND_KERNEL), CL_INVALID_KERNEL,
           "source_kernel is not valid");
  cl_program p = source_kernel->program;
  atomic_fetch_add(&p->num_kernels, 1);
  k = kernel_attach(p, source_kernel->info);
  SG_CHECK(k, CL_OUT_OF_HOST_MEMORY, "no memory");
  memcpy(k->values, source_kernel->values, k->info->args_size);
  for (uint32_t i = 0; i < k->info->num_args; i++) {
    k->args[i].local_size = source_kernel->args[i].local_size;
    k->arg_set[i] = source_kernel->arg_set[i];
    set_mem(k, i, source_kernel->arg_mems[i]);
  }
  SG_SET_ERR(errcode_ret, CL_SUCCESS);
  return k;
fail:
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(kernel, SG_KIND_KERNEL), CL_INVALID_KERNEL, "kernel is not valid");
  sg_retain(kernel);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(kernel, SG_KIND_KERNEL), CL_INVALID_KERNEL, "kernel is not valid");
  sg_release(kernel);
fail:
  return err;
}

/* ---- Arguments --------------------------------------------------------- */

/* A __global or __constant pointer: a cl_mem of the kernel's context, or a
 * null pointer (arg_value NULL or pointing to NULL). */
static cl_int set_buffer_arg(cl_kernel k, cl_uint i, size_t size, const void *value) {
  cl_int err = CL_SUCCESS;
  cl_mem mem = value ? *(const cl_mem *)value : NULL;
  SG_CHECK(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE,
           "argument %u is a pointer: arg_size must be sizeof(cl_mem), not %zu", i, size);
  SG_CHECK(!mem || (sg_valid(mem, SG_KIND_MEM) && mem->context == k->program->context),
           CL_INVALID_MEM_OBJECT, "argument %u is not a valid buffer of the kernel's context", i);
  SG_CHECK(!mem || mem->type == CL_MEM_OBJECT_BUFFER, CL_INVALID_MEM_OBJECT,
           "argument %u is a pointer but the memory object is not a buffer", i);
  set_mem(k, i, mem);
fail:
  return err;
}

/* An image: a cl_mem of the kernel's context that is an image of the
 * declared type, whose flags do not forbid the declared access. */
static cl_int set_image_arg(cl_kernel k, cl_uint i, size_t size, const void *value) {
  cl_int err = CL_SUCCESS;
  const struct sg_kernel_arg *a = &k->info->args[i];
  SG_CHECK(value, CL_INVALID_MEM_OBJECT, "argument %u is an image: arg_value is NULL", i);
  SG_CHECK(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE,
           "argument %u is an image: arg_size must be sizeof(cl_mem), not %zu", i, size);
  cl_mem mem = *(const cl_mem *)value;
  SG_CHECK(sg_valid(mem, SG_KIND_MEM), CL_INVALID_MEM_OBJECT,
           "argument %u (%s) is not a valid memory object", i, a->type_name);
  SG_CHECK(mem->context == k->program->context, CL_INVALID_CONTEXT,
           "argument %u: the image belongs to another context", i);
  SG_CHECK(sg_image_fits_arg(mem, (enum sg_image_type)a->image_type), CL_INVALID_MEM_OBJECT,
           "argument %u is declared %s: the memory object is %s", i, a->type_name,
           sg_is_image(mem) ? "an image of another type" : "a buffer");
  SG_CHECK(!(a->access_qualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY &&
             (mem->flags & CL_MEM_WRITE_ONLY)),
           CL_INVALID_ARG_VALUE, "argument %u is read_only: the image is CL_MEM_WRITE_ONLY", i);
  SG_CHECK(!(a->access_qualifier == CL_KERNEL_ARG_ACCESS_WRITE_ONLY &&
             (mem->flags & CL_MEM_READ_ONLY)),
           CL_INVALID_ARG_VALUE, "argument %u is write_only: the image is CL_MEM_READ_ONLY", i);
  set_mem(k, i, mem);
fail:
  return err;
}

/* A sampler: its word goes to the argument's slot. */
static cl_int set_sampler_arg(cl_kernel k, cl_uint i, size_t size, const void *value) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(value, CL_INVALID_SAMPLER, "argument %u is a sampler: arg_value is NULL", i);
  SG_CHECK(size == sizeof(cl_sampler), CL_INVALID_ARG_SIZE,
           "argument %u is a sampler: arg_size must be sizeof(cl_sampler), not %zu", i, size);
  cl_sampler s = *(const cl_sampler *)value;
  SG_CHECK(sg_valid(s, SG_KIND_SAMPLER), CL_INVALID_SAMPLER,
           "argument %u is not a valid sampler", i);
  SG_CHECK(s->context == k->program->context, CL_INVALID_CONTEXT,
           "argument %u: the sampler belongs to another context", i);
  memcpy(k->values + k->info->args[i].offset, &s->word, sizeof s->word);
fail:
  return err;
}

static cl_int set_local_arg(cl_kernel k, cl_uint i, size_t size, const void *value) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(!value, CL_INVALID_ARG_VALUE, "argument %u is __local: arg_value must be NULL", i);
  SG_CHECK(size > 0, CL_INVALID_ARG_SIZE, "argument %u is __local: arg_size must not be 0", i);
  k->args[i].local_size = size;
fail:
  return err;
}

static cl_int set_value_arg(cl_kernel k, cl_uint i, size_t size, const void *value) {
  cl_int err = CL_SUCCESS;
  const struct sg_kernel_arg *a = &k->info->args[i];
  SG_CHECK(value, CL_INVALID_ARG_VALUE, "argument %u (%s) is passed by value: arg_value is NULL", i,
           a->type_name);
  SG_CHECK(size == a->size, CL_INVALID_ARG_SIZE, "argument %u (%s) takes %u bytes, not %zu", i,
           a->type_name, a->size, size);
  memcpy(k->values + a->offset, value, size);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                               const void *arg_value) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(kernel, SG_KIND_KERNEL), CL_INVALID_KERNEL, "kernel is not valid");
  SG_CHECK(arg_index < kernel->info->num_args, CL_INVALID_ARG_INDEX,
           "arg_index %u: kernel %s has %u arguments", arg_index, kernel->info->name,
           kernel->info->num_args);
  switch (kernel->info->args[arg_index].kind) {
  case SG_ARG_GLOBAL:
  case SG_ARG_CONSTANT: err = set_buffer_arg(kernel, arg_index, arg_size, arg_value); break;
  case SG_ARG_LOCAL: err = set_local_arg(kernel, arg_index, arg_size, arg_value); break;
  case SG_ARG_VALUE: err = set_value_arg(kernel, arg_index, arg_size, arg_value); break;
  case SG_ARG_IMAGE: err = set_image_arg(kernel, arg_index, arg_size, arg_value); break;
  case SG_ARG_SAMPLER: err = set_sampler_arg(kernel, arg_index, arg_size, arg_value); break;
  }
  if (err == CL_SUCCESS)
    kernel->arg_set[arg_index] = true;
fail:
  return err;
}

/* ---- Queries ----------------------------------------------------------- */

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                                                size_t param_value_size, void *param_value,
                                                size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(kernel, SG_KIND_KERNEL), CL_INVALID_KERNEL, "kernel is not valid");
  switch (param_name) {
  case CL_KERNEL_FUNCTION_NAME:
    return sg_info_str(param_value_size, param_value, param_value_size_ret, kernel->info->name);
  case CL_KERNEL_NUM_ARGS: SG_INFO_VAL(cl_uint, kernel->info->num_args);
  case CL_KERNEL_REFERENCE_COUNT: SG_INFO_VAL(cl_uint, atomic_load(&kernel->obj.refcount));
  case CL_KERNEL_CONTEXT: SG_INFO_VAL(cl_context, kernel->program->context);
  case CL_KERNEL_PROGRAM: SG_INFO_VAL(cl_program, kernel->program);
  case CL_KERNEL_ATTRIBUTES:
    return sg_info_str(param_value_size, param_value, param_value_size_ret,
                       kernel->info->attributes ? kernel->info->attributes : "");
  default: SG_CHECK(false, CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
  }
fail:
  return err;
}

/* Qualifiers and the type name are always in the binary's metadata (as in
 * PoCL); the argument name only when the program was built with
 * -cl-kernel-arg-info, else CL_KERNEL_ARG_INFO_NOT_AVAILABLE. */
CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index,
                                                   cl_kernel_arg_info param_name,
                                                   size_t param_value_size, void *param_value,
                                                   size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(kernel, SG_KIND_KERNEL), CL_INVALID_KERNEL, "kernel is not valid");
  SG_CHECK(arg_index < kernel->info->num_args, CL_INVALID_ARG_INDEX,
           "arg_index %u: kernel %s has %u arguments", arg_index, kernel->info->name,
           kernel->info->num_args);
  const struct sg_kernel_arg *a = &kernel->info->args[arg_index];
  switch (param_name) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
    SG_INFO_VAL(cl_kernel_arg_address_qualifier, a->address_qualifier);
  case CL_KERNEL_ARG_ACCESS_QUALIFIER:
    SG_INFO_VAL(cl_kernel_arg_access_qualifier, a->access_qualifier);
  case CL_KERNEL_ARG_TYPE_NAME:
    return sg_info_str(param_value_size, param_value, param_value_size_ret, a->type_name);
  case CL_KERNEL_ARG_TYPE_QUALIFIER: SG_INFO_VAL(cl_kernel_arg_type_qualifier, a->type_qualifier);
  case CL_KERNEL_ARG_NAME:
    SG_CHECK(a->name && a->name[0], CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
             "argument names are recorded only with -cl-kernel-arg-info");
    return sg_info_str(param_value_size, param_value, param_value_size_ret, a->name);
  default: SG_CHECK(false, CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
  }
fail:
  return err;
}

size_t sg_kernel_max_work_group_size(cl_kernel k, cl_device_id dev) {
  size_t max = sg_device_max_work_group_size(&dev->config, k->program->image);
  const uint32_t *r = k->info->reqd_work_group_size;
  if (r[0]) {
    size_t reqd = (size_t)r[0] * r[1] * r[2];
    max = reqd < max ? reqd : max;
  }
  return max;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                                         cl_kernel_work_group_info param_name,
                                                         size_t param_value_size, void *param_value,
                                                         size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(kernel, SG_KIND_KERNEL), CL_INVALID_KERNEL, "kernel is not valid");
  cl_device_id dev = kernel->program->context->device;
  /* NULL is allowed: the kernel is associated with one device. */
  SG_CHECK(!device || (sg_valid(device, SG_KIND_DEVICE) && device == dev), CL_INVALID_DEVICE,
           "device is not the kernel's device");
  const struct sg_kernel_info *info = kernel->info;
  switch (param_name) {
  case CL_KERNEL_WORK_GROUP_SIZE: SG_INFO_VAL(size_t, sg_kernel_max_work_group_size(kernel, dev));
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
    size_t r[3] = {info->reqd_work_group_size[0], info->reqd_work_group_size[1],
                   info->reqd_work_group_size[2]};
    return sg_info(param_value_size, param_value, param_value_size_ret, r, sizeof r);
  }
  case CL_KERNEL_LOCAL_MEM_SIZE:
    SG_INFO_VAL(cl_ulong, sg_device_local_mem_size(info, kernel->args));
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: SG_INFO_VAL(size_t, dev->config.warp_size);
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    SG_INFO_VAL(cl_ulong, sg_device_private_size(&dev->config, info));
  case CL_KERNEL_GLOBAL_WORK_SIZE:
    SG_CHECK(false, CL_INVALID_VALUE,
             "CL_KERNEL_GLOBAL_WORK_SIZE is only for custom devices and built-in kernels");
  default: SG_CHECK(false, CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
  }
fail:
  return err;
}

/* The local size given as input to the *_FOR_NDRANGE queries: 1 to 3
 * size_t values; returns its number of work-items, 0 when invalid. */
static size_t ndrange_items(size_t input_value_size, const void *input_value) {
  size_t n = input_value_size / sizeof(size_t), items = 1;
  if (!input_value || input_value_size % sizeof(size_t) || n < 1 || n > 3)
    return 0;
  for (size_t i = 0; i < n; i++) {
    size_t v = ((const size_t *)input_value)[i];
    if (v == 0)
      return 0;
    if (__builtin_mul_overflow(items, v, &items))
      items = SIZE_MAX; /* saturate: the count below stays monotonic, never wraps */
  }
  return items;
}

/* A sub-group is a warp of the CTA (docs/collectives.md): a work-group of
 * n work-items has ceil(n / warp_size) sub-groups of at most warp_size. */
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                                        cl_kernel_sub_group_info param_name,
                                                        size_t input_value_size,
                                                        const void *input_value,
                                                        size_t param_value_size, void *param_value,
                                                        size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(kernel, SG_KIND_KERNEL), CL_INVALID_KERNEL, "kernel is not valid");
  cl_device_id dev = kernel->program->context->device;
  SG_CHECK(!device || (sg_valid(device, SG_KIND_DEVICE) && device == dev), CL_INVALID_DEVICE,
           "device is not the kernel's device");
  size_t warp = dev->config.warp_size, max = sg_kernel_max_work_group_size(kernel, dev);
  switch (param_name) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
    size_t items = ndrange_items(input_value_size, input_value);
    SG_CHECK(items, CL_INVALID_VALUE, "input_value must be a local size of 1 to 3 non-zero values");
    SG_INFO_VAL(size_t, param_name == CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE
                            ? items / warp + (items % warp != 0)
                            : (items < warp ? items : warp));
  }
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
    SG_CHECK(input_value && input_value_size == sizeof(size_t), CL_INVALID_VALUE,
             "input_value must be one size_t (the sub-group count)");
    size_t dims = param_value ? param_value_size / sizeof(size_t) : 3;
    SG_CHECK(dims >= 1 && dims <= 3 && (!param_value || param_value_size % sizeof(size_t) == 0),
             CL_INVALID_VALUE, "param_value_size must hold 1 to 3 size_t values");
    /* count warps along x (the required size if the kernel has one); all
     * zeros when no allowed local size gives count sub-groups */
    size_t count = *(const size_t *)input_value;
    const uint32_t *r = kernel->info->reqd_work_group_size;
    size_t local[3] = {count < max / warp + 1 ? count * warp : max, 1, 1};
    if (r[0])
      local[0] = r[0], local[1] = r[1], local[2] = r[2];
    if (!count || (local[0] * local[1] * local[2] + warp - 1) / warp != count)
      local[0] = local[1] = local[2] = 0;
    return sg_info(param_value_size, param_value, param_value_size_ret, local,
                   dims * sizeof(size_t));
  }
  case CL_KERNEL_MAX_NUM_SUB_GROUPS: SG_INFO_VAL(size_t, (max + warp - 1) / warp);
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: SG_INFO_VAL(size_t, 0); /* no attribute sets it */
  default: SG_CHECK(false, CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
  }
fail:
  return err;
}
