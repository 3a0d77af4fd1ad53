/* Correct: two full warps load and store bytes and shorts at their own
 * alignments (sub-word accesses, none misaligned). */
kernel void ok_byte_lanes(global const uchar *in, global ushort *hw, global uchar *out)
{
  size_t i = get_global_id(0);
  uchar a = in[2 * i], b = in[2 * i + 1];
  hw[i] = (ushort)(a | b << 8);
  out[i] = (uchar)(a + b);
}
