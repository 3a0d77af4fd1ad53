/* Finding 6: LLVM allocates helper's 20 KB frame only after its early
 * return (shrink-wrapping), so a frame size read from the first
 * instructions is 0 and the frames of neighbouring work-items overlap. The
 * compiler follows every stack pointer change, so each work-item's frame
 * fits its own stack. */
__attribute__((noinline)) int helper(global const int *in, int g)
{
  int big[5000];
  if (g % 3 == 0)
    return -1;
  for (int i = 0; i < 5000; i++)
    big[i] = in[i] + g;
  return big[(g * 7) % 5000];
}

kernel void private_shrink_wrap(global const int *in, global int *out)
{
  int g = (int)get_global_id(0);
  out[g] = helper(in, g);
}
