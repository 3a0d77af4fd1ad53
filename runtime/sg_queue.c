/* SPDX-License-Identifier: MIT */
/* runtime/ command queues (DESIGN.md 5): in-order host queues, each with one
 * worker thread that runs its commands one after the other: wait for the
 * wait list, run, complete the event. Markers and barriers are commands too. */
#include <stdlib.h>
#include <string.h>

#include "sg_runtime.h"

#define SG_QUEUE_PROPS                                                                             \
  (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |       \
   CL_QUEUE_ON_DEVICE_DEFAULT)

/* Drops what the command holds; the struct itself stays for the queue list. */
static void command_release(struct sg_command *cmd) {
  if (cmd->free)
    cmd->free(cmd);
  for (cl_uint i = 0; i < cmd->num_waits; i++)
    sg_release_internal(cmd->waits[i]);
  free(cmd->waits);
  if (cmd->event)
    sg_release_internal(cmd->event);
}

/* A failed wait-list event fails the command without running it. */
static void command_execute(struct sg_command *cmd) {
  cl_event ev = cmd->event;
  sg_event_set_status(ev, CL_SUBMITTED);
  cl_int st = sg_event_wait(cmd->num_waits, cmd->waits);
  if (st == CL_SUCCESS) {
    sg_event_set_status(ev, CL_RUNNING);
    st = cmd->run ? cmd->run(cmd) : CL_SUCCESS;
  }
  sg_event_set_status(ev, st < 0 ? st : CL_COMPLETE);
}

/* The command stays at the head until it is done and has released what it
 * held, so clFinish (head == NULL) also covers those releases. */
static void *queue_worker(void *arg) {
  cl_command_queue q = arg;
  pthread_mutex_lock(&q->lock);
  for (;;) {
    while (!q->head && !q->stop)
      pthread_cond_wait(&q->cond, &q->lock);
    if (!q->head)
      break;
    struct sg_command *cmd = q->head;
    pthread_mutex_unlock(&q->lock);
    command_execute(cmd);
    command_release(cmd);
    pthread_mutex_lock(&q->lock);
    q->head = cmd->next;
    if (!q->head)
      q->tail = NULL;
    pthread_cond_broadcast(&q->cond);
    free(cmd);
  }
  pthread_mutex_unlock(&q->lock);
  return NULL;
}

/* Waits until every command submitted so far is done. */
static void queue_drain(cl_command_queue q) {
  pthread_mutex_lock(&q->lock);
  while (q->head)
    pthread_cond_wait(&q->cond, &q->lock);
  pthread_mutex_unlock(&q->lock);
}

cl_int sg_queue_submit(cl_command_queue q, struct sg_command *cmd, cl_uint num_waits,
                       const cl_event *waits, cl_event *event_out, bool blocking) {
  cmd->event = NULL;
  cmd->num_waits = 0;
  cmd->waits = NULL;
  cl_int err = sg_check_wait_list(q->context, num_waits, waits);
  if (err != CL_SUCCESS)
    goto fail;
  if (num_waits) {
    cmd->waits = malloc(num_waits * sizeof *waits);
    SG_CHECK(cmd->waits, CL_OUT_OF_HOST_MEMORY, "no memory for the wait list");
    for (cl_uint i = 0; i < num_waits; i++) {
      cmd->waits[i] = waits[i];
      sg_retain_internal(waits[i]);
      cmd->num_waits++;
    }
  }
  cl_event ev = sg_event_create(q->context, q, cmd->type, CL_QUEUED);
  SG_CHECK(ev, CL_OUT_OF_HOST_MEMORY, "no memory for the event");
  /* The command holds an internal reference; the application reference goes
   * to *event_out or is dropped. A blocking call keeps one while it waits. */
  cmd->event = ev;
  sg_retain_internal(ev);
  if (blocking)
    sg_retain_internal(ev);
  if (event_out)
    *event_out = ev;
  else
    sg_release(ev);
  cmd->next = NULL;
  pthread_mutex_lock(&q->lock);
  if (q->tail)
    q->tail->next = cmd;
  else
    q->head = cmd;
  q->tail = cmd;
  pthread_cond_broadcast(&q->cond);
  pthread_mutex_unlock(&q->lock);
  if (!blocking)
    return CL_SUCCESS;
  sg_event_wait(1, &ev);
  pthread_mutex_lock(&ev->lock);
  cl_int status = ev->status;
  pthread_mutex_unlock(&ev->lock);
  sg_release_internal(ev);
  return status < 0 ? status : CL_SUCCESS;
fail:
  command_release(cmd);
  free(cmd);
  return err;
}

static void queue_destroy(void *self) {
  cl_command_queue q = self;
  pthread_cond_destroy(&q->cond);
  pthread_mutex_destroy(&q->lock);
  free(q->props_array);
  sg_release_internal(q->context);
  free(q);
}

static cl_command_queue queue_create(cl_context ctx, cl_device_id dev,
                                     cl_command_queue_properties props,
                                     const cl_queue_properties *array, size_t n,
                                     cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(ctx, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not a valid context");
  SG_CHECK(sg_valid(dev, SG_KIND_DEVICE) && dev == ctx->device, CL_INVALID_DEVICE,
           "device is not a valid device of the context");
  SG_CHECK((props & ~(cl_command_queue_properties)SG_QUEUE_PROPS) == 0, CL_INVALID_VALUE,
           "unknown queue properties 0x%llx", (unsigned long long)props);
  SG_CHECK(!(props & CL_QUEUE_ON_DEVICE_DEFAULT) || (props & CL_QUEUE_ON_DEVICE), CL_INVALID_VALUE,
           "CL_QUEUE_ON_DEVICE_DEFAULT without CL_QUEUE_ON_DEVICE");
  SG_CHECK(!(props & ~(cl_command_queue_properties)CL_QUEUE_PROFILING_ENABLE),
           CL_INVALID_QUEUE_PROPERTIES,
           "SoftGPU queues are in-order host queues (properties 0x%llx)",
           (unsigned long long)props);
  cl_command_queue q = calloc(1, sizeof *q);
  SG_CHECK(q, CL_OUT_OF_HOST_MEMORY, "no memory for the queue");
  if (array) {
    q->props_array = malloc(n * sizeof *array);
    if (!q->props_array) {
      free(q);
      SG_CHECK(false, CL_OUT_OF_HOST_MEMORY, "no memory for the queue properties");
    }
    memcpy(q->props_array, array, n * sizeof *array);
    q->num_props = n;
  }
  pthread_mutex_init(&q->lock, NULL);
  pthread_cond_init(&q->cond, NULL);
  if (pthread_create(&q->worker, NULL, queue_worker, q) != 0) {
    pthread_mutex_destroy(&q->lock);
    pthread_cond_destroy(&q->cond);
    free(q->props_array);
    free(q);
    SG_CHECK(false, CL_OUT_OF_HOST_MEMORY, "cannot start the queue's worker thread");
  }
  sg_object_init(q, SG_KIND_QUEUE, queue_destroy);
  q->context = ctx;
  sg_retain_internal(ctx);
  q->device = dev;
  q->properties = props;
  SG_SET_ERR(errcode_ret, CL_SUCCESS);
  return q;
fail:
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(
    cl_context ctx, cl_device_id dev, cl_command_queue_properties properties, cl_int *errcode_ret) {
  return queue_create(ctx, dev, properties, NULL, 0, errcode_ret);
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(
    cl_context ctx, cl_device_id dev, const cl_queue_properties *properties, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_command_queue_properties props = 0;
  bool seen_props = false, seen_size = false;
  size_t n = 0;
  for (; properties && properties[n]; n += 2) {
    cl_queue_properties name = properties[n], value = properties[n + 1];
    if (name == CL_QUEUE_PROPERTIES) {
      SG_CHECK(!seen_props, CL_INVALID_VALUE, "CL_QUEUE_PROPERTIES given twice");
      props = value;
      seen_props = true;
    } else if (name == CL_QUEUE_SIZE) {
      SG_CHECK(!seen_size, CL_INVALID_VALUE, "CL_QUEUE_SIZE given twice");
      seen_size = true;
    } else {
      SG_CHECK(false, CL_INVALID_VALUE, "unknown queue property 0x%llx", (unsigned long long)name);
    }
  }
  /* CL_QUEUE_SIZE is only valid for device queues, which SoftGPU lacks. */
  if (seen_size && (props & CL_QUEUE_ON_DEVICE)) {
    SG_CHECK(false, CL_INVALID_QUEUE_PROPERTIES, "SoftGPU has no device queues");
  }
  SG_CHECK(!seen_size, CL_INVALID_VALUE, "CL_QUEUE_SIZE without CL_QUEUE_ON_DEVICE");
  return queue_create(ctx, dev, props, properties, properties ? n + 1 : 0, errcode_ret);
fail:
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue q) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(q, SG_KIND_QUEUE), CL_INVALID_COMMAND_QUEUE,
           "command_queue is not a valid queue");
  sg_retain(q);
fail:
  return err;
}

/* The last application reference finishes the queue and joins its worker;
 * the memory goes when events referring to the queue are gone too. */
CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(q, SG_KIND_QUEUE), CL_INVALID_COMMAND_QUEUE,
           "command_queue is not a valid queue");
  if (atomic_load(&q->obj.refcount) == 1) {
    queue_drain(q);
    pthread_mutex_lock(&q->lock);
    q->stop = true;
    pthread_cond_broadcast(&q->cond);
    pthread_mutex_unlock(&q->lock);
    pthread_join(q->worker, NULL);
  }
  sg_release(q);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q,
                                                      cl_command_queue_info param_name,
                                                      size_t param_value_size, void *param_value,
                                                      size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(q, SG_KIND_QUEUE), CL_INVALID_COMMAND_QUEUE,
           "command_queue is not a valid queue");
  switch (param_name) {
  case CL_QUEUE_CONTEXT: SG_INFO_VAL(cl_context, q->context);
  case CL_QUEUE_DEVICE: SG_INFO_VAL(cl_device_id, q->device);
  case CL_QUEUE_REFERENCE_COUNT: SG_INFO_VAL(cl_uint, atomic_load(&q->obj.refcount));
  case CL_QUEUE_PROPERTIES: SG_INFO_VAL(cl_command_queue_properties, q->properties);
  case CL_QUEUE_PROPERTIES_ARRAY:
    return sg_info(param_value_size, param_value, param_value_size_ret, q->props_array,
                   q->num_props * sizeof *q->props_array);
  case CL_QUEUE_DEVICE_DEFAULT: SG_INFO_VAL(cl_command_queue, NULL);
  case CL_QUEUE_SIZE:
    SG_CHECK(false, CL_INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE: not a device queue");
  }
  SG_CHECK(false, CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
fail:
  return err;
}

/* The worker sees every command as soon as it is queued. */
CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue q) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(q, SG_KIND_QUEUE), CL_INVALID_COMMAND_QUEUE,
           "command_queue is not a valid queue");
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue q) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(q, SG_KIND_QUEUE), CL_INVALID_COMMAND_QUEUE,
           "command_queue is not a valid queue");
  queue_drain(q);
fail:
  return err;
}

/* In an in-order queue a marker or barrier needs no work of its own: the
 * worker reaches it only after everything before it and its wait list. */
static cl_int enqueue_sync(cl_command_queue q, cl_command_type type, cl_uint num_waits,
                           const cl_event *waits, cl_event *event) {
  struct sg_command *cmd = calloc(1, sizeof *cmd);
  if (!cmd)
    return CL_OUT_OF_HOST_MEMORY;
  cmd->type = type;
  return sg_queue_submit(q, cmd, num_waits, waits, event, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q,
                                                            cl_uint num_events_in_wait_list,
                                                            const cl_event *event_wait_list,
                                                            cl_event *event) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(q, SG_KIND_QUEUE), CL_INVALID_COMMAND_QUEUE,
           "command_queue is not a valid queue");
  return enqueue_sync(q, CL_COMMAND_MARKER, num_events_in_wait_list, event_wait_list, event);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q,
                                                             cl_uint num_events_in_wait_list,
                                                             const cl_event *event_wait_list,
                                                             cl_event *event) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(q, SG_KIND_QUEUE), CL_INVALID_COMMAND_QUEUE,
           "command_queue is not a valid queue");
  return enqueue_sync(q, CL_COMMAND_BARRIER, num_events_in_wait_list, event_wait_list, event);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue q, cl_event *event) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(q, SG_KIND_QUEUE), CL_INVALID_COMMAND_QUEUE,
           "command_queue is not a valid queue");
  SG_CHECK(event, CL_INVALID_VALUE, "event is NULL");
  return enqueue_sync(q, CL_COMMAND_MARKER, 0, NULL, event);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue q) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(q, SG_KIND_QUEUE), CL_INVALID_COMMAND_QUEUE,
           "command_queue is not a valid queue");
  return enqueue_sync(q, CL_COMMAND_BARRIER, 0, NULL, NULL);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue q, cl_uint num_events,
                                                       const cl_event *event_list) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(q, SG_KIND_QUEUE), CL_INVALID_COMMAND_QUEUE,
           "command_queue is not a valid queue");
  SG_CHECK(num_events && event_list, CL_INVALID_VALUE, "num_events is 0 or event_list is NULL");
  for (cl_uint i = 0; i < num_events; i++)
    SG_CHECK(sg_valid(event_list[i], SG_KIND_EVENT), CL_INVALID_EVENT,
             "event_list[%u] is not a valid event", i);
  return enqueue_sync(q, CL_COMMAND_BARRIER, num_events, event_list, NULL);
fail:
  return err;
}
