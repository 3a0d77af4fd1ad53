/* A case that expects a fault the kernel never causes must fail. */
kernel void harmless(global int *out)
{
  out[get_global_id(0)] = 1;
}
