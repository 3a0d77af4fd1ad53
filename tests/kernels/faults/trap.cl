/* __builtin_trap ends the launch (a GPU cannot go on either), named as a
 * trap. */
kernel void trap(global int *out)
{
  size_t i = get_global_id(0);
  if (i == 5)
    __builtin_trap();
  out[i] = 1;
}
