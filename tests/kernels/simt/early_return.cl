/* Work-items leave the kernel at different points, one of them inside a
 * loop; the others must carry on unaffected. */
kernel void early_return(global uint *out, global uint *count)
{
  uint i = get_global_id(0);
  if (i % 3u == 1u)
    return;
  if (i % 5u == 0u) {
    out[i] = 5u;
    return;
  }
  uint s = 0;
  for (uint k = 0; k < 20u; k++) {
    s += k ^ i;
    if (k == i % 11u) {
      if (i & 1u) {
        count[i] = s;
        return;
      }
      break;
    }
  }
  out[i] = i * 7u + s;
}
