/* OpenCL C 3.0 atomics at the orders and scopes the device reports beyond
 * the minimum: seq_cst (the default of the implicit forms), acq_rel and
 * acquire/release, device and all-devices scope; 64 groups x 256 items. */
kernel void c30_orders(global atomic_uint *sum, global atomic_uint *max, global atomic_uint *count,
                       global uint *seen)
{
  uint g = (uint)get_global_id(0);
  atomic_fetch_add(sum, g);                      /* seq_cst, device scope */
  atomic_fetch_max_explicit(max, g, memory_order_acq_rel, memory_scope_all_devices);
  uint before = atomic_fetch_add_explicit(count, 1u, memory_order_release, memory_scope_device);
  seen[before] = 1;                              /* every ticket 0..n-1 taken once */
  if (g == 0)
    atomic_store_explicit(count + 1, 7u, memory_order_seq_cst, memory_scope_device);
}
