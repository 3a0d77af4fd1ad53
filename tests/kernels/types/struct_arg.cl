/* A struct and a float4 passed by value. */
typedef struct {
  int a;
  float b;
  long c;
  char d;
} params; /* a@0 b@4 c@8 d@16, size 24 */

kernel void struct_arg(params p, float4 v, global long *out, global float *out2)
{
  long i = get_global_id(0);
  out[i] = p.a * i + (long)p.b + p.c + p.d;
  out2[i] = v.x + v.y * (float)i + v.z * v.w;
}
