/* SPDX-License-Identifier: MIT */
/* DESIGN.md "2. The compiler": the on-disk program cache. A build from
 * source is keyed by a BLAKE3 hash of everything its result depends on (the
 * source, the options, the device's private-memory limit, the compiler's
 * version and the build identity of this library); a hit skips clang and
 * LLVM. Entries are written to a temporary file and renamed, so concurrent
 * processes never see half an entry; an entry that is damaged, foreign or
 * does not load is ignored and rebuilt (docs/cache.md). */
#define _GNU_SOURCE /* dl_iterate_phdr, dladdr */
#include "sg_cc_internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <llvm-c/blake3.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAGIC "SGCACHE1"
#define MAX_ENTRY (256ull << 20) /* larger files are not entries we wrote */

/* An entry: this header, the build log (log_size bytes), the binary. */
struct entry_header {
  char magic[8];
  uint8_t key[LLVM_BLAKE3_OUT_LEN];
  uint64_t log_size, binary_size;
  uint8_t sum[LLVM_BLAKE3_OUT_LEN]; /* BLAKE3 of log and binary */
};

static void debug(const char *fmt, const char *path, const char *why) {
  const char *v = sg_env_get(SG_ENV_DEBUG);
  if (v && *v && strcmp(v, "0"))
    fprintf(stderr, fmt, path, why);
}

/* ---- The identity of this build of the compiler ------------------------- */

static uint8_t identity[LLVM_BLAKE3_OUT_LEN];

struct find_note {
  uintptr_t addr; /* an address inside the object we look for */
  const uint8_t *id;
  size_t len;
};

/* The GNU build-id note of the loaded object holding f->addr. */
static int note_of(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct find_note *f = data;
  bool inside = false;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    inside |= ph->p_type == PT_LOAD && f->addr >= lo && f->addr - lo < ph->p_memsz;
  }
  if (!inside)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
      const uint8_t *name = p + sizeof *n, *desc = name + ((n->n_namesz + 3) & ~3u);
      if (desc + n->n_descsz > end)
        break;
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4)) {
        f->id = desc;
        f->len = n->n_descsz;
        return 1;
      }
      p = desc + ((n->n_descsz + 3) & ~3u);
    }
  }
  return 1;
}

/* The compiler's version and this library's build-id (else its file's size
 * and modification time): a rebuilt SoftGPU never reads older entries. */
static void make_identity(void) {
  llvm_blake3_hasher h;
  llvm_blake3_hasher_init(&h);
  const char *v = sg_compiler_version();
  llvm_blake3_hasher_update(&h, v, strlen(v) + 1);
  struct find_note f = {.addr = (uintptr_t)make_identity};
  dl_iterate_phdr(note_of, &f);
  Dl_info di;
  struct stat st;
  if (f.id) {
    llvm_blake3_hasher_update(&h, f.id, f.len);
  } else if (dladdr((void *)make_identity, &di) && di.dli_fname && !stat(di.dli_fname, &st)) {
    llvm_blake3_hasher_update(&h, &st.st_size, sizeof st.st_size);
    llvm_blake3_hasher_update(&h, &st.st_mtim, sizeof st.st_mtim);
  }
  llvm_blake3_hasher_finalize(&h, identity, sizeof identity);
}

/* ---- Where entries live ------------------------------------------------- */

/* SOFTGPU_CACHE=0 (or off, no) turns the cache off; SOFTGPU_CACHE_DIR names
 * the directory, else $XDG_CACHE_HOME/softgpu, else $HOME/.cache/softgpu. */
static bool cache_dir(char *out, size_t len) {
  const char *off = sg_env_get(SG_ENV_CACHE);
  if (off && (!strcmp(off, "0") || !strcmp(off, "off") || !strcmp(off, "no")))
    return false;
  const char *dir = sg_env_get(SG_ENV_CACHE_DIR), *xdg = getenv("XDG_CACHE_HOME"),
             *home = getenv("HOME");
  int n;
  if (dir)
    n = *dir ? snprintf(out, len, "%s", dir) : -1; /* set but empty: off */
  else if (xdg && *xdg == '/')
    n = snprintf(out, len, "%s/softgpu", xdg);
  else if (home && *home == '/')
    n = snprintf(out, len, "%s/.cache/softgpu", home);
  else
    n = -1;
  return n > 0 && (size_t)n < len;
}

/* mkdir -p, private to the user (entries are programs it will run). */
static bool make_dir(const char *path) {
  char p[4096];
  snprintf(p, sizeof p, "%s", path);
  for (char *s = p + 1; *s; s++) {
    if (*s != '/')
      continue;
    *s = 0;
    if (mkdir(p, 0700) && errno != EEXIST)
      return false;
    *s = '/';
  }
  return !mkdir(p, 0700) || errno == EEXIST;
}

static void entry_path(const char *dir, const uint8_t key[LLVM_BLAKE3_OUT_LEN], char *out,
                       size_t len) {
  char hex[2 * LLVM_BLAKE3_OUT_LEN + 1];
  for (int i = 0; i < LLVM_BLAKE3_OUT_LEN; i++)
    snprintf(hex + 2 * i, 3, "%02x", key[i]);
  snprintf(out, len, "%s/%s.sgc", dir, hex);
}

/* ---- Keys, lookups and stores ------------------------------------------- */

static void hash_str(llvm_blake3_hasher *h, const char *s) {
  uint64_t n = s ? strlen(s) : UINT64_MAX; /* NULL and "" differ */
  llvm_blake3_hasher_update(h, &n, sizeof n);
  if (s)
    llvm_blake3_hasher_update(h, s, n);
}

bool sg_cache_key(const struct sg_build_request *req, struct sg_cache_key *key) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  char dir[4096];
  /* A source that includes files, or options that name include paths,
   * depends on files the key cannot see. */
  if (!cache_dir(dir, sizeof dir) || req->num_headers || strstr(req->source, "#include") ||
      (req->options && strstr(req->options, "-I")))
    return false;
  pthread_once(&once, make_identity);
  llvm_blake3_hasher h;
  llvm_blake3_hasher_init(&h);
  llvm_blake3_hasher_update(&h, MAGIC, 8);
  llvm_blake3_hasher_update(&h, identity, sizeof identity);
  hash_str(&h, req->source);
  hash_str(&h, req->options);
  llvm_blake3_hasher_update(&h, &req->max_private_size, sizeof req->max_private_size);
  llvm_blake3_hasher_finalize(&h, key->b, sizeof key->b);
  return true;
}

static void sum_of(const void *log, size_t log_size, const void *bin, size_t bin_size,
                   uint8_t out[LLVM_BLAKE3_OUT_LEN]) {
  llvm_blake3_hasher h;
  llvm_blake3_hasher_init(&h);
  llvm_blake3_hasher_update(&h, log, log_size);
  llvm_blake3_hasher_update(&h, bin, bin_size);
  llvm_blake3_hasher_finalize(&h, out, LLVM_BLAKE3_OUT_LEN);
}

/* Reads the entry's file whole; NULL when missing or not an entry. */
static uint8_t *read_entry(const char *path, size_t *size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  struct stat st;
  uint8_t *buf = NULL;
  if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size >= (off_t)sizeof(struct entry_header) &&
      (uint64_t)st.st_size <= MAX_ENTRY && (buf = malloc((size_t)st.st_size))) {
    size_t got = 0;
    while (got < (size_t)st.st_size) {
      ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
      if (n <= 0)
        break;
      got += (size_t)n;
    }
    if (got != (size_t)st.st_size) {
      free(buf);
      buf = NULL;
    }
    *size = got;
  }
  close(fd);
  return buf;
}

bool sg_cache_load(const struct sg_cache_key *key, struct sg_build_result *res) {
  char dir[4096], path[4200];
  if (!cache_dir(dir, sizeof dir))
    return false;
  entry_path(dir, key->b, path, sizeof path);
  size_t size;
  uint8_t *buf = read_entry(path, &size);
  if (!buf)
    return false;
  struct entry_header h;
  memcpy(&h, buf, sizeof h);
  uint8_t sum[LLVM_BLAKE3_OUT_LEN];
  const char *why = NULL;
  uint64_t body = size - sizeof h;
  if (memcmp(h.magic, MAGIC, 8) || memcmp(h.key, key->b, sizeof h.key))
    why = "not an entry for this build";
  else if (h.log_size > body || h.binary_size != body - h.log_size || !h.binary_size)
    why = "truncated";
  if (!why) {
    sum_of(buf + sizeof h, h.log_size, buf + sizeof h + h.log_size, h.binary_size, sum);
    if (memcmp(sum, h.sum, sizeof sum))
      why = "checksum mismatch";
  }
  /* The same validating loader as a user's binary: an entry that passed the
   * checksum but does not load (written by something else) is rebuilt. */
  char err[256];
  struct sg_program_image *img = NULL;
  if (!why && sg_program_load(buf + sizeof h + h.log_size, h.binary_size, &img, err,
                              sizeof err) != SG_OK)
    why = "its binary does not load";
  sg_program_image_free(img);
  if (why) {
    debug("SoftGPU: program cache: ignoring %s (%s); rebuilding\n", path, why);
    free(buf);
    return false;
  }
  res->log = malloc(h.log_size + 1);
  res->binary = malloc(h.binary_size);
  if (!res->log || !res->binary) {
    free(res->log), free(res->binary), free(buf);
    res->log = NULL, res->binary = NULL;
    return false;
  }
  memcpy(res->log, buf + sizeof h, h.log_size);
  res->log[h.log_size] = 0;
  memcpy(res->binary, buf + sizeof h + h.log_size, h.binary_size);
  res->binary_size = h.binary_size;
  free(buf);
  return true;
}

static bool write_all(int fd, const void *p, size_t n) {
  const uint8_t *b = p;
  while (n) {
    ssize_t w = write(fd, b, n);
    if (w <= 0)
      return false;
    b += w, n -= (size_t)w;
  }
  return true;
}

void sg_cache_store(const struct sg_cache_key *key, const struct sg_build_result *res) {
  char dir[4096], path[4200], tmp[4300];
  if (!res->binary || !res->binary_size || !cache_dir(dir, sizeof dir) || !make_dir(dir))
    return;
  entry_path(dir, key->b, path, sizeof path);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  snprintf(tmp, sizeof tmp, "%s.%ld.%lx.tmp", path, (long)getpid(),
           (unsigned long)ts.tv_nsec ^ (unsigned long)(uintptr_t)&ts);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    debug("SoftGPU: program cache: cannot write %s (%s)\n", tmp, strerror(errno));
    return;
  }
  const char *log = res->log ? res->log : "";
  struct entry_header h = {.log_size = strlen(log), .binary_size = res->binary_size};
  memcpy(h.magic, MAGIC, 8);
  memcpy(h.key, key->b, sizeof h.key);
  sum_of(log, h.log_size, res->binary, res->binary_size, h.sum);
  bool ok = write_all(fd, &h, sizeof h) && write_all(fd, log, h.log_size) &&
            write_all(fd, res->binary, res->binary_size);
  ok &= !close(fd);
  /* rename is atomic: a reader sees the old entry, none, or this one. */
  if (!ok || rename(tmp, path)) {
    debug("SoftGPU: program cache: cannot write %s (%s)\n", path, strerror(errno));
    unlink(tmp);
  }
}
