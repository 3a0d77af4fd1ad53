/* A 1-D range with a global offset and no local size: every id is shifted. */
kernel void offset_1d(global int *out)
{
  size_t g = get_global_id(0);
  out[g - get_global_offset(0)] = (int)g * 2;
}
