/* Bug: an index walks 20000 bytes off an 8-int private array: past the
 * work-item's own 128-byte stack slot (the kernel's exact private size) and
 * every other work-item's, into unmapped memory. */
kernel void private_stack_overflow(global int *out, int k)
{
  size_t i = get_global_id(0);
  volatile int a[8];
  for (int j = 0; j < 8; j++)
    a[j] = j;
  a[k] = 42;
  out[i] = a[0];
}
