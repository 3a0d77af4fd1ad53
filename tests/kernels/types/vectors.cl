/* float4/int4 arithmetic, swizzles, shifts and a vector comparison. */
kernel void vectors(global const float4 *a, global const int4 *b, global float4 *fo,
                    global int4 *io, global int4 *mo)
{
  int i = get_global_id(0);
  float4 x = a[i];
  int4 y = b[i];
  fo[i] = x.wzyx * 2.0f + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  io[i] = (y << 1) ^ (y.yxwz + (int4)(i));
  mo[i] = x > 5.0f;
}
