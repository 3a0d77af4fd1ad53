/* Two kernels of one program, each with a 10 KiB private array. Each
 * kernel's private memory is its own call graph's (about 10 KiB), not the
 * sum over the program, so both launch with work-groups of 64. */
kernel void private_10k_a(global int *out)
{
  volatile int a[2560];
  int g = (int)get_global_id(0);
  for (int k = 0; k < 2560; k++)
    a[k] = g + k;
  out[g] = a[(g * 37) % 2560] + a[2559];
}

kernel void private_10k_b(global int *out)
{
  volatile int b[2560];
  int g = (int)get_global_id(0);
  for (int k = 0; k < 2560; k++)
    b[k] = g * k;
  out[g] = b[(g * 13) % 2560] - b[1];
}
