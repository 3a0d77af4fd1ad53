/* group_slot.cl done right: each work-group writes its own word. */
kernel void ok_group_slot(global int *out)
{
  if (get_local_id(0) == 0)
    out[get_group_id(0)] = (int)get_group_id(0);
}
