/* Bug: a byte buffer read as ints two bytes off their boundary, by two
 * full warps: every load is misaligned. */
kernel void misaligned_warp_load(global const uchar *bytes, global int *out)
{
  size_t i = get_global_id(0);
  out[i] = *(global const int *)(bytes + 4 * i + 2);
}
