/* The classic reduction that drops the barriers for the last 64 elements
 * ("the last warp runs in lockstep anyway"). OpenCL promises nothing of
 * the kind: on a CPU OpenCL it gives 28 instead of 256. SoftGPU's 32-wide
 * warps do run in lockstep, so the sum comes out right, and the race
 * checker says that it relies on it, with the warp width each step needs. */
kernel void warp_sync_reduction(global const int *in, global int *out)
{
  local int s[256];
  size_t t = get_local_id(0);
  s[t] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t n = 128; n > 32; n >>= 1) {
    if (t < n)
      s[t] += s[t + n];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t < 32) {
    volatile local int *v = s;
    v[t] += v[t + 32];
    v[t] += v[t + 16];
    v[t] += v[t + 8];
    v[t] += v[t + 4];
    v[t] += v[t + 2];
    v[t] += v[t + 1];
  }
  if (t == 0)
    out[get_group_id(0)] = s[0];
}
