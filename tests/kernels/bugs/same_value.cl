/* Every work-item sets the same flag to 1: a race by the letter of the
 * specification, harmless in practice (every order leaves 1). SoftGPU
 * reports it only when asked (SOFTGPU_CHECK=races,same-value). */
kernel void same_value(global const int *in, global int *flag)
{
  local int any;
  size_t l = get_local_id(0);
  if (l == 0)
    any = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (in[get_global_id(0)] > 0)
    any = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0)
    flag[get_group_id(0)] = any;
}
