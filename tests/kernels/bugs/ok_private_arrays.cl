/* Private arrays indexed per work-item: each work-item's own stack, never
 * shared. */
kernel void ok_private_arrays(global int *out)
{
  int p[16];
  size_t g = get_global_id(0);
  for (int i = 0; i < 16; i++)
    p[i] = (int)g + i;
  int s = 0;
  for (int i = 0; i < 16; i++)
    s += p[(i + (int)g) % 16];
  out[g] = s;
}
