/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), special function unit: the functions
 * sg_sfu.def names that the host libm lacks or computes too inexactly,
 * evaluated in a wider type so the result is within the OpenCL ULP bounds. */
#define _GNU_SOURCE
#include "sg_sim_impl.h"

#include <math.h>

float sg_exp10f(float x) { return exp10f(x); }
double sg_exp10(double x) { return exp10(x); }
float sg_rsqrtf(float x) { return (float)(1.0 / sqrt((double)x)); }
double sg_rsqrt(double x) { return (double)(1.0L / sqrtl((long double)x)); }
/* glibc's double cbrt is off by up to 3 ulp, past OpenCL's 2. */
double sg_cbrt(double x) { return (double)cbrtl(x); }

/* sin(pi x) with an exact argument reduction: x mod 2 is exact, integers
 * give a signed zero (IEEE 754: +0 for positive, -0 for negative). */
static long double sinpi_x(long double x) {
  if (isinf(x) || isnan(x))
    return NAN;
  long double r = fmodl(x, 2); /* (-2, 2), sign of x, exact */
  if (r == truncl(r))
    return copysignl(0, x);
  if (r > 1)
    r -= 2;
  else if (r < -1)
    r += 2;
  if (r > 0.5L)
    r = 1 - r;
  else if (r < -0.5L)
    r = -1 - r;
  return sinl(3.14159265358979323846264338327950288L * r);
}

/* cos(pi x) = sin(pi (1/2 - |x| mod 2)); zeros are +0 (IEEE 754). */
static long double cospi_x(long double x) {
  if (isinf(x) || isnan(x))
    return NAN;
  long double v = sinpi_x(0.5L - fmodl(fabsl(x), 2));
  return v == 0 ? 0 : v;
}

static long double tanpi_x(long double x) { return sinpi_x(x) / cospi_x(x); }

float sg_sinpif(float x) { return (float)sinpi_x(x); }
double sg_sinpi(double x) { return (double)sinpi_x(x); }
float sg_cospif(float x) { return (float)cospi_x(x); }
double sg_cospi(double x) { return (double)cospi_x(x); }
float sg_tanpif(float x) { return (float)tanpi_x(x); }
double sg_tanpi(double x) { return (double)tanpi_x(x); }
