/* Explicit conversions: float -> int/uchar/short with every rounding mode,
 * saturated and not; int/long -> float with directed rounding; double ->
 * float rounding; integer saturation and wrap-around; vector forms. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void convert(global const float *x, global const int *n,
                    global int *r, global float *f, global uchar *c)
{
  size_t i = get_global_id(0);
  float v = x[i];
  int k = n[i];
  global int *ri = r + i * 12;
  /* out-of-range values are undefined without _sat */
  float w = fabs(v) < 1e9f ? v : 0;
  ri[0] = convert_int_rte(w);
  ri[1] = convert_int_rtz(w);
  ri[2] = convert_int_rtp(w);
  ri[3] = convert_int_rtn(w);
  ri[4] = convert_int_sat(v * 1e9f);
  ri[5] = convert_int_sat_rte(v * 1e9f);
  ri[6] = convert_short_sat(v * 1e4f);
  ri[7] = convert_uint_sat_rtp(v) == 0 ? -1 : (int)convert_uint_sat_rtp(v);
  ri[8] = convert_char(k);
  ri[9] = convert_char_sat(k);
  ri[10] = convert_ushort_sat(k);
  ri[11] = (int)convert_long_sat_rtn(v * 1e18f) >> 8;
  global float *fi = f + i * 8;
  int big = (int)((uint)k * 1000003u + 1u);
  fi[0] = convert_float(big);
  fi[1] = convert_float_rtz(big);
  fi[2] = convert_float_rtp(big);
  fi[3] = convert_float_rtn(big);
  double d = (double)v / 3.0;
  fi[4] = convert_float_rte(d);
  fi[5] = convert_float_rtz(d);
  fi[6] = convert_float_rtp(d);
  fi[7] = convert_float_rtn((long)big << 20);
  float4 q = (float4)(v, v * 100, -v * 100, v * 1000);
  vstore4(convert_uchar4_sat_rte(q), i, c);
}
