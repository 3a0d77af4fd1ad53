/* SPDX-License-Identifier: MIT */
/* runtime/ memory objects (DESIGN.md 3, 5): buffers and sub-buffers, and
 * what every memory object shares (flags, queries, release). A buffer is
 * host memory (the application's with CL_MEM_USE_HOST_PTR) bound to a
 * device address; a sub-buffer is a window of its parent's. Images are
 * built on the same object in sg_image.c. */
#include <stdlib.h>
#include <string.h>

#include "sg_runtime.h"

#define ACCESS_FLAGS SG_MEM_ACCESS_FLAGS
#define HOST_PTR_FLAGS SG_MEM_HOST_PTR_FLAGS
#define HOST_ACCESS_FLAGS SG_MEM_HOST_ACCESS_FLAGS
#define BUFFER_FLAGS (ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS)

static bool at_most_one(cl_mem_flags f) {
  return (f & (f - 1)) == 0;
}

static void mem_destroy(void *self) {
  cl_mem m = self;
  /* Reverse order of registration (the list is pushed at the front), before
   * the memory goes: a USE_HOST_PTR owner may free its memory in one. */
  for (struct sg_destructor_cb *cb = m->destructors, *next; cb; cb = next) {
    next = cb->next;
    cb->fn(m, cb->user_data);
    free(cb);
  }
  /* Maps the application never undid die with the object. */
  for (struct sg_mapping *mp = m->mappings, *next; mp; mp = next) {
    next = mp->next;
    free(mp);
  }
  if (m->reserved)
    sg_device_unreserve(m->context->device, m->size);
  if (m->parent)
    sg_release_internal(m->parent);
  else if (!(m->flags & CL_MEM_USE_HOST_PTR))
    free(m->buf.host);
  pthread_mutex_destroy(&m->lock);
  free(m->properties);
  sg_release_internal(m->context);
  sg_object_free(m);
}

cl_mem sg_mem_new(cl_context ctx, cl_mem_flags flags, size_t size) {
  cl_mem m = calloc(1, sizeof *m);
  if (!m)
    return NULL;
  sg_object_init(m, SG_KIND_MEM, mem_destroy);
  m->context = ctx;
  sg_retain_internal(ctx);
  m->type = CL_MEM_OBJECT_BUFFER;
  m->flags = flags;
  m->size = size;
  m->buf.size = size;
  m->buf.read_only = (flags & CL_MEM_READ_ONLY) != 0;
  pthread_mutex_init(&m->lock, NULL);
  return m;
}

cl_int sg_mem_check_flags(cl_mem_flags flags) {
  cl_int err = CL_SUCCESS;
  SG_CHECK((flags & ~(cl_mem_flags)BUFFER_FLAGS) == 0, CL_INVALID_VALUE,
           "unknown flags 0x%llx", (unsigned long long)flags);
  SG_CHECK(at_most_one(flags & ACCESS_FLAGS), CL_INVALID_VALUE,
           "more than one of CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY");
  SG_CHECK(at_most_one(flags & HOST_ACCESS_FLAGS), CL_INVALID_VALUE,
           "more than one of CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS");
  SG_CHECK(
      !((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))),
      CL_INVALID_VALUE, "CL_MEM_USE_HOST_PTR with CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR");
fail:
  return err;
}

/* Only the empty list is valid (checked by the caller): SoftGPU knows no
 * buffer or image properties, but CL_MEM_PROPERTIES must return the list
 * given. */
cl_int sg_mem_copy_properties(cl_mem m, const cl_mem_properties *props) {
  cl_int err = CL_SUCCESS;
  if (!props)
    return CL_SUCCESS;
  m->properties = calloc(1, sizeof *props);
  SG_CHECK(m->properties, CL_OUT_OF_HOST_MEMORY, "no memory for the property list");
  m->num_properties = 1;
fail:
  return err;
}

static cl_mem buffer_create(cl_context ctx, const cl_mem_properties *props, cl_mem_flags flags,
                            size_t size, void *host_ptr, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_mem m = NULL;
  SG_CHECK(sg_valid(ctx, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not a valid context");
  if (props)
    SG_CHECK(props[0] == 0, CL_INVALID_PROPERTY, "unsupported memory property 0x%llx",
             (unsigned long long)props[0]);
  if ((err = sg_mem_check_flags(flags)) != CL_SUCCESS)
    goto fail;
  cl_ulong max = sg_device_max_alloc(ctx->device);
  SG_CHECK(size > 0 && size <= max, CL_INVALID_BUFFER_SIZE,
           "size %zu is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu)", size,
           (unsigned long long)max);
  bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  SG_CHECK(
      wants_ptr == (host_ptr != NULL), CL_INVALID_HOST_PTR,
      wants_ptr
          ? "host_ptr is NULL with CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR"
          : "host_ptr is not NULL but neither CL_MEM_USE_HOST_PTR nor CL_MEM_COPY_HOST_PTR is set");

  if (!(flags & ACCESS_FLAGS))
    flags |= CL_MEM_READ_WRITE;
  m = sg_mem_new(ctx, flags, size);
  SG_CHECK(m, CL_OUT_OF_HOST_MEMORY, "no memory for the buffer object");
  m->reserved = sg_device_reserve(ctx->device, size);
  SG_CHECK(m->reserved, CL_MEM_OBJECT_ALLOCATION_FAILURE,
           "%zu bytes do not fit: live buffers hold %llu of the device's %llu bytes "
           "(CL_DEVICE_GLOBAL_MEM_SIZE)", size,
           (unsigned long long)atomic_load(&ctx->device->global_mem_used),
           (unsigned long long)sg_device_global_mem(ctx->device));
  err = sg_mem_copy_properties(m, props);
  if (err != CL_SUCCESS)
    goto fail;
  if (flags & CL_MEM_USE_HOST_PTR) {
    m->host_ptr = host_ptr;
    m->buf.host = host_ptr;
  } else {
    /* calloc: large buffers cost nothing until touched, and the device never
     * sees stale host data. */
    m->buf.host = calloc(1, size);
    SG_CHECK(m->buf.host, CL_MEM_OBJECT_ALLOCATION_FAILURE, "cannot allocate %zu bytes", size);
    if (flags & CL_MEM_COPY_HOST_PTR)
      memcpy(m->buf.host, host_ptr, size);
  }
  m->buf.addr = sg_device_alloc_address(ctx->device->machine, size);
  SG_CHECK(m->buf.addr, CL_MEM_OBJECT_ALLOCATION_FAILURE,
           "the device's address space is exhausted");
  SG_SET_ERR(errcode_ret, CL_SUCCESS);
  return m;
fail:
  if (m)
    sg_release(m);
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context ctx, cl_mem_flags flags, size_t size,
                                               void *host_ptr, cl_int *errcode_ret) {
  return buffer_create(ctx, NULL, flags, size, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context ctx,
                                                             const cl_mem_properties *properties,
                                                             cl_mem_flags flags, size_t size,
                                                             void *host_ptr, cl_int *errcode_ret) {
  return buffer_create(ctx, properties, flags, size, host_ptr, errcode_ret);
}

/* Flags a sub-buffer or an image made from another object may not
 * contradict, and what it inherits (5.2.1, 5.3.1). */
cl_int sg_mem_inherit_flags(cl_mem parent, cl_mem_flags *flags) {
  cl_int err = CL_SUCCESS;
  cl_mem_flags f = *flags, p = parent->flags;
  SG_CHECK((f & ~(cl_mem_flags)(ACCESS_FLAGS | HOST_ACCESS_FLAGS)) == 0, CL_INVALID_VALUE,
           "flags 0x%llx: an object made from another takes only access and host access flags",
           (unsigned long long)f);
  SG_CHECK(at_most_one(f & ACCESS_FLAGS) && at_most_one(f & HOST_ACCESS_FLAGS), CL_INVALID_VALUE,
           "conflicting flags 0x%llx", (unsigned long long)f);
  SG_CHECK(!((p & CL_MEM_WRITE_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))),
           CL_INVALID_VALUE, "the buffer is CL_MEM_WRITE_ONLY");
  SG_CHECK(!((p & CL_MEM_READ_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))),
           CL_INVALID_VALUE, "the buffer is CL_MEM_READ_ONLY");
  SG_CHECK(!((p & CL_MEM_HOST_WRITE_ONLY) && (f & CL_MEM_HOST_READ_ONLY)), CL_INVALID_VALUE,
           "the buffer is CL_MEM_HOST_WRITE_ONLY");
  SG_CHECK(!((p & CL_MEM_HOST_READ_ONLY) && (f & CL_MEM_HOST_WRITE_ONLY)), CL_INVALID_VALUE,
           "the buffer is CL_MEM_HOST_READ_ONLY");
  SG_CHECK(!((p & CL_MEM_HOST_NO_ACCESS) && (f & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))),
           CL_INVALID_VALUE, "the buffer is CL_MEM_HOST_NO_ACCESS");
  if (!(f & ACCESS_FLAGS))
    f |= p & ACCESS_FLAGS;
  if (!(f & HOST_ACCESS_FLAGS))
    f |= p & HOST_ACCESS_FLAGS;
  *flags = f | (p & HOST_PTR_FLAGS);
fail:
  return err;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem parent, cl_mem_flags flags,
                                                  cl_buffer_create_type buffer_create_type,
                                                  const void *buffer_create_info,
                                                  cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(parent, SG_KIND_MEM) && !sg_is_image(parent) && !parent->parent,
           CL_INVALID_MEM_OBJECT, "buffer is not a valid buffer object or is a sub-buffer");
  err = sg_mem_inherit_flags(parent, &flags);
  if (err != CL_SUCCESS)
    goto fail;
  SG_CHECK(buffer_create_type == CL_BUFFER_CREATE_TYPE_REGION, CL_INVALID_VALUE,
           "buffer_create_type is not CL_BUFFER_CREATE_TYPE_REGION");
  const cl_buffer_region *r = buffer_create_info;
  SG_CHECK(r, CL_INVALID_VALUE, "buffer_create_info is NULL");
  SG_CHECK(r->size > 0, CL_INVALID_BUFFER_SIZE, "region size is 0");
  SG_CHECK(r->origin <= parent->size && r->size <= parent->size - r->origin, CL_INVALID_VALUE,
           "region [%zu, +%zu) is outside the %zu-byte buffer", r->origin, r->size, parent->size);
  SG_CHECK(r->origin % SG_MEM_BASE_ADDR_ALIGN == 0, CL_MISALIGNED_SUB_BUFFER_OFFSET,
           "origin %zu is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN (%d bytes)", r->origin,
           SG_MEM_BASE_ADDR_ALIGN);
  cl_mem m = sg_mem_new(parent->context, flags, r->size);
  SG_CHECK(m, CL_OUT_OF_HOST_MEMORY, "no memory for the sub-buffer object");
  m->parent = parent;
  sg_retain_internal(parent);
  m->offset = r->origin;
  m->host_ptr = parent->host_ptr ? (char *)parent->host_ptr + r->origin : NULL;
  m->buf.addr = parent->buf.addr + r->origin;
  m->buf.host = parent->buf.host + r->origin;
  SG_SET_ERR(errcode_ret, CL_SUCCESS);
  return m;
fail:
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem m) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(m, SG_KIND_MEM), CL_INVALID_MEM_OBJECT, "memobj is not a valid memory object");
  sg_retain(m);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem m) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(m, SG_KIND_MEM), CL_INVALID_MEM_OBJECT, "memobj is not a valid memory object");
  sg_release(m);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m, cl_mem_info param_name,
                                                   size_t param_value_size, void *param_value,
                                                   size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(m, SG_KIND_MEM), CL_INVALID_MEM_OBJECT, "memobj is not a valid memory object");
  switch (param_name) {
  case CL_MEM_TYPE: SG_INFO_VAL(cl_mem_object_type, m->type);
  case CL_MEM_FLAGS: SG_INFO_VAL(cl_mem_flags, m->flags);
  case CL_MEM_SIZE: SG_INFO_VAL(size_t, m->size);
  case CL_MEM_HOST_PTR: SG_INFO_VAL(void *, m->host_ptr);
  case CL_MEM_MAP_COUNT: SG_INFO_VAL(cl_uint, atomic_load(&m->map_count));
  case CL_MEM_REFERENCE_COUNT: SG_INFO_VAL(cl_uint, atomic_load(&m->obj.refcount));
  case CL_MEM_CONTEXT: SG_INFO_VAL(cl_context, m->context);
  case CL_MEM_ASSOCIATED_MEMOBJECT: SG_INFO_VAL(cl_mem, m->parent);
  case CL_MEM_OFFSET: SG_INFO_VAL(size_t, m->offset);
  case CL_MEM_USES_SVM_POINTER: SG_INFO_VAL(cl_bool, CL_FALSE);
  case CL_MEM_PROPERTIES:
    return sg_info(param_value_size, param_value, param_value_size_ret, m->properties,
                   m->num_properties * sizeof *m->properties);
  }
  SG_CHECK(false, CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(
    cl_mem m, void(CL_CALLBACK *pfn_notify)(cl_mem, void *), void *user_data) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(m, SG_KIND_MEM), CL_INVALID_MEM_OBJECT, "memobj is not a valid memory object");
  SG_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
  struct sg_destructor_cb *cb = malloc(sizeof *cb);
  SG_CHECK(cb, CL_OUT_OF_HOST_MEMORY, "no memory for the callback");
  cb->fn = (void(CL_CALLBACK *)(void *, void *))pfn_notify;
  cb->user_data = user_data;
  pthread_mutex_lock(&m->lock);
  cb->next = m->destructors;
  m->destructors = cb;
  pthread_mutex_unlock(&m->lock);
fail:
  return err;
}
