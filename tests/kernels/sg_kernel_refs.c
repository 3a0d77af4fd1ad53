/* SPDX-License-Identifier: MIT */
/* Kernel tests (DESIGN.md "Tests"): the host reference for the cases whose
 * .ref files are generated. Each case is recomputed sequentially, one
 * work-item after another (barrier cases one work-group phase after another),
 * which is what SIMT execution must be indistinguishable from.
 * Usage: sg_kernel_refs FAMILY/CASE  -- prints FAMILY/CASE.ref on stdout. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { N = 200, NB = 256, LB = 64 };
typedef uint32_t u32;

static void print_buffer(int arg, const u32 *v, int n) {
  printf("buffer %d\n", arg);
  for (int i = 0; i < n; i++)
    printf("%u%c", v[i], i % 8 == 7 || i == n - 1 ? '\n' : ' ');
}

static void print_ints(int arg, const int32_t *v, int n) {
  printf("buffer %d\n", arg);
  for (int i = 0; i < n; i++)
    printf("%d%c", v[i], i % 8 == 7 || i == n - 1 ? '\n' : ' ');
}

static void fill(u32 *v, int n, u32 x) {
  for (int i = 0; i < n; i++)
    v[i] = x;
}

static void ref_ifelse(void) {
  u32 a[N], b[N];
  fill(a, N, 0);
  fill(b, N, 0xcafe);
  for (u32 i = 0; i < N; i++) {
    u32 x = i * 0x9E3779B1u;
    if ((x >> 28) & 1) {
      a[i] = x >> 3;
    } else {
      b[i] = x + 7;
      a[i] = 1;
    }
  }
  print_buffer(1, a, N);
  print_buffer(2, b, N);
}

static void ref_nested(void) {
  u32 out[N], tag[N];
  fill(tag, N, 9);
  for (u32 i = 0; i < N; i++) {
    if (i % 4 == 0)
      out[i] = i * 10, tag[i] = 1;
    else if (i % 8 == 2)
      out[i] = (i + 3) * 2, tag[i] = 2;
    else if (i % 2 == 0)
      out[i] = i + 3;
    else if (i % 3 == 0)
      out[i] = i - 1;
    else
      out[i] = ~i, tag[i] = 3;
  }
  print_buffer(0, out, N);
  print_buffer(1, tag, N);
}

static void ref_loops(void) {
  u32 acc[N], steps[N];
  for (u32 i = 0; i < N; i++) {
    u32 n = (i * 0x9E3779B1u >> 20) % 37;
    acc[i] = i;
    for (u32 k = 0; k < n; k++)
      acc[i] = acc[i] * 1664525u + 1013904223u + k;
    steps[i] = 0;
    for (u32 x = i + 1; x != 1; steps[i]++)
      x = x % 2 ? 3 * x + 1 : x / 2;
  }
  print_buffer(1, acc, N);
  print_buffer(2, steps, N);
}

static u32 first_factor_pair(u32 target) {
  for (u32 a = 1; a < 16; a++)
    for (u32 b = 1; b < 16; b++)
      if (a * b == target)
        return a * 100 + b;
  return 0;
}

static void ref_break_continue(void) {
  u32 out[N], inner[N];
  for (u32 i = 0; i < N; i++) {
    u32 acc = 0;
    for (u32 k = 0; k < 64 && acc <= 100 + i; k++)
      if ((k + i) % 5 != 0)
        acc += k * (i & 7) + 1;
    out[i] = acc;
    inner[i] = first_factor_pair(i % 50);
  }
  print_buffer(0, out, N);
  print_buffer(1, inner, N);
}

static void ref_early_return(void) {
  u32 out[N], count[N];
  fill(out, N, 0xffffffffu);
  fill(count, N, 0xffffffffu);
  for (u32 i = 0; i < N; i++) {
    if (i % 3 == 1)
      continue;
    if (i % 5 == 0) {
      out[i] = 5;
      continue;
    }
    /* The loop stops at k == i % 11 (always < 20), having summed k ^ i
     * for k = 0 .. i % 11. */
    u32 s = 0;
    for (u32 k = 0; k <= i % 11; k++)
      s += k ^ i;
    if (i & 1)
      count[i] = s;
    else
      out[i] = i * 7 + s;
  }
  print_buffer(0, out, N);
  print_buffer(1, count, N);
}

static void ref_barrier_reconv(void) {
  u32 out[NB], tmp[LB];
  for (u32 grp = 0; grp < NB / LB; grp++) {
    for (u32 l = 0; l < LB; l++) {
      u32 x = 5 + 2 * (grp * LB + l);
      tmp[l] = x + 100;
      if (l & 1) {
        tmp[l] = x * 3;
        for (u32 k = 0; k < l % 7; k++)
          tmp[l] += k * x;
      }
    }
    for (u32 l = 0; l < LB; l++)
      out[grp * LB + l] = tmp[(l + 1) % LB] + 2 * tmp[LB - 1 - l];
  }
  print_buffer(1, out, NB);
}

static void ref_switch(void) {
  u32 out[N];
  for (u32 i = 0; i < N; i++) {
    u32 x = i * 0x9E3779B1u >> 16;
    static const int kind[9] = {0, 1, 2, 3, 3, 5, 5, 7, 5};
    switch (kind[x % 9]) {
    case 0: out[i] = x; break;
    case 1: out[i] = 11 + x * 2; break;
    case 2: out[i] = x * 2; break;
    case 3: out[i] = x ^ 0xff; break;
    case 7: out[i] = x >> 2; break;
    default: out[i] = 1000 + x % 9; break;
    }
  }
  print_buffer(1, out, N);
}

static void ref_loop_barrier(void) {
  u32 out[NB];
  for (u32 grp = 0; grp < NB / LB; grp++) {
    u32 sum = 0;
    for (u32 l = 0; l < LB; l++) {
      sum += 1 + 3 * (grp * LB + l);
      out[grp * LB + l] = sum;
    }
  }
  print_buffer(1, out, NB);
}

/* ---- memory/ ---- */

static void ref_transpose(void) {
  int32_t out[256];
  for (int r = 0; r < 16; r++)
    for (int c = 0; c < 16; c++)
      out[r * 16 + c] = c * 16 + r;
  print_ints(1, out, 256);
}

static void ref_constant(void) {
  static const int32_t table[8] = {3, 1, 4, 1, 5, 9, 2, 6}, coef[4] = {1, 2, 3, 4};
  int32_t out[16];
  for (int i = 0; i < 16; i++)
    out[i] = table[i % 8] * coef[i % 4] + coef[3];
  print_ints(1, out, 16);
}

static void ref_private_array(void) {
  /* (k * 7 + i) % 16 visits every index once: s = i * (0 + 1 + ... + 15). */
  int32_t out[32];
  for (int i = 0; i < 32; i++)
    out[i] = 120 * i + (i % 16) * i;
  print_ints(0, out, 32);
}

static void ref_long_block(void) {
  /* src[i] = i; step k, in program order: out[k] = the 16 values its vloads
   * read, then component 5 of out[(k * 7) % 64] += out[k].s0 + k. */
  static int32_t out[64 * 16];
  for (int k = 0; k < 64; k++) {
    int32_t v[16] = {k % 4, k % 4 + 1, k % 4 + 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    memcpy(&out[k * 16], v, sizeof v);
    out[(k * 7) % 64 * 16 + 5] += out[k * 16] + k;
  }
  print_ints(1, out, 64 * 16);
}

/* ---- types/ ---- */

static void ref_vectors(void) {
  int32_t io[16], mo[16];
  printf("buffer 2\n");
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      int a = 4 * i + j, b = 3 * (4 * i + j), b_swz = 3 * (4 * i + (j ^ 1));
      printf("%d%c", 2 * (4 * i + 3 - j) + j + 1, j == 3 ? '\n' : ' ');
      io[4 * i + j] = (b << 1) ^ (b_swz + i);
      mo[4 * i + j] = a > 5 ? -1 : 0;
    }
  print_ints(3, io, 16);
  print_ints(4, mo, 16);
}

/* ---- ndrange/ ---- */

static void ref_grid_2d(void) {
  int32_t out[91];
  for (int y = 1; y < 8; y++)
    for (int x = 3; x < 16; x++)
      out[(y - 1) * 13 + (x - 3)] = y * 100 + x;
  print_ints(0, out, 91);
}

static void ref_grid_3d(void) {
  enum { GX = 6, GY = 4, GZ = 3, LX = 3, LY = 2, LZ = 1, OX = 1, OY = 2, OZ = 3 };
  int32_t ids[GX * GY * GZ * 3];
  for (int z = 0; z < GZ; z++)
    for (int y = 0; y < GY; y++)
      for (int x = 0; x < GX; x++) {
        int lin = (z * GY + y) * GX + x, gx = x + OX, gy = y + OY, gz = z + OZ;
        /* Group and local ids count from the offset. */
        ids[3 * lin] = gx + 10 * gy + 100 * gz;
        ids[3 * lin + 1] = x % LX + 10 * (y % LY) + 100 * (z % LZ) +
                           1000 * (x / LX + 10 * (y / LY) + 100 * (z / LZ));
        ids[3 * lin + 2] = GX / LX + 10 * (GY / LY) + 100 * (GZ / LZ) + 3000 + 10000 * LX;
      }
  print_ints(0, ids, GX * GY * GZ * 3);
}

static void ref_partial_groups(void) {
  int32_t out[60];
  for (int y = 0; y < 6; y++)
    for (int x = 0; x < 10; x++) {
      int lsx = x < 8 ? 4 : 2, lsy = y < 4 ? 4 : 2;
      out[y * 10 + x] = lsx * 1000 + lsy * 100 + 4 * 10 + 4 + 10000 * (x % 4);
    }
  print_ints(0, out, 60);
}

static void ref_reqd_wgs(void) {
  int32_t out[32];
  for (int i = 0; i < 32; i++)
    out[i] = 800 + i % 8 + 1000 * (i / 8);
  print_ints(0, out, 32);
}

/* simt/calls*: finish() of calls.cl over groups of 64 work-items of 256. */
enum { CALLS_N = 256, CALLS_L = 64 };
static void calls_finish(const u32 *v, int out_arg) {
  u32 out[CALLS_N], ok[CALLS_N];
  for (u32 g = 0; g < CALLS_N; g++) {
    u32 base = g / CALLS_L * CALLS_L, l = g % CALLS_L;
    out[g] = v[g] + 3u * v[base + (l + 1) % CALLS_L];
    ok[g] = 1;
  }
  print_buffer(out_arg, out, CALLS_N);
  print_buffer(out_arg + 1, ok, CALLS_N);
}

static void ref_calls_struct_copy(void) {
  u32 v[CALLS_N];
  for (u32 g = 0; g < CALLS_N; g++) {
    u32 l = g % CALLS_L;
    /* the copied blob is elements (g % 4) * 64 .. +63 of the range 0, 1, ... */
    u32 wl = g % 3 ? (g % 4) * 64 + l : g + l, w63 = g % 3 ? (g % 4) * 64 + 63 : g + 63;
    v[g] = wl + w63;
  }
  calls_finish(v, 1);
}

static u32 early(u32 x) {
  if (x % 5 == 0)
    return x * 3;
  u32 s = 0;
  for (u32 k = 0; k < x % 13; k++) {
    s += k * x;
    if ((s & 7) == 3)
      return s;
  }
  return s ^ x;
}
static u32 depth1(u32 x) {
  return (x & 1) ? early(x) + 1 : x / 3;
}
static u32 depth2(u32 x) {
  return x % 3 == 1 ? depth1(x + 7) * 2 : depth1(x) + early(x + 1);
}
static u32 depth3(u32 x) {
  return (x % 4 == 2 ? depth2(x) : depth2(x + 11) ^ 5) + 1;
}

static void ref_calls_noinline_call(void) {
  u32 v[CALLS_N];
  for (u32 g = 0; g < CALLS_N; g++)
    v[g] = g % 2 ? early(g) : depth3(g);
  calls_finish(v, 0);
}

static void ref_calls_loop_call(void) {
  u32 v[CALLS_N];
  for (u32 g = 0; g < CALLS_N; g++) {
    v[g] = g;
    for (u32 k = 0; k < g % 7; k++) {
      v[g] += early(v[g] + k);
      if (v[g] % 11 == 4)
        v[g] += depth3(k);
    }
  }
  calls_finish(v, 0);
}

static void ref_calls_printf_branch(void) {
  u32 v[CALLS_N];
  for (u32 g = 0; g < CALLS_N; g++)
    v[g] = g * 5 + (g % 64 == 0);
  calls_finish(v, 0);
}

/* simt/select_chain: select_chain.cl work-item by work-item. */
static void select_chain_step(float a, float *s, float *carry) {
  float uni = a - *s - *carry;
  if (uni < 0.0f) {
    uni += 1.0f;
    *carry = 0x1p-24f;
  } else {
    *carry = 0.0f;
  }
  *s = uni;
}

static float select_chain_seed(u32 gid, u32 k) {
  return (float)((gid * 2654435761u + k * 40503u) >> 8) * 0x1p-24f;
}

static void ref_select_chain(void) {
  u32 lanes[NB];
  float out[NB];
  for (u32 g = 0; g < NB; g++) {
    float s0 = select_chain_seed(g, 0), s1 = select_chain_seed(g, 1);
    float s2 = select_chain_seed(g, 2), s3 = select_chain_seed(g, 3);
    float s4 = select_chain_seed(g, 4), carry = 0.0f, acc = 0.0f;
    for (int i = 0; i < 16; i++) {
      select_chain_step(s2, &s0, &carry);
      select_chain_step(s3, &s1, &carry);
      select_chain_step(s4, &s2, &carry);
      select_chain_step(s0, &s3, &carry);
      acc += s0;
    }
    lanes[g] = 16; /* every iteration's reduction saw its whole sub-group */
    out[g] = acc;
  }
  print_buffer(0, lanes, NB);
  printf("buffer 1\n");
  for (u32 i = 0; i < NB; i++)
    printf("%a%c", out[i], i % 8 == 7 || i == NB - 1 ? '\n' : ' ');
}

static const struct {
  const char *name;
  void (*ref)(void);
} cases[] = {
    {"simt/ifelse", ref_ifelse},
    {"simt/nested", ref_nested},
    {"simt/loops", ref_loops},
    {"simt/break_continue", ref_break_continue},
    {"simt/early_return", ref_early_return},
    {"simt/barrier_reconv", ref_barrier_reconv},
    {"simt/switch", ref_switch},
    {"simt/loop_barrier", ref_loop_barrier},
    {"simt/select_chain", ref_select_chain},
    {"simt/calls_struct_copy", ref_calls_struct_copy},
    {"simt/calls_struct_copy_O0", ref_calls_struct_copy},
    {"simt/calls_noinline_call", ref_calls_noinline_call},
    {"simt/calls_noinline_call_O0", ref_calls_noinline_call},
    {"simt/calls_loop_call", ref_calls_loop_call},
    {"simt/calls_loop_call_O0", ref_calls_loop_call},
    {"simt/calls_printf_branch", ref_calls_printf_branch},
    {"simt/calls_printf_branch_O0", ref_calls_printf_branch},
    {"memory/transpose", ref_transpose},
    {"memory/constant", ref_constant},
    {"memory/private_array", ref_private_array},
    {"memory/long_block", ref_long_block},
    {"types/vectors", ref_vectors},
    {"ndrange/grid_2d", ref_grid_2d},
    {"ndrange/grid_3d", ref_grid_3d},
    {"ndrange/partial_groups", ref_partial_groups},
    {"ndrange/reqd_wgs", ref_reqd_wgs},
    {"ndrange/reqd_wgs_null", ref_reqd_wgs},
};

int main(int argc, char **argv) {
  for (size_t i = 0; argc == 2 && i < sizeof(cases) / sizeof(cases[0]); i++)
    if (!strcmp(argv[1], cases[i].name)) {
      printf("# generated by sg_kernel_refs %s\n", cases[i].name);
      cases[i].ref();
      return 0;
    }
  fprintf(stderr, "usage: %s FAMILY/CASE (a case with a generated .ref)\n", argv[0]);
  return 2;
}
