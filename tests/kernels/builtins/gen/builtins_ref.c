/* SPDX-License-Identifier: MIT */
/* Host reference for tests/kernels/builtins: prints the .ref file of the
 * case named on the command line, computed with the host's C library and
 * plain C integer arithmetic (independently of SoftGPU's device library).
 * Build: cc -O0 -o builtins_ref builtins_ref.c -lm
 * Use:   ./builtins_ref math > ../math.ref */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const float math_x[16] = {-3.5f, -2, -1, -0.75f, -0.5f, -0.25f, 0, 0.25f,
                                 0.5f, 0.75f, 1, 1.5f, 2, 3, 10, 100};

static void pf(float v) { printf("%.9g\n", v); }
static void pd(double v) { printf("%.17g\n", v); }

static void ref_math(void)
{
  printf("buffer 1\n");
  for (int i = 0; i < 16; i++) {
    float v = math_x[i];
    float r[12] = {sinf(v), cosf(v), tanf(v), expf(v), exp2f(v), logf(v),
                   log2f(v), atanf(v), powf(v, 2.5f), tanhf(v),
                   atan2f(v, 1.5f), hypotf(v, 2.0f)};
    for (int k = 0; k < 12; k++)
      pf(r[k]);
  }
  printf("buffer 2\n");
  for (int i = 0; i < 16; i++) {
    float v = math_x[i], ip, fl = floorf(v), mi;
    int ex;
    float fr = fminf(v - fl, 0x1.fffffep-1f);
    float mf = modff(v, &mi);
    float r[16] = {fabsf(v), fl, ceilf(v), truncf(v), roundf(v), rintf(v),
                   fr, fl, mf, fminf(v, 0.5f), fmaxf(v, 0.5f),
                   fmaf(v, v, 1.0f), copysignf(1.0f, v), ldexpf(v, 3),
                   sqrtf(fabsf(v)), frexpf(v, &ex)};
    (void)ip;
    for (int k = 0; k < 16; k++)
      pf(r[k]);
  }
  printf("buffer 3\n");
  for (int i = 0; i < 16; i++) {
    int ex;
    frexpf(math_x[i], &ex);
    printf("%d %d\n", ex, ilogbf(math_x[i]));
  }
  printf("buffer 4\n");
  for (int i = 0; i < 16; i++) {
    float v = math_x[i], q[4] = {v, 2 * v, -v, v + 1};
    for (int k = 0; k < 4; k++)
      pf(sinf(q[k]));
    for (int k = 0; k < 4; k++)
      pf(expf(q[k] * 0.5f));
  }
  printf("buffer 5\n");
  for (int i = 0; i < 16; i++) {
    double v = math_x[i];
    pd(sin(v)), pd(exp(v)), pd(log(v)), pd(pow(v, 2.5)), pd(sqrt(fabs(v))),
        pd(floor(v));
  }
}

static const int int_a[12] = {0, 1, -1, 7, -7, 2147483647, -2147483647 - 1, 1000, -123456, 65535, 0x12345678, -300};
static const int int_b[12] = {0, -1, -1, 3, 9, 1, -1, -1000, 654321, 65535, 31, -301};

static int64_t sat64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }
static int clz32(uint32_t v) { int n = 0; for (uint32_t m = 1u << 31; m && !(v & m); m >>= 1) n++; return n; }
static int pop32(uint32_t v) { int n = 0; for (; v; v >>= 1) n += v & 1; return n; }

static void ref_integer(void)
{
  printf("buffer 2\n");
  for (int i = 0; i < 12; i++) {
    int64_t x = int_a[i], y = int_b[i];
    uint32_t ux = (uint32_t)x;
    unsigned n = (uint32_t)y & 31;
    int64_t r[14] = {
        (int32_t)(uint32_t)(x < 0 ? -x : x), (int32_t)(uint32_t)(x > y ? x - y : y - x),
        sat64(x + y, INT32_MIN, INT32_MAX), sat64(x - y, INT32_MIN, INT32_MAX),
        (x + y) >> 1, (x + y + 1) >> 1, clz32(ux), pop32(ux), (x * y) >> 32,
        sat64(x * y + 5, INT32_MIN, INT32_MAX),
        (int32_t)(n ? (ux << n) | (ux >> (32 - n)) : ux),
        sat64(x, -100, 100), (x < y ? x : y) + (x < y ? y : x) / 2,
        (x & 0xfff) * (y & 0xfff) + 3};
    for (int k = 0; k < 14; k++)
      printf("%lld\n", (long long)r[k]);
  }
  printf("buffer 3\n");
  for (int i = 0; i < 12; i++) {
    uint64_t x = (uint32_t)int_a[i], y = (uint32_t)int_b[i];
    printf("%llu %llu %llu %llu\n", (unsigned long long)(x + y > UINT32_MAX ? UINT32_MAX : x + y),
           (unsigned long long)(x < y ? 0 : x - y), (unsigned long long)((x * y) >> 32),
           (unsigned long long)((x + y + 1) >> 1));
  }
  printf("buffer 4\n");
  for (int i = 0; i < 12; i++) {
    int x = int_a[i], y = int_b[i];
    int cx[4] = {(int8_t)x, (int8_t)(x >> 8), (int8_t)y, (int8_t)(y >> 8)};
    int cy[4] = {(int8_t)y, (int8_t)(y >> 8), (int8_t)x, (int8_t)(x >> 8)};
    for (int k = 0; k < 4; k++)
      printf("%d ", (int)sat64(cx[k] + cy[k], -128, 127));
    for (int k = 0; k < 4; k++)
      printf("%d ", (int8_t)(uint8_t)(cx[k] < 0 ? -cx[k] : cx[k]));
    printf("\n");
  }
  printf("buffer 5\n");
  for (int i = 0; i < 12; i++) {
    int64_t lx = (int64_t)int_a[i] * 1000003, ly = (int64_t)int_b[i] * 999983;
    __int128 p = (__int128)(int64_t)((uint64_t)lx << 20) * (int64_t)((uint64_t)ly << 20);
    int64_t sa = (int64_t)((uint64_t)lx * 0x7fffff), sb = (int64_t)((uint64_t)-ly * 0x7fffff);
    __int128 s = (__int128)sa - sb;
    int64_t sv = s > INT64_MAX ? INT64_MAX : s < INT64_MIN ? INT64_MIN : (int64_t)s;
    printf("%lld %lld %lld\n", (long long)(int64_t)(p >> 64),
           (long long)(int64_t)(((uint64_t)(uint32_t)int_a[i] << 32) | (uint32_t)int_b[i]),
           (long long)sv);
  }
}

static const float cvt_x[16] = {-3.5f, -2.5f, -1.5f, -0.5f, -0.49f, 0, 0.5f, 0.51f, 1.5f, 2.5f, 3.7f, -3.7f, 2.9f, 1e10f, -1e10f, NAN};
static const int cvt_n[16] = {0, 1, -1, 127, 128, -129, 255, -128, 300, 65536, -70000, 16777217, -16777217, 2147483, -2147483, 33554433};

/* Round with the given mode, then saturate (NaN -> 0) into [lo, hi]. */
static long double cvt_sat(long double v, int mode, long double lo, long double hi)
{
  if (isnan(v))
    return 0;
  fesetround(mode);
  v = nearbyintl(v);
  fesetround(FE_TONEAREST);
  return v < lo ? lo : v > hi ? hi : v;
}

static float cvt_f(long double v, int mode)
{
  fesetround(mode);
  volatile float r = (float)v; /* the host rounds with the current mode */
  fesetround(FE_TONEAREST);
  return r;
}

static void ref_convert(void)
{
  printf("buffer 2\n");
  for (int i = 0; i < 16; i++) {
    float v = cvt_x[i];
    int k = cvt_n[i];
    long double u = cvt_sat(v, FE_UPWARD, 0, UINT32_MAX);
    float w = fabsf(v) < 1e9f ? v : 0;
    long long r[12] = {
        cvt_sat(w, FE_TONEAREST, INT32_MIN, INT32_MAX), cvt_sat(w, FE_TOWARDZERO, INT32_MIN, INT32_MAX),
        cvt_sat(w, FE_UPWARD, INT32_MIN, INT32_MAX), cvt_sat(w, FE_DOWNWARD, INT32_MIN, INT32_MAX),
        cvt_sat(v * 1e9f, FE_TOWARDZERO, INT32_MIN, INT32_MAX), cvt_sat(v * 1e9f, FE_TONEAREST, INT32_MIN, INT32_MAX),
        cvt_sat(v * 1e4f, FE_TOWARDZERO, INT16_MIN, INT16_MAX), u == 0 ? -1 : (int32_t)(uint32_t)u,
        (int8_t)k, k < -128 ? -128 : k > 127 ? 127 : k, k < 0 ? 0 : k > 65535 ? 65535 : k,
        (int32_t)(int64_t)cvt_sat(v * 1e18f, FE_DOWNWARD, INT64_MIN, INT64_MAX) >> 8};
    for (int j = 0; j < 12; j++)
      printf("%lld\n", r[j]);
  }
  printf("buffer 3\n");
  for (int i = 0; i < 16; i++) {
    int big = (int)((uint32_t)cvt_n[i] * 1000003u + 1);
    double d = (double)cvt_x[i] / 3.0;
    pf(cvt_f(big, FE_TONEAREST)), pf(cvt_f(big, FE_TOWARDZERO)), pf(cvt_f(big, FE_UPWARD));
    pf(cvt_f(big, FE_DOWNWARD)), pf(cvt_f(d, FE_TONEAREST)), pf(cvt_f(d, FE_TOWARDZERO));
    pf(cvt_f(d, FE_UPWARD)), pf(cvt_f((long double)((int64_t)big * 1048576), FE_DOWNWARD));
  }
  printf("buffer 4\n");
  for (int i = 0; i < 16; i++) {
    float v = cvt_x[i], q[4] = {v, v * 100, -v * 100, v * 1000};
    for (int j = 0; j < 4; j++)
      printf("%d ", (int)cvt_sat(q[j], FE_TONEAREST, 0, 255));
    printf("\n");
  }
}

static void ref_workitem(void)
{
  printf("buffer 0\n");
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 6; x++)
      printf("%d %d %d %d %d %d 6 4 32 22 12 2 111 0\n", x + 1, y + 2, x % 3,
             y % 2, x / 3, y / 2);
}

static void ref_atomic(void)
{
  int g[12] = {0, 0, 0, 0, -1, 1000000, 0, -1, 0, 0, 0, 0};
  float f = 2.5f;
  for (int i = 0; i < 128; i++) {
    g[0] += i, g[1] -= 2, g[2]++, g[3]--;
    g[4] = g[4] > i * 7 % 61 ? g[4] : i * 7 % 61;
    g[5] = g[5] < 1000 - i ? g[5] : 1000 - i;
    g[6] |= 1 << (i % 31), g[7] &= ~(1 << (i % 13)), g[8] ^= i;
  }
  g[10] = 1;
  memcpy(&g[11], &f, 4);
  printf("buffer 0\n");
  for (int k = 0; k < 12; k++)
    printf("%d\n", k == 9 ? 77 : g[k]);
  printf("buffer 1\n");
  for (int grp = 0; grp < 4; grp++)
    printf("32 %d %d\n", grp * 32, (grp * 32 + grp * 32 + 31) * 32 / 2);
}

static void ref_atomic64(void)
{
  int64_t l[3] = {0, -1000, 0};
  for (int i = 0; i < 128; i++) {
    l[0] += (int64_t)i << 32;
    l[1] = l[1] > -(int64_t)i ? l[1] : -(int64_t)i;
    l[2] ^= (int64_t)i << 40;
  }
  printf("buffer 0\n%lld\n%lld\n%lld\n4294967296\n1\n", (long long)l[0],
         (long long)l[1], (long long)l[2]);
}

static const float rel_x[16] = {1, -2, NAN, INFINITY, -0.0f, 3, 2, -INFINITY,
                                0.5f, -2.5f, 1e-40f, 2.5f, -1, 0.75f, 1.25f, -3};

static float clampf(float v, float lo, float hi) { return fminf(fmaxf(v, lo), hi); }

static void ref_relational(void)
{
  const float b[4] = {1.0f, -2.0f, NAN, INFINITY};
  printf("buffer 1\n");
  for (int i = 0; i < 4; i++) {
    const float *a = rel_x + i * 4;
    for (int k = 0; k < 4; k++) printf("%d ", a[k] == b[k] ? -1 : 0);
    for (int k = 0; k < 4; k++) printf("%d ", a[k] < b[k] ? -1 : 0);
    for (int k = 0; k < 4; k++) printf("%d ", isnan(a[k]) ? -1 : 0);
    for (int k = 0; k < 4; k++)
      printf("%d ", (isinf(a[k]) ? -1 : 0) | (isfinite(a[k]) ? 2 : 0) | (isnormal(a[k]) ? 4 : 0));
    for (int k = 0; k < 4; k++)
      printf("%d ", (signbit(a[k]) ? -1 : 0) + (isnan(a[k]) || isnan(b[k]) ? -10 : 0));
    int anynan = 0, allgt = 1;
    for (int k = 0; k < 4; k++) anynan |= isnan(a[k]) != 0, allgt &= a[k] > -100.0f;
    float sel = a[1] > 0 ? b[1] : a[1];
    int32_t selbits;
    memcpy(&selbits, &sel, 4);
    int32_t m = i * 0x01010101 + 0x3c;
    printf("%d %d %d %d\n", (a[0] == b[0]) + (a[1] > b[1]) * 10 + (signbit(a[2]) != 0) * 100,
           anynan + allgt * 10, selbits, (0x0f0f0f0f & ~m) | (0x70f0f0f0 & m));
  }
  printf("buffer 2\n");
  for (int i = 0; i < 4; i++) {
    float p[4];
    for (int k = 0; k < 4; k++) {
      p[k] = clampf(rel_x[i * 4 + k], -3, 3);
      if (isnan(p[k])) p[k] = 0;
      pf(p[k]);
    }
    pf(p[0] * 1 + p[1] * 2 + p[2] * 3 + p[3] * 4);
    pf(sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
    pf(hypotf(p[0] - 1, p[1] - 1));
    float n[3] = {p[0] + 0.5f, p[1] + 0.5f, p[2] + 0.5f};
    float ln = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; k++) pf(n[k] / ln);
    pf(p[1] * 3 - p[2] * 2), pf(p[2] * 1 - p[0] * 3), pf(p[0] * 2 - p[1] * 1);
    pf(p[0] + (p[1] - p[0]) * 0.25f);
    pf((p[0] < 0.5f ? 0.0f : 1.0f) + (p[1] > 0 ? 1.0f : p[1] < 0 ? -1.0f : p[1]) * 2);
    float t = clampf((p[2] + 1.0f) / 3.0f, 0, 1);
    pf(t * t * (3 - 2 * t) + p[3] * (float)(180 / M_PI));
  }
}

/* float -> binary16 with the host's rounding mode applied by hand. */
static uint16_t to_half(float v, int mode)
{
  uint16_t sign = signbit(v) ? 0x8000 : 0;
  double a = fabs((double)v);
  int e = a < 0x1p-14 ? -14 : ilogb(a);
  double q = ldexp(a, 10 - e);
  fesetround(mode == FE_UPWARD && sign ? FE_DOWNWARD : mode == FE_DOWNWARD && sign ? FE_UPWARD : mode);
  q = nearbyint(q);
  fesetround(FE_TONEAREST);
  int up = mode == FE_TONEAREST || (mode == FE_UPWARD && !sign) || (mode == FE_DOWNWARD && sign);
  if (e > 15)
    return sign | (up ? 0x7c00 : 0x7bff);
  uint32_t bits = a < 0x1p-14 ? (uint32_t)q : ((uint32_t)(e + 15) << 10) + (uint32_t)q - 1024;
  return sign | (bits > 0x7bff ? (up ? 0x7c00 : 0x7bff) : bits);
}

static float from_half(uint16_t h)
{
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  float v = e == 0x1f ? INFINITY : e == 0 ? ldexpf(m, -24) : ldexpf(m + 1024, e - 25);
  return h & 0x8000 ? -v : v;
}

static void ref_vload(void)
{
  static const float f[4] = {1.0009765625f, -3.14159f, 70000, 5.96e-8f};
  static const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
  uint16_t h[32] = {0};
  printf("buffer 1\n");
  for (int i = 0; i < 12; i++)
    printf("%d ", (i + 1) * 2);
  for (int i = 0; i < 4; i++)
    printf("%d ", i + (i + 7) * 100);
  printf("\nbuffer 3\n");
  for (int m = 0; m < 4; m++)
    for (int i = 0; i < 4; i++)
      h[m * 8 + i] = to_half(f[i], modes[m]);
  for (int i = 0; i < 32; i++)
    printf("%u ", h[i]);
  printf("\nbuffer 4\n");
  for (int i = 0; i < 4; i++)
    pf(from_half(h[i]));
  for (int i = 4; i < 8; i++)
    pf(0);
  for (int i = 0; i < 4; i++)
    pf(from_half(h[8 + i]));
  for (int i = 12; i < 16; i++)
    pf(0);
  for (int i = 0; i < 4; i++)
    pf(from_half(h[16]) + from_half(h[17]) + from_half(h[18]) + from_half(h[19]));
  for (int i = 20; i < 24; i++)
    pf(0);
}

struct ref_case {
  const char *name;
  void (*print)(void);
};

static const struct ref_case cases[] = {
    {"math", ref_math},
    {"integer", ref_integer},
    {"convert", ref_convert},
    {"workitem", ref_workitem},
    {"atomic", ref_atomic},
    {"atomic64", ref_atomic64},
    {"relational", ref_relational},
    {"vload", ref_vload},
};

int main(int argc, char **argv)
{
  for (size_t i = 0; argc == 2 && i < sizeof cases / sizeof cases[0]; i++)
    if (strcmp(argv[1], cases[i].name) == 0) {
      cases[i].print();
      return 0;
    }
  fprintf(stderr, "usage: builtins_ref CASE\n");
  return 2;
}
