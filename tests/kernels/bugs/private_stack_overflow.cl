/* Bug: an index computed from the work-item id walks off the private array,
 * past the work-item's own stack into its neighbours' (and, for the last
 * work-item, past all the stacks). */
kernel void private_stack_overflow(global int *out, int k)
{
  size_t i = get_global_id(0);
  volatile int a[8];
  for (int j = 0; j < 8; j++)
    a[j] = j;
  a[k] = 42;
  out[i] = a[0];
}
