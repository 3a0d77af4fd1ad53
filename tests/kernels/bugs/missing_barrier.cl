/* The classic: each work-item writes its element of a __local tile and reads
 * its mirror image without a barrier in between. Warp 0 reads tile[63..32]
 * before warp 1 has written them (warps run one after another until a
 * barrier), so it gets stale values: a data race between warps. */
kernel void missing_barrier(global const int *in, global int *out)
{
  local int tile[64];
  size_t l = get_local_id(0), g = get_global_id(0);
  tile[l] = in[g];
  /* barrier(CLK_LOCAL_MEM_FENCE); is missing here */
  out[g] = tile[63 - l];
}
