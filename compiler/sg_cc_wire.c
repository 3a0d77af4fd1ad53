/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler", what the host (sg_cc_client.c) and the
 * compiler worker (sg_cc_worker.c) share: the build limits, how a dead
 * child is described, and the wire. Messages go over a Unix socket, each a
 * u64 length and that many bytes of little-endian fields; byte strings are
 * a u64 length (UINT64_MAX for NULL) and their bytes. Readers check every
 * length against what is left. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sg_cc_wire.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- Limits --------------------------------------------------------------- */

/* Generous for real programs (the largest OpenCL-CTS programs build in a few
 * seconds), small enough that a runaway build ends. */
static struct sg_cc_limits limits = {.cpu_seconds = 300, .wall_seconds = 600,
                                     .memory_mib = 8192};
static pthread_once_t limits_once = PTHREAD_ONCE_INIT;

/* SOFTGPU_BUILD_LIMITS="cpu=SECONDS,wall=SECONDS,memory=MIB"; words it does
 * not know are named on stderr and ignored. */
static void read_limits(void)
{
  const char *env = sg_env_get(SG_ENV_BUILD_LIMITS);
  char *copy = env ? strdup(env) : NULL, *save = NULL;
  for (char *w = copy ? strtok_r(copy, ",", &save) : NULL; w; w = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(w, '='), *end = NULL;
    unsigned long long v = eq ? strtoull(eq + 1, &end, 10) : 0;
    bool ok = eq && end != eq + 1 && !*end && v > 0 && v <= UINT32_MAX;
    if (ok && !strncmp(w, "cpu=", 4))
      limits.cpu_seconds = (uint32_t)v;
    else if (ok && !strncmp(w, "wall=", 5))
      limits.wall_seconds = (uint32_t)v;
    else if (ok && !strncmp(w, "memory=", 7))
      limits.memory_mib = v;
    else
      fprintf(stderr, "SoftGPU: SOFTGPU_BUILD_LIMITS: ignored '%s' (cpu=, wall=, memory=)\n", w);
  }
  free(copy);
}

const struct sg_cc_limits *sg_cc_limits(void)
{
  pthread_once(&limits_once, read_limits);
  return &limits;
}

void sg_cc_set_limits(const struct sg_cc_limits *lim)
{
  pthread_once(&limits_once, read_limits);
  limits = *lim;
}

/* The line of output that says why, if there is one ("LLVM ERROR: ..."). */
static const char *why_line(const char *output, size_t *len)
{
  const char *p = output ? strstr(output, "LLVM ERROR:") : NULL;
  if (!p && output)
    p = strstr(output, "terminate called");
  *len = p ? strcspn(p, "\n") : 0;
  return p;
}

void sg_cc_describe_death(struct sg_text *log, const char *who, int status, const char *output)
{
  const struct sg_cc_limits *lim = sg_cc_limits();
  bool oom = output && (strstr(output, "out of memory") || strstr(output, "bad_alloc") ||
                        strstr(output, "Cannot allocate memory"));
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)
    sg_text_printf(log, "error: %s exceeded its CPU time limit of %u s (SOFTGPU_BUILD_LIMITS)\n",
                   who, lim->cpu_seconds);
  else if (oom)
    sg_text_printf(log,
                   "error: %s ran out of memory (limit %llu MiB of address space, "
                   "SOFTGPU_BUILD_LIMITS)\n",
                   who, (unsigned long long)lim->memory_mib);
  else if (WIFSIGNALED(status))
    sg_text_printf(log, "error: %s crashed (signal %d, %s)\n", who, WTERMSIG(status),
                   strsignal(WTERMSIG(status)));
  else
    sg_text_printf(log, "error: %s stopped unexpectedly (exit status %d)\n", who,
                   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  size_t n;
  const char *why = why_line(output, &n);
  if (why)
    sg_text_printf(log, "note: it said: %.*s\n", (int)(n > 500 ? 500 : n), why);
}

/* ---- Messages ------------------------------------------------------------ */


void sg_wire_put(struct sg_wire *w, const void *d, size_t n)
{
  if (w->oom)
    return;
  if (w->len + n > w->cap) {
    size_t cap = w->cap ? w->cap : 4096;
    while (cap < w->len + n)
      cap *= 2;
    uint8_t *p = realloc(w->p, cap);
    if (!p) {
      w->oom = true;
      return;
    }
    w->p = p, w->cap = cap;
  }
  if (n)
    memcpy(w->p + w->len, d, n);
  w->len += n;
}

void sg_wire_u32(struct sg_wire *w, uint32_t v) { sg_wire_put(w, &v, 4); }
void sg_wire_u64(struct sg_wire *w, uint64_t v) { sg_wire_put(w, &v, 8); }

void sg_wire_bytes(struct sg_wire *w, const void *d, size_t n)
{
  sg_wire_u64(w, d ? n : UINT64_MAX);
  if (d)
    sg_wire_put(w, d, n);
}

void sg_wire_str(struct sg_wire *w, const char *s)
{
  sg_wire_bytes(w, s, s ? strlen(s) + 1 : 0);
}

void sg_wire_free(struct sg_wire *w)
{
  free(w->p);
  memset(w, 0, sizeof *w);
}

static const uint8_t *take(struct sg_wire_in *in, size_t n)
{
  if (in->bad || n > in->len - in->at) {
    in->bad = true;
    return NULL;
  }
  const uint8_t *p = in->p + in->at;
  in->at += n;
  return p;
}

uint32_t sg_wire_get_u32(struct sg_wire_in *in)
{
  uint32_t v = 0;
  const uint8_t *p = take(in, 4);
  if (p)
    memcpy(&v, p, 4);
  return v;
}

uint64_t sg_wire_get_u64(struct sg_wire_in *in)
{
  uint64_t v = 0;
  const uint8_t *p = take(in, 8);
  if (p)
    memcpy(&v, p, 8);
  return v;
}

const void *sg_wire_get_bytes(struct sg_wire_in *in, size_t *n)
{
  uint64_t len = sg_wire_get_u64(in);
  *n = 0;
  if (len == UINT64_MAX || in->bad)
    return NULL;
  const uint8_t *p = take(in, len > SIZE_MAX ? SIZE_MAX : (size_t)len);
  *n = p ? (size_t)len : 0;
  return p;
}

const char *sg_wire_get_str(struct sg_wire_in *in)
{
  size_t n;
  const char *s = sg_wire_get_bytes(in, &n);
  if (s && (n == 0 || s[n - 1] || memchr(s, 0, n) != s + n - 1)) {
    in->bad = true; /* a string is its bytes and one NUL */
    return NULL;
  }
  return s;
}

/* ---- Transport ----------------------------------------------------------- */

static bool send_all(int fd, const void *d, size_t n)
{
  const uint8_t *p = d;
  while (n) {
    /* MSG_NOSIGNAL: a dead peer is an error here, not a SIGPIPE that would
     * end the host process. */
    ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return false;
    p += k, n -= (size_t)k;
  }
  return true;
}

bool sg_wire_send(int fd, const struct sg_wire *w)
{
  uint64_t n = w->len;
  return !w->oom && send_all(fd, &n, sizeof n) && send_all(fd, w->p, w->len);
}

static int64_t now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Reads n bytes before deadline (ms of CLOCK_MONOTONIC, < 0: none). */
static enum sg_wire_result recv_all(int fd, void *d, size_t n, int64_t deadline)
{
  uint8_t *p = d;
  while (n) {
    if (deadline >= 0) {
      int64_t left = deadline - now_ms();
      struct pollfd pfd = {.fd = fd, .events = POLLIN};
      int r = left > 0 ? poll(&pfd, 1, left > INT32_MAX ? INT32_MAX : (int)left) : 0;
      if (r < 0 && errno == EINTR)
        continue;
      if (r == 0)
        return SG_WIRE_TIMEOUT;
      if (r < 0)
        return SG_WIRE_CLOSED;
    }
    ssize_t k = recv(fd, p, n, 0);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return SG_WIRE_CLOSED;
    p += k, n -= (size_t)k;
  }
  return SG_WIRE_OK;
}

enum sg_wire_result sg_wire_recv(int fd, int64_t timeout_ms, uint64_t max, uint8_t **buf,
                                 size_t *len)
{
  int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
  uint64_t n;
  *buf = NULL;
  *len = 0;
  enum sg_wire_result r = recv_all(fd, &n, sizeof n, deadline);
  if (r != SG_WIRE_OK)
    return r;
  if (n > max || n > SIZE_MAX - 1)
    return SG_WIRE_CLOSED; /* not a message of ours */
  uint8_t *b = malloc((size_t)n + 1);
  if (!b)
    return SG_WIRE_NOMEM;
  if ((r = recv_all(fd, b, (size_t)n, deadline)) != SG_WIRE_OK) {
    free(b);
    return r;
  }
  *buf = b;
  *len = (size_t)n;
  return SG_WIRE_OK;
}
