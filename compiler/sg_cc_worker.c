/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler", the compiler worker (softgpu-cc): a process
 * the host library starts and reuses for every build (docs/decisions.md
 * "The compiler runs in a worker process"). It reads requests on
 * SG_CC_WORKER_FD, runs them with the in-process compiler and writes one
 * reply each, until the host closes the socket. A crash, an abort or a
 * resource limit ends this process only; the host reports it and starts
 * another. Single-threaded, so it may fork its own children freely. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sg_cc_wire.h"

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define SG_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SG_ASAN 1
#endif
#endif

/* CPU time is cumulative over the process's life: each request may use
 * cpu_seconds from now on (SIGXCPU past that). The address-space limit
 * holds for the whole process; AddressSanitizer reserves terabytes of
 * shadow memory, so its builds go without it. */
static void apply_limits(const struct sg_cc_limits *lim)
{
  struct rusage ru;
  struct rlimit r;
  getrusage(RUSAGE_SELF, &ru);
  if (getrlimit(RLIMIT_CPU, &r) == 0) {
    rlim_t used = (rlim_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1);
    r.rlim_cur = used + lim->cpu_seconds;
    if (r.rlim_max != RLIM_INFINITY && r.rlim_cur > r.rlim_max)
      r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_CPU, &r);
  }
#ifndef SG_ASAN
  if (getrlimit(RLIMIT_AS, &r) == 0) {
    r.rlim_cur = (rlim_t)lim->memory_mib << 20;
    if (r.rlim_max != RLIM_INFINITY && r.rlim_cur > r.rlim_max)
      r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_AS, &r);
  }
#endif
}

/* What a build-like request holds; headers point into the message. */
static bool read_build(struct sg_wire_in *in, struct sg_build_request *req,
                       struct sg_header **headers)
{
  req->source = sg_wire_get_str(in);
  req->options = sg_wire_get_str(in);
  req->num_headers = sg_wire_get_u32(in);
  *headers = NULL;
  if (in->bad || req->num_headers > (in->len - in->at) / 16)
    return false; /* each header takes at least two 8-byte lengths */
  *headers = calloc(req->num_headers + 1, sizeof **headers);
  if (!*headers)
    return false;
  for (uint32_t i = 0; i < req->num_headers; i++) {
    (*headers)[i].name = sg_wire_get_str(in);
    (*headers)[i].source = sg_wire_get_str(in);
  }
  req->headers = *headers;
  req->max_private_size = sg_wire_get_u64(in);
  return !in->bad;
}

static bool read_link(struct sg_wire_in *in, struct sg_link_request *req,
                      struct sg_link_input **inputs)
{
  req->options = sg_wire_get_str(in);
  req->num_inputs = sg_wire_get_u32(in);
  *inputs = NULL;
  if (in->bad || req->num_inputs > (in->len - in->at) / 8)
    return false;
  *inputs = calloc(req->num_inputs + 1, sizeof **inputs);
  if (!*inputs)
    return false;
  for (uint32_t i = 0; i < req->num_inputs; i++)
    (*inputs)[i].binary = sg_wire_get_bytes(in, &(*inputs)[i].size);
  req->inputs = *inputs;
  req->max_private_size = sg_wire_get_u64(in);
  return !in->bad;
}

/* Runs one request; the reply goes into out. */
static void serve(struct sg_wire_in *in, struct sg_wire *out)
{
  uint32_t type = sg_wire_get_u32(in);
  struct sg_cc_limits lim;
  lim.cpu_seconds = sg_wire_get_u32(in);
  lim.wall_seconds = sg_wire_get_u32(in);
  lim.memory_mib = sg_wire_get_u64(in);
  size_t keylen;
  const uint8_t *key = sg_wire_get_bytes(in, &keylen);
  struct sg_build_result res = {0};
  enum sg_status st = SG_EINVAL;
  enum sg_binary_kind kind = SG_BINARY_NONE;
  char err[1024] = "error: malformed request to the compiler worker\n";
  struct sg_header *headers = NULL;
  struct sg_link_input *inputs = NULL;
  if (!in->bad && key && keylen == SG_CC_KEY_LEN) {
    sg_cc_set_limits(&lim);
    sg_cc_set_object_key(key);
    apply_limits(&lim);
    struct sg_build_request breq = {0};
    struct sg_link_request lreq = {0};
    size_t size;
    const void *bin;
    switch (type) {
    case SG_CC_BUILD:
      if (read_build(in, &breq, &headers))
        st = sg_cc_build_local(&breq, &res);
      break;
    case SG_CC_COMPILE:
      if (read_build(in, &breq, &headers))
        st = sg_cc_compile_local(&breq, &res);
      break;
    case SG_CC_LINK:
      if (read_link(in, &lreq, &inputs))
        st = sg_cc_link_local(&lreq, &res);
      break;
    case SG_CC_CHECK:
      bin = sg_wire_get_bytes(in, &size);
      if (!in->bad && bin) {
        st = sg_cc_check_local(bin, size, &kind, err, sizeof err);
        if (st == SG_OK)
          err[0] = 0;
      }
      break;
    default: break;
    }
  }
  sg_wire_u32(out, (uint32_t)st);
  sg_wire_u32(out, (uint32_t)kind);
  sg_wire_str(out, res.log ? res.log : err);
  sg_wire_bytes(out, res.binary, res.binary_size);
  sg_build_result_free(&res);
  free(headers);
  free(inputs);
}

int main(int argc, char **argv)
{
  (void)argv;
  if (argc != 1 || isatty(SG_CC_WORKER_FD)) {
    fprintf(stderr, "softgpu-cc: the SoftGPU compiler worker; libsoftgpu.so starts it\n");
    return 2;
  }
  sg_cc_set_clang(sg_cc_clang_run);
  for (;;) {
    /* Idle: read the next build's device library before its request. */
    struct pollfd pfd = {.fd = SG_CC_WORKER_FD, .events = POLLIN};
    if (poll(&pfd, 1, 0) == 0)
      sg_cc_devlib_prepare();
    uint8_t *msg;
    size_t len;
    if (sg_wire_recv(SG_CC_WORKER_FD, -1, SG_CC_MAX_MESSAGE, &msg, &len) != SG_WIRE_OK)
      return 0; /* the host closed the socket (or is gone) */
    /* stdout and stderr are one file the host reads when this process dies:
     * keep only what this request prints. */
    if (ftruncate(STDERR_FILENO, 0) == 0)
      lseek(STDERR_FILENO, 0, SEEK_SET);
    struct sg_wire_in in = {.p = msg, .len = len};
    struct sg_wire out = {0};
    serve(&in, &out);
    free(msg);
    bool sent = sg_wire_send(SG_CC_WORKER_FD, &out);
    sg_wire_free(&out);
    if (!sent)
      return 0;
  }
}
