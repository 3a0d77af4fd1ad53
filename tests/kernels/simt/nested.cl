/* Three levels of nested divergence, with stores on some paths only. */
kernel void nested(global uint *out, global uint *tag)
{
  uint i = get_global_id(0);
  uint r;
  if (i % 2u == 0u) {
    if (i % 4u == 0u) {
      r = i * 10u;
      tag[i] = 1u;
    } else {
      r = i + 3u;
      if (i % 8u == 2u) {
        r *= 2u;
        tag[i] = 2u;
      }
    }
  } else {
    if (i % 3u == 0u) {
      r = i - 1u;
    } else {
      r = ~i;
      tag[i] = 3u;
    }
  }
  out[i] = r;
}
