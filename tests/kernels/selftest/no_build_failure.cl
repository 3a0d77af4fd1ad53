/* A case that expects a build failure from valid code must fail. */
kernel void valid(global int *out)
{
  out[0] = 1;
}
