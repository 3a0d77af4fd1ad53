/* if/else where each side stores to a different buffer, so the compiler
 * cannot turn the branch into a select: lanes of one warp take both sides. */
kernel void ifelse(global const uint *in, global uint *a, global uint *b)
{
  uint i = get_global_id(0);
  uint x = in[i] * 0x9E3779B1u;
  if ((x >> 28) & 1) {
    a[i] = x >> 3;
  } else {
    b[i] = x + 7u;
    a[i] = 1u;
  }
}
