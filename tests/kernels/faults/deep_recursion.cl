/* A call chain deeper than the stack. The compiler cannot bound a
 * recursion, so each work-item gets stack_per_lane (16 KiB) of private
 * stack. Odd work-items recurse `depth` levels and then call a leaf whose
 * 16 KiB array reaches below their stack, into the live frames of the
 * work-item below: those stores are dropped and reported, and the leaf's
 * load of big[0] (the deepest element) reads zero. Even work-items, whose
 * frames were in the way, compute the right result. */
__attribute__((noinline)) int leaf(int g)
{
  volatile int big[4096];
  for (int k = 0; k < 4096; k++)
    big[k] = g + k;
  return big[0] + big[4095];
}

int down(int n, int g)
{
  if (n == 0)
    return (g & 1) ? leaf(g) : g;
  volatile int keep = n;
  return down(n - 1, g) + keep;
}

kernel void deep_recursion(global int *out, int depth)
{
  int g = (int)get_global_id(0);
  out[g] = down((g & 1) ? depth : 1, g);
}
