/* A store through a null buffer argument faults; the other buffer, which
 * the kernel only writes after the faulting store, stays as it was. */
kernel void null_store(global int *p, global int *other)
{
  size_t i = get_global_id(0);
  p[i] = 1;
  other[i] = 2;
}
