/* reqd_work_group_size(8, 1, 1), built as OpenCL C 2.0: with no local size
 * the platform uses the required one. */
kernel __attribute__((reqd_work_group_size(8, 1, 1))) void reqd_wgs(global int *out)
{
  out[get_global_id(0)] = get_local_size(0) * 100 + get_local_id(0) + 1000 * get_group_id(0);
}
