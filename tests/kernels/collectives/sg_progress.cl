/* Independent forward progress of sub-groups (CL_DEVICE_SUB_GROUP_
 * INDEPENDENT_FORWARD_PROGRESS): the first sub-group of each work-group spins
 * until the last one stores a flag. Warps run round-robin in time slices, so
 * the spinning warp yields and the last one gets to store; without that the
 * launch would end at the watchdog. */
kernel void sg_progress(global int *out)
{
  local atomic_int flag;
  if (get_local_id(0) == 0)
    atomic_init(&flag, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint sg = get_sub_group_id(), last = get_num_sub_groups() - 1;
  if (get_sub_group_local_id() == 0) {
    if (sg == 0 && last > 0) {
      while (atomic_load_explicit(&flag, memory_order_acquire, memory_scope_work_group) != 1)
        ;
    } else if (sg == last) {
      atomic_store_explicit(&flag, 1, memory_order_release, memory_scope_work_group);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = atomic_load_explicit(&flag, memory_order_relaxed,
                                               memory_scope_work_group);
}
