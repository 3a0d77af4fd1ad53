/* SPDX-License-Identifier: MIT */
/* runtime/ command queues (DESIGN.md 5): host queues, in order or out of
 * order. A command runs once the events it depends on are done: its wait list
 * and what the queue's order adds (in order: the previous command; out of
 * order: the last barrier, or every earlier command for a marker or barrier
 * without a wait list, which the last such marker or barrier stands for).
 * Worker threads run the commands that are ready. */
#include <stdlib.h>
#include <string.h>

#include "sg_runtime.h"

#define SG_QUEUE_PROPS                                                                             \
  (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |       \
   CL_QUEUE_ON_DEVICE_DEFAULT)

/* Workers of an out-of-order queue: commands that are ready together overlap
 * (copies, fills, maps; device/ serialises the launches themselves). An
 * in-order queue never has more than one ready command, so it has one. */
#define SG_OOO_WORKERS 4

static bool out_of_order(cl_command_queue q) {
  return q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
}

/* An out-of-order marker or barrier without a wait list waits for every
 * earlier command. */
static bool waits_for_all(cl_command_queue q, const struct sg_command *cmd) {
  return out_of_order(q) && cmd->num_listed == 0 &&
         (cmd->type == CL_COMMAND_MARKER || cmd->type == CL_COMMAND_BARRIER);
}

/* Drops what the command holds; the struct itself is freed by the caller. */
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
  cl_int st = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  if (!atomic_load(&cmd->failed)) {
    sg_event_set_status(ev, CL_RUNNING);
    st = cmd->run ? cmd->run(cmd) : CL_SUCCESS;
  }
  sg_event_set_status(ev, st < 0 ? st : CL_COMPLETE);
}

/* Adds cmd to the unfinished commands (q->lock held). */
static void link_command(cl_command_queue q, struct sg_command *cmd) {
  cmd->prev = q->tail;
  cmd->next = NULL;
  if (q->tail)
    q->tail->next = cmd;
  else
    q->head = cmd;
  q->tail = cmd;
  q->busy++;
  if (cmd->type == CL_COMMAND_BARRIER && out_of_order(q))
    q->barrier = cmd;
  if (waits_for_all(q, cmd))
    q->last_sync = cmd;
}

/* Takes a done command off the unfinished commands (q->lock held). */
static void unlink_command(cl_command_queue q, struct sg_command *cmd) {
  if (cmd->prev)
    cmd->prev->next = cmd->next;
  else
    q->head = cmd->next;
  if (cmd->next)
    cmd->next->prev = cmd->prev;
  else
    q->tail = cmd->prev;
  if (q->barrier == cmd)
    q->barrier = NULL;
  if (q->last_sync == cmd)
    q->last_sync = NULL;
}

/* A done command leaves the list first (its event is no longer a dependency
 * for new commands), then releases what it held; q->busy counts it until
 * then, so clFinish also covers those releases. Once the queue is released
 * (stop) a worker leaves when nothing is left to run and drops its internal
 * reference to q: the last one out frees the queue, on its own thread. */
static void *queue_worker(void *arg) {
  cl_command_queue q = arg;
  pthread_mutex_lock(&q->lock);
  for (;;) {
    while (!q->ready && !(q->stop && q->busy == 0))
      pthread_cond_wait(&q->work, &q->lock);
    struct sg_command *cmd = q->ready;
    if (!cmd)
      break;
    q->ready = cmd->ready_next;
    if (!q->ready)
      q->ready_tail = NULL;
    pthread_mutex_unlock(&q->lock);
    command_execute(cmd);
    pthread_mutex_lock(&q->lock);
    unlink_command(q, cmd);
    pthread_mutex_unlock(&q->lock);
    command_release(cmd);
    free(cmd);
    pthread_mutex_lock(&q->lock);
    if (--q->busy == 0) {
      pthread_cond_broadcast(&q->idle);
      pthread_cond_broadcast(&q->work); /* idle workers of a stopped queue leave */
      if (q->stop) {
        pthread_mutex_unlock(&q->lock);
        sg_release_internal(q->context); /* the last command of a released queue */
        pthread_mutex_lock(&q->lock);
      }
    }
  }
  pthread_mutex_unlock(&q->lock);
  sg_release_internal(q);
  return NULL;
}

/* Waits until every command submitted so far is done. */
static void queue_drain(cl_command_queue q) {
  pthread_mutex_lock(&q->lock);
  while (q->busy)
    pthread_cond_wait(&q->idle, &q->lock);
  pthread_mutex_unlock(&q->lock);
}

/* One of cmd's dependencies is done; the last one hands cmd to a worker. */
static void dependency_done(struct sg_command *cmd) {
  if (atomic_fetch_sub(&cmd->pending, 1) != 1)
    return;
  cl_command_queue q = cmd->queue;
  pthread_mutex_lock(&q->lock);
  cmd->ready_next = NULL;
  if (q->ready_tail)
    q->ready_tail->ready_next = cmd;
  else
    q->ready = cmd;
  q->ready_tail = cmd;
  pthread_cond_signal(&q->work);
  pthread_mutex_unlock(&q->lock);
}

/* A wait-list event that fails fails the command (OpenCL 3.0, 5.11). */
static void CL_CALLBACK listed_done(cl_event ev, cl_int status, void *cmd) {
  (void)ev;
  if (status < 0)
    atomic_store(&((struct sg_command *)cmd)->failed, true);
  dependency_done(cmd);
}

/* An ordering dependency only orders: a failed predecessor does not fail
 * what follows it unless it is in that command's wait list. */
static void CL_CALLBACK order_done(cl_event ev, cl_int status, void *cmd) {
  (void)ev, (void)status;
  dependency_done(cmd);
}

/* The events cmd waits for because of q's order (q->lock held); counts them
 * and, when out is non-NULL, stores them there. */
static cl_uint order_deps(cl_command_queue q, const struct sg_command *cmd, cl_uint num_listed,
                          cl_event *out) {
  bool sync = cmd->type == CL_COMMAND_MARKER || cmd->type == CL_COMMAND_BARRIER;
  cl_uint n = 0;
  if (!out_of_order(q) || (sync && num_listed == 0)) {
    /* Every earlier command: in order, waiting for the last one is enough;
     * out of order, the last wait-for-all command stands for all before it,
     * so N markers in a row cost O(N), not O(N^2) dependencies. */
    for (struct sg_command *c = q->tail; c; c = out_of_order(q) ? c->prev : NULL) {
      if (out)
        out[n] = c->event;
      n++;
      if (c == q->last_sync)
        break;
    }
  } else if (q->barrier) {
    if (out)
      out[n] = q->barrier->event;
    n++;
  }
  return n;
}

/* Fills cmd->waits with the wait list and then the ordering dependencies,
 * retained (q->lock held), and allocates one hook per dependency in *hooks,
 * chained through next, the last dependency's hook first. */
static cl_int collect_deps(cl_command_queue q, struct sg_command *cmd, cl_uint num_listed,
                           const cl_event *listed, struct sg_event_cb **hooks) {
  cl_int err = CL_SUCCESS;
  cl_uint n = num_listed + order_deps(q, cmd, num_listed, NULL);
  if (n) {
    cmd->waits = malloc(n * sizeof *cmd->waits);
    SG_CHECK(cmd->waits, CL_OUT_OF_HOST_MEMORY, "no memory for the wait list");
  }
  for (cl_uint i = 0; i < n; i++) {
    struct sg_event_cb *cb = malloc(sizeof *cb);
    SG_CHECK(cb, CL_OUT_OF_HOST_MEMORY, "no memory for the wait list");
    *cb = (struct sg_event_cb){i < num_listed ? listed_done : order_done, cmd, CL_COMPLETE, *hooks};
    *hooks = cb;
  }
  if (num_listed)
    memcpy(cmd->waits, listed, num_listed * sizeof *listed);
  order_deps(q, cmd, num_listed, cmd->waits + num_listed);
  for (cl_uint i = 0; i < n; i++)
    sg_retain_internal(cmd->waits[i]);
  cmd->num_waits = n;
  cmd->num_listed = num_listed;
fail:
  return err;
}

cl_int sg_queue_submit(cl_command_queue q, struct sg_command *cmd, cl_uint num_waits,
                       const cl_event *waits, cl_event *event_out, bool blocking) {
  struct sg_event_cb *hooks = NULL;
  cl_event ev = NULL;
  cmd->event = NULL;
  cmd->num_waits = 0;
  cmd->waits = NULL;
  cmd->queue = q;
  atomic_init(&cmd->failed, false);
  cl_int err = sg_check_wait_list(q->context, num_waits, waits);
  if (err != CL_SUCCESS)
    goto fail;
  ev = sg_event_create(q->context, q, cmd->type, CL_QUEUED);
  SG_CHECK(ev, CL_OUT_OF_HOST_MEMORY, "no memory for the event");
  cmd->event = ev;
  sg_retain_internal(ev); /* the command's reference */
  pthread_mutex_lock(&q->lock);
  err = collect_deps(q, cmd, num_waits, waits, &hooks);
  if (err == CL_SUCCESS)
    link_command(q, cmd);
  pthread_mutex_unlock(&q->lock);
  if (err != CL_SUCCESS)
    goto fail;
  /* One extra count so that no hook can start cmd before all are set. */
  atomic_init(&cmd->pending, cmd->num_waits + 1);
  for (cl_uint i = cmd->num_waits; i-- > 0;) {
    struct sg_event_cb *cb = hooks;
    hooks = cb->next;
    sg_event_add_callback(cmd->waits[i], cb);
  }
  /* The application reference goes to *event_out or is dropped; a blocking
   * call keeps an internal one while it waits. */
  if (blocking)
    sg_retain_internal(ev);
  if (event_out)
    *event_out = ev;
  else
    sg_release(ev);
  dependency_done(cmd); /* cmd may be gone from here on */
  if (!blocking)
    return CL_SUCCESS;
  sg_event_wait(1, &ev);
  pthread_mutex_lock(&ev->lock);
  cl_int status = ev->status;
  pthread_mutex_unlock(&ev->lock);
  sg_release_internal(ev);
  return status < 0 ? status : CL_SUCCESS;
fail:
  for (struct sg_event_cb *next; hooks; hooks = next) {
    next = hooks->next;
    free(hooks);
  }
  if (ev)
    sg_release(ev);
  command_release(cmd);
  free(cmd);
  return err;
}

static void queue_destroy(void *self) {
  cl_command_queue q = self;
  pthread_cond_destroy(&q->work);
  pthread_cond_destroy(&q->idle);
  pthread_mutex_destroy(&q->lock);
  free(q->props_array);
  sg_object_free(q);
}

/* No new commands can come (the application holds no reference): the
 * workers finish what is queued and then leave. Never waits. The queue is
 * deleted, as far as its context can tell, when its last command is done:
 * here if none is left, else by the worker that finishes it. Only the
 * memory stays while events refer to it. */
static void queue_stop(cl_command_queue q) {
  pthread_mutex_lock(&q->lock);
  q->stop = true;
  bool idle = q->busy == 0;
  pthread_cond_broadcast(&q->work);
  pthread_mutex_unlock(&q->lock);
  if (idle)
    sg_release_internal(q->context);
}

/* Workers are detached and each holds an internal reference to q, so no
 * thread ever joins them: a release from a callback on one of them, or one
 * while a command waits for a user event that is never set, cannot block. */
static cl_int start_worker(cl_command_queue q, const pthread_attr_t *attr) {
  cl_int err = CL_SUCCESS;
  pthread_t thread;
  sg_retain_internal(q); /* the worker's reference */
  if (pthread_create(&thread, attr, queue_worker, q) != 0) {
    sg_release_internal(q);
    SG_CHECK(false, CL_OUT_OF_HOST_MEMORY, "cannot start the queue's worker threads");
  }
fail:
  return err;
}

static cl_int start_workers(cl_command_queue q) {
  cl_int err = CL_SUCCESS;
  unsigned n = out_of_order(q) ? SG_OOO_WORKERS : 1;
  pthread_attr_t attr;
  SG_CHECK(pthread_attr_init(&attr) == 0, CL_OUT_OF_HOST_MEMORY,
           "cannot start the queue's worker threads");
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  for (unsigned i = 0; i < n && err == CL_SUCCESS; i++)
    err = start_worker(q, &attr);
  pthread_attr_destroy(&attr);
fail:
  return err;
}

/* Checks the properties in the spec's order: unknown bits and invalid
 * combinations are CL_INVALID_VALUE; device queues, valid but not supported
 * (CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES is 0), CL_INVALID_QUEUE_PROPERTIES. */
static cl_int check_properties(cl_command_queue_properties props) {
  cl_int err = CL_SUCCESS;
  SG_CHECK((props & ~(cl_command_queue_properties)SG_QUEUE_PROPS) == 0, CL_INVALID_VALUE,
           "unknown queue properties 0x%llx", (unsigned long long)props);
  SG_CHECK(!(props & CL_QUEUE_ON_DEVICE_DEFAULT) || (props & CL_QUEUE_ON_DEVICE), CL_INVALID_VALUE,
           "CL_QUEUE_ON_DEVICE_DEFAULT without CL_QUEUE_ON_DEVICE");
  SG_CHECK(!(props & CL_QUEUE_ON_DEVICE) || (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE),
           CL_INVALID_VALUE, "CL_QUEUE_ON_DEVICE without CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE");
  SG_CHECK(!(props & CL_QUEUE_ON_DEVICE), CL_INVALID_QUEUE_PROPERTIES,
           "SoftGPU has no device queues");
fail:
  return err;
}

static cl_command_queue queue_create(cl_context ctx, cl_device_id dev,
                                     cl_command_queue_properties props,
                                     const cl_queue_properties *array, size_t n,
                                     cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_command_queue q = NULL;
  SG_CHECK(sg_valid(ctx, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not a valid context");
  SG_CHECK(sg_valid(dev, SG_KIND_DEVICE) && dev == ctx->device, CL_INVALID_DEVICE,
           "device is not a valid device of the context");
  if ((err = check_properties(props)) != CL_SUCCESS)
    goto fail;
  q = calloc(1, sizeof *q);
  SG_CHECK(q, CL_OUT_OF_HOST_MEMORY, "no memory for the queue");
  sg_object_init(q, SG_KIND_QUEUE, queue_destroy);
  q->context = ctx;
  sg_retain_internal(ctx);
  q->device = dev;
  q->properties = props;
  pthread_mutex_init(&q->lock, NULL);
  pthread_cond_init(&q->work, NULL);
  pthread_cond_init(&q->idle, NULL);
  if (array) {
    q->props_array = malloc(n * sizeof *array);
    SG_CHECK(q->props_array, CL_OUT_OF_HOST_MEMORY, "no memory for the queue properties");
    memcpy(q->props_array, array, n * sizeof *array);
    q->num_props = n;
  }
  if ((err = start_workers(q)) != CL_SUCCESS)
    goto fail;
  SG_SET_ERR(errcode_ret, CL_SUCCESS);
  return q;
fail:
  if (q) {
    queue_stop(q);
    sg_release(q);
  }
  SG_SET_ERR(errcode_ret, err);
  return NULL;
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(
    cl_context ctx, cl_device_id dev, cl_command_queue_properties properties, cl_int *errcode_ret) {
  return queue_create(ctx, dev, properties, NULL, 0, errcode_ret);
}

/* CL_QUEUE_SIZE belongs to device queues: without CL_QUEUE_ON_DEVICE it is
 * CL_INVALID_VALUE, with it the device queue is refused. */
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
  SG_CHECK(!seen_size || (props & CL_QUEUE_ON_DEVICE), CL_INVALID_VALUE,
           "CL_QUEUE_SIZE without CL_QUEUE_ON_DEVICE");
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

/* The last application reference flushes (every command is already with the
 * workers) and returns at once; the workers run what is queued and the queue
 * is freed when they and the events referring to it are gone. */
CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(q, SG_KIND_QUEUE), CL_INVALID_COMMAND_QUEUE,
           "command_queue is not a valid queue");
  if (atomic_fetch_sub(&q->obj.refcount, 1) == 1) {
    queue_stop(q);
    sg_release_internal(q);
  }
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

/* A marker or barrier has no work of its own: its dependencies (its type
 * decides them, see order_deps) are all it is. */
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
