/* scan_one_barrier.cl with the second barrier: each step reads, waits,
 * then writes. */
kernel void ok_scan(global const int *in, global int *out)
{
  local int t[128];
  size_t l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t d = 1; d < 128; d <<= 1) {
    int v = l >= d ? t[l - d] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    t[l] += v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = t[l];
}
