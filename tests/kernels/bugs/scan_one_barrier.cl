/* Hillis-Steele inclusive scan with one barrier per step: work-item l adds
 * t[l - d] while work-item l - d may be writing it in the same step. */
kernel void scan_one_barrier(global const int *in, global int *out)
{
  local int t[128];
  size_t l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t d = 1; d < 128; d <<= 1) {
    if (l >= d)
      t[l] += t[l - d];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = t[l];
}
