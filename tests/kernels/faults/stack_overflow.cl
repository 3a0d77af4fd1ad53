/* Odd work-items write far below their private array (a[-4100]), into the
 * stack of the work-item before them (16 KiB each). The stores are dropped
 * and reported; every work-item's own array keeps what it wrote. */
kernel void stack_overflow(global int *out, int below)
{
  volatile int a[8];
  size_t g = get_global_id(0);
  for (int k = 0; k < 8; k++)
    a[k] = (int)g * 10 + k;
  if (g & 1)
    a[below] = -1; /* below = -4100: an argument, so it stays a store */
  int s = 0;
  for (int k = 0; k < 8; k++)
    s += a[k];
  out[g] = s;
}
