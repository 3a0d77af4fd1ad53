/* __local and __global exchanges ordered by one barrier fencing both. */
kernel void ok_both_fences(global const int *in, global int *tmp, global int *out)
{
  local int s[64];
  size_t l = get_local_id(0), g = get_global_id(0);
  s[l] = in[g];
  tmp[g] = in[g] + 100;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  out[g] = s[63 - l] + tmp[get_group_id(0) * 64 + (l ^ 1)];
}
