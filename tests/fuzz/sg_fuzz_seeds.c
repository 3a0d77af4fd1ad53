/* SPDX-License-Identifier: MIT */
/* Writes the seed corpora of the fuzz targets at build time (nothing large
 * is committed): program binaries and compiled objects made by the
 * compiler from a few sources, configuration texts, build options.
 * Usage: sg_fuzz_seeds DIR (creates DIR/{program,object,config,options}). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sg_compiler.h"

static const char *const sources[] = {
    "__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }\n",
    "typedef struct { int a; float b; } S;\n"
    "__kernel __attribute__((reqd_work_group_size(4,1,1)))\n"
    "void k(__global int *a, __local int *l, S s, int n) {\n"
    "  for (int i = 0; i < n; i++) { if (a[i] > s.a) a[i] = i; else l[i] = a[i] * 2; }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "}\n"
    "__constant int tab[4] = {1, 2, 3, 4};\n"
    "__kernel __attribute__((work_group_size_hint(8,2,1))) void g(__global int *a) {\n"
    "  a[0] = tab[a[1] & 3]; printf(\"%d %f\\n\", a[0], 1.5f);\n"
    "}\n",
    "int helper(int x);\n"
    "__kernel void h(__global float4 *v, __constant float *c) {\n"
    "  v[get_global_id(0)] = sin(v[0]) * c[helper(1)];\n"
    "}\n",
};

static const char *const configs[] = {
    "cores=4\nwarp_size=16\nwarps_per_core=8\n",
    "preset=vortex\n# a comment\nstack_per_lane=4096\n",
    "preset=mvpgpu\nlocal_mem_per_core=32768\nwatchdog_insns=0\n",
    "  warp_size = 64 \n\ncores=1\nglobal_mem_size=1048576\nprintf_buffer_size=64\n",
};

static const char *const options[] = {
    "-cl-std=CL2.0 -DFOO=1 -I inc -cl-fast-relaxed-math",
    "-cl-opt-disable -w -Werror -D BAR -cl-kernel-arg-info",
    "-D 'A=\"x y\"' -DB=\\\"q\\\" -cl-std=CL3.0 -cl-uniform-work-group-size",
    "-cl-mad-enable -cl-no-signed-zeros -cl-finite-math-only -g -cl-strict-aliasing",
};

static void put(const char *dir, const char *kind, int i, const void *data, size_t size)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, kind);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/%s/seed%d", dir, kind, i);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
    fprintf(stderr, "sg_fuzz_seeds: cannot write %s\n", path);
    exit(1);
  }
}

int main(int argc, char **argv)
{
  if (argc != 2)
    return 2;
  const char *dir = argv[1];
  mkdir(dir, 0755);
  int nprog = 0, nobj = 0;
  for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
    struct sg_build_request req = {.source = sources[i], .options = "-cl-kernel-arg-info"};
    struct sg_build_result res;
    if (sg_build(&req, &res) == SG_OK)
      put(dir, "program", nprog++, res.binary, res.binary_size);
    sg_build_result_free(&res);
    if (sg_compile_object(&req, &res) != SG_OK) {
      fprintf(stderr, "sg_fuzz_seeds: %s", res.log);
      return 1;
    }
    /* fuzz_object's first byte: 0 the whole binary, 1 its bitcode alone. */
    uint8_t *b = malloc(res.binary_size + 1);
    b[0] = 0;
    memcpy(b + 1, res.binary, res.binary_size);
    put(dir, "object", nobj++, b, res.binary_size + 1);
    b[96] = 3; /* bitcode behind a fresh header, linked */
    put(dir, "object", nobj++, b + 96, res.binary_size + 1 - 96);
    free(b);
    sg_build_result_free(&res);
  }
  for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++)
    put(dir, "config", (int)i, configs[i], strlen(configs[i]));
  for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
    put(dir, "options", (int)i, options[i], strlen(options[i]));
  return nprog ? 0 : 1;
}
