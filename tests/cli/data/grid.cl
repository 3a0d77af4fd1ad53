/* Writes x * 100 + y at (x, y) of a w-wide grid: shows the 2-D ids with
 * a global offset. */
kernel void grid(global int *out, int w)
{
  size_t x = get_global_id(0), y = get_global_id(1);
  out[y * w + x] = (int)(x * 100 + y);
}
