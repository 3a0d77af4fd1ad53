/* SPDX-License-Identifier: MIT */
/* Benchmark of device checking (DESIGN.md section 4, SOFTGPU_CHECK;
 * docs/races.md): what the race and synchronisation checkers cost over the
 * unchecked functional mode, on kernels with each kind of memory traffic,
 * next to what Oclgrind's own checking (--data-races, --uninitialized)
 * costs it. Each configuration runs in a child process (the checks are
 * chosen when a platform starts) on one host thread, and the figure is the
 * median CPU time of the launches, which other load on the machine
 * disturbs less than wall time does.
 * With 16 runs (-n 16) the median launch runs translated blocks
 * (jit_threshold), the steady state of a program that launches a kernel
 * again and again; -s leaves Oclgrind out (its columns print "-").
 * Usage: OCL_ICD_VENDORS=<build>/vendors check_cost [-n REPS] [-s] [KERNEL...] */
#define _GNU_SOURCE
#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../samples/sg_sample.h"

enum { TIMEOUT_S = 900 };

/* The kernels: streaming (global memory only), a tiled matrix product and a
 * tree reduction (__local memory and barriers), a histogram (atomics), an
 * iterated stencil (__local memory, barriers in a loop) and escape-time
 * iteration (arithmetic, few accesses). */
static const char source[] =
    "kernel void stream(global const float *a, global const float *b, global float *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] * 3.0f + b[i];\n"
    "}\n"
    "kernel void matmul(global const float *a, global const float *b, global float *c) {\n"
    "  local float ta[16][16], tb[16][16];\n"
    "  int r = get_local_id(1), q = get_local_id(0), n = get_global_size(0);\n"
    "  int row = get_global_id(1), col = get_global_id(0);\n"
    "  float s = 0.0f;\n"
    "  for (int k = 0; k < n; k += 16) {\n"
    "    ta[r][q] = a[row * n + k + q];\n"
    "    tb[r][q] = b[(k + r) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int i = 0; i < 16; i++)\n"
    "      s += ta[r][i] * tb[i][q];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  c[row * n + col] = s;\n"
    "}\n"
    "kernel void reduction(global const float *a, global const float *b, global float *c) {\n"
    "  local float s[256];\n"
    "  size_t t = get_local_id(0);\n"
    "  s[t] = a[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t n = 128; n > 0; n >>= 1) {\n"
    "    if (t < n)\n"
    "      s[t] += s[t + n];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (t == 0)\n"
    "    c[get_group_id(0)] = s[0];\n"
    "}\n"
    "kernel void histogram(global const float *a, global const float *b, global float *c) {\n"
    "  local uint h[64];\n"
    "  size_t t = get_local_id(0);\n"
    "  if (t < 64)\n"
    "    h[t] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  atomic_inc(&h[(uint)a[get_global_id(0)] % 64]);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (t < 64)\n"
    "    atomic_add((global uint *)c + t, h[t]);\n"
    "}\n"
    "kernel void stencil(global const float *a, global const float *b, global float *c) {\n"
    "  local float t[258];\n"
    "  size_t l = get_local_id(0) + 1, g = get_global_id(0);\n"
    "  t[l] = a[g];\n"
    "  if (l == 1) t[0] = 0.0f;\n"
    "  if (l == 256) t[257] = 0.0f;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int it = 0; it < 8; it++) {\n"
    "    float v = (t[l - 1] + t[l] + t[l + 1]) * (1.0f / 3.0f);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    t[l] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  c[g] = t[l];\n"
    "}\n"
    "kernel void escape(global const float *a, global const float *b, global float *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float x0 = a[i] * (3.0f / 65536.0f) - 2.0f, y0 = b[i] * (2.0f / 65536.0f) - 1.0f;\n"
    "  float x = 0.0f, y = 0.0f;\n"
    "  int n = 0;\n"
    "  while (n < 64 && x * x + y * y < 4.0f) {\n"
    "    float t = x * x - y * y + x0;\n"
    "    y = 2.0f * x * y + y0;\n"
    "    x = t;\n"
    "    n++;\n"
    "  }\n"
    "  c[i] = (float)n;\n"
    "}\n";

struct kernel {
  const char *name;
  cl_uint dim;
  size_t global[2], local[2];
};
static const struct kernel kernels[] = {
    {"stream", 1, {1 << 18, 1}, {256, 1}},    {"matmul", 2, {128, 128}, {16, 16}},
    {"reduction", 1, {1 << 18, 1}, {256, 1}}, {"histogram", 1, {1 << 18, 1}, {256, 1}},
    {"stencil", 1, {1 << 16, 1}, {256, 1}},   {"escape", 1, {1 << 16, 1}, {256, 1}},
};
#define NKERNELS (sizeof kernels / sizeof kernels[0])

/* A configuration: the platform, and the environment that chooses its
 * checks ("" for none). */
struct mode {
  const char *platform, *label, *env[3];
};
static const struct mode modes[] = {
    {"SoftGPU", "SoftGPU", {"SOFTGPU_CHECK=none"}},
    {"SoftGPU", "memory", {"SOFTGPU_CHECK=memory"}},
    {"SoftGPU", "races", {"SOFTGPU_CHECK=races"}},
    {"SoftGPU", "sync", {"SOFTGPU_CHECK=sync"}},
    {"SoftGPU", "all", {"SOFTGPU_CHECK=all"}},
    {"Oclgrind", "Oclgrind", {""}},
    {"Oclgrind", "races", {"OCLGRIND_DATA_RACES=1"}},
    {"Oclgrind", "races+uninit", {"OCLGRIND_DATA_RACES=1", "OCLGRIND_UNINITIALIZED=1"}},
};
#define NMODES (sizeof modes / sizeof modes[0])

static double cpu_ms(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
         (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-3;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The child: runs kernel k reps times after one warm-up launch and prints
 * the median CPU milliseconds of a launch ("-" when its result is wrong). */
static int child(const struct kernel *k, int reps) {
  struct sg_sample s;
  sg_sample_init(&s);
  size_t n = k->global[0] * k->global[1];
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = calloc(n, sizeof *c);
  for (size_t i = 0; i < n; i++)
    a[i] = (float)(i % 65536), b[i] = (float)(i * 7 % 65536);
  cl_program p = sg_sample_build(&s, source, "");
  cl_kernel kk = sg_sample_kernel(p, k->name);
  cl_mem m[3] = {sg_sample_buffer(&s, CL_MEM_READ_ONLY, n * sizeof *a, a),
                 sg_sample_buffer(&s, CL_MEM_READ_ONLY, n * sizeof *b, b),
                 sg_sample_buffer(&s, CL_MEM_READ_WRITE, n * sizeof *c, c)};
  for (cl_uint i = 0; i < 3; i++)
    SG_CL(clSetKernelArg(kk, i, sizeof m[i], &m[i]));
  double t[16];
  for (int r = 0; r <= reps; r++) {
    double t0 = cpu_ms();
    sg_sample_run(&s, kk, k->dim, k->global, k->local);
    t[r ? r - 1 : 0] = cpu_ms() - t0;
  }
  sg_sample_read(&s, m[2], n * sizeof *c, c);
  /* one spot check per kernel (the reduction's first group: 0 + 1 + ... 255) */
  int ok = strcmp(k->name, "stream") ? strcmp(k->name, "reduction") || c[0] == 32640.0f
                                     : c[5] == 5 * 3.0f + 35;
  qsort(t, (size_t)reps, sizeof t[0], by_value);
  /* to the microsecond: the ratios of short launches */
  printf(ok ? "%.3f\n" : "-\n", t[reps / 2]);
  for (int i = 0; i < 3; i++)
    clReleaseMemObject(m[i]);
  clReleaseKernel(kk);
  clReleaseProgram(p);
  sg_sample_finish(&s);
  free(a), free(b), free(c);
  return 0;
}

/* Runs one configuration in a child (same executable, "--child"), on one
 * host thread; returns its figure or "-" (missing platform, failure,
 * timeout). */
static void measure(const char *self, const struct mode *m, const struct kernel *k, int reps,
                    const char *oclgrind_vendors, char *out, size_t len) {
  int fd[2];
  snprintf(out, len, "-");
  if (!strcmp(m->platform, "Oclgrind") && !oclgrind_vendors)
    return;
  if (pipe(fd))
    return;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    setenv("SOFTGPU_SAMPLE_PLATFORM", m->platform, 1);
    setenv("SOFTGPU_THREADS", "1", 1);
    setenv("OCLGRIND_NUM_THREADS", "1", 1);
    if (!strcmp(m->platform, "Oclgrind"))
      setenv("OCL_ICD_VENDORS", oclgrind_vendors, 1);
    for (int i = 0; i < 3 && m->env[i]; i++)
      if (*m->env[i])
        putenv((char *)m->env[i]);
    char reps_s[16];
    snprintf(reps_s, sizeof reps_s, "%d", reps);
    alarm(TIMEOUT_S);
    execl(self, self, "--child", k->name, reps_s, (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  char buf[64] = "";
  ssize_t got = pid > 0 ? read(fd[0], buf, sizeof buf - 1) : -1;
  close(fd[0]);
  int status = 0;
  if (pid > 0)
    waitpid(pid, &status, 0);
  if (got > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    buf[got] = 0;
    buf[strcspn(buf, "\n")] = 0;
    snprintf(out, len, "%s", buf);
  }
}

static void ratio(const char *x, const char *base, char *out, size_t len) {
  double a = atof(x), b = atof(base);
  if (*x == '-' || *base == '-' || b <= 0)
    snprintf(out, len, "-");
  else
    snprintf(out, len, "%.1fx", a / b);
}

int main(int argc, char **argv) {
  int reps = 3, first = 1;
  if (argc == 4 && !strcmp(argv[1], "--child")) {
    for (size_t i = 0; i < NKERNELS; i++)
      if (!strcmp(argv[2], kernels[i].name))
        return child(&kernels[i], atoi(argv[3]) > 0 && atoi(argv[3]) <= 16 ? atoi(argv[3]) : 3);
    return 2;
  }
  bool softgpu_only = false;
  for (;;) {
    if (argc > first + 1 && !strcmp(argv[first], "-n")) {
      reps = atoi(argv[first + 1]);
      first += 2;
    } else if (argc > first && !strcmp(argv[first], "-s")) {
      softgpu_only = true;
      first++;
    } else {
      break;
    }
  }
  if (reps < 1 || reps > 16) {
    fprintf(stderr, "usage: %s [-n REPS (1..16)] [-s] [KERNEL...]\n", argv[0]);
    return 2;
  }
  /* Oclgrind alone in a vendors directory of its own (Debian installs its
   * ICD library without an .icd file). */
  const char *lib = access("/etc/OpenCL/vendors/oclgrind.icd", R_OK) == 0
                        ? NULL
                        : "/usr/lib/oclgrind/liboclgrind-rt-icd.so";
  char dir[] = "/tmp/sg-check-cost.XXXXXX", icd[64];
  const char *oclgrind = NULL;
  if (!softgpu_only && mkdtemp(dir)) {
    snprintf(icd, sizeof icd, "%s/oclgrind.icd", dir);
    FILE *f = fopen(icd, "w");
    if (f) {
      fprintf(f, "%s\n", lib ? lib : "liboclgrind-rt-icd.so");
      fclose(f);
      if (!lib || access(lib, R_OK) == 0)
        oclgrind = dir;
    }
  }
  printf("median CPU ms of a launch (%d runs, one host thread), and checked / unchecked\n", reps);
  printf("%-10s", "kernel");
  for (size_t m = 0; m < NMODES; m++)
    printf(" %12s", modes[m].label);
  printf("\n");
  for (size_t i = 0; i < NKERNELS; i++) {
    int wanted = first >= argc;
    for (int a = first; a < argc; a++)
      wanted |= !strcmp(argv[a], kernels[i].name);
    if (!wanted)
      continue;
    /* Each platform's first mode is its unchecked base; the others are
     * ratios to it. */
    char fig[NMODES][32], base[32] = "-";
    for (size_t m = 0; m < NMODES; m++) {
      char v[32];
      measure("/proc/self/exe", &modes[m], &kernels[i], reps, oclgrind, v, sizeof v);
      if (m == 0 || strcmp(modes[m].platform, modes[m - 1].platform)) {
        snprintf(base, sizeof base, "%s", v);
        if (strcmp(v, "-"))
          snprintf(fig[m], sizeof fig[m], "%.2f", atof(v));
        else
          snprintf(fig[m], sizeof fig[m], "-");
      } else {
        ratio(v, base, fig[m], sizeof fig[m]);
      }
    }
    printf("%-10s", kernels[i].name);
    for (size_t m = 0; m < NMODES; m++)
      printf(" %12s", fig[m]);
    printf("\n");
    fflush(stdout);
  }
  if (oclgrind) {
    unlink(icd);
    rmdir(dir);
  }
  return 0;
}
