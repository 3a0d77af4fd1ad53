/* A load just past the end of a buffer (256 bytes, so the next address is
 * in the unmapped gap after it) faults before anything is stored. */
kernel void oob_load(global const int *in, global int *out)
{
  size_t i = get_global_id(0);
  out[i] = in[i + 64];
}
