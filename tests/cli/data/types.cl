/* Arguments of several types, echoed into one float4 buffer. */
kernel void types(global float4 *out, float4 v, double d, long l, uchar c, short s)
{
  out[0] = v * (float)d;
  out[1] = (float4)((float)l, (float)c, (float)s, 0.0f);
}

/* Doubles its input; a null second buffer is seen as a null pointer. */
kernel void twice(global int *p, global const int *q)
{
  size_t i = get_global_id(0);
  p[i] = q ? 2 * q[i] : 2 * p[i];
}

/* Copies random input so it can be printed. */
kernel void copy(global float *out, global const float *in)
{
  out[get_global_id(0)] = in[get_global_id(0)];
}
