/* Relational (scalar 1/0, vector -1/0), select/bitselect/any/all, common
 * and geometric functions. */
kernel void relational(global const float *x, global int *r, global float *c)
{
  size_t i = get_global_id(0);
  float4 a = vload4(i, x), b = (float4)(1.0f, -2.0f, NAN, INFINITY);
  global int *ri = r + i * 24;
  vstore4(isequal(a, b), 0, ri);
  vstore4(isless(a, b), 1, ri);
  vstore4(isnan(a), 2, ri);
  vstore4(isinf(a) | (isfinite(a) & 2) | (isnormal(a) & 4), 3, ri);
  vstore4(signbit(a) + isunordered(a, b) * 10, 4, ri);
  ri[20] = isequal(a.x, b.x) + isgreater(a.y, b.y) * 10 + signbit(a.z) * 100;
  ri[21] = any(isnan(a)) + all(a > -100.0f) * 10;
  ri[22] = as_int(select(a, b, isgreater(a, (float4)0)).y);
  ri[23] = bitselect(0x0f0f0f0f, 0x70f0f0f0, (int)i * 0x01010101 + 0x3c);
  global float *ci = c + i * 16;
  float4 p = clamp(a, -3.0f, 3.0f);
  p = select(p, (float4)0, isnan(p));
  vstore4(p, 0, ci);
  ci[4] = dot(p, (float4)(1, 2, 3, 4));
  ci[5] = length(p.xyz);
  ci[6] = distance(p.xy, (float2)(1, 1));
  vstore3(normalize(p.xyz + (float3)(0.5f)), 0, ci + 7);
  vstore3(cross(p.xyz, (float3)(1, 2, 3)), 0, ci + 10);
  ci[13] = mix(p.x, p.y, 0.25f);
  ci[14] = step(0.5f, p.x) + sign(p.y) * 2;
  ci[15] = smoothstep(-1.0f, 2.0f, p.z) + degrees(p.w);
}
