/* Math built-ins, float and double, scalar and vector: transcendentals (SFU)
 * against the host's libm with a tolerance, exactly rounded ones bit-exact. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void math(global const float *x, global float *t, global float *e,
                 global int *ie, global float *vt, global double *d)
{
  size_t i = get_global_id(0);
  float v = x[i];
  global float *ti = t + i * 12, *ei = e + i * 16;
  ti[0] = sin(v);
  ti[1] = cos(v);
  ti[2] = tan(v);
  ti[3] = exp(v);
  ti[4] = exp2(v);
  ti[5] = log(v);
  ti[6] = log2(v);
  ti[7] = atan(v);
  ti[8] = pow(v, 2.5f);
  ti[9] = tanh(v);
  ti[10] = atan2(v, 1.5f);
  ti[11] = hypot(v, 2.0f);

  float ip;
  int ex;
  ei[0] = fabs(v);
  ei[1] = floor(v);
  ei[2] = ceil(v);
  ei[3] = trunc(v);
  ei[4] = round(v);
  ei[5] = rint(v);
  ei[6] = fract(v, &ip);
  ei[7] = ip;
  ei[8] = modf(v, &ip);
  ei[9] = fmin(v, 0.5f);
  ei[10] = fmax(v, 0.5f);
  ei[11] = fma(v, v, 1.0f);
  ei[12] = copysign(1.0f, v);
  ei[13] = ldexp(v, 3);
  ei[14] = sqrt(fabs(v));
  ei[15] = frexp(v, &ex);
  ie[i * 2] = ex;
  ie[i * 2 + 1] = ilogb(v);

  float4 q = (float4)(v, 2 * v, -v, v + 1);
  vstore4(sin(q), 2 * i, vt);
  vstore4(exp(q * 0.5f), 2 * i + 1, vt);

  double dv = v;
  global double *di = d + i * 6;
  di[0] = sin(dv);
  di[1] = exp(dv);
  di[2] = log(dv);
  di[3] = pow(dv, 2.5);
  di[4] = sqrt(fabs(dv));
  di[5] = floor(dv);
}
