/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler", the host side of the compiler worker
 * (docs/decisions.md "The compiler runs in a worker process"): sg_build,
 * sg_compile_object, sg_link and sg_binary_check send their request to a
 * softgpu-cc process from a small pool, started with posix_spawn (the host
 * may be multi-threaded) and reused across builds. A worker that crashes,
 * aborts, exceeds its limits or falls silent fails that one request with a
 * line in the log and is replaced by the next request. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr, memfd_create, prlimit */
#endif
#include "sg_cc_wire.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ---- Finding and starting workers -------------------------------------- */

/* The environment the worker runs with: the host's without LD_PRELOAD. A
 * preload is meant for the host program (LD_PRELOAD=libasan.so to debug it
 * with AddressSanitizer, bench/'s libsg_cl_time.so to time it); in the
 * worker, under its address-space limit, the sanitizer runtime cannot
 * reserve its shadow memory and aborts. Points into environ; free only the
 * array. */
static char **worker_environ(void)
{
  size_t n = 0;
  while (environ[n])
    n++;
  char **env = calloc(n + 1, sizeof *env);
  for (size_t i = 0, k = 0; env && i < n; i++)
    if (strncmp(environ[i], "LD_PRELOAD=", 11))
      env[k++] = environ[i];
  return env;
}

static char worker_exe[4096];
static pthread_once_t exe_once = PTHREAD_ONCE_INIT;

/* Installed: SG_CC_WORKER_REL from the library's own directory (so a moved
 * prefix or DESTDIR works); in the build tree: SG_CC_WORKER_BUILD. */
static void find_worker(void)
{
  Dl_info di;
  snprintf(worker_exe, sizeof worker_exe, "%s", SG_CC_WORKER_BUILD);
  if (dladdr((void *)sg_build, &di) && di.dli_fname) {
    char lib[4096], path[8192 + 64];
    snprintf(lib, sizeof lib, "%s", di.dli_fname);
    snprintf(path, sizeof path, "%s/%s", dirname(lib), SG_CC_WORKER_REL);
    if (access(path, X_OK) == 0 && strlen(path) < sizeof worker_exe)
      snprintf(worker_exe, sizeof worker_exe, "%s", path);
  }
}

struct worker {
  pid_t pid;
  int sock;   /* requests and replies */
  int output; /* its stdout and stderr (a memfd): why it died */
};

/* A descriptor at 10 or above, close-on-exec: dup2 onto the worker's 1, 2
 * and 3 then always clears close-on-exec in the child. */
static int high_fd(int fd)
{
  if (fd < 0)
    return fd;
  int h = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  close(fd);
  return h;
}

static struct worker *spawn_worker(struct sg_text *log)
{
  pthread_once(&exe_once, find_worker);
  struct worker *w = calloc(1, sizeof *w);
  int sv[2] = {-1, -1};
  if (!w || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
    sg_text_printf(log, "error: cannot start the compiler: %s\n", strerror(errno));
    free(w);
    return NULL;
  }
  w->sock = high_fd(sv[0]);
  int child = high_fd(sv[1]);
  w->output = high_fd(memfd_create("softgpu-cc-output", MFD_CLOEXEC));
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, w->output, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&fa, w->output, STDERR_FILENO);
  posix_spawn_file_actions_adddup2(&fa, child, SG_CC_WORKER_FD);
  posix_spawnattr_init(&attr);
  /* Its own process group (a timeout kills all of it), default
   * signal handling and an empty mask whatever the host set up. */
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  char *argv[] = {worker_exe, NULL};
  char **env = worker_environ();
  int err = w->sock < 0 || child < 0 || w->output < 0 ? errno : !env ? ENOMEM : 0;
  if (!err)
    err = posix_spawn(&w->pid, worker_exe, &fa, &attr, argv, env);
  free(env);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(child);
  if (err) {
    sg_text_printf(log, "error: cannot start the compiler worker %s: %s\n", worker_exe,
                   strerror(err));
    close(w->sock);
    close(w->output);
    free(w);
    return NULL;
  }
  return w;
}

/* Ends w (already dead or not) and frees it; *status gets how it ended. */
static void end_worker(struct worker *w, bool kill_it, int *status)
{
  int st = 0;
  if (kill_it)
    kill(-w->pid, SIGKILL); /* with the clang it may be running */
  close(w->sock);
  while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
    ;
  close(w->output);
  free(w);
  if (status)
    *status = st;
}

/* What the worker printed before it died (malloc'd, NUL-terminated). */
static char *worker_output(const struct worker *w)
{
  enum { MAX = 64 << 10 };
  char *b = malloc(MAX + 1);
  ssize_t n = b ? pread(w->output, b, MAX, 0) : -1;
  if (b)
    b[n > 0 ? n : 0] = 0;
  return b;
}

/* ---- The pool ------------------------------------------------------------- */

#define MAX_WORKERS 8
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_cond = PTHREAD_COND_INITIALIZER;
static struct worker *idle[MAX_WORKERS];
static unsigned num_idle, num_live;

/* As many workers as host cores (builds on several threads run in
 * parallel, as they did in process), at most MAX_WORKERS. */
static unsigned max_workers(void)
{
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : (unsigned)n;
}

/* An idle worker, or a new one when fewer than max_workers live; waits
 * otherwise. A worker that died while idle is replaced. */
static struct worker *acquire(struct sg_text *log)
{
  pthread_mutex_lock(&pool_lock);
  for (;;) {
    while (num_idle) {
      struct worker *w = idle[--num_idle];
      int st;
      pid_t r = waitpid(w->pid, &st, WNOHANG);
      /* ECHILD: the host ignores SIGCHLD, so ask the process itself. */
      if (r == 0 || (r < 0 && kill(w->pid, 0) == 0)) {
        pthread_mutex_unlock(&pool_lock);
        return w;
      }
      w->pid = -1; /* reaped */
      close(w->sock), close(w->output), free(w);
      num_live--;
    }
    if (num_live < max_workers())
      break;
    pthread_cond_wait(&pool_cond, &pool_lock);
  }
  num_live++;
  pthread_mutex_unlock(&pool_lock);
  struct worker *w = spawn_worker(log);
  if (!w) {
    pthread_mutex_lock(&pool_lock);
    num_live--;
    pthread_cond_signal(&pool_cond);
    pthread_mutex_unlock(&pool_lock);
  }
  return w;
}

static void release(struct worker *w)
{
  pthread_mutex_lock(&pool_lock);
  idle[num_idle++] = w;
  pthread_cond_signal(&pool_cond);
  pthread_mutex_unlock(&pool_lock);
}

/* Forgets a worker that failed its request. */
static void discard(void)
{
  pthread_mutex_lock(&pool_lock);
  num_live--;
  pthread_cond_signal(&pool_cond);
  pthread_mutex_unlock(&pool_lock);
}

void sg_compiler_prepare(void)
{
  pthread_mutex_lock(&pool_lock);
  bool none = num_live == 0;
  num_live += none;
  pthread_mutex_unlock(&pool_lock);
  if (!none)
    return;
  struct sg_text log = {0};
  struct worker *w = spawn_worker(&log);
  free(log.buf); /* the build that needs a worker will say why it has none */
  if (w)
    release(w);
  else
    discard();
}

void sg_compiler_unload(void)
{
  pthread_mutex_lock(&pool_lock);
  while (num_idle) {
    struct worker *w = idle[--num_idle];
    num_live--;
    pthread_mutex_unlock(&pool_lock);
    end_worker(w, false, NULL); /* it exits when its socket closes */
    pthread_mutex_lock(&pool_lock);
  }
  pthread_mutex_unlock(&pool_lock);
}

/* ---- Requests ------------------------------------------------------------- */

struct reply {
  uint8_t *msg; /* owns what the fields point into */
  enum sg_status status;
  enum sg_binary_kind kind;
  const char *log;
  const void *binary;
  size_t binary_size;
};

static void start_request(struct sg_wire *w, enum sg_cc_request type)
{
  const struct sg_cc_limits *lim = sg_cc_limits();
  sg_wire_u32(w, type);
  sg_wire_u32(w, lim->cpu_seconds);
  sg_wire_u32(w, lim->wall_seconds);
  sg_wire_u64(w, lim->memory_mib);
  sg_wire_bytes(w, sg_cc_object_key(), SG_CC_KEY_LEN);
}

/* Sends req to a worker and reads its reply. Whatever goes wrong with the
 * worker becomes a status (SG_EBUILD, or fail_status for requests about a
 * user's binary) and a sentence in log. */
static enum sg_status call(const struct sg_wire *req, struct reply *rep, struct sg_text *log,
                           enum sg_status fail_status)
{
  memset(rep, 0, sizeof *rep);
  if (req->oom)
    return SG_ENOMEM;
  struct worker *w = acquire(log);
  if (!w)
    return fail_status;
  const struct sg_cc_limits *lim = sg_cc_limits();
  size_t len = 0;
  enum sg_wire_result r = sg_wire_send(w->sock, req) ? SG_WIRE_OK : SG_WIRE_CLOSED;
  if (r == SG_WIRE_OK)
    r = sg_wire_recv(w->sock, (int64_t)lim->wall_seconds * 1000, SG_CC_MAX_MESSAGE, &rep->msg,
                     &len);
  struct sg_wire_in in = {.p = rep->msg, .len = len};
  if (r == SG_WIRE_OK) {
    rep->status = (enum sg_status)sg_wire_get_u32(&in);
    rep->kind = (enum sg_binary_kind)sg_wire_get_u32(&in);
    rep->log = sg_wire_get_str(&in);
    rep->binary = sg_wire_get_bytes(&in, &rep->binary_size);
    if (!in.bad && rep->log) {
      release(w);
      return rep->status;
    }
  }
  if (r == SG_WIRE_NOMEM) {
    end_worker(w, true, NULL);
    discard();
    return SG_ENOMEM;
  }
  /* The worker died, fell silent or spoke nonsense: end it for good. */
  char *output = worker_output(w);
  int status;
  end_worker(w, true, &status);
  discard();
  if (r == SG_WIRE_TIMEOUT)
    sg_text_printf(log,
                   "error: the compiler did not answer within %u s and was stopped "
                   "(SOFTGPU_BUILD_LIMITS)\n",
                   lim->wall_seconds);
  else
    sg_cc_describe_death(log, "the compiler", status, output);
  free(output);
  free(rep->msg);
  memset(rep, 0, sizeof *rep);
  return fail_status;
}

/* Moves a reply's log and binary into res / log. */
static enum sg_status take_reply(struct reply *rep, enum sg_status st, struct sg_text *log,
                                 struct sg_build_result *res)
{
  if (rep->log)
    sg_text_append(log, rep->log, strlen(rep->log));
  if (st == SG_OK && rep->binary) {
    res->binary = malloc(rep->binary_size ? rep->binary_size : 1);
    if (!res->binary)
      st = SG_ENOMEM;
    else
      memcpy(res->binary, rep->binary, rep->binary_size);
    res->binary_size = res->binary ? rep->binary_size : 0;
  } else if (st == SG_OK) {
    sg_text_printf(log, "error: the compiler returned no binary\n");
    st = SG_EBUILD;
  }
  free(rep->msg);
  return st;
}

static enum sg_status remote_build(enum sg_cc_request type, const struct sg_build_request *req,
                                   struct sg_build_result *res, struct sg_text *log)
{
  struct sg_wire w = {0};
  start_request(&w, type);
  sg_wire_str(&w, req->source);
  sg_wire_str(&w, req->options);
  sg_wire_u32(&w, req->num_headers);
  for (uint32_t i = 0; i < req->num_headers; i++) {
    sg_wire_str(&w, req->headers[i].name);
    sg_wire_str(&w, req->headers[i].source);
  }
  sg_wire_u64(&w, req->max_private_size);
  struct reply rep;
  enum sg_status st = call(&w, &rep, log, SG_EBUILD);
  sg_wire_free(&w);
  return take_reply(&rep, st, log, res);
}

/* Builds from source go through the program cache (sg_cache.c): a hit
 * costs a file read and the loader's checks instead of clang and LLVM. */
static enum sg_status build_step(const struct sg_build_request *req, struct sg_build_result *res,
                                 struct sg_text *log)
{
  struct sg_cache_key key;
  bool cacheable = sg_cache_key(req, &key);
  if (cacheable && sg_cache_load(&key, res)) {
    sg_text_append(log, res->log, strlen(res->log));
    free(res->log);
    res->log = NULL;
    return SG_OK;
  }
  enum sg_status st = remote_build(SG_CC_BUILD, req, res, log);
  if (st == SG_OK && cacheable) {
    struct sg_build_result entry = {.log = log->buf, .binary = res->binary,
                                    .binary_size = res->binary_size};
    sg_cache_store(&key, &entry);
  }
  return st;
}

static enum sg_status compile_step(const struct sg_build_request *req,
                                   struct sg_build_result *res, struct sg_text *log)
{
  return remote_build(SG_CC_COMPILE, req, res, log);
}

enum sg_status sg_build(const struct sg_build_request *req, struct sg_build_result *res)
{
  return sg_cc_run_request(req, res, build_step);
}

enum sg_status sg_compile_object(const struct sg_build_request *req, struct sg_build_result *res)
{
  return sg_cc_run_request(req, res, compile_step);
}

enum sg_status sg_link(const struct sg_link_request *req, struct sg_build_result *res)
{
  struct sg_text log = {0};
  memset(res, 0, sizeof *res);
  enum sg_status st = SG_EINVAL;
  if (!req || !req->num_inputs || !req->inputs) {
    sg_text_printf(&log, "error: nothing to link\n");
  } else {
    struct sg_wire w = {0};
    start_request(&w, SG_CC_LINK);
    sg_wire_str(&w, req->options);
    sg_wire_u32(&w, req->num_inputs);
    for (uint32_t i = 0; i < req->num_inputs; i++)
      sg_wire_bytes(&w, req->inputs[i].binary, req->inputs[i].size);
    sg_wire_u64(&w, req->max_private_size);
    struct reply rep;
    st = call(&w, &rep, &log, SG_EBUILD);
    sg_wire_free(&w);
    st = take_reply(&rep, st, &log, res);
  }
  if (st == SG_ENOMEM)
    sg_text_printf(&log, "error: out of host memory\n");
  if (st != SG_OK) {
    free(res->binary);
    res->binary = NULL;
    res->binary_size = 0;
  }
  res->log = sg_text_take(&log);
  return st;
}

/* Executables are validated by sg_program_load (in process: the loader is
 * plain bounds-checked C); objects and libraries by their header here and,
 * unless this process made them (the tag), by the bitcode reader and the
 * IR verifier in a worker. */
enum sg_status sg_binary_check(const void *binary, size_t size, enum sg_binary_kind *kind,
                               char *err, size_t errlen)
{
  static const uint8_t elf[4] = {0x7f, 'E', 'L', 'F'};
  bool trusted;
  *kind = SG_BINARY_NONE;
  if (err && errlen)
    err[0] = 0;
  if (binary && size >= sizeof elf && !memcmp(binary, elf, sizeof elf)) {
    *kind = SG_BINARY_EXECUTABLE;
    return SG_OK;
  }
  enum sg_binary_kind k;
  enum sg_status st = sg_cc_object_header(binary, size, &k, &trusted, err, errlen);
  if (st != SG_OK || trusted) {
    *kind = k;
    return st;
  }
  struct sg_wire w = {0};
  start_request(&w, SG_CC_CHECK);
  sg_wire_bytes(&w, binary, size);
  struct sg_text log = {0};
  struct reply rep;
  st = call(&w, &rep, &log, SG_EBINARY);
  sg_wire_free(&w);
  if (rep.log)
    sg_text_append(&log, rep.log, strlen(rep.log));
  if (st == SG_OK)
    *kind = rep.kind == SG_BINARY_OBJECT || rep.kind == SG_BINARY_LIBRARY ? rep.kind : k;
  else if (err && errlen)
    snprintf(err, errlen, "%s", log.buf ? log.buf : "invalid compiled object");
  free(rep.msg);
  free(log.buf);
  return st;
}
