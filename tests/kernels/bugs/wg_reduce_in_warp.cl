/* A work-group reduction called by every other work-item, which then all
 * store: each warp is split, and the half that calls the reduction waits at
 * its barrier for the other half, which waits to rejoin it. Hardware would
 * hang; SoftGPU names the divergent call, then ends the launch. */
kernel void wg_reduce_in_warp(global const int *in, global int *out)
{
  size_t l = get_local_id(0);
  int r = 0;
  if (l % 2)
    r = work_group_reduce_add(in[get_global_id(0)]);
  out[l] = r;
}
