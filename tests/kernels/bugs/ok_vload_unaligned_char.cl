/* Correct: vload4 of chars at any offset is legal (element alignment). */
kernel void ok_vload_unaligned_char(global const uchar *in, global uint *out)
{
  size_t i = get_global_id(0);
  uchar4 v = vload4(0, in + 4 * i + 1);
  out[i] = v.x + v.y + v.z + v.w;
}
