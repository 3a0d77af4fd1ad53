/* Each work-group writes its id to the same word: the last one wins, and
 * which one that is depends on how the work-groups are scheduled. */
kernel void group_slot(global int *out)
{
  if (get_local_id(0) == 0)
    out[0] = (int)get_group_id(0);
}
