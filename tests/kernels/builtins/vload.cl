/* vloadn/vstoren at unaligned element offsets, and half conversions with
 * every rounding mode. */
kernel void vload_store(global const int *a, global int *o, global const float *f,
                  global half *h, global float *hf)
{
  size_t i = get_global_id(0);
  int3 t = vload3(i, a + 1);
  vstore3(t * 2, i, o);
  int8 e = vload8(0, a + i);
  o[12 + i] = e.s0 + e.s7 * 100;
  float v = f[i];
  vstore_half(v, i, h);
  vstore_half_rtz(v, i + 8, h);
  vstore_half_rtp(v, i + 16, h);
  vstore_half_rtn(v, i + 24, h);
  barrier(CLK_GLOBAL_MEM_FENCE);
  hf[i] = vload_half(i, (global const half *)h);
  hf[i + 8] = vload_half(i + 8, (global const half *)h);
  float4 q = vload_half4(0, (global const half *)h + 16);
  hf[i + 16] = q.s0 + q.s1 + q.s2 + q.s3;
}
