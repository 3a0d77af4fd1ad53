/* SPDX-License-Identifier: MIT */
/* Odd work-items return at once; the even ones then call a work-group
 * function their odd neighbours never reach. */
kernel void exit_then_work_group(global int *out) {
  size_t i = get_global_id(0);
  if (i % 2)
    return;
  out[i] = work_group_reduce_add(1);
}
