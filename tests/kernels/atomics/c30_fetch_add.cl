/* The same as c20_fetch_add.cl under OpenCL C 3.0, where the relaxed order
 * and the device and work-group scopes are features SoftGPU reports. */
kernel void c30_fetch_add(global atomic_int *g, global int *per_group)
{
  local atomic_int s;
  int i = get_global_id(0), lid = get_local_id(0);
  if (lid == 0)
    atomic_init(&s, 0);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add_explicit(&g[0], i, memory_order_relaxed, memory_scope_device);
  atomic_fetch_add_explicit(&g[1], 1, memory_order_relaxed, memory_scope_device);
  atomic_fetch_add_explicit(&s, lid + 1, memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0)
    per_group[get_group_id(0)] =
        atomic_load_explicit(&s, memory_order_relaxed, memory_scope_work_group);
}
