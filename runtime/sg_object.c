/* SPDX-License-Identifier: MIT */
/* runtime/ objects (DESIGN.md 5): the common header every CL object starts
 * with, handle validation and reference counting shared by all families. */
#include "sg_runtime.h"

/* The layout every object starts with; only the header is touched here. */
struct sg_head {
  SG_OBJECT_HEAD;
};

/* The application's references together hold one internal reference, so an
 * object dies exactly once: when the last internal reference goes, which can
 * only happen after the application's count has reached zero. */
void sg_object_init(void *o, enum sg_kind kind, void (*destroy)(void *self)) {
  struct sg_head *h = o;
  h->dispatch = &sg_dispatch;
  h->obj.kind = kind;
  h->obj.magic = SG_MAGIC;
  atomic_init(&h->obj.refcount, 1);
  atomic_init(&h->obj.internal, 1);
  atomic_init(&h->obj.holds, 1);
  h->obj.destroy = destroy;
}

/* A handle the application released is invalid even while SoftGPU still
 * holds it (refcount 0). Freed memory is detected by the cleared magic. */
bool sg_valid(const void *o, enum sg_kind kind) {
  const struct sg_head *h = o;
  return h && h->dispatch == &sg_dispatch && h->obj.kind == (uint32_t)kind &&
         h->obj.magic == SG_MAGIC && atomic_load(&h->obj.refcount) > 0;
}

void sg_retain(void *o) {
  struct sg_head *h = o;
  atomic_fetch_add(&h->obj.refcount, 1);
}

void sg_release(void *o) {
  struct sg_head *h = o;
  if (atomic_fetch_sub(&h->obj.refcount, 1) == 1)
    sg_release_internal(o);
}

void sg_retain_internal(void *o) {
  struct sg_head *h = o;
  atomic_fetch_add(&h->obj.internal, 1);
}

void sg_release_internal(void *o) {
  struct sg_head *h = o;
  if (atomic_fetch_sub(&h->obj.internal, 1) != 1)
    return;
  h->obj.magic = 0;
  if (h->obj.destroy)
    h->obj.destroy(o);
}

/* A destroyed object's memory waits in a quarantine before it is freed, so
 * a handle the application released and passes again still points at a
 * header whose magic is cleared (the spec's CL_INVALID_* code) instead of at
 * freed memory, which the ICD loader would read first to dispatch. The
 * quarantine is bounded: a handle passed again after SG_QUARANTINE later
 * destructions is freed memory again. */
#define SG_QUARANTINE 4096
static pthread_mutex_t quarantine_lock = PTHREAD_MUTEX_INITIALIZER;
static void *quarantine[SG_QUARANTINE];
static unsigned quarantine_next;

void sg_hold(void *o) {
  struct sg_head *h = o;
  atomic_fetch_add(&h->obj.holds, 1);
}

/* The object's own hold is dropped by sg_object_free: whichever of it and
 * the holders goes last frees the allocation. */
void sg_unhold(void *o) {
  struct sg_head *h = o;
  if (atomic_fetch_sub(&h->obj.holds, 1) != 1)
    return;
  pthread_mutex_lock(&quarantine_lock);
  void *oldest = quarantine[quarantine_next];
  quarantine[quarantine_next] = o;
  quarantine_next = (quarantine_next + 1) % SG_QUARANTINE;
  pthread_mutex_unlock(&quarantine_lock);
  free(oldest);
}

void sg_object_free(void *o) {
  sg_unhold(o);
}
