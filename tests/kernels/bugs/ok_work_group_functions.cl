/* Every work-group function, called by every work-item in the same order
 * with the same arguments: no finding. */
kernel void ok_work_group_functions(global const int *in, global int *out)
{
  size_t l = get_local_id(0), g = get_global_id(0);
  int x = in[g];
  int s = work_group_reduce_add(x);
  int m = work_group_reduce_max(x);
  int p = work_group_scan_inclusive_add(x);
  int q = work_group_scan_exclusive_min(x);
  int b = work_group_broadcast(x, 3);
  int a = work_group_any(x > 60) + work_group_all(x >= 0);
  out[g] = s + m + p + q + b + a - (int)l;
}
