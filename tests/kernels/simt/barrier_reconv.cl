/* Divergent code (including a divergent loop) that reconverges before a
 * work-group barrier; after it every work-item reads its neighbours' values. */
kernel void barrier_reconv(global const uint *in, global uint *out, local uint *tmp)
{
  uint l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
  uint x = in[g];
  uint v;
  if (l & 1u) {
    v = x * 3u;
    for (uint k = 0; k < l % 7u; k++)
      v += k * x;
  } else {
    v = x + 100u;
  }
  tmp[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tmp[(l + 1u) % n] + 2u * tmp[n - 1u - l];
}
