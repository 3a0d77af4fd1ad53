/* OpenCL C 2.0 atomics in one barrier interval: work-item 0 publishes with
 * atomic_store, everyone adds with atomic_fetch_add and reads with
 * atomic_load. Atomics never race with each other. */
kernel void ok_c11_atomics(global atomic_int *counter, global int *out)
{
  local atomic_int flag;
  size_t l = get_local_id(0);
  if (l == 0)
    atomic_store(&flag, 1);
  atomic_fetch_add(counter, 1);
  int f = atomic_load(&flag);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = atomic_load(&flag) + (f >= 0);
}
