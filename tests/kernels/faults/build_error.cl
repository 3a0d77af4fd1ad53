/* Not valid OpenCL C: the build must fail with a log, not crash. */
kernel void build_error(global int *out)
{
  out[get_global_id(0)] = undeclared_variable;
}
