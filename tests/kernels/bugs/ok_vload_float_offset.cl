/* Correct: vload4 of floats at an offset of one float (4-byte alignment is
 * all vloadn needs). */
kernel void ok_vload_float_offset(global const float *in, global float *out)
{
  size_t i = get_global_id(0);
  float4 v = vload4(i, in + 1);
  out[i] = v.x + v.y + v.z + v.w;
}
