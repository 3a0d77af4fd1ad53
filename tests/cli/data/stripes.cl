/* Work-items take one of two paths in stripes of 8: a warp of 8 lanes
 * takes one path, a warp of 32 both, one after the other. */
kernel void stripes(global float *out)
{
  size_t i = get_global_id(0);
  float v = 0.0f;
  if ((i / 8) % 2) {
    for (int k = 0; k < 16; k++)
      v += sin((float)(i + k));
  } else {
    for (int k = 0; k < 16; k++)
      v += cos((float)(i * k));
  }
  out[i] = v;
}
