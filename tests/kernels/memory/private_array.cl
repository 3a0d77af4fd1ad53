/* A private array indexed with values only known at run time, so it lives
 * in the work-item's stack rather than in registers. */
kernel void private_array(global int *out)
{
  int i = get_global_id(0);
  int a[16];
  for (int k = 0; k < 16; k++)
    a[k] = k * i;
  int s = 0;
  for (int k = 0; k < 16; k++)
    s += a[(k * 7 + i) % 16];
  out[i] = s + a[i % 16];
}
