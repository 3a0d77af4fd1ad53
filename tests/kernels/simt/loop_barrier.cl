/* A loop with a uniform trip count and barriers inside it (Hillis-Steele
 * inclusive scan of each work-group), with a divergent read in the body. */
kernel void loop_barrier(global const uint *in, global uint *out, local uint *tmp)
{
  uint l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
  tmp[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint off = 1; off < n; off <<= 1) {
    uint t = l >= off ? tmp[l - off] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    tmp[l] += t;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[g] = tmp[l];
}
