/* SPDX-License-Identifier: MIT */
/* Work-group collectives in 3-D partial work-groups (OpenCL C 2.0):
 * v is the work-item's global linear id; out[k * n + v]. */
kernel void wg_3d(global int *out) {
  int n = (int)(get_global_size(0) * get_global_size(1) * get_global_size(2));
  int v = (int)((get_global_id(2) * get_global_size(1) + get_global_id(1)) *
                    get_global_size(0) + get_global_id(0));
  out[v] = work_group_broadcast(v, get_local_size(0) - 1, get_local_size(1) - 1,
                                get_local_size(2) - 1);
  out[n + v] = work_group_broadcast(v, 0, get_local_size(1) - 1, 1);
  out[2 * n + v] = work_group_scan_inclusive_add(1);
  out[3 * n + v] = work_group_reduce_max(v);
}
