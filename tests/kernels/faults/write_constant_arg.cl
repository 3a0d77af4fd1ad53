/* A store into a __constant argument's buffer (through an integer cast,
 * as OpenCL C forbids the direct cast) faults: it is mapped read-only. */
kernel void write_constant_arg(constant int *c, global int *out)
{
  size_t i = get_global_id(0);
  global int *p = (global int *)(uintptr_t)c;
  p[i] = 5;
  out[i] = c[i];
}
