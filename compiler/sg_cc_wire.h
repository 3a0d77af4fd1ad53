/* SPDX-License-Identifier: MIT */
/* compiler/ private: the messages between the host and the compiler worker
 * (sg_cc_wire.c has the format) and what each request and reply holds. */
#ifndef SG_CC_WIRE_H
#define SG_CC_WIRE_H

#include "sg_cc_internal.h"

/* Requests: u32 type, u32 cpu_seconds, u32 wall_seconds, u64 memory_mib,
 * the object key (SG_CC_KEY_LEN bytes), then by type:
 *   BUILD, COMPILE: str source, str options, u32 n, n x (str name, str text),
 *                   u64 max_private_size
 *   LINK:           str options, u32 n, n x bytes, u64 max_private_size
 *   CHECK:          bytes binary
 * Reply: u32 status, u32 binary kind, str log, bytes binary. */
enum sg_cc_request { SG_CC_BUILD = 1, SG_CC_COMPILE, SG_CC_LINK, SG_CC_CHECK };

/* The worker's descriptor for requests and replies (a Unix socket). */
#define SG_CC_WORKER_FD 3
/* No message is larger (sources of 100 MB pass). */
#define SG_CC_MAX_MESSAGE (4ull << 30)

struct sg_wire {
  uint8_t *p;
  size_t len, cap;
  bool oom;
};
void sg_wire_put(struct sg_wire *w, const void *d, size_t n);
void sg_wire_u32(struct sg_wire *w, uint32_t v);
void sg_wire_u64(struct sg_wire *w, uint64_t v);
void sg_wire_bytes(struct sg_wire *w, const void *d, size_t n); /* d NULL: absent */
void sg_wire_str(struct sg_wire *w, const char *s);              /* s NULL: absent */
void sg_wire_free(struct sg_wire *w);

/* A received message; `bad` once any read ran past its end or met a
 * malformed field (every later read then returns 0 or NULL). */
struct sg_wire_in {
  const uint8_t *p;
  size_t len, at;
  bool bad;
};
uint32_t sg_wire_get_u32(struct sg_wire_in *in);
uint64_t sg_wire_get_u64(struct sg_wire_in *in);
const void *sg_wire_get_bytes(struct sg_wire_in *in, size_t *n); /* into the message */
const char *sg_wire_get_str(struct sg_wire_in *in);              /* NUL-terminated */

enum sg_wire_result { SG_WIRE_OK, SG_WIRE_CLOSED, SG_WIRE_TIMEOUT, SG_WIRE_NOMEM };
bool sg_wire_send(int fd, const struct sg_wire *w);
/* One message (malloc'd into *buf); timeout_ms < 0 waits for ever. */
enum sg_wire_result sg_wire_recv(int fd, int64_t timeout_ms, uint64_t max, uint8_t **buf,
                                 size_t *len);

#endif
