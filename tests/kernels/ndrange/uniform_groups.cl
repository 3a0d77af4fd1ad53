/* OpenCL C 1.2 rules: the local size must divide the global size. */
kernel void uniform_groups(global int *out)
{
  out[get_global_id(0)] = 1;
}
