/* A 2-D range of prime sizes with an offset; the platform picks the
 * work-group size and must mask the tails. */
kernel void grid_2d(global int *out)
{
  size_t x = get_global_id(0), y = get_global_id(1);
  size_t w = get_global_size(0);
  out[(y - get_global_offset(1)) * w + (x - get_global_offset(0))] = (int)(y * 100 + x);
}
