/* OpenCL C 2.0 partial work-groups: the last group is smaller, and its
 * work-group functions cover its own work-items. */
kernel void ok_partial_group(global const int *in, global int *out)
{
  size_t g = get_global_id(0);
  out[g] = work_group_reduce_add(in[g]);
}
