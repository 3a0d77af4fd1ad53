/* SPDX-License-Identifier: MIT */
/* The program cache (compiler/sg_cache.c, docs/cache.md): a repeated build
 * is answered from the cache; damaged, foreign and unloadable entries are
 * ignored and rebuilt; the off switch and sources with #include write
 * nothing; concurrent builds of one program leave one valid entry. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <pthread.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sg_cc_internal.h"

static char dir[64];

static const char src[] = "__kernel void k(__global float *a) { a[get_global_id(0)] *= 2.0f; }\n";

static void entry_of(const char *source, const char *options, char *path, size_t len) {
  struct sg_build_request req = {.source = source, .options = options};
  struct sg_cache_key key;
  assert_true(sg_cache_key(&req, &key));
  int n = snprintf(path, len, "%s/", dir);
  for (int i = 0; i < 32; i++)
    n += snprintf(path + n, len - (size_t)n, "%02x", key.b[i]);
  snprintf(path + n, len - (size_t)n, ".sgc");
}

/* Files in the cache directory (entries and leftovers). */
static int files(void) {
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    n += e->d_name[0] != '.';
  if (d)
    closedir(d);
  return n;
}

static void clear(void) {
  DIR *d = opendir(dir);
  char p[512];
  for (struct dirent *e; d && (e = readdir(d));)
    if (e->d_name[0] != '.') {
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      unlink(p);
    }
  if (d)
    closedir(d);
}

static enum sg_status build(const char *source, const char *opts, struct sg_build_result *res) {
  struct sg_build_request req = {.source = source, .options = opts};
  return sg_build(&req, res);
}

static int setup(void **state) {
  (void)state;
  clear();
  unsetenv("SOFTGPU_CACHE");
  setenv("SOFTGPU_CACHE_DIR", dir, 1);
  return 0;
}

/* A second build is the first's binary and log, read from the entry. */
static void test_hit(void **state) {
  (void)state;
  struct sg_build_result a, b;
  assert_int_equal(build(src, "-DX=1", &a), SG_OK);
  assert_int_equal(files(), 1);
  char path[512];
  entry_of(src, "-DX=1", path, sizeof path);
  assert_int_equal(access(path, R_OK), 0);
  /* Replace the entry with one whose log says where it came from. */
  struct sg_cache_key key;
  struct sg_build_request req = {.source = src, .options = "-DX=1"};
  assert_true(sg_cache_key(&req, &key));
  struct sg_build_result marked = {.log = "from the cache\n", .binary = a.binary,
                                   .binary_size = a.binary_size};
  sg_cache_store(&key, &marked);
  assert_int_equal(build(src, "-DX=1", &b), SG_OK);
  assert_string_equal(b.log, "from the cache\n");
  assert_int_equal(b.binary_size, a.binary_size);
  assert_memory_equal(b.binary, a.binary, a.binary_size);
  /* Other options are another program. */
  struct sg_build_result c;
  assert_int_equal(build(src, "-DX=2", &c), SG_OK);
  assert_int_equal(files(), 2);
  sg_build_result_free(&a);
  sg_build_result_free(&b);
  sg_build_result_free(&c);
}

static long file_size(const char *path) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fclose(f);
  return n;
}

static void flip(const char *path, long offset) {
  FILE *f = fopen(path, "r+b");
  assert_non_null(f);
  fseek(f, offset, SEEK_SET);
  int ch = fgetc(f);
  fseek(f, offset, SEEK_SET);
  fputc(ch ^ 0x40, f);
  fclose(f);
}

/* Every byte of the entry matters: a damaged one is rebuilt (the log of a
 * real build, not the marker) and rewritten. */
static void test_corrupt(void **state) {
  (void)state;
  struct sg_build_result a;
  assert_int_equal(build(src, NULL, &a), SG_OK);
  char path[512];
  entry_of(src, NULL, path, sizeof path);
  struct sg_cache_key key;
  struct sg_build_request req = {.source = src};
  assert_true(sg_cache_key(&req, &key));
  struct sg_build_result marked = {.log = "from the cache\n", .binary = a.binary,
                                   .binary_size = a.binary_size};
  long size = 0;
  for (int i = 0; i < 6; i++) {
    sg_cache_store(&key, &marked);
    size = file_size(path);
    long at[] = {0, 9, 50, 80, 100, size - 1}; /* magic, key, sizes, sum, log, binary */
    flip(path, at[i]);
    struct sg_build_result b;
    assert_int_equal(build(src, NULL, &b), SG_OK);
    assert_string_not_equal(b.log, "from the cache\n");
    assert_memory_equal(b.binary, a.binary, a.binary_size);
    sg_build_result_free(&b);
  }
  /* Truncated, and empty. */
  sg_cache_store(&key, &marked);
  assert_int_equal(truncate(path, size / 2), 0);
  struct sg_build_result b;
  assert_int_equal(build(src, NULL, &b), SG_OK);
  assert_string_not_equal(b.log, "from the cache\n");
  sg_build_result_free(&b);
  assert_int_equal(truncate(path, 0), 0);
  assert_int_equal(build(src, NULL, &b), SG_OK);
  assert_int_equal(file_size(path), size - (long)strlen("from the cache\n") + (long)strlen(b.log));
  sg_build_result_free(&b);
  sg_build_result_free(&a);
}

/* Another program's entry under this key, and an entry whose binary does
 * not load (its checksum is right: the loader is what rejects it). */
static void test_foreign_and_unloadable(void **state) {
  (void)state;
  static const char other[] = "__kernel void k(__global int *a) { a[0] = 7; }\n";
  struct sg_build_result a, b;
  assert_int_equal(build(other, NULL, &a), SG_OK);
  char mine[512], theirs[512], cmd[1100];
  entry_of(src, NULL, mine, sizeof mine);
  entry_of(other, NULL, theirs, sizeof theirs);
  snprintf(cmd, sizeof cmd, "cp '%s' '%s'", theirs, mine);
  assert_int_equal(system(cmd), 0);
  assert_int_equal(build(src, NULL, &b), SG_OK);
  assert_true(b.binary_size != a.binary_size || memcmp(b.binary, a.binary, a.binary_size));
  sg_build_result_free(&b);

  struct sg_cache_key key;
  struct sg_build_request req = {.source = src};
  assert_true(sg_cache_key(&req, &key));
  char junk[256];
  memcpy(junk, "\x7f" "ELF", 4);
  memset(junk + 4, 0x5a, sizeof junk - 4);
  struct sg_build_result bad = {.log = "from the cache\n", .binary = junk, .binary_size = sizeof junk};
  sg_cache_store(&key, &bad);
  assert_int_equal(build(src, NULL, &b), SG_OK);
  assert_string_not_equal(b.log, "from the cache\n");
  struct sg_program_image *img = NULL;
  char err[256];
  assert_int_equal(sg_program_load(b.binary, b.binary_size, &img, err, sizeof err), SG_OK);
  sg_program_image_free(img);
  sg_build_result_free(&b);
  sg_build_result_free(&a);
}

/* SOFTGPU_CACHE=0, an empty SOFTGPU_CACHE_DIR and a source that includes
 * a file write nothing. */
static void test_off_and_includes(void **state) {
  (void)state;
  struct sg_build_result a;
  setenv("SOFTGPU_CACHE", "0", 1);
  assert_int_equal(build(src, NULL, &a), SG_OK);
  sg_build_result_free(&a);
  unsetenv("SOFTGPU_CACHE");
  setenv("SOFTGPU_CACHE_DIR", "", 1);
  assert_int_equal(build(src, NULL, &a), SG_OK);
  sg_build_result_free(&a);
  setenv("SOFTGPU_CACHE_DIR", dir, 1);
  assert_int_equal(files(), 0);
  char inc[96], hdr[128], source[256];
  snprintf(inc, sizeof inc, "%s-inc", dir);
  snprintf(hdr, sizeof hdr, "%s/v.h", inc);
  assert_int_equal(mkdir(inc, 0700), 0);
  FILE *f = fopen(hdr, "w");
  assert_non_null(f);
  fputs("#define V 3\n", f);
  fclose(f);
  snprintf(source, sizeof source,
           "#include \"%s\"\n__kernel void k(__global int *a) { a[0] = V; }\n", hdr);
  assert_int_equal(build(source, NULL, &a), SG_OK);
  sg_build_result_free(&a);
  assert_int_equal(files(), 0);
  unlink(hdr);
  rmdir(inc);
}

struct racer {
  struct sg_build_result res;
  enum sg_status st;
};

static void *race(void *arg) {
  struct racer *r = arg;
  r->st = build(src, "-DRACE", &r->res);
  return NULL;
}

/* Builds of one program on several threads at once: all succeed with the
 * same binary, and one whole entry is left (no temporary files). */
static void test_concurrent(void **state) {
  (void)state;
  enum { N = 4 };
  struct racer r[N];
  pthread_t t[N];
  for (int i = 0; i < N; i++)
    assert_int_equal(pthread_create(&t[i], NULL, race, &r[i]), 0);
  for (int i = 0; i < N; i++)
    pthread_join(t[i], NULL);
  for (int i = 0; i < N; i++) {
    assert_int_equal(r[i].st, SG_OK);
    assert_int_equal(r[i].res.binary_size, r[0].res.binary_size);
    assert_memory_equal(r[i].res.binary, r[0].res.binary, r[0].res.binary_size);
  }
  assert_int_equal(files(), 1);
  struct sg_build_result again;
  assert_int_equal(build(src, "-DRACE", &again), SG_OK);
  assert_memory_equal(again.binary, r[0].res.binary, r[0].res.binary_size);
  sg_build_result_free(&again);
  for (int i = 0; i < N; i++)
    sg_build_result_free(&r[i].res);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/sg-cache-test.XXXXXX");
  if (!mkdtemp(dir))
    return 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_hit, setup),
      cmocka_unit_test_setup(test_corrupt, setup),
      cmocka_unit_test_setup(test_foreign_and_unloadable, setup),
      cmocka_unit_test_setup(test_off_and_includes, setup),
      cmocka_unit_test_setup(test_concurrent, setup),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  clear();
  rmdir(dir);
  return failed;
}
