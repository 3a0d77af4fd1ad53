/* SPDX-License-Identifier: MIT */
/* runtime/ events (DESIGN.md 5): status transitions with profiling times,
 * waiting, callbacks, user events. Command events are made by
 * sg_queue_submit and moved along by the queue's worker. */
#include <stdlib.h>

#include "sg_runtime.h"

/* The slots of ev->times, in the order the spec requires them to grow. */
enum { T_QUEUED, T_SUBMIT, T_START, T_END, T_COMPLETE };

static void event_destroy(void *self) {
  cl_event ev = self;
  for (struct sg_event_cb *cb = ev->callbacks, *next; cb; cb = next) {
    next = cb->next;
    free(cb);
  }
  pthread_cond_destroy(&ev->cond);
  pthread_mutex_destroy(&ev->lock);
  if (ev->queue)
    sg_release_internal(ev->queue);
  sg_release_internal(ev->context);
  sg_object_free(ev);
}

cl_event sg_event_create(cl_context ctx, cl_command_queue q, cl_command_type type, cl_int status) {
  cl_event ev = calloc(1, sizeof *ev);
  if (!ev)
    return NULL;
  sg_object_init(ev, SG_KIND_EVENT, event_destroy);
  ev->context = ctx;
  sg_retain_internal(ctx);
  ev->queue = q;
  if (q)
    sg_retain_internal(q);
  ev->type = type;
  ev->status = status;
  ev->times[T_QUEUED] = sg_now_ns();
  pthread_mutex_init(&ev->lock, NULL);
  pthread_cond_init(&ev->cond, NULL);
  return ev;
}

/* A callback registered for status s fires once the event reaches s or a
 * later one (CL_COMPLETE = 0 is last), or fails: then every pending callback
 * gets the error status. */
static bool cb_due(const struct sg_event_cb *cb, cl_int status) {
  return status < 0 || status <= cb->on_status;
}

/* Takes the due callbacks off the list (ev->lock held); they run unlocked. */
static struct sg_event_cb *take_due(cl_event ev) {
  struct sg_event_cb *due = NULL, **link = &ev->callbacks;
  while (*link) {
    struct sg_event_cb *cb = *link;
    if (cb_due(cb, ev->status)) {
      *link = cb->next;
      cb->next = due;
      due = cb;
    } else {
      link = &cb->next;
    }
  }
  return due;
}

static void run_callbacks(cl_event ev, struct sg_event_cb *due, cl_int status) {
  for (struct sg_event_cb *cb = due, *next; cb; cb = next) {
    next = cb->next;
    cb->fn(ev, status < 0 ? status : cb->on_status, cb->user_data);
    free(cb);
  }
}

/* Moves ev (locked) to status and unlocks it; callbacks run unlocked. */
static void transition_and_unlock(cl_event ev, cl_int status) {
  cl_ulong now = sg_now_ns();
  if (status == CL_SUBMITTED) {
    ev->times[T_SUBMIT] = now;
  } else if (status == CL_RUNNING) {
    ev->times[T_START] = now;
  } else {
    /* No child commands: the command completes when it ends. A timed
     * launch ends when its simulated time has passed since it started. */
    ev->times[T_END] = ev->times[T_COMPLETE] = now;
    if (ev->device_ns && ev->times[T_START] && status == CL_COMPLETE)
      ev->times[T_END] = ev->times[T_START] + ev->device_ns;
    if (ev->times[T_END] > ev->times[T_COMPLETE])
      ev->times[T_COMPLETE] = ev->times[T_END];
  }
  ev->status = status;
  struct sg_event_cb *due = take_due(ev);
  if (status <= CL_COMPLETE) /* sg_event_wait waits for nothing else */
    pthread_cond_broadcast(&ev->cond);
  /* Callbacks may release the event: keep it alive until they are done. */
  sg_retain_internal(ev);
  pthread_mutex_unlock(&ev->lock);
  run_callbacks(ev, due, status);
  sg_release_internal(ev);
}

void sg_event_set_status(cl_event ev, cl_int status) {
  pthread_mutex_lock(&ev->lock);
  transition_and_unlock(ev, status);
}

/* Only the new callback can be due: the others were due-checked at every
 * transition, so registering N callbacks on one event costs O(N), not O(N^2). */
void sg_event_add_callback(cl_event ev, struct sg_event_cb *cb) {
  pthread_mutex_lock(&ev->lock);
  cl_int status = ev->status;
  if (!cb_due(cb, status)) {
    cb->next = ev->callbacks;
    ev->callbacks = cb;
    pthread_mutex_unlock(&ev->lock);
    return;
  }
  cb->next = NULL;
  sg_retain_internal(ev);
  pthread_mutex_unlock(&ev->lock);
  run_callbacks(ev, cb, status);
  sg_release_internal(ev);
}

cl_int sg_event_wait(cl_uint n, const cl_event *events) {
  cl_int err = CL_SUCCESS;
  for (cl_uint i = 0; i < n; i++) {
    cl_event ev = events[i];
    pthread_mutex_lock(&ev->lock);
    while (ev->status > CL_COMPLETE)
      pthread_cond_wait(&ev->cond, &ev->lock);
    if (ev->status < 0)
      err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    pthread_mutex_unlock(&ev->lock);
  }
  return err;
}

cl_int sg_check_wait_list(cl_context ctx, cl_uint n, const cl_event *list) {
  cl_int err = CL_SUCCESS;
  SG_CHECK((n == 0) == (list == NULL), CL_INVALID_EVENT_WAIT_LIST,
           "num_events_in_wait_list is %u but event_wait_list is %s", n,
           list ? "not NULL" : "NULL");
  for (cl_uint i = 0; i < n; i++) {
    SG_CHECK(sg_valid(list[i], SG_KIND_EVENT), CL_INVALID_EVENT_WAIT_LIST,
             "event_wait_list[%u] is not a valid event", i);
    SG_CHECK(list[i]->context == ctx, CL_INVALID_CONTEXT,
             "event_wait_list[%u] belongs to another context", i);
  }
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(num_events && event_list, CL_INVALID_VALUE, "num_events is 0 or event_list is NULL");
  for (cl_uint i = 0; i < num_events; i++) {
    SG_CHECK(sg_valid(event_list[i], SG_KIND_EVENT), CL_INVALID_EVENT,
             "event_list[%u] is not a valid event", i);
    SG_CHECK(event_list[i]->context == event_list[0]->context, CL_INVALID_CONTEXT,
             "event_list[%u] belongs to another context", i);
  }
  err = sg_event_wait(num_events, event_list);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event ev, cl_event_info param_name,
                                               size_t param_value_size, void *param_value,
                                               size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(ev, SG_KIND_EVENT), CL_INVALID_EVENT, "event is not a valid event");
  switch (param_name) {
  case CL_EVENT_COMMAND_QUEUE: SG_INFO_VAL(cl_command_queue, ev->queue);
  case CL_EVENT_CONTEXT: SG_INFO_VAL(cl_context, ev->context);
  case CL_EVENT_COMMAND_TYPE: SG_INFO_VAL(cl_command_type, ev->type);
  case CL_EVENT_REFERENCE_COUNT: SG_INFO_VAL(cl_uint, atomic_load(&ev->obj.refcount));
  case CL_EVENT_COMMAND_EXECUTION_STATUS: {
    pthread_mutex_lock(&ev->lock);
    cl_int status = ev->status;
    pthread_mutex_unlock(&ev->lock);
    SG_INFO_VAL(cl_int, status);
  }
  }
  SG_CHECK(false, CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event ev, cl_profiling_info param_name,
                                                        size_t param_value_size, void *param_value,
                                                        size_t *param_value_size_ret) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(ev, SG_KIND_EVENT), CL_INVALID_EVENT, "event is not a valid event");
  SG_CHECK(ev->queue && (ev->queue->properties & CL_QUEUE_PROFILING_ENABLE),
           CL_PROFILING_INFO_NOT_AVAILABLE,
           "the event is a user event or its queue does not profile");
  pthread_mutex_lock(&ev->lock);
  cl_int status = ev->status;
  pthread_mutex_unlock(&ev->lock);
  SG_CHECK(status == CL_COMPLETE, CL_PROFILING_INFO_NOT_AVAILABLE, "the command has not completed");
  switch (param_name) {
  case CL_PROFILING_COMMAND_QUEUED: SG_INFO_VAL(cl_ulong, ev->times[T_QUEUED]);
  case CL_PROFILING_COMMAND_SUBMIT: SG_INFO_VAL(cl_ulong, ev->times[T_SUBMIT]);
  case CL_PROFILING_COMMAND_START: SG_INFO_VAL(cl_ulong, ev->times[T_START]);
  case CL_PROFILING_COMMAND_END: SG_INFO_VAL(cl_ulong, ev->times[T_END]);
  case CL_PROFILING_COMMAND_COMPLETE: SG_INFO_VAL(cl_ulong, ev->times[T_COMPLETE]);
  }
  SG_CHECK(false, CL_INVALID_VALUE, "unknown param_name 0x%x", param_name);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event ev, cl_int command_exec_callback_type,
                                                   void(CL_CALLBACK *pfn_notify)(cl_event, cl_int,
                                                                                 void *),
                                                   void *user_data) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(ev, SG_KIND_EVENT), CL_INVALID_EVENT, "event is not a valid event");
  SG_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
  SG_CHECK(command_exec_callback_type == CL_SUBMITTED || command_exec_callback_type == CL_RUNNING ||
               command_exec_callback_type == CL_COMPLETE,
           CL_INVALID_VALUE,
           "command_exec_callback_type %d is not CL_SUBMITTED, CL_RUNNING or CL_COMPLETE",
           command_exec_callback_type);
  struct sg_event_cb *cb = malloc(sizeof *cb);
  SG_CHECK(cb, CL_OUT_OF_HOST_MEMORY, "no memory for the callback");
  *cb = (struct sg_event_cb){pfn_notify, user_data, command_exec_callback_type, NULL};
  sg_event_add_callback(ev, cb);
fail:
  return err;
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context ctx, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_event ev = NULL;
  SG_CHECK(sg_valid(ctx, SG_KIND_CONTEXT), CL_INVALID_CONTEXT, "context is not a valid context");
  ev = sg_event_create(ctx, NULL, CL_COMMAND_USER, CL_SUBMITTED);
  SG_CHECK(ev, CL_OUT_OF_HOST_MEMORY, "no memory for the event");
fail:
  SG_SET_ERR(errcode_ret, err);
  return ev;
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event ev, cl_int execution_status) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(ev, SG_KIND_EVENT) && ev->type == CL_COMMAND_USER, CL_INVALID_EVENT,
           "event is not a valid user event");
  SG_CHECK(execution_status == CL_COMPLETE || execution_status < 0, CL_INVALID_VALUE,
           "execution_status %d is neither CL_COMPLETE nor negative", execution_status);
  /* Check and set under one lock: of two racing calls exactly one wins. */
  pthread_mutex_lock(&ev->lock);
  if (ev->status != CL_SUBMITTED) {
    pthread_mutex_unlock(&ev->lock);
    SG_CHECK(false, CL_INVALID_OPERATION, "the user event's status was already set");
  }
  transition_and_unlock(ev, execution_status);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event ev) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(ev, SG_KIND_EVENT), CL_INVALID_EVENT, "event is not a valid event");
  sg_retain(ev);
fail:
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event ev) {
  cl_int err = CL_SUCCESS;
  SG_CHECK(sg_valid(ev, SG_KIND_EVENT), CL_INVALID_EVENT, "event is not a valid event");
  sg_release(ev);
fail:
  return err;
}
