/* Every work-item of every work-group counts into one __global word with
 * atomic_inc, and work-item 0 of each group records the value it got. */
kernel void ok_global_atomic(global int *count, global int *seen)
{
  int old = atomic_inc(count);
  if (get_local_id(0) == 0)
    seen[get_group_id(0)] = old >= 0;
}
