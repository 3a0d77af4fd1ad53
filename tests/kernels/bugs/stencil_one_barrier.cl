/* Iterated 3-point smoothing in place with one barrier per step: each
 * work-item overwrites its element while its neighbours may still be
 * reading it (the second barrier, between the reads and the write, is
 * missing). */
kernel void stencil_one_barrier(global const float *in, global float *out)
{
  local float t[66];
  size_t l = get_local_id(0) + 1, g = get_global_id(0);
  t[l] = in[g] * in[g]; /* not a straight line: smoothing changes it */
  if (l == 1)
    t[0] = 0.0f;
  if (l == 64)
    t[65] = 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int it = 0; it < 4; it++) {
    float v = (t[l - 1] + t[l] + t[l + 1]) / 3.0f;
    t[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[g] = t[l];
}
